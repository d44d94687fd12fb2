//! Helpers over syntax trees that know no dialect: the token under the cursor, selection
//! ranges, comment folds. Dialect modules call them; nothing here is a default answer.

use std::path::Path;

use levkit_diagnostics::{TextRange, TextSize};
use levkit_syntax::SyntaxKind::*;
use levkit_syntax::{SyntaxNode, SyntaxToken};

use crate::features::{Fold, FoldKind};

/// How a file is named in messages.
pub(crate) fn display_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || "this file".into(),
        |n| format!("`{}`", n.to_string_lossy()),
    )
}

/// The range of the first line, where whole-file diagnostics go.
pub(crate) fn first_line_range(text: &str) -> TextRange {
    let end = text.find(['\n', '\r']).unwrap_or(text.len());
    TextRange::up_to(TextSize::from(end as u32))
}

/// The token the cursor is on: the one to its right unless that is trivia.
pub(crate) fn token_at(root: &SyntaxNode, offset: TextSize) -> Option<SyntaxToken> {
    let at = root.token_at_offset(offset);
    at.clone()
        .right_biased()
        .filter(|t| !t.kind().is_trivia())
        .or_else(|| at.left_biased())
}

pub(crate) fn unquote(text: &str) -> String {
    text.trim_matches('"').to_string()
}

/// A node's range without the trivia at its end.
pub(crate) fn trimmed(node: &SyntaxNode) -> TextRange {
    let end = node
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| !t.kind().is_trivia())
        .last()
        .map_or(node.text_range().end(), |t| t.text_range().end());
    TextRange::new(
        node.text_range().start(),
        end.max(node.text_range().start()),
    )
}

/// The nested ranges around an offset, innermost first (token, argument, statement, block...).
pub(crate) fn selection_ranges(root: &SyntaxNode, offset: TextSize) -> Vec<TextRange> {
    let Some(token) = root.token_at_offset(offset).right_biased() else {
        return Vec::new();
    };
    let mut out = vec![token.text_range()];
    for node in token.parent_ancestors() {
        let range = trimmed(&node);
        if out
            .last()
            .is_none_or(|last| *last != range && range.contains_range(*last))
        {
            out.push(range);
        }
    }
    out
}

/// Region folds for the nodes of `kinds`, and comment folds for runs of two or more comment
/// lines, sorted by start.
pub(crate) fn folds(
    root: &SyntaxNode,
    is_region: impl Fn(levkit_syntax::SyntaxKind) -> bool,
) -> Vec<Fold> {
    let mut out: Vec<Fold> = root
        .descendants()
        .filter(|n| is_region(n.kind()))
        .map(|n| Fold {
            range: trimmed(&n),
            kind: FoldKind::Region,
        })
        .collect();
    let mut run: Option<(TextRange, usize)> = None;
    let close = |run: Option<(TextRange, usize)>, out: &mut Vec<Fold>| {
        if let Some((range, _)) = run.filter(|&(_, n)| n > 1) {
            out.push(Fold {
                range,
                kind: FoldKind::Comment,
            });
        }
    };
    for token in root
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
    {
        match token.kind() {
            COMMENT => {
                run = Some(match run {
                    Some((range, n)) => (range.cover(token.text_range()), n + 1),
                    None => (token.text_range(), 1),
                })
            }
            WHITESPACE | NEWLINE => {}
            _ => close(run.take(), &mut out),
        }
    }
    close(run, &mut out);
    out.sort_by_key(|f| f.range.start());
    out
}
