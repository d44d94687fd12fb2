//! A NetHack level's preview: the level as the game's loader builds it for a seed (compile,
//! decode, load, picture), each square linked to the statement that made it. While the level
//! has errors, a sketch from the text alone stands in (map parts placed where the game places
//! them). The regions and the heat of expected placements come from the text in both cases.

use levkit_diagnostics::{Diagnostic, Severity, TextRange};
use levkit_generate::level::{COLNO, Event, Place, ROWNO};
use levkit_generate::rng::Rng;
use levkit_generate::special::{self, SpecialLevel};
use levkit_model::nethack::{
    Area, Coordinate, DesFile, DetailKind, Fill, LevRegionKind, Level, LevelKind, Light, MapPart,
    Rect, Terrain, map_origin, terrain_of,
};

use crate::db::{SourceFile, Workspace, file_diagnostics, line_index};
use crate::dungeon::dungeon_model;
use crate::nethack::nethack_model;
use crate::preview::{
    Cell, Heat, Heatmap, LegendEntry, LevelPreview, Preview, PreviewRequest, Region, Spans, Thing,
};

const COLUMNS: usize = 80;
const ROWS: usize = 21;

/// What the text alone says of a level: its map parts where the game puts them, its regions,
/// and where things may land.
struct Sketch {
    rows: Vec<String>,
    /// The cells drawn from a MAP, each with the map character that made it.
    cells: Vec<SketchCell>,
    legend: Vec<(char, &'static str)>,
    notes: Vec<String>,
    /// The level's rectangles (REGION, NON_DIGGABLE, stair and teleport areas...), absolute.
    regions: Vec<SketchRegion>,
    /// The expected number of monsters, objects, traps, gold and engravings on each cell,
    /// spreading a random placement evenly over where it may land.
    heat: Vec<Heat>,
}

struct SketchCell {
    x: usize,
    y: usize,
    glyph: char,
    what: &'static str,
    source: TextRange,
}

struct SketchRegion {
    x1: usize,
    y1: usize,
    x2: usize,
    y2: usize,
    what: String,
    source: TextRange,
}

/// The level of the file by name, else the first.
fn chosen<'a>(model: &'a DesFile, name: Option<&str>) -> Option<&'a Level> {
    name.and_then(|name| {
        model
            .levels
            .iter()
            .find(|l| l.name.as_ref().is_some_and(|n| n.value == name))
    })
    .or_else(|| model.levels.first())
}

fn level_name(level: &Level) -> &str {
    level.name.as_ref().map_or("level", |n| n.value.as_str())
}

/// The first error that keeps `level` from being built: one inside it, or one outside every
/// level (lev_comp then writes nothing of the file).
fn blocking_error<'a>(
    diagnostics: &'a [Diagnostic],
    model: &DesFile,
    level: &Level,
) -> Option<&'a Diagnostic> {
    diagnostics.iter().find(|d| {
        d.severity == Severity::Error
            && (level.range.contains_range(d.range)
                || !model.levels.iter().any(|l| l.range.contains_range(d.range)))
    })
}

/// The level's place in the dungeon: the game's own for its levels, else a dungeon.def beside
/// the file in the workspace, else 10 levels deep in the Dungeons of Doom; `depth` overrides.
fn place_of(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    name: &str,
    depth: Option<i32>,
) -> Place {
    let beside = |other: &SourceFile| other.path(db).parent() == file.path(db).parent();
    let place = levkit_generate::place::stock_place(name)
        .or_else(|| {
            workspace
                .files(db)
                .iter()
                .filter(|f| beside(f))
                .find_map(|f| {
                    let tables = dungeon_model(db, *f).as_ref()?.tables();
                    levkit_generate::place::place_in(&tables, name)
                })
        })
        .unwrap_or_else(|| Place::doom(10));
    match depth {
        Some(depth) => place.at_depth(depth),
        None => place,
    }
}

/// The compiled level decoded as the game reads it, with each record's source range.
fn compiled(level: &Level) -> Option<(SpecialLevel, Vec<(u32, TextRange)>)> {
    let (bytes, origins) = levkit_compile::nethack::compile_level_with_origins(level);
    Some((special::decode(&bytes).ok()?, origins))
}

