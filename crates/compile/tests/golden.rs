//! Every level of the NetHack 3.4.3 corpus compiles to exactly the bytes of the real lev_comp.

use std::path::PathBuf;

use levkit_ide::{AnalysisHost, Emit};

fn corpus() -> Option<PathBuf> {
    levkit_test_support::corpus("nethack-3.4.3", "NetHack golden .lev and dungeon files")
}

#[test]
fn every_corpus_level_is_byte_identical_to_lev_comp() {
    let Some(dir) = corpus() else { return };
    let manifest = std::fs::read_to_string(dir.join("golden/MANIFEST.tsv")).unwrap();
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut sources: Vec<&str> = manifest
        .lines()
        .skip(1)
        .filter_map(|l| l.split('\t').next())
        .filter(|s| s.ends_with(".des"))
        .collect();
    sources.dedup();
    for source in sources {
        let bytes = std::fs::read(dir.join(source)).unwrap();
        let mut host = AnalysisHost::new();
        let file = host.set_file_bytes(source, &bytes);
        let compiled = host.analysis().compile(file, Emit::Files).unwrap();
        let golden_dir = dir.join("golden").join(source.trim_end_matches(".des"));
        for level in compiled.files {
            let name = level.name;
            let expected = std::fs::read(golden_dir.join(&name)).unwrap_or_default();
            checked += 1;
            match level.bytes {
                Some(actual) if actual == expected => {}
                Some(actual) => {
                    let at = actual
                        .iter()
                        .zip(&expected)
                        .position(|(a, b)| a != b)
                        .unwrap_or(actual.len().min(expected.len()));
                    failures.push(format!(
                        "{source} {name}: differs at byte {at:#x} (ours {} bytes, lev_comp {} bytes)\n{}",
                        actual.len(),
                        expected.len(),
                        readable_diff(&actual, &expected)
                    ));
                }
                None => failures.push(format!("{source} {name}: not compiled")),
            }
        }
    }
    assert_eq!(checked, 113, "the corpus has 113 levels");
    assert!(
        failures.is_empty(),
        "{} of 113 levels differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The first records that differ, as `levkit inspect` prints them.
fn readable_diff(actual: &[u8], expected: &[u8]) -> String {
    let show = |bytes: &[u8]| match levkit_compile::nethack::inspect(bytes) {
        Ok(text) => text,
        Err(error) => format!("{}<{error}>", error.partial),
    };
    let (ours, theirs) = (show(actual), show(expected));
    ours.lines()
        .zip(theirs.lines())
        .filter(|(a, b)| a != b)
        .take(5)
        .map(|(a, b)| format!("  ours:     {a}\n  lev_comp: {b}\n"))
        .collect()
}

#[test]
fn dungeon_def_and_its_preprocessed_form_compile_to_the_golden_dungeon_file() {
    let Some(dir) = corpus() else { return };
    let expected = std::fs::read(dir.join("golden/dungeon")).unwrap();
    for source in ["dungeon.def", "golden/dungeon.pdf"] {
        let bytes = std::fs::read(dir.join(source)).unwrap();
        let mut host = AnalysisHost::new();
        let file = host.set_file_bytes(source, &bytes);
        let analysis = host.analysis();
        let diagnostics = analysis.diagnostics(file).unwrap();
        assert!(diagnostics.is_empty(), "{source}: {diagnostics:?}");
        let compiled = analysis.compile(file, Emit::Files).unwrap();
        let actual = compiled.files[0].bytes.clone().unwrap();
        let at = actual.iter().zip(&expected).position(|(a, b)| a != b);
        assert!(
            actual == expected,
            "{source}: differs at byte {at:?} (ours {} bytes, dgn_comp {})",
            actual.len(),
            expected.len()
        );
    }
}
