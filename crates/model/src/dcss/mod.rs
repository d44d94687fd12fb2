//! DCSS vaults as plain data: each segment of a file (a vault, or the file-level text before
//! and between vaults) lowered on its own, with every header, map row and Lua line at its
//! source range and line. Lines are counted from the segment's start (1 for its first line):
//! everything crawl does with lines is relative (the generated Lua keeps line *differences*),
//! so a segment's model does not change when text is edited elsewhere in the file.
//!
//! `lower` keeps the headers' arguments as crawl's lexer cuts them; [`spec`] turns the
//! glyph-keyed ones into typed transforms (SUBST, NSUBST, SHUFFLE, K*...) and [`lua`] builds
//! the Lua crawl generates from the vault.

pub mod depth;
pub mod lua;
pub mod spec;
pub mod tables;

use levkit_syntax::SyntaxKind::{self, *};
use levkit_syntax::dcss::{ArgMode, Chunk, Header};
use levkit_syntax::{SyntaxNode, SyntaxToken};
use rowan::{TextRange, TextSize};

use crate::Spanned;

/// A segment of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    /// Text outside vaults: a `default-depth:` line, if it starts the segment, and file-level
    /// Lua.
    Global(Global),
    Vault(Vault),
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Global {
    pub default_depth: Option<HeaderLine>,
    pub lua: Vec<Lua>,
}

/// One vault: everything from its `NAME:` to the next segment, in source order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vault {
    pub name: Spanned<String>,
    /// The whole segment.
    pub range: TextRange,
    pub headers: Vec<HeaderLine>,
    pub maps: Vec<MapBlock>,
    pub lua: Vec<Lua>,
    /// The line where crawl notices that the vault has ended (the next vault's `NAME:`, a
    /// `default-depth:`, or the line after the last): where it reports whole-vault problems.
    pub end_line: u32,
    /// Whether the segment ended without a line end after its last line.
    pub ends_mid_line: bool,
}

/// A header and its arguments as crawl's lexer cuts them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderLine {
    pub header: Header,
    pub keyword: TextRange,
    /// The whole header, continuation lines included.
    pub range: TextRange,
    /// Whole-line value, comma-list items, or TAGS words (each with its last line).
    pub args: Vec<Arg>,
    /// CHANCE, WEIGHT and ORDER.
    pub numbers: Vec<NumberItem>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arg {
    /// The text crawl passes on: continuation pieces joined, trimmed.
    pub text: String,
    /// From the first piece to the last (empty at the value's place when there is no text).
    pub range: TextRange,
    /// The last physical line of the argument.
    pub line: u32,
}

/// `N`, `N%`, `N (depths)` of CHANCE, WEIGHT or ORDER.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NumberItem {
    /// The number as written.
    pub number: Spanned<String>,
    pub percent: bool,
    pub depths: Option<Spanned<String>>,
    /// The whole item.
    pub range: TextRange,
    /// The line crawl gives the generated call: its own line, except for an item without
    /// depths, which bison reduces only after reading the next token (that token's line).
    pub emit_line: u32,
}