fn unsupported_note(what: &str) -> String {
    format!("not reproduced yet: {what}; the picture differs from the game's there")
}

pub(crate) fn preview(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    request: &PreviewRequest,
) -> Preview {
    let Some(model) = nethack_model(db, file) else {
        return Preview::nothing("this file has no level to preview".into());
    };
    let Some(level) = chosen(model, request.level.as_deref()) else {
        return Preview::nothing("this file has no level to preview".into());
    };
    let spans = Spans {
        text: file.text(db),
        index: line_index(db, file),
        encoding: request.encoding,
    };
    let sketch = sketch(level);
    let name = level_name(level);
    let mut out = LevelPreview {
        level: level
            .name
            .as_ref()
            .map_or_else(String::new, |n| n.value.clone()),
        levels: model
            .levels
            .iter()
            .map(|l| {
                l.name
                    .as_ref()
                    .map_or_else(String::new, |n| n.value.clone())
            })
            .collect(),
        seed: request.seed,
        generated: false,
        depth: None,
        dungeon: None,
        dlevel: None,
        rows: Vec::new(),
        cells: Vec::new(),
        legend: Vec::new(),
        notes: Vec::new(),
        regions: sketch
            .regions
            .iter()
            .map(|r| Region {
                x1: r.x1,
                y1: r.y1,
                x2: r.x2,
                y2: r.y2,
                what: r.what.clone(),
                range: spans.range(r.source),
                source: spans.source(r.source),
            })
            .collect(),
        heat: sketch.heat.clone(),
        error: None,
        picture: None,
        terrain: None,
    };
    let diagnostics = file_diagnostics(db, file);
    // `Err(None)`: the level compiled to bytes the decoder refuses, a bug of levkit's.
    let built = match blocking_error(diagnostics, model, level) {
        Some(error) => Err(Some(error)),
        None => compiled(level).ok_or(None),
    };
    match built {
        Ok((sp, origins)) => {
            let place = place_of(db, workspace, file, name, request.depth);
            let loaded = special::load_special(&sp, name, &mut Rng::new(request.seed), &place);
            let source = |origin: u32| {
                let at = origins.binary_search_by_key(&origin, |(o, _)| *o).ok()?;
                let s = spans.source(origins[at].1);
                Some(levkit_render::Source {
                    start: s.start,
                    end: s.end,
                    line: s.line,
                    column: s.column,
                })
            };
            let mut picture = levkit_render::Picture::new(&loaded.level, &source);
            picture.notes = loaded
                .unsupported
                .iter()
                .map(|u| unsupported_note(u))
                .collect();
            out.generated = true;
            out.depth = Some(place.depth);
            out.dungeon = Some(place.dnum);
            out.dlevel = Some(place.dlevel);
            out.rows = picture
                .squares
                .iter()
                .map(|row| row.iter().map(|s| s.shown().0).collect())
                .collect();
            out.cells = cells(&picture, &spans);
            out.legend = picture
                .legend()
                .into_iter()
                .map(|(glyph, color, meaning)| LegendEntry {
                    glyph: glyph.to_string(),
                    color: Some(color.css().to_string()),
                    meaning,
                })
                .collect();
            out.notes = picture.notes.clone();
            if request.terrain {
                out.terrain = Some(levkit_generate::dump::golden_text(
                    &loaded.level,
                    name,
                    request.seed,
                    &place,
                ));
            }
            out.picture = Some(picture);
        }
        Err(error) => {
            out.rows = sketch.rows;
            out.cells = sketch
                .cells
                .iter()
                .map(|c| Cell {
                    x: c.x,
                    y: c.y,
                    glyph: c.glyph.to_string(),
                    what: c.what.to_string(),
                    terrain: None,
                    lit: false,
                    range: Some(spans.range(c.source)),
                    source: Some(spans.source(c.source)),
                    things: Vec::new(),
                })
                .collect();
            out.legend = sketch
                .legend
                .iter()
                .map(|(glyph, meaning)| LegendEntry {
                    glyph: glyph.to_string(),
                    color: None,
                    meaning: meaning.to_string(),
                })
                .collect();
            out.notes = sketch.notes;
            match error {
                Some(error) => {
                    out.notes
                        .push("the level has errors: showing its map parts only".into());
                    out.error = Some(spans.error(error));
                }
                None => out.notes.push(
                    "levkit could not read back the level it compiled (a bug of levkit's, please report it): showing its map parts only".into(),
                ),
            }
        }
    }
    Preview::Level(Box::new(out))
}

