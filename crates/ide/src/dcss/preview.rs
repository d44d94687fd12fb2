//! A DCSS vault's preview: the vault as crawl resolves it when it places it, for a seed and
//! a player's situation (`levkit_generate::dcss`), drawn as the same `Picture` NetHack levels
//! give, each square linked to its map character, and to the headers that changed it. The
//! picker lists the file's vaults; the notes say what levkit does not model, how the Lua
//! failed, and what `validate` and `veto` said. Sampled heat counts, per cell of the vault's
//! map, how often it is each kind of thing over many seeds.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;
use std::sync::Arc;

use levkit_diagnostics::{Severity, TextRange, TextSize};
use levkit_generate::dcss::look::Kind;
use levkit_generate::dcss::{
    Catalogue, FileLua, Library, NONE, Outcome, Program, Resolver, Situation,
};
use levkit_model::dcss::Segment as Model;
use levkit_render::{Color, Picture, Square, Thing as PictureThing};
use levkit_syntax::Dialect;

use super::{Placed, SegmentText, segment_diagnostics, segment_model, segments};
use crate::db::{SourceFile, Workspace, dialect, line_index};
use crate::preview::{
    Controls, HeatLayer, HeatValue, Heatmap, LegendEntry, LevelPreview, Preview, PreviewRequest,
    Spans, Thing, picture_cells,
};

/// The kinds the heat counts, one layer each.
pub(crate) const KINDS: [&str; 8] = [
    "wall", "floor", "water", "lava", "door", "feature", "monster", "item",
];

/// A vault segment made ready to run (`None` for the text outside vaults).
#[salsa::tracked(returns(ref))]
pub(crate) fn segment_program<'db>(
    db: &'db dyn salsa::Database,
    segment: SegmentText<'db>,
) -> Option<Arc<Program>> {
    match segment_model(db, segment) {
        Model::Vault(vault) => Some(Arc::new(Program::new(vault))),
        Model::Global(_) => None,
    }
}

/// The file's Lua outside its vaults.
#[salsa::tracked(returns(ref))]
pub(crate) fn file_lua(db: &dyn salsa::Database, file: SourceFile) -> Arc<FileLua> {
    let placed = segments(db, file);
    let globals = placed
        .iter()
        .filter_map(|p| match segment_model(db, p.segment) {
            Model::Global(global) => Some(global),
            Model::Vault(_) => None,
        });
    Arc::new(FileLua::new(globals))
}

/// The workspace's DCSS files in crawl's load order (their paths' byte order).
#[salsa::tracked(returns(ref))]
fn load_order(db: &dyn salsa::Database, workspace: Workspace) -> Vec<SourceFile> {
    let mut files: Vec<SourceFile> = workspace
        .files(db)
        .iter()
        .copied()
        .filter(|&f| dialect(db, f) == Dialect::DcssDes)
        .collect();
    files.sort_by(|a, b| {
        a.path(db)
            .as_os_str()
            .as_encoded_bytes()
            .cmp(b.path(db).as_os_str().as_encoded_bytes())
    });
    files
}

/// A file's Lua and vaults, in file order.
fn file_library(db: &dyn salsa::Database, file: SourceFile) -> (Arc<FileLua>, Vec<Arc<Program>>) {
    let programs = segments(db, file)
        .iter()
        .filter_map(|p| segment_program(db, p.segment).clone())
        .collect();
    (file_lua(db, file).clone(), programs)
}

/// Every vault and file Lua of the workspace's DCSS files, in crawl's load order: what
/// SUBVAULT and calls to other files' functions draw on.
#[salsa::tracked(returns(ref))]
pub(crate) fn catalogue(db: &dyn salsa::Database, workspace: Workspace) -> Arc<Catalogue> {
    Arc::new(Catalogue::new(
        load_order(db, workspace)
            .iter()
            .map(|&file| file_library(db, file)),
    ))
}

/// One file's part of the [`catalogue`]: the catalogue of that file alone.
#[salsa::tracked(returns(ref))]
fn file_catalogue(db: &dyn salsa::Database, file: SourceFile) -> Catalogue {
    Catalogue::new([file_library(db, file)])
}

/// A vault of a file: where its segment starts, and its program.
pub(crate) struct FileVault<'db> {
    pub placed: Placed<'db>,
    pub program: Arc<Program>,
}

