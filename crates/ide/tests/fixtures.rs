//! Diagnostic fixtures: each file under a `test-data/<dialect>/check/` folder is analysed (with `-W`) and its
//! diagnostics compared with the `.diag` file beside it: code, severity, 1-based line:column
//! range, message, labels and fixes. `UPDATE_EXPECT=1 cargo test` rewrites them.

use std::path::{Path, PathBuf};

use levkit_ide::{RootDatabase, diagnostics};

fn fixtures(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            fixtures(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| e == "des" || e == "def" || e == "txt")
        {
            out.push(path);
        }
    }
}

#[test]
fn diagnostic_fixtures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test-data");
    let mut files = Vec::new();
    for dialect in ["nethack", "dungeon", "rlg327"] {
        fixtures(&root.join(dialect).join("check"), &mut files);
    }
    assert!(
        !files.is_empty(),
        "no diagnostic fixtures under {}",
        root.display()
    );
    let mut failed = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let mut db = RootDatabase::default();
        let file = db.add_file(path.clone(), &bytes, None);
        let actual = levkit_diagnostics::render_plain(file.text(&db), diagnostics(&db, file));
        let expected = path.with_extension("diag");
        let result =
            std::panic::catch_unwind(|| expect_test::expect_file![expected].assert_eq(&actual));
        if result.is_err() {
            failed.push(path.display().to_string());
        }
    }
    assert!(
        failed.is_empty(),
        "fixtures that differ:\n{}",
        failed.join("\n")
    );
}
