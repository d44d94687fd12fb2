#![no_main]
//! RLG327 descriptions through the analysis facade (monsters for an even length, objects for
//! an odd one): lowering, checks, every feature.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let dialect = if data.len() % 2 == 0 {
        levkit_syntax::Dialect::Rlg327Monster
    } else {
        levkit_syntax::Dialect::Rlg327Object
    };
    levkit_fuzz::analysis(data, "fuzz/descriptions.txt", dialect)
});
