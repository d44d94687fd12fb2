//! Dungeon Crawl Stone Soup vault files (`.des`), read as crawl 0.28.0's flex lexer and bison
//! grammar read them: headers with their five argument modes and backslash continuation,
//! `MAP`...`ENDMAP` bodies, `:` Lua lines and `{{ }}` Lua blocks (their text kept as it is).
//!
//! A file is a sequence of independent **segments**: the text before the first vault or after
//! a `default-depth:` line ([`SyntaxKind::DCSS_GLOBAL`]), and vaults, each from its `NAME:` to
//! the next `NAME:`, `default-depth:` or the end ([`SyntaxKind::DCSS_VAULT`]). Nothing in a
//! segment depends on the text of another, so an editor re-parses only the segment it edits:
//! [`segments`] finds them, [`parse_segment`] parses one, [`parse`] glues them into one tree.

mod grammar;
mod lexer;

use std::ops::Range;

use levkit_diagnostics::TextSize;
use rowan::{GreenNode, NodeOrToken};

use crate::parser::{Lexed, Parser, offset};
use crate::{Parse, SyntaxKind};

pub use lexer::is_lua_close;

/// How crawl's lexer cuts a header's argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgMode {
    /// The rest of the line, trimmed, continued by a trailing `\`.
    WholeLine,
    /// TAGS: words of letters, digits, `_` and `-`.
    Words,
    /// Comma-separated items, each at least two characters.
    Items,
    /// MONS: comma-separated items, a one-character item is an error of its own.
    Monsters,
    /// CHANCE, WEIGHT, ORDER: numbers, `%`, commas and `(depths)`.
    Numbers,
}

macro_rules! headers {
    ($( $variant:ident $keyword:literal $mode:ident ; )*) => {
        /// The 33 header keywords of crawl 0.28.0.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Header { $($variant,)* }

        impl Header {
            pub const ALL: &'static [Header] = &[$(Header::$variant,)*];

            /// The keyword as written, without its colon.
            pub fn keyword(self) -> &'static str {
                match self { $(Header::$variant => $keyword,)* }
            }

            pub fn mode(self) -> ArgMode {
                match self { $(Header::$variant => ArgMode::$mode,)* }
            }

            pub fn from_keyword(word: &str) -> Option<Header> {
                match word { $($keyword => Some(Header::$variant),)* _ => None }
            }
        }
    };
}

headers! {
    Name "NAME" WholeLine;
    DefaultDepth "default-depth" WholeLine;
    Desc "DESC" WholeLine;
    Depth "DEPTH" WholeLine;
    Place "PLACE" WholeLine;
    Orient "ORIENT" WholeLine;
    Welcome "WELCOME" WholeLine;
    LFloorCol "LFLOORCOL" WholeLine;
    LRockCol "LROCKCOL" WholeLine;
    LFloorTile "LFLOORTILE" WholeLine;
    LRockTile "LROCKTILE" WholeLine;
    Marker "MARKER" WholeLine;
    Clear "CLEAR" WholeLine;
    KFeat "KFEAT" WholeLine;
    KItem "KITEM" WholeLine;
    KMons "KMONS" WholeLine;
    KMask "KMASK" WholeLine;
    KProp "KPROP" WholeLine;
    Subvault "SUBVAULT" WholeLine;
    Tags "TAGS" Words;
    Subst "SUBST" Items;
    NSubst "NSUBST" Items;
    Shuffle "SHUFFLE" Items;
    Colour "COLOUR" Items;
    FTile "FTILE" Items;
    RTile "RTILE" Items;
    Tile "TILE" Items;
    FHeight "FHEIGHT" Items;
    Item "ITEM" Items;
    Mons "MONS" Monsters;
    Chance "CHANCE" Numbers;
    Weight "WEIGHT" Numbers;
    Order "ORDER" Numbers;
}

