//! levkit's analysis, behind one facade for every edge (the CLI and the language server).
//!
//! [`AnalysisHost`] owns the incremental database and takes changes (file bytes and text,
//! removals, dialect overrides, options). [`Analysis`] is an immutable snapshot that answers
//! every feature as plain data with byte ranges; a change made while a snapshot is answering
//! cancels it, and the call returns [`Cancelled`]. The edges never see salsa, nor a dialect:
//! each file's dialect picks its [`languages::Language`] in one exhaustive `match`, and a
//! dialect without a feature answers empty.
//!
//! The analysis never does I/O: callers read files and hand over their bytes.

mod compile;
mod db;
pub mod docs;
mod features;
mod languages;
mod prehashed;
mod preview;
mod tree;

mod dcss;
mod dungeon;
mod nethack;
mod rlg327;
mod unknown;

use std::collections::{HashMap, HashSet};
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use levkit_diagnostics::{Diagnostic, LineCol, LineIndex, PositionEncoding, TextRange, TextSize};
use levkit_syntax::Dialect;

pub use compile::{Compiled, CompiledFile, Emit};
pub use features::{
    Action, Completion, CompletionKind, Fold, FoldKind, Highlight, HighlightKind, Hover, InlayHint,
    Location, Symbol, SymbolKind,
};
pub use nethack::RandomLevel;
#[cfg(feature = "schema")]
pub use preview::preview_schema;
pub use preview::{
    Card, CardDetail, CardsPreview, Cell, Controls, DungeonOverview, DungeonPreview, Heat,
    HeatLayer, HeatValue, Heatmap, LegendEntry, LevelPreview, NothingPreview, Preview,
    PreviewError, PreviewRequest, Region, Source, Thing, WirePosition, WireRange,
};

use db::{RootDatabase, SourceFile, Workspace};
use languages::language;

/// A file known to the analysis. Cheap to copy; valid for the life of its host.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FileId(SourceFile);

/// A query was given up because the inputs changed while it ran; ask again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cancelled;

impl std::fmt::Display for Cancelled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the analysis was cancelled by a newer change")
    }
}

impl std::error::Error for Cancelled {}

pub type Cancellable<T> = Result<T, Cancelled>;

/// What the user asked to see.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AnalysisOptions {
    /// lev_comp's `-w`: the `Extra` group of codes.
    pub extra_warnings: bool,
    /// Build each vault for many seeds and warn about floor some outcomes wall off.
    pub reachability: bool,
}

impl AnalysisOptions {
    fn wants(&self, diagnostic: &Diagnostic) -> bool {
        self.extra_warnings
            || diagnostic.code.info().group == levkit_diagnostics::CodeGroup::Default
    }
}

