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
mod piece;
pub mod spec;
pub mod strings;
pub mod tables;

use levkit_syntax::SyntaxKind::{self, *};
use levkit_syntax::dcss::{ArgMode, Chunk, Header};
use levkit_syntax::{FlatParse, SyntaxNode, Token};
use rowan::{TextRange, TextSize};

use crate::Spanned;
pub use piece::Piece;

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
    pub args: Args,
    /// CHANCE, WEIGHT and ORDER.
    pub numbers: Vec<NumberItem>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arg {
    /// The text crawl passes on: continuation pieces joined, trimmed.
    pub text: Piece,
    /// From the first piece to the last (empty at the value's place when there is no text).
    pub range: TextRange,
    /// The last physical line of the argument.
    pub line: u32,
}

/// A header's arguments, read as a slice. Most headers have one, which is kept in place
/// rather than in a list of its own: a list per header was 38,000 allocations on the corpus
/// check.
#[derive(Clone, Default)]
pub struct Args(ArgList);

#[derive(Clone)]
enum ArgList {
    One(Arg),
    Many(Vec<Arg>),
}

impl Default for ArgList {
    fn default() -> ArgList {
        ArgList::Many(Vec::new())
    }
}

impl Args {
    /// Room for `count` arguments; one needs none.
    fn with_capacity(count: usize) -> Args {
        Args(ArgList::Many(if count > 1 {
            Vec::with_capacity(count)
        } else {
            Vec::new()
        }))
    }

    fn push(&mut self, arg: Arg) {
        match &mut self.0 {
            ArgList::Many(list) if list.is_empty() && list.capacity() == 0 => {
                self.0 = ArgList::One(arg)
            }
            ArgList::Many(list) => list.push(arg),
            ArgList::One(_) => {
                let ArgList::One(first) = std::mem::take(&mut self.0) else {
                    return;
                };
                self.0 = ArgList::Many(vec![first, arg]);
            }
        }
    }

    fn retain(&mut self, keep: impl FnMut(&Arg) -> bool) {
        match &mut self.0 {
            ArgList::One(arg) => {
                let mut keep = keep;
                if !keep(arg) {
                    self.0 = ArgList::default();
                }
            }
            ArgList::Many(list) => list.retain(keep),
        }
    }
}

impl From<Vec<Arg>> for Args {
    fn from(mut list: Vec<Arg>) -> Args {
        match list.pop() {
            Some(arg) if list.is_empty() => Args(ArgList::One(arg)),
            Some(arg) => {
                list.push(arg);
                Args(ArgList::Many(list))
            }
            None => Args(ArgList::Many(list)),
        }
    }
}

impl std::ops::Deref for Args {
    type Target = [Arg];

    fn deref(&self) -> &[Arg] {
        match &self.0 {
            ArgList::One(arg) => std::slice::from_ref(arg),
            ArgList::Many(list) => list,
        }
    }
}

impl<'a> IntoIterator for &'a Args {
    type Item = &'a Arg;
    type IntoIter = std::slice::Iter<'a, Arg>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl PartialEq for Args {
    fn eq(&self, other: &Args) -> bool {
        **self == **other
    }
}

impl Eq for Args {}

/// As a `Vec` shows: the model's debug dumps do not change.
impl std::fmt::Debug for Args {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
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
    pub text: Piece,
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
    pub text: Piece,
    pub range: TextRange,
    pub line: u32,
}

impl Lua {
    /// Whether a line holds code: a line of blanks is a statement to crawl, but does nothing.
    pub fn has_code(&self) -> bool {
        self.lines.iter().any(|l| !l.text.trim().is_empty())
    }
}

/// A node just below the segment's root: its kind, range and tokens (a span of the
/// segment's), and the line of its first token. Lines are counted from there as its tokens
/// are read, rather than stored with every token: the flat parse's tokens are then lowered
/// as they are, not copied.
#[derive(Clone)]
struct Node {
    kind: SyntaxKind,
    range: TextRange,
    tokens: std::ops::Range<usize>,
    /// The 1-based line of its first token, counted from the segment's start.
    line: u32,
}

