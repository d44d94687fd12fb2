//! Dungeon Crawl Stone Soup vaults: diagnostics (crawl's checks, vault by vault), duplicate
//! vault names across the workspace, the outline by vault, folding of vaults, maps and Lua
//! blocks, and the Lua crawl generates (`--emit lua`).
//!
//! A file is cut into segments (`levkit_syntax::dcss::segments`): the text before the first
//! vault and after each `default-depth:`, and one per vault. Each segment's text is interned
//! with what the checks need from the file around it, and parsed, lowered and checked by
//! queries keyed on it: an edit inside one vault re-runs those queries for that vault only,
//! and the others' answers are reused, then shifted to where their segment now lies.

use levkit_check::dcss::{Context, check_global, check_vault, duplicate_name, repeated_names};
use levkit_diagnostics::{Diagnostic, TextRange, TextSize};
use levkit_model::dcss::{Piece, Segment as Model, lower_flat};
use levkit_syntax::dcss::Segmentation;
use levkit_syntax::{Dialect, Parse, SyntaxKind};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex};

use crate::compile::{Compiled, Emit};
use crate::db::{SourceFile, Workspace, dialect};
use crate::features::{Fold, FoldKind, Symbol, SymbolKind};
use crate::languages::Language;
use crate::prehashed::Prehashed;

mod completion;
mod cursor;
mod docs;
mod glyphs;
mod highlight;
mod hover;
mod navigation;
pub(crate) mod preview;
mod tags;

pub(crate) struct Dcss;

/// One segment's text, with the part of its file's context its checks depend on. The text
/// is a piece of its file's when the file is first read (a batch check then copies none of
/// the corpus's 4.5 MB), and a copy of its own after an edit: a piece keeps the whole text
/// it is cut from, and a segment interned after each edit would keep a version of the file
/// each.
#[salsa::interned(debug)]
pub(crate) struct SegmentText<'db> {
    #[returns(ref)]
    key: Prehashed<(Piece, Context)>,
}

impl<'db> SegmentText<'db> {
    pub(crate) fn text(self, db: &'db dyn salsa::Database) -> &'db Piece {
        &self.key(db).0
    }

    pub(crate) fn context(self, db: &'db dyn salsa::Database) -> &'db Context {
        &self.key(db).1
    }
}

/// What a segment's survey is known by ([`crate::SurveyKey`]): the hash its interned key was
/// made with, so no keystroke hashes the file's vault texts again (303 vaults, 288 KB for
/// float.des).
fn segment_survey_key(db: &dyn salsa::Database, segment: SegmentText<'_>) -> crate::SurveyKey {
    crate::survey_key(segment.key(db))
}

/// A segment of a file: where it starts, and its interned text.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Placed<'db> {
    pub start: TextSize,
    pub segment: SegmentText<'db>,
}

/// The segments of a DCSS file (none for other dialects), each with its start.
#[salsa::tracked(returns(ref))]
fn segment_list<'db>(
    db: &'db dyn salsa::Database,
    file: SourceFile,
) -> Vec<(u32, SegmentText<'db>)> {
    if dialect(db, file) != Dialect::DcssDes {
        return Vec::new();
    }
    let text = file.text(db);
    let mut context = Context {
        default_depth: false,
        header_order: crate::db::extra_warnings(db),
    };
    let (segmentation, fresh) = segmentation(file.path(db), text);
    segmentation
        .segments(text)
        .into_iter()
        .map(|s| {
            let piece = if fresh {
                Piece::of(text, s.range.clone())
            } else {
                Piece::from(&text[s.range.clone()])
            };
            if s.kind == SyntaxKind::DCSS_GLOBAL && piece.trim_start().starts_with("default-depth:")
            {
                context.default_depth = true;
            }
            (
                s.range.start as u32,
                SegmentText::new(db, Prehashed::new((piece, context))),
            )
        })
        .collect()
}