pub(crate) fn file_vaults(db: &dyn salsa::Database, file: SourceFile) -> Vec<FileVault<'_>> {
    segments(db, file)
        .into_iter()
        .filter_map(|placed| {
            segment_program(db, placed.segment)
                .clone()
                .map(|program| FileVault { placed, program })
        })
        .collect()
}

/// A resolver for one vault of the file, with the workspace as its library.
pub(crate) fn resolver(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    program: &Arc<Program>,
) -> Resolver {
    let library: Rc<dyn Library> = Rc::new(catalogue(db, workspace).clone());
    Resolver::new(program.clone(), file_lua(db, file).clone(), library)
}

/// The player's situation: the requested place, else the first place the vault's DEPTH or
/// PLACE allows, else D:1. A place levkit cannot read is a note.
pub(crate) fn situation(
    program: &Program,
    place: Option<&str>,
    notes: &mut Vec<String>,
) -> Situation {
    let mut situation = Situation::default();
    let chosen = match place.map(Situation::parse_place) {
        Some(Ok(place)) => Some(place),
        Some(Err(error)) => {
            notes.push(format!("the place is not used: {error}"));
            None
        }
        None => None,
    };
    if let Some((branch, depth)) =
        chosen.or_else(|| program.depth.as_deref().and_then(Situation::first_place))
    {
        situation.branch = branch;
        situation.depth = depth;
    }
    situation
}

/// A statement of the program, as a range in the file.
fn site_range(program: &Program, start: TextSize, site: u32) -> Option<TextRange> {
    program.sites.get(site as usize).map(|s| s.range + start)
}

/// The map character a cell started as, as a range in the file.
fn origin_range(program: &Program, start: TextSize, origin: u32) -> Option<TextRange> {
    if origin == NONE {
        return None;
    }
    let (row, column) = ((origin >> 16) as usize, origin & 0xffff);
    let (_, site) = program.rows.get(row)?;
    let range = site_range(program, start, *site)?;
    let at = range.start() + TextSize::from(column);
    (at < range.end()).then(|| TextRange::at(at, TextSize::from(1)))
}

/// crawl's colour names as the picture's colours (the elemental colours by their element).
fn colour(name: &str) -> Color {
    let name = name.to_ascii_uppercase();
    let name = name.trim_start_matches("ETC_");
    match name {
        "BLACK" | "DARKGREY" | "DARKGRAY" => Color::Black,
        "BLUE" | "WATER" | "DEEP_WATER" | "ICE" => Color::Blue,
        "GREEN" | "POISON" | "TREE" => Color::Green,
        "CYAN" | "AIR" | "ELECTRICITY" => Color::Cyan,
        "RED" | "FIRE" | "LAVA" | "BLOOD" | "UNHOLY" => Color::Red,
        "MAGENTA" | "MAGIC" | "MUTAGENIC" => Color::Magenta,
        "BROWN" | "EARTH" | "WOOD" => Color::Brown,
        "LIGHTBLUE" => Color::BrightBlue,
        "LIGHTGREEN" => Color::BrightGreen,
        "LIGHTCYAN" | "CRYSTAL" => Color::BrightCyan,
        "LIGHTRED" => Color::Orange,
        "LIGHTMAGENTA" | "WARP" | "SHIMMER_BLUE" => Color::BrightMagenta,
        "YELLOW" | "GOLD" | "HOLY" => Color::Yellow,
        "WHITE" | "SILVER" | "IRON" | "BONE" => Color::White,
        _ => Color::Gray,
    }
}

