//! `levkit preview`: a level as the game would build it for a seed, drawn as text, colours,
//! SVG, HTML, JSON or the golden-levels terrain format; a dungeon.def as an overview.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use levkit_diagnostics::Severity;
use levkit_generate::level::Place;
use levkit_generate::{dump, place, rng::Rng, special};
use levkit_ide::{CheckOptions, RootDatabase};
use levkit_render::{Picture, Source};

use crate::output::{self, FileReport};
use crate::{EXIT_ERRORS, EXIT_OK, EXIT_TROUBLE};

#[derive(Args)]
pub struct PreviewArgs {
    /// A NetHack level file (`.des`) or a dungeon description (`dungeon.def`).
    file: PathBuf,
    /// Which level of the file (default: the first).
    #[arg(long)]
    level: Option<String>,
    /// The game's random seed.
    #[arg(long, default_value_t = 1)]
    seed: u32,
    /// The level's depth (default: its place in the game's dungeon, or in the dungeon.def
    /// beside the file, or 10).
    #[arg(long)]
    depth: Option<i32>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Write the picture to this file instead of standard output.
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// With `--heatmap`: the seeds to build the level for, as `A..B` (inclusive).
    #[arg(long, value_parser = parse_seeds)]
    seeds: Option<(u32, u32)>,
    /// How often each square holds a monster, object or trap over `--seeds`: 21 rows of
    /// `0`-`9` (tenths of the seeds, `.` never), or JSON counts with `--format json`.
    #[arg(long, requires = "seeds")]
    heatmap: bool,
}

fn parse_seeds(text: &str) -> Result<(u32, u32), String> {
    let (a, b) = text
        .split_once("..")
        .ok_or("expected A..B, for example 1..1000")?;
    let a: u32 = a.parse().map_err(|_| format!("{a:?} is not a seed"))?;
    let b: u32 = b.parse().map_err(|_| format!("{b:?} is not a seed"))?;
    if a > b {
        return Err(format!("{a}..{b} is empty"));
    }
    Ok((a, b))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// 21 rows of the game's symbols.
    Text,
    /// The golden-levels format: terrain glyphs, then everything placed and the final state.
    Terrain,
    /// Text with the game's colours.
    Ansi,
    Svg,
    Html,
    /// Rows, legend, and every square's things with the source line that made them.
    Json,
    /// Coloured tiles, 8x12 pixels a square, without glyphs (needs `-o FILE`).
    Png,
}

