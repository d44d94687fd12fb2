//! `levkit check` of the NetHack 3.4.3 corpus (24 `.des` files) in process, from bytes to
//! diagnostics, on one thread and on all of them.

use std::path::PathBuf;

use levkit_ide::AnalysisHost;
use rayon::prelude::*;

fn corpus() -> Vec<(PathBuf, Vec<u8>)> {
    let Some(dir) = levkit_test_support::corpus("nethack-3.4.3", "check benchmark") else {
        return Vec::new();
    };
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
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
        let mut host = AnalysisHost::new();
        let inputs: Vec<_> = files
            .iter()
            .map(|(p, b)| host.set_file_bytes(p.clone(), b))
            .collect();
        let analysis = host.analysis();
        inputs
            .iter()
            .map(|&f| analysis.diagnostics(f).map_or(0, |d| d.len()))
            .sum::<usize>()
    });
}

#[divan::bench(sample_count = 50)]
fn check_corpus_parallel(bencher: divan::Bencher) {
    let files = corpus();
    bencher.bench_local(|| {
        let mut host = AnalysisHost::new();
        let inputs: Vec<_> = files
            .iter()
            .map(|(p, b)| host.set_file_bytes(p.clone(), b))
            .collect();
        inputs
            .par_iter()
            .map_with(host.analysis(), |analysis, &f| {
                analysis.diagnostics(f).map_or(0, |d| d.len())
            })
            .sum::<usize>()
    });
}
