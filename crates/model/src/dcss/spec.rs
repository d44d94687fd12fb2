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

/// An option of a random choice and its weight (10 unless written).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Weighted<T> {
    pub value: T,
    pub weight: u32,
}

/// The weight options get when none is written.
pub const DEFAULT_WEIGHT: u32 = 10;

/// `SUBST: K sep replacements`: every cell holding a glyph of `keys` becomes one of the
/// options (`Each`: a draw per cell; `Once`: one draw for all).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subst {
    pub keys: String,
    pub sep: Sep,
    pub options: Vec<Weighted<char>>,
    /// Where the keys and the replacements are written in the spec text.
    pub key_range: Range<usize>,
    pub value_range: Range<usize>,
}

/// `NSUBST: K sep segment / segment ...`: the cells holding `keys`, shuffled, are consumed
/// segment by segment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NSubst {
    pub keys: String,
    pub segments: Vec<NSubstSegment>,
    /// Where the keys and the segments are written in the spec text.
    pub key_range: Range<usize>,
    pub value_range: Range<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NSubstSegment {
    /// How many cells; `None`: all the remaining ones (`*` or -1; any other negative count
    /// is 0).
    pub count: Option<u32>,
    pub sep: Sep,
    pub options: Vec<Weighted<char>>,
}

/// `SHUFFLE: abc` (one block: the glyphs are permuted) or `ab/cd/...` (the blocks are).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shuffle {
    pub blocks: Vec<String>,
}

/// The map transforms, in the order crawl applies them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transform {
    Subst(Subst),
    NSubst(NSubst),
    Shuffle(Shuffle),
    /// CLEAR: these glyphs become blank (not part of the vault).
    Clear(String),
}

/// A glyph-keyed overlay of weighted names (COLOUR, FTILE, RTILE, TILE, KPROP, FHEIGHT,
/// SUBVAULT): each option as written, with its weight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overlay {
    pub keys: String,
    pub sep: Sep,
    pub options: Vec<Weighted<String>>,
    /// Where each option lies in the spec text.
    pub spans: Vec<Range<usize>>,
}

fn error(kind: SpecErrorKind, message: String, span: Range<usize>) -> SpecError {
    SpecError {
        kind,
        message,
        span,
    }
}

/// The part of `range` in `text` that `str::trim` leaves.
#[inline]
pub fn trimmed(text: &str, range: Range<usize>) -> Range<usize> {
    // ASCII blanks byte by byte (they are nearly all there is); a character beyond ASCII at
    // either end may be white space too, and then `str` decides. Inlined, as every spec is
    // cut into trimmed pieces; the rare route beyond ASCII is not.
    let bytes = text.as_bytes();
    let blank = |b: u8| matches!(b, 9..=13 | b' ');
    let (mut start, mut end) = (range.start, range.end);
    while start < end && blank(bytes[start]) {
        start += 1;
    }
    while end > start && blank(bytes[end - 1]) {
        end -= 1;
    }
    if start == end || (bytes[start].is_ascii() && bytes[end - 1].is_ascii()) {
        return start..end;
    }
    trimmed_by_str(text, range)
}

