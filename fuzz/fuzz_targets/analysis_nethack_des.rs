#![no_main]
//! NetHack levels through the analysis facade: lowering, checks, every feature.
libfuzzer_sys::fuzz_target!(|data: &[u8]| levkit_fuzz::analysis(
    data,
    "fuzz/level.des",
    levkit_syntax::Dialect::NethackDes
));