pub fn run(args: &PreviewArgs) -> u8 {
    let bytes = match std::fs::read(&args.file) {
        Ok(bytes) => bytes,
        Err(error) => {
            eprintln!("levkit: cannot read {}: {error}", args.file.display());
            return EXIT_TROUBLE;
        }
    };
    let mut db = RootDatabase::default();
    let file = db.add_file(args.file.clone(), &bytes, None);
    let diagnostics = levkit_ide::diagnostics(&db, file);
    let text = file.text(&db).to_string();
    let report = FileReport {
        path: args.file.clone(),
        text: text.clone(),
        line_index: levkit_ide::line_index(&db, file).clone(),
        diagnostics: diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error && CheckOptions::default().wants(d))
            .cloned()
            .collect(),
    };
    if let Some(model) = levkit_ide::dungeon_model(&db, file) {
        let tables = model.tables();
        return match args.format {
            Format::Text => emit(args, &overview(&tables)),
            Format::Svg => emit(args, &overview_svg(&tables)),
            other => {
                eprintln!(
                    "levkit: a dungeon.def is drawn as text or svg, not {}",
                    other
                        .to_possible_value()
                        .map_or(String::new(), |v| v.get_name().to_string())
                );
                EXIT_TROUBLE
            }
        };
    }
    let Some(model) = levkit_ide::nethack_model(&db, file) else {
        eprintln!(
            "levkit: {} is not a NetHack level file; nothing to preview",
            args.file.display()
        );
        return EXIT_ERRORS;
    };
    let level = match &args.level {
        Some(name) => model
            .levels
            .iter()
            .find(|l| l.name.as_ref().is_some_and(|n| &n.value == name)),
        None => model.levels.first(),
    };
    let Some(level) = level else {
        let names: Vec<_> = model
            .levels
            .iter()
            .filter_map(|l| l.name.as_ref())
            .map(|n| n.value.as_str())
            .collect();
        eprintln!(
            "levkit: no level {:?} in {}; it has: {}",
            args.level.as_deref().unwrap_or(""),
            args.file.display(),
            names.join(", ")
        );
        return EXIT_TROUBLE;
    };
    if report.diagnostics.iter().any(|d| {
        level.range.contains_range(d.range)
            || !model.levels.iter().any(|l| l.range.contains_range(d.range))
    }) {
        eprint!("{}", output::human(&report, false));
        eprintln!("levkit: the level has errors; fix them to preview it");
        return EXIT_ERRORS;
    }
    let name = level
        .name
        .as_ref()
        .map_or("level", |n| n.value.as_str())
        .to_string();
    let (bytes, origins) = levkit_compile::nethack::compile_level_with_origins(level);
    let sp = match special::decode(&bytes) {
        Ok(sp) => sp,
        Err(error) => {
            eprintln!("levkit: internal error: the compiled level does not decode ({error})");
            return EXIT_TROUBLE;
        }
    };
    let mut place = place_of(&db, &args.file, &name);
    if let Some(depth) = args.depth {
        place.depth = depth;
        place.difficulty = depth;
    }
    if let (true, Some((first, last))) = (args.heatmap, args.seeds) {
        return emit(
            args,
            &heatmap(&sp, &name, &place, first, last, args.format == Format::Json),
        );
    }
    let loaded = special::load_special(&sp, &name, &mut Rng::new(args.seed), &place);
    let index = levkit_ide::line_index(&db, file).clone();
    let source = |origin: u32| -> Option<Source> {
        let at = origins.binary_search_by_key(&origin, |(o, _)| *o).ok()?;
        let range = origins[at].1;
        let lc = index.line_col_chars(&text, range.start());
        Some(Source {
            start: range.start().into(),
            end: range.end().into(),
            line: lc.line,
            column: lc.col,
        })
    };
    let mut picture = Picture::new(&loaded.level, &source);
    picture.notes = loaded
        .unsupported
        .iter()
        .map(|u| format!("not reproduced yet: {u}; the picture differs from the game's there"))
        .collect();
    let title = format!("{name}, seed {}, depth {}", args.seed, place.depth);
    if args.format == Format::Png {
        let Some(path) = &args.output else {
            eprintln!("levkit: --format png writes a file: add -o FILE.png");
            return EXIT_TROUBLE;
        };
        return match std::fs::write(path, picture.png()) {
            Ok(()) => EXIT_OK,
            Err(error) => {
                eprintln!("levkit: cannot write {}: {error}", path.display());
                EXIT_TROUBLE
            }
        };
    }
    let rendered = match args.format {
        Format::Text => picture.text(),
        Format::Terrain => dump::golden_text(&loaded.level, &name, args.seed, &place),
        Format::Ansi => picture.ansi(),
        Format::Svg => picture.svg(),
        Format::Html => picture.html(&title),
        Format::Png => String::new(),
        Format::Json => {
            let header = serde_json::json!({
                "level": name,
                "seed": args.seed,
                "depth": place.depth,
                "dungeon": place.dnum,
                "dlevel": place.dlevel,
            });
            let mut json = serde_json::to_string_pretty(&picture.json(header)).unwrap_or_default();
            json.push('\n');
            json
        }
    };
    for note in &picture.notes {
        if args.format != Format::Json && args.format != Format::Html {
            eprintln!("levkit: note: {note}");
        }
    }
    emit(args, &rendered)
}