/// The outcome as a picture: terrain linked to its map character, monsters and items to
/// their statements; a cell a subvault filled links to the SUBVAULT statement.
fn picture(outcome: &Outcome, start: TextSize, spans: &Spans<'_>) -> Picture {
    let program = &outcome.program;
    let wire = |range: TextRange| {
        let s = spans.source(range);
        levkit_render::Source {
            start: s.start,
            end: s.end,
            line: s.line,
            column: s.column,
        }
    };
    let squares = (0..outcome.height())
        .map(|y| {
            (0..outcome.width())
                .map(|x| {
                    let square = outcome.square(x, y);
                    let statement = |by: u32| {
                        let by = if square.sub == NONE {
                            by
                        } else {
                            outcome
                                .subvaults
                                .get(square.sub as usize)
                                .map_or(NONE, |s| s.1)
                        };
                        site_range(program, start, by).map(wire)
                    };
                    let mut things = Vec::new();
                    if let Some((look, by)) = &square.monster {
                        things.push(PictureThing {
                            glyph: look.glyph,
                            color: colour(look.colour),
                            text: format!("monster: {}", look.name),
                            name: look.name.clone(),
                            source: statement(*by),
                        });
                    }
                    for (look, by) in &square.items {
                        things.push(PictureThing {
                            glyph: look.glyph,
                            color: colour(look.colour),
                            text: format!("item: {}", look.name),
                            name: look.name.clone(),
                            source: statement(*by),
                        });
                    }
                    let terrain_colour = square
                        .colour
                        .as_ref()
                        .map_or(square.terrain.colour, |(c, _)| c.as_str());
                    let glyph = if square.terrain.kind == Kind::Outside {
                        ' '
                    } else {
                        square.terrain.glyph
                    };
                    Square {
                        terrain_glyph: glyph,
                        terrain_color: colour(terrain_colour),
                        terrain: square.terrain.description.clone().into(),
                        lit: true,
                        things,
                        source: origin_range(program, start, square.origin).map(wire),
                    }
                })
                .collect()
        })
        .collect();
    Picture {
        squares,
        notes: Vec::new(),
    }
}

/// What the outcome says beyond its picture, in words.
fn outcome_notes(outcome: &Outcome, spans: &Spans<'_>, start: TextSize) -> Vec<String> {
    let program = &outcome.program;
    let line_of = |by: u32| {
        site_range(program, start, by)
            .map(|r| format!(" (line {})", spans.source(r).line + 1))
            .unwrap_or_default()
    };
    let mut notes = Vec::new();
    if outcome.vetoed {
        notes.push("veto said no: crawl would pick another vault here".to_string());
    }
    if let Some(failure) = &outcome.failure {
        notes.push(format!(
            "the vault's Lua failed{}: {} (the map shows how far it got)",
            line_of(failure.by),
            failure.message
        ));
    }
    if outcome.gave_up {
        notes.push(format!(
            "validate said no to all {} attempts: crawl would not place this vault",
            levkit_generate::dcss::ATTEMPTS
        ));
    } else if outcome.rejected > 0 {
        notes.push(format!(
            "validate said no to {} attempt(s) before this one",
            outcome.rejected
        ));
    }
    for note in &outcome.notes {
        notes.push(format!("{}{}", note.message, line_of(note.by)));
    }
    for printed in &outcome.printed {
        notes.push(format!("the vault's Lua printed: {printed}"));
    }
    notes
}

/// The vault chosen by name, else the one the request names not, the first.
fn chosen<'a, 'db>(vaults: &'a [FileVault<'db>], name: Option<&str>) -> Option<&'a FileVault<'db>> {
    name.and_then(|name| vaults.iter().find(|v| v.program.name == name))
        .or_else(|| vaults.first())
}

