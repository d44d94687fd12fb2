#![no_main]
//! dungeon.def parser: no panic, lossless.
libfuzzer_sys::fuzz_target!(|data: &[u8]| levkit_fuzz::parse(
    data,
    levkit_syntax::Dialect::NethackDungeon
));
