//! DCSS vaults: `levkit check` of the whole 0.28.0 corpus (140 files, 4.48 MB) in a fresh
//! host, and a keystroke in `variable/float.des` (288 KB, 303 vaults) to its diagnostics,
//! with the rest of the corpus in the workspace (as in an editor). crawl takes 7.9 s to
//! rebuild its map cache on the same machine.
//!
//! Besides divan's numbers, `main` prints the keystroke's median and 99th percentile over
//! a few hundred edits.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use levkit_ide::{AnalysisHost, FileId};
use rayon::prelude::*;

fn des_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            des_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "des") {
            out.push(path);
        }
    }
}

fn corpus() -> Vec<(PathBuf, Vec<u8>)> {
    let Some(dir) = levkit_test_support::corpus("dcss-0.28.0", "DCSS benchmarks") else {
        return Vec::new();
    };
    let mut paths = Vec::new();
    des_files(&dir.join("des"), &mut paths);
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap_or_default();
            (p, bytes)
        })
        .collect()
}

/// A host holding the corpus, `float.des`'s id and text, and where the edits go: a map row
/// in the middle of the file.
fn editor() -> Option<(AnalysisHost, FileId, String, usize)> {
    let files = corpus();
    let mut host = AnalysisHost::new();
    let mut float = None;
    for (path, bytes) in &files {
        let file = host.set_file_bytes(path.clone(), bytes);
        if path.ends_with("variable/float.des") {
            float = Some((file, String::from_utf8_lossy(bytes).into_owned()));
        }
    }
    let (file, text) = float?;
    let middle = text.len() / 2;
    let map = middle + text[middle..].find("\nMAP\n")? + "\nMAP\n".len();
    // Warm: what an editor has computed before the user types.
    let analysis = host.analysis();
    for id in host.files() {
        let _ = analysis.diagnostics(id);
    }
    Some((host, file, text, map))
}

/// What keystrokes type over the map character at `at`: each one a text not seen before
/// while the count lasts, since typing back an earlier text is answered from memos.
const TYPED: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/// One keystroke: the two characters at `at` typed over (the first changing every keystroke,
/// the second every 62), then the file's diagnostics.
#[inline(never)]
fn keystroke(
    host: &mut AnalysisHost,
    file: FileId,
    text: &mut String,
    at: usize,
    count: &mut usize,
) -> usize {
    let pair: String = [*count % TYPED.len(), *count / TYPED.len() % TYPED.len()]
        .iter()
        .map(|&i| TYPED[i] as char)
        .collect();
    *count += 1;
    text.replace_range(at..at + 2, &pair);
    host.set_file_text(file, text.clone());
    host.analysis().diagnostics(file).map_or(0, |d| d.len())
}

fn main() {
    if let Some((mut host, file, mut text, at)) = editor() {
        let mut count = 0;
        let mut times: Vec<Duration> = (0..400)
            .map(|_| {
                let start = Instant::now();
                keystroke(&mut host, file, &mut text, at, &mut count);
                start.elapsed()
            })
            .collect();
        times.sort();
        eprintln!(
            "keystroke to diagnostics in variable/float.des over {} edits: median {:?}, p99 {:?}",
            times.len(),
            times[times.len() / 2],
            times[times.len() * 99 / 100]
        );
    }
    divan::main();
}

#[divan::bench(sample_count = 20)]
fn check_corpus_fresh_host(bencher: divan::Bencher) {
    let files = corpus();
    bencher.bench_local(|| {
        let mut host = AnalysisHost::new();
        let inputs: Vec<_> = files
            .iter()
            .map(|(p, b)| host.set_file_bytes(p.clone(), b))
            .collect();
        let count = inputs
            .par_iter()
            .map_with(host.analysis(), |analysis, &f| {
                analysis.diagnostics(f).map_or(0, |d| d.len())
            })
            .sum::<usize>();
        // Returned, so that divan frees it after timing: `levkit check` never frees it.
        (host, count)
    });
}

#[divan::bench(sample_count = 200)]
fn keystroke_in_float_des(bencher: divan::Bencher) {
    let Some((mut host, file, mut text, at)) = editor() else {
        return;
    };
    let mut count = 0;
    bencher.bench_local(|| keystroke(&mut host, file, &mut text, at, &mut count));
}
