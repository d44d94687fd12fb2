//! Compiling the 24 NetHack 3.4.3 `.des` files (113 levels), from bytes to `.lev` bytes with
//! every check on the way; the second benchmark also writes the files, as lev_comp does. The
//! reference is the real lev_comp on the same files in one process: 28–54 ms.

use std::path::PathBuf;

use levkit_ide::{AnalysisHost, Emit};

fn corpus() -> Vec<(PathBuf, Vec<u8>)> {
    let Some(dir) = levkit_test_support::corpus("nethack-3.4.3", "compile benchmark") else {
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

fn compile_all(files: &[(PathBuf, Vec<u8>)], mut sink: impl FnMut(&str, &[u8])) {
    let mut host = AnalysisHost::new();
    let ids: Vec<_> = files
        .iter()
        .map(|(path, bytes)| host.set_file_bytes(path.clone(), bytes))
        .collect();
    let analysis = host.analysis();
    for file in ids {
        let Ok(compiled) = analysis.compile(file, Emit::Files) else {
            continue;
        };
        for output in compiled.files {
            if let Some(bytes) = output.bytes {
                sink(&output.name, &bytes);
            }
        }
    }
}

fn main() {
    divan::main();
}

#[divan::bench(sample_count = 50)]
fn compile_corpus_in_memory(bencher: divan::Bencher) {
    let files = corpus();
    bencher.bench_local(|| {
        let mut total = 0;
        compile_all(&files, |_, bytes| total += bytes.len());
        total
    });
}

#[divan::bench(sample_count = 50)]
fn compile_corpus_to_files(bencher: divan::Bencher) {
    let files = corpus();
    let out = std::env::temp_dir().join(format!("levkit-bench-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    bencher.bench_local(|| {
        compile_all(&files, |name, bytes| {
            std::fs::write(out.join(name), bytes).unwrap()
        });
    });
    let _ = std::fs::remove_dir_all(&out);
}