pub(crate) fn preview(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    request: &PreviewRequest,
) -> Preview {
    let vaults = file_vaults(db, file);
    let Some(vault) = chosen(&vaults, request.level.as_deref()) else {
        return Preview::nothing(
            "this file has no vault to preview: a vault starts with a NAME: header".into(),
        );
    };
    let spans = Spans {
        text: file.text(db),
        index: line_index(db, file),
        encoding: request.encoding,
    };
    let start = vault.placed.start;
    let program = &vault.program;
    let mut notes = Vec::new();
    let situation = situation(program, request.place.as_deref(), &mut notes);
    let mut resolver = resolver(db, workspace, file, program);
    let outcome = resolver.resolve(u64::from(request.seed), &situation, false);
    let picture = picture(&outcome, start, &spans);
    notes.extend(outcome_notes(&outcome, &spans, start));
    let place = format!("{}:{}", situation.branch, situation.depth);
    if outcome.orientation != Default::default() {
        notes.push(format!("placed {}", outcome.orientation.describe()));
    }
    let error = segment_diagnostics(db, vault.placed.segment)
        .iter()
        .find(|d| d.severity == Severity::Error)
        .map(|d| levkit_syntax::dcss::shifted(d, start));
    if error.is_some() {
        notes.push("the vault has errors: crawl would not load its file".into());
    }
    let mut cells = picture_cells(&picture, &spans);
    // The headers that changed a cell, after what it holds.
    for cell in &mut cells {
        let square = outcome.square(cell.x, cell.y);
        if square.sub != NONE {
            continue;
        }
        for by in [square.terrain_by, square.by] {
            if let Some(range) = site_range(program, start, by)
                && let Some(site) = program.sites.get(by as usize)
                && !cell.things.iter().any(|t| {
                    t.source
                        .is_some_and(|s| s.start == u32::from(range.start()))
                })
            {
                cell.things.push(Thing {
                    glyph: char::from(square.glyph).to_string(),
                    text: format!("made by {}", site.what),
                    range: Some(spans.range(range)),
                    source: Some(spans.source(range)),
                });
            }
        }
    }
    let mut out = LevelPreview {
        title: Some(format!("{}, seed {}, {place}", program.name, request.seed)),
        controls: Some(Controls {
            levels: vaults.len() > 1,
            seed: true,
            regions: false,
            heat: true,
        }),
        level: program.name.clone(),
        levels: vaults.iter().map(|v| v.program.name.clone()).collect(),
        level_lines: vaults
            .iter()
            .map(|v| spans.source(TextRange::empty(v.placed.start)).line)
            .collect(),
        seed: request.seed,
        generated: outcome.failure.is_none(),
        depth: Some(situation.depth as i32),
        dungeon: None,
        dlevel: None,
        rows: picture
            .squares
            .iter()
            .map(|row| row.iter().map(|s| s.shown().0).collect())
            .collect(),
        cells,
        legend: picture
            .legend()
            .into_iter()
            .filter(|(glyph, _, _)| *glyph != ' ')
            .map(|(glyph, color, meaning)| LegendEntry {
                glyph: glyph.to_string(),
                color: Some(color.css().to_string()),
                meaning,
            })
            .collect(),
        notes,
        regions: Vec::new(),
        heat: Vec::new(),
        heatmaps: Vec::new(),
        error: error.as_ref().map(|d| spans.error(d)),
        picture: None,
        terrain: None,
        map: None,
    };
    if request.map {
        out.map = Some(outcome.map.iter().map(|r| format!("{r}\n")).collect());
    }
    if let Some((first, last)) = request.sample.filter(|(a, b)| a <= b) {
        let counts = count_kinds(&mut resolver, &situation, (first, last), &|| {
            db.unwind_if_revision_cancelled()
        });
        out.heatmaps = sampled_layers(&counts, &outcome, (first, last));
    } else {
        out.heatmaps = vec![unexpected_layer()];
    }
    let mut picture = picture;
    picture.notes = out.notes.clone();
    out.picture = Some(picture);
    Preview::Level(Box::new(out))
}

/// Per kind of [`KINDS`], per cell of the vault's map (before orientation), in how many of
/// the seeds it was of that kind.
pub(crate) struct KindCounts {
    pub width: usize,
    pub height: usize,
    pub counts: Vec<Vec<u32>>,
}

/// Where a placed cell was in the map before the mirrors and the turn.
fn unoriented(outcome: &Outcome, x: usize, y: usize) -> (usize, usize) {
    let (mut x, mut y) = (x, y);
    let (w, h) = (outcome.width(), outcome.height());
    let o = outcome.orientation;
    // Undo the turn: the map before it was h wide and w tall.
    let (mut mw, mut mh) = (w, h);
    if let Some(clockwise) = o.rotate {
        (mw, mh) = (h, w);
        (x, y) = if clockwise {
            (y, mh - 1 - x)
        } else {
            (mw - 1 - y, x)
        };
    }
    if o.vmirror {
        y = mh - 1 - y;
    }
    if o.hmirror {
        x = mw - 1 - x;
    }
    (x, y)
}

fn kinds_of(square: &levkit_generate::dcss::Square) -> impl Iterator<Item = usize> {
    let terrain = match square.terrain.kind {
        Kind::Wall => Some(0),
        Kind::Floor => Some(1),
        Kind::Water => Some(2),
        Kind::Lava => Some(3),
        Kind::Door => Some(4),
        Kind::Feature => Some(5),
        Kind::Outside => None,
    };
    terrain
        .into_iter()
        .chain(square.monster.is_some().then_some(6))
        .chain((!square.items.is_empty()).then_some(7))
        .chain((square.monster.is_some() || !square.items.is_empty()).then_some(KINDS.len()))
}

