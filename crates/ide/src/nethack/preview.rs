//! A NetHack level's preview: the level as the game's loader builds it for a seed (compile,
//! decode, load, picture), each square linked to the map character or the statement that made
//! it. While the level has errors, a sketch from the text alone stands in (map parts placed
//! where the game places them), with the error. The regions and the heat of expected
//! placements come from the text in both cases; sampled heat comes from building the level
//! for many seeds.

use levkit_diagnostics::{Diagnostic, Severity, TextRange};
use levkit_generate::level::{COLNO, Event, Place, ROWNO};
use levkit_generate::rng::Rng;
use levkit_generate::special::{self, SpecialLevel};
use levkit_model::nethack::{
    Area, Coordinate, DesFile, DetailKind, Fill, LevRegionKind, Level, LevelKind, Light, MapPart,
    Rect, Terrain, map_origin, terrain_of,
};
use levkit_render::Color;

use crate::db::{SourceFile, Workspace, file_diagnostics, line_index};
use crate::dungeon::dungeon_model;
use crate::nethack::nethack_model;
use crate::preview::{
    Cell, Controls, Heat, HeatLayer, HeatValue, Heatmap, LegendEntry, LevelPreview, Preview,
    PreviewRequest, Region, Spans, picture_cells,
};

const COLUMNS: usize = 80;
const ROWS: usize = 21;

/// The kinds of things the heat counts, one layer each (after `all`); engravings count in
/// `all` only.
const KINDS: [&str; 3] = ["monsters", "objects", "traps"];

/// Expected things per square: one grid per kind of [`KINDS`], then engravings.
type KindHeat = [Vec<Vec<f64>>; 4];

/// Colours for regions, each region its own (cycled when a level has more).
const REGION_COLORS: [&str; 10] = [
    "#4aa3ff", "#ff9f40", "#5fd35f", "#ff5f7e", "#c77dff", "#ffd84a", "#40d9d9", "#ff7ad9",
    "#a0a0ff", "#9fdf9f",
];

