//! The salsa database: inputs (files, the workspace) and the queries every dialect shares.
//! Nothing outside `ide` sees this module; the edges use [`crate::AnalysisHost`].

use std::path::PathBuf;
use std::sync::Arc;

use levkit_diagnostics::{Diagnostic, LineIndex};
use levkit_syntax::{Dialect, Parse};

use crate::languages::language;

#[salsa::input(debug)]
pub(crate) struct SourceFile {
    #[returns(deref)]
    pub path: PathBuf,
    #[returns(ref)]
    pub text: Arc<str>,
    /// The error found while decoding the file's bytes, if they were not UTF-8.
    #[returns(ref)]
    pub encoding_error: Option<Diagnostic>,
    /// The dialect chosen by the user; `None` means "recognise it from the content".
    #[returns(copy)]
    pub dialect_override: Option<Dialect>,
}

/// What the user asked to see, where it changes what a query computes (the host makes the
/// one value of it when it starts).
#[salsa::input(singleton)]
pub(crate) struct Settings {
    /// `-W`: checks whose warnings only `-W` shows run only when asked for.
    #[returns(copy)]
    pub extra_warnings: bool,
}

/// Whether `-W` was asked for (no settings yet: no).
pub(crate) fn extra_warnings(db: &dyn salsa::Database) -> bool {
    Settings::try_get(db).is_some_and(|settings| settings.extra_warnings(db))
}

/// The files analysed together (a checked folder, an editor's workspace).
#[salsa::input]
pub(crate) struct Workspace {
    #[returns(ref)]
    pub files: Vec<SourceFile>,
}

#[salsa::db]
#[derive(Clone, Default)]
pub(crate) struct RootDatabase {
    storage: salsa::Storage<Self>,
}

#[salsa::db]
impl salsa::Database for RootDatabase {}

/// The file's dialect: the override, or what its content says.
#[salsa::tracked(returns(copy))]
pub(crate) fn dialect(db: &dyn salsa::Database, file: SourceFile) -> Dialect {
    file.dialect_override(db)
        .unwrap_or_else(|| Dialect::detect(file.path(db), file.text(db)))
}

/// Not compared with the last parse (`no_eq`): it runs only when the text changed, and a
/// lossless tree of another text is always another tree, so comparing (most of a large
/// tree, on every keystroke) could never find them equal.
#[salsa::tracked(no_eq)]
pub(crate) fn parse(db: &dyn salsa::Database, file: SourceFile) -> Parse {
    levkit_syntax::parse(file.text(db), dialect(db, file))
}

#[salsa::tracked]
pub(crate) fn line_index(db: &dyn salsa::Database, file: SourceFile) -> Arc<LineIndex> {
    Arc::new(LineIndex::new(file.text(db)))
}

/// Every diagnostic of the file on its own, sorted by position: encoding, then what its
/// dialect reports. All codes are included (but those of checks that run only with `-W`,
/// [`Settings`]); [`crate::Analysis::diagnostics`] applies options.
#[salsa::tracked]
pub(crate) fn file_diagnostics(db: &dyn salsa::Database, file: SourceFile) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = file.encoding_error(db).iter().cloned().collect();
    let mut found = language(dialect(db, file)).diagnostics(db, file);
    if !out.is_empty() {
        // In a file that is not UTF-8, a replacement character stands for bytes levkit could
        // not decode, which the encoding error reports: a warning about the character itself
        // (its width, its bytes) would describe levkit's text, not the file.
        let text = file.text(db);
        found.retain(|d| {
            d.severity == levkit_diagnostics::Severity::Error
                || text.get(std::ops::Range::<usize>::from(d.range)) != Some("\u{fffd}")
        });
    }
    out.extend(found);
    levkit_diagnostics::sort(&mut out);
    out
}

/// Diagnostics that need several files of the workspace, each with the file it belongs to.
#[salsa::tracked]
pub(crate) fn workspace_diagnostics(
    db: &dyn salsa::Database,
    workspace: Workspace,
) -> Vec<(SourceFile, Diagnostic)> {
    workspace
        .files(db)
        .iter()
        .flat_map(|&file| {
            file_workspace_diagnostics(db, workspace, file)
                .iter()
                .cloned()
        })
        .collect()
}

/// What `file` reports of [`workspace_diagnostics`]: a query per file, so that many files'
/// parts can be computed on all cores ([`crate::Analysis::diagnostics_of_all`]), and an edit
/// re-runs only the edited file's part (and those whose inputs it changed).
#[salsa::tracked(returns(ref))]
pub(crate) fn file_workspace_diagnostics(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
) -> Vec<(SourceFile, Diagnostic)> {
    language(dialect(db, file)).workspace_diagnostics(db, workspace, file)
}

/// The files of the workspace whose folder is `file`'s folder or one below it, other than
/// `file` itself: the files a dungeon description links with.
pub(crate) fn files_below(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
) -> Vec<SourceFile> {
    let dir = file.path(db).parent().unwrap_or(std::path::Path::new(""));
    workspace
        .files(db)
        .iter()
        .copied()
        .filter(|&f| f != file && f.path(db).starts_with(dir))
        .collect()
}
