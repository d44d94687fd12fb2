//! Semantic highlighting of vault files: header keywords, numbers, tag words and comments,
//! and every map glyph coloured by what it becomes in its vault (after the vault's SUBST,
//! NSUBST, SHUFFLE and K* headers): wall, floor, door, water, lava, tree, feature, monster or
//! item.

use levkit_diagnostics::{TextRange, TextSize};
use levkit_model::dcss::Segment;
use levkit_syntax::SyntaxKind::*;

use super::glyphs::{fate, kind_of, meaning};
use super::{SegmentText, segment_model, segment_parse};
use crate::features::{Highlight, HighlightKind};

/// What each glyph of a vault's map is coloured as.
fn glyph_kinds(vault: &levkit_model::dcss::Vault) -> [Option<HighlightKind>; 128] {
    let mut kinds = [None; 128];
    let mut seen = [false; 128];
    for row in vault.rows() {
        for glyph in row.text.bytes().filter(|&b| b < 128) {
            if std::mem::replace(&mut seen[glyph as usize], true) {
                continue;
            }
            let fate = fate(vault, glyph);
            kinds[glyph as usize] = fate
                .outcomes
                .first()
                .and_then(|&(end, _)| kind_of(&meaning(vault, end)));
        }
    }
    kinds
}

/// A segment's highlights, offsets relative to the segment.
#[salsa::tracked(returns(ref))]
pub(crate) fn segment_highlights<'db>(
    db: &'db dyn salsa::Database,
    segment: SegmentText<'db>,
) -> Vec<Highlight> {
    let kinds = match segment_model(db, segment) {
        Segment::Vault(vault) => glyph_kinds(vault),
        Segment::Global(_) => [None; 128],
    };
    let mut out = Vec::new();
    for token in segment_parse(db, segment)
        .syntax()
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
    {
        let kind = match token.kind() {
            COMMENT => HighlightKind::Comment,
            DCSS_HEADER_KW | MAP_KW | ENDMAP_KW | LUA_CHUNK_KW => HighlightKind::Keyword,
            DCSS_NUMBER | DCSS_PERCENT => HighlightKind::Number,
            DCSS_WORD => HighlightKind::Value,
            MAP_ROW => {
                glyph_runs(token.text(), token.text_range().start(), &kinds, &mut out);
                continue;
            }
            _ => continue,
        };
        out.push(Highlight {
            range: token.text_range(),
            kind,
        });
    }
    out
}

/// The runs of glyphs of the same kind in a map row.
fn glyph_runs(
    row: &str,
    start: TextSize,
    kinds: &[Option<HighlightKind>; 128],
    out: &mut Vec<Highlight>,
) {
    let mut run: Option<(usize, usize, HighlightKind)> = None;
    for (i, b) in row.bytes().enumerate() {
        let kind = if b < 128 { kinds[b as usize] } else { None };
        match (run, kind) {
            (Some((s, _, k)), Some(kind)) if k == kind => run = Some((s, i + 1, k)),
            _ => {
                if let Some((s, e, k)) = run.take() {
                    out.push(highlight(start, s, e, k));
                }
                // A character beyond ASCII is not split.
                run = kind
                    .filter(|_| row.is_char_boundary(i))
                    .map(|k| (i, i + 1, k));
            }
        }
    }
    if let Some((s, e, k)) = run {
        out.push(highlight(start, s, e, k));
    }
}

fn highlight(start: TextSize, s: usize, e: usize, kind: HighlightKind) -> Highlight {
    Highlight {
        range: TextRange::new(
            start + TextSize::from(s as u32),
            start + TextSize::from(e as u32),
        ),
        kind,
    }
}
