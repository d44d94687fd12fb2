//! Files levkit cannot recognise: one diagnostic that says how to choose a dialect, and no
//! other answer (no feature guesses at a format).

use levkit_diagnostics::{Code, Diagnostic};

use crate::db::SourceFile;
use crate::languages::Language;
use crate::tree::{display_name, first_line_range};

pub(crate) struct Unknown;

impl Language for Unknown {
    fn diagnostics(&self, db: &dyn salsa::Database, file: SourceFile) -> Vec<Diagnostic> {
        vec![Diagnostic::new(
            Code::LK0002,
            first_line_range(file.text(db)),
            format!(
                "levkit cannot tell which format {} is in: NetHack levels start with `MAZE:` or `LEVEL:`, DCSS vaults with `NAME:`; pass --dialect to choose",
                display_name(file.path(db))
            ),
        )]
    }
}
