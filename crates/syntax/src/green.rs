//! Read-only walks over the green tree: nodes and tokens with their offsets, for passes that
//! visit every statement of a file once, such as lowering. The red tree (`SyntaxNode`) makes
//! an allocation for every node and token it visits, which is what an editor's repeated
//! queries want and what a single pass over a whole file pays for in full.

use rowan::{GreenNodeData, GreenTokenData, Language, NodeOrToken, TextRange, TextSize};

use crate::{LevLanguage, SyntaxKind};

/// A node of the green tree and where it starts.
#[derive(Debug, Clone, Copy)]
pub struct Node<'a> {
    green: &'a GreenNodeData,
    offset: TextSize,
}

/// A token of the green tree and where it starts.
#[derive(Debug, Clone, Copy)]
pub struct Token<'a> {
    green: &'a GreenTokenData,
    offset: TextSize,
}

/// A child: a node or a token.
#[derive(Debug, Clone, Copy)]
pub enum Element<'a> {
    Node(Node<'a>),
    Token(Token<'a>),
}

impl<'a> Node<'a> {
    /// The root of a tree (at offset 0).
    pub fn root(green: &'a GreenNodeData) -> Node<'a> {
        Node {
            green,
            offset: TextSize::from(0),
        }
    }

    pub fn kind(self) -> SyntaxKind {
        LevLanguage::kind_from_raw(self.green.kind())
    }

    pub fn text_range(self) -> TextRange {
        TextRange::at(self.offset, self.green.text_len())
    }

    pub fn children_with_tokens(self) -> impl Iterator<Item = Element<'a>> + Clone {
        let mut offset = self.offset;
        self.green.children().map(move |child| {
            let at = offset;
            offset += child.text_len();
            match child {
                NodeOrToken::Node(green) => Element::Node(Node { green, offset: at }),
                NodeOrToken::Token(green) => Element::Token(Token { green, offset: at }),
            }
        })
    }

    /// The child nodes.
    pub fn children(self) -> impl Iterator<Item = Node<'a>> + Clone {
        self.children_with_tokens().filter_map(Element::node)
    }

    /// The child tokens (not those inside child nodes).
    pub fn tokens(self) -> impl Iterator<Item = Token<'a>> + Clone {
        self.children_with_tokens().filter_map(Element::token)
    }

    /// The first token of the node's text, however deep.
    pub fn first_token(self) -> Option<Token<'a>> {
        match self.children_with_tokens().next()? {
            Element::Token(token) => Some(token),
            Element::Node(node) => node.first_token(),
        }
    }

    /// The node and every node inside it, in preorder.
    pub fn descendants(self) -> impl Iterator<Item = Node<'a>> {
        let mut stack = vec![self];
        std::iter::from_fn(move || {
            let node = stack.pop()?;
            let first = stack.len();
            stack.extend(node.children());
            stack[first..].reverse();
            Some(node)
        })
    }
}

impl<'a> Token<'a> {
    pub fn kind(self) -> SyntaxKind {
        LevLanguage::kind_from_raw(self.green.kind())
    }

    pub fn text(self) -> &'a str {
        self.green.text()
    }

    pub fn text_range(self) -> TextRange {
        TextRange::at(self.offset, self.green.text_len())
    }
}

impl<'a> Element<'a> {
    pub fn kind(self) -> SyntaxKind {
        match self {
            Element::Node(node) => node.kind(),
            Element::Token(token) => token.kind(),
        }
    }

    pub fn text_range(self) -> TextRange {
        match self {
            Element::Node(node) => node.text_range(),
            Element::Token(token) => token.text_range(),
        }
    }

    pub fn node(self) -> Option<Node<'a>> {
        match self {
            Element::Node(node) => Some(node),
            Element::Token(_) => None,
        }
    }

    pub fn token(self) -> Option<Token<'a>> {
        match self {
            Element::Token(token) => Some(token),
            Element::Node(_) => None,
        }
    }
}

/// The values of a statement or a structured value, as [`crate::ast::values`] finds them.
pub fn values(node: Node<'_>) -> impl Iterator<Item = Element<'_>> + Clone {
    let opens_with_keyword = crate::ast::opens_with_keyword(node.kind());
    node.children_with_tokens()
        .skip(usize::from(opens_with_keyword))
        .filter(|e| !crate::ast::is_punctuation(e.kind()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Dialect, SyntaxElement};

    /// The green walk sees the tree the red one does: same kinds, ranges and texts, in order.
    #[test]
    fn walks_like_the_red_tree() {
        let text =
            "MAZE:\"a\",' '\nGEOMETRY:center,center\nMAP\n-.\nENDMAP\nMONSTER:'d',\"x\",(1,1)\n";
        let parse = crate::parse(text, Dialect::NethackDes);
        let red: Vec<(SyntaxKind, TextRange)> = parse
            .syntax()
            .descendants()
            .map(|n| (n.kind(), n.text_range()))
            .collect();
        let green: Vec<(SyntaxKind, TextRange)> = Node::root(parse.green())
            .descendants()
            .map(|n| (n.kind(), n.text_range()))
            .collect();
        assert_eq!(red, green);
        for node in parse.syntax().descendants() {
            let green = Node::root(parse.green())
                .descendants()
                .find(|g| g.text_range() == node.text_range() && g.kind() == node.kind())
                .unwrap();
            let red: Vec<_> = node
                .children_with_tokens()
                .map(|e: SyntaxElement| (e.kind(), e.text_range()))
                .collect();
            let walked: Vec<_> = green
                .children_with_tokens()
                .map(|e| (e.kind(), e.text_range()))
                .collect();
            assert_eq!(red, walked);
            assert_eq!(
                node.first_token().map(|t| t.text_range()),
                green.first_token().map(|t| t.text_range())
            );
        }
    }
}
