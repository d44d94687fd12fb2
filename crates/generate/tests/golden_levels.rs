//! The reference loads of `nethack-3.4.3/golden-levels`: every compiled level of the game,
//! loaded by the real 3.4.3 loader for seeds 1 to 5.

use std::path::PathBuf;

use levkit_generate::special;

fn corpus() -> Option<PathBuf> {
    levkit_test_support::corpus("nethack-3.4.3", "golden levels (reference loads)")
}

/// Every `.lev` of the reference compiler, by base name.
fn compiled_levels(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for entry in walk(&dir.join("golden")) {
        if entry.extension().is_some_and(|e| e == "lev") {
            let name = entry.file_stem().unwrap().to_string_lossy().into_owned();
            out.push((name, std::fs::read(&entry).unwrap()));
        }
    }
    out.sort();
    out
}

fn walk(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}

#[test]
fn every_compiled_level_decodes() {
    let Some(dir) = corpus() else {
        eprintln!("*** corpus not found: the reference .lev files were NOT decoded ***");
        return;
    };
    let levels = compiled_levels(&dir);
    assert_eq!(levels.len(), 113);
    for (name, bytes) in &levels {
        if let Err(error) = special::decode(bytes) {
            panic!("{name}: {error}");
        }
    }
}

#[test]
fn truncated_files_are_errors_not_panics() {
    let Some(dir) = corpus() else {
        return;
    };
    for (name, bytes) in compiled_levels(&dir).iter().take(20) {
        for cut in (0..bytes.len()).step_by(7) {
            assert!(
                special::decode(&bytes[..cut]).is_err(),
                "{name} cut at {cut}"
            );
        }
    }
}

/// `<level>-seed<N>.txt` → (level, seed).
fn level_and_seed(file: &str) -> Option<(String, u32)> {
    let stem = file.strip_suffix(".txt")?;
    let (level, seed) = stem.rsplit_once("-seed")?;
    Some((level.to_string(), seed.parse().ok()?))
}

struct Comparison {
    files: usize,
    identical: Vec<String>,
    failing: Vec<String>,
    same_map: Vec<String>,
    first_mismatches: Vec<(String, String, String)>,
}

fn compare_all(dir: &std::path::Path) -> Comparison {
    use levkit_generate::{dump, place, rng::Rng};
    let levels: std::collections::HashMap<_, _> = compiled_levels(dir).into_iter().collect();
    let mut files: Vec<_> = std::fs::read_dir(dir.join("golden-levels"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".txt"))
        .collect();
    files.sort();
    let mut result = Comparison {
        files: files.len(),
        identical: vec![],
        failing: vec![],
        same_map: vec![],
        first_mismatches: vec![],
    };
    for file in files {
        let (level, seed) = level_and_seed(&file).expect("reference file name");
        let expected = std::fs::read_to_string(dir.join("golden-levels").join(&file)).unwrap();
        let sp = special::decode(&levels[&level]).expect("decodes");
        let place = place::stock_place(&level).expect("a level of the reference dungeon");
        let loaded = special::load_special(&sp, &level, &mut Rng::new(seed), &place);
        let actual = dump::golden_text(&loaded.level, &level, seed, &place);
        if std::env::var("GOLDEN_DUMP").is_ok_and(|d| d == file) {
            let _ = std::fs::write("/tmp/golden-actual.txt", &actual);
            let _ = std::fs::write("/tmp/golden-expected.txt", &expected);
        }
        let map = |t: &str| t.lines().take(21).collect::<Vec<_>>().join("\n");
        if actual == expected {
            result.identical.push(file);
        } else {
            result.failing.push(file.clone());
            if map(&actual) == map(&expected) {
                result.same_map.push(file.clone());
            }
            if std::env::var_os("GOLDEN_REPORT").is_some() {
                let first = expected
                    .lines()
                    .zip(actual.lines())
                    .enumerate()
                    .find(|(_, (e, a))| e != a)
                    .map(|(i, (e, a))| format!("line {}: expected {e} | actual {a}", i + 1))
                    .unwrap_or_else(|| "length differs".to_string());
                eprintln!("FAIL {file}: {first}");
            }
            if result.first_mismatches.len() < 3 {
                result.first_mismatches.push((file, expected, actual));
            }
        }
    }
    result
}