/// What the text alone says of a level: its map parts where the game puts them, its regions,
/// and where things may land.
struct Sketch {
    rows: Vec<String>,
    /// The cells drawn from a MAP, each with the map character that made it.
    cells: Vec<SketchCell>,
    legend: Vec<(char, Color, &'static str)>,
    notes: Vec<String>,
    /// The level's rectangles (REGION, NON_DIGGABLE, stair and teleport areas...), absolute.
    regions: Vec<SketchRegion>,
    /// The expected number of things of each kind on each cell, spreading a random
    /// placement evenly over where it may land.
    heat: KindHeat,
}

struct SketchCell {
    x: usize,
    y: usize,
    glyph: char,
    color: Color,
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
        return Preview::nothing(
            "this file has no level to preview: it needs a MAZE or LEVEL statement".into(),
        );
    };
    let spans = Spans {
        text: file.text(db),
        index: line_index(db, file),
        encoding: request.encoding,
    };
    let sketch = sketch(level);
    let name = level_name(level);
    let regions = regions(&sketch.regions, &spans);
    let mut out = LevelPreview {
        title: Some(format!("{name}, seed {}", request.seed)),
        controls: Some(Controls {
            levels: model.levels.len() > 1,
            seed: true,
            regions: !regions.is_empty(),
            heat: true,
        }),
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
        level_lines: model
            .levels
            .iter()
            .map(|l| spans.source(l.range).line)
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
        regions,
        heat: total_heat(&sketch.heat),
        heatmaps: expected_layers(level, &sketch.heat),
        error: None,
        picture: None,
        terrain: None,
        map: None,
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
            let wire = |range: TextRange| {
                let s = spans.source(range);
                levkit_render::Source {
                    start: s.start,
                    end: s.end,
                    line: s.line,
                    column: s.column,
                }
            };
            let origin_range = |origin: u32| {
                let at = origins.binary_search_by_key(&origin, |(o, _)| *o).ok()?;
                Some(origins[at].1)
            };
            let source = |origin: u32| origin_range(origin).map(wire);
            let mut picture = levkit_render::Picture::new(&loaded.level, &source);
            // A square a map drew links to its own character, not to the whole MAP block.
            for placed in &loaded.level.maps {
                let Some(map) = origin_range(placed.origin).and_then(|range| {
                    level
                        .parts
                        .iter()
                        .filter_map(|p| p.map.as_ref())
                        .find(|m| m.range == range)
                }) else {
                    continue;
                };
                for (dy, dx) in
                    (0..map.height()).flat_map(|y| (0..map.width()).map(move |x| (y, x)))
                {
                    let (x, y) = (placed.at.x + dx as i32, placed.at.y + dy as i32);
                    if !(0..COLNO as i32).contains(&x)
                        || !(0..ROWNO as i32).contains(&y)
                        || loaded.level.at(x, y).origin != Some(placed.origin)
                    {
                        continue;
                    }
                    if let Some(range) = map.cell_range(dx as i64, dy as i64) {
                        picture.squares[y as usize][x as usize].source = Some(wire(range));
                    }
                }
            }
            picture.notes = loaded
                .unsupported
                .iter()
                .map(|u| unsupported_note(u))
                .collect();
            out.title = Some(format!(
                "{name}, seed {}, depth {}",
                request.seed, place.depth
            ));
            out.generated = true;
            out.depth = Some(place.depth);
            out.dungeon = Some(place.dnum);
            out.dlevel = Some(place.dlevel);
            out.rows = picture
                .squares
                .iter()
                .map(|row| row.iter().map(|s| s.shown().0).collect())
                .collect();
            out.cells = picture_cells(&picture, &spans);
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
            if let Some((first, last)) = request.sample.filter(|(a, b)| a <= b) {
                let counts = count_placements(&sp, name, &place, (first, last), &|| {
                    db.unwind_if_revision_cancelled()
                });
                out.heatmaps = sampled_layers(&counts, (first, last));
            }
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
            out.title = Some(format!("{name} (not built: it has errors)"));
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
                    color: Some(c.color.css().to_string()),
                })
                .collect();
            out.legend = sketch
                .legend
                .iter()
                .map(|(glyph, color, meaning)| LegendEntry {
                    glyph: glyph.to_string(),
                    color: Some(color.css().to_string()),
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

/// The regions as the contract gives them: each with an id that survives edits elsewhere
/// (its statement's text) and a colour of its own.
fn regions(sketched: &[SketchRegion], spans: &Spans<'_>) -> Vec<Region> {
    let mut seen: Vec<String> = Vec::new();
    sketched
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let statement = spans
                .text
                .get(usize::from(r.source.start())..usize::from(r.source.end()))
                .unwrap_or_default()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            let repeats = seen.iter().filter(|s| **s == statement).count();
            seen.push(statement.clone());
            Region {
                x1: r.x1,
                y1: r.y1,
                x2: r.x2,
                y2: r.y2,
                what: r.what.clone(),
                range: spans.range(r.source),
                source: spans.source(r.source),
                id: Some(if repeats == 0 {
                    statement
                } else {
                    format!("{statement}#{}", repeats + 1)
                }),
                color: Some(REGION_COLORS[i % REGION_COLORS.len()].to_string()),
            }
        })
        .collect()
}

/// In how many of the builds for `seeds` each square held something: all kinds, then each
/// of [`KINDS`] (a square counts once per build and kind). `check` runs between batches of
/// builds (it unwinds when the analysis is cancelled).
fn count_placements(
    sp: &SpecialLevel,
    name: &str,
    place: &Place,
    (first, last): (u32, u32),
    check: &dyn Fn(),
) -> [Vec<u32>; 4] {
    use rayon::prelude::*;
    const BATCH: u32 = 32;
    let empty = || std::array::from_fn(|_| vec![0u32; COLNO * ROWNO]);
    let add = |mut a: [Vec<u32>; 4], b: [Vec<u32>; 4]| {
        for (a, b) in a.iter_mut().zip(&b) {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
        a
    };
    let mut total = empty();
    let mut start = first;
    loop {
        check();
        let end = start.saturating_add(BATCH - 1).min(last);
        let batch = (start..=end)
            .into_par_iter()
            .map(|seed| {
                let loaded = special::load_special(sp, name, &mut Rng::new(seed), place);
                let mut here: [Vec<u32>; 4] = empty();
                for p in &loaded.level.events {
                    let kind = match p.event {
                        Event::Monster(_) => 1,
                        Event::Object(_) => 2,
                        Event::Trap(_) => 3,
                        _ => continue,
                    };
                    let at = p.at.y as usize * COLNO + p.at.x as usize;
                    if at < COLNO * ROWNO {
                        here[0][at] = 1;
                        here[kind][at] = 1;
                    }
                }
                here
            })
            .reduce(empty, add);
        total = add(total, batch);
        if end >= last {
            return total;
        }
        start = end + 1;
    }
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
            let [all, ..] = count_placements(&sp, name, &place, (seed, seed), &|| {});
            progress();
            all
        })
        .reduce(
            || vec![0u32; COLNO * ROWNO],
            |a, b| a.iter().zip(&b).map(|(x, y)| x + y).collect(),
        );
    Some(Heatmap {
        level: name.to_string(),
        seeds: [first, last],
        counts: counts.chunks(COLNO).map(<[u32]>::to_vec).collect(),
        layers: Vec::new(),
    })
}

