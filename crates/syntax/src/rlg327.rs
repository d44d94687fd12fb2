//! COM S 327 monster and object descriptions: a line-based, lossless tree. The format is made
//! of lines (a header, `BEGIN`/`END` lines, one field per line, DESC text up to a `.` line), so
//! the tree is built line by line; every judgement is left to the checks.

use rowan::GreenNodeBuilder;

use crate::Parse;
use crate::SyntaxKind::{self, *};

struct Builder<'t> {
    builder: GreenNodeBuilder<'static>,
    _text: &'t str,
}

impl Builder<'_> {
    fn token(&mut self, kind: SyntaxKind, text: &str) {
        if !text.is_empty() {
            self.builder.token(kind.into(), text);
        }
    }

    /// A line's words: blanks as whitespace, each word as `kind`.
    fn words(&mut self, text: &str, kind: SyntaxKind) {
        let mut rest = text;
        while !rest.is_empty() {
            let blank_len = rest.len() - rest.trim_start_matches([' ', '\t', '\r']).len();
            if blank_len > 0 {
                self.token(WHITESPACE, &rest[..blank_len]);
                rest = &rest[blank_len..];
                continue;
            }
            let word_len = rest.find([' ', '\t', '\r']).unwrap_or(rest.len());
            self.token(kind, &rest[..word_len]);
            rest = &rest[word_len..];
        }
    }
}

/// A line split into its content and its line end (`\n`, `\r\n` or nothing).
fn split_line(line: &str) -> (&str, &str) {
    if let Some(content) = line.strip_suffix("\r\n") {
        (content, "\r\n")
    } else if let Some(content) = line.strip_suffix('\n') {
        (content, "\n")
    } else {
        (line, "")
    }
}

fn first_word(content: &str) -> &str {
    content.split_whitespace().next().unwrap_or("")
}

pub fn parse(text: &str) -> Parse {
    let mut b = Builder {
        builder: GreenNodeBuilder::new(),
        _text: text,
    };
    b.builder.start_node(SOURCE_FILE.into());
    let mut seen_header = false;
    let mut in_entry = false;
    let mut in_desc = false;
    for line in text.split_inclusive('\n') {
        let (content, end) = split_line(line);
        let word = first_word(content);
        if in_desc {
            // A DESC block runs to its `.` line; an END or BEGIN line means the `.` is missing.
            if content == "." {
                b.token(RLG_DESC_END, content);
                b.builder.finish_node();
                in_desc = false;
                b.token(NEWLINE, end);
                continue;
            }
            if content.trim() != "END" && word != "BEGIN" {
                b.token(RLG_DESC_LINE, content);
                b.token(NEWLINE, end);
                continue;
            }
            b.builder.finish_node();
            in_desc = false;
        }
        if content.trim().is_empty() {
            b.token(WHITESPACE, content);
            b.token(NEWLINE, end);
            continue;
        }
        if !seen_header {
            seen_header = true;
            if word != "BEGIN" {
                b.builder.start_node(RLG_HEADER.into());
                let start = content.len() - content.trim_start().len();
                b.token(WHITESPACE, &content[..start]);
                b.token(RLG_HEADER_TEXT, &content[start..]);
                b.builder.finish_node();
                b.token(NEWLINE, end);
                continue;
            }
        }
        if word == "BEGIN" {
            if in_entry {
                b.builder.finish_node();
            }
            b.builder.start_node(RLG_ENTRY.into());
            in_entry = true;
            let at = content.find("BEGIN").unwrap_or(0);
            b.token(WHITESPACE, &content[..at]);
            b.token(RLG_BEGIN_KW, "BEGIN");
            b.words(&content[at + 5..], RLG_WORD);
            b.token(NEWLINE, end);
            continue;
        }
        if !in_entry {
            b.builder.start_node(RLG_STRAY.into());
            let start = content.len() - content.trim_start().len();
            b.token(WHITESPACE, &content[..start]);
            b.token(RLG_TEXT, &content[start..]);
            b.builder.finish_node();
            b.token(NEWLINE, end);
            continue;
        }
        let at = content.find(word).unwrap_or(0);
        if word == "END" {
            b.token(WHITESPACE, &content[..at]);
            b.token(RLG_END_KW, "END");
            b.words(&content[at + 3..], RLG_WORD);
            b.builder.finish_node();
            in_entry = false;
            b.token(NEWLINE, end);
            continue;
        }
        b.token(WHITESPACE, &content[..at]);
        b.builder.start_node(RLG_FIELD.into());
        b.token(RLG_FIELD_KW, word);
        let rest = &content[at + word.len()..];
        if word == "NAME" {
            // The rest of the line, trailing blanks included, is the name.
            let start = rest.len() - rest.trim_start_matches([' ', '\t']).len();
            b.token(WHITESPACE, &rest[..start]);
            b.token(RLG_TEXT, &rest[start..]);
        } else {
            b.words(rest, RLG_WORD);
        }
        // A misspelt DESC still opens a description, so its text is not read as fields.
        if matches!(word, "DESC" | "DES" | "DESCRIPTION" | "desc") {
            in_desc = true;
            b.token(NEWLINE, end);
        } else {
            b.builder.finish_node();
            b.token(NEWLINE, end);
        }
    }
    if in_desc {
        b.builder.finish_node();
    }
    if in_entry {
        b.builder.finish_node();
    }
    b.builder.finish_node();
    Parse::new(b.builder.finish(), Vec::new())
}
