//! `levkit check` on the NetHack 3.4.3 corpus (24 files, 113 levels), in process: decoding,
//! parsing, lowering and every check, from a fresh database each time. The reference is the
//! real lev_comp on the same 24 files in one process: 28–54 ms (see the research note, §7).

use std::path::PathBuf;

use levkit_ide::{RootDatabase, diagnostics};
use rayon::prelude::*;

fn corpus() -> Vec<(PathBuf, Vec<u8>)> {
    let root = std::env::var_os("LEVKIT_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
        });
    let dir = root.join("nethack-3.4.3");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!(
            "*** corpus not found at {}: benchmark measures nothing ***",
            dir.display()
        );
        return Vec::new();
    };
    let mut files: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "des"))
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap_or_default();
            (p, bytes)
        })
        .collect();
    files.sort();
    files
}

fn main() {
    divan::main();
}

#[divan::bench(sample_count = 50)]
fn check_corpus_one_thread(bencher: divan::Bencher) {
    let files = corpus();
    bencher.bench_local(|| {
        let mut db = RootDatabase::default();
        let inputs: Vec<_> = files
            .iter()
            .map(|(p, b)| db.add_file(p.clone(), b, None))
            .collect();
        inputs
            .iter()
            .map(|&f| diagnostics(&db, f).len())
            .sum::<usize>()
    });
}

#[divan::bench(sample_count = 50)]
fn check_corpus_parallel(bencher: divan::Bencher) {
    let files = corpus();
    bencher.bench_local(|| {
        let mut db = RootDatabase::default();
        let inputs: Vec<_> = files
            .iter()
            .map(|(p, b)| db.add_file(p.clone(), b, None))
            .collect();
        inputs
            .par_iter()
            .map_with(db.clone(), |db, &f| diagnostics(db, f).len())
            .sum::<usize>()
    });
}
