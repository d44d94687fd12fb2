//! The NetHack 3.4.3 `.des` dialect (lev_comp).

pub mod ast;
mod grammar;
pub mod lexer;

use crate::Parse;
use crate::compact::CompactParse;
use crate::parser::Parser;

pub fn parse(text: &str) -> Parse {
    let mut parser = Parser::new(text, lexer::lex(text), levkit_diagnostics::Code::NH0001);
    grammar::source_file(&mut parser);
    let (green, mut errors) = parser.finish_tree();
    levkit_diagnostics::sort(&mut errors);
    Parse::new(green, errors)
}

/// The parse [`parse`] makes, as a [`crate::compact::CompactTree`]: what lowering a whole file
/// needs, for less than the rowan tree costs.
pub fn parse_compact(text: &str) -> CompactParse {
    let mut parser = Parser::compact(text, lexer::lex(text), levkit_diagnostics::Code::NH0001);
    grammar::source_file(&mut parser);
    let (tree, mut errors) = parser.finish_compact();
    levkit_diagnostics::sort(&mut errors);
    CompactParse { tree, errors }
}
