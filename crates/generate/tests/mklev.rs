//! The reference maps of `nethack-mklev/maps`: for each seed and depth, the port must build
//! exactly the map the real 3.4.3 generator built.

use std::path::PathBuf;

use levkit_generate::level::Place;
use levkit_generate::mklev::{makelevel, map_text};
use levkit_generate::rng::Rng;

fn corpus() -> Option<PathBuf> {
    levkit_test_support::corpus("nethack-mklev/maps", "mklev reference maps")
}

/// `seedSSSSS-depthDD.txt` → (seed, depth).
fn seed_and_depth(name: &str) -> Option<(u32, i32)> {
    let rest = name.strip_prefix("seed")?.strip_suffix(".txt")?;
    let (seed, depth) = rest.split_once("-depth")?;
    Some((seed.parse().ok()?, depth.parse().ok()?))
}

#[test]
fn every_reference_map_is_rebuilt_exactly() {
    let Some(dir) = corpus() else {
        eprintln!("*** corpus not found: the mklev reference maps were NOT compared ***");
        return;
    };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut failures = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let (seed, depth) = seed_and_depth(&name).expect("reference file name");
        let expected = std::fs::read_to_string(path).unwrap();
        let generated = makelevel(&mut Rng::new(seed), &Place::doom(depth));
        let actual = map_text(&generated, true);
        if actual != expected {
            failures.push((name, expected, actual));
        }
    }
    eprintln!(
        "{}/{} reference maps identical",
        files.len() - failures.len(),
        files.len()
    );
    for (name, expected, actual) in failures.iter().take(2) {
        eprintln!("--- {name}: expected\n{expected}\n--- actual\n{actual}");
    }
    assert!(
        failures.is_empty(),
        "{} maps differ: {:?}",
        failures.len(),
        failures.iter().map(|f| &f.0).take(20).collect::<Vec<_>>()
    );
    assert_eq!(files.len(), 900);
}
