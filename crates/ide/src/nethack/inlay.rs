//! Inlay hints: the map glyph under every literal coordinate.

use levkit_model::nethack::{Coordinate, DetailKind};

use crate::db::SourceFile;
use crate::features::InlayHint;
use crate::nethack::nethack_model;

/// The map glyph under every literal coordinate of a map part: `(3,4)` shows `'.'`.
pub(crate) fn inlay_hints(db: &dyn salsa::Database, file: SourceFile) -> Vec<InlayHint> {
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