/// The last segmentation made of each DCSS file, with its text. A keystroke then re-scans
/// only around its edit (`Segmentation::edited`, which answers what a fresh scan would):
/// cutting a 300 KB file afresh took most of a keystroke's time. A cache of a pure function,
/// so any host may share it; it holds one text per path.
static LAST_SEGMENTATION: LazyLock<Mutex<HashMap<PathBuf, Segmented>>> =
    LazyLock::new(Default::default);

/// A text and its segmentation.
type Segmented = (Arc<str>, Arc<Segmentation>);

/// The segmentation of `text`, and whether it is the first made for `path` (no earlier text
/// of it was segmented).
fn segmentation(path: &Path, text: &Arc<str>) -> (Arc<Segmentation>, bool) {
    let lock = || {
        LAST_SEGMENTATION
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    };
    let previous = lock().get(path).cloned();
    let fresh = previous.is_none();
    let segmentation = match previous {
        Some((old, segmentation)) if Arc::ptr_eq(&old, text) || *old == **text => segmentation,
        Some((old, segmentation)) => Arc::new(segmentation.edited(&old, text)),
        None => Arc::new(Segmentation::new(text)),
    };
    lock().insert(path.to_path_buf(), (text.clone(), segmentation.clone()));
    (segmentation, fresh)
}

pub(crate) fn segments<'db>(db: &'db dyn salsa::Database, file: SourceFile) -> Vec<Placed<'db>> {
    segment_list(db, file)
        .iter()
        .map(|&(start, segment)| Placed {
            start: TextSize::from(start),
            segment,
        })
        .collect()
}

#[salsa::tracked(returns(ref))]
pub(crate) fn segment_parse<'db>(db: &'db dyn salsa::Database, segment: SegmentText<'db>) -> Parse {
    levkit_syntax::dcss::parse_segment(segment.text(db))
}

/// The segment's model, offsets relative to the segment, for the editor's features (hover,
/// navigation, previews). The checks lower a segment on their own ([`segment_checked`]) and
/// keep none: a `check` run never asks for this, and so keeps no model.
#[salsa::tracked(returns(ref))]
pub(crate) fn segment_model<'db>(db: &'db dyn salsa::Database, segment: SegmentText<'db>) -> Model {
    let text = segment.text(db);
    lower_flat(text, &levkit_syntax::dcss::parse_segment_flat(text))
}

/// What the checks take from a segment: its diagnostics, its vault's name and its tag facts.
#[derive(Debug, PartialEq, Eq, salsa::SalsaValue)]
pub(crate) struct Checked {
    /// Syntax errors and crawl's checks, offsets relative to the segment.
    diagnostics: Vec<Diagnostic>,
    /// The vault's name as the model reads it (see [`segment_name`]).
    name: Option<(String, TextRange)>,
    /// Shared with the file's list of them (see `tags::file_tag_facts`), whose comparison
    /// with its last value finds an unchanged segment's facts by pointer.
    tags: Arc<levkit_check::dcss::TagFacts>,
}

/// The segment lowered from a parse that builds no tree, checked, and dropped: its model is
/// the largest thing a segment has (15 MB of the DCSS corpus's 40 MB at the check's peak),
/// and a check needs only what this keeps of it. Kept, every model's pages stayed touched to
/// the end of the run, and fresh memory is dear on this project's machines (up to a third of
/// the check's time in one profile: see the README's Speed section).
#[salsa::tracked(returns(ref))]
fn segment_checked<'db>(db: &'db dyn salsa::Database, segment: SegmentText<'db>) -> Checked {
    let text = segment.text(db);
    let flat = levkit_syntax::dcss::parse_segment_flat(text);
    let model = lower_flat(text, &flat);
    let mut diagnostics = flat.errors;
    let name = match &model {
        Model::Vault(vault) => {
            diagnostics.extend(check_vault(vault, text, *segment.context(db)));
            Some((vault.name.value.clone(), vault.name.range))
        }
        Model::Global(global) => {
            diagnostics.extend(check_global(global));
            None
        }
    };
    let tags = Arc::new(levkit_check::dcss::tag_facts(&model));
    Checked {
        diagnostics,
        name,
        tags,
    }
}

