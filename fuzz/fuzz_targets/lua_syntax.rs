#![no_main]
//! DCSS vaults' Lua: the quick syntax check never accepts a chunk Lua refuses.
libfuzzer_sys::fuzz_target!(|data: &[u8]| levkit_fuzz::lua_syntax(data));
