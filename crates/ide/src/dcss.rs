//! Dungeon Crawl Stone Soup vaults: recognised, not analysed yet.

use levkit_diagnostics::{Code, Diagnostic};

use crate::db::SourceFile;
use crate::languages::Language;
use crate::tree::first_line_range;

pub(crate) struct Dcss;

impl Language for Dcss {
    fn diagnostics(&self, db: &dyn salsa::Database, file: SourceFile) -> Vec<Diagnostic> {
        vec![Diagnostic::new(
            Code::LK0003,
            first_line_range(file.text(db)),
            "this looks like a Dungeon Crawl Stone Soup vault file; levkit does not check DCSS vaults yet",
        )]
    }
}
