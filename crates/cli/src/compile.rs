//! `levkit compile` and `levkit inspect`: levels to the files the game loads, and back.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use levkit_diagnostics::Severity;
use levkit_ide::{CheckOptions, RootDatabase, SourceFile};
use rayon::prelude::*;

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
    /// What to produce: the game's files, or (for RLG327 descriptions) a print-out or JSON on
    /// standard output.
    #[arg(long, value_enum, default_value_t = Emit::Files)]
    emit: Emit,
    /// With `--emit print`: reproduce the course reference parser's print-out byte for byte.
    #[arg(long)]
    compat: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Emit {
    /// `.lev` files and `dungeon`, written to `--out`.
    Files,
    /// The definitions as the RLG327 assignment prints them.
    Print,
    /// The definitions as JSON.
    Json,
}

/// What compiling one source file did, to be printed in order.
struct Outcome {
    messages: String,
    status: u8,
}

pub fn run(args: &CompileArgs) -> u8 {
    if args.emit != Emit::Files {
        return emit_descriptions(args);
    }
    if let Err(error) = std::fs::create_dir_all(&args.out) {
        eprintln!("levkit: cannot create {}: {error}", args.out.display());
        return EXIT_TROUBLE;
    }
    let mut db = RootDatabase::default();
    let mut status = EXIT_OK;
    let mut files = Vec::new();
    for path in &args.files {
        match std::fs::read(path) {
            Ok(bytes) => files.push(db.add_file(path.clone(), &bytes, args.dialect.forced())),
            Err(error) => {
                eprintln!("levkit: cannot read {}: {error}", path.display());
                status = EXIT_TROUBLE;
            }
        }
    }
    let outcomes: Vec<Outcome> = files
        .par_iter()
        .map_with(db.clone(), |db, &file| compile_one(db, file, &args.out))
        .collect();
    let mut stderr = std::io::stderr().lock();
    for outcome in outcomes {
        let _ = stderr.write_all(outcome.messages.as_bytes());
        status = status.max(outcome.status);
    }
    status
}

fn compile_one(db: &RootDatabase, file: SourceFile, out: &Path) -> Outcome {
    let path = file.path(db);
    let diagnostics = levkit_ide::diagnostics(db, file);
    let report = FileReport {
        path: path.to_path_buf(),
        text: file.text(db).to_string(),
        line_index: levkit_ide::line_index(db, file).clone(),
        diagnostics: diagnostics
            .iter()
            .filter(|d| CheckOptions::default().wants(d))
            .cloned()
            .collect(),
    };
    let mut outcome = Outcome {
        messages: output::human(&report, false),
        status: EXIT_OK,
    };
    let fail = |outcome: &mut Outcome, status: u8, message: String| {
        outcome.messages.push_str(&message);
        outcome.messages.push('\n');
        outcome.status = outcome.status.max(status);
    };
    let has_errors = diagnostics.iter().any(|d| d.severity == Severity::Error);
    let mut outputs: Vec<(String, Option<Vec<u8>>)> = Vec::new();
    if let Some(model) = levkit_ide::dungeon_model(db, file) {
        // dgn_comp names its output after the input without its extension.
        let name = path
            .file_stem()
            .map_or_else(|| "dungeon".into(), |s| s.to_string_lossy().into_owned());
        outputs.push((
            name,
            (!has_errors).then(|| levkit_compile::dungeon::compile(model)),
        ));
    } else if let Some(model) = levkit_ide::nethack_model(db, file) {
        // An error outside every level (before the first one) stops the whole file.
        let file_errors = diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .any(|d| !model.levels.iter().any(|l| l.range.contains_range(d.range)));
        for level in levkit_compile::nethack::compile_file(model, diagnostics) {
            if let Some(name) = level.file_name {
                outputs.push((name, level.bytes.filter(|_| !file_errors)));
            }
        }
    } else {
        let message = format!(
            "levkit: {} is neither a NetHack level file nor a dungeon description; nothing to compile",
            path.display()
        );
        fail(&mut outcome, EXIT_ERRORS, message);
    }
    for (name, bytes) in outputs {
        let target = out.join(&name);
        match bytes {
            Some(bytes) => {
                if let Err(error) = write_atomically(&target, &bytes) {
                    fail(
                        &mut outcome,
                        EXIT_TROUBLE,
                        format!("levkit: cannot write {}: {error}", target.display()),
                    );
                }
            }
            None => fail(
                &mut outcome,
                EXIT_ERRORS,
                format!(
                    "levkit: {name} not written: its source in {} has errors",
                    path.display()
                ),
            ),
        }
    }
    outcome
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

/// `--emit print|json`: RLG327 descriptions to standard output.
fn emit_descriptions(args: &CompileArgs) -> u8 {
    use levkit_model::rlg327::{Dice, FieldValue};
    let mut status = EXIT_OK;
    let mut out = String::new();
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
        let Some(model) = levkit_ide::rlg327_model(&db, file) else {
            eprintln!(
                "levkit: {} is not an RLG327 description file; --emit {} is for those",
                path.display(),
                if args.emit == Emit::Json {
                    "json"
                } else {
                    "print"
                }
            );
            status = status.max(EXIT_ERRORS);
            continue;
        };
        let diagnostics = levkit_ide::diagnostics(&db, file);
        if args.compat {
            out.push_str(&levkit_compile::rlg327::print_compat(&bytes, model.kind));
            continue;
        }
        if args.emit == Emit::Print {
            out.push_str(&levkit_compile::rlg327::print(model, diagnostics));
            continue;
        }
        let entries: Vec<serde_json::Value> = levkit_compile::rlg327::valid_entries(model, diagnostics)
            .into_iter()
            .map(|entry| {
                let mut object = serde_json::Map::new();
                for &keyword in model.kind.fields() {
                    let Some(field) = entry.field(keyword) else { continue };
                    let value = match &field.value {
                        FieldValue::Desc { lines, .. } => serde_json::json!(lines.iter().map(|l| l.value.as_str()).collect::<Vec<_>>().join("\n")),
                        FieldValue::Text(text) => serde_json::json!(text.value),
                        FieldValue::Words(words) => match (keyword, words.as_slice()) {
                            (k, [w]) if model.kind.dice_fields().contains(&k) => match Dice::parse(&w.value) {
                                Some(d) => serde_json::json!({ "base": d.base, "count": d.count, "sides": d.sides }),
                                None => serde_json::json!(w.value),
                            },
                            ("COLOR" | "ABIL", _) => serde_json::json!(words.iter().map(|w| w.value.as_str()).collect::<Vec<_>>()),
                            ("RRTY", [w]) => serde_json::json!(w.value.parse::<i64>().ok()),
                            ("ART", [w]) => serde_json::json!(w.value == "TRUE"),
                            (_, [w]) => serde_json::json!(w.value),
                            _ => serde_json::Value::Null,
                        },
                    };
                    object.insert(keyword.to_lowercase(), value);
                }
                serde_json::Value::Object(object)
            })
            .collect();
        out.push_str(&serde_json::json!({ "file": path.display().to_string(), "kind": model.kind.word().to_lowercase(), "entries": entries }).to_string());
        out.push('\n');
    }
    print!("{out}");
    status
}
