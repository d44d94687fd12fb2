//! A map that swallows what follows it: without its `ENDMAP`, crawl takes every line up to the
//! next `ENDMAP` (or the end of the file) as map rows, the next vault's comments, `NAME:` and
//! headers included, and says nothing. A row that reads as a header is the sign; the rows from
//! there on (and the comment-like rows just above it) are left out of the glyph checks, whose
//! every letter would otherwise be a warning.

use std::sync::LazyLock;

use levkit_diagnostics::{Code, Diagnostic, TextEdit, TextRange};
use levkit_model::dcss::{MapRow, Vault};
use levkit_syntax::dcss::Header;

/// Where a map starts swallowing the lines after it.
pub(super) struct Swallowed<'v> {
    /// The index, among all the vault's rows, of the first swallowed row.
    pub first: usize,
    /// The first row that reads as a header, and its keyword.
    header_row: &'v MapRow,
    header: Header,
    /// The vault names of the swallowed `NAME:` rows.
    names: Vec<&'v str>,
    /// Whether an `ENDMAP` ends the map at last.
    closed: bool,
}

/// The length of the longest header keyword, `default-depth`.
const LONGEST_KEYWORD: usize = 13;

/// The bytes some header keyword starts with.
fn keyword_starts() -> &'static [bool; 256] {
    static STARTS: LazyLock<[bool; 256]> = LazyLock::new(|| {
        let mut starts = [false; 256];
        for header in Header::ALL {
            starts[usize::from(header.keyword().as_bytes()[0])] = true;
        }
        starts
    });
    &STARTS
}

/// Whether some header keyword starts with `byte`.
fn starts_keyword(byte: u8) -> bool {
    keyword_starts()[usize::from(byte)]
}

/// Whether `row` may read as a header (see [`header_of`]): its first byte after the blanks
/// starts a keyword. Every map row is asked, and most are passed over at that byte here,
/// without a call.
fn may_be_header(row: &str, starts: &[bool; 256]) -> bool {
    for &b in row.as_bytes() {
        if !matches!(b, b' ' | b'\t') {
            return starts[usize::from(b)];
        }
    }
    false
}

/// The header whose keyword (and colon) opens `row`, as crawl would read the line outside a map.
fn header_of(row: &str) -> Option<(Header, &str)> {
    let indent = row
        .bytes()
        .take_while(|&b| matches!(b, b' ' | b'\t'))
        .count();
    let text = &row[indent..];
    let bytes = text.as_bytes();
    // Every map row is asked, and most start with a glyph no keyword starts with.
    if !bytes.first().is_some_and(|&b| starts_keyword(b)) {
        return None;
    }
    // Keywords are letters and `-` (`NAME`, `default-depth`): a row is passed over at its
    // first byte that cannot be in one, rather than searched for a colon, which most map rows
    // lack; or once it is longer than any keyword (a row of wall is a long run of letters).
    let mut word = 0;
    while word < bytes.len() && (bytes[word].is_ascii_alphabetic() || bytes[word] == b'-') {
        word += 1;
        if word > LONGEST_KEYWORD {
            return None;
        }
    }
    let rest = text[word..].strip_prefix(':')?;
    Some((Header::from_keyword(&text[..word])?, rest))
}

pub(super) fn swallowed(vault: &Vault) -> Option<Swallowed<'_>> {
    let starts = keyword_starts();
    let mut before = 0;
    for map in &vault.maps {
        if let Some(at) = map
            .rows
            .iter()
            .position(|r| may_be_header(&r.text, starts) && header_of(&r.text).is_some())
        {
            let header_row = &map.rows[at];
            let (header, _) = header_of(&header_row.text)?;
            // Comments written above the next vault are swallowed with it.
            let start = map.rows[..at]
                .iter()
                .rposition(|r| !r.text.starts_with('#'))
                .map_or(0, |i| i + 1);
            let names = map.rows[at..]
                .iter()
                .filter_map(|r| match header_of(&r.text) {
                    Some((Header::Name, name)) => Some(name.trim_matches([' ', '\t'])),
                    _ => None,
                })
                .collect();
            return Some(Swallowed {
                first: before + start,
                header_row,
                header,
                names,
                closed: map.closed,
            });
        }
        before += map.rows.len();
    }
    None
}

pub(super) fn check(vault: &Vault, swallowed: Option<&Swallowed>, out: &mut Vec<Diagnostic>) {
    let Some(swallowed) = swallowed else {
        return;
    };
    let until = if swallowed.closed {
        "up to the next ENDMAP"
    } else {
        "to the end of the file"
    };
    let lost = match swallowed.names.as_slice() {
        [] => String::new(),
        [name] => format!(", so vault {name} does not exist"),
        names => format!(", so vaults {} do not exist", names.join(", ")),
    };
    let first = vault.rows().nth(swallowed.first).map(|r| r.range.start());
    let mut diagnostic = Diagnostic::new(
        Code::DC0420,
        swallowed.header_row.range,
        format!(
            "this map line looks like a {}: header: is ENDMAP missing above it? crawl reads it and every line {until} as map rows{lost}",
            swallowed.header.keyword()
        ),
    );
    if let Some(at) = first {
        diagnostic = diagnostic.with_fix(
            "Insert ENDMAP above",
            vec![TextEdit {
                range: TextRange::empty(at),
                new_text: "ENDMAP\n".into(),
            }],
        );
    }
    out.push(diagnostic);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_keyword_is_longer_than_the_longest() {
        let longest = Header::ALL.iter().map(|h| h.keyword().len()).max();
        assert_eq!(longest, Some(LONGEST_KEYWORD));
        assert!(header_of("  default-depth: D:1").is_some());
        assert!(header_of("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx").is_none());
    }

    #[test]
    fn a_row_passed_over_on_its_first_byte_reads_as_no_header() {
        let rows = Header::ALL
            .iter()
            .flat_map(|h| {
                let keyword = h.keyword();
                [
                    format!("{keyword}: x"),
                    format!(" \t{keyword}:"),
                    format!("x{keyword}: x"),
                    format!("#{keyword}:"),
                ]
            })
            .chain(["", " ", "xxxx", "...", "é:", "NAME", "\tNAME:"].map(String::from));
        for row in rows {
            if header_of(&row).is_some() {
                assert!(may_be_header(&row, keyword_starts()), "{row:?}");
            }
        }
        for byte in 0..=255u8 {
            let row = [byte, b'N', b':'];
            if let Ok(row) = std::str::from_utf8(&row)
                && header_of(row).is_some()
            {
                assert!(may_be_header(row, keyword_starts()), "{row:?}");
            }
        }
    }
}