/// [`trimmed`] where a character beyond ASCII ends the piece.
#[cold]
#[inline(never)]
fn trimmed_by_str(text: &str, range: Range<usize>) -> Range<usize> {
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

/// The replacement glyphs of SUBST and NSUBST: blank-separated tokens; `g:N` is `g` with
/// weight N, any other token gives each of its characters.
fn replacements(text: &str, offset: usize) -> Result<Vec<Weighted<char>>, SpecError> {
    // Every option takes at least one byte of the text, so one allocation holds them all.
    let mut out = Vec::with_capacity(text.len());
    let mut pos = 0;
    // The blanks are ASCII, so cutting the bytes at them cuts the text at char boundaries.
    for bytes in text.as_bytes().split(|&b| b == b' ' || b == b'\t') {
        let start = pos;
        pos += bytes.len() + 1;
        if bytes.is_empty() {
            continue;
        }
        let token = &text[start..start + bytes.len()];
        let span = offset + start..offset + start + bytes.len();
        if bytes.len() >= 3 && bytes[1] == b':' && bytes[0].is_ascii() {
            let weight = token[2..].parse::<u32>().ok().filter(|&w| w > 0);
            let Some(weight) = weight else {
                return Err(error(
                    SpecErrorKind::BadWeight,
                    format!("Invalid weight specifier in \"{token}\""),
                    span,
                ));
            };
            out.push(Weighted {
                value: bytes[0] as char,
                weight,
            });
        } else if bytes.is_ascii() {
            out.extend(bytes.iter().map(|&b| Weighted {
                value: b as char,
                weight: DEFAULT_WEIGHT,
            }));
        } else {
            out.extend(token.chars().map(|value| Weighted {
                value,
                weight: DEFAULT_WEIGHT,
            }));
        }
    }
    Ok(out)
}

pub fn subst(text: &str) -> Result<Subst, SpecError> {
    let keyed = split(text)?;
    Ok(Subst {
        keys: keyed.key.to_string(),
        sep: keyed.sep,
        options: replacements(keyed.value, keyed.value_range.start)?,
        key_range: keyed.key_range,
        value_range: keyed.value_range,
    })
}

pub fn nsubst(text: &str) -> Result<NSubst, SpecError> {
    let keyed = split(text)?;
    let slashes = memchr::memchr_iter(b'/', keyed.value.as_bytes()).count();
    let mut segments = Vec::with_capacity(slashes + 1);
    let mut pos = keyed.value_range.start;
    for (i, piece) in keyed.value.split('/').enumerate() {
        let span = trimmed(text, pos..pos + piece.len());
        pos += piece.len() + 1;
        let segment = &text[span.clone()];
        let last = i == slashes;
        let illegal = || {
            error(
                SpecErrorKind::BadNsubst,
                format!("Bad NSUBST spec: {text} (Illegal spec: {segment})"),
                span.clone(),
            )
        };
        let separator = segment.bytes().position(|b| b == b'=' || b == b':');
        let (count, sep, glyphs, glyph_start) = match separator {
            None => (
                if last { None } else { Some(1) },
                Sep::Each,
                segment,
                span.start,
            ),
            Some(at) => {
                // crawl reads the count as a whole C int and refuses only 0 (or no number):
                // `*` and -1 take every remaining cell, another negative count takes none.
                let count = segment[..at].trim();
                let count = if count == "*" {
                    None
                } else {
                    match super::strings::parse_int(count) {
                        None | Some(0) => return Err(illegal()),
                        Some(-1) => None,
                        Some(n) => Some(u32::try_from(n).unwrap_or(0)),
                    }
                };
                let sep = if segment.as_bytes()[at] == b'=' {
                    Sep::Each
                } else {
                    Sep::Once
                };
                (count, sep, &segment[at + 1..], span.start + at + 1)
            }
        };
        let options = replacements(glyphs, glyph_start)?;
        if options.is_empty() {
            return Err(illegal());
        }
        segments.push(NSubstSegment {
            count,
            sep,
            options,
        });
    }
    Ok(NSubst {
        keys: keyed.key.to_string(),
        segments,
        key_range: keyed.key_range,
        value_range: keyed.value_range,
    })
}

/// A SHUFFLE item. Blanks do not count; a comma can only come from Lua (the header splits
/// at commas).
pub fn shuffle(text: &str) -> Result<Shuffle, SpecError> {
    let glyphs = without_blanks(text);
    if glyphs.contains(',') {
        return Err(error(
            SpecErrorKind::ShuffleComma,
            "use / for block shuffle, or multiple SHUFFLE: lines".into(),
            0..text.len(),
        ));
    }
    if glyphs.is_empty() {
        return Err(error(
            SpecErrorKind::ShuffleNothing,
            "no glyphs to shuffle".into(),
            0..text.len(),
        ));
    }
    let blocks: Vec<String> = glyphs.split('/').map(str::to_string).collect();
    let length = blocks[0].chars().count();
    if blocks.iter().any(|b| b.chars().count() != length) {
        return Err(error(
            SpecErrorKind::ShuffleMismatch,
            "block shuffle segment length mismatch".into(),
            0..text.len(),
        ));
    }
    Ok(Shuffle { blocks })
}

/// The text without its white space, allocated once at the text's length (which bounds it)
/// rather than grown character by character.
fn without_blanks(text: &str) -> String {
    let mut glyphs = String::with_capacity(text.len());
    glyphs.extend(text.chars().filter(|c| !c.is_whitespace()));
    glyphs
}

pub fn clear(text: &str) -> Result<String, SpecError> {
    let glyphs = without_blanks(text);
    if glyphs.is_empty() {
        return Err(error(
            SpecErrorKind::ClearNothing,
            "no glyphs specified for clearing".into(),
            0..text.len(),
        ));
    }
    Ok(glyphs)
}

/// One option of an overlay as crawl reads it (`_parse_weighted_str`): lowercased, a `w:N`
/// or `weight:N` tag taken off (a value that is not a whole number counts as no tag), else a
/// `:N` after the name, which must be a whole number above 0 (`None`: crawl's "Invalid weight
/// specifier").
pub fn weighted(option: &str) -> Option<Weighted<String>> {
    use super::strings::{parse_int, strip_weight, trim};
    // Lowercasing ASCII needs no Unicode tables; nearly every option is ASCII.
    let mut value = if option.is_ascii() {
        option.to_ascii_lowercase()
    } else {
        option.to_lowercase()
    };
    // Both tags and a `:N` weight have a colon: without one (most options, such as `red`)
    // the weight is the default, and looking for each tag in turn is work for nothing.
    let weight = if !value.contains(':') {
        DEFAULT_WEIGHT as i32
    } else {
        match strip_weight(&mut value) {
            Some(weight) => weight,
            None => match value.find(':') {
                Some(at) => {
                    let weight = parse_int(&value[at + 1..]).filter(|&w| w > 0)?;
                    value.truncate(at);
                    weight
                }
                None => DEFAULT_WEIGHT as i32,
            },
        }
    };
    // Trimming only takes from the ends: a value of the same length needs no copy.
    let trimmed = trim(&value);
    let value = if trimmed.len() == value.len() {
        value
    } else {
        trimmed.to_string()
    };
    Some(Weighted {
        value,
        weight: u32::try_from(weight).unwrap_or(0),
    })
}

/// COLOUR, tiles, KPROP, FHEIGHT, SUBVAULT: `K sep option / option ...`, each option read as
/// crawl reads it ([`weighted`]; empty ones are dropped).
pub fn overlay(text: &str) -> Result<Overlay, SpecError> {
    let keyed = split(text)?;
    let mut options = Vec::new();
    let mut spans = Vec::new();
    let mut pos = keyed.value_range.start;
    for piece in keyed.value.split('/') {
        let span = trimmed(text, pos..pos + piece.len());
        pos += piece.len() + 1;
        if span.is_empty() {
            continue;
        }
        let option = weighted(&text[span.clone()]).ok_or_else(|| {
            error(
                SpecErrorKind::BadWeight,
                format!("Invalid weight specifier in \"{}\"", keyed.value),
                span.clone(),
            )
        })?;
        options.push(option);
        spans.push(span);
    }
    Ok(Overlay {
        keys: keyed.key.to_string(),
        sep: keyed.sep,
        options,
        spans,
    })
}

/// SUBVAULT: an overlay whose separator must be `:`.
pub fn subvault(text: &str) -> Result<Overlay, SpecError> {
    let overlay = overlay(text)?;
    if overlay.sep == Sep::Each {
        let at = text
            .bytes()
            .enumerate()
            .skip(1)
            .find(|(_, b)| *b == b'=')
            .map_or(0, |(i, _)| i);
        return Err(error(
            SpecErrorKind::SubvaultEquals,
            "SUBVAULT does not support '='. Use ':' instead.".into(),
            at..at + 1,
        ));
    }
    Ok(overlay)
}

/// The transform a SUBST, NSUBST, SHUFFLE or CLEAR argument describes.
pub fn transform(
    header: levkit_syntax::dcss::Header,
    text: &str,
) -> Option<Result<Transform, SpecError>> {
    use levkit_syntax::dcss::Header;
    Some(match header {
        Header::Subst => subst(text).map(Transform::Subst),
        Header::NSubst => nsubst(text).map(Transform::NSubst),
        Header::Shuffle => shuffle(text).map(Transform::Shuffle),
        Header::Clear => clear(text).map(Transform::Clear),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replacements_cut_by_bytes_agree_with_a_cut_by_chars() {
        fn by_chars(text: &str) -> Vec<Weighted<char>> {
            text.split([' ', '\t'])
                .filter(|token| !token.is_empty())
                .flat_map(|token| {
                    let mut chars = token.chars();
                    let first = chars.next().unwrap();
                    match (chars.next(), chars.as_str().parse::<u32>()) {
                        (Some(':'), Ok(weight)) if first.is_ascii() => {
                            vec![Weighted {
                                value: first,
                                weight,
                            }]
                        }
                        _ => token
                            .chars()
                            .map(|value| Weighted {
                                value,
                                weight: DEFAULT_WEIGHT,
                            })
                            .collect(),
                    }
                })
                .collect()
        }
        for text in [
            "",
            " ",
            "x",
            "abc",
            "x:5 .",
            " a\tb  c:20 ",
            "é:3 ñx",
            "xé yz",
            "\t.:1",
        ] {
            assert_eq!(replacements(text, 0).unwrap(), by_chars(text), "{text:?}");
        }
        let bad = replacements("ab c:0", 4).unwrap_err();
        assert_eq!((bad.kind, bad.span), (SpecErrorKind::BadWeight, 7..10));
    }

    #[test]
    fn weighted_options_agree_with_crawls_reading_in_full() {
        // `weighted` as it read every option before its shortcuts.
        fn in_full(option: &str) -> Option<Weighted<String>> {
            use crate::dcss::strings::{parse_int, strip_weight, trim};
            let mut value = option.to_lowercase();
            let weight = match strip_weight(&mut value) {
                Some(weight) => weight,
                None => match value.find(':') {
                    Some(at) => {
                        let weight = parse_int(&value[at + 1..]).filter(|&w| w > 0)?;
                        value.truncate(at);
                        weight
                    }
                    None => DEFAULT_WEIGHT as i32,
                },
            };
            Some(Weighted {
                value: trim(&value).to_string(),
                weight: u32::try_from(weight).unwrap_or(0),
            })
        }
        for option in [
            "",
            " ",
            "red",
            " Red ",
            "RED w:4",
            "lava weight:3",
            "x:5",
            "x:0",
            "x: 5",
            "w:",
            "ÉCLAIR",
            "Straße:2",
            "lava W:abc",
            "İ",
            "dark_gray\t",
        ] {
            assert_eq!(weighted(option), in_full(option), "{option:?}");
        }
    }

    #[test]
    fn specs_split_at_their_first_separator_from_the_second_byte() {
        let keyed = split("== x").unwrap();
        assert_eq!((keyed.key, keyed.sep, keyed.value), ("=", Sep::Each, "x"));
        assert_eq!(
            split("x").unwrap_err().kind,
            SpecErrorKind::MissingSeparator
        );
        assert_eq!(split("x =").unwrap_err().kind, SpecErrorKind::MissingValue);
        // A key may start with a character of several bytes.
        assert_eq!(
            subvault("\u{e9}=tag").unwrap_err().kind,
            SpecErrorKind::SubvaultEquals
        );
    }

    #[test]
    fn substitutions_are_typed_transforms() {
        assert_eq!(
            subst("x = c:5 v").unwrap(),
            Subst {
                keys: "x".into(),
                sep: Sep::Each,
                options: vec![
                    Weighted {
                        value: 'c',
                        weight: 5
                    },
                    Weighted {
                        value: 'v',
                        weight: DEFAULT_WEIGHT
                    },
                ],
                key_range: 0..1,
                value_range: 4..9,
            }
        );
        let nsubst = nsubst(". = 2:x / 1=y / z").unwrap();
        let counts: Vec<_> = nsubst.segments.iter().map(|s| s.count).collect();
        assert_eq!(counts, [Some(2), Some(1), None]);
        // crawl refuses only a count of 0 or none: -1 is every cell, another negative none.
        let counts_of = |text| {
            super::nsubst(text)
                .map(|n| n.segments.iter().map(|s| s.count).collect::<Vec<_>>())
                .map_err(|e| e.kind)
        };
        assert_eq!(counts_of("x = -1:. / *=x"), Ok(vec![None, None]));
        assert_eq!(counts_of("x = -5=Z / +2=y"), Ok(vec![Some(0), Some(2)]));
        for bad in ["x = 0=.", "x = 2x=.", "x = 99999999999=."] {
            assert_eq!(counts_of(bad), Err(SpecErrorKind::BadNsubst), "{bad}");
        }
        assert_eq!(shuffle("ab/cd").unwrap().blocks, ["ab", "cd"]);
        assert_eq!(
            weighted("red w:4"),
            Some(Weighted {
                value: "red".into(),
                weight: 4
            })
        );
        assert_eq!(
            weighted("Blue:5"),
            Some(Weighted {
                value: "blue".into(),
                weight: 5
            })
        );
        // As crawl: a `w:` tag that is no number is dropped; `:0`, `:-3`, `:abc` are refused.
        assert_eq!(weighted("red w:abc").map(|w| w.value), Some("red".into()));
        for bad in ["red:0", "red:-3", "red:abc"] {
            assert_eq!(weighted(bad), None, "{bad}");
        }
        assert!(overlay("x = red:0").is_err_and(|e| e.kind == SpecErrorKind::BadWeight));
        assert_eq!(overlay("x = red /").map(|o| o.options.len()), Ok(1));
    }
}