/// Counts, over the seeds, how often each square gets a monster, an object or a trap.
fn heatmap(
    sp: &special::SpecialLevel,
    name: &str,
    place: &Place,
    first: u32,
    last: u32,
    json: bool,
) -> String {
    use levkit_generate::level::{COLNO, Event, ROWNO};
    use rayon::prelude::*;
    use std::io::IsTerminal;
    let total = u64::from(last - first) + 1;
    let bar = std::io::stderr()
        .is_terminal()
        .then(|| indicatif::ProgressBar::new(total).with_message(format!("building {name}")));
    let counts = (first..=last)
        .into_par_iter()
        .map(|seed| {
            let loaded = special::load_special(sp, name, &mut Rng::new(seed), place);
            let mut here = vec![0u32; COLNO * ROWNO];
            for p in &loaded.level.events {
                if matches!(
                    p.event,
                    Event::Monster(_) | Event::Object(_) | Event::Trap(_)
                ) {
                    let at = p.at.y as usize * COLNO + p.at.x as usize;
                    // A square counts once per seed, however many things it holds.
                    here[at] = 1;
                }
            }
            if let Some(bar) = &bar {
                bar.inc(1);
            }
            here
        })
        .reduce(
            || vec![0u32; COLNO * ROWNO],
            |a, b| a.iter().zip(&b).map(|(x, y)| x + y).collect(),
        );
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    if json {
        let rows: Vec<Vec<u32>> = counts.chunks(COLNO).map(<[u32]>::to_vec).collect();
        return serde_json::json!({ "level": name, "seeds": [first, last], "counts": rows })
            .to_string()
            + "\n";
    }
    let mut out = String::new();
    for row in counts.chunks(COLNO) {
        for &n in row {
            out.push(match n {
                0 => '.',
                n => char::from(b'0' + ((u64::from(n) * 9).div_ceil(total)).min(9) as u8),
            });
        }
        out.push('\n');
    }
    out
}

/// The level's place: the game's own dungeon for its levels, else the dungeon.def beside the
/// file, else a level 10 deep in the Dungeons of Doom.
fn place_of(db: &RootDatabase, file: &Path, name: &str) -> Place {
    if let Some(place) = place::stock_place(name) {
        return place;
    }
    let beside = file.parent().unwrap_or(Path::new(".")).join("dungeon.def");
    if let Ok(bytes) = std::fs::read(&beside) {
        let mut db = db.clone();
        let def = db.add_file(beside, &bytes, Some(levkit_syntax::Dialect::NethackDungeon));
        if let Some(model) = levkit_ide::dungeon_model(&db, def)
            && let Some(place) = place::place_in(&model.tables(), name)
        {
            return place;
        }
    }
    Place::doom(10)
}

/// The dungeons of a dungeon.def: their depth ranges, levels and branches.
fn overview(tables: &levkit_model::dungeon::Tables) -> String {
    let mut out = String::new();
    let mut first = 0;
    for dungeon in &tables.dungeons {
        let d = dungeon.depth;
        out.push_str(&format!(
            "{} — {} levels{}\n",
            dungeon.name,
            d.base,
            if d.rand > 0 {
                format!(" (+ up to {})", d.rand - 1)
            } else {
                String::new()
            }
        ));
        for level in &tables.levels[first..(first + dungeon.levels).min(tables.levels.len())] {
            let at = if level.at.base < 0 {
                format!("{} from the bottom", -level.at.base)
            } else {
                format!("level {}", level.at.base)
            };
            let range = if level.at.rand > 1 {
                format!(" .. +{}", level.at.rand - 1)
            } else {
                String::new()
            };
            let variants = if level.rndlevs > 0 {
                format!(" ({} variants)", level.rndlevs)
            } else {
                String::new()
            };
            out.push_str(&format!("  {:<10} {at}{range}{variants}\n", level.name));
        }
        first += dungeon.levels;
    }
    out.push_str("Branches\n");
    for b in &tables.branches {
        let kind = match b.kind {
            levkit_model::dungeon::BranchKind::Stair => {
                if b.up {
                    "stairs up"
                } else {
                    "stairs down"
                }
            }
            levkit_model::dungeon::BranchKind::Portal => "portal",
            levkit_model::dungeon::BranchKind::NoUp => "one-way (no way up)",
            levkit_model::dungeon::BranchKind::NoDown => "one-way (no way down)",
        };
        out.push_str(&format!(
            "  {:<22} at level {} ({kind})\n",
            b.name, b.at.base
        ));
    }
    out
}