/// Which Lua function of the vault a block or line goes into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Chunk {
    Prelude,
    Mapchunk,
    Main,
    Validate,
    Veto,
    Epilogue,
}

impl Chunk {
    /// The chunks in the order crawl runs and prints them.
    pub const ALL: [Chunk; 6] = [
        Chunk::Prelude,
        Chunk::Mapchunk,
        Chunk::Main,
        Chunk::Validate,
        Chunk::Veto,
        Chunk::Epilogue,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Chunk::Prelude => "prelude",
            Chunk::Mapchunk => "mapchunk",
            Chunk::Main => "main",
            Chunk::Validate => "validate",
            Chunk::Veto => "veto",
            Chunk::Epilogue => "epilogue",
        }
    }

    /// The chunk a block opener word selects (`lua` and none select `main`).
    pub fn from_block_word(word: &str) -> Option<Chunk> {
        match word {
            "" | "lua" => Some(Chunk::Main),
            "prelude" => Some(Chunk::Prelude),
            "validate" => Some(Chunk::Validate),
            "veto" => Some(Chunk::Veto),
            "epilogue" => Some(Chunk::Epilogue),
            _ => None,
        }
    }
}

/// One segment of a file: where it lies and whether it is a vault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    pub range: Range<usize>,
    pub kind: SyntaxKind,
}

/// Cuts `text` into segments: a new one starts at every `NAME:` and `default-depth:` that
/// crawl reads as a keyword (at the start of its line's indentation, or mid-line after TAGS,
/// CHANCE, WEIGHT or ORDER). Every byte belongs to exactly one segment.
pub fn segments(text: &str) -> Vec<Segment> {
    Segmentation::new(text).segments(text)
}

/// Where a text's segments start, kept so that the segments of an edited text can be found by
/// scanning only around the edit ([`Segmentation::edited`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segmentation {
    keywords: Vec<lexer::SegmentKeyword>,
}

impl Segmentation {
    pub fn new(text: &str) -> Segmentation {
        Segmentation {
            keywords: lexer::segment_keywords(text, 0, |_| false).0,
        }
    }

    /// The segmentation of `new`, given that `self` is `old`'s: equal to
    /// `Segmentation::new(new)`. The scan starts at the last keyword before the edit that
    /// began a line, and stops at the first line past the edit where the old scan also began
    /// a keyword's line: from there on the scans cannot differ.
    pub fn edited(&self, old: &str, new: &str) -> Segmentation {
        let (prefix, suffix) = common_ends(old.as_bytes(), new.as_bytes());
        let restart = self
            .keywords
            .iter()
            .rev()
            .find(|k| k.line_start && k.start <= prefix)
            .map_or(0, |k| k.start);
        // The unchanged end of the text, where it starts in the old text and in the new.
        let (old_tail, new_tail) = (old.len() - suffix, new.len() - suffix);
        let moved = |k: &lexer::SegmentKeyword| lexer::SegmentKeyword {
            start: k.start - old_tail + new_tail,
            ..*k
        };
        let tail = || {
            self.keywords
                .iter()
                .filter(|k| k.start >= old_tail)
                .map(moved)
        };
        let mut resumable = tail().filter(|k| k.line_start).map(|k| k.start).peekable();
        let (rescanned, stopped) = lexer::segment_keywords(new, restart, |at| {
            while resumable.next_if(|&start| start < at).is_some() {}
            resumable.peek() == Some(&at)
        });
        let mut keywords: Vec<lexer::SegmentKeyword> = self
            .keywords
            .iter()
            .take_while(|k| k.start < restart)
            .copied()
            .collect();
        keywords.extend(rescanned);
        if let Some(stop) = stopped {
            keywords.extend(tail().filter(|k| k.start >= stop));
        }
        Segmentation { keywords }
    }