/// `tokens`, each with the 1-based line of its start, the first on `line`.
fn with_lines(tokens: &[Token], line: u32) -> impl Iterator<Item = (u32, &Token)> {
    tokens.iter().scan(line, |line, token| {
        let this = *line;
        if token.kind == NEWLINE {
            *line += 1;
        }
        Some((this, token))
    })
}

/// `text` without the blanks (spaces and tabs) around it.
fn trim_blanks(text: &str) -> &str {
    let text = trim_end_bytes(text, b" \t");
    &text[leading_blanks(text)..]
}

/// The length of the blanks (spaces and tabs) that start `text`.
fn leading_blanks(text: &str) -> usize {
    text.bytes()
        .take_while(|&b| b == b' ' || b == b'\t')
        .count()
}

/// `text` without the run of `bytes` (ASCII) that ends it. Byte by byte: `trim_end_matches`
/// decodes characters, and this runs on every Lua line and argument.
fn trim_end_bytes<'a>(text: &'a str, bytes: &[u8]) -> &'a str {
    debug_assert!(bytes.is_ascii());
    let kept = text
        .bytes()
        .rposition(|b| !bytes.contains(&b))
        .map_or(0, |i| i + 1);
    &text[..kept]
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

fn kind_of(raw: rowan::SyntaxKind) -> SyntaxKind {
    <levkit_syntax::LevLanguage as rowan::Language>::kind_from_raw(raw)
}

/// Appends the tokens under `node` (starting at `offset`, on `line`) to `out`.
fn flatten(
    node: &rowan::GreenNodeData,
    offset: &mut TextSize,
    line: &mut u32,
    out: &mut Vec<Token>,
) {
    for child in node.children() {
        match child {
            rowan::NodeOrToken::Node(node) => flatten(node, offset, line, out),
            rowan::NodeOrToken::Token(token) => {
                let kind = kind_of(token.kind());
                let range = TextRange::at(*offset, token.text_len());
                out.push(Token {
                    kind,
                    range,
                    header: None,
                });
                *offset = range.end();
                if kind == NEWLINE {
                    *line += 1;
                }
            }
        }
    }
}

/// Lowers a segment's tree (from `levkit_syntax::dcss::parse_segment`, or a segment node of
/// a whole file's tree, whose offsets are then the file's).
pub fn lower(root: &SyntaxNode) -> Segment {
    let base = root.text_range().start();
    let source = Piece::from(root.text().to_string());
    let green = root.green();
    // The segment's tokens, and each child node's kind and token span.
    let mut tokens: Vec<Token> = Vec::new();
    let mut nodes: Vec<Node> = Vec::new();
    let mut offset = base;
    let mut line = 1;
    for child in green.children() {
        match child {
            rowan::NodeOrToken::Node(node) => {
                let first = tokens.len();
                let (start, first_line) = (offset, line);
                flatten(node, &mut offset, &mut line, &mut tokens);
                nodes.push(Node {
                    kind: kind_of(node.kind()),
                    range: TextRange::new(start, offset),
                    tokens: first..tokens.len(),
                    line: first_line,
                });
            }
            rowan::NodeOrToken::Token(token) => {
                let kind = kind_of(token.kind());
                let range = TextRange::at(offset, token.text_len());
                tokens.push(Token {
                    kind,
                    range,
                    header: None,
                });
                offset = range.end();
                if kind == NEWLINE {
                    line += 1;
                }
            }
        }
    }
    let text = Text {
        source: &source,
        base,
    };
    lower_parts(
        kind_of(green.kind()),
        root.text_range(),
        &text,
        &tokens,
        nodes.iter().map(|n| n.kind),
        nodes.iter().cloned(),
        || line,
    )
}

