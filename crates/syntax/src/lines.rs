//! The line machinery of lexers whose files are partly made of lines rather than of tokens:
//! splitting the text into lines, keywords that stand alone on their line, and blocks of lines
//! (`MAP` ... `ENDMAP`) whose body is lexed line by line, as map rows.
//!
//! A dialect gives its rules through [`BlockRules`]; [`lex_lines`] owns the loop and the block
//! state. What differs between dialects is all in the rules: what opens a block, which line
//! closes it, what a body line is made of, and whether a line other than the closing one ends a
//! block that was never closed (NetHack: a statement does; DCSS: nothing does, a missing
//! `ENDMAP` eats the file).

use crate::SyntaxKind::{self, *};
use crate::parser::{Lexed, offset};
use levkit_diagnostics::TextRange;

/// One line of the text: its content, then its line end (`\n`, `\r\n`, or none at the end of
/// the text). A `\r` not followed by `\n` is part of the content.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Line<'t> {
    /// The text from `start` to `content_end`, cut once: the rules read it several times.
    content: &'t str,
    pub(crate) start: usize,
    /// Just past the content, before the line end.
    pub(crate) content_end: usize,
    /// Just past the line end: where the next line starts.
    pub(crate) end: usize,
}

impl<'t> Line<'t> {
    /// The line that starts at `start`.
    #[inline(always)]
    pub(crate) fn at(text: &'t str, start: usize) -> Line<'t> {
        // This runs once per line of every file.
        let newline = find_byte(b'\n', &text.as_bytes()[start..]);
        Line::ending(text, start, newline)
    }

    /// The line that starts at `start` and whose `\n` is `newline` bytes further (none: the
    /// line ends the text), for a caller that searched for it.
    #[inline(always)]
    pub(crate) fn ending(text: &'t str, start: usize, newline: Option<usize>) -> Line<'t> {
        let bytes = &text.as_bytes()[start..];
        match newline {
            Some(i) => {
                let content_len = if i > 0 && bytes[i - 1] == b'\r' {
                    i - 1
                } else {
                    i
                };
                Line {
                    content: &text[start..start + content_len],
                    start,
                    content_end: start + content_len,
                    end: start + i + 1,
                }
            }
            None => Line {
                content: &text[start..],
                start,
                content_end: text.len(),
                end: text.len(),
            },
        }
    }

    /// The same line, read from `text`: the text it was cut from, held for longer (a lexer's
    /// rules hold their text with its own lifetime). Finding the line again would search it.
    pub(crate) fn in_text<'u>(self, text: &'u str) -> Line<'u> {
        let content = &text[self.start..self.content_end];
        debug_assert_eq!(content, self.content, "not the line's text");
        Line {
            content,
            start: self.start,
            content_end: self.content_end,
            end: self.end,
        }
    }

    pub(crate) fn content(&self) -> &'t str {
        self.content
    }

    /// Pushes the whole content as one token of `kind`, even when it is empty.
    pub(crate) fn push_content(&self, out: &mut Lexed, kind: SyntaxKind) {
        out.push(kind, self.start, self.content_end);
    }

    /// Pushes the line end, if any, as a `NEWLINE`; returns where the next line starts.
    pub(crate) fn push_end(&self, out: &mut Lexed) -> usize {
        if self.end > self.content_end {
            out.push(NEWLINE, self.content_end, self.end);
        }
        self.end
    }
}

/// The first `byte` of `bytes`. On x86_64 through memchr's SSE2 searcher, which every such
/// processor runs and which therefore inlines here: `memchr::memchr` picks its searcher at run
/// time, behind a call through a pointer, which cost about as much as the search of a line.
#[inline(always)]
pub(crate) fn find_byte(byte: u8, bytes: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if let Some(searcher) = memchr::arch::x86_64::sse2::memchr::One::new(byte) {
        return searcher.find(bytes);
    }
    memchr::memchr(byte, bytes)
}

/// A keyword that must stand alone on its line, such as `MAP` and `ENDMAP`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LineKeyword {
    pub(crate) word: &'static str,
    pub(crate) kind: SyntaxKind,
    /// What may follow the word on its line (lexed as whitespace): nothing for lev_comp,
    /// blanks for DCSS.
    pub(crate) trailing: &'static [char],
}

/// How a line holds a [`LineKeyword`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Placement {
    /// From column 0, followed by nothing but what the keyword allows.
    Alone,
    /// The line's first word, but indented or followed by other text. The caller reports it;
    /// the line still counts as the keyword's (the rest of it is kept as whitespace), so that
    /// one sloppy `MAP` line does not turn a whole map into statements.
    Misplaced(TextRange),
}

