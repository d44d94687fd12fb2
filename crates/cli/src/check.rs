//! `levkit check`: find the files, analyse them in parallel, print, and choose the exit code.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, ValueEnum};
use levkit_diagnostics::Severity;
use levkit_ide::{AnalysisHost, AnalysisOptions, Decoded};

use levkit_files::Skip;

use crate::output::{self, FileReport};
use crate::parallel::map_files;
use crate::{DialectArg, EXIT_ERRORS, EXIT_OK, EXIT_TROUBLE};

#[derive(Args)]
pub struct CheckArgs {
    /// Files or directories to check.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Also report lev_comp's `-w` warnings.
    #[arg(short = 'W', long = "extra-warnings")]
    extra_warnings: bool,
    /// Also build every DCSS vault for 64 seeds and warn where some outcome walls off floor
    /// (DC0501).
    #[arg(long)]
    reachability: bool,
    #[arg(long, default_value = "auto", value_parser = DialectArg::parser())]
    dialect: DialectArg,
    /// Colours in human output (NO_COLOR is honoured by `auto`).
    #[arg(long, value_enum, default_value_t = ColorArg::Auto)]
    color: ColorArg,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Source snippets with the problem underlined.
    Human,
    /// JSON Lines: one object per diagnostic.
    Json,
    /// GitHub Actions workflow annotations.
    Github,
    /// SARIF 2.1.0.
    Sarif,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    Auto,
    Always,
    Never,
}

pub fn run(args: &CheckArgs) -> u8 {
    let started = Instant::now();
    let mut trouble = false;
    let mut paths = Vec::new();
    // Files named on the command line are always checked; files found in a directory only
    // when they are regular files of a sensible size, and `.txt` ones only when they are
    // RLG327 descriptions (see `levkit_files`).
    let mut explicit = Vec::new();
    for path in &args.paths {
        if path.is_dir() {
            trouble |= collect_dir(path, &mut paths);
        } else {
            explicit.push(path.clone());
            paths.push(path.clone());
        }
    }

    crate::huge_pages_for(&paths);
    let contents: Vec<(&PathBuf, Result<Decoded, Skip>)> = map_files(&paths, (), |(), p| {
        let bytes = if explicit.contains(p) {
            levkit_files::read_named(p)
        } else {
            levkit_files::read_found(p, args.dialect.forced())
        };
        (p, bytes.map(Decoded::new))
    });
    let mut host = AnalysisHost::new();
    host.set_options(AnalysisOptions {
        extra_warnings: args.extra_warnings,
        reachability: args.reachability,
    });
    let mut files = Vec::new();
    for (path, bytes) in contents {
        match bytes {
            Ok(decoded) => {
                let file = host.set_file_decoded(path.clone(), decoded);
                host.set_dialect_override(file, args.dialect.forced());
                files.push(file);
            }
            Err(Skip::Io(error)) => {
                eprintln!("levkit: cannot read {}: {error}", path.display());
                trouble = true;
            }
            Err(skip) if explicit.contains(path) => {
                eprintln!("levkit: cannot check {}: {skip}", path.display());
                trouble = true;
            }
            Err(skip) if skip.is_worth_saying() => {
                eprintln!("levkit: skipped {}: {skip}", path.display());
            }
            Err(_) => {}
        }
    }

    let color = match args.color {
        ColorArg::Always => true,
        ColorArg::Never => false,
        ColorArg::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    };
    let progress = progress_bar(files.len());
    let analysis = host.analysis();
    let reports: Vec<FileReport> = analysis
        .diagnostics_of_all(&files, &|| progress.inc(1))
        .and_then(|all| {
            files
                .iter()
                .zip(all)
                .map(|(&file, diagnostics)| FileReport::new(&analysis, file, diagnostics))
                .collect()
        })
        .unwrap_or_default();
    progress.finish_and_clear();
    // The process ends after the report: freeing the analysis (every file's trees and
    // results) would only cost time.
    std::mem::forget(host);

    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    // Each file's report is formatted on all cores, then written in order (rendering the
    // source snippets took 4 ms of a 100 ms DCSS corpus check on one core).
    let each_file = |format: &(dyn Fn(&FileReport) -> String + Sync)| -> Vec<String> {
        map_files(&reports, (), |(), report| format(report))
    };
    let texts = match args.format {
        Format::Human => each_file(&|r| output::human(r, color)),
        Format::Json => each_file(&output::json_lines),
        Format::Github => each_file(&output::github),
        Format::Sarif => vec![output::sarif(&reports)],
    };
    let written = texts
        .iter()
        .try_for_each(|text| out.write_all(text.as_bytes()));
    if written.is_err() {
        return EXIT_TROUBLE;
    }

    let count = |severity| {
        reports
            .iter()
            .flat_map(|r| &r.diagnostics)
            .filter(|d| d.severity == severity)
            .count()
    };
    let (errors, warnings) = (count(Severity::Error), count(Severity::Warning));
    eprintln!(
        "levkit: checked {} file{}: {errors} error{}, {warnings} warning{} ({:.2}s)",
        reports.len(),
        plural(reports.len()),
        plural(errors),
        plural(warnings),
        started.elapsed().as_secs_f64()
    );
    if trouble {
        EXIT_TROUBLE
    } else if errors > 0 {
        EXIT_ERRORS
    } else {
        EXIT_OK
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Adds the level files under `dir` (respecting .gitignore) in a stable order; true on trouble.
fn collect_dir(dir: &Path, paths: &mut Vec<PathBuf>) -> bool {
    let (found, errors) = levkit_files::walk(dir);
    for error in &errors {
        eprintln!("levkit: {error}");
    }
    paths.extend(found);
    !errors.is_empty()
}

/// A progress bar on a terminal for large checks; hidden when stderr is not a terminal.
fn progress_bar(len: usize) -> indicatif::ProgressBar {
    if len < 200 || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len as u64);
    if let Ok(style) = indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} files") {
        bar.set_style(style);
    }
    bar
}
