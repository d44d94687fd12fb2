#![no_main]
//! NetHack compiler: what it writes decodes to the records it wrote.
libfuzzer_sys::fuzz_target!(|data: &[u8]| levkit_fuzz::compile_nethack(data));
