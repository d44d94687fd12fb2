//! crawl's grammar over one segment: headers, maps and Lua in any order. The lexer already
//! knows where every construct ends, so the grammar only groups tokens into nodes and reports
//! what bison rejects: malformed comma lists and number lists, and the chunk blocks that only a
//! vault may hold.

use levkit_diagnostics::{Code, TextRange};

use crate::SyntaxKind::{self, *};
use crate::parser::Parser;

use super::{ArgMode, Header};

pub(crate) fn segment(p: &mut Parser<'_>) {
    let kind = if p.current_header() == Some(Header::Name) {
        DCSS_VAULT
    } else {
        DCSS_GLOBAL
    };
    let after_default_depth = p.current_header() == Some(Header::DefaultDepth);
    p.start_root(kind);
    let mut value = Value::default();
    while !p.at(EOF) {
        if kind == DCSS_GLOBAL && matches!(p.current(), DCSS_HEADER_KW | MAP_KW) {
            outside_vault(p, after_default_depth);
        }
        match p.current() {
            DCSS_HEADER_KW => header(p, &mut value),
            MAP_KW => map(p),
            LUA_MARK => lua_line(p),
            LUA_CHUNK_KW | LUA_OPEN => lua_block(p, kind),
            token if is_number_token(token) => stray_numbers(p, kind),
            _ => p.bump_error(),
        }
    }
}

/// A header or a map outside every vault: bison's grammar has no place for it (only
/// `default-depth:`, Lua and comments stand there), so crawl stops at it with a syntax error.
fn outside_vault(p: &mut Parser<'_>, after_default_depth: bool) {
    if p.current_header() == Some(Header::DefaultDepth) {
        return;
    }
    let word = p.current_text();
    let what = if p.at(MAP_KW) {
        "a MAP".to_string()
    } else {
        format!("`{word}:`")
    };
    let place = if after_default_depth {
        "between a `default-depth:` and the next `NAME:`"
    } else {
        "before the first `NAME:`"
    };
    let range = p.current_range();
    p.error(
        Code::DC0014,
        range,
        format!(
            "{what} cannot stand {place}: crawl stops there with a syntax error; move it below a NAME: line"
        ),
    );
}

/// The tokens that may start a line and go on with a CHANCE, WEIGHT or ORDER list.
fn is_number_token(kind: SyntaxKind) -> bool {
    matches!(kind, DCSS_NUMBER | DCSS_PERCENT | COMMA | L_PAREN)
}

/// Numbers that no CHANCE, WEIGHT or ORDER list above takes: the rest of their line.
fn stray_numbers(p: &mut Parser<'_>, segment: SyntaxKind) {
    let start = p.current_range();
    let mut range = start;
    p.start(ERROR);
    p.bump();
    while is_value(p.current()) && !p.at_line_start() {
        range = range.cover(p.current_range());
        p.bump();
    }
    p.finish();
    let code = if segment == DCSS_VAULT {
        Code::DC0002
    } else {
        Code::DC0014
    };
    p.error(
        code,
        range,
        "crawl reads numbers here only as the rest of a CHANCE:, WEIGHT: or ORDER: list (a syntax error otherwise); remove them, or join them to such a list",
    );
}

fn is_value(kind: SyntaxKind) -> bool {
    matches!(
        kind,
        DCSS_VALUE
            | DCSS_ITEM
            | DCSS_WORD
            | DCSS_NUMBER
            | DCSS_PERCENT
            | DCSS_CONTINUATION
            | COMMA
            | L_PAREN
            | R_PAREN
    )
}

/// What a header's value was made of, for the checks bison makes (one for the segment, its
/// lists emptied for each header rather than allocated again).
#[derive(Default)]
struct Value {
    /// Comma lists: how many items there are.
    item_count: usize,
    /// Comma lists: the items bison rejects (empty or of one character), with their ranges.
    /// Only those: most lists have none, and then nothing is allocated.
    bad_items: Vec<(ItemText, TextRange)>,
    /// Number lists: the kinds in order (commas included; kept for number headers only).
    numbers: Vec<(SyntaxKind, TextRange)>,
    /// The comma-list item being read, its pieces joined.
    item: ItemText,
}

