//! A vault made ready to run: its map rows, every statement crawl generates from it (header
//! calls, map rows, the author's Lua) with its source range, and its Lua chunks as crawl
//! builds them. Made once, run for many seeds.

use levkit_model::dcss::lua::{chunk_body, function_name, statements_of};
use levkit_model::dcss::{Global, Vault};
use levkit_syntax::dcss::{Chunk, Header};
use rowan::TextRange;

/// Something of the source a change can be traced to: a header's argument, a map row, a Lua
/// line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    pub range: TextRange,
    /// The segment-relative line crawl gives it.
    pub line: u32,
    pub chunk: Chunk,
    /// What it is, in words (`SUBST: x = c:5 v`, `Lua`).
    pub what: String,
}

/// A header call of the `main` chunk: `subst("x = y")` as data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    pub function: &'static str,
    pub arg: String,
    /// Its [`Site`].
    pub site: u32,
}

/// A Lua chunk as crawl builds it: its text, and the first source line (chunk line `k` is
/// source line `first + k - 1`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LuaChunk {
    pub chunk: Chunk,
    pub first: u32,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    pub name: String,
    /// The map rows as crawl keeps them (bytes), each with its [`Site`].
    pub rows: Vec<(Vec<u8>, u32)>,
    pub sites: Vec<Site>,
    /// The header calls of `main` in source order (what runs when the vault has no Lua).
    pub calls: Vec<Call>,
    /// Whether an author wrote Lua in any chunk (then the chunks run in the sandbox).
    pub has_lua: bool,
    /// The chunks other than `mapchunk`, as crawl builds them.
    pub chunks: Vec<LuaChunk>,
    /// The whole segment.
    pub range: TextRange,
    /// The tags written in TAGS headers (Lua may add more).
    pub tags: Vec<String>,
    /// WEIGHT without depths (10 when none), for choosing among vaults of a tag.
    pub weight: u32,
    /// The first DEPTH or PLACE list, for the default place.
    pub depth: Option<String>,
}

