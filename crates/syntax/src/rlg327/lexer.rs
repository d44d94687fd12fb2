//! The RLG327 lexer: the format is made of lines (a header, `BEGIN`/`END` lines, one field per
//! line, DESC text up to a `.` line), so every line is one or a few tokens, chosen by where the
//! line stands. A DESC text is a block of the shared line machinery, closed by its `.` line.

use crate::SyntaxKind::{self, *};
use crate::lines::{self, BlockRules, Line, LineKeyword, OutsideLine};
use crate::parser::Lexed;

pub fn lex(text: &str) -> Lexed {
    let mut out = Lexed::default();
    let mut rules = DescriptionLines {
        seen_header: false,
        in_entry: false,
    };
    lines::lex_lines(text, 0, &mut rules, &mut out);
    out
}

/// The field keywords that open a DESC text: the right one, and misspellings of it, so that a
/// misspelt DESC's text is not read as fields.
pub(crate) fn opens_description(keyword: &str) -> bool {
    matches!(keyword, "DESC" | "DES" | "DESCRIPTION" | "desc")
}

/// The first word of a line, between any (Unicode) blanks, as the course's readers split it.
fn first_word(content: &str) -> &str {
    // Over bytes while they are ASCII (every line of most files), where Unicode's blanks are
    // the ASCII ones `char::is_whitespace` names; a byte outside ASCII hands over to the
    // character walk.
    let bytes = content.as_bytes();
    let blank = |b: u8| matches!(b, b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r' | b' ');
    let start = bytes.iter().position(|&b| !blank(b)).unwrap_or(bytes.len());
    let len = bytes[start..]
        .iter()
        .position(|&b| blank(b) || !b.is_ascii())
        .unwrap_or(bytes.len() - start);
    match bytes.get(start + len) {
        Some(b) if !b.is_ascii() => content.split_whitespace().next().unwrap_or(""),
        _ => &content[start..start + len],
    }
}

/// Where a line stands decides its tokens: the first one is the header (unless it is a BEGIN),
/// a line outside entries is stray text, a line inside one is a field.
struct DescriptionLines {
    seen_header: bool,
    in_entry: bool,
}

/// A DESC text ends at a line holding only `.`.
const DESC_END: LineKeyword = LineKeyword {
    word: ".",
    kind: RLG_DESC_END,
    trailing: &[],
};

impl BlockRules for DescriptionLines {
    fn close(&mut self, line: Line<'_>, out: &mut Lexed) -> bool {
        DESC_END.close(line, out)
    }

    /// A DESC text whose `.` is missing ends at the entry's END or at the next BEGIN.
    fn ends_block(&self, content: &str) -> bool {
        content.trim() == "END" || first_word(content) == "BEGIN"
    }

    /// One line of a DESC text, as it is (an empty line is no token).
    fn body(&mut self, line: Line<'_>, out: &mut Lexed) {
        push(out, RLG_DESC_LINE, line.start, line.content_end);
    }

    fn outside(&mut self, line: Line<'_>, out: &mut Lexed) -> OutsideLine {
        let opens_block = self.line(line, out);
        OutsideLine {
            next: line.push_end(out),
            opens_block,
        }
    }
}

/// Pushes a token unless it would be empty.
fn push(out: &mut Lexed, kind: SyntaxKind, start: usize, end: usize) {
    if end > start {
        out.push(kind, start, end);
    }
}

/// The line from offset `from` on: blanks as whitespace, each word as an `RLG_WORD`.
fn words(out: &mut Lexed, line: Line<'_>, from: usize) {
    // The blanks are ASCII bytes, which never stand inside a character of several bytes: the
    // runs are cut over bytes.
    let bytes = line.content().as_bytes();
    let blank = |b: u8| matches!(b, b' ' | b'\t' | b'\r');
    let mut pos = from - line.start;
    while pos < bytes.len() {
        let blanks = blank(bytes[pos]);
        let len = bytes[pos..]
            .iter()
            .position(|&b| blank(b) != blanks)
            .unwrap_or(bytes.len() - pos);
        let kind = if blanks { WHITESPACE } else { RLG_WORD };
        out.push(kind, line.start + pos, line.start + pos + len);
        pos += len;
    }
}

impl DescriptionLines {
    /// Lexes a line outside DESC texts, without its line end; tells whether it opens one.
    fn line(&mut self, line: Line<'_>, out: &mut Lexed) -> bool {
        let content = line.content();
        let (start, end) = (line.start, line.content_end);
        let text_after_indent = |kind, out: &mut Lexed| {
            let indent = content.len() - content.trim_start().len();
            push(out, WHITESPACE, start, start + indent);
            push(out, kind, start + indent, end);
        };
        if content.trim().is_empty() {
            push(out, WHITESPACE, start, end);
            return false;
        }
        let word = first_word(content);
        if !self.seen_header {
            self.seen_header = true;
            if word != "BEGIN" {
                text_after_indent(RLG_HEADER_TEXT, out);
                return false;
            }
        }
        if !self.in_entry && word != "BEGIN" {
            text_after_indent(RLG_TEXT, out);
            return false;
        }
        // The first word starts after the indentation (the line is not blank).
        let at = start + (content.len() - content.trim_start().len());
        let word_end = at + word.len();
        push(out, WHITESPACE, start, at);
        match word {
            "BEGIN" => {
                self.in_entry = true;
                out.push(RLG_BEGIN_KW, at, word_end);
                words(out, line, word_end);
            }
            "END" => {
                self.in_entry = false;
                out.push(RLG_END_KW, at, word_end);
                words(out, line, word_end);
            }
            "NAME" => {
                // The rest of the line, trailing blanks included, is the name.
                out.push(RLG_FIELD_KW, at, word_end);
                let rest = &content[word_end - start..];
                let blanks = rest.len() - rest.trim_start_matches([' ', '\t']).len();
                push(out, WHITESPACE, word_end, word_end + blanks);
                push(out, RLG_TEXT, word_end + blanks, end);
            }
            _ => {
                out.push(RLG_FIELD_KW, at, word_end);
                words(out, line, word_end);
            }
        }
        opens_description(word)
    }
}

#[cfg(test)]
mod tests {
    use super::first_word;

    /// The byte walk answers what splitting at Unicode's blanks answers.
    #[test]
    fn first_word_is_the_first_of_the_words_between_unicode_blanks() {
        for content in [
            "",
            " \t\r",
            "BEGIN MONSTER",
            "  \u{b}END\u{c}x",
            "\u{a0}BEGIN",
            "BEGIN\u{2003}x",
            "BEGINé x",
            "éBEGIN",
            "NAME\u{85}",
            "x\u{1c}y z",
        ] {
            assert_eq!(
                first_word(content),
                content.split_whitespace().next().unwrap_or(""),
                "{content:?}"
            );
        }
    }
}
