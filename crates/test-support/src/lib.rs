//! What levkit's tests share: where the corpus and the fixtures are, and a record of the test
//! groups that could not run.
//!
//! Fixtures live in `test-data/<language id>/<kind>/`, one folder per editor language
//! ([`Dialect::language_id`]), so a harness that walks [`fixture_files`] covers every dialect
//! that has fixtures, and [`Dialect::from_language_id`] gives each file its dialect.
//!
//! The corpus is `$LEVKIT_CORPUS`, else `../shared/corpus` beside the workspace. A test that
//! needs it and cannot find it says so loudly and is recorded as skipped; with
//! `LEVKIT_REQUIRE_CORPUS=1` (as CI sets) it fails instead.

use std::io::Write;
use std::path::{Path, PathBuf};

use levkit_syntax::Dialect;

/// The workspace's root folder.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `test-data/`.
pub fn test_data() -> PathBuf {
    workspace_root().join("test-data")
}

/// The corpus folder `name` (such as `nethack-3.4.3`), or `None` when the corpus is absent,
/// after saying so and recording `group` as skipped. Panics when the corpus is required.
pub fn corpus(name: &str, group: &str) -> Option<PathBuf> {
    let root = std::env::var_os("LEVKIT_CORPUS")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("../shared/corpus"));
    let dir = root.join(name);
    if dir.is_dir() {
        return Some(dir);
    }
    let reason = format!("the corpus folder {} is missing", dir.display());
    if std::env::var_os("LEVKIT_REQUIRE_CORPUS").is_some_and(|v| v == "1") {
        panic!("{group}: {reason}, and LEVKIT_REQUIRE_CORPUS=1 requires it");
    }
    skipped(group, &reason);
    None
}

/// Says loudly that a test group did not run, and records it in `target/skipped-tests.txt`
/// for `cargo xtask ci` to list (and, under `CI=true`, to fail on).
pub fn skipped(group: &str, reason: &str) {
    eprintln!("\n*** SKIPPED {group}: {reason} ***\n");
    let record = workspace_root().join("target/skipped-tests.txt");
    if let Ok(mut file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(record)
    {
        let _ = writeln!(file, "{group}: {reason}");
    }
}

/// A fixture file and the dialect its folder gives it.
#[derive(Debug, Clone)]
pub struct Fixture {
    pub path: PathBuf,
    pub dialect: Dialect,
    /// The folder's language id.
    pub language: String,
}

/// Every file of `kind` fixtures (`parser`, `check`...) of every language folder, whose
/// extension is one of the folder's dialects' (expected outputs beside them are left out),
/// sorted by path.
pub fn fixture_files(kind: &str) -> Vec<Fixture> {
    let mut out = Vec::new();
    for language in languages() {
        let mut files = Vec::new();
        walk(&test_data().join(&language).join(kind), &mut files);
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let Some(dialect) = Dialect::from_language_id(&language, &path, &text) else {
                continue;
            };
            let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            if dialect.extensions().contains(&extension) {
                out.push(Fixture {
                    path,
                    dialect,
                    language: language.clone(),
                });
            }
        }
    }
    out
}

/// The language folders of `test-data/` (those named by an editor language id).
pub fn languages() -> Vec<String> {
    let ids = Dialect::language_ids();
    let mut out: Vec<String> = std::fs::read_dir(test_data())
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|name| ids.contains(&name.as_str()))
        .collect();
    out.sort();
    out
}

/// The files under `dir`, in every folder below it, whose extension is `extension`, sorted by
/// path.
pub fn files_with_extension(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    walk(dir, &mut files);
    files.retain(|path| path.extension().is_some_and(|e| e == extension));
    files
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, out);
        } else {
            out.push(path);
        }
    }
}