pub(crate) fn count_kinds(
    resolver: &mut Resolver,
    situation: &Situation,
    (first, last): (u32, u32),
    check: &dyn Fn(),
) -> KindCounts {
    let mut out = KindCounts {
        width: 0,
        height: 0,
        // One more layer: a monster or an item.
        counts: vec![Vec::new(); KINDS.len() + 1],
    };
    for seed in first..=last {
        if (seed - first) % 16 == 0 {
            check();
        }
        let outcome = resolver.resolve(u64::from(seed), situation, false);
        let (w, h) = if outcome.orientation.rotate.is_some() {
            (outcome.height(), outcome.width())
        } else {
            (outcome.width(), outcome.height())
        };
        if out.width == 0 && out.height == 0 {
            out.width = w;
            out.height = h;
            for layer in &mut out.counts {
                *layer = vec![0; w * h];
            }
        }
        for y in 0..outcome.height() {
            for x in 0..outcome.width() {
                let (mx, my) = unoriented(&outcome, x, y);
                // Lua may give maps of other sizes for other seeds: those cells are left out.
                if mx >= out.width || my >= out.height {
                    continue;
                }
                for kind in kinds_of(outcome.square(x, y)) {
                    out.counts[kind][my * out.width + mx] += 1;
                }
            }
        }
    }
    out
}

/// The heat asked for without sampling: a vault has no expected heat (what its random
/// choices and Lua place is only known by building it), so one empty layer says so.
fn unexpected_layer() -> HeatLayer {
    HeatLayer {
        kind: "all".into(),
        mode: "expected".into(),
        seeds: None,
        unit: "things expected".into(),
        max: 0.0,
        cells: Vec::new(),
        note: Some(
            "a vault's heat is only known by building it (its random choices and Lua): sample over seeds".into(),
        ),
    }
}

/// The sampled layers, drawn over the shown outcome's cells: first `all` (a monster or an
/// item, the things NetHack's heat counts), then one per kind of [`KINDS`].
fn sampled_layers(
    counts: &KindCounts,
    shown: &Outcome,
    (first, last): (u32, u32),
) -> Vec<HeatLayer> {
    let builds = f64::from(last - first) + 1.0;
    std::iter::once(("all", &counts.counts[KINDS.len()]))
        .chain(KINDS.iter().copied().zip(&counts.counts))
        .map(|(kind, layer)| {
            let mut cells = Vec::new();
            for y in 0..shown.height() {
                for x in 0..shown.width() {
                    let (mx, my) = unoriented(shown, x, y);
                    if mx >= counts.width || my >= counts.height {
                        continue;
                    }
                    let n = layer[my * counts.width + mx];
                    if n > 0 {
                        cells.push(HeatValue {
                            x,
                            y,
                            value: f64::from(n) / builds,
                        });
                    }
                }
            }
            let max = cells.iter().map(|c| c.value).fold(0.0, f64::max);
            HeatLayer {
                kind: kind.to_string(),
                mode: "sampled".into(),
                seeds: Some([first, last]),
                unit: "share of builds".into(),
                max,
                note: cells.is_empty().then(|| {
                    let what = match kind {
                        "all" => "a monster or an item",
                        "floor" => "floor",
                        "water" => "water",
                        "lava" => "lava",
                        "item" => "an item",
                        "wall" => "a wall",
                        "door" => "a door",
                        "feature" => "a feature",
                        "monster" => "a monster",
                        other => other,
                    };
                    format!("none of the {builds} builds had {what} here")
                }),
                cells,
            }
        })
        .collect()
}

/// How often each cell of the vault's map is each kind over the seeds (`None` without a
/// vault).
pub(crate) fn heatmap(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    request: &PreviewRequest,
    seeds: (u32, u32),
    progress: &(dyn Fn() + Sync),
) -> Option<Heatmap> {
    let vaults = file_vaults(db, file);
    let vault = chosen(&vaults, request.level.as_deref())?;
    let mut notes = Vec::new();
    let situation = situation(&vault.program, request.place.as_deref(), &mut notes);
    let mut resolver = resolver(db, workspace, file, &vault.program);
    let counts = count_kinds(&mut resolver, &situation, seeds, &|| {
        db.unwind_if_revision_cancelled();
    });
    for _ in seeds.0..=seeds.1 {
        progress();
    }
    let grid = |layer: &[u32]| -> Vec<Vec<u32>> {
        layer
            .chunks(counts.width.max(1))
            .map(<[u32]>::to_vec)
            .collect()
    };
    // The main counts: a monster or an item, as NetHack's heatmap counts things.
    Some(Heatmap {
        level: vault.program.name.clone(),
        seeds: [seeds.0, seeds.1],
        counts: grid(&counts.counts[KINDS.len()]),
        layers: KINDS
            .iter()
            .zip(&counts.counts)
            .map(|(kind, layer)| levkit_render::HeatmapLayer {
                kind: kind.to_string(),
                counts: grid(layer),
            })
            .collect(),
    })
}

