//! `levkit preview`: what a file looks like in the game, as the analysis previews it (the same
//! preview the language server sends the editors), drawn as text, colours, SVG, HTML, PNG,
//! JSON or the golden-levels terrain format.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use levkit_diagnostics::Severity;
use levkit_ide::{AnalysisHost, FileId, Preview, PreviewRequest};

use crate::output::{self, FileReport};
use crate::{EXIT_ERRORS, EXIT_OK, EXIT_TROUBLE};

#[derive(Args)]
pub struct PreviewArgs {
    /// A NetHack level file (`.des`), a dungeon description (`dungeon.def`) or a DCSS vault
    /// file (`.des`).
    file: PathBuf,
    /// Which level (or vault) of the file (default: the first).
    #[arg(long, conflicts_with = "all")]
    level: Option<String>,
    /// Every level (or vault) of the file, one after the other; with `--format json`, one
    /// JSON object per line, each with its `notes`.
    #[arg(long, conflicts_with_all = ["watch", "serve", "heatmap", "output"])]
    all: bool,
    /// The player's place, for levels that depend on it (DCSS vaults): `D:5`, `Lair:2`...
    /// (default: the first place the vault's DEPTH or PLACE allows).
    #[arg(long)]
    place: Option<String>,
    /// The game's random seed.
    #[arg(long, default_value_t = 1)]
    seed: u32,
    /// The level's depth (default: its place in the game's dungeon, or in the dungeon.def
    /// beside the file, or 10). The Elemental Planes are at negative depths (-1 to -5).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_depth)]
    depth: Option<i32>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Write the picture to this file instead of standard output.
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// The seeds to build the level for, as `A..B` (inclusive): with `--heatmap`, for its
    /// counts; with `--format json`, the preview's heat layers are sampled over them.
    #[arg(long, value_parser = parse_seeds)]
    seeds: Option<(u32, u32)>,
    /// How often each square holds a monster, object or trap over `--seeds`: 21 rows of
    /// `0`-`9` (tenths of the seeds, `.` never), or JSON counts with `--format json`.
    #[arg(long, requires = "seeds")]
    heatmap: bool,
    /// Redraw in the terminal (in colour, unless `--format text`) whenever the file changes.
    #[arg(long, conflicts_with_all = ["serve", "heatmap", "output"])]
    watch: bool,
    /// Serve the live preview page (the VS Code panel's) on a loopback port; the browser
    /// redraws whenever the file changes.
    #[arg(long, conflicts_with_all = ["heatmap", "output"])]
    serve: bool,
    /// The port `--serve` listens on, on 127.0.0.1 (0: any free port).
    #[arg(long, default_value_t = 0, requires = "serve")]
    port: u16,
}

/// A depth the game can have: 1 and deeper (127 at most: the game keeps depths in a signed
/// byte), or -1 to -5 for the Elemental Planes.
fn parse_depth(text: &str) -> Result<i32, String> {
    let depth: i32 = text
        .parse()
        .map_err(|_| format!("{text:?} is not a whole number"))?;
    match depth {
        1..=127 | -5..=-1 => Ok(depth),
        0 => Err("there is no level at depth 0: the dungeon starts at 1, and the Elemental Planes are at -1 to -5".into()),
        ..=-6 => Err(format!("there is no level at depth {depth}: the Elemental Planes, the only levels above the surface, are at -1 to -5")),
        _ => Err(format!("{depth} is deeper than the game can go (127 at most)")),
    }
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
    /// The map as resolved for the seed in the source's glyphs, before it is mirrored or
    /// turned (a DCSS vault: what `map()` answers in its `validate` chunk).
    Map,
}

