//! Where the cursor is in a DCSS file: its segment, the vault, the header and argument under
//! it, or the map cell. Offsets inside a segment are relative to its start.

use levkit_diagnostics::{TextRange, TextSize};
use levkit_model::dcss::{HeaderLine, MapRow, Vault};

use super::{Placed, segments};
use crate::db::SourceFile;

/// The segment holding `offset` (the last one starting at or before it), and the offset in it.
pub(crate) fn segment_at(
    db: &dyn salsa::Database,
    file: SourceFile,
    offset: TextSize,
) -> Option<(Placed<'_>, TextSize)> {
    let placed = segments(db, file)
        .into_iter()
        .take_while(|p| p.start <= offset)
        .last()?;
    Some((placed, offset - placed.start))
}

/// What the cursor is on inside a vault.
pub(crate) enum Spot<'a> {
    /// A header's keyword.
    Keyword(&'a HeaderLine),
    /// An argument of a header.
    Argument(&'a HeaderLine),
    /// A map cell: its row and column.
    Cell(&'a MapRow, usize),
    Elsewhere,
}

/// The spot at `offset` (relative to the vault's segment).
pub(crate) fn spot(vault: &Vault, offset: TextSize) -> Spot<'_> {
    let touches = |range: TextRange| range.contains(offset) || range.end() == offset;
    for header in &vault.headers {
        if touches(header.keyword) {
            return Spot::Keyword(header);
        }
        if !touches(header.range) {
            continue;
        }
        let on_number = header.numbers.iter().any(|n| touches(n.range));
        if on_number || header.args.iter().any(|a| touches(a.range)) {
            return Spot::Argument(header);
        }
    }
    for row in vault.rows() {
        if row.range.contains(offset) {
            return Spot::Cell(row, usize::from(offset - row.range.start()));
        }
    }
    Spot::Elsewhere
}

/// The piece of `text` around `at` between separators: its byte range, trimmed.
pub(crate) fn piece_around(text: &str, at: usize, separators: &[char]) -> std::ops::Range<usize> {
    let at = at.min(text.len());
    let start = text[..at]
        .rfind(|c: char| separators.contains(&c))
        .map_or(0, |i| i + 1);
    let end = text[at..]
        .find(|c: char| separators.contains(&c))
        .map_or(text.len(), |i| at + i);
    let piece = &text[start..end];
    let lead = piece.len() - piece.trim_start().len();
    let s = start + lead;
    s..s + piece.trim().len()
}
