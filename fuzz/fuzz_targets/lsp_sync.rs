#![no_main]
//! The server's document sync: after any edit script, the server's text is the client's.
libfuzzer_sys::fuzz_target!(|data: &[u8]| levkit_fuzz::lsp_sync::run(data));
