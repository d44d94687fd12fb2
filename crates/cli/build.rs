//! Links `levkit` as a position-dependent executable on Linux: a PIE's start-up applies
//! ~20,000 relocations and copies the pages they touch (about 50 page faults, a tenth of
//! `levkit --version`), which every short `check` or `compile` in a build pays again.
fn main() {
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
