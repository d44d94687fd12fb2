#![no_main]
//! The special-level loader on mutated `.lev` bytes.
libfuzzer_sys::fuzz_target!(|data: &[u8]| levkit_fuzz::load_lev(data));