/// Lowers a segment from its flat parse (`levkit_syntax::dcss::parse_segment_flat`), which
/// gives the same model as its tree for less work. The model's pieces of text share `text`'s.
pub fn lower_flat(text: &Piece, parse: &FlatParse) -> Segment {
    let tokens = &parse.tokens[..];
    let end = TextSize::of(&**text);
    // The line of each node's first token: the line ends before it, each counted once (the
    // nodes come in order). In cells, since both the nodes (made as they are lowered) and the
    // segment's end line (asked for after them) count.
    let (line, counted) = (std::cell::Cell::new(1), std::cell::Cell::new(0));
    let count_to = |at: usize| {
        let mut n = line.get();
        for token in tokens.get(counted.get()..at).unwrap_or_default() {
            n += u32::from(token.kind == NEWLINE);
        }
        counted.set(at);
        line.set(n);
        n
    };
    let nodes = parse.nodes.iter().map(|(kind, span)| {
        let start = tokens.get(span.start).map_or(end, |t| t.range.start());
        let finish = if span.is_empty() {
            start
        } else {
            tokens[span.end - 1].range.end()
        };
        Node {
            kind: *kind,
            range: TextRange::new(start, finish),
            tokens: span.clone(),
            line: count_to(span.start.min(tokens.len())),
        }
    });
    let source = Text {
        source: text,
        base: TextSize::from(0),
    };
    lower_parts(
        parse.root,
        TextRange::up_to(end),
        &source,
        tokens,
        parse.nodes.iter().map(|(kind, _)| *kind),
        nodes,
        || count_to(tokens.len()),
    )
}

/// The segment's text as the model's pieces share it, and the offset of its start (a
/// segment node of a whole file's tree has the file's offsets).
struct Text<'a> {
    source: &'a Piece,
    base: TextSize,
}

impl Text<'_> {
    /// The text at `range` (in the tokens' offsets).
    fn of(&self, range: TextRange) -> &str {
        let range = range - self.base;
        self.source
            .get(usize::from(range.start())..usize::from(range.end()))
            .unwrap_or("")
    }

    /// The piece of the text at `range` (in the tokens' offsets).
    fn piece(&self, range: TextRange) -> Piece {
        let range = range - self.base;
        self.source
            .piece(usize::from(range.start())..usize::from(range.end()))
    }
}