/// The expected heat of every kind together, as the contract's `heat` has always given it.
fn total_heat(heat: &KindHeat) -> Vec<Heat> {
    let mut out = Vec::new();
    for y in 0..ROWS {
        for x in 0..COLUMNS {
            let expected: f64 = heat.iter().map(|grid| grid[y][x]).sum();
            if expected > 0.0 {
                out.push(Heat { x, y, expected });
            }
        }
    }
    out
}

/// How many statements of the level place things of each kind of [`KINDS`], wherever.
fn placements(level: &Level) -> [usize; 3] {
    let mut counts = [0; 3];
    let details = level
        .parts
        .iter()
        .flat_map(|p| &p.details)
        .chain(level.rooms.iter().flat_map(|r| &r.details));
    for detail in details {
        match detail.kind {
            DetailKind::Monster(_) => counts[0] += 1,
            DetailKind::Object(_) | DetailKind::Gold { .. } => counts[1] += 1,
            DetailKind::Trap(_) => counts[2] += 1,
            _ => {}
        }
    }
    counts
}

/// The layers of expected heat: all kinds, then each kind, each saying why it is empty or
/// even when it is.
fn expected_layers(level: &Level, heat: &KindHeat) -> Vec<HeatLayer> {
    let placed = placements(level);
    let rooms = level.kind == LevelKind::Rooms;
    let grids: Vec<(&str, Vec<Vec<f64>>, usize)> = std::iter::once((
        "all",
        (0..ROWS)
            .map(|y| {
                (0..COLUMNS)
                    .map(|x| heat.iter().map(|g| g[y][x]).sum())
                    .collect()
            })
            .collect(),
        placed.iter().sum(),
    ))
    .chain(
        KINDS
            .iter()
            .enumerate()
            .map(|(i, kind)| (*kind, heat[i].clone(), placed[i])),
    )
    .collect();
    grids
        .into_iter()
        .map(|(kind, grid, statements)| {
            let cells: Vec<HeatValue> = grid
                .iter()
                .enumerate()
                .flat_map(|(y, row)| {
                    row.iter()
                        .enumerate()
                        .filter(|(_, value)| **value > 0.0)
                        .map(move |(x, &value)| HeatValue { x, y, value })
                })
                .collect();
            let max = cells.iter().map(|c| c.value).fold(0.0, f64::max);
            let what = if kind == "all" { "things" } else { kind };
            let note = if statements == 0 {
                Some(format!("no statement of this level places {what}"))
            } else if cells.is_empty() && rooms {
                Some(format!(
                    "this level's rooms are placed when it is built, so where its {what} land is only known by building it: sample over seeds"
                ))
            } else if cells.is_empty() {
                Some(format!(
                    "this level's {what} land where only building it tells (a maze, random places): sample over seeds"
                ))
            } else if cells.len() > 20
                && max < 1.0
                && cells.iter().all(|c| (c.value - max).abs() < 1e-9)
            {
                let every = match kind {
                    "all" => "everything placed".to_string(),
                    kind => format!("every {}", kind.trim_end_matches('s')),
                };
                Some(format!(
                    "{every} here lands at random anywhere on open ground, so the expected heat is even"
                ))
            } else {
                None
            };
            HeatLayer {
                kind: kind.to_string(),
                mode: "expected".into(),
                seeds: None,
                unit: "things expected".into(),
                max,
                cells,
                note,
            }
        })
        .collect()
}

