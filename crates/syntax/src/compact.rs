//! A syntax tree in one array: every node and token in preorder, a node knowing where its
//! last descendant ends. What a single pass over a whole file (lowering) needs, for a fraction
//! of what a rowan tree costs to build: no allocation per node, no token interning. The
//! editor's rowan tree is made from it ([`CompactParse::to_parse`]) when wanted, so a file is
//! parsed once either way.
//!
//! The walking API mirrors [`crate::green`]'s, so a lowering reads both alike.

use levkit_diagnostics::{Diagnostic, TextRange, TextSize};

use crate::{Parse, SyntaxKind};

/// A parse into a [`CompactTree`], with its syntax errors (sorted).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompactParse {
    pub tree: CompactTree,
    pub errors: Vec<Diagnostic>,
}

impl CompactParse {
    /// The rowan tree of the same parse, node for node and token for token. `text` is the
    /// parsed text.
    pub fn to_parse(&self, text: &str) -> Parse {
        Parse::new(self.tree.to_green(text), self.errors.clone())
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CompactTree {
    entries: Vec<Entry>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    kind: SyntaxKind,
    is_node: bool,
    start: u32,
    end: u32,
    /// For a node, the index just past its last descendant.
    next: u32,
}

/// Builds a [`CompactTree`] from the parser's events.
#[derive(Debug, Default)]
pub(crate) struct CompactBuilder {
    entries: Vec<Entry>,
    /// The open nodes, innermost last.
    open: Vec<u32>,
    /// The end of the last token added.
    offset: u32,
}

impl CompactBuilder {
    pub(crate) fn with_capacity(tokens: usize) -> CompactBuilder {
        CompactBuilder {
            // Nodes come on top of the tokens: about one for every two tokens.
            entries: Vec::with_capacity(tokens + tokens / 2),
            ..CompactBuilder::default()
        }
    }

    pub(crate) fn start_node(&mut self, kind: SyntaxKind) {
        self.open.push(self.entries.len() as u32);
        self.entries.push(Entry {
            kind,
            is_node: true,
            start: self.offset,
            end: self.offset,
            next: 0,
        });
    }

    pub(crate) fn token(&mut self, kind: SyntaxKind, range: TextRange) {
        self.offset = range.end().into();
        self.entries.push(Entry {
            kind,
            is_node: false,
            start: range.start().into(),
            end: self.offset,
            next: 0,
        });
    }

    pub(crate) fn finish_node(&mut self) {
        let next = self.entries.len() as u32;
        if let Some(entry) = self
            .open
            .pop()
            .and_then(|i| self.entries.get_mut(i as usize))
        {
            entry.end = self.offset;
            entry.next = next;
        }
    }

    pub(crate) fn finish(mut self) -> CompactTree {
        while !self.open.is_empty() {
            self.finish_node();
        }
        CompactTree {
            entries: self.entries,
        }
    }
}

impl CompactTree {
    /// The root node, over the parsed `text`; `None` for an empty tree.
    pub fn root<'a>(&'a self, text: &'a str) -> Option<Node<'a>> {
        self.entries.first().filter(|e| e.is_node).map(|_| Node {
            tree: self,
            text,
            index: 0,
        })
    }

    /// The same tree as rowan's green tree.
    pub fn to_green(&self, text: &str) -> rowan::GreenNode {
        let mut builder = rowan::GreenNodeBuilder::new();
        let mut ends: Vec<u32> = Vec::new();
        for (i, entry) in self.entries.iter().enumerate() {
            while ends.last() == Some(&(i as u32)) {
                ends.pop();
                builder.finish_node();
            }
            if entry.is_node {
                builder.start_node(entry.kind.into());
                ends.push(entry.next);
            } else {
                let token = text
                    .get(entry.start as usize..entry.end as usize)
                    .unwrap_or_default();
                builder.token(entry.kind.into(), token);
            }
        }
        if ends.is_empty() {
            // An empty tree still has its root.
            builder.start_node(SyntaxKind::SOURCE_FILE.into());
            ends.push(0);
        }
        for _ in ends {
            builder.finish_node();
        }
        builder.finish()
    }

    fn range(&self, index: usize) -> TextRange {
        let entry = self.entries[index];
        TextRange::new(TextSize::from(entry.start), TextSize::from(entry.end))
    }
}

/// A node of a [`CompactTree`].
#[derive(Debug, Clone, Copy)]
pub struct Node<'a> {
    tree: &'a CompactTree,
    text: &'a str,
    index: usize,
}

/// A token of a [`CompactTree`].
#[derive(Debug, Clone, Copy)]
pub struct Token<'a> {
    tree: &'a CompactTree,
    text: &'a str,
    index: usize,
}

