//! Files levkit cannot recognise: one diagnostic that says how to choose a dialect, and no
//! other answer (no feature guesses at a format).

use levkit_diagnostics::{Code, Diagnostic};

use crate::db::SourceFile;
use crate::languages::Language;
use crate::tree::{display_name, first_line_range};

pub(crate) struct Unknown;

impl Language for Unknown {
    fn diagnostics(&self, db: &dyn salsa::Database, file: SourceFile) -> Vec<Diagnostic> {
        let text = file.text(db);
        let name = display_name(file.path(db));
        let message = match levkit_check::nethack::newer_level_file(text) {
            Some(what) => format!(
                "{name} looks like {what}, which levkit does not read yet; it checks and compiles NetHack 3.4.3 levels (`MAZE:` or `LEVEL:`), dungeon.def and DCSS vaults"
            ),
            None => format!(
                "levkit cannot tell which format {name} is in: NetHack levels start with `MAZE:` or `LEVEL:`, DCSS vaults with `NAME:`; pass --dialect to choose"
            ),
        };
        vec![Diagnostic::new(
            Code::LK0002,
            first_line_range(text),
            message,
        )]
    }
}
