//! COM S 327 monster and object descriptions: a lossless tree of lines (a header, entries
//! from BEGIN to END, one field per line, DESC texts up to a `.` line). The format has no
//! syntax errors of its own: every line is placed in the tree, and every judgement (a missing
//! END, an unknown field, an unterminated DESC...) is left to the checks.

mod grammar;
mod lexer;

use levkit_diagnostics::Code;

use crate::Parse;
use crate::compact::CompactParse;
use crate::parser::Parser;

pub fn parse(text: &str) -> Parse {
    // The grammar accepts every token where it stands, so it never reports an unexpected one;
    // were it to, the nearest meaning would be a line that is no field (RL0104).
    let mut parser = Parser::new(text, lexer::lex(text), Code::RL0104);
    grammar::source_file(&mut parser);
    let (green, errors) = parser.finish_tree();
    Parse::new(green, errors)
}

/// The parse [`parse`] makes, as a [`crate::compact::CompactTree`]: what lowering the file
/// needs (the checks of every keystroke), for less than the rowan tree costs.
pub fn parse_compact(text: &str) -> CompactParse {
    let mut parser = Parser::compact(text, lexer::lex(text), Code::RL0104);
    grammar::source_file(&mut parser);
    let (tree, errors) = parser.finish_compact();
    CompactParse { tree, errors }
}