    /// The segments of `text`, the text this segmentation was made for.
    pub fn segments(&self, text: &str) -> Vec<Segment> {
        let mut starts: Vec<(usize, SyntaxKind)> = vec![(0, SyntaxKind::DCSS_GLOBAL)];
        for keyword in &self.keywords {
            let kind = if keyword.is_name {
                SyntaxKind::DCSS_VAULT
            } else {
                SyntaxKind::DCSS_GLOBAL
            };
            match starts.last_mut() {
                Some(last) if last.0 == keyword.start => last.1 = kind,
                _ => starts.push((keyword.start, kind)),
            }
        }
        let mut out = Vec::with_capacity(starts.len());
        for (i, &(start, kind)) in starts.iter().enumerate() {
            let end = starts.get(i + 1).map_or(text.len(), |s| s.0);
            if start < end || text.is_empty() {
                out.push(Segment {
                    range: start..end,
                    kind,
                });
            }
        }
        out
    }
}

/// The lengths of the longest common prefix and suffix of `a` and `b`, not overlapping.
fn common_ends(a: &[u8], b: &[u8]) -> (usize, usize) {
    const CHUNK: usize = 64;
    let shorter = a.len().min(b.len());
    let mut prefix = 0;
    while prefix + CHUNK <= shorter && a[prefix..prefix + CHUNK] == b[prefix..prefix + CHUNK] {
        prefix += CHUNK;
    }
    while prefix < shorter && a[prefix] == b[prefix] {
        prefix += 1;
    }
    let room = shorter - prefix;
    let mut suffix = 0;
    while suffix + CHUNK <= room
        && a[a.len() - suffix - CHUNK..a.len() - suffix]
            == b[b.len() - suffix - CHUNK..b.len() - suffix]
    {
        suffix += CHUNK;
    }
    while suffix < room && a[a.len() - suffix - 1] == b[b.len() - suffix - 1] {
        suffix += 1;
    }
    (prefix, suffix)
}

/// Parses one segment's text on its own: a `DCSS_VAULT` or `DCSS_GLOBAL` node, with offsets
/// relative to the segment.
pub fn parse_segment(text: &str) -> Parse {
    let lexed: Lexed = lexer::lex(text);
    let mut parser = Parser::new(text, lexed, levkit_diagnostics::Code::DC0002);
    grammar::segment(&mut parser);
    let (green, mut errors) = parser.finish_tree();
    levkit_diagnostics::sort(&mut errors);
    Parse::new(green, errors)
}

/// Parses one segment without building its tree: its tokens and top-level nodes (headers,
/// maps, Lua), and the same errors as [`parse_segment`].
pub fn parse_segment_flat(text: &str) -> crate::parser::FlatParse {
    let lexed: Lexed = lexer::lex(text);
    let mut parser = Parser::flat(text, lexed, levkit_diagnostics::Code::DC0002);
    grammar::segment(&mut parser);
    let mut flat = parser.finish_flat();
    levkit_diagnostics::sort(&mut flat.errors);
    flat
}

/// Parses a whole file: its segments, side by side under one `SOURCE_FILE`.
pub fn parse(text: &str) -> Parse {
    let mut children = Vec::new();
    let mut errors = Vec::new();
    for segment in segments(text) {
        let parsed = parse_segment(&text[segment.range.clone()]);
        let shift = offset(segment.range.start);
        errors.extend(parsed.errors().iter().map(|d| shifted(d, shift)));
        children.push(NodeOrToken::Node(parsed.green().clone()));
    }
    let green = GreenNode::new(SyntaxKind::SOURCE_FILE.into(), children);
    Parse::new(green, errors)
}