/// A child: a node or a token.
#[derive(Debug, Clone, Copy)]
pub enum Element<'a> {
    Node(Node<'a>),
    Token(Token<'a>),
}

impl<'a> Node<'a> {
    fn entry(self) -> Entry {
        self.tree.entries[self.index]
    }

    fn element(self, index: usize) -> Element<'a> {
        let (tree, text) = (self.tree, self.text);
        if tree.entries[index].is_node {
            Element::Node(Node { tree, text, index })
        } else {
            Element::Token(Token { tree, text, index })
        }
    }

    pub fn kind(self) -> SyntaxKind {
        self.entry().kind
    }

    pub fn text_range(self) -> TextRange {
        self.tree.range(self.index)
    }

    pub fn children_with_tokens(self) -> impl Iterator<Item = Element<'a>> + Clone {
        let end = self.entry().next as usize;
        let mut at = self.index + 1;
        std::iter::from_fn(move || {
            if at >= end {
                return None;
            }
            let element = self.element(at);
            at = match element {
                Element::Node(node) => node.entry().next as usize,
                Element::Token(_) => at + 1,
            };
            Some(element)
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
        let (tree, text) = (self.tree, self.text);
        (self.index..self.entry().next as usize)
            .filter(move |&index| tree.entries[index].is_node)
            .map(move |index| Node { tree, text, index })
    }
}

impl<'a> Token<'a> {
    pub fn kind(self) -> SyntaxKind {
        self.tree.entries[self.index].kind
    }

    pub fn text(self) -> &'a str {
        let entry = self.tree.entries[self.index];
        self.text
            .get(entry.start as usize..entry.end as usize)
            .unwrap_or_default()
    }

    pub fn text_range(self) -> TextRange {
        self.tree.range(self.index)
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
    use crate::green;

    /// The compact tree is the rowan tree: same nodes, tokens and ranges, and the rowan tree
    /// made from it equals the one the parser builds directly.
    #[test]
    fn is_the_rowan_tree() {
        let texts = [
            "",
            "# only a comment\n",
            "MAZE:\"a\",' '\nGEOMETRY:center,center\nMAP\n-.\nENDMAP\nMONSTER:'d',\"x\",(1,1)\n",
            "LEVEL: \"x\"\nROOM: \"ordinary\" , random, random, random, random\nOBJECT: '(', random\nMONSTER ,, \n",
            "MAZE:\"b\"\nMAP\n..\n",
        ];
        for text in texts {
            let direct = crate::nethack::parse(text);
            let compact = crate::nethack::parse_compact(text);
            assert_eq!(compact.to_parse(text), direct, "{text:?}");
            let green_root = green::Node::root(direct.green());
            let root = compact.tree.root(text).unwrap();
            let walked = |n: Node<'_>| -> Vec<(SyntaxKind, TextRange)> {
                n.descendants()
                    .map(|n| (n.kind(), n.text_range()))
                    .collect()
            };
            let green_walked: Vec<_> = green_root
                .descendants()
                .map(|n| (n.kind(), n.text_range()))
                .collect();
            assert_eq!(walked(root), green_walked, "{text:?}");
            for (node, green_node) in root.descendants().zip(green_root.descendants()) {
                let ours: Vec<_> = node
                    .children_with_tokens()
                    .map(|e| (e.kind(), e.text_range()))
                    .collect();
                let theirs: Vec<_> = green_node
                    .children_with_tokens()
                    .map(|e| (e.kind(), e.text_range()))
                    .collect();
                assert_eq!(ours, theirs);
                assert_eq!(
                    node.first_token().map(|t| (t.text_range(), t.text())),
                    green_node.first_token().map(|t| (t.text_range(), t.text()))
                );
            }
        }
    }
}
