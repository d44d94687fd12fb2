//! Preview latency for the castle: from the source text to the generated picture (parse,
//! check, compile, decode, load for a seed, draw), as the language server does it after an
//! edit. Goal: at most 16 ms.

use std::path::PathBuf;

use levkit_ide::RootDatabase;

fn main() {
    divan::main();
}

fn castle() -> Option<Vec<u8>> {
    let root = std::env::var_os("LEVKIT_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
        });
    let bytes = std::fs::read(root.join("nethack-3.4.3/castle.des")).ok();
    if bytes.is_none() {
        eprintln!("*** corpus not found: the preview benchmark measures nothing ***");
    }
    bytes
}

#[divan::bench]
fn castle_from_text_to_picture(bencher: divan::Bencher) {
    let Some(bytes) = castle() else {
        return;
    };
    let mut seed = 0;
    bencher.bench_local(|| {
        seed += 1;
        let mut db = RootDatabase::default();
        let file = db.add_file(PathBuf::from("castle.des"), &bytes, None);
        divan::black_box(levkit_ide::preview::generated(&db, file, None, seed, None))
    });
}