/// An item's text (its pieces joined, trimmed) as far as bison looks at it: none, one
/// character (which crawl's lexer cannot read), or more (kept no further: most items are).
/// Read piece by piece, without joining them: a trimmed text is empty when it has no byte
/// other than blanks, and one character long when it has one such byte (a wider character
/// has several), whatever blanks are around it.
#[derive(Default, Clone, Copy)]
enum ItemText {
    #[default]
    Empty,
    One(u8),
    Longer,
}

impl ItemText {
    /// The text with `piece` appended: only its first two bytes other than blanks matter.
    fn then(self, piece: &str) -> ItemText {
        let mut solid = piece.bytes().filter(|&b| b != b' ' && b != b'\t');
        match (self, solid.next()) {
            (text, None) => text,
            (ItemText::Empty, Some(first)) if solid.next().is_none() => ItemText::One(first),
            _ => ItemText::Longer,
        }
    }
}

impl Value {
    /// Counts a comma-list item, and keeps it if bison rejects it.
    fn push_item(&mut self, text: ItemText, range: TextRange) {
        self.item_count += 1;
        if !matches!(text, ItemText::Longer) {
            self.bad_items.push((text, range));
        }
    }
}

fn header(p: &mut Parser<'_>, value: &mut Value) {
    let header = p.current_header();
    let keyword_range = p.current_range();
    p.start_at_line_start(DCSS_HEADER);
    p.bump();
    p.eat(COLON);
    if header.is_some_and(|h| matches!(h.mode(), ArgMode::WholeLine | ArgMode::Words)) {
        // Nothing of such a value is checked: its tokens are only taken, in one step.
        p.bump_continued(is_value, DCSS_CONTINUATION);
        p.finish();
        return;
    }
    value.item_count = 0;
    value.bad_items.clear();
    value.numbers.clear();
    value.item = ItemText::Empty;
    let numbers = header.is_some_and(|h| h.mode() == ArgMode::Numbers);
    let mut any_comma = false;
    let mut item_range: Option<TextRange> = None;
    let mut pending_item = false;
    let mut continued = false;
    while is_value(p.current()) {
        let kind = p.current();
        // A value goes on over a `\`; a number list over any line break (crawl's lexer
        // reads numbers wherever they are, outside TAGS).
        if p.at_line_start() && !continued && !(numbers && is_number_token(kind)) {
            break;
        }
        continued = kind == DCSS_CONTINUATION;
        let range = p.current_range();
        match kind {
            DCSS_ITEM => {
                value.item = value.item.then(p.current_text());
                item_range = Some(item_range.map_or(range, |r| r.cover(range)));
                pending_item = true;
            }
            COMMA => {
                any_comma = true;
                let item = std::mem::take(&mut value.item);
                value.push_item(
                    item,
                    item_range.take().unwrap_or(TextRange::empty(range.start())),
                );
                pending_item = false;
                if numbers {
                    value.numbers.push((kind, range));
                }
            }
            DCSS_CONTINUATION => {}
            _ if numbers => value.numbers.push((kind, range)),
            _ => {}
        }
        p.bump();
    }
    if pending_item || any_comma {
        let end = p.previous_range().map_or(keyword_range.end(), |r| r.end());
        value.push_item(value.item, item_range.unwrap_or(TextRange::empty(end)));
    }
    p.finish();
    if let Some(header) = header {
        check_value(p, header, keyword_range, value);
    }
}

