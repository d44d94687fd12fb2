//! Levels the fuzzer built from mutated `.lev` bytes (`test-data/nethack-lev/decode-cases/`),
//! loaded as the `load_lev` fuzz target loads them: the seed is the file's last four bytes, the
//! level's name (which picks its place in the dungeon) one of a few by the file's length.
//! Loading ends, whatever the records say, and says what it could not do (`loads.txt`).

use levkit_compile::nethack::lev::decode;
use levkit_generate::level::Place;
use levkit_generate::place::stock_place;
use levkit_generate::rng::Rng;
use levkit_generate::special::load_special;

#[test]
fn mutated_levels_load_to_an_end() {
    let dir = levkit_test_support::test_data().join("nethack-lev/decode-cases");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "lev"))
        .collect();
    paths.sort();
    let names = [
        "castle", "medusa-1", "oracle", "minetn-1", "soko1-1", "valley", "fuzz",
    ];
    let mut loads = String::new();
    for path in &paths {
        let file = path.file_name().unwrap().to_string_lossy();
        let bytes = std::fs::read(path).unwrap();
        let Ok(level) = decode(&bytes) else {
            loads += &format!("{file}: does not decode\n");
            continue;
        };
        let seed = bytes
            .iter()
            .rev()
            .take(4)
            .fold(0u32, |s, &b| s << 8 | u32::from(b));
        let name = names[bytes.len() % names.len()];
        let place = stock_place(name).unwrap_or_else(|| Place::doom(10));
        let loaded = load_special(&level, name, &mut Rng::new(seed), &place);
        loads += &format!(
            "{file}: loads as {name} (seed {seed}); not reproduced: {:?}\n",
            loaded.unsupported
        );
    }
    expect_test::expect_file![dir.join("loads.txt")].assert_eq(&loads);
}