impl NumberItem {
    /// The value crawl stores: the number, times 100 after `%`, truncated to an integer.
    pub fn value(&self) -> Option<i64> {
        let n: f64 = self.number.value.parse().ok()?;
        let n = if self.percent { n * 100.0 } else { n };
        Some(n as i64)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapBlock {
    pub range: TextRange,
    pub rows: Vec<MapRow>,
    /// Whether `ENDMAP` closes it (crawl accepts a map that runs to the end of the file).
    pub closed: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapRow {
    /// The row as crawl keeps it: up to the first tab, trailing blanks removed.
    pub text: String,
    pub range: TextRange,
    pub line: u32,
}

/// A `:` line or a `{{ }}` block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lua {
    pub chunk: Chunk,
    pub range: TextRange,
    pub is_block: bool,
    /// Whether a block is closed by `}}` (crawl accepts one that runs to the end of the file).
    pub closed: bool,
    /// The statements it gives its chunk: each line's text as crawl passes it on.
    pub lines: Vec<LuaLine>,
    /// The line of the opener (`:` or `{{`).
    pub line: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LuaLine {
    pub text: String,
    pub range: TextRange,
    pub line: u32,
}

/// Line numbers of a segment's offsets.
struct Lines {
    starts: Vec<u32>,
}

impl Lines {
    fn new(text: &str) -> Lines {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i as u32 + 1),
        );
        Lines { starts }
    }

    /// The 1-based line of an offset.
    fn line(&self, offset: TextSize) -> u32 {
        let offset = u32::from(offset);
        self.starts.partition_point(|&s| s <= offset) as u32
    }
}

/// Whether crawl's lexer hands this token to its grammar (comments, blanks, `MAP`, `ENDMAP`,
/// `}}` and continuations are not tokens to it).
fn is_crawl_token(kind: SyntaxKind) -> bool {
    matches!(
        kind,
        DCSS_HEADER_KW
            | DCSS_VALUE
            | DCSS_ITEM
            | DCSS_WORD
            | DCSS_NUMBER
            | DCSS_PERCENT
            | COMMA
            | L_PAREN
            | MAP_ROW
            | LUA_MARK
            | LUA_OPEN
            | LUA_TEXT
    )
}

/// Lowers a segment's tree (from `levkit_syntax::dcss::parse_segment`, or a segment node of
/// a whole file's tree, whose offsets are then the file's).
pub fn lower(root: &SyntaxNode) -> Segment {
    let text = root.text().to_string();
    let base = root.text_range().start();
    let lines = Lines::new(&text);
    let line_of = |offset: TextSize| lines.line(offset - base);
    let end_line = lines.line(TextSize::of(text.as_str()));
    let ends_mid_line = !text.is_empty() && !text.ends_with('\n');
    // The line of the first crawl token after the token ending at `offset`, or of the
    // segment's end (only CHANCE and WEIGHT items without depths ask).
    let next_token_line = |offset: TextSize| {
        let mut token = root.token_at_offset(offset).left_biased();
        while let Some(current) = token {
            let next = current.next_token();
            if let Some(next) = &next
                && is_crawl_token(next.kind())
            {
                return line_of(next.text_range().start());
            }
            token = next;
        }
        end_line
    };
    let mut headers = Vec::new();
    let mut maps = Vec::new();
    let mut lua = Vec::new();
    for node in root.children() {
        match node.kind() {
            DCSS_HEADER => {
                if let Some(header) = header_line(&node, &line_of, &next_token_line) {
                    headers.push(header);
                }
            }
            DCSS_MAP => maps.push(map_block(&node, &line_of)),
            LUA_LINE | LUA_BLOCK => lua.push(lua_piece(&node, &line_of)),
            _ => {}
        }
    }
    if root.kind() == DCSS_VAULT {
        let name = headers
            .iter()
            .find(|h| h.header == Header::Name)
            .and_then(|h| h.args.first())
            .map(|a| Spanned::new(a.text.clone(), a.range))
            .unwrap_or_else(|| Spanned::new(String::new(), TextRange::empty(base)));
        Segment::Vault(Vault {
            name,
            range: root.text_range(),
            headers,
            maps,
            lua,
            end_line,
            ends_mid_line,
        })
    } else {
        let default_depth = headers
            .into_iter()
            .find(|h| h.header == Header::DefaultDepth);
        Segment::Global(Global { default_depth, lua })
    }
}

fn header_line(
    node: &SyntaxNode,
    line_of: &impl Fn(TextSize) -> u32,
    next_token_line: &impl Fn(TextSize) -> u32,
) -> Option<HeaderLine> {
    let tokens: Vec<SyntaxToken> = node
        .children_with_tokens()
        .filter_map(|e| e.into_token())
        .collect();
    let keyword = tokens.iter().find(|t| t.kind() == DCSS_HEADER_KW)?;
    let header = Header::from_keyword(keyword.text())?;
    let mut args = Vec::new();
    let mut numbers = Vec::new();
    let value_start = keyword.text_range().end() + TextSize::from(1);
    match header.mode() {
        ArgMode::WholeLine | ArgMode::Items | ArgMode::Monsters => {
            let piece_kind = if header.mode() == ArgMode::WholeLine {
                DCSS_VALUE
            } else {
                DCSS_ITEM
            };
            let mut text = String::new();
            let mut range: Option<TextRange> = None;
            let mut any = false;
            let mut flush = |text: &mut String, range: &mut Option<TextRange>, at: TextSize| {
                let r = range.take().unwrap_or(TextRange::empty(at));
                args.push(Arg {
                    text: std::mem::take(text).trim_matches([' ', '\t']).to_string(),
                    range: r,
                    line: line_of(r.end()),
                });
            };
            for token in &tokens {
                let kind = token.kind();
                if kind == piece_kind {
                    text.push_str(token.text());
                    let r = token.text_range();
                    range = Some(range.map_or(r, |x| x.cover(r)));
                    any = true;
                } else if kind == COMMA {
                    flush(&mut text, &mut range, token.text_range().start());
                    any = true;
                }
            }
            if header.mode() == ArgMode::WholeLine || any {
                let at = tokens.last().map_or(value_start, |t| t.text_range().end());
                let at = if range.is_none() && header.mode() == ArgMode::WholeLine {
                    value_start.min(at)
                } else {
                    at
                };
                flush(&mut text, &mut range, at);
            }
            // crawl's lexer cannot read a one-character item: it drops it (the grammar then
            // fails, which the parser reports).
            if header.mode() != ArgMode::WholeLine {
                args.retain(|a| a.text.len() != 1);
            }
        }
        ArgMode::Words => {
            for token in tokens.iter().filter(|t| t.kind() == DCSS_WORD) {
                args.push(Arg {
                    text: token.text().to_string(),
                    range: token.text_range(),
                    line: line_of(token.text_range().end()),
                });
            }
        }
        ArgMode::Numbers => {
            let mut i = 0;
            while i < tokens.len() {
                let token = &tokens[i];
                if token.kind() != DCSS_NUMBER {
                    i += 1;
                    continue;
                }
                let number = Spanned::new(token.text().to_string(), token.text_range());
                let mut end = token.text_range().end();
                let mut percent = false;
                let mut depths = None;
                let mut closed_range = None;
                let mut j = i + 1;
                let skip_trivia = |j: &mut usize| {
                    while *j < tokens.len() && tokens[*j].kind().is_trivia() {
                        *j += 1;
                    }
                };
                skip_trivia(&mut j);
                if j < tokens.len() && tokens[j].kind() == DCSS_PERCENT {
                    percent = true;
                    end = tokens[j].text_range().end();
                    j += 1;
                    skip_trivia(&mut j);
                }
                if j < tokens.len() && tokens[j].kind() == L_PAREN {
                    let open = tokens[j].text_range();
                    j += 1;
                    let mut value = Spanned::new(String::new(), TextRange::empty(open.end()));
                    while j < tokens.len() && tokens[j].kind() != R_PAREN {
                        if tokens[j].kind() == DCSS_VALUE {
                            value =
                                Spanned::new(tokens[j].text().to_string(), tokens[j].text_range());
                        }
                        j += 1;
                    }
                    if j < tokens.len() {
                        end = tokens[j].text_range().end();
                        closed_range = Some(line_of(tokens[j].text_range().start()));
                        j += 1;
                    }
                    depths = Some(value);
                }
                let emit_line = match closed_range {
                    Some(line) if header != Header::Order => line,
                    _ if header == Header::Order => line_of(number.range.end()),
                    _ => next_token_line(end),
                };
                numbers.push(NumberItem {
                    range: TextRange::new(number.range.start(), end),
                    number,
                    percent,
                    depths,
                    emit_line,
                });
                i = j;
            }
        }
    }
    Some(HeaderLine {
        header,
        keyword: keyword.text_range(),
        range: node.text_range(),
        args,
        numbers,
    })
}

fn map_block(node: &SyntaxNode, line_of: &impl Fn(TextSize) -> u32) -> MapBlock {
    let mut rows = Vec::new();
    let mut closed = false;
    for token in node.children_with_tokens().filter_map(|e| e.into_token()) {
        match token.kind() {
            MAP_ROW => rows.push(MapRow {
                text: token.text().to_string(),
                range: token.text_range(),
                line: line_of(token.text_range().start()),
            }),
            ENDMAP_KW => closed = true,
            _ => {}
        }
    }
    MapBlock {
        range: node.text_range(),
        rows,
        closed,
    }
}

fn lua_piece(node: &SyntaxNode, line_of: &impl Fn(TextSize) -> u32) -> Lua {
    let is_block = node.kind() == LUA_BLOCK;
    let mut chunk = Chunk::Main;
    let mut lines = Vec::new();
    let mut closed = false;
    let mut opener_line = line_of(node.text_range().start());
    let tokens: Vec<SyntaxToken> = node
        .children_with_tokens()
        .filter_map(|e| e.into_token())
        .collect();
    for (i, token) in tokens.iter().enumerate() {
        match token.kind() {
            LUA_CHUNK_KW => chunk = Chunk::from_block_word(token.text()).unwrap_or(Chunk::Main),
            LUA_OPEN | LUA_MARK => opener_line = line_of(token.text_range().start()),
            LUA_CLOSE => closed = true,
            LUA_TEXT => {
                // Text before `}}` is kept as written; a whole line loses its trailing blanks.
                let before_close = tokens.get(i + 1).is_some_and(|t| t.kind() == LUA_CLOSE);
                let text = if before_close {
                    token.text()
                } else {
                    token.text().trim_end_matches([' ', '\t', '\r'])
                };
                if !text.is_empty() {
                    lines.push(LuaLine {
                        text: text.to_string(),
                        range: token.text_range(),
                        line: line_of(token.text_range().start()),
                    });
                }
            }
            _ => {}
        }
    }
    Lua {
        chunk,
        range: node.text_range(),
        is_block,
        closed: closed || !is_block,
        lines,
        line: opener_line,
    }
}

impl Vault {
    /// The headers of a kind, in order.
    pub fn headers_of(&self, header: Header) -> impl Iterator<Item = &HeaderLine> {
        self.headers.iter().filter(move |h| h.header == header)
    }

    /// Every map row of every map block, in order (crawl concatenates the blocks).
    pub fn rows(&self) -> impl Iterator<Item = &MapRow> {
        self.maps.iter().flat_map(|m| m.rows.iter())
    }

    /// Whether the vault has Lua of its own (which may change what the headers say).
    pub fn has_lua(&self) -> bool {
        self.lua.iter().any(|l| !l.lines.is_empty())
            || self
                .headers_of(Header::Marker)
                .any(|h| h.args.iter().any(|a| spec::is_lua_marker(&a.text)))
    }

    /// The TAGS words, in order.
    pub fn tags(&self) -> impl Iterator<Item = &Arg> {
        self.headers_of(Header::Tags).flat_map(|h| h.args.iter())
    }
}
