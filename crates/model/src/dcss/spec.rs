//! Glyph-keyed header values as typed data: the transforms (SUBST, NSUBST, SHUFFLE, CLEAR)
//! and overlays (K*, COLOUR, tiles...) that a previewer runs and the checks judge. Each parser
//! answers crawl's verdict: the typed spec, or the problem crawl reports, with the part of the
//! text at fault.

use std::ops::Range;

/// `=`: every cell draws its own choice; `:` one choice for all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sep {
    Each,
    Once,
}

/// A glyph spec cut at its separator: the key (glyphs), the separator and the value, with
/// their byte ranges in the spec text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keyed<'a> {
    pub key: &'a str,
    pub key_range: Range<usize>,
    pub sep: Sep,
    pub value: &'a str,
    pub value_range: Range<usize>,
}

/// What crawl rejects in a spec, and where in the spec text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecError {
    pub kind: SpecErrorKind,
    /// crawl's message.
    pub message: String,
    pub span: Range<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpecErrorKind {
    MissingSeparator,
    MissingValue,
    BadWeight,
    BadNsubst,
    ShuffleMismatch,
    ShuffleComma,
    ShuffleNothing,
    ClearNothing,
    SubvaultEquals,
}

fn error(kind: SpecErrorKind, message: String, span: Range<usize>) -> SpecError {
    SpecError {
        kind,
        message,
        span,
    }
}

fn trimmed(text: &str, range: Range<usize>) -> Range<usize> {
    let piece = &text[range.clone()];
    let start = range.start + (piece.len() - piece.trim_start().len());
    let end = start + piece.trim().len();
    start..end.max(start)
}

/// Cuts `text` at the first `=` or `:` from its second byte on (so a key may start with
/// either), trimming key and value, as crawl does for every glyph-keyed header.
pub fn split(text: &str) -> Result<Keyed<'_>, SpecError> {
    let Some(at) = text
        .bytes()
        .enumerate()
        .skip(1)
        .find(|(_, b)| *b == b'=' || *b == b':')
        .map(|(i, _)| i)
    else {
        return Err(error(
            SpecErrorKind::MissingSeparator,
            format!("malformed declaration - must use = or : in '{text}'"),
            0..text.len(),
        ));
    };
    let key_range = trimmed(text, 0..at);
    let value_range = trimmed(text, at + 1..text.len());
    let keyed = Keyed {
        key: &text[key_range.clone()],
        key_range,
        sep: if text.as_bytes()[at] == b'=' {
            Sep::Each
        } else {
            Sep::Once
        },
        value: &text[value_range.clone()],
        value_range,
    };
    if keyed.value.is_empty() {
        return Err(error(
            SpecErrorKind::MissingValue,
            format!("no substitute defined in '{text}'"),
            at..at + 1,
        ));
    }
    Ok(keyed)
}

/// A `MARKER:` value whose marker is Lua: its key and expression (crawl pastes the
/// expression into a function rather than quoting it).
pub fn lua_marker(text: &str) -> Option<(&str, &str)> {
    let keyed = split(text).ok()?;
    let expression = keyed.value.strip_prefix("lua:")?;
    Some((keyed.key, expression))
}

pub fn is_lua_marker(text: &str) -> bool {
    lua_marker(text).is_some()
}
