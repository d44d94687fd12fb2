//! Preview latency for the castle: from the source text to the generated picture (parse,
//! check, compile, decode, load for a seed, draw), as the language server does it after an
//! edit. Goal: at most 16 ms.

use levkit_ide::{AnalysisHost, PreviewRequest};

fn main() {
    divan::main();
}

fn castle() -> Option<Vec<u8>> {
    let dir = levkit_test_support::corpus("nethack-3.4.3", "preview benchmark")?;
    std::fs::read(dir.join("castle.des")).ok()
}

#[divan::bench]
fn castle_from_text_to_picture(bencher: divan::Bencher) {
    let Some(bytes) = castle() else {
        return;
    };
    let mut seed = 0;
    bencher.bench_local(|| {
        seed += 1;
        let mut host = AnalysisHost::new();
        let file = host.set_file_bytes("castle.des", &bytes);
        let request = PreviewRequest {
            seed,
            ..PreviewRequest::default()
        };
        divan::black_box(host.analysis().preview(file, &request))
    });
}
