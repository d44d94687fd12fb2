//! Text to lossless syntax trees: the lexers, the parsers and the typed AST of every dialect.
//!
//! Invariants: the text of a tree is exactly the parsed text; parsing never fails and never
//! panics; every syntax error is a [`Diagnostic`] with a code and a range.

pub mod ast;
pub mod compact;
pub mod dcss;
mod dialect;
pub mod dungeon;
mod lines;
pub mod nethack;
mod numbers;
mod parser;
pub mod rlg327;
pub mod suggest;
mod syntax_kind;

pub use dialect::{DETECTION, Detection, Dialect};
pub use levkit_diagnostics::{Diagnostic, TextRange, TextSize};
pub use numbers::{atoi, beyond_int};
pub use parser::{FlatParse, Token};
pub use syntax_kind::{LevLanguage, SyntaxElement, SyntaxKind, SyntaxNode, SyntaxToken};

use rowan::GreenNode;

/// A parsed file: an immutable green tree and the syntax errors found while building it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parse {
    green: GreenNode,
    errors: Vec<Diagnostic>,
}

impl Parse {
    pub(crate) fn new(green: GreenNode, errors: Vec<Diagnostic>) -> Parse {
        Parse { green, errors }
    }

    pub fn green(&self) -> &GreenNode {
        &self.green
    }

    pub fn syntax(&self) -> SyntaxNode {
        SyntaxNode::new_root(self.green.clone())
    }

    pub fn errors(&self) -> &[Diagnostic] {
        &self.errors
    }

    /// The tree in rowan's debug format, one node or token per line: `KIND@start..end "text"`.
    pub fn debug_tree(&self) -> String {
        let mut out = String::new();
        debug_tree(&mut out, &self.syntax());
        out
    }
}

fn debug_tree(out: &mut String, root: &SyntaxNode) {
    use std::fmt::Write;
    let mut depth = 0;
    for event in root.preorder_with_tokens() {
        match event {
            rowan::WalkEvent::Enter(element) => {
                let indent = "  ".repeat(depth);
                match element {
                    rowan::NodeOrToken::Node(node) => {
                        let _ = writeln!(out, "{indent}{:?}@{:?}", node.kind(), node.text_range());
                        depth += 1;
                    }
                    rowan::NodeOrToken::Token(token) => {
                        let _ = writeln!(
                            out,
                            "{indent}{:?}@{:?} {:?}",
                            token.kind(),
                            token.text_range(),
                            token.text()
                        );
                    }
                }
            }
            rowan::WalkEvent::Leave(rowan::NodeOrToken::Node(_)) => depth -= 1,
            rowan::WalkEvent::Leave(_) => {}
        }
    }
}

/// Parses `text` as `dialect`. Dialects without a parser yet give a tree holding the whole text
/// as one token, so that every file still round-trips.
pub fn parse(text: &str, dialect: Dialect) -> Parse {
    match dialect {
        Dialect::NethackDes => nethack::parse(text),
        Dialect::NethackDungeon => dungeon::parse(text),
        Dialect::Rlg327Monster | Dialect::Rlg327Object => rlg327::parse(text),
        Dialect::DcssDes => dcss::parse(text),
        Dialect::Unknown => {
            let mut builder = rowan::GreenNodeBuilder::new();
            builder.start_node(SyntaxKind::SOURCE_FILE.into());
            if !text.is_empty() {
                builder.token(SyntaxKind::ERROR_CHAR.into(), text);
            }
            builder.finish_node();
            Parse::new(builder.finish(), Vec::new())
        }
    }
}

/// Decodes file bytes: valid UTF-8 as is; otherwise lossily, with an error at the first bad byte.
pub fn decode(bytes: &[u8]) -> (String, Option<Diagnostic>) {
    match std::str::from_utf8(bytes) {
        Ok(text) => (text.to_string(), None),
        Err(error) => {
            let text = String::from_utf8_lossy(bytes).into_owned();
            let valid = error.valid_up_to();
            // Offsets refer to the decoded text; the prefix before the bad byte is unchanged.
            let start = TextSize::from(valid as u32);
            let diagnostic = Diagnostic::new(
                levkit_diagnostics::Code::LK0001,
                TextRange::at(start, TextSize::from('\u{fffd}'.len_utf8() as u32)),
                format!(
                    "the file is not valid UTF-8: byte {:#04x} at offset {valid} cannot be decoded; re-save the file as UTF-8",
                    bytes[valid]
                ),
            );
            (text, Some(diagnostic))
        }
    }
}