/// Which reachability surveys a diagnostics request may run (see
/// [`Analysis::diagnostics_without_new_surveys`]).
pub(crate) enum Surveys<'a> {
    /// Every vault's; the key of each vault surveyed is added to the set.
    All(&'a mut HashSet<SurveyKey>),
    /// Only those of the vaults whose keys are in the set.
    Known(&'a HashSet<SurveyKey>),
}

/// What a surveyed vault is known by: a hash of its segment's text and context. Two vaults
/// that share a key share their memoized survey (a collision only costs a survey's time).
pub(crate) type SurveyKey = u64;

pub(crate) fn survey_key(segment: &impl std::hash::Hash) -> SurveyKey {
    use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
    BuildHasherDefault::<DefaultHasher>::default().hash_one(segment)
}

/// The vaults each file's last full [`Analysis::diagnostics`] surveyed; shared by the host
/// and its snapshots, so that it outlives them.
type SurveyLog = Arc<Mutex<HashMap<SourceFile, HashSet<SurveyKey>>>>;

/// The owner of the analysis: takes changes, hands out snapshots.
pub struct AnalysisHost {
    db: RootDatabase,
    by_path: HashMap<PathBuf, SourceFile>,
    /// The files analysed together, in the order they were added.
    members: Vec<SourceFile>,
    workspace: Workspace,
    settings: db::Settings,
    options: AnalysisOptions,
    surveyed: SurveyLog,
}

impl Default for AnalysisHost {
    fn default() -> AnalysisHost {
        AnalysisHost::new()
    }
}

/// How often an input changes, so that salsa can vouch for what depends only on inputs that
/// changed less often than the last edit without walking its dependencies (rust-analyzer
/// does the same for library files). What an editor types is [`TYPED`]; what was read from
/// disk, the workspace's membership and the user's settings are [`STORED`]: a keystroke in
/// one file then leaves every answer about the other files valid at the cost of one check.
const TYPED: salsa::Durability = salsa::Durability::LOW;
const STORED: salsa::Durability = salsa::Durability::MEDIUM;

/// A file's bytes as text: UTF-8, or decoded with replacement characters and a diagnostic
/// at the first bad byte.
pub struct Decoded {
    text: Arc<str>,
    encoding_error: Option<Diagnostic>,
}

impl Decoded {
    /// The text of `bytes`, which stay where they are when they are UTF-8 (a tree of sources
    /// is read straight into the buffers that become the texts: see `levkit_files`).
    pub fn new(bytes: Arc<[u8]>) -> Decoded {
        if is_utf8(&bytes) {
            Decoded {
                // SAFETY: the bytes were just found to be UTF-8, and `str` is laid out as
                // `[u8]`, so the allocation is a valid `Arc<str>` (std's own conversion the
                // other way is this cast).
                text: unsafe { Arc::from_raw(Arc::into_raw(bytes) as *const str) },
                encoding_error: None,
            }
        } else {
            let (text, encoding_error) = levkit_syntax::decode(&bytes);
            Decoded {
                text: text.into(),
                encoding_error,
            }
        }
    }

    /// The length of the decoded text, in bytes.
    pub fn len(&self) -> usize {
        self.text.len()
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }
}

/// Whether `bytes` are UTF-8: checked for ASCII a block at a time, at half the cost of
/// validating UTF-8 (most level files are ASCII), and validated from the first block that is
/// not ASCII, which starts a character.
fn is_utf8(bytes: &[u8]) -> bool {
    const BLOCK: usize = 4096;
    let ascii = bytes.chunks(BLOCK).take_while(|b| b.is_ascii()).count() * BLOCK;
    bytes
        .get(ascii..)
        .is_none_or(|rest| std::str::from_utf8(rest).is_ok())
}

impl AnalysisHost {
    pub fn new() -> AnalysisHost {
        let db = RootDatabase::default();
        let workspace = Workspace::builder(Vec::new()).durability(STORED).new(&db);
        let settings = db::Settings::builder(AnalysisOptions::default().extra_warnings)
            .durability(STORED)
            .new(&db);
        AnalysisHost {
            db,
            settings,
            by_path: HashMap::new(),
            members: Vec::new(),
            workspace,
            options: AnalysisOptions::default(),
            surveyed: SurveyLog::default(),
        }
    }

    /// Adds the file at `path`, or replaces its content, from its raw bytes (decoded here,
    /// with a diagnostic if they are not UTF-8). Every file added is part of the workspace
    /// (cross-file diagnostics, navigation, a level's place in a dungeon.def beside it).
    pub fn set_file_bytes(&mut self, path: impl Into<PathBuf>, bytes: &[u8]) -> FileId {
        self.set_file_decoded(path, Decoded::new(bytes.into()))
    }

    /// [`AnalysisHost::set_file_bytes`] with the bytes already decoded (which many files may
    /// be, on all cores, before they are added one by one).
    pub fn set_file_decoded(&mut self, path: impl Into<PathBuf>, decoded: Decoded) -> FileId {
        use salsa::Setter;
        let path = path.into();
        let Decoded {
            text,
            encoding_error,
        } = decoded;
        if let Some(&file) = self.by_path.get(&path) {
            if *file.text(&self.db) != text {
                file.set_text(&mut self.db).with_durability(STORED).to(text);
            }
            if file.encoding_error(&self.db) != &encoding_error {
                file.set_encoding_error(&mut self.db)
                    .with_durability(STORED)
                    .to(encoding_error);
            }
            return FileId(file);
        }
        let file = SourceFile::builder(path.clone(), text, encoding_error, None)
            .durability(STORED)
            .new(&self.db);
        self.by_path.insert(path, file);
        self.members.push(file);
        self.sync_workspace();
        FileId(file)
    }

    /// Replaces a file's text with an editor's (always valid UTF-8, so any decoding error
    /// found in the bytes on disk no longer applies).
    pub fn set_file_text(&mut self, file: FileId, text: String) {
        use salsa::Setter;
        let FileId(file) = file;
        if **file.text(&self.db) != *text {
            file.set_text(&mut self.db)
                .with_durability(TYPED)
                .to(text.into());
        }
        if file.encoding_error(&self.db).is_some() {
            file.set_encoding_error(&mut self.db)
                .with_durability(TYPED)
                .to(None);
        }
    }

    /// Forgets a file: it leaves the workspace and its text is dropped.
    pub fn remove_file(&mut self, file: FileId) {
        use salsa::Setter;
        let FileId(file) = file;
        let path = file.path(&self.db).to_path_buf();
        if self.by_path.get(&path) == Some(&file) {
            self.by_path.remove(&path);
        }
        self.members.retain(|f| *f != file);
        self.surveyed
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .remove(&file);
        file.set_text(&mut self.db).to(Arc::from(""));
        file.set_encoding_error(&mut self.db).to(None);
        self.sync_workspace();
    }

    /// Reads a file as `dialect` instead of recognising it by content (`None`: recognise).
    pub fn set_dialect_override(&mut self, file: FileId, dialect: Option<Dialect>) {
        use salsa::Setter;
        let FileId(file) = file;
        if file.dialect_override(&self.db) != dialect {
            file.set_dialect_override(&mut self.db)
                .with_durability(STORED)
                .to(dialect);
        }
    }

    pub fn set_options(&mut self, options: AnalysisOptions) {
        use salsa::Setter;
        if self.settings.extra_warnings(&self.db) != options.extra_warnings {
            self.settings
                .set_extra_warnings(&mut self.db)
                .with_durability(STORED)
                .to(options.extra_warnings);
        }
        self.options = options;
    }

    pub fn options(&self) -> AnalysisOptions {
        self.options
    }

    /// The file at `path`, if it was added.
    pub fn file(&self, path: &Path) -> Option<FileId> {
        self.by_path.get(path).copied().map(FileId)
    }

    /// The files of the workspace, in the order they were added.
    pub fn files(&self) -> Vec<FileId> {
        self.members.iter().copied().map(FileId).collect()
    }

    /// Stops what snapshots are computing (they return [`Cancelled`]), as a change would,
    /// without changing anything.
    pub fn cancel_pending(&mut self) {
        use salsa::Database;
        self.db.trigger_cancellation();
    }

    /// A snapshot to ask questions of. Changing the host cancels what snapshots are computing.
    pub fn analysis(&self) -> Analysis {
        Analysis {
            db: self.db.clone(),
            workspace: self.workspace,
            options: self.options,
            surveyed: self.surveyed.clone(),
        }
    }

    fn sync_workspace(&mut self) {
        use salsa::Setter;
        self.workspace
            .set_files(&mut self.db)
            .with_durability(STORED)
            .to(self.members.clone());
    }
}

/// A snapshot of the analysis. Every method may return [`Cancelled`] when the host changes
/// while it runs. Clone it to ask from several threads.
#[derive(Clone)]
pub struct Analysis {
    db: RootDatabase,
    workspace: Workspace,
    options: AnalysisOptions,
    surveyed: SurveyLog,
}

impl Analysis {
    fn with<T>(&self, f: impl FnOnce(&RootDatabase) -> T) -> Cancellable<T> {
        salsa::Cancelled::catch(AssertUnwindSafe(|| f(&self.db))).map_err(|_| Cancelled)
    }

    /// `offset` moved into the text and onto a character boundary, so that no feature ever
    /// sees a position inside a character or past the end, whatever an edge sends.
    fn valid_offset(db: &RootDatabase, file: SourceFile, offset: TextSize) -> TextSize {
        let text = file.text(db);
        let mut at = usize::from(offset).min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        TextSize::from(at as u32)
    }

    fn valid_range(db: &RootDatabase, file: SourceFile, range: TextRange) -> TextRange {
        TextRange::new(
            Analysis::valid_offset(db, file, range.start()),
            Analysis::valid_offset(db, file, range.end()),
        )
    }

    pub fn path(&self, file: FileId) -> Cancellable<PathBuf> {
        self.with(|db| file.0.path(db).to_path_buf())
    }

    pub fn file_text(&self, file: FileId) -> Cancellable<Arc<str>> {
        self.with(|db| file.0.text(db).clone())
    }

    pub fn line_index(&self, file: FileId) -> Cancellable<Arc<LineIndex>> {
        self.with(|db| db::line_index(db, file.0).clone())
    }

    /// Line and column of an offset, in the given unit.
    pub fn position(
        &self,
        file: FileId,
        offset: TextSize,
        encoding: PositionEncoding,
    ) -> Cancellable<LineCol> {
        self.with(|db| db::line_index(db, file.0).position(file.0.text(db), offset, encoding))
    }

    /// The offset of a line and column given in a unit (clamped to the text).
    pub fn offset(
        &self,
        file: FileId,
        position: LineCol,
        encoding: PositionEncoding,
    ) -> Cancellable<TextSize> {
        self.with(|db| db::line_index(db, file.0).offset(file.0.text(db), position, encoding))
    }

    /// The file's dialect: its override, or what its content says.
    pub fn dialect(&self, file: FileId) -> Cancellable<Dialect> {
        self.with(|db| db::dialect(db, file.0))
    }

    /// The syntax tree in its debug form, and the syntax errors (with the decoding error).
    pub fn syntax_tree(&self, file: FileId) -> Cancellable<(String, Vec<Diagnostic>)> {
        self.with(|db| {
            let parse = db::parse(db, file.0);
            let mut errors: Vec<Diagnostic> = file.0.encoding_error(db).iter().cloned().collect();
            errors.extend(parse.errors().iter().cloned());
            levkit_diagnostics::sort(&mut errors);
            (parse.debug_tree(), errors)
        })
    }

    /// Every diagnostic of the file the user wants to see: its own, those that involve other
    /// files of the workspace, filtered by the options, sorted by position.
    pub fn diagnostics(&self, file: FileId) -> Cancellable<Vec<Diagnostic>> {
        self.with(|db| self.diagnostics_in(db, file.0))
    }

    /// [`Analysis::diagnostics`] without the slow part that an edit made new: with
    /// [`AnalysisOptions::reachability`], a vault's survey (DC0501) is included only if the
    /// vault is one the file's last full [`Analysis::diagnostics`] surveyed, unchanged since
    /// (its survey is then remembered, and cheap to fetch); an edited or new vault has none
    /// until the next full diagnostics survey it. What an editor publishes as the user
    /// types, with the full diagnostics after a pause.
    pub fn diagnostics_without_new_surveys(&self, file: FileId) -> Cancellable<Vec<Diagnostic>> {
        self.with(|db| {
            let known = self.surveyed_vaults(file.0);
            self.diagnostics_with(db, file.0, Surveys::Known(&known))
        })
    }

    fn surveyed_vaults(&self, file: SourceFile) -> HashSet<SurveyKey> {
        self.surveyed
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .get(&file)
            .cloned()
            .unwrap_or_default()
    }

    /// The diagnostics of many files, each as [`Analysis::diagnostics`] gives it, computed on
    /// all cores in rounds, so that the parts one thread must gather find their inputs done:
    /// every file's own analysis (and what the workspace queries read of it), then the
    /// workspace-wide queries side by side, then each file's part of the workspace's
    /// diagnostics, then each file's whole list.
    /// `progress` is called once per file analysed.
    pub fn diagnostics_of_all(
        &self,
        files: &[FileId],
        progress: &(dyn Fn() + Sync),
    ) -> Cancellable<Vec<Vec<Diagnostic>>> {
        use rayon::prelude::*;
        // One file has nothing to balance and no need of the thread pool.
        if let [file] = files {
            let diagnostics = self.diagnostics(*file)?;
            progress();
            return Ok(vec![diagnostics]);
        }
        // Largest first, and each file a task of its own: the cores then end on small files
        // together, rather than one core finishing a large file alone (rayon's default split
        // of 140 files into a few runs of neighbours left one core working alone on the run
        // of the largest files for the last fifth of one profiled DCSS corpus check).
        let by_size = self.with(|db| {
            let mut sorted = files.to_vec();
            sorted.sort_by_key(|f| std::cmp::Reverse(f.0.text(db).len()));
            sorted
        })?;
        let each = |work: &(dyn Fn(&RootDatabase, SourceFile) + Sync)| {
            by_size
                .par_iter()
                .with_max_len(1)
                .map_with(self.clone(), |analysis, &file| {
                    analysis.with(|db| work(db, file.0))
                })
                .collect::<Cancellable<()>>()
        };
        each(&|db, file| {
            db::file_diagnostics(db, file);
            language(db::dialect(db, file)).prime(db, file);
            progress();
        })?;
        let workspace = self.workspace;
        let primers = self.with(|db| {
            let mut dialects: Vec<Dialect> = by_size.iter().map(|f| db::dialect(db, f.0)).collect();
            dialects.sort();
            dialects.dedup();
            dialects
                .into_iter()
                .flat_map(|d| language(d).workspace_primers())
                .collect::<Vec<_>>()
        })?;
        primers
            .par_iter()
            .with_max_len(1)
            .map_with(self.clone(), |analysis, prime| {
                analysis.with(|db| prime(db, workspace))
            })
            .collect::<Cancellable<()>>()?;
        each(&|db, file| {
            db::file_workspace_diagnostics(db, workspace, file);
        })?;
        files
            .par_iter()
            .map_with(self.clone(), |analysis, &file| analysis.diagnostics(file))
            .collect()
    }

    /// Every diagnostic of the file, every vault surveyed (and logged as surveyed).
    fn diagnostics_in(&self, db: &RootDatabase, file: SourceFile) -> Vec<Diagnostic> {
        let mut surveyed = HashSet::new();
        let all = self.diagnostics_with(db, file, Surveys::All(&mut surveyed));
        if self.options.reachability {
            self.surveyed
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .insert(file, surveyed);
        }
        all
    }

    fn diagnostics_with(
        &self,
        db: &RootDatabase,
        file: SourceFile,
        surveys: Surveys<'_>,
    ) -> Vec<Diagnostic> {
        let mut all: Vec<Diagnostic> = db::file_diagnostics(db, file)
            .iter()
            .filter(|d| self.options.wants(d))
            .cloned()
            .collect();
        if self.options.reachability {
            all.extend(
                language(db::dialect(db, file))
                    .reachability(db, self.workspace, file, surveys)
                    .into_iter()
                    .filter(|d| self.options.wants(d)),
            );
        }
        all.extend(
            db::workspace_diagnostics(db, self.workspace)
                .iter()
                .filter(|(f, d)| *f == file && self.options.wants(d))
                .map(|(_, d)| d.clone()),
        );
        levkit_diagnostics::sort(&mut all);
        all
    }

    /// The files whose diagnostics or preview may change when `file` changes: itself first,
    /// then the files of the workspace that depend on it.
    pub fn affected_by(&self, file: FileId) -> Cancellable<Vec<FileId>> {
        self.with(|db| {
            let mut out = vec![file];
            out.extend(
                language(db::dialect(db, file.0))
                    .dependents(db, self.workspace, file.0)
                    .into_iter()
                    .map(FileId),
            );
            out
        })
    }

    pub fn hover(&self, file: FileId, offset: TextSize) -> Cancellable<Option<Hover>> {
        self.with(|db| {
            let offset = Analysis::valid_offset(db, file.0, offset);
            language(db::dialect(db, file.0)).hover(db, file.0, offset)
        })
    }

    pub fn completions(&self, file: FileId, offset: TextSize) -> Cancellable<Vec<Completion>> {
        self.with(|db| {
            let offset = Analysis::valid_offset(db, file.0, offset);
            language(db::dialect(db, file.0)).completions(db, self.workspace, file.0, offset)
        })
    }

    /// The outline.
    pub fn symbols(&self, file: FileId) -> Cancellable<Vec<Symbol>> {
        self.with(|db| language(db::dialect(db, file.0)).symbols(db, file.0))
    }

    pub fn folding_ranges(&self, file: FileId) -> Cancellable<Vec<Fold>> {
        self.with(|db| language(db::dialect(db, file.0)).folding_ranges(db, file.0))
    }

    /// The nested ranges around an offset, innermost first: the syntax tree's nodes, so
    /// every dialect answers alike.
    pub fn selection_ranges(&self, file: FileId, offset: TextSize) -> Cancellable<Vec<TextRange>> {
        self.with(|db| {
            let offset = Analysis::valid_offset(db, file.0, offset);
            tree::selection_ranges(&db::parse(db, file.0).syntax(), offset)
        })
    }

    /// Semantic highlighting, in text order.
    pub fn highlights(&self, file: FileId) -> Cancellable<Vec<Highlight>> {
        self.with(|db| language(db::dialect(db, file.0)).highlights(db, file.0))
    }

    pub fn goto_definition(&self, file: FileId, offset: TextSize) -> Cancellable<Vec<Location>> {
        self.with(|db| {
            let offset = Analysis::valid_offset(db, file.0, offset);
            language(db::dialect(db, file.0)).definitions(db, self.workspace, file.0, offset)
        })
    }

    pub fn references(&self, file: FileId, offset: TextSize) -> Cancellable<Vec<Location>> {
        self.with(|db| {
            let offset = Analysis::valid_offset(db, file.0, offset);
            language(db::dialect(db, file.0)).references(db, self.workspace, file.0, offset)
        })
    }

    /// The fixes of the diagnostics that touch `range`: fixes are data on diagnostics, so
    /// every dialect gets its quick fixes the same way.
    pub fn code_actions(&self, file: FileId, range: TextRange) -> Cancellable<Vec<Action>> {
        self.with(|db| {
            let range = Analysis::valid_range(db, file.0, range);
            self.diagnostics_in(db, file.0)
                .into_iter()
                .filter(|d| d.range.intersect(range).is_some() || d.range.contains_range(range))
                .filter_map(|d| {
                    let fix = d.fix.clone()?;
                    Some(Action {
                        title: fix.title,
                        edits: fix.edits,
                        diagnostic: d,
                    })
                })
                .collect()
        })
    }

    /// Inlay hints inside `range` (the whole file when `None`).
    pub fn inlay_hints(
        &self,
        file: FileId,
        range: Option<TextRange>,
    ) -> Cancellable<Vec<InlayHint>> {
        self.with(|db| {
            let mut hints = language(db::dialect(db, file.0)).inlay_hints(db, file.0);
            if let Some(range) = range {
                hints.retain(|h| range.contains_inclusive(h.offset));
            }
            hints
        })
    }

    /// What the file would look like in the game: a level for a seed, description cards, a
    /// dungeon overview, or a note saying why there is nothing to show.
    pub fn preview(&self, file: FileId, request: &PreviewRequest) -> Cancellable<Preview> {
        self.with(|db| {
            let workspace = self.workspace;
            let mut preview =
                language(db::dialect(db, file.0)).preview(db, workspace, file.0, request);
            // The file's name first, then what the dialect says it shows of it.
            let name = file.0.path(db).file_name().map_or_else(
                || file.0.path(db).display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            let title = match preview.title() {
                Some(what) => format!("{name} — {what}"),
                None => format!("{name} — nothing to preview"),
            };
            preview.set_title(title);
            // A level asked for by a name the file no longer has (renamed since the panel
            // asked) is answered with the first one: say so rather than swap silently.
            if let (Preview::Level(level), Some(asked)) = (&mut preview, &request.level)
                && *asked != level.level
            {
                let note = format!(
                    "this file has no level {asked:?}: showing {:?}, its first",
                    level.level
                );
                level.notes.insert(0, note);
            }
            preview
        })
    }

    /// Other files [`Analysis::preview`] reads when they exist (a NetHack level's dungeon.def
    /// beside it). A caller that hands the analysis a lone file reads these and adds them
    /// before asking for the preview; a workspace holds them already.
    pub fn preview_inputs(&self, file: FileId) -> Cancellable<Vec<PathBuf>> {
        self.with(|db| language(db::dialect(db, file.0)).preview_inputs(db, file.0))
    }

    /// How often each square holds a monster, object or trap over the seeds `first..=last`
    /// (`None` when the file has no level that can be built). `progress` is called once per
    /// seed, from any thread.
    pub fn heatmap(
        &self,
        file: FileId,
        request: &PreviewRequest,
        seeds: (u32, u32),
        progress: &(dyn Fn() + Sync),
    ) -> Cancellable<Option<Heatmap>> {
        self.with(|db| {
            let workspace = self.workspace;
            language(db::dialect(db, file.0))
                .heatmap(db, workspace, file.0, request, seeds, progress)
        })
    }

    /// What the game loads, or what `emit` asks for, made from the file.
    pub fn compile(&self, file: FileId, emit: Emit) -> Cancellable<Compiled> {
        self.with(|db| {
            let diagnostics = self.diagnostics_in(db, file.0);
            language(db::dialect(db, file.0)).compile(db, file.0, emit, &diagnostics)
        })
    }
}

/// A compiled NetHack level (`.lev`) as readable records, one per line; on a malformed file,
/// what was decoded and where it stopped.
pub fn inspect_lev(bytes: &[u8]) -> Result<String, (String, String)> {
    nethack::inspect(bytes)
}

/// The depths [`random_level`] makes levels at: the levels of NetHack 3.4.3's Dungeons of
/// Doom.
pub const RANDOM_LEVEL_DEPTHS: std::ops::RangeInclusive<i32> = nethack::DOOM_DEPTHS;

/// An ordinary random level of NetHack 3.4.3's Dungeons of Doom, as the game builds it for a
/// seed (`srandom(seed)`) and a depth: rooms, stairs, corridors, niches and the vault. `reveal`
/// shows secret doors and corridors in the map text. `None` for a depth outside
/// [`RANDOM_LEVEL_DEPTHS`].
pub fn random_level(seed: u32, depth: i32, reveal: bool) -> Option<RandomLevel> {
    nethack::random_level(seed, depth, reveal)
}

#[cfg(test)]
mod tests {
    use super::*;
    use levkit_diagnostics::Code;

    fn codes(host: &AnalysisHost, file: FileId) -> Vec<Code> {
        let analysis = host.analysis();
        analysis
            .diagnostics(file)
            .unwrap()
            .iter()
            .map(|d| d.code)
            .collect()
    }

    #[test]
    fn an_edit_recomputes_diagnostics() {
        let mut host = AnalysisHost::new();
        let file = host.set_file_bytes(
            "a.des",
            b"MAZE:\"a\",' '\nGEOMETRY:center,center\nMAP\n.\nENDMAP\n",
        );
        assert_eq!(host.analysis().dialect(file), Ok(Dialect::NethackDes));
        assert!(codes(&host, file).is_empty());
        host.set_file_text(
            file,
            "MAZE:\"a\",' '\nGEOMETRY:center,center\nMAP\n.\n".into(),
        );
        assert_eq!(codes(&host, file)[0], Code::NH0008);
    }

    /// The check by ASCII blocks agrees with UTF-8 validation, with characters and bad
    /// bytes on either side of a block's end.
    #[test]
    fn utf8_is_found_as_validation_finds_it() {
        for at in 4090..4100 {
            for piece in [
                &b"a"[..],
                "é".as_bytes(),
                "𝄞".as_bytes(),
                b"\xff",
                b"\xe9a",
                b"\xf0\x9d",
            ] {
                let mut bytes = vec![b'x'; at];
                bytes.extend_from_slice(piece);
                for tail in [0, 1, 5000] {
                    let mut bytes = bytes.clone();
                    bytes.extend(std::iter::repeat_n(b'y', tail));
                    assert_eq!(
                        is_utf8(&bytes),
                        std::str::from_utf8(&bytes).is_ok(),
                        "{at} {piece:?} {tail}"
                    );
                }
            }
        }
    }

    #[test]
    fn invalid_utf8_is_reported_until_the_text_changes() {
        let mut host = AnalysisHost::new();
        let bytes = b"MAZE:\"a\xff\",' '\nNOMAP\n";
        let file = host.set_file_bytes("a.des", bytes);
        assert_eq!(codes(&host, file)[0], Code::LK0001);
        // Reloading the same bytes (a closed document, a watched file) keeps the error.
        host.set_file_bytes("a.des", bytes);
        assert_eq!(codes(&host, file)[0], Code::LK0001);
        // An editor's text is UTF-8 by construction.
        host.set_file_text(file, "MAZE:\"a\",' '\nNOMAP\n".into());
        assert!(!codes(&host, file).contains(&Code::LK0001));
        host.set_file_bytes("a.des", bytes);
        assert_eq!(codes(&host, file)[0], Code::LK0001);
    }

    #[test]
    fn a_byte_that_is_not_utf8_is_reported_once_not_as_its_replacement_character() {
        let mut host = AnalysisHost::new();
        let vault = b"NAME: latin1\nDEPTH: D:2\nMAP\n.@\xe9.\nENDMAP\n";
        let file = host.set_file_bytes("a.des", vault);
        assert_eq!(codes(&host, file), [Code::LK0001]);
        // The same character written in UTF-8 is one of crawl's glyphs of no meaning.
        host.set_file_text(
            file,
            "NAME: latin1\nDEPTH: D:2\nMAP\n.@\u{fffd}.\nENDMAP\n".into(),
        );
        assert_eq!(codes(&host, file), [Code::DC0410]);
    }

    #[test]
    fn a_snapshot_is_cancelled_by_a_change() {
        let mut host = AnalysisHost::new();
        let file = host.set_file_bytes("a.des", b"MAZE:\"a\",' '\n");
        let analysis = host.analysis();
        let worker = std::thread::spawn(move || {
            // Keep asking until the change lands and cancels us.
            loop {
                if analysis.diagnostics(file).is_err() {
                    return;
                }
            }
        });
        std::thread::sleep(std::time::Duration::from_millis(20));
        host.set_file_text(file, "LEVEL:\"b\"\n".into());
        worker.join().unwrap();
    }
}