/// A statement before it becomes a [`Site`]: its range, line, chunk, words, and the header
/// call it makes.
type Piece = (
    TextRange,
    u32,
    Chunk,
    String,
    Option<(&'static str, String)>,
);

impl Program {
    pub fn new(vault: &Vault) -> Program {
        let mut sites = Vec::new();
        let mut calls = Vec::new();
        let mut rows = Vec::new();
        // Headers, rows and Lua lines in source order, as crawl's chunks list them.
        let mut pieces: Vec<Piece> = Vec::new();
        for header in &vault.headers {
            let Some(function) = function_name(header.header) else {
                continue;
            };
            for arg in &header.args {
                pieces.push((
                    arg.range,
                    arg.line,
                    Chunk::Main,
                    format!(
                        "{}: {}",
                        header.header.keyword().trim_end_matches(':'),
                        arg.text
                    ),
                    Some((function, arg.text.as_str().to_owned())),
                ));
            }
        }
        for row in vault.rows() {
            pieces.push((row.range, row.line, Chunk::Mapchunk, "map row".into(), None));
        }
        for lua in &vault.lua {
            for line in &lua.lines {
                pieces.push((line.range, line.line, lua.chunk, "Lua".into(), None));
            }
        }
        pieces.sort_by_key(|p| p.0.start());
        let row_texts: Vec<&[u8]> = vault.rows().map(|r| r.text.as_bytes()).collect();
        let mut next_row = 0;
        for (range, line, chunk, what, call) in pieces {
            let site = sites.len() as u32;
            if chunk == Chunk::Mapchunk {
                rows.push((row_texts[next_row].to_vec(), site));
                next_row += 1;
            }
            if let Some((function, arg)) = call {
                calls.push(Call {
                    function,
                    arg,
                    site,
                });
            }
            sites.push(Site {
                range,
                line,
                chunk,
                what,
            });
        }
        let has_lua = vault.lua.iter().any(|l| l.has_code());
        let chunks = if has_lua {
            Chunk::ALL
                .into_iter()
                .filter(|&c| c != Chunk::Mapchunk)
                .filter_map(|chunk| {
                    let statements = statements_of(vault, Some(chunk));
                    let (first, text) = chunk_body(&statements)?;
                    Some(LuaChunk { chunk, first, text })
                })
                .collect()
        } else {
            Vec::new()
        };
        let weight = vault
            .headers_of(Header::Weight)
            .flat_map(|h| &h.numbers)
            .find(|n| n.depths.is_none())
            .and_then(|n| n.value())
            .map_or(10, |v| v.clamp(0, u32::MAX as i64) as u32);
        let depth = vault
            .headers_of(Header::Depth)
            .chain(vault.headers_of(Header::Place))
            .flat_map(|h| &h.args)
            .map(|a| a.text.as_str().to_owned())
            .find(|t| !t.is_empty());
        Program {
            name: vault.name.value.clone(),
            rows,
            sites,
            calls,
            has_lua,
            chunks,
            range: vault.range,
            tags: vault.tags().map(|a| a.text.as_str().to_owned()).collect(),
            weight,
            depth,
        }
    }

    /// The site of a chunk's line (the first statement crawl put on it, else the last
    /// before it).
    pub fn site_at(&self, chunk: Chunk, line: u32) -> Option<u32> {
        let on = |s: &Site| s.chunk == chunk;
        let exact = self
            .sites
            .iter()
            .position(|s| on(s) && s.line == line)
            .or_else(|| self.sites.iter().rposition(|s| on(s) && s.line <= line))?;
        Some(exact as u32)
    }

    pub fn chunk(&self, chunk: Chunk) -> Option<&LuaChunk> {
        self.chunks.iter().find(|c| c.chunk == chunk)
    }

    pub fn has_tag(&self, tag: &str) -> bool {
        self.tags.iter().any(|t| t == tag)
    }
}

/// A file's Lua outside its vaults, in order: what crawl runs once when it loads the file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FileLua {
    /// Each piece with the line it starts on (segment-relative) and the segment's start.
    pub pieces: Vec<(String, u32)>,
}

impl FileLua {
    pub fn new<'a>(globals: impl IntoIterator<Item = &'a Global>) -> FileLua {
        let mut pieces = Vec::new();
        for global in globals {
            let statements: Vec<levkit_model::dcss::lua::Statement> = global
                .lua
                .iter()
                .flat_map(|lua| {
                    lua.lines
                        .iter()
                        .map(|line| levkit_model::dcss::lua::Statement {
                            chunk: Chunk::Main,
                            line: line.line,
                            text: line.text.as_str().to_owned(),
                            range: line.range,
                            authored: true,
                        })
                })
                .collect();
            if let Some((first, text)) = chunk_body(&statements) {
                pieces.push((text, first));
            }
        }
        FileLua { pieces }
    }

    pub fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }

    /// Whether the text defines `name` as a global: `function name(`, or `name =` at the
    /// start of a line (a cheap test before running another file's Lua to find a function).
    pub fn defines(&self, name: &str) -> bool {
        self.defined_names().iter().any(|n| n == name)
    }

    /// Every name [`FileLua::defines`], in order, each once.
    pub fn defined_names(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for (text, _) in &self.pieces {
            for line in text.lines() {
                let line = line.trim_start();
                let rest = line
                    .strip_prefix("function")
                    .map(str::trim_start)
                    .unwrap_or(line);
                let is_function = rest.len() != line.len();
                let length = rest
                    .find(|c: char| {
                        !(c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == ':')
                    })
                    .unwrap_or(rest.len());
                if length == 0 {
                    continue;
                }
                let after = rest[length..].trim_start();
                let defines = if is_function {
                    after.starts_with('(')
                } else {
                    after.starts_with('=') && !after.starts_with("==")
                };
                if defines && !out.iter().any(|n| n == &rest[..length]) {
                    out.push(rest[..length].to_string());
                }
            }
        }
        out
    }
}
