//! The DCSS 0.28.0 vaults: every file parses without a syntax error, round-trips byte for byte,
//! and has one vault segment per vault of crawl's own index.

use std::path::{Path, PathBuf};

use levkit_syntax::{Dialect, SyntaxKind, dcss, parse};

/// Every `.des` file under `dir`, sorted by path bytes (crawl's load order).
fn des_files(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "des") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    out
}

#[test]
fn every_vault_file_parses_cleanly_round_trips_and_has_crawls_vaults() {
    let Some(dir) = levkit_test_support::corpus("dcss-0.28.0", "DCSS corpus parse") else {
        return;
    };
    let files = des_files(&dir.join("des"));
    assert_eq!(files.len(), 140);
    let mut failures = Vec::new();
    let mut vaults = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let parse = parse(&text, Dialect::DcssDes);
        assert_eq!(
            parse.syntax().to_string(),
            text,
            "{} does not round-trip",
            path.display()
        );
        for error in parse.errors() {
            failures.push(format!("{}: {:?}", path.display(), error));
        }
        vaults += dcss::segments(&text)
            .iter()
            .filter(|s| s.kind == SyntaxKind::DCSS_VAULT)
            .count();
    }
    assert!(
        failures.is_empty(),
        "syntax errors in the corpus:\n{}",
        failures.join("\n")
    );
    let index = std::fs::read_to_string(dir.join("golden/maps-index.tsv")).unwrap();
    assert_eq!(vaults, index.lines().count() - 1, "vaults in crawl's index");
}
