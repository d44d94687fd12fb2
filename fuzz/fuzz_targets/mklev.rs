#![no_main]
//! The random level generator for any seed and depth.
libfuzzer_sys::fuzz_target!(|data: &[u8]| levkit_fuzz::mklev(data));
