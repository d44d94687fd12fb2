//! The header order crawl's reviewers ask for (NAME, TAGS, DEPTH/PLACE, ORIENT, MONS/KMONS,
//! ITEM/KITEM, KFEAT, TILE/FTILE), an opt-in style warning (`-W`), with a fix that reorders
//! the headers when moving them cannot change what the vault does.
//!
//! The fix moves only the headers the order names (each with the comment lines right above
//! it), among the places they hold; every other line stays. It is offered when each moved
//! header is alone on its lines, no Lua or map lies among the moved lines (Lua may read what
//! the headers set), and no TILE/FTILE crosses a SUBST, NSUBST, SHUFFLE or CLEAR (a tile binds
//! to the cells holding its glyph when its line runs).

use levkit_diagnostics::{Code, Diagnostic, TextRange, TextSize};
use levkit_model::dcss::Vault;
use levkit_syntax::dcss::Header;

/// The reviewers' rank of a header, if the order names it.
fn rank(header: Header) -> Option<u8> {
    Some(match header {
        Header::Name => 0,
        Header::Tags => 1,
        Header::Depth | Header::Place => 2,
        Header::Orient => 3,
        Header::Mons | Header::KMons => 4,
        Header::Item | Header::KItem => 5,
        Header::KFeat => 6,
        Header::Tile | Header::FTile => 7,
        _ => return None,
    })
}

const ORDER: &str = "NAME, TAGS, DEPTH/PLACE, ORIENT, MONS/KMONS, ITEM/KITEM, KFEAT, TILE/FTILE";

/// A header the order names, with the lines it would move with.
struct Unit {
    header: Header,
    rank: u8,
    keyword: TextRange,
    /// The header's own range.
    range: TextRange,
}

/// `text` is the vault's segment (the model's ranges are relative to it); headers inside Lua
/// blocks (`conditional`, asked only when some header is out of order) stand where the Lua
/// needs them and are left out.
pub(super) fn check<'a>(
    vault: &Vault,
    text: &str,
    conditional: impl FnOnce() -> &'a [TextRange],
    out: &mut Vec<Diagnostic>,
) {
    // Leaving headers out keeps the others in order: headers all in order need no look at
    // which stand in Lua blocks.
    if vault
        .headers
        .iter()
        .filter_map(|h| rank(h.header))
        .is_sorted()
    {
        return;
    }
    let conditional = conditional();
    let units: Vec<Unit> = vault
        .headers
        .iter()
        .filter(|h| !conditional.iter().any(|r| r.contains_range(h.range)))
        .filter_map(|h| {
            Some(Unit {
                header: h.header,
                rank: rank(h.header)?,
                keyword: h.keyword,
                range: h.range,
            })
        })
        .collect();
    // The first header that comes after one it should precede.
    let mut latest: Option<&Unit> = None;
    let mut misplaced = None;
    for unit in &units {
        match latest {
            Some(before) if unit.rank < before.rank => {
                misplaced = Some((unit, before));
                break;
            }
            Some(before) if unit.rank == before.rank => {}
            _ => latest = Some(unit),
        }
    }
    let Some((unit, before)) = misplaced else {
        return;
    };
    let diagnostic = Diagnostic::new(
        Code::DC0417,
        unit.keyword,
        format!(
            "{} comes after {}: crawl's reviewers ask for the headers in the order {ORDER}",
            unit.header.keyword(),
            before.header.keyword()
        ),
    )
    .with_label(
        before.keyword,
        format!("{} is here", before.header.keyword()),
    );
    out.push(match reordered(vault, text, &units) {
        Some((range, new_text)) => {
            diagnostic.with_replacement("Put the headers in the reviewers' order", range, new_text)
        }
        None => diagnostic,
    });
}

/// The lines of a header (from the start of its first line to the end of its last, line end
/// included), with the comment lines right above it, when nothing else shares them.
fn whole_lines(text: &str, range: TextRange) -> Option<std::ops::Range<usize>> {
    let (start, end) = (usize::from(range.start()), usize::from(range.end()));
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    if !text[line_start..start]
        .trim_start_matches([' ', '\t'])
        .is_empty()
    {
        return None;
    }
    let line_end = text[end..].find('\n').map(|i| end + i + 1)?;
    if !text[end..line_end].trim().is_empty() {
        return None;
    }
    let mut first = line_start;
    while first > 0 {
        let previous = text[..first - 1].rfind('\n').map_or(0, |i| i + 1);
        if !text[previous..first].trim_start().starts_with('#') {
            break;
        }
        first = previous;
    }
    Some(first..line_end)
}

/// The text that puts the named headers in order, and the range it replaces; `None` when
/// moving them could change the vault.
fn reordered(vault: &Vault, text: &str, units: &[Unit]) -> Option<(TextRange, String)> {
    let mut sorted: Vec<&Unit> = units.iter().collect();
    sorted.sort_by_key(|u| u.rank);
    let first = units
        .iter()
        .zip(&sorted)
        .position(|(a, b)| a.keyword != b.keyword)?;
    let last = units
        .iter()
        .zip(&sorted)
        .rposition(|(a, b)| a.keyword != b.keyword)?;
    // Each header's whole lines, comment lines above included (none when it shares a line).
    let lines = |unit: &Unit| whole_lines(text, unit.range);
    let slots: Vec<std::ops::Range<usize>> = units[first..=last]
        .iter()
        .map(lines)
        .collect::<Option<_>>()?;
    let region = slots[0].start..slots[slots.len() - 1].end;
    let inside = |range: TextRange| {
        usize::from(range.start()) < region.end && usize::from(range.end()) > region.start
    };
    if vault.lua.iter().any(|l| inside(l.range)) || vault.maps.iter().any(|m| inside(m.range)) {
        return None;
    }
    // A tile must keep its place among the transforms.
    let transforms: Vec<usize> = vault
        .headers
        .iter()
        .filter(|h| {
            matches!(
                h.header,
                Header::Subst | Header::NSubst | Header::Shuffle | Header::Clear
            )
        })
        .map(|h| usize::from(h.range.start()))
        .collect();
    for (slot, unit) in slots.iter().zip(&sorted[first..=last]) {
        if !matches!(unit.header, Header::Tile | Header::FTile) {
            continue;
        }
        let from = usize::from(unit.keyword.start());
        let (low, high) = (from.min(slot.start), from.max(slot.start));
        if transforms.iter().any(|&t| low < t && t < high) {
            return None;
        }
    }
    let mut new_text = String::with_capacity(region.len());
    let mut at = region.start;
    for (slot, unit) in slots.iter().zip(&sorted[first..=last]) {
        new_text.push_str(&text[at..slot.start]);
        new_text.push_str(&text[lines(unit)?]);
        at = slot.end;
    }
    let range = TextRange::new(
        TextSize::from(region.start as u32),
        TextSize::from(region.end as u32),
    );
    Some((range, new_text))
}