/// The overview as a picture: one column per dungeon, its levels as boxes at their depth
/// (random ranges as taller boxes), and the branches listed underneath.
fn overview_svg(tables: &levkit_model::dungeon::Tables) -> String {
    const COLUMN: usize = 190;
    const ROW: usize = 16;
    let mut body = String::new();
    let mut first = 0;
    let mut tallest = 0;
    for (i, dungeon) in tables.dungeons.iter().enumerate() {
        let size = (dungeon.depth.base + (dungeon.depth.rand.max(1) - 1)).max(1) as usize;
        tallest = tallest.max(size);
        let x = 10 + i * COLUMN;
        body.push_str(&format!(
            "<text x=\"{x}\" y=\"20\" fill=\"#fff\" font-weight=\"bold\">{}</text>\n",
            escape(&dungeon.name)
        ));
        body.push_str(&format!(
            "<rect x=\"{x}\" y=\"30\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#666\"/>\n",
            COLUMN - 20,
            size * ROW
        ));
        for level in &tables.levels[first..(first + dungeon.levels).min(tables.levels.len())] {
            let start = |at: i64| if at < 0 { size as i64 + at } else { at - 1 };
            // A chained level sits relative to the level it is chained to.
            let top = match usize::try_from(level.chain)
                .ok()
                .and_then(|c| tables.levels.get(c))
            {
                Some(base) => start(base.at.base) + level.at.base,
                None => start(level.at.base),
            }
            .clamp(0, size as i64 - 1) as usize;
            let span = level.at.rand.max(1) as usize;
            body.push_str(&format!(
                "<g><title>{} at {}{}</title><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#246\" fill-opacity=\"0.45\" stroke=\"#69f\"/><text x=\"{}\" y=\"{}\" fill=\"#eee\">{}</text></g>\n",
                escape(&level.name),
                level.at.base,
                if span > 1 { format!(" (+{})", span - 1) } else { String::new() },
                x + 4,
                30 + top * ROW,
                COLUMN - 28,
                span * ROW,
                x + 8,
                30 + top * ROW + 12,
                escape(&level.name)
            ));
        }
        first += dungeon.levels;
    }
    let branches_y = 50 + tallest * ROW;
    for (i, b) in tables.branches.iter().enumerate() {
        body.push_str(&format!(
            "<text x=\"10\" y=\"{}\" fill=\"#ccc\">branch to {} at level {}{}</text>\n",
            branches_y + i * ROW,
            escape(&b.name),
            b.at.base,
            usize::try_from(b.chain)
                .ok()
                .and_then(|c| tables.levels.get(c))
                .map_or(String::new(), |l| format!(" after {}", escape(&l.name)))
        ));
    }
    let width = 20 + tables.dungeons.len().max(1) * COLUMN;
    let height = branches_y + tables.branches.len() * ROW + 10;
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"#111\"/>\n{body}</svg>\n"
    )
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn emit(args: &PreviewArgs, text: &str) -> u8 {
    match &args.output {
        None => {
            // A closed pipe (`| head`) is not an error worth a panic.
            let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), text.as_bytes());
            EXIT_OK
        }
        Some(path) => match std::fs::write(path, text) {
            Ok(()) => EXIT_OK,
            Err(error) => {
                eprintln!("levkit: cannot write {}: {error}", path.display());
                EXIT_TROUBLE
            }
        },
    }
}
