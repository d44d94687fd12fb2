//! `levkit check`: find the files, analyse them in parallel, print, and choose the exit code.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, ValueEnum};
use levkit_diagnostics::{Diagnostic, Severity};
use levkit_ide::{CheckOptions, RootDatabase};
use levkit_syntax::Dialect;
use rayon::prelude::*;

use crate::output::{self, FileReport};
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
    #[arg(long, value_enum, default_value_t = DialectArg::Auto)]
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
    // Files named on the command line are always checked; files found in a directory by a
    // loose extension (`.txt`) only when they are RLG327 descriptions.
    let mut explicit = Vec::new();
    for path in &args.paths {
        if path.is_dir() {
            trouble |= collect_dir(path, &mut paths);
        } else {
            explicit.push(path.clone());
            paths.push(path.clone());
        }
    }

    let contents: Vec<(PathBuf, std::io::Result<Vec<u8>>)> = paths
        .into_par_iter()
        .map(|p| {
            let bytes = std::fs::read(&p);
            (p, bytes)
        })
        .collect();
    let mut db = RootDatabase::default();
    let mut files = Vec::new();
    for (path, bytes) in contents {
        match bytes {
            Ok(bytes) => {
                let loose = !explicit.contains(&path)
                    && path
                        .extension()
                        .is_some_and(|e| e.eq_ignore_ascii_case("txt"));
                let file = db.add_file(path, &bytes, args.dialect.forced());
                let description = matches!(
                    levkit_ide::dialect(&db, file),
                    Dialect::Rlg327Monster | Dialect::Rlg327Object
                );
                if !loose || description {
                    files.push(file);
                }
            }
            Err(error) => {
                eprintln!("levkit: cannot read {}: {error}", path.display());
                trouble = true;
            }
        }
    }

    let options = CheckOptions {
        extra_warnings: args.extra_warnings,
    };
    let color = match args.color {
        ColorArg::Always => true,
        ColorArg::Never => false,
        ColorArg::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    };
    let progress = progress_bar(files.len());
    // Per-file analysis first, in parallel; the links between files then reuse its models.
    let per_file: Vec<Vec<Diagnostic>> = files
        .par_iter()
        .map_with(db.clone(), |db, &file| {
            let diagnostics = levkit_ide::diagnostics(db, file).clone();
            progress.inc(1);
            diagnostics
        })
        .collect();
    let workspace = levkit_ide::Workspace::new(&db, files.clone());
    let links = levkit_ide::link_diagnostics(&db, workspace);
    let reports: Vec<FileReport> = files
        .iter()
        .zip(per_file)
        .map(|(&file, own)| {
            let mut diagnostics: Vec<Diagnostic> = own
                .into_iter()
                .chain(
                    links
                        .iter()
                        .filter(|(f, _)| *f == file)
                        .map(|(_, d)| d.clone()),
                )
                .filter(|d| options.wants(d))
                .collect();
            levkit_diagnostics::sort(&mut diagnostics);
            FileReport {
                path: file.path(&db).to_path_buf(),
                text: file.text(&db).to_string(),
                line_index: levkit_ide::line_index(&db, file).clone(),
                diagnostics,
            }
        })
        .collect();
    progress.finish_and_clear();

    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let written = match args.format {
        Format::Human => reports
            .iter()
            .try_for_each(|r| out.write_all(output::human(r, color).as_bytes())),
        Format::Json => reports
            .iter()
            .try_for_each(|r| out.write_all(output::json_lines(r).as_bytes())),
        Format::Github => reports
            .iter()
            .try_for_each(|r| out.write_all(output::github(r).as_bytes())),
        Format::Sarif => out.write_all(output::sarif(&reports).as_bytes()),
    };
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
    let mut trouble = false;
    let mut found = Vec::new();
    for entry in ignore::WalkBuilder::new(dir).require_git(false).build() {
        match entry {
            Ok(entry) => {
                let path = entry.path();
                if entry.file_type().is_some_and(|t| t.is_file())
                    && Dialect::is_candidate_path(path)
                {
                    found.push(path.to_path_buf());
                }
            }
            Err(error) => {
                eprintln!("levkit: {error}");
                trouble = true;
            }
        }
    }
    found.sort();
    paths.extend(found);
    trouble
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