/// The reference loads known to differ today, each with its reason. Every other file must
/// be identical, so a regression anywhere fails the test.
const KNOWN_FAILING: &[(&str, &str)] = &[];

#[test]
fn reference_loads_are_rebuilt() {
    let Some(dir) = corpus() else {
        eprintln!("*** corpus not found: the golden levels were NOT compared ***");
        return;
    };
    let result = compare_all(&dir);
    eprintln!(
        "{}/{} golden levels identical; {} more with identical map rows",
        result.identical.len(),
        result.files,
        result.same_map.len()
    );
    for (file, expected, actual) in &result.first_mismatches {
        eprintln!("--- {file}");
        for (i, (e, a)) in expected.lines().zip(actual.lines()).enumerate() {
            if e != a {
                eprintln!("line {}:\n  expected {e}\n  actual   {a}", i + 1);
                break;
            }
        }
    }
    assert_eq!(result.files, 565);
    let known = |file: &str| KNOWN_FAILING.iter().any(|(f, _)| *f == file);
    for (file, _) in KNOWN_FAILING {
        if result.identical.iter().any(|f| f == file) {
            eprintln!("note: {file} is identical now: remove it from KNOWN_FAILING");
        }
    }
    let regressions: Vec<_> = result
        .failing
        .iter()
        .filter(|f| !known(f))
        .cloned()
        .collect();
    assert!(
        regressions.is_empty(),
        "reference loads that differ and are not known to: {regressions:?}"
    );
}

#[test]
fn every_level_loads_for_a_hundred_seeds() {
    use levkit_generate::{place, rng::Rng};
    let Some(dir) = corpus() else {
        return;
    };
    for (name, bytes) in compiled_levels(&dir) {
        let sp = special::decode(&bytes).unwrap();
        let place = place::stock_place(&name).unwrap();
        for seed in 1..=100 {
            let loaded = special::load_special(&sp, &name, &mut Rng::new(seed), &place);
            for placed in &loaded.level.events {
                let (x, y) = (placed.at.x, placed.at.y);
                assert!(
                    (0..80).contains(&x) && (0..21).contains(&y),
                    "{name} seed {seed}: {placed:?}"
                );
            }
        }
    }
}

/// A fixture of our own, independent of the corpus: `test-data/generate/special/garden.des`
/// (compiled to `garden.lev` by `levkit compile`) loaded for seed 1 at the Oracle's place.
/// Regenerate the expectation with `UPDATE_EXPECT=1`.
#[test]
fn garden_fixture_loads_as_specified() {
    use levkit_generate::{dump, place, rng::Rng};
    let bytes = include_bytes!("../../../test-data/generate/special/garden.lev");
    let sp = special::decode(bytes).expect("the fixture decodes");
    let place = place::stock_place("oracle").expect("the Oracle's place");
    let loaded = special::load_special(&sp, "garden", &mut Rng::new(1), &place);
    let text = dump::golden_text(&loaded.level, "garden", 1, &place);
    expect_test::expect_file!["../../../test-data/generate/special/garden-seed1.txt"]
        .assert_eq(&text);
}

/// Damaged files that still decode must load without panicking: the language server loads
/// whatever the compiler makes of a level being typed.
#[test]
fn mutated_levels_load_without_panicking() {
    use levkit_generate::{level::Place, rng::Rng};
    let Some(dir) = corpus() else {
        return;
    };
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut loaded = 0;
    for (name, bytes) in compiled_levels(&dir) {
        for _ in 0..200 {
            let mut bytes = bytes.clone();
            for _ in 0..1 + next() % 4 {
                let at = 41 + (next() as usize) % (bytes.len() - 41);
                bytes[at] = next() as u8;
            }
            let Ok(sp) = special::decode(&bytes) else {
                continue;
            };
            let seed = (next() % 1000) as u32;
            let result = std::panic::catch_unwind(|| {
                special::load_special(&sp, &name, &mut Rng::new(seed), &Place::doom(10))
            });
            assert!(
                result.is_ok(),
                "{name} seed {seed} panicked on a mutated file"
            );
            loaded += 1;
        }
    }
    eprintln!("{loaded} mutated levels loaded");
}
