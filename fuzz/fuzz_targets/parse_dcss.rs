#![no_main]
//! DCSS vault parser (segments glued into one tree): no panic, lossless.
libfuzzer_sys::fuzz_target!(|data: &[u8]| levkit_fuzz::parse(
    data,
    levkit_syntax::Dialect::DcssDes
));