/// The vault's builds for seeds 1 to [`REACHABILITY_SEEDS`], surveyed; `None` as soon as
/// `abandon` says so after a build.
fn survey(
    db: &dyn salsa::Database,
    program: &Arc<Program>,
    file_lua: &Arc<FileLua>,
    library: Rc<dyn Library>,
    situation: &Situation,
    abandon: &dyn Fn() -> bool,
) -> Option<levkit_generate::dcss::reach::Survey> {
    let mut resolver = Resolver::new(program.clone(), file_lua.clone(), library);
    let mut survey = levkit_generate::dcss::reach::Survey::default();
    for seed in 1..=REACHABILITY_SEEDS {
        db.unwind_if_revision_cancelled();
        let outcome = resolver.resolve(u64::from(seed), situation, false);
        if abandon() {
            return None;
        }
        if outcome.failure.is_none() && !outcome.vetoed && !outcome.gave_up {
            survey.add(&outcome);
        }
    }
    Some(survey)
}

/// How many times a survey starts again with more of the workspace before it takes the
/// whole catalogue.
const SURVEY_ATTEMPTS: usize = 256;

/// [`survey`] for a vault that draws on the workspace. The catalogue changes with every
/// edit of any vault, so the survey reads only the names and tags it asks for, each through
/// its own query ([`library_definitions`], [`library_tagged`]): another vault's edit re-runs
/// it only if it changes one of those answers. What it asks is known only by running it, so
/// it runs with the answers gathered so far and starts again as soon as it asks something
/// new; the survey that asked nothing new is the one the whole catalogue gives.
fn survey_with_workspace(
    db: &dyn salsa::Database,
    workspace: Workspace,
    program: &Arc<Program>,
    file_lua: &Arc<FileLua>,
    situation: &Situation,
) -> levkit_generate::dcss::reach::Survey {
    let part = Rc::new(LibraryPart::default());
    for _ in 0..SURVEY_ATTEMPTS {
        let asked_more = || !part.asked.borrow().is_empty();
        if let Some(survey) = survey(db, program, file_lua, part.clone(), situation, &asked_more) {
            return survey;
        }
        let asked = part.asked.take();
        for name in asked.names {
            let found = library_definitions(db, workspace, name.clone()).clone();
            part.definitions.borrow_mut().insert(name, found);
        }
        for tag in asked.tags {
            let found = library_tagged(db, workspace, tag.clone()).clone();
            part.tagged.borrow_mut().insert(tag, found);
        }
    }
    let catalogue = Rc::new(catalogue(db, workspace).clone());
    survey(db, program, file_lua, catalogue, situation, &|| false).unwrap_or_default()
}

/// The files whose Lua defines `name`, as the workspace's [`catalogue`] answers: each
/// file's answer, in load order.
#[salsa::tracked(returns(ref))]
fn library_definitions(
    db: &dyn salsa::Database,
    workspace: Workspace,
    name: String,
) -> Vec<Arc<FileLua>> {
    load_order(db, workspace)
        .iter()
        .flat_map(|&file| file_catalogue(db, file).definitions(&name))
        .collect()
}

/// The vaults carrying `tag`, as the workspace's [`catalogue`] answers: each file's answer,
/// in load order, a vault found twice kept once.
#[salsa::tracked(returns(ref))]
fn library_tagged(db: &dyn salsa::Database, workspace: Workspace, tag: String) -> Vec<Tagged> {
    let mut out: Vec<Tagged> = Vec::new();
    for &file in load_order(db, workspace) {
        for (program, lua) in file_catalogue(db, file).tagged(&tag) {
            if !out.iter().any(|(p, _)| Arc::ptr_eq(p, &program)) {
                out.push((program, lua));
            }
        }
    }
    out
}