/// The segment's syntax errors and crawl's checks, offsets relative to the segment.
pub(crate) fn segment_diagnostics<'db>(
    db: &'db dyn salsa::Database,
    segment: SegmentText<'db>,
) -> &'db Vec<Diagnostic> {
    &segment_checked(db, segment).diagnostics
}

/// A vault segment's name and its range in the segment. A NAME on one line is read from the
/// text directly: the workspace's duplicate check then needs no parse, and the parses of
/// every file can run in parallel. No query of its own: reading a first line costs less than
/// a memo (one per vault, 5,481 in the DCSS corpus).
fn segment_name(db: &dyn salsa::Database, segment: SegmentText<'_>) -> Option<(String, TextRange)> {
    let text = segment.text(db);
    let first_line = text.split('\n').next().unwrap_or("");
    let indent = first_line.len() - first_line.trim_start_matches([' ', '\t']).len();
    if let Some(value) = first_line[indent..].strip_prefix("NAME:") {
        let value = value.trim_end_matches('\r');
        if !value.trim_end().ends_with('\\') && !value.contains("NAME:") {
            let lead = value.len() - value.trim_start_matches([' ', '\t']).len();
            let name = value.trim_matches([' ', '\t']);
            let start = (indent + "NAME:".len() + lead) as u32;
            return Some((
                name.to_string(),
                TextRange::at(start.into(), TextSize::of(name)),
            ));
        }
    }
    segment_checked(db, segment).name.clone()
}

/// The vault names of a file, with their ranges in the file.
#[salsa::tracked(returns(ref))]
pub(crate) fn vault_names(db: &dyn salsa::Database, file: SourceFile) -> Vec<(String, TextRange)> {
    segments(db, file)
        .iter()
        .filter_map(|placed| {
            segment_name(db, placed.segment).map(|(name, range)| (name, range + placed.start))
        })
        .collect()
}

/// A file's vault names in order, without their positions: what the workspace's duplicate
/// check reads, so that an edit that moves vaults without renaming one leaves it untouched.
#[salsa::tracked(returns(ref))]
fn vault_name_list(db: &dyn salsa::Database, file: SourceFile) -> Vec<String> {
    vault_names(db, file)
        .iter()
        .map(|(name, _)| name.clone())
        .collect()
}

/// A vault of the workspace: its file and its place among the file's vaults.
type VaultAt = (SourceFile, usize);

/// Every vault whose name an earlier vault has, with that first vault. crawl loads the files
/// in the byte order of their paths, so the later vault of a name (in that order) is the
/// duplicate.
#[salsa::tracked(returns(ref))]
fn repeated_vaults(db: &dyn salsa::Database, workspace: Workspace) -> Vec<(VaultAt, VaultAt)> {
    let mut files: Vec<SourceFile> = workspace
        .files(db)
        .iter()
        .copied()
        .filter(|&f| dialect(db, f) == Dialect::DcssDes)
        .collect();
    files.sort_by(|a, b| {
        a.path(db)
            .as_os_str()
            .as_encoded_bytes()
            .cmp(b.path(db).as_os_str().as_encoded_bytes())
    });
    repeated_names(files.iter().flat_map(|&file| {
        vault_name_list(db, file)
            .iter()
            .enumerate()
            .map(move |(index, name)| ((file, index), name.as_str()))
    }))
}

/// The duplicate vault names of `file` (DC0301), placed in it.
#[salsa::tracked(returns(ref))]
pub(crate) fn duplicates(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
) -> Vec<Diagnostic> {
    let site = |(file, index): VaultAt| vault_names(db, file).get(index);
    repeated_vaults(db, workspace)
        .iter()
        .filter(|(later, _)| later.0 == file)
        .filter_map(|&(later, first)| {
            let (name, range) = site(later)?;
            let (_, first_range) = site(first)?;
            let line = crate::db::line_index(db, first.0)
                .line_col(first_range.start())
                .line
                + 1;
            let described = format!("at {}:{line}", crate::tree::display_name(first.0.path(db)));
            let here = (first.0 == file).then_some(*first_range);
            Some(duplicate_name(name, *range, &described, here))
        })
        .collect()
}

