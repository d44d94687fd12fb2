#![no_main]
//! dungeon.def through the analysis facade: lowering, checks, every feature.
libfuzzer_sys::fuzz_target!(|data: &[u8]| levkit_fuzz::analysis(
    data,
    "fuzz/dungeon.def",
    levkit_syntax::Dialect::NethackDungeon
));
