//! The Lua crawl generates from a vault (section 5 of the research note): every header becomes
//! calls in `main`, every map row a `map("...")` call in `mapchunk`, author Lua goes verbatim
//! into its chunk; statements keep their source lines, so that a chunk's line *k* is source line
//! *first + k*.

use std::borrow::Cow;

use levkit_syntax::dcss::{ArgMode, Chunk, Header};
use rowan::TextRange;

use super::{HeaderLine, Vault, spec};

/// One statement of a chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    pub chunk: Chunk,
    /// The source line crawl gives it (segment-relative).
    pub line: u32,
    pub text: String,
    /// Where it comes from.
    pub range: TextRange,
    /// Whether an author wrote it (Lua) rather than crawl generating it from a header or row.
    pub authored: bool,
}

/// A string as crawl quotes it: `\` and `"` escaped, nothing else.
pub fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        if c == '\\' || c == '"' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

fn call(name: &str, arg: &str) -> String {
    format!("{name}({})", quote(arg))
}

/// The function crawl's generated Lua calls for each argument of a header (`subst` for SUBST,
/// `kfeat` for KFEAT...); `None` for NAME and `default-depth:`, which generate nothing, and
/// for CHANCE, WEIGHT and ORDER, whose calls take numbers.
pub fn function_name(header: Header) -> Option<&'static str> {
    Some(match header {
        Header::Name | Header::DefaultDepth => return None,
        Header::Chance | Header::Weight | Header::Order => return None,
        Header::Desc => "desc",
        Header::Depth => "depth",
        Header::Place => "place",
        Header::Orient => "orient",
        Header::Welcome => "welcome",
        Header::LFloorCol => "lfloorcol",
        Header::LRockCol => "lrockcol",
        Header::LFloorTile => "lfloortile",
        Header::LRockTile => "lrocktile",
        Header::Marker => "marker",
        Header::Clear => "clear",
        Header::KFeat => "kfeat",
        Header::KItem => "kitem",
        Header::KMons => "kmons",
        Header::KMask => "kmask",
        Header::KProp => "kprop",
        Header::Subvault => "subvault",
        Header::Tags => "tags",
        Header::Subst => "subst",
        Header::NSubst => "nsubst",
        Header::Shuffle => "shuffle",
        Header::Colour => "colour",
        Header::FTile => "ftile",
        Header::RTile => "rtile",
        Header::Tile => "tile",
        Header::FHeight => "fheight",
        Header::Item => "item",
        Header::Mons => "mons",
    })
}

/// The calls one header generates, each with its line.
fn header_statements(header: &HeaderLine, out: &mut Vec<(u32, String, TextRange)>) {
    let name = match header.header {
        Header::Chance | Header::Weight | Header::Order => {
            return number_statements(header, out);
        }
        other => match function_name(other) {
            Some(name) => name,
            None => return,
        },
    };
    for arg in &header.args {
        let text = if header.header == Header::Marker {
            match spec::lua_marker(&arg.text) {
                Some((key, expression)) => format!(
                    "lua_marker({}, function ()   return {expression} end)",
                    quote(key)
                ),
                None => call(name, &arg.text),
            }
        } else {
            call(name, &arg.text)
        };
        out.push((arg.line, text, arg.range));
    }
    debug_assert!(header.header.mode() != ArgMode::Numbers);
}

fn number_statements(header: &HeaderLine, out: &mut Vec<(u32, String, TextRange)>) {
    for item in &header.numbers {
        let Some(value) = item.value() else { continue };
        let text = match (header.header, &item.depths) {
            (Header::Order, _) => format!("order({value})"),
            (Header::Chance, None) => format!("chance({value})"),
            (Header::Chance, Some(d)) => format!("depth_chance({}, {value})", quote(&d.value)),
            (_, None) => format!("weight({value})"),
            (_, Some(d)) => format!("depth_weight({}, {value})", quote(&d.value)),
        };
        out.push((item.emit_line, text, item.range));
    }
}

/// Every statement of the vault, chunk by chunk, each chunk in source order.
pub fn statements(vault: &Vault) -> Vec<Statement> {
    statements_of(vault, None)
}

/// The statements of one chunk (all of them with `None`), in source order.
pub fn statements_of(vault: &Vault, only: Option<Chunk>) -> Vec<Statement> {
    collect(vault, only, |_| true)
        .into_iter()
        .map(|(chunk, s)| Statement {
            chunk,
            line: s.line,
            text: s.text.into_owned(),
            range: s.range,
            authored: s.authored,
        })
        .collect()
}

/// A statement of one chunk with its text borrowed from the vault where the vault holds it
/// (a line of Lua): the checks read every chunk with Lua in it, and copying each line cost
/// more than reading it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkStatement<'a> {
    /// The source line crawl gives it (segment-relative).
    pub line: u32,
    pub text: Cow<'a, str>,
    /// Where it comes from.
    pub range: TextRange,
    /// Whether an author wrote it (Lua) rather than crawl generating it from a header or row.
    pub authored: bool,
}

/// A statement as [`chunk_body`] reads it.
pub trait ChunkLine {
    fn line(&self) -> u32;
    fn text(&self) -> &str;
}

impl ChunkLine for Statement {
    fn line(&self) -> u32 {
        self.line
    }
    fn text(&self) -> &str {
        &self.text
    }
}