pub fn run(args: &PreviewArgs) -> u8 {
    if args.watch || args.serve {
        if let Err(error) = std::fs::metadata(&args.file) {
            eprintln!("levkit: cannot read {}: {error}", args.file.display());
            return EXIT_TROUBLE;
        }
        let session = crate::live::Session {
            file: args.file.clone(),
            request: PreviewRequest {
                level: args.level.clone(),
                seed: args.seed,
                depth: args.depth,
                place: args.place.clone(),
                ..PreviewRequest::default()
            },
        };
        return if args.serve {
            crate::live::serve(session, args.port)
        } else {
            crate::live::watch(&session, args.format != Format::Text)
        };
    }
    let bytes = match levkit_files::read_named(&args.file) {
        Ok(bytes) => bytes,
        Err(error) => {
            eprintln!("levkit: cannot read {}: {error}", args.file.display());
            return EXIT_TROUBLE;
        }
    };
    let mut host = AnalysisHost::new();
    let file = host.set_file_bytes(args.file.clone(), &bytes);
    add_preview_inputs(&mut host, file);
    let analysis = host.analysis();
    let request = PreviewRequest {
        level: args.level.clone(),
        seed: args.seed,
        depth: args.depth,
        terrain: args.format == Format::Terrain,
        sample: args
            .seeds
            .filter(|_| !args.heatmap && args.format == Format::Json),
        place: args.place.clone(),
        map: args.format == Format::Map,
        ..PreviewRequest::default()
    };
    let Ok(preview) = analysis.preview(file, &request) else {
        return EXIT_TROUBLE;
    };
    if args.all {
        return all_levels(args, &analysis, file, &request, preview);
    }
    match preview {
        Preview::Level(level) => {
            if let Some(name) = &args.level
                && &level.level != name
            {
                eprintln!(
                    "levkit: no level {name:?} in {}; it has: {}",
                    args.file.display(),
                    level.levels.join(", ")
                );
                return EXIT_TROUBLE;
            }
            let Some(picture) = level.picture.as_ref() else {
                if let Ok(report) = FileReport::of(&analysis, file) {
                    let errors = FileReport {
                        diagnostics: report
                            .diagnostics
                            .into_iter()
                            .filter(|d| d.severity == Severity::Error)
                            .collect(),
                        ..report
                    };
                    eprint!("{}", output::human(&errors, false));
                }
                eprintln!("levkit: the level has errors; fix them to preview it");
                // A script reading JSON still gets the level: its name, levels and the
                // sketch of its map parts, with no picture.
                if args.format == Format::Json {
                    emit(args, &json(&level));
                }
                return EXIT_ERRORS;
            };
            if let (true, Some(seeds)) = (args.heatmap, args.seeds) {
                return heatmap(args, &analysis, file, &request, &level.level, seeds);
            }
            if args.format == Format::Png {
                return write_png(args, &picture.png());
            }
            let rendered = render_level(args, &level, picture, false);
            if args.format != Format::Json && args.format != Format::Html {
                for note in &level.notes {
                    eprintln!("levkit: note: {note}");
                }
            }
            emit(args, &rendered)
        }
        Preview::Dungeon(dungeon) => match args.format {
            Format::Text | Format::Svg => {
                // What the JSON carries goes to standard error, as a level's notes do: the
                // first error of a broken text, whose overview is of what it says so far.
                if let Some(error) = &dungeon.error {
                    eprintln!("levkit: {error}");
                }
                for note in &dungeon.notes {
                    eprintln!("levkit: note: {note}");
                }
                emit(
                    args,
                    &if args.format == Format::Text {
                        dungeon.overview.text()
                    } else {
                        dungeon.overview.svg()
                    },
                )
            }
            Format::Json => emit(args, &json(&dungeon)),
            other => {
                eprintln!(
                    "levkit: a dungeon description is drawn as text, svg or json, not {}",
                    format_name(other)
                );
                EXIT_TROUBLE
            }
        },
        Preview::Cards(cards) => match args.format {
            Format::Json => emit(args, &json(&cards)),
            other => {
                eprintln!(
                    "levkit: descriptions preview as cards in --format json, not {}",
                    format_name(other)
                );
                EXIT_TROUBLE
            }
        },
        Preview::Nothing(nothing) => {
            eprintln!(
                "levkit: nothing to preview in {}: {}",
                args.file.display(),
                nothing.notes.join("; ")
            );
            EXIT_ERRORS
        }
    }
}

/// A built level in the chosen format (`compact` JSON: one line).
fn render_level(
    args: &PreviewArgs,
    level: &levkit_ide::LevelPreview,
    picture: &levkit_render::Picture,
    compact: bool,
) -> String {
    let title = level.title.clone().unwrap_or_else(|| level.level.clone());
    match args.format {
        Format::Png => String::new(),
        Format::Json if compact => serde_json::to_string(level).unwrap_or_default() + "\n",
        Format::Json => json(level),
        Format::Text => picture.text(),
        Format::Terrain => level.terrain.clone().unwrap_or_default(),
        Format::Map => level.map.clone().unwrap_or_else(|| picture.text()),
        Format::Ansi => picture.ansi(),
        Format::Svg => picture.svg(),
        Format::Html => picture.html(&title),
    }
}

