#![no_main]
//! DCSS vault parser (segments glued into one tree): no panic, lossless; the editor's
//! incremental segmentation equals a fresh one.
libfuzzer_sys::fuzz_target!(|data: &[u8]| levkit_fuzz::parse_dcss(data));