impl Language for Dcss {
    fn diagnostics(&self, db: &dyn salsa::Database, file: SourceFile) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        for placed in segments(db, file) {
            out.extend(
                segment_diagnostics(db, placed.segment)
                    .iter()
                    .map(|d| levkit_syntax::dcss::shifted(d, placed.start)),
            );
        }
        out
    }

    fn prime(&self, db: &dyn salsa::Database, file: SourceFile) {
        vault_name_list(db, file);
        tags::file_tag_part(db, file);
    }

    fn workspace_primers(&self) -> &'static [fn(&dyn salsa::Database, Workspace)] {
        &[
            |db, workspace| {
                tags::tag_index(db, workspace);
            },
            |db, workspace| {
                repeated_vaults(db, workspace);
            },
        ]
    }

    fn workspace_diagnostics(
        &self,
        db: &dyn salsa::Database,
        workspace: Workspace,
        file: SourceFile,
    ) -> Vec<(SourceFile, Diagnostic)> {
        let mut out: Vec<(SourceFile, Diagnostic)> = duplicates(db, workspace, file)
            .iter()
            .map(|d| (file, d.clone()))
            .collect();
        out.extend(
            tags::file_tag_problems(db, workspace, file)
                .into_iter()
                .map(|d| (file, d)),
        );
        out
    }

    fn hover(
        &self,
        db: &dyn salsa::Database,
        file: SourceFile,
        offset: TextSize,
    ) -> Option<crate::features::Hover> {
        hover::hover(db, file, offset)
    }

    fn completions(
        &self,
        db: &dyn salsa::Database,
        workspace: Workspace,
        file: SourceFile,
        offset: TextSize,
    ) -> Vec<crate::features::Completion> {
        completion::completions(db, workspace, file, offset)
    }

    fn highlights(
        &self,
        db: &dyn salsa::Database,
        file: SourceFile,
    ) -> Vec<crate::features::Highlight> {
        segments(db, file)
            .iter()
            .flat_map(|placed| {
                highlight::segment_highlights(db, placed.segment)
                    .iter()
                    .map(move |h| crate::features::Highlight {
                        range: h.range + placed.start,
                        kind: h.kind,
                    })
            })
            .collect()
    }

    fn definitions(
        &self,
        db: &dyn salsa::Database,
        workspace: Workspace,
        file: SourceFile,
        offset: TextSize,
    ) -> Vec<crate::features::Location> {
        navigation::definitions(db, workspace, file, offset)
    }

    fn references(
        &self,
        db: &dyn salsa::Database,
        workspace: Workspace,
        file: SourceFile,
        offset: TextSize,
    ) -> Vec<crate::features::Location> {
        navigation::references(db, workspace, file, offset)
    }

    fn symbols(&self, db: &dyn salsa::Database, file: SourceFile) -> Vec<Symbol> {
        segments(db, file)
            .iter()
            .flat_map(|placed| {
                // The file-level Lua's functions, then the vault.
                let functions = navigation::global_functions(db, *placed).into_iter().map(
                    |(name, focus, range)| Symbol {
                        name,
                        detail: Some("Lua function".into()),
                        kind: SymbolKind::Function,
                        range,
                        focus,
                        children: Vec::new(),
                    },
                );
                functions.chain(vault_symbol(db, placed))
            })
            .collect()
    }

    fn folding_ranges(&self, db: &dyn salsa::Database, file: SourceFile) -> Vec<Fold> {
        let mut out = Vec::new();
        for placed in segments(db, file) {
            let root = segment_parse(db, placed.segment).syntax();
            out.extend(
                crate::tree::folds(&root, |k| {
                    matches!(
                        k,
                        SyntaxKind::DCSS_VAULT | SyntaxKind::DCSS_MAP | SyntaxKind::LUA_BLOCK
                    )
                })
                .into_iter()
                .map(|f| Fold {
                    range: f.range + placed.start,
                    kind: f.kind,
                }),
            );
        }
        out.retain(|f| f.kind == FoldKind::Comment || !f.range.is_empty());
        out
    }

    fn reachability(
        &self,
        db: &dyn salsa::Database,
        workspace: Workspace,
        file: SourceFile,
        mut surveys: crate::Surveys<'_>,
    ) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        for vault in preview::file_vaults(db, file) {
            let segment = vault.placed.segment;
            let key = segment_survey_key(db, segment);
            match &mut surveys {
                crate::Surveys::All(surveyed) => {
                    surveyed.insert(key);
                }
                crate::Surveys::Known(known) if !known.contains(&key) => continue,
                crate::Surveys::Known(_) => {}
            }
            out.extend(
                preview::segment_reachability(db, workspace, file, segment)
                    .iter()
                    .map(|d| levkit_syntax::dcss::shifted(d, vault.placed.start)),
            );
        }
        out
    }

    fn preview(
        &self,
        db: &dyn salsa::Database,
        workspace: Workspace,
        file: SourceFile,
        request: &crate::preview::PreviewRequest,
    ) -> crate::preview::Preview {
        preview::preview(db, workspace, file, request)
    }

    fn heatmap(
        &self,
        db: &dyn salsa::Database,
        workspace: Workspace,
        file: SourceFile,
        request: &crate::preview::PreviewRequest,
        seeds: (u32, u32),
        progress: &(dyn Fn() + Sync),
    ) -> Option<crate::preview::Heatmap> {
        preview::heatmap(db, workspace, file, request, seeds, progress)
    }

    fn compile(
        &self,
        db: &dyn salsa::Database,
        file: SourceFile,
        emit: Emit,
        _diagnostics: &[Diagnostic],
    ) -> Compiled {
        match emit {
            // crawl prints a vault's Lua even when the vault then fails its checks.
            Emit::Lua => Compiled {
                text: Some(levkit_compile::dcss::dump_maps(
                    segments(db, file)
                        .iter()
                        .map(|p| segment_model(db, p.segment)),
                )),
                ..Compiled::default()
            },
            Emit::Files | Emit::Print | Emit::PrintCompat | Emit::Json => {
                Compiled::refused(format!(
                    "{} is a DCSS vault file: it compiles to Lua (--emit lua)",
                    crate::tree::display_name(file.path(db))
                ))
            }
        }
    }
}

/// The outline entry of a vault segment.
fn vault_symbol(db: &dyn salsa::Database, placed: &Placed<'_>) -> Option<Symbol> {
    match segment_model(db, placed.segment) {
        Model::Vault(vault) => {
            let range = segment_parse(db, placed.segment).syntax();
            let range = crate::tree::trimmed(&range) + placed.start;
            Some(Symbol {
                name: vault.name.value.clone(),
                detail: vault_detail(vault),
                kind: SymbolKind::Vault,
                range,
                focus: vault.name.range + placed.start,
                children: Vec::new(),
            })
        }
        Model::Global(_) => None,
    }
}

/// The outline's detail of a vault: its depths, or its place.
fn vault_detail(vault: &levkit_model::dcss::Vault) -> Option<String> {
    use levkit_syntax::dcss::Header;
    let of = |header| {
        vault
            .headers_of(header)
            .flat_map(|h| h.args.iter().map(|a| a.text.clone()))
            .filter(|t| !t.is_empty())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let depth = of(Header::Depth);
    let place = of(Header::Place);
    match (depth.is_empty(), place.is_empty()) {
        (false, _) => Some(depth),
        (true, false) => Some(place),
        (true, true) => None,
    }
}
