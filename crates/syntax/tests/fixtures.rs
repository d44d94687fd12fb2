//! Parser fixtures: each file under `test-data/<dialect>/parser/` is parsed and its tree and
//! syntax errors compared with the `.rast` file beside it. `UPDATE_EXPECT=1 cargo test`
//! rewrites them. Fixtures under an `err/` folder must have syntax errors and the others none
//! (RLG327 trees never carry syntax errors: the checks judge those files).

use std::path::{Path, PathBuf};

use levkit_syntax::{Dialect, parse};

/// Each dialect's fixture folder, the extension of its inputs, and how they are parsed.
const DIALECTS: &[(&str, &str, Dialect)] = &[
    ("nethack", "des", Dialect::NethackDes),
    ("dungeon", "def", Dialect::NethackDungeon),
    ("rlg327", "txt", Dialect::Rlg327Monster),
];

fn fixtures(dir: &Path, extension: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            fixtures(&path, extension, out);
        } else if path.extension().is_some_and(|e| e == extension) {
            out.push(path);
        }
    }
}

#[test]
fn parser_fixtures() {
    let mut failed = Vec::new();
    for &(folder, extension, dialect) in DIALECTS {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../test-data")
            .join(folder)
            .join("parser");
        let mut files = Vec::new();
        fixtures(&root, extension, &mut files);
        assert!(
            !files.is_empty(),
            "no parser fixtures under {}",
            root.display()
        );
        for path in &files {
            let text = std::fs::read_to_string(path).unwrap();
            let parse = parse(&text, dialect);
            assert_eq!(
                parse.syntax().to_string(),
                text,
                "{} does not round-trip",
                path.display()
            );
            let is_err_fixture = path.components().any(|c| c.as_os_str() == "err");
            if is_err_fixture == parse.errors().is_empty() {
                failed.push(format!(
                    "{}: fixtures under err/ must have syntax errors and the others none",
                    path.display()
                ));
            }
            let mut actual = parse.debug_tree();
            if !parse.errors().is_empty() {
                actual.push_str("---\n");
                actual.push_str(&levkit_diagnostics::render_plain(&text, parse.errors()));
            }
            let expected = path.with_extension("rast");
            let result =
                std::panic::catch_unwind(|| expect_test::expect_file![expected].assert_eq(&actual));
            if result.is_err() {
                failed.push(path.display().to_string());
            }
        }
    }
    assert!(
        failed.is_empty(),
        "fixtures that differ:\n{}",
        failed.join("\n")
    );
}
