//! A picture of a level: 21 rows of 80 cells, with what each cell is and which text made it.
//! [`generated`] is the level as the game builds it for a seed (the generator's picture);
//! [`preview`] works from the text alone (map parts placed where the game places them, the
//! regions, and where random things may land), which still answers while the level has errors.

use levkit_diagnostics::TextRange;
use levkit_model::nethack::{
    Area, Coordinate, DetailKind, Fill, LevRegionKind, LevelKind, Light, MapPart, Rect, Terrain,
    map_origin, terrain_of,
};

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

#[derive(Debug, Clone, PartialEq)]
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
    /// The level's rectangles (REGION, NON_DIGGABLE, stair and teleport areas...), level-absolute.
    pub regions: Vec<PreviewRegion>,
    /// Where things are placed: the expected number of monsters, objects, traps, gold and
    /// engravings on each cell, spreading a random placement evenly over where it may land.
    pub heat: Vec<PreviewHeat>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreviewRegion {
    pub x1: usize,
    pub y1: usize,
    pub x2: usize,
    pub y2: usize,
    pub what: String,
    /// The statement that made it.
    pub source: TextRange,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PreviewHeat {
    pub x: usize,
    pub y: usize,
    pub expected: f64,
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
    let mut regions = Vec::new();
    let mut heat = vec![vec![0.0f64; COLUMNS]; ROWS];
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
                overlays(part, (x0, y0), &mut regions, &mut heat);
            }
        }
    }
    let heat = heat
        .iter()
        .enumerate()
        .flat_map(|(y, row)| {
            row.iter()
                .enumerate()
                .filter(|(_, expected)| **expected > 0.0)
                .map(move |(x, &expected)| PreviewHeat { x, y, expected })
        })
        .collect();
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
        regions,
        heat,
    })
}

/// The regions and placements of one map part, at its place on the level.
fn overlays(
    part: &MapPart,
    (x0, y0): (i64, i64),
    regions: &mut Vec<PreviewRegion>,
    heat: &mut [Vec<f64>],
) {
    let Some(map) = &part.map else { return };
    let absolute = |rect: Rect, whole_level: bool| {
        let (dx, dy) = if whole_level { (0, 0) } else { (x0, y0) };
        let clamp = |v: i64, max: usize| v.clamp(0, max as i64 - 1) as usize;
        (
            clamp(rect.x1.min(rect.x2) + dx, COLUMNS),
            clamp(rect.y1.min(rect.y2) + dy, ROWS),
            clamp(rect.x1.max(rect.x2) + dx, COLUMNS),
            clamp(rect.y1.max(rect.y2) + dy, ROWS),
        )
    };
    let mut push_region = |rect: Rect, whole_level: bool, what: String, source: TextRange| {
        let (x1, y1, x2, y2) = absolute(rect, whole_level);
        regions.push(PreviewRegion {
            x1,
            y1,
            x2,
            y2,
            what,
            source,
        });
    };
    // Random placements land on open ground of the map part (the game retries until they do).
    let open: Vec<(i64, i64)> = (0..map.height() as i64)
        .flat_map(|y| (0..map.width() as i64).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            let c = map.rows[y as usize]
                .cells
                .get(x as usize)
                .copied()
                .unwrap_or(' ');
            terrain_of(c).is_some_and(|t| {
                matches!(
                    t,
                    Terrain::Room
                        | Terrain::Corridor
                        | Terrain::Ice
                        | Terrain::Air
                        | Terrain::Cloud
                )
            })
        })
        .collect();
    let places = part.registers.places.first().map(|l| &l.items);
    let mut add = |at: &Coordinate, weight: f64| {
        let spots: Vec<(i64, i64)> = match *at {
            Coordinate::At { x, y } => vec![(x, y)],
            Coordinate::Place(_) => places
                .map(|p| p.iter().map(|s| s.value).collect())
                .unwrap_or_default(),
            Coordinate::Random => open.clone(),
        };
        let share = weight / spots.len().max(1) as f64;
        for (x, y) in spots {
            let (ax, ay) = (x0 + x, y0 + y);
            if (0..COLUMNS as i64).contains(&ax) && (0..ROWS as i64).contains(&ay) {
                heat[ay as usize][ax as usize] += share;
            }
        }
    };
    let chance = |c: Option<&levkit_model::Spanned<i64>>| {
        c.map_or(1.0, |c| c.value.clamp(0, 100) as f64 / 100.0)
    };
    for detail in &part.details {
        match &detail.kind {
            DetailKind::Monster(m) => add(&m.at.value, chance(m.chance.as_ref())),
            DetailKind::Object(o) => {
                if let Some(at) = &o.at {
                    add(&at.value, chance(o.chance.as_ref()));
                }
            }
            DetailKind::Trap(t) => add(&t.at.value, chance(t.chance.as_ref())),
            DetailKind::Gold { at, .. } | DetailKind::Engraving { at, .. } => add(&at.value, 1.0),
            DetailKind::Region(r) => {
                let light = match r.lit.value {
                    Light::Lit => "lit",
                    Light::Unlit => "unlit",
                    Light::Random => "randomly lit",
                };
                let kind = r.room_type.as_ref().map_or("random", |t| t.value.as_str());
                push_region(
                    r.rect.value,
                    false,
                    format!("{light} region ({kind})"),
                    detail.range,
                );
            }
            DetailKind::NonDiggable(rect) => push_region(
                rect.value,
                false,
                "walls that cannot be dug".into(),
                detail.range,
            ),
            DetailKind::NonPasswall(rect) => push_region(
                rect.value,
                false,
                "walls that cannot be phased through".into(),
                detail.range,
            ),
            DetailKind::LevRegion(r) => {
                let what = match &r.kind {
                    LevRegionKind::Stair { up: true } => "where the up stairs may go".to_string(),
                    LevRegionKind::Stair { up: false } => {
                        "where the down stairs may go".to_string()
                    }
                    LevRegionKind::Portal { destination } => {
                        format!("where the portal to {} may go", destination.value)
                    }
                    LevRegionKind::Teleport { up: Some(true) } => {
                        "where arrivals from below land".to_string()
                    }
                    LevRegionKind::Teleport { up: Some(false) } => {
                        "where arrivals from above land".to_string()
                    }
                    LevRegionKind::Teleport { up: None } => "where arrivals land".to_string(),
                    LevRegionKind::Branch => "where the branch stairs may go".to_string(),
                };
                let Area { rect, whole_level } = r.area.value;
                push_region(rect, whole_level, what, detail.range);
            }
            _ => {}
        }
    }
}