impl ChunkLine for ChunkStatement<'_> {
    fn line(&self) -> u32 {
        self.line
    }
    fn text(&self) -> &str {
        &self.text
    }
}

/// The statements of a chunk that hold Lua an author wrote: the Lua lines, and the calls of
/// `MARKER: K = lua:...` headers (whose expression is pasted as Lua). The other generated
/// calls are left out: they are always valid Lua, and leaving them out leaves the line
/// structure of what remains as it is.
pub fn authored_statements(vault: &Vault, chunk: Chunk) -> Vec<ChunkStatement<'_>> {
    collect(vault, Some(chunk), |h| {
        h.header == levkit_syntax::dcss::Header::Marker
            && h.args.iter().any(|a| super::spec::is_lua_marker(&a.text))
    })
    .into_iter()
    .map(|(_, s)| s)
    .collect()
}

fn collect<'a>(
    vault: &'a Vault,
    only: Option<Chunk>,
    headers: impl Fn(&HeaderLine) -> bool,
) -> Vec<(Chunk, ChunkStatement<'a>)> {
    let wanted = |chunk: Chunk| only.is_none_or(|c| c == chunk);
    // (source offset, statement): headers, rows and Lua interleaved as written.
    // Sized for the rows and Lua lines; headers give a few calls more.
    let lua_lines: usize = (vault.lua.iter())
        .filter(|l| wanted(l.chunk))
        .map(|l| l.lines.len())
        .sum();
    let rows = if wanted(Chunk::Mapchunk) {
        vault.maps.iter().map(|m| m.rows.len()).sum()
    } else {
        0
    };
    let mut all: Vec<(TextRange, Chunk, ChunkStatement<'a>)> = Vec::with_capacity(lua_lines + rows);
    for header in vault
        .headers
        .iter()
        .filter(|h| wanted(Chunk::Main) && headers(h))
    {
        let mut calls = Vec::new();
        header_statements(header, &mut calls);
        for (line, text, range) in calls {
            all.push((
                header.range,
                Chunk::Main,
                ChunkStatement {
                    line,
                    text: Cow::Owned(text),
                    range,
                    authored: false,
                },
            ));
        }
    }
    // Rows only when asked for: passing over them costs as much as the Lua of most chunks.
    for row in wanted(Chunk::Mapchunk)
        .then(|| vault.rows())
        .into_iter()
        .flatten()
    {
        all.push((
            row.range,
            Chunk::Mapchunk,
            ChunkStatement {
                line: row.line,
                text: Cow::Owned(format!("map({})", quote(&row.text))),
                range: row.range,
                authored: false,
            },
        ));
    }
    for lua in vault.lua.iter().filter(|l| wanted(l.chunk)) {
        for line in &lua.lines {
            all.push((
                line.range,
                lua.chunk,
                ChunkStatement {
                    line: line.line,
                    text: Cow::Borrowed(line.text.as_str()),
                    range: line.range,
                    authored: true,
                },
            ));
        }
    }
    // Stable: the calls of one header keep their order. A chunk of Lua alone comes in order
    // already, and sorting it would still allocate the sort's scratch space.
    if !all.is_sorted_by_key(|(range, _, _)| range.start()) {
        all.sort_by_key(|(range, _, _)| range.start());
    }
    all.into_iter().map(|(_, chunk, s)| (chunk, s)).collect()
}

/// A chunk's body as crawl builds it: every statement after one space; a statement on a later
/// line starts as many lines further down, one on the same line continues it. `None` when the
/// chunk has no statement. Also answers the line of its first statement.
pub fn chunk_body<'a, S: ChunkLine + 'a, I>(statements: I) -> Option<(u32, String)>
where
    I: IntoIterator<Item = &'a S>,
    I::IntoIter: Clone,
{
    let statements = statements.into_iter();
    // Sized once: growing the body copied it again at every doubling.
    let (mut size, mut lines) = (0, None::<(u32, u32)>);
    for statement in statements.clone() {
        size += 1 + statement.text().len();
        let line = statement.line();
        lines = Some(lines.map_or((line, line), |(first, last)| (first, last.max(line))));
    }
    let breaks = lines.map_or(0, |(first, last)| last.saturating_sub(first));
    let mut body = String::with_capacity(size + breaks as usize);
    let mut first = None;
    let mut previous = 0;
    for statement in statements {
        let line = statement.line();
        match first {
            None => {
                first = Some(line);
            }
            Some(_) => {
                for _ in previous..line {
                    body.push('\n');
                }
            }
        }
        previous = previous.max(line);
        body.push(' ');
        body.push_str(statement.text());
    }
    first.map(|line| (line, body))
}

/// The vault as crawl's `-dump-maps` prints it.
pub fn dump(vault: &Vault) -> String {
    let statements = statements(vault);
    let mut out = String::new();
    out.push('\n');
    out.push_str(&"-".repeat(40));
    out.push_str("\nMap: ");
    out.push_str(&vault.name.value);
    out.push('\n');
    for chunk in Chunk::ALL {
        if let Some((_, body)) = chunk_body(statements.iter().filter(|s| s.chunk == chunk)) {
            out.push_str("function ");
            out.push_str(chunk.name());
            out.push_str("()\n");
            out.push_str(&body);
            out.push_str("\nend\n");
        }
    }
    out.push('\n');
    out
}