/// The model of a segment from its tokens and top-level nodes (`kinds`: the nodes' kinds;
/// `end_line`: the line after its last line break, asked for once the nodes are read).
fn lower_parts(
    root_kind: SyntaxKind,
    root_range: TextRange,
    text: &Text,
    tokens: &[Token],
    kinds: impl Iterator<Item = SyntaxKind>,
    nodes: impl Iterator<Item = Node>,
    end_line: impl FnOnce() -> u32,
) -> Segment {
    let base = root_range.start();
    let ends_mid_line = tokens.last().is_some_and(|t| t.kind != NEWLINE);
    // The line of the first crawl token after token `i` (which starts on `line`), or of the
    // segment's end (only CHANCE and WEIGHT items without depths ask).
    let next_token_line = |i: usize, mut line: u32| {
        if tokens[i].kind == NEWLINE {
            line += 1;
        }
        for token in &tokens[i + 1..] {
            if is_crawl_token(token.kind) {
                return line;
            }
            if token.kind == NEWLINE {
                line += 1;
            }
        }
        // No token follows: the segment's end, the line after its last line break.
        line
    };
    // Each list sized once (counted in one pass): a vault has a dozen headers, and growing
    // them copied each.
    let (mut header_count, mut map_count, mut lua_count) = (0, 0, 0);
    for kind in kinds {
        match kind {
            DCSS_HEADER => header_count += 1,
            DCSS_MAP => map_count += 1,
            LUA_LINE | LUA_BLOCK => lua_count += 1,
            _ => {}
        }
    }
    let mut headers = Vec::with_capacity(header_count);
    let mut maps = Vec::with_capacity(map_count);
    let mut lua = Vec::with_capacity(lua_count);
    for node in nodes {
        let node = &node;
        match node.kind {
            DCSS_HEADER => {
                if let Some(header) = header_line(node, text, tokens, &next_token_line) {
                    headers.push(header);
                }
            }
            DCSS_MAP => maps.push(map_block(node, text, &tokens[node.tokens.clone()])),
            LUA_LINE | LUA_BLOCK => lua.push(lua_piece(node, text, &tokens[node.tokens.clone()])),
            _ => {}
        }
    }
    if root_kind == DCSS_VAULT {
        let name = headers
            .iter()
            .find(|h| h.header == Header::Name)
            .and_then(|h| h.args.first())
            .map(|a| Spanned::new(a.text.as_str().to_owned(), a.range))
            .unwrap_or_else(|| Spanned::new(String::new(), TextRange::empty(base)));
        Segment::Vault(Vault {
            name,
            range: root_range,
            headers,
            maps,
            lua,
            end_line: end_line(),
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
    node: &Node,
    source: &Text,
    all: &[Token],
    next_token_line: &impl Fn(usize, u32) -> u32,
) -> Option<HeaderLine> {
    let first = node.tokens.start;
    let tokens = &all[node.tokens.clone()];
    let (keyword_line, keyword) =
        with_lines(tokens, node.line).find(|(_, t)| t.kind == DCSS_HEADER_KW)?;
    let header = keyword
        .header
        .or_else(|| Header::from_keyword(source.of(keyword.range)))?;
    // Sized once, allocated at that size: a header has a few arguments.
    let arg_count = match header.mode() {
        ArgMode::WholeLine => 1,
        ArgMode::Items | ArgMode::Monsters => 1 + tokens.iter().filter(|t| t.kind == COMMA).count(),
        ArgMode::Words => tokens
            .iter()
            .filter(|t| matches!(t.kind, DCSS_WORD | L_PAREN))
            .count(),
        ArgMode::Numbers => 0,
    };
    let mut args = Args::with_capacity(arg_count);
    let mut numbers = Vec::new();
    let value_start = keyword.range.end() + TextSize::from(1);
    match header.mode() {
        ArgMode::WholeLine | ArgMode::Items | ArgMode::Monsters => {
            let piece_kind = if header.mode() == ArgMode::WholeLine {
                DCSS_VALUE
            } else {
                DCSS_ITEM
            };
            // The argument's pieces so far: the first, and all of them joined once there are
            // several (continuation lines); most arguments are one piece, a range of the text.
            let mut text = Pieces::default();
            let mut range: Option<TextRange> = None;
            let mut last_line = keyword_line;
            // The line of the last token.
            let mut end_line = keyword_line;
            let mut any = false;
            let mut flush =
                |text: &mut Pieces, range: &mut Option<TextRange>, at: TextSize, line: u32| {
                    args.push(Arg {
                        text: text.take(source),
                        range: range.take().unwrap_or(TextRange::empty(at)),
                        line,
                    });
                };
            for (line, token) in with_lines(tokens, node.line) {
                end_line = line;
                if token.kind == piece_kind {
                    text.push(source.of(token.range), token.range);
                    range = Some(range.map_or(token.range, |x| x.cover(token.range)));
                    last_line = line;
                    any = true;
                } else if token.kind == COMMA {
                    let line = if range.is_some() { last_line } else { line };
                    flush(&mut text, &mut range, token.range.start(), line);
                    any = true;
                }
            }
            if header.mode() == ArgMode::WholeLine || any {
                let end = tokens.last().map_or(value_start, |t| t.range.end());
                let at = if range.is_none() && header.mode() == ArgMode::WholeLine {
                    value_start.min(end)
                } else {
                    end
                };
                let line = if range.is_some() { last_line } else { end_line };
                flush(&mut text, &mut range, at, line);
            }
            // crawl's lexer cannot read a one-character item: it drops it (the grammar then
            // fails, which the parser reports).
            if header.mode() != ArgMode::WholeLine {
                args.retain(|a| a.text.len() != 1);
            }
        }
        ArgMode::Words => {
            // Words, and texts in parentheses (blanks and all, possibly empty).
            for (i, (line, token)) in with_lines(tokens, node.line).enumerate() {
                let (text, range) = match token.kind {
                    DCSS_WORD => (source.piece(token.range), token.range),
                    L_PAREN => match tokens.get(i + 1) {
                        Some(inner) if inner.kind == DCSS_VALUE => {
                            (source.piece(inner.range), inner.range)
                        }
                        _ => (Piece::default(), TextRange::empty(token.range.end())),
                    },
                    _ => continue,
                };
                args.push(Arg { text, range, line });
            }
        }
        ArgMode::Numbers => {
            // The tokens other than trivia: their indices, and lines.
            let significant: Vec<(usize, u32)> = with_lines(tokens, node.line)
                .enumerate()
                .filter(|(_, (_, t))| !t.kind.is_trivia())
                .map(|(i, (line, _))| (i, line))
                .collect();
            let mut k = 0;
            while k < significant.len() {
                let (index, token_line) = significant[k];
                let token = &tokens[index];
                if token.kind != DCSS_NUMBER {
                    k += 1;
                    continue;
                }
                let number = Spanned::new(source.of(token.range).to_string(), token.range);
                let mut end = token.range.end();
                let mut last = (index, token_line);
                let mut percent = false;
                let mut depths = None;
                let mut closed_line = None;
                k += 1;
                if let Some(&(i, line)) = significant.get(k)
                    && tokens[i].kind == DCSS_PERCENT
                {
                    percent = true;
                    end = tokens[i].range.end();
                    last = (i, line);
                    k += 1;
                }
                if let Some(&(i, _)) = significant.get(k)
                    && tokens[i].kind == L_PAREN
                {
                    let open = tokens[i].range;
                    let mut value = Spanned::new(String::new(), TextRange::empty(open.end()));
                    k += 1;
                    while let Some(&(j, line)) = significant.get(k) {
                        match tokens[j].kind {
                            R_PAREN => {
                                end = tokens[j].range.end();
                                closed_line = Some(line);
                                last = (j, line);
                                k += 1;
                                break;
                            }
                            DCSS_VALUE => {
                                value = Spanned::new(
                                    source.of(tokens[j].range).to_string(),
                                    tokens[j].range,
                                )
                            }
                            _ => {}
                        }
                        k += 1;
                    }
                    depths = Some(value);
                }
                let emit_line = match (header, closed_line) {
                    (Header::Order, _) => token_line,
                    (_, Some(line)) => line,
                    (_, None) => next_token_line(first + last.0, last.1),
                };
                numbers.push(NumberItem {
                    range: TextRange::new(number.range.start(), end),
                    number,
                    percent,
                    depths,
                    emit_line,
                });
            }
        }
    }
    Some(HeaderLine {
        header,
        keyword: keyword.range,
        range: node.range,
        args,
        numbers,
    })
}

fn map_block(node: &Node, text: &Text, tokens: &[Token]) -> MapBlock {
    // Sized once, without counting: a row takes two tokens, itself and its line end.
    let mut rows = Vec::with_capacity(tokens.len() / 2);
    let mut closed = false;
    let mut line = node.line;
    for token in tokens {
        match token.kind {
            MAP_ROW => rows.push(MapRow {
                text: text.piece(token.range),
                range: token.range,
                line,
            }),
            NEWLINE => line += 1,
            ENDMAP_KW => closed = true,
            _ => {}
        }
    }
    MapBlock {
        range: node.range,
        rows,
        closed,
    }
}

/// The pieces of an argument's text read so far (see `header_line`).
#[derive(Default)]
struct Pieces<'a> {
    /// The first piece's text and range.
    first: Option<(&'a str, TextRange)>,
    /// All the pieces joined, once there are two or more.
    joined: String,
}

impl<'a> Pieces<'a> {
    fn push(&mut self, text: &'a str, range: TextRange) {
        match self.first {
            None => self.first = Some((text, range)),
            Some((first, _)) => {
                if self.joined.is_empty() {
                    self.joined.push_str(first);
                }
                self.joined.push_str(text);
            }
        }
    }

    /// The argument's text, trimmed of blanks, and the pieces emptied.
    fn take(&mut self, source: &Text) -> Piece {
        let Some((first, first_range)) = self.first.take() else {
            return Piece::default();
        };
        if !self.joined.is_empty() {
            let text = Piece::from(trim_blanks(&self.joined));
            self.joined.clear();
            return text;
        }
        let start = leading_blanks(first);
        let end = start + trim_end_bytes(&first[start..], b" \t").len();
        let at = first_range.start();
        source.piece(TextRange::new(
            at + TextSize::from(start as u32),
            at + TextSize::from(end as u32),
        ))
    }
}

fn lua_piece(node: &Node, source: &Text, tokens: &[Token]) -> Lua {
    let is_block = node.kind == LUA_BLOCK;
    let mut chunk = Chunk::Main;
    // Sized once: a Lua block has dozens of lines, and growing the list copied each. Without
    // counting: a line takes two tokens, its text and its line end.
    let mut lines = Vec::with_capacity(tokens.len() / 2);
    let mut closed = false;
    let mut opener_line = if tokens.is_empty() { 1 } else { node.line };
    let mut line = node.line;
    for (i, token) in tokens.iter().enumerate() {
        match token.kind {
            NEWLINE => line += 1,
            LUA_CHUNK_KW => {
                chunk = Chunk::from_block_word(source.of(token.range)).unwrap_or(Chunk::Main)
            }
            LUA_OPEN | LUA_MARK => opener_line = line,
            LUA_CLOSE => closed = true,
            LUA_TEXT => {
                // Text before `}}` is kept as written; a whole line loses its trailing blanks,
                // but stays a statement even when nothing is left (crawl prints it as a blank).
                let before_close = tokens.get(i + 1).is_some_and(|t| t.kind == LUA_CLOSE);
                let written = source.of(token.range);
                let text = if before_close {
                    written
                } else {
                    trim_end_bytes(written, b" \t\r")
                };
                if !trim_end_bytes(written, b"\r").is_empty() {
                    lines.push(LuaLine {
                        text: source.piece(TextRange::at(token.range.start(), TextSize::of(text))),
                        range: token.range,
                        line,
                    });
                }
            }
            _ => {}
        }
    }
    Lua {
        chunk,
        range: node.range,
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
        self.lua.iter().any(Lua::has_code)
            || self
                .headers_of(Header::Marker)
                .any(|h| h.args.iter().any(|a| spec::is_lua_marker(&a.text)))
    }

    /// The TAGS words, in order.
    pub fn tags(&self) -> impl Iterator<Item = &Arg> {
        self.headers_of(Header::Tags).flat_map(|h| h.args.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn args_read_as_the_list_they_were_built_from() {
        let arg = |text: &str| Arg {
            text: Piece::from(text),
            range: TextRange::empty(TextSize::from(0)),
            line: 1,
        };
        for (capacity, texts) in [
            (0, vec![]),
            (1, vec!["a"]),
            (1, vec!["a", "bc"]),
            (3, vec!["a", "bc", "d"]),
            (0, vec!["ab", "c", "de", "f"]),
        ] {
            let list: Vec<Arg> = texts.iter().map(|t| arg(t)).collect();
            let mut args = Args::with_capacity(capacity);
            for a in &list {
                args.push(a.clone());
            }
            assert_eq!(&*args, &list[..]);
            assert_eq!(Args::from(list.clone()), args);
            assert_eq!(format!("{args:?}"), format!("{list:?}"));
            let mut kept = list.clone();
            kept.retain(|a| a.text.len() != 1);
            args.retain(|a| a.text.len() != 1);
            assert_eq!(&*args, &kept[..]);
            assert_eq!((&args).into_iter().count(), kept.len());
        }
    }
}