/// The level as the game builds it for a seed: the generator's picture, with each square's
/// source range.
#[derive(Debug, Clone, PartialEq)]
pub struct Generated {
    pub rows: Vec<String>,
    pub cells: Vec<GeneratedCell>,
    pub legend: Vec<(char, String)>,
    /// What the loader does not reproduce yet.
    pub notes: Vec<String>,
    pub depth: i32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedCell {
    pub x: usize,
    pub y: usize,
    pub glyph: char,
    pub what: String,
    pub source: TextRange,
}

/// The generated picture of `level` (by name, else the first), or `None` when the level has
/// errors (nothing can be compiled) or the file holds no NetHack level.
pub fn generated(
    db: &dyn salsa::Database,
    file: SourceFile,
    level: Option<&str>,
    seed: u32,
    workspace: Option<crate::Workspace>,
) -> Option<Generated> {
    use levkit_diagnostics::Severity;
    let model = nethack_model(db, file).as_ref()?;
    let chosen = level
        .and_then(|name| {
            model
                .levels
                .iter()
                .find(|l| l.name.as_ref().is_some_and(|n| n.value == name))
        })
        .or_else(|| model.levels.first())?;
    let diagnostics = crate::diagnostics(db, file);
    if diagnostics
        .iter()
        .any(|d| d.severity == Severity::Error && chosen.range.contains_range(d.range))
    {
        return None;
    }
    let name = chosen.name.as_ref().map_or("level", |n| n.value.as_str());
    let (bytes, origins) = levkit_compile::nethack::compile_level_with_origins(chosen);
    let sp = levkit_generate::special::decode(&bytes).ok()?;
    // The game's own dungeon for its levels, else a dungeon.def beside the file, else a
    // level 10 deep (as `levkit preview` does).
    let beside = |other: &SourceFile| other.path(db).parent() == file.path(db).parent();
    let place = levkit_generate::place::stock_place(name)
        .or_else(|| {
            workspace?
                .files(db)
                .iter()
                .filter(|f| beside(f))
                .find_map(|f| {
                    let tables = crate::dungeon_model(db, *f).as_ref()?.tables();
                    levkit_generate::place::place_in(&tables, name)
                })
        })
        .unwrap_or_else(|| levkit_generate::level::Place::doom(10));
    let loaded = levkit_generate::special::load_special(
        &sp,
        name,
        &mut levkit_generate::rng::Rng::new(seed),
        &place,
    );
    let source = |origin: u32| {
        let at = origins.binary_search_by_key(&origin, |(o, _)| *o).ok()?;
        let range = origins[at].1;
        Some(levkit_render::Source {
            start: range.start().into(),
            end: range.end().into(),
            line: 0,
            column: 0,
        })
    };
    let picture = levkit_render::Picture::new(&loaded.level, &source);
    let mut cells = Vec::new();
    for (y, row) in picture.squares.iter().enumerate() {
        for (x, square) in row.iter().enumerate() {
            let (glyph, _) = square.shown();
            // The thing drawn, else the terrain, with the statement that made it.
            let shown = square
                .things
                .iter()
                .find(|t| t.source.is_some())
                .map(|t| (t.text.clone(), t.source))
                .or_else(|| square.source.map(|s| (square.terrain.to_string(), Some(s))));
            if let Some((what, Some(s))) = shown {
                cells.push(GeneratedCell {
                    x,
                    y,
                    glyph,
                    what,
                    source: TextRange::new(s.start.into(), s.end.into()),
                });
            }
        }
    }
    Some(Generated {
        rows: picture
            .squares
            .iter()
            .map(|row| row.iter().map(|s| s.shown().0).collect())
            .collect(),
        cells,
        legend: picture
            .legend()
            .into_iter()
            .map(|(g, _, m)| (g, m))
            .collect(),
        notes: loaded
            .unsupported
            .iter()
            .map(|u| format!("not reproduced yet: {u}; the picture differs from the game's there"))
            .collect(),
        depth: place.depth,
    })
}
