//! `levkit compile` and `levkit inspect`: levels to the files the game loads, and back.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use levkit_diagnostics::Severity;
use levkit_ide::{CheckOptions, RootDatabase};

use crate::output::{self, FileReport};
use crate::{DialectArg, EXIT_ERRORS, EXIT_OK, EXIT_TROUBLE};

#[derive(Args)]
pub struct CompileArgs {
    /// NetHack level files (`.des`) and dungeon descriptions (`dungeon.def`) to compile.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Where to write the compiled files (created if missing).
    #[arg(long, short, default_value = ".")]
    out: PathBuf,
    #[arg(long, value_enum, default_value_t = DialectArg::Auto)]
    dialect: DialectArg,
}

pub fn run(args: &CompileArgs) -> u8 {
    let mut status = EXIT_OK;
    if let Err(error) = std::fs::create_dir_all(&args.out) {
        eprintln!("levkit: cannot create {}: {error}", args.out.display());
        return EXIT_TROUBLE;
    }
    for path in &args.files {
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(error) => {
                eprintln!("levkit: cannot read {}: {error}", path.display());
                status = EXIT_TROUBLE;
                continue;
            }
        };
        let mut db = RootDatabase::default();
        let file = db.add_file(path.clone(), &bytes, args.dialect.forced());
        let diagnostics = levkit_ide::diagnostics(&db, file);
        let report = FileReport {
            path: path.clone(),
            text: file.text(&db).to_string(),
            line_index: levkit_ide::line_index(&db, file).clone(),
            diagnostics: diagnostics
                .iter()
                .filter(|d| CheckOptions::default().wants(d))
                .cloned()
                .collect(),
        };
        let _ = std::io::stderr().write_all(output::human(&report, false).as_bytes());
        let has_errors = diagnostics.iter().any(|d| d.severity == Severity::Error);
        if let Some(model) = levkit_ide::dungeon_model(&db, file) {
            // dgn_comp names its output after the input without its extension.
            let name = path
                .file_stem()
                .map_or_else(|| "dungeon".into(), |s| s.to_string_lossy().into_owned());
            if has_errors {
                eprintln!("levkit: {name} not written: {} has errors", path.display());
                status = status.max(EXIT_ERRORS);
            } else if let Err(error) = write_atomically(
                &args.out.join(&name),
                &levkit_compile::dungeon::compile(model),
            ) {
                eprintln!(
                    "levkit: cannot write {}: {error}",
                    args.out.join(&name).display()
                );
                return EXIT_TROUBLE;
            }
            continue;
        }
        let Some(model) = levkit_ide::nethack_model(&db, file) else {
            eprintln!(
                "levkit: {} is not a NetHack level file; nothing to compile",
                path.display()
            );
            status = status.max(EXIT_ERRORS);
            continue;
        };
        let file_errors = diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .any(|d| !model.levels.iter().any(|l| l.range.contains_range(d.range)));
        for level in levkit_compile::nethack::compile_file(model, diagnostics) {
            let Some(name) = level.file_name else {
                continue;
            };
            match level.bytes {
                Some(bytes) if !file_errors => {
                    if let Err(error) = write_atomically(&args.out.join(&name), &bytes) {
                        eprintln!(
                            "levkit: cannot write {}: {error}",
                            args.out.join(&name).display()
                        );
                        return EXIT_TROUBLE;
                    }
                }
                _ => {
                    eprintln!(
                        "levkit: {name} not written: its level in {} has errors",
                        path.display()
                    );
                    status = status.max(EXIT_ERRORS);
                }
            }
        }
    }
    status
}

/// Writes through a temporary file in the same directory and renames it into place, so a
/// reader never sees a half-written level and an older, longer file never leaves stale bytes.
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temporary = path.with_file_name(format!(".{file_name}.{}.tmp", std::process::id()));
    std::fs::write(&temporary, bytes)?;
    std::fs::rename(&temporary, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&temporary);
    })
}

pub fn inspect(path: &Path) -> u8 {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) => {
            eprintln!("levkit: cannot read {}: {error}", path.display());
            return EXIT_TROUBLE;
        }
    };
    match levkit_compile::nethack::inspect(&bytes) {
        Ok(text) => {
            print!("{text}");
            EXIT_OK
        }
        Err(error) => {
            print!("{}", error.partial);
            eprintln!(
                "levkit: {} is not a valid NetHack 3.4.3 level file: {error}",
                path.display()
            );
            EXIT_ERRORS
        }
    }
}
