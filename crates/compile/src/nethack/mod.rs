//! NetHack 3.4.3 `.lev` files, byte for byte what lev_comp 3.4.3 writes on x86_64 Linux
//! (LP64, little-endian): see the research note, section 2, for the layout, and [`lev`] for
//! the one place it is written down in code.

mod inspect;
pub mod lev;
mod write;

pub use inspect::{InspectError, inspect};
pub(crate) use write::VERSION_INFO;
pub use write::{compile_level, compile_level_with_origins, level_records};

use levkit_diagnostics::{Diagnostic, Severity};
use levkit_model::nethack::{DesFile, Level};

/// One level of a file and what compiling it gave.
pub struct CompiledLevel<'a> {
    pub level: &'a Level,
    /// The file name lev_comp would write (`<name>.lev`), if the level has a name.
    pub file_name: Option<String>,
    /// The bytes, or `None` when the level has errors (nothing is written for it).
    pub bytes: Option<Vec<u8>>,
}

/// Compiles every level of a file whose range holds no error diagnostic.
pub fn compile_file<'a>(file: &'a DesFile, diagnostics: &[Diagnostic]) -> Vec<CompiledLevel<'a>> {
    file.levels
        .iter()
        .map(|level| {
            let has_errors = diagnostics
                .iter()
                .any(|d| d.severity == Severity::Error && level.range.contains_range(d.range));
            CompiledLevel {
                level,
                file_name: level.name.as_ref().map(|n| format!("{}.lev", n.value)),
                bytes: (!has_errors).then(|| compile_level(level)),
            }
        })
        .collect()
}