/// The first word of a line and where it starts: after the leading blanks, a run of ASCII
/// letters, digits, `_` and `-` (so `MAPS` and `MAP_X` are not `MAP`). Empty when the line
/// starts with anything else.
pub(crate) fn first_word(content: &str) -> (usize, &str) {
    // Over bytes: every byte it stops after is ASCII, so the cuts fall between characters.
    let bytes = content.as_bytes();
    let indent = bytes
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    let len = bytes[indent..]
        .iter()
        .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        .count();
    (indent, &content[indent..indent + len])
}

impl LineKeyword {
    /// If `line` is this keyword alone, pushes its tokens (line end included) and answers
    /// true: the usual [`BlockRules::close`].
    pub(crate) fn close(&self, line: Line<'_>, out: &mut Lexed) -> bool {
        self.is_alone(line.content()) && self.lex(line, out).is_some()
    }

    /// Whether `content` is the keyword alone on its line.
    pub(crate) fn is_alone(&self, content: &str) -> bool {
        content
            .strip_prefix(self.word)
            .is_some_and(|rest| rest.chars().all(|c| self.trailing.contains(&c)))
    }

    /// If `line` is this keyword's line, pushes its tokens, line end included, and tells how
    /// the keyword stands on it.
    pub(crate) fn lex(&self, line: Line<'_>, out: &mut Lexed) -> Option<Placement> {
        let content = line.content();
        let (word_start, placement) = if self.is_alone(content) {
            (0, Placement::Alone)
        } else {
            let (word_start, word) = first_word(content);
            if word != self.word {
                return None;
            }
            let start = line.start + word_start;
            let range = TextRange::new(offset(start), offset(start + word.len()));
            (word_start, Placement::Misplaced(range))
        };
        let word_end = word_start + self.word.len();
        if word_start > 0 {
            out.push(WHITESPACE, line.start, line.start + word_start);
        }
        out.push(self.kind, line.start + word_start, line.start + word_end);
        if word_end < content.len() {
            out.push(WHITESPACE, line.start + word_end, line.content_end);
        }
        line.push_end(out);
        Some(placement)
    }
}

/// What lexing a line outside blocks did.
#[derive(Debug, Clone, Copy)]
pub(crate) struct OutsideLine {
    /// Where lexing stopped: the start of a later line (a token such as a string may run over
    /// several lines).
    pub(crate) next: usize,
    /// Whether the line opened a block: the lines after it are its body.
    pub(crate) opens_block: bool,
}

