//! The reference loads of `nethack-3.4.3/golden-levels`: every compiled level of the game,
//! loaded by the real 3.4.3 loader for seeds 1 to 5.

use std::path::PathBuf;

use levkit_generate::special;

fn corpus() -> Option<PathBuf> {
    let root = std::env::var_os("LEVKIT_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
        });
    let dir = root.join("nethack-3.4.3");
    dir.join("golden").is_dir().then_some(dir)
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
