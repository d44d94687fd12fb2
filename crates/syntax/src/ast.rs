//! Typed views over syntax nodes. A typed node is a [`SyntaxNode`] whose kind is known; its
//! accessors find children by kind or position and return `None` where the text is incomplete.

use crate::{SyntaxKind, SyntaxNode, SyntaxToken};

pub trait AstNode: Sized {
    fn can_cast(kind: SyntaxKind) -> bool;
    fn cast(node: SyntaxNode) -> Option<Self>;
    fn syntax(&self) -> &SyntaxNode;
}

/// Declares typed nodes: `Name = KIND | KIND ...`.
macro_rules! ast_nodes {
    ($( $(#[$meta:meta])* $name:ident = $($kind:ident)|+ ; )*) => {
        $(
            $(#[$meta])*
            #[derive(Debug, Clone, PartialEq, Eq, Hash)]
            pub struct $name(pub(crate) $crate::SyntaxNode);

            impl $crate::ast::AstNode for $name {
                fn can_cast(kind: $crate::SyntaxKind) -> bool {
                    matches!(kind, $($crate::SyntaxKind::$kind)|+)
                }
                fn cast(node: $crate::SyntaxNode) -> Option<Self> {
                    Self::can_cast(node.kind()).then(|| $name(node))
                }
                fn syntax(&self) -> &$crate::SyntaxNode {
                    &self.0
                }
            }
        )*
    };
}
pub(crate) use ast_nodes;

pub fn children<N: AstNode>(parent: &SyntaxNode) -> impl Iterator<Item = N> {
    parent.children().filter_map(N::cast)
}

pub fn child<N: AstNode>(parent: &SyntaxNode) -> Option<N> {
    children(parent).next()
}

pub fn token(parent: &SyntaxNode, kind: SyntaxKind) -> Option<SyntaxToken> {
    parent
        .children_with_tokens()
        .filter_map(|e| e.into_token())
        .find(|t| t.kind() == kind)
}

/// A value written in a statement: a token (`'d'`, `"jackal"`, `random`, `12`...) or a
/// structured node (a coordinate, a region, a register, an appearance).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Value {
    Token(SyntaxToken),
    Node(SyntaxNode),
}

impl Value {
    pub fn kind(&self) -> SyntaxKind {
        match self {
            Value::Token(t) => t.kind(),
            Value::Node(n) => n.kind(),
        }
    }

    pub fn text_range(&self) -> rowan::TextRange {
        match self {
            Value::Token(t) => t.text_range(),
            Value::Node(n) => n.text_range(),
        }
    }

    pub fn token(&self) -> Option<&SyntaxToken> {
        match self {
            Value::Token(t) => Some(t),
            Value::Node(_) => None,
        }
    }

    pub fn node(&self) -> Option<&SyntaxNode> {
        match self {
            Value::Node(n) => Some(n),
            Value::Token(_) => None,
        }
    }
}

pub(crate) fn is_punctuation(kind: SyntaxKind) -> bool {
    use SyntaxKind::*;
    kind.is_trivia()
        || matches!(
            kind,
            COLON
                | COMMA
                | L_PAREN
                | R_PAREN
                | L_BRACK
                | R_BRACK
                | PERCENT
                | AT
                | PLUS
                | ERROR_CHAR
                | ERROR
        )
}

/// Whether a node's first child is a keyword rather than a value.
pub(crate) fn opens_with_keyword(kind: SyntaxKind) -> bool {
    use SyntaxKind::*;
    !matches!(kind, COORD | RECT | ALIGN_PAIR | CORRIDOR_SPEC)
}

/// The values of a statement or a structured value, in order: every child that is neither
/// punctuation, trivia nor an error. The keyword that opens a statement, a register
/// (`place`), an appearance (`m_feature`) or a `levregion` is not a value.
pub fn values(node: &SyntaxNode) -> Vec<Value> {
    node.children_with_tokens()
        .skip(usize::from(opens_with_keyword(node.kind())))
        .filter(|e| !is_punctuation(e.kind()))
        .map(|e| match e {
            rowan::NodeOrToken::Node(n) => Value::Node(n),
            rowan::NodeOrToken::Token(t) => Value::Token(t),
        })
        .collect()
}