/// A vault carrying a tag, with its file's Lua.
type Tagged = (Arc<Program>, Arc<FileLua>);

/// The catalogue's answers for some names and tags; what it is asked beyond them it answers
/// empty, and notes.
#[derive(Default)]
struct LibraryPart {
    definitions: RefCell<HashMap<String, Vec<Arc<FileLua>>>>,
    tagged: RefCell<HashMap<String, Vec<Tagged>>>,
    asked: RefCell<Asked>,
}

/// Names and tags a [`LibraryPart`] was asked and did not have.
#[derive(Default)]
struct Asked {
    names: BTreeSet<String>,
    tags: BTreeSet<String>,
}

impl Asked {
    fn is_empty(&self) -> bool {
        self.names.is_empty() && self.tags.is_empty()
    }
}

impl Library for LibraryPart {
    fn definitions(&self, name: &str) -> Vec<Arc<FileLua>> {
        if let Some(found) = self.definitions.borrow().get(name) {
            return found.clone();
        }
        self.asked.borrow_mut().names.insert(name.to_string());
        Vec::new()
    }

    fn tagged(&self, tag: &str) -> Vec<Tagged> {
        if let Some(found) = self.tagged.borrow().get(tag) {
            return found.clone();
        }
        self.asked.borrow_mut().tags.insert(tag.to_string());
        Vec::new()
    }
}

/// How many seeds the reachability survey builds a vault for.
pub(crate) const REACHABILITY_SEEDS: u32 = 64;

/// The floor that some outcomes of the vault wall off, over seeds 1 to
/// [`REACHABILITY_SEEDS`], as warnings at their map characters (offsets in the segment).
/// The workspace is read only for what the vault asks of it (subvaults, other files' Lua),
/// so an edit re-surveys its own vault only.
#[salsa::tracked(returns(ref))]
pub(crate) fn segment_reachability<'db>(
    db: &'db dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    segment: SegmentText<'db>,
) -> Vec<levkit_diagnostics::Diagnostic> {
    use levkit_diagnostics::{Code, Diagnostic};
    let Some(program) = segment_program(db, segment).clone() else {
        return Vec::new();
    };
    if program.rows.is_empty() && !program.has_lua {
        return Vec::new();
    }
    let needs_workspace = program.has_lua || program.calls.iter().any(|c| c.function == "subvault");
    // The file's Lua is read only by vaults with Lua (an edit elsewhere in the file that
    // leaves it as it was re-runs nothing).
    let file_lua = if program.has_lua {
        file_lua(db, file).clone()
    } else {
        Arc::new(FileLua::default())
    };
    let mut notes = Vec::new();
    let situation = situation(&program, None, &mut notes);
    let survey = if needs_workspace {
        survey_with_workspace(db, workspace, &program, &file_lua, &situation)
    } else {
        let library = Rc::new(levkit_generate::dcss::NoLibrary);
        survey(db, &program, &file_lua, library, &situation, &|| false).unwrap_or_default()
    };
    let cell_range =
        |(row, column): (u32, u32)| origin_range(&program, TextSize::from(0), (row << 16) | column);
    survey
        .pockets()
        .into_iter()
        // Floor walled off in every outcome is the author's design (a closet reached by
        // teleport, an island in lava), not something the randomness does.
        .filter(|pocket| pocket.seeds_isolated < pocket.seeds)
        .filter_map(|pocket| {
            let first = cell_range(*pocket.cells.first()?)?;
            let share = 100.0 * f64::from(pocket.seeds_isolated) / f64::from(pocket.seeds);
            let cells = pocket.cells.len();
            let mut diagnostic = Diagnostic::new(
                Code::DC0501,
                first,
                format!(
                    "{cells} floor cell{} of this vault cannot be reached from its edges, exits or stairs in {} of {} outcomes ({share:.0}%), for example with seed {}: open a way in, or make the transforms that close it keep a path (levkit preview --level {} --seed {})",
                    if cells == 1 { "" } else { "s" },
                    pocket.seeds_isolated,
                    pocket.seeds,
                    pocket.example,
                    program.name,
                    pocket.example,
                ),
            );
            for &cell in pocket.cells.iter().skip(1).take(32) {
                if let Some(range) = cell_range(cell) {
                    diagnostic = diagnostic.with_label(range, "also walled off");
                }
            }
            Some(diagnostic)
        })
        .collect()
}