/// The layers of heat sampled over the builds for `seeds`: the share of builds in which a
/// square held something of the kind.
fn sampled_layers(counts: &[Vec<u32>; 4], (first, last): (u32, u32)) -> Vec<HeatLayer> {
    let builds = f64::from(last - first) + 1.0;
    std::iter::once("all")
        .chain(KINDS)
        .zip(counts)
        .map(|(kind, counts)| {
            let cells: Vec<HeatValue> = counts
                .iter()
                .enumerate()
                .filter(|(_, n)| **n > 0)
                .map(|(at, &n)| HeatValue {
                    x: at % COLNO,
                    y: at / COLNO,
                    value: f64::from(n) / builds,
                })
                .collect();
            let max = cells.iter().map(|c| c.value).fold(0.0, f64::max);
            let what = if kind == "all" { "anything" } else { kind };
            HeatLayer {
                kind: kind.to_string(),
                mode: "sampled".into(),
                seeds: Some([first, last]),
                unit: "share of builds".into(),
                max,
                note: cells
                    .is_empty()
                    .then(|| format!("none of the {builds} builds placed {what}")),
                cells,
            }
        })
        .collect()
}

/// The level from its text alone.
fn sketch(chosen: &Level) -> Sketch {
    let mut grid = vec![vec![' '; COLUMNS]; ROWS];
    let mut cells = Vec::new();
    let mut notes = Vec::new();
    let mut regions = Vec::new();
    let mut heat: KindHeat = std::array::from_fn(|_| vec![vec![0.0f64; COLUMNS]; ROWS]);
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
                for (y, row) in map.rows().iter().enumerate() {
                    for x in 0..map.width() {
                        let (ax, ay) = (x0 + x as i64, y0 + y as i64);
                        if !(0..COLUMNS as i64).contains(&ax) || !(0..ROWS as i64).contains(&ay) {
                            continue;
                        }
                        let c = row.cell(x).unwrap_or(' ');
                        grid[ay as usize][ax as usize] = c;
                        if let (Some(range), Some(terrain)) = (map.cell_range(x as i64, y as i64), terrain_of(c)) {
                            cells.push(SketchCell {
                                x: ax as usize,
                                y: ay as usize,
                                glyph: c,
                                color: terrain_color(terrain),
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
    let mut legend: Vec<(char, Color, &'static str)> = Vec::new();
    for &c in grid.iter().flatten() {
        if let Some(t) = terrain_of(c)
            && c != ' '
            && !legend.iter().any(|(g, _, _)| *g == c)
        {
            legend.push((c, terrain_color(t), t.description()));
        }
    }
    legend.sort_by_key(|(c, _, _)| *c);
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
    heat: &mut KindHeat,
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
            let c = map.rows()[y as usize].cell(x as usize).unwrap_or(' ');
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
    let mut add = |kind: usize, at: &Coordinate, weight: f64| {
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
                heat[kind][ay as usize][ax as usize] += share;
            }
        }
    };
    let chance = |c: Option<&levkit_model::Spanned<i64>>| {
        c.map_or(1.0, |c| c.value.clamp(0, 100) as f64 / 100.0)
    };
    for detail in &part.details {
        match &detail.kind {
            DetailKind::Monster(m) => add(0, &m.at.value, chance(m.chance.as_ref())),
            DetailKind::Object(o) => {
                if let Some(at) = &o.at {
                    add(1, &at.value, chance(o.chance.as_ref()));
                }
            }
            DetailKind::Trap(t) => add(2, &t.at.value, chance(t.chance.as_ref())),
            DetailKind::Gold { at, .. } => add(1, &at.value, 1.0),
            DetailKind::Engraving { at, .. } => add(3, &at.value, 1.0),
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

/// The colour the game draws a terrain in.
fn terrain_color(terrain: Terrain) -> Color {
    match terrain {
        Terrain::Tree => Color::Green,
        Terrain::Pool | Terrain::Moat | Terrain::Water | Terrain::Fountain => Color::Blue,
        Terrain::Lava => Color::Red,
        Terrain::IronBars | Terrain::Ice | Terrain::Air => Color::Cyan,
        Terrain::Door => Color::Brown,
        Terrain::Throne => Color::Yellow,
        _ => Color::Gray,
    }
}
