//! A syntax tree in two arrays: the lexer's tokens as they are, and the nodes in preorder,
//! each knowing its tokens and where its last descendant ends. What a single pass over a whole
//! file (lowering) needs, for a fraction of what a rowan tree costs to build: no allocation
//! per node, no token interning. It is the rowan tree's parse ([`CompactParse::to_parse`]
//! makes the same tree from it).

use levkit_diagnostics::{Diagnostic, TextRange, TextSize};

use crate::{Parse, SyntaxKind, Token as LexedToken};

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
    /// Every token of the text, as the lexer made them (trivia included).
    tokens: Vec<LexedToken>,
    /// The nodes in preorder.
    nodes: Vec<NodeEntry>,
    text_len: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct NodeEntry {
    kind: SyntaxKind,
    /// The node's tokens, `first_token..end_token` (indices into the tokens).
    first_token: u32,
    end_token: u32,
    /// The index just past the node's last descendant node.
    end_node: u32,
}

/// Builds a [`CompactTree`] from the parser's events: where each node opens and closes, in
/// tokens (the tokens themselves are the lexer's, taken over when finished).
#[derive(Debug, Default)]
pub(crate) struct CompactBuilder {
    nodes: Vec<NodeEntry>,
    /// The open nodes, innermost last.
    open: Vec<u32>,
}

impl CompactBuilder {
    pub(crate) fn with_capacity(tokens: usize) -> CompactBuilder {
        CompactBuilder {
            // About one node for every three tokens.
            nodes: Vec::with_capacity(tokens / 3 + 8),
            open: Vec::new(),
        }
    }

    /// Opens a node before the token `at`.
    pub(crate) fn start_node(&mut self, kind: SyntaxKind, at: usize) {
        self.open.push(self.nodes.len() as u32);
        self.nodes.push(NodeEntry {
            kind,
            first_token: at as u32,
            end_token: at as u32,
            end_node: 0,
        });
    }

    /// Closes the innermost open node before the token `at`.
    pub(crate) fn finish_node(&mut self, at: usize) {
        let end_node = self.nodes.len() as u32;
        if let Some(node) = self.open.pop().and_then(|i| self.nodes.get_mut(i as usize)) {
            node.end_token = at as u32;
            node.end_node = end_node;
        }
    }

    /// The tree over `tokens`, all of the text's tokens.
    pub(crate) fn finish(mut self, tokens: Vec<LexedToken>, text_len: usize) -> CompactTree {
        while !self.open.is_empty() {
            self.finish_node(tokens.len());
        }
        CompactTree {
            tokens,
            nodes: self.nodes,
            text_len: text_len as u32,
        }
    }
}

impl CompactTree {
    /// The root node, over the parsed `text`; `None` for an empty tree.
    pub fn root<'a>(&'a self, text: &'a str) -> Option<Node<'a>> {
        (!self.nodes.is_empty()).then_some(Node {
            tree: self,
            text,
            index: 0,
        })
    }

    /// The same tree as rowan's green tree.
    pub fn to_green(&self, text: &str) -> rowan::GreenNode {
        let mut builder = rowan::GreenNodeBuilder::new();
        match self.root(text) {
            Some(root) => build_green(root, &mut builder),
            None => {
                // An empty tree still has its root.
                builder.start_node(SyntaxKind::SOURCE_FILE.into());
                builder.finish_node();
            }
        }
        builder.finish()
    }

    fn token_start(&self, index: u32) -> u32 {
        self.tokens
            .get(index as usize)
            .map_or(self.text_len, |t| t.range.start().into())
    }
}

fn build_green(node: Node<'_>, builder: &mut rowan::GreenNodeBuilder<'static>) {
    builder.start_node(node.kind().into());
    for child in node.children_with_tokens() {
        match child {
            Element::Node(child) => build_green(child, builder),
            Element::Token(token) => builder.token(token.kind().into(), token.text()),
        }
    }
    builder.finish_node();
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
    fn entry(self) -> NodeEntry {
        self.tree.nodes[self.index]
    }

    pub fn kind(self) -> SyntaxKind {
        self.entry().kind
    }

    pub fn text_range(self) -> TextRange {
        let entry = self.entry();
        let start = self.tree.token_start(entry.first_token);
        let end = match entry.end_token.checked_sub(1) {
            Some(last) if entry.end_token > entry.first_token => {
                u32::from(self.tree.tokens[last as usize].range.end())
            }
            _ => start,
        };
        TextRange::new(TextSize::from(start), TextSize::from(end))
    }

    pub fn children_with_tokens(self) -> impl Iterator<Item = Element<'a>> + Clone {
        let (tree, text) = (self.tree, self.text);
        let entry = self.entry();
        let (mut token, end_token) = (entry.first_token, entry.end_token);
        let (mut node, end_node) = (self.index as u32 + 1, entry.end_node);
        std::iter::from_fn(move || {
            // A child node comes before the token it opens at (an empty one too).
            if node < end_node && tree.nodes[node as usize].first_token <= token {
                let child = tree.nodes[node as usize];
                let index = node as usize;
                token = child.end_token;
                node = child.end_node;
                return Some(Element::Node(Node { tree, text, index }));
            }
            if token < end_token {
                let index = token as usize;
                token += 1;
                return Some(Element::Token(Token { tree, text, index }));
            }
            None
        })
    }

    /// The child nodes.
    pub fn children(self) -> impl Iterator<Item = Node<'a>> + Clone {
        let (tree, text) = (self.tree, self.text);
        let end_node = self.entry().end_node as usize;
        let mut node = self.index + 1;
        std::iter::from_fn(move || {
            let index = node;
            (index < end_node).then(|| {
                node = tree.nodes[index].end_node as usize;
                Node { tree, text, index }
            })
        })
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
        (self.index..self.entry().end_node as usize).map(move |index| Node { tree, text, index })
    }
}

impl<'a> Token<'a> {
    fn token(self) -> LexedToken {
        self.tree.tokens[self.index]
    }

    pub fn kind(self) -> SyntaxKind {
        self.token().kind
    }

    pub fn text(self) -> &'a str {
        let range = self.token().range;
        self.text
            .get(usize::from(range.start())..usize::from(range.end()))
            .unwrap_or_default()
    }

    pub fn text_range(self) -> TextRange {
        self.token().range
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
    use crate::SyntaxElement;

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
            let red_root = direct.syntax();
            let root = compact.tree.root(text).unwrap();
            let walked = |n: Node<'_>| -> Vec<(SyntaxKind, TextRange)> {
                n.descendants()
                    .map(|n| (n.kind(), n.text_range()))
                    .collect()
            };
            let red_walked: Vec<_> = red_root
                .descendants()
                .map(|n| (n.kind(), n.text_range()))
                .collect();
            assert_eq!(walked(root), red_walked, "{text:?}");
            for (node, red_node) in root.descendants().zip(red_root.descendants()) {
                let ours: Vec<_> = node
                    .children_with_tokens()
                    .map(|e| (e.kind(), e.text_range()))
                    .collect();
                let theirs: Vec<_> = red_node
                    .children_with_tokens()
                    .map(|e: SyntaxElement| (e.kind(), e.text_range()))
                    .collect();
                assert_eq!(ours, theirs);
                assert_eq!(
                    node.first_token().map(|t| (t.text_range(), t.text())),
                    red_node
                        .first_token()
                        .map(|t| (t.text_range(), t.text().to_owned()))
                        .as_ref()
                        .map(|(r, t)| (*r, t.as_str()))
                );
            }
        }
    }
}
