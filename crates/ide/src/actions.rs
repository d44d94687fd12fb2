//! Quick fixes (the fixes attached to diagnostics) and inlay hints.

use levkit_diagnostics::{Diagnostic, TextEdit, TextRange, TextSize};
use levkit_model::nethack::{Coordinate, DetailKind};

use crate::{SourceFile, diagnostics, nethack_model};

/// A code action: a titled set of edits, and the diagnostic it fixes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Action {
    pub title: String,
    pub edits: Vec<TextEdit>,
    pub diagnostic: Diagnostic,
}

/// The fixes of the diagnostics that touch `range`.
pub fn code_actions(db: &dyn salsa::Database, file: SourceFile, range: TextRange) -> Vec<Action> {
    diagnostics(db, file)
        .iter()
        .filter(|d| d.range.intersect(range).is_some() || d.range.contains_range(range))
        .filter_map(|d| {
            let fix = d.fix.as_ref()?;
            Some(Action {
                title: fix.title.clone(),
                edits: fix.edits.clone(),
                diagnostic: d.clone(),
            })
        })
        .collect()
}

/// A label shown after a piece of text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InlayHint {
    pub offset: TextSize,
    pub label: String,
    pub tooltip: String,
}

/// The map glyph under every literal coordinate of a map part: `(3,4)` shows `'.'`.
pub fn inlay_hints(db: &dyn salsa::Database, file: SourceFile) -> Vec<InlayHint> {
    let Some(model) = nethack_model(db, file) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for part in model.levels.iter().flat_map(|l| &l.parts) {
        let Some(map) = &part.map else { continue };
        let mut hint = |at: &levkit_model::Spanned<Coordinate>| {
            if let Coordinate::At { x, y } = at.value
                && let (Some(c), Some(t)) = (map.char_at(x, y), map.terrain_at(x, y))
            {
                out.push(InlayHint {
                    offset: at.range.end(),
                    label: format!(
                        ": {}",
                        if c == ' ' {
                            "rock".to_string()
                        } else {
                            format!("'{c}'")
                        }
                    ),
                    tooltip: format!("the map has {} at ({x},{y})", t.description()),
                });
            }
        };
        for detail in &part.details {
            match &detail.kind {
                DetailKind::Monster(m) => hint(&m.at),
                DetailKind::Object(o) => {
                    if let Some(at) = &o.at {
                        hint(at)
                    }
                }
                DetailKind::Trap(t) => hint(&t.at),
                DetailKind::Door { at, .. }
                | DetailKind::Drawbridge { at, .. }
                | DetailKind::Mazewalk { at, .. }
                | DetailKind::Ladder { at, .. }
                | DetailKind::Stair { at, .. }
                | DetailKind::Altar { at, .. }
                | DetailKind::Fountain(at)
                | DetailKind::Sink(at)
                | DetailKind::Pool(at)
                | DetailKind::Gold { at, .. }
                | DetailKind::Engraving { at, .. } => hint(at),
                _ => {}
            }
        }
    }
    out
}
