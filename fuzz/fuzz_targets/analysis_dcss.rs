#![no_main]
//! DCSS vaults through the analysis facade: lowering, checks (Lua loaded), every feature.
libfuzzer_sys::fuzz_target!(|data: &[u8]| levkit_fuzz::analysis(
    data,
    "fuzz/vaults.des",
    levkit_syntax::Dialect::DcssDes
));
