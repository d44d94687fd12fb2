#![no_main]
//! NetHack `.des` parser: no panic, lossless.
libfuzzer_sys::fuzz_target!(|data: &[u8]| levkit_fuzz::parse(
    data,
    levkit_syntax::Dialect::NethackDes
));
