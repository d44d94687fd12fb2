//! A picture of a level: 21 rows of 80 cells, with what each cell is and which text made it.
//! Until the level generator lands, MAZE levels show their fill and their map parts placed
//! exactly where the game places them; what the game draws at random is left out.

use levkit_diagnostics::TextRange;
use levkit_model::nethack::{Fill, LevelKind, map_origin, terrain_of};

use crate::{SourceFile, nethack_model};

pub const COLUMNS: usize = 80;
pub const ROWS: usize = 21;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreviewCell {
    pub x: usize,
    pub y: usize,
    pub glyph: char,
    pub what: &'static str,
    /// The map character that produced the cell.
    pub source: TextRange,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preview {
    /// The level shown.
    pub level: String,
    /// Every level of the file, for a level picker.
    pub levels: Vec<String>,
    pub rows: Vec<String>,
    /// The cells that come from the text (map parts), row by row.
    pub cells: Vec<PreviewCell>,
    /// Each glyph on screen and what it is.
    pub legend: Vec<(char, &'static str)>,
    /// What the picture leaves out, in plain words.
    pub notes: Vec<String>,
}

/// The preview of `level` (by name; the first level when `None` or unknown).
pub fn preview(db: &dyn salsa::Database, file: SourceFile, level: Option<&str>) -> Option<Preview> {
    let model = nethack_model(db, file).as_ref()?;
    let levels: Vec<String> = model
        .levels
        .iter()
        .map(|l| {
            l.name
                .as_ref()
                .map_or_else(String::new, |n| n.value.clone())
        })
        .collect();
    let chosen = level
        .and_then(|name| {
            model
                .levels
                .iter()
                .find(|l| l.name.as_ref().is_some_and(|n| n.value == name))
        })
        .or_else(|| model.levels.first())?;
    let mut grid = vec![vec![' '; COLUMNS]; ROWS];
    let mut cells = Vec::new();
    let mut notes = Vec::new();
    match chosen.kind {
        LevelKind::Rooms => notes.push(
            "rooms and corridors are placed at random when the level is made; the level generator will draw them".into(),
        ),
        LevelKind::Maze => {
            if let Some(init) = &chosen.init_map {
                let bg = init.background.value;
                for row in grid.iter_mut() {
                    for cell in row.iter_mut().skip(1) {
                        *cell = bg;
                    }
                }
                notes.push(format!(
                    "INIT_MAP grows a random cave of '{}' on '{}' here; shown as background only",
                    init.foreground.value, bg
                ));
            } else {
                match chosen.fill.map(|f| f.value) {
                    Some(Fill::Char(c)) if terrain_of(c).is_some() => {
                        for row in grid.iter_mut() {
                            for cell in &mut row[2..COLUMNS - 1] {
                                *cell = c;
                            }
                        }
                    }
                    _ => {
                        // The maze lattice, before MAZEWALK carves its corridors.
                        for (y, row) in grid.iter_mut().enumerate() {
                            for (x, cell) in row.iter_mut().enumerate().take(COLUMNS - 1).skip(2) {
                                *cell = if y < 2 || (x % 2 == 1 && y % 2 == 1) { ' ' } else { '-' };
                            }
                        }
                        notes.push("a random fill is a maze: its corridors are carved at random".into());
                    }
                }
            }
            for part in &chosen.parts {
                let (Some(map), Some(geometry)) = (&part.map, part.geometry) else { continue };
                let (h, v) = geometry.value;
                let Some((x0, y0)) = map_origin(h, v, map.width() as i64, map.height() as i64) else {
                    notes.push("a map part does not fit on the level (the game panics)".into());
                    continue;
                };
                for (y, row) in map.rows.iter().enumerate() {
                    for x in 0..map.width() {
                        let (ax, ay) = (x0 + x as i64, y0 + y as i64);
                        if !(0..COLUMNS as i64).contains(&ax) || !(0..ROWS as i64).contains(&ay) {
                            continue;
                        }
                        let c = row.cells.get(x).copied().unwrap_or(' ');
                        grid[ay as usize][ax as usize] = c;
                        if let (Some(range), Some(terrain)) = (map.cell_range(x as i64, y as i64), terrain_of(c)) {
                            cells.push(PreviewCell {
                                x: ax as usize,
                                y: ay as usize,
                                glyph: c,
                                what: terrain.description(),
                                source: range,
                            });
                        }
                    }
                }
            }
        }
    }
    let mut legend: Vec<(char, &'static str)> = Vec::new();
    for &c in grid.iter().flatten() {
        if let Some(t) = terrain_of(c)
            && c != ' '
            && !legend.iter().any(|(g, _)| *g == c)
        {
            legend.push((c, t.description()));
        }
    }
    legend.sort();
    Some(Preview {
        level: chosen
            .name
            .as_ref()
            .map_or_else(String::new, |n| n.value.clone()),
        levels,
        rows: grid.into_iter().map(|r| r.into_iter().collect()).collect(),
        cells,
        legend,
        notes,
    })
}