/// `--all`: every level of the file in turn. A level that cannot be built is reported and
/// the others still printed; the exit status says whether any failed.
fn all_levels(
    args: &PreviewArgs,
    analysis: &levkit_ide::Analysis,
    file: FileId,
    request: &PreviewRequest,
    first: Preview,
) -> u8 {
    let Preview::Level(first) = first else {
        eprintln!(
            "levkit: --all previews the levels or vaults of a file; {} has none",
            args.file.display()
        );
        return EXIT_ERRORS;
    };
    if args.format == Format::Png {
        eprintln!("levkit: --all writes no PNG files; choose another --format");
        return EXIT_TROUBLE;
    }
    let compact = args.format == Format::Json;
    let mut status = EXIT_OK;
    let mut out = std::io::stdout().lock();
    for name in &first.levels {
        let request = PreviewRequest {
            level: Some(name.clone()),
            ..request.clone()
        };
        let Ok(Preview::Level(level)) = analysis.preview(file, &request) else {
            return EXIT_TROUBLE;
        };
        let text = match &level.picture {
            Some(picture) => render_level(args, &level, picture, compact),
            None if compact => serde_json::to_string(&*level).unwrap_or_default() + "\n",
            None => {
                status = EXIT_ERRORS;
                format!("levkit: {name} has errors; fix them to preview it\n")
            }
        };
        let heading = if compact {
            String::new()
        } else {
            let mut heading = format!("== {}\n", level.title.as_deref().unwrap_or(name));
            for note in &level.notes {
                heading.push_str(&format!("note: {note}\n"));
            }
            heading
        };
        // A closed pipe (`| head`) ends the listing quietly.
        if std::io::Write::write_all(&mut out, (heading + &text).as_bytes()).is_err() {
            break;
        }
    }
    status
}

fn format_name(format: Format) -> String {
    format
        .to_possible_value()
        .map_or(String::new(), |v| v.get_name().to_string())
}

/// The preview as the language server sends it (pretty-printed, without the document URI).
fn json(preview: &impl serde::Serialize) -> String {
    let mut json = serde_json::to_string_pretty(preview).unwrap_or_default();
    json.push('\n');
    json
}

/// Adds the files the analysis says the preview reads (a level's dungeon.def beside it), as
/// an editor's workspace would hold them.
pub(crate) fn add_preview_inputs(host: &mut AnalysisHost, file: FileId) {
    let inputs = host.analysis().preview_inputs(file).unwrap_or_default();
    for path in inputs {
        if let Ok(bytes) = levkit_files::read_found(&path, None) {
            host.set_file_bytes(path, &bytes);
        }
    }
}

fn write_png(args: &PreviewArgs, png: &[u8]) -> u8 {
    let Some(path) = &args.output else {
        eprintln!("levkit: --format png writes a file: add -o FILE.png");
        return EXIT_TROUBLE;
    };
    match std::fs::write(path, png) {
        Ok(()) => EXIT_OK,
        Err(error) => {
            eprintln!("levkit: cannot write {}: {error}", path.display());
            EXIT_TROUBLE
        }
    }
}

/// How often each square holds a monster, object or trap over the seeds.
fn heatmap(
    args: &PreviewArgs,
    analysis: &levkit_ide::Analysis,
    file: FileId,
    request: &PreviewRequest,
    name: &str,
    (first, last): (u32, u32),
) -> u8 {
    use std::io::IsTerminal;
    let total = u64::from(last - first) + 1;
    let bar = std::io::stderr()
        .is_terminal()
        .then(|| indicatif::ProgressBar::new(total).with_message(format!("building {name}")));
    let tick = || {
        if let Some(bar) = &bar {
            bar.inc(1);
        }
    };
    let heatmap = analysis.heatmap(file, request, (first, last), &tick);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    match heatmap {
        Ok(Some(heatmap)) if args.format == Format::Json => emit(
            args,
            &(serde_json::to_string(&heatmap).unwrap_or_default() + "\n"),
        ),
        Ok(Some(heatmap)) => emit(args, &heatmap.text()),
        _ => EXIT_ERRORS,
    }
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