/// A diagnostic found in a segment, moved to where the segment lies in its file.
pub fn shifted(
    diagnostic: &levkit_diagnostics::Diagnostic,
    by: TextSize,
) -> levkit_diagnostics::Diagnostic {
    let mut out = diagnostic.clone();
    out.range += by;
    for label in &mut out.labels {
        label.range += by;
    }
    if let Some(fix) = &mut out.fix {
        for edit in &mut fix.edits {
            edit.range += by;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(text: &str) -> Vec<(&str, &str)> {
        segments(text)
            .into_iter()
            .map(|s| {
                let kind = if s.kind == SyntaxKind::DCSS_VAULT {
                    "vault"
                } else {
                    "global"
                };
                (kind, &text[s.range])
            })
            .collect()
    }

    /// The flat parse's nodes are the tree's top-level nodes, over the same tokens: its
    /// grammar moves past runs of tokens in one step where the tree's takes them one by one.
    fn check_flat(text: &str) {
        for segment in segments(text) {
            let piece = &text[segment.range];
            let tree = parse_segment(piece);
            let flat = parse_segment_flat(piece);
            assert_eq!(flat.errors, tree.errors(), "{piece:?}");
            let root = tree.green();
            assert_eq!(flat.root, kind_of(root.kind()), "{piece:?}");
            let mut nodes = Vec::new();
            let mut count = 0;
            for child in root.children() {
                match child {
                    NodeOrToken::Node(node) => {
                        let tokens = tokens_in(node);
                        nodes.push((kind_of(node.kind()), count..count + tokens));
                        count += tokens;
                    }
                    NodeOrToken::Token(_) => count += 1,
                }
            }
            assert_eq!(flat.tokens.len(), count, "{piece:?}");
            assert_eq!(flat.nodes, nodes, "{piece:?}");
        }
    }

    fn kind_of(raw: rowan::SyntaxKind) -> SyntaxKind {
        <crate::LevLanguage as rowan::Language>::kind_from_raw(raw)
    }

    fn tokens_in(node: &rowan::GreenNodeData) -> usize {
        node.children()
            .map(|child| match child {
                NodeOrToken::Node(node) => tokens_in(node),
                NodeOrToken::Token(_) => 1,
            })
            .sum()
    }

    #[test]
    fn the_flat_parse_has_the_nodes_of_the_tree() {
        let mut texts: Vec<String> = [
            "NAME: a\n  DESC: x \\\n  y\nTAGS: a b \\\n c (d e) CHANCE: 5\nKFEAT: x \\ \n\n",
            "NAME: a\nDEPTH: D:1 \\\n\nMAP\n..\nENDMAP\nTAGS: x\n5, 6\n",
            "DESC: before\nNAME: b\nORIENT: float\\",
            "NAME: c\nTAGS:\nTAGS: \\\nWEIGHT: 3\nSUBST: a = b, c\nMONS: x,,y\n",
            "NAME: d\nDESC: x # y \\\r\n:lua\n{{\n}}\nPLACE:\\\n",
        ]
        .map(String::from)
        .to_vec();
        let dir = levkit_test_support::test_data().join("dcss-des");
        for path in levkit_test_support::files_with_extension(&dir, "des") {
            if let Ok(text) = std::fs::read_to_string(&path) {
                texts.push(text);
            }
        }
        assert!(texts.len() > 10, "the test data's vaults were not found");
        for text in &texts {
            check_flat(text);
        }
    }

    #[test]
    fn a_file_is_cut_where_crawl_starts_a_vault_or_a_default_depth() {
        let text = ": x = 1\n  NAME: a\nTAGS: t NAME: b\nMAP\nNAME: in_map\nENDMAP\n\
                    KFEAT: x = \\\nNAME: continued\n{{\nNAME: lua\n}}\ndefault-depth: D:1\nNAME: c";
        assert_eq!(
            cut(text),
            [
                ("global", ": x = 1\n"),
                ("vault", "  NAME: a\nTAGS: t "),
                (
                    "vault",
                    "NAME: b\nMAP\nNAME: in_map\nENDMAP\nKFEAT: x = \\\nNAME: continued\n{{\nNAME: lua\n}}\n"
                ),
                ("global", "default-depth: D:1\n"),
                ("vault", "NAME: c"),
            ]
        );
    }
}