fn check_value(p: &mut Parser<'_>, header: Header, keyword: TextRange, value: &Value) {
    let name = header.keyword();
    match header.mode() {
        ArgMode::Items | ArgMode::Monsters => {
            if value.item_count == 0 {
                if !matches!(header, Header::Item | Header::Mons) {
                    p.error(
                        Code::DC0008,
                        keyword,
                        format!("{name}: needs at least one item; write one, or remove the line"),
                    );
                }
                return;
            }
            for (text, range) in &value.bad_items {
                match text {
                    ItemText::Empty => p.error(
                        Code::DC0008,
                        *range,
                        format!("an empty {name} item: remove the extra comma"),
                    ),
                    ItemText::One(byte) => p.error(
                        Code::DC0007,
                        *range,
                        format!(
                            "crawl cannot read the one-character {name} item `{}` (an item needs two characters or more)",
                            char::from(*byte)
                        ),
                    ),
                    ItemText::Longer => {}
                }
            }
        }
        ArgMode::Numbers => check_numbers(p, header, keyword, &value.numbers),
        ArgMode::WholeLine | ArgMode::Words => {}
    }
}

/// `N[%] [(depths)]` items separated by commas; ORDER takes one number, WEIGHT at least one.
fn check_numbers(
    p: &mut Parser<'_>,
    header: Header,
    keyword: TextRange,
    tokens: &[(SyntaxKind, TextRange)],
) {
    let name = header.keyword();
    if tokens.is_empty() {
        if header != Header::Chance {
            p.error(Code::DC0009, keyword, format!("{name}: needs a number"));
        }
        return;
    }
    if let Some(&(_, range)) = tokens.iter().find(|t| t.0 == DCSS_WORD) {
        // Only a keyword written after TAGS: on its line is followed by tag words.
        p.error(
            Code::DC0006,
            range,
            format!(
                "on a TAGS: line crawl reads `{}` as a tag, not as the value of {name}: (a syntax error); start {name}: on a line of its own",
                &p.source()[range]
            ),
        );
        return;
    }
    let mut i = 0;
    while let Some(&(kind, range)) = tokens.get(i) {
        if kind != DCSS_NUMBER {
            p.error(
                Code::DC0009,
                range,
                format!("{name}: expects a number here"),
            );
            return;
        }
        i += 1;
        if header == Header::Order {
            if let Some(&(_, range)) = tokens.get(i) {
                p.error(
                    Code::DC0006,
                    range,
                    "ORDER: takes one number and nothing else",
                );
            }
            return;
        }
        if tokens.get(i).is_some_and(|t| t.0 == DCSS_PERCENT) {
            i += 1;
        }
        if tokens.get(i).is_some_and(|t| t.0 == L_PAREN) {
            i += 1;
            if tokens.get(i).is_some_and(|t| t.0 == DCSS_VALUE) {
                i += 1;
            }
            if tokens.get(i).is_some_and(|t| t.0 == R_PAREN) {
                i += 1;
            }
        }
        match tokens.get(i) {
            None => break,
            Some(&(COMMA, range)) => {
                i += 1;
                if i == tokens.len() {
                    p.error(
                        Code::DC0009,
                        range,
                        format!("{name}: a number must follow this comma"),
                    );
                    return;
                }
            }
            Some(&(_, range)) => {
                p.error(
                    Code::DC0006,
                    range,
                    format!("{name}: items are `N`, `N%` or `N (depths)`, separated by commas"),
                );
                return;
            }
        }
    }
}

fn map(p: &mut Parser<'_>) {
    p.start_at_line_start(DCSS_MAP);
    p.bump();
    p.bump_while(MAP_ROW);
    p.eat(ENDMAP_KW);
    p.finish();
}

fn lua_line(p: &mut Parser<'_>) {
    p.start_at_line_start(LUA_LINE);
    p.bump();
    if p.at(LUA_TEXT) && !p.at_line_start() {
        p.bump();
    }
    p.finish();
}

fn lua_block(p: &mut Parser<'_>, segment: SyntaxKind) {
    p.start_at_line_start(LUA_BLOCK);
    if p.at(LUA_CHUNK_KW) {
        let word = p.current_text();
        if segment == DCSS_GLOBAL && word != "lua" {
            let range = p.current_range();
            p.error(
                Code::DC0010,
                range,
                format!(
                    "a `{word} {{{{` block belongs to a vault: move it after the vault's NAME:"
                ),
            );
        }
        p.bump();
    }
    p.eat(LUA_OPEN);
    p.bump_while(LUA_TEXT);
    p.eat(LUA_CLOSE);
    p.finish();
}