/// Every square that something of the source made, with what it holds.
fn cells(picture: &levkit_render::Picture, spans: &Spans<'_>) -> Vec<Cell> {
    let range_of = |s: &levkit_render::Source| TextRange::new(s.start.into(), s.end.into());
    let mut out = Vec::new();
    for (y, row) in picture.squares.iter().enumerate() {
        for (x, square) in row.iter().enumerate() {
            if square.source.is_none() && square.things.is_empty() {
                continue;
            }
            let (glyph, _) = square.shown();
            // What is shown, else the terrain, with the statement that made it.
            let (what, source) = square
                .things
                .iter()
                .find(|t| t.source.is_some())
                .map(|t| (t.text.clone(), t.source))
                .or_else(|| square.source.map(|s| (square.terrain.to_string(), Some(s))))
                .unwrap_or_else(|| {
                    let first = &square.things[0];
                    (first.text.clone(), None)
                });
            out.push(Cell {
                x,
                y,
                glyph: glyph.to_string(),
                what,
                terrain: Some(square.terrain.to_string()),
                lit: square.lit,
                range: source.map(|s| spans.range(range_of(&s))),
                source: source.map(|s| spans.source(range_of(&s))),
                things: square
                    .things
                    .iter()
                    .map(|t| Thing {
                        glyph: t.glyph.to_string(),
                        text: t.text.clone(),
                        range: t.source.map(|s| spans.range(range_of(&s))),
                        source: t.source.map(|s| spans.source(range_of(&s))),
                    })
                    .collect(),
            });
        }
    }
    out
}

/// Counts, over the seeds, how often each square gets a monster, an object or a trap.
pub(crate) fn heatmap(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    request: &PreviewRequest,
    (first, last): (u32, u32),
    progress: &(dyn Fn() + Sync),
) -> Option<Heatmap> {
    use rayon::prelude::*;
    let model = nethack_model(db, file).as_ref()?;
    let level = chosen(model, request.level.as_deref())?;
    if blocking_error(file_diagnostics(db, file), model, level).is_some() {
        return None;
    }
    let name = level_name(level);
    let (sp, _) = compiled(level)?;
    let place = place_of(db, workspace, file, name, request.depth);
    let counts = (first..=last)
        .into_par_iter()
        .map(|seed| {
            let loaded = special::load_special(&sp, name, &mut Rng::new(seed), &place);
            let mut here = vec![0u32; COLNO * ROWNO];
            for p in &loaded.level.events {
                if matches!(
                    p.event,
                    Event::Monster(_) | Event::Object(_) | Event::Trap(_)
                ) {
                    // A square counts once per seed, however many things it holds.
                    here[p.at.y as usize * COLNO + p.at.x as usize] = 1;
                }
            }
            progress();
            here
        })
        .reduce(
            || vec![0u32; COLNO * ROWNO],
            |a, b| a.iter().zip(&b).map(|(x, y)| x + y).collect(),
        );
    Some(Heatmap {
        level: name.to_string(),
        seeds: [first, last],
        counts: counts.chunks(COLNO).map(<[u32]>::to_vec).collect(),
    })
}

/// The level from its text alone.
fn sketch(chosen: &Level) -> Sketch {
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
                            cells.push(SketchCell {
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
                .map(move |(x, &expected)| Heat { x, y, expected })
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
    Sketch {
        rows: grid.into_iter().map(|r| r.into_iter().collect()).collect(),
        cells,
        legend,
        notes,
        regions,
        heat,
    }
}

/// The regions and placements of one map part, at its place on the level.
fn overlays(
    part: &MapPart,
    (x0, y0): (i64, i64),
    regions: &mut Vec<SketchRegion>,
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
        regions.push(SketchRegion {
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
