//! The real NetHack 3.4.3 files: every one parses without error and round-trips byte for byte.

use std::path::PathBuf;

use levkit_syntax::{Dialect, parse};

fn corpus_dir() -> Option<PathBuf> {
    levkit_test_support::corpus("nethack-3.4.3", "NetHack corpus parse")
}

#[test]
fn every_corpus_level_parses_cleanly_and_round_trips() {
    let Some(dir) = corpus_dir() else { return };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "des"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 24, "the corpus has 24 .des files");
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let parse = parse(&text, Dialect::NethackDes);
        assert_eq!(
            parse.syntax().to_string(),
            text,
            "{} does not round-trip",
            path.display()
        );
        for error in parse.errors() {
            failures.push(format!("{}: {:?}", path.display(), error));
        }
    }
    assert!(
        failures.is_empty(),
        "syntax errors in the corpus:\n{}",
        failures.join("\n")
    );
}
