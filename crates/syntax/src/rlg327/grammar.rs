//! The RLG327 grammar: entries from BEGIN to END holding one field per line, a header line and
//! stray lines around them. Every line is accepted (the checks judge the file), so this grammar
//! never reports an error: it only places the lines, and the blanks and line ends around them.

use crate::SyntaxKind::{self, *};
use crate::parser::Parser;

use super::lexer::opens_description;

pub(crate) fn source_file(p: &mut Parser<'_>) {
    p.start_root(SOURCE_FILE);
    while !p.at(EOF) {
        match p.current() {
            RLG_BEGIN_KW => entry(p),
            RLG_HEADER_TEXT => line(p, RLG_HEADER),
            _ => line(p, RLG_STRAY),
        }
    }
}

/// A line of one token, its indentation included.
fn line(p: &mut Parser<'_>, kind: SyntaxKind) {
    p.start_at_line_start(kind);
    p.bump();
    p.finish();
}

/// `BEGIN ...` to `END ...`, or to the next BEGIN or the end of the file when END is missing.
fn entry(p: &mut Parser<'_>) {
    p.start_at_line_start(RLG_ENTRY);
    p.bump();
    words(p);
    loop {
        match p.current() {
            RLG_FIELD_KW => field(p),
            RLG_END_KW => {
                p.bump();
                words(p);
                p.bump_trailing_blanks();
                break;
            }
            _ => {
                p.bump_trivia_to_line_start();
                break;
            }
        }
    }
    p.finish();
}

/// One field line; a DESC field goes on to the end of its text.
fn field(p: &mut Parser<'_>) {
    let description = opens_description(p.current_text());
    p.start(RLG_FIELD);
    p.bump();
    words(p);
    if !description {
        p.bump_trailing_blanks();
    } else {
        while p.at(RLG_DESC_LINE) {
            p.bump();
        }
        if !p.eat(RLG_DESC_END) {
            p.bump_trivia_to_line_start();
        }
    }
    p.finish();
}

/// The rest of the line: its words, or a NAME's text.
fn words(p: &mut Parser<'_>) {
    while matches!(p.current(), RLG_WORD | RLG_TEXT) && !p.at_line_start() {
        p.bump();
    }
}
