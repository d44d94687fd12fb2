//! `cargo xtask codegen`: the files generated from other sources.
//!
//! - `crates/model/src/nethack/tables.rs`, from the NetHack 3.4.3 tables in the corpus
//!   (skipped, loudly, when the corpus is absent);
//! - `crates/model/src/dcss/tables.rs`, from the DCSS 0.28.0 tables in the corpus and in
//!   `test-data/dcss-des/tables` (skipped, loudly, when the corpus is absent);
//! - `docs/diagnostics.md`, from the diagnostic catalog in `crates/diagnostics`;
//! - the editors' dialect table (`editors/vscode/src/generated/dialects.ts`,
//!   `editors/nvim/lua/levkit/dialects.lua`) and the cases their fallback detectors are tested
//!   with (`test-data/dialects/detection-cases.json`), from `Dialect` and `DETECTION` in
//!   `crates/syntax/src/dialect.rs`;
//! - the preview protocol: `docs/preview.schema.json` (derived by schemars from the types of
//!   `crates/ide/src/preview.rs`), and from it `editors/vscode/src/generated/preview.d.ts` and
//!   `docs/preview-protocol.md`.
//!
//! In check mode nothing is written; a stale file is an error.

mod dcss_tables;
mod diagnostics;
mod dialects;
mod preview;
mod table_text;
mod tables;

use std::path::{Path, PathBuf};

use crate::{corpus_dir, workspace_root};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Write,
    Check,
}

/// A generated file: its path relative to the workspace root, and what it should contain.
struct Generated {
    path: &'static str,
    contents: String,
}

pub const TABLES_PATH: &str = "crates/model/src/nethack/tables.rs";
pub const DIAGNOSTICS_PATH: &str = "docs/diagnostics.md";
pub const DCSS_TABLES_PATH: &str = "crates/model/src/dcss/tables.rs";

/// Where the DCSS 0.28.0 tables are in the corpus.
pub fn dcss_tables_dir(corpus: &Path) -> PathBuf {
    corpus.join("dcss-0.28.0/tables")
}

/// Where the project's own DCSS 0.28.0 tables are (the values of spec modifiers).
pub fn dcss_project_tables_dir() -> PathBuf {
    workspace_root().join("test-data/dcss-des/tables")
}

/// Where the NetHack 3.4.3 tables are in the corpus.
pub fn tables_dir(corpus: &Path) -> PathBuf {
    corpus.join("nethack-3.4.3/golden/tables")
}

pub fn run(mode: Mode) -> Result<(), String> {
    let root = workspace_root();
    let mut stale = Vec::new();
    for file in generate()? {
        let target = root.join(file.path);
        let current = std::fs::read_to_string(&target).ok();
        if current.as_deref() == Some(file.contents.as_str()) {
            continue;
        }
        match mode {
            Mode::Check => stale.push(format!(
                "{} is not up to date: run `cargo xtask codegen`",
                file.path
            )),
            Mode::Write => {
                if let Some(dir) = target.parent() {
                    std::fs::create_dir_all(dir)
                        .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
                }
                std::fs::write(&target, &file.contents)
                    .map_err(|e| format!("cannot write {}: {e}", file.path))?;
                eprintln!("wrote {}", file.path);
            }
        }
    }
    if stale.is_empty() {
        Ok(())
    } else {
        Err(stale.join("\n"))
    }
}

/// Every generated file whose sources are available.
fn generate() -> Result<Vec<Generated>, String> {
    let mut files = vec![
        Generated {
            path: DIAGNOSTICS_PATH,
            contents: diagnostics::generate(),
        },
        Generated {
            path: dialects::TYPESCRIPT_PATH,
            contents: dialects::typescript(),
        },
        Generated {
            path: dialects::LUA_PATH,
            contents: dialects::lua(),
        },
        Generated {
            path: dialects::CASES_PATH,
            contents: dialects::cases(&workspace_root())?,
        },
    ];
    let schema = preview::schema();
    files.extend([
        Generated {
            path: preview::SCHEMA_PATH,
            contents: preview::schema_file(&schema)?,
        },
        Generated {
            path: preview::TYPESCRIPT_PATH,
            contents: preview::typescript(&schema)?,
        },
        Generated {
            path: preview::DOCS_PATH,
            contents: preview::docs(&schema)?,
        },
    ]);
    let dir = tables_dir(&corpus_dir());
    if dir.is_dir() {
        files.push(Generated {
            path: TABLES_PATH,
            contents: tables::generate(&dir)?,
        });
    } else {
        skip_notice(&dir);
    }
    let dir = dcss_tables_dir(&corpus_dir());
    if dir.is_dir() {
        files.push(Generated {
            path: DCSS_TABLES_PATH,
            contents: dcss_tables::generate(&dir, &dcss_project_tables_dir())?,
        });
    } else {
        skip_notice(&dir);
    }
    Ok(files)
}

fn skip_notice(dir: &Path) {
    eprintln!(
        "\n**********************************************************************\n\
         *** SKIPPED: a table file was not generated or checked:\n\
         *** the tables are not at {}\n\
         *** (set LEVKIT_CORPUS to the corpus directory)\n\
         **********************************************************************\n",
        dir.display()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Like rust-analyzer's sourcegen tests: fails when a generated file is stale, so that
    /// `cargo test` alone catches a forgotten `cargo xtask codegen`.
    #[test]
    fn generated_files_are_up_to_date() {
        if let Err(message) = run(Mode::Check) {
            panic!("{message}");
        }
    }

    /// The generated tables are emitted already formatted; `rustfmt` must leave them as they
    /// are, or `cargo fmt --check` and `cargo xtask codegen --check` would disagree.
    #[test]
    fn generated_tables_are_rustfmt_clean() {
        let dir = tables_dir(&corpus_dir());
        let dcss = dcss_tables_dir(&corpus_dir());
        if !dir.is_dir() || !dcss.is_dir() {
            skip_notice(&dir);
            return;
        }
        for source in [
            tables::generate(&dir).expect("the tables are readable"),
            dcss_tables::generate(&dcss, &dcss_project_tables_dir())
                .expect("the DCSS tables are readable"),
        ] {
            check_rustfmt_clean(&source);
        }
    }

    fn check_rustfmt_clean(source: &str) {
        use std::io::Write as _;
        use std::process::{Command, Stdio};

        let child = Command::new("rustfmt")
            .args(["--edition", "2024", "--emit", "stdout"])
            .current_dir(workspace_root())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn();
        let Ok(mut child) = child else {
            eprintln!(
                "\n*** SKIPPED: rustfmt is not installed; generated formatting not checked ***\n"
            );
            return;
        };
        child
            .stdin
            .take()
            .expect("piped stdin")
            .write_all(source.as_bytes())
            .expect("rustfmt reads its input");
        let output = child.wait_with_output().expect("rustfmt runs");
        assert!(
            output.status.success(),
            "rustfmt rejected the generated tables"
        );
        let formatted = String::from_utf8(output.stdout).expect("rustfmt writes UTF-8");
        if formatted != source {
            let line = formatted
                .lines()
                .zip(source.lines())
                .position(|(a, b)| a != b)
                .map_or(formatted.lines().count().min(source.lines().count()), |i| i);
            panic!(
                "rustfmt changes the generated tables, first at line {}:\n  generated: {:?}\n  rustfmt:   {:?}",
                line + 1,
                source.lines().nth(line),
                formatted.lines().nth(line)
            );
        }
    }
}
