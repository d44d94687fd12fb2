#![no_main]
//! RLG327 description parser: no panic, lossless.
libfuzzer_sys::fuzz_target!(|data: &[u8]| levkit_fuzz::parse(
    data,
    levkit_syntax::Dialect::Rlg327Monster
));