/// A dialect's line rules.
pub(crate) trait BlockRules {
    /// If `line` closes the open block (`ENDMAP` alone on its line, a Lua line ending in
    /// `}}`), pushes its tokens, line end included, and answers true. A dialect with several
    /// kinds of block remembers in its own state which one is open.
    fn close(&mut self, line: Line<'_>, out: &mut Lexed) -> bool;

    /// Lexes a line outside blocks, line end included. A dialect whose blocks open with a
    /// keyword line recognises it with [`LineKeyword::lex`].
    fn outside(&mut self, line: Line<'_>, out: &mut Lexed) -> OutsideLine;

    /// Whether a line of a block, other than its closing line, ends the block: the line is then
    /// lexed as a line outside. This is how a dialect recovers from a missing closing line
    /// (lev_comp: a statement ends the map); a dialect without recovery answers `false`, and a
    /// block left open takes the rest of the file.
    fn ends_block(&self, content: &str) -> bool;

    /// Lexes one line of a block's body, without its line end (map rows, comments...).
    fn body(&mut self, line: Line<'_>, out: &mut Lexed);

    /// Finds the line at `pos` inside a block. A dialect may learn more of the line in the
    /// same search and keep it for [`BlockRules::body`] (DCSS: a map row's first tab).
    #[inline(always)]
    fn block_line<'t>(&mut self, text: &'t str, pos: usize) -> Line<'t> {
        Line::at(text, pos)
    }
}

/// Lexes `text` from `start`, the start of a line, line by line under `rules`.
pub(crate) fn lex_lines<R: BlockRules>(text: &str, start: usize, rules: &mut R, out: &mut Lexed) {
    let mut in_block = false;
    let mut pos = start;
    while pos < text.len() {
        let line = if in_block {
            rules.block_line(text, pos)
        } else {
            Line::at(text, pos)
        };
        if in_block {
            if rules.close(line, out) {
                in_block = false;
                pos = line.end;
                continue;
            }
            if !rules.ends_block(line.content()) {
                rules.body(line, out);
                pos = line.push_end(out);
                continue;
            }
            // The block ends here without its closing line: this line is lexed as outside.
        }
        let lexed = rules.outside(line, out);
        debug_assert!(lexed.next >= line.end, "a line was left unlexed");
        in_block = lexed.opens_block;
        pos = lexed.next.max(line.end);
    }
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use super::*;

    /// Rules shaped like DCSS's: blanks may follow `MAP` and `ENDMAP`, every body line is a map
    /// row (even an indented `ENDMAP`), and nothing but `ENDMAP` ends a map.
    #[derive(Default)]
    struct VaultLines {
        misplaced: Vec<TextRange>,
    }

    const MAP: LineKeyword = LineKeyword {
        word: "MAP",
        kind: MAP_KW,
        trailing: &[' ', '\t'],
    };

    const ENDMAP: LineKeyword = LineKeyword {
        word: "ENDMAP",
        kind: ENDMAP_KW,
        trailing: &[' ', '\t'],
    };

    impl BlockRules for VaultLines {
        fn close(&mut self, line: Line<'_>, out: &mut Lexed) -> bool {
            ENDMAP.close(line, out)
        }

        fn outside(&mut self, line: Line<'_>, out: &mut Lexed) -> OutsideLine {
            if let Some(placement) = MAP.lex(line, out) {
                if let Placement::Misplaced(range) = placement {
                    self.misplaced.push(range);
                }
                return OutsideLine {
                    next: line.end,
                    opens_block: true,
                };
            }
            line.push_content(out, IDENT);
            OutsideLine {
                next: line.push_end(out),
                opens_block: false,
            }
        }

        fn ends_block(&self, _content: &str) -> bool {
            false
        }

        fn body(&mut self, line: Line<'_>, out: &mut Lexed) {
            line.push_content(out, MAP_ROW);
        }
    }

    fn check(text: &str, expected: Expect) {
        let mut out = Lexed::default();
        let mut rules = VaultLines::default();
        lex_lines(text, 0, &mut rules, &mut out);
        let mut actual = String::new();
        for token in &out.tokens {
            actual += &format!("{:?} {:?}\n", token.kind, &text[token.range]);
        }
        for range in rules.misplaced {
            actual += &format!("misplaced {range:?}\n");
        }
        expected.assert_eq(&actual);
    }

    #[test]
    fn the_inlined_byte_search_agrees_with_memchr() {
        let text: Vec<u8> = (0..200u32)
            .map(|i| [b'a', b'\n', b'x', b','][(i * i % 11 % 4) as usize])
            .collect();
        for start in 0..text.len() {
            for end in start..text.len().min(start + 80) {
                let bytes = &text[start..end];
                for byte in [b'\n', b',', b'z'] {
                    assert_eq!(find_byte(byte, bytes), memchr::memchr(byte, bytes));
                }
            }
        }
    }

    #[test]
    fn a_block_runs_from_its_keyword_line_to_its_closing_line() {
        check(
            "before\nMAP \n#.x\n  ENDMAP\nENDMAP\t\r\nafter",
            expect![[r##"
                IDENT "before"
                NEWLINE "\n"
                MAP_KW "MAP"
                WHITESPACE " "
                NEWLINE "\n"
                MAP_ROW "#.x"
                NEWLINE "\n"
                MAP_ROW "  ENDMAP"
                NEWLINE "\n"
                ENDMAP_KW "ENDMAP"
                WHITESPACE "\t"
                NEWLINE "\r\n"
                IDENT "after"
            "##]],
        );
    }

    #[test]
    fn without_recovery_a_missing_closing_line_takes_the_rest_of_the_file() {
        check(
            "MAP\n..\nNAME: next\n\r",
            expect![[r##"
                MAP_KW "MAP"
                NEWLINE "\n"
                MAP_ROW ".."
                NEWLINE "\n"
                MAP_ROW "NAME: next"
                NEWLINE "\n"
                MAP_ROW "\r"
            "##]],
        );
    }

    #[test]
    fn a_misplaced_keyword_line_still_opens_the_block() {
        check(
            "  MAP here\nx\nMAPS\n",
            expect![[r##"
                WHITESPACE "  "
                MAP_KW "MAP"
                WHITESPACE " here"
                NEWLINE "\n"
                MAP_ROW "x"
                NEWLINE "\n"
                MAP_ROW "MAPS"
                NEWLINE "\n"
                misplaced 2..5
            "##]],
        );
    }
}
