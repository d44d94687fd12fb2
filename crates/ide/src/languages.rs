//! Dialect dispatch: the one place `ide` matches on [`Dialect`].
//!
//! Each dialect module implements [`Language`]; a feature it lacks keeps the default, which
//! answers empty. No arm is a wildcard, so a new dialect is a compile error here until it
//! says which module answers for it.

use levkit_diagnostics::{Diagnostic, TextSize};
use levkit_syntax::Dialect;

use crate::compile::{Compiled, Emit};
use crate::db::{SourceFile, Workspace};
use crate::features::{Completion, Fold, Highlight, Hover, InlayHint, Location, Symbol};
use crate::preview::{Heatmap, Preview, PreviewRequest};

type Db<'a> = &'a dyn salsa::Database;

/// What a dialect knows how to answer. Every method has the file's dialect already decided.
pub(crate) trait Language: Sync {
    /// The file's own problems: syntax and semantics (decoding errors are added by the caller).
    fn diagnostics(&self, db: Db, file: SourceFile) -> Vec<Diagnostic>;

    /// Problems that involve other files of the workspace, reported by this file (each with
    /// the file it belongs to).
    fn workspace_diagnostics(
        &self,
        _db: Db,
        _workspace: Workspace,
        _file: SourceFile,
    ) -> Vec<(SourceFile, Diagnostic)> {
        Vec::new()
    }

    /// Computes what the workspace queries will read of this file, so that a caller with
    /// many files can have it done on all cores before one thread gathers the workspace
    /// (rust-analyzer primes its caches the same way). Changes no answer, only when work is
    /// done.
    fn prime(&self, _db: Db, _file: SourceFile) {}

    /// The workspace-wide queries its workspace diagnostics read, once every file is primed:
    /// a caller with many files runs them side by side, where otherwise the first file to
    /// need each computes it while the other threads wait (the DCSS corpus's tag index and
    /// duplicate names). Changes no answer, only when work is done.
    fn workspace_primers(&self) -> &'static [fn(Db, Workspace)] {
        &[]
    }

    /// Problems found by building the file's levels for many seeds (walled-off pockets),
    /// asked for with [`crate::AnalysisOptions::reachability`]; `surveys` says which levels
    /// may be built.
    fn reachability(
        &self,
        _db: Db,
        _workspace: Workspace,
        _file: SourceFile,
        _surveys: crate::Surveys<'_>,
    ) -> Vec<Diagnostic> {
        Vec::new()
    }

    /// Other files of the workspace whose diagnostics or preview may change when this file
    /// changes (the editor refreshes them).
    fn dependents(&self, _db: Db, _workspace: Workspace, _file: SourceFile) -> Vec<SourceFile> {
        Vec::new()
    }

    fn hover(&self, _db: Db, _file: SourceFile, _offset: TextSize) -> Option<Hover> {
        None
    }

    fn completions(
        &self,
        _db: Db,
        _workspace: Workspace,
        _file: SourceFile,
        _offset: TextSize,
    ) -> Vec<Completion> {
        Vec::new()
    }

    fn symbols(&self, _db: Db, _file: SourceFile) -> Vec<Symbol> {
        Vec::new()
    }

    fn folding_ranges(&self, _db: Db, _file: SourceFile) -> Vec<Fold> {
        Vec::new()
    }

    fn highlights(&self, _db: Db, _file: SourceFile) -> Vec<Highlight> {
        Vec::new()
    }

    fn definitions(
        &self,
        _db: Db,
        _workspace: Workspace,
        _file: SourceFile,
        _offset: TextSize,
    ) -> Vec<Location> {
        Vec::new()
    }

    fn references(
        &self,
        _db: Db,
        _workspace: Workspace,
        _file: SourceFile,
        _offset: TextSize,
    ) -> Vec<Location> {
        Vec::new()
    }

    fn inlay_hints(&self, _db: Db, _file: SourceFile) -> Vec<InlayHint> {
        Vec::new()
    }

    /// Files the preview reads when they exist, other than the file itself (a NetHack
    /// level's dungeon.def beside it): a caller that hands over one file reads them too; a
    /// workspace holds them already.
    fn preview_inputs(&self, _db: Db, _file: SourceFile) -> Vec<std::path::PathBuf> {
        Vec::new()
    }

    fn preview(
        &self,
        db: Db,
        _workspace: Workspace,
        file: SourceFile,
        _request: &PreviewRequest,
    ) -> Preview {
        Preview::nothing(format!(
            "{} has nothing levkit can preview yet",
            crate::tree::display_name(file.path(db))
        ))
    }

    fn heatmap(
        &self,
        _db: Db,
        _workspace: Workspace,
        _file: SourceFile,
        _request: &PreviewRequest,
        _seeds: (u32, u32),
        _progress: &(dyn Fn() + Sync),
    ) -> Option<Heatmap> {
        None
    }

    fn compile(
        &self,
        db: Db,
        file: SourceFile,
        emit: Emit,
        _diagnostics: &[Diagnostic],
    ) -> Compiled {
        Compiled::refused(format!(
            "{} cannot be compiled to {}",
            crate::tree::display_name(file.path(db)),
            emit.describe()
        ))
    }
}

/// The implementation of a dialect's features.
pub(crate) fn language(dialect: Dialect) -> &'static dyn Language {
    match dialect {
        Dialect::NethackDes => &crate::nethack::Nethack,
        Dialect::NethackDungeon => &crate::dungeon::Dungeon,
        Dialect::Rlg327Monster | Dialect::Rlg327Object => &crate::rlg327::Rlg327,
        Dialect::DcssDes => &crate::dcss::Dcss,
        Dialect::Unknown => &crate::unknown::Unknown,
    }
}
