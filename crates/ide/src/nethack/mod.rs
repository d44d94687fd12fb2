//! NetHack 3.4.3 special levels (`.des`, lev_comp): checks, hover, completion, outline,
//! navigation, inlay hints, the level as the game builds it, and the `.lev` files `compile`
//! writes. The dungeon description shares the completion, navigation and highlighting
//! machinery of this module (`crate::dungeon` calls it with its own vocabulary).

pub(crate) mod completion;
mod hover;
mod inlay;
pub(crate) mod navigation;
mod preview;
pub(crate) mod structure;

use std::path::{Path, PathBuf};

use levkit_diagnostics::{Diagnostic, Severity, TextSize};
use levkit_model::nethack::DesFile;
use levkit_syntax::Dialect;

use crate::compile::{Compiled, CompiledFile, Emit};
use crate::db::{SourceFile, Workspace, dialect, parse};
use crate::features::{Completion, Fold, Highlight, Hover, InlayHint, Location, Symbol};
use crate::languages::Language;
use crate::preview::{Heatmap, Preview, PreviewRequest};
use completion::Vocabulary;

pub(crate) struct Nethack;

/// A `.des` file's model (`None` for files of other dialects) and syntax errors, from a
/// compact parse of its own, dropped once lowered: the command line reads nothing else of the
/// tree, and a file's tokens kept would hold memory that the next file's parse can reuse.
/// The editor's features read the rowan tree ([`parse`]), parsed apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Lowered {
    pub(crate) model: Option<DesFile>,
    pub(crate) syntax_errors: Vec<Diagnostic>,
}

#[salsa::tracked(returns(ref))]
pub(crate) fn nethack_lowered(db: &dyn salsa::Database, file: SourceFile) -> Lowered {
    if dialect(db, file) != Dialect::NethackDes {
        return Lowered {
            model: None,
            syntax_errors: Vec::new(),
        };
    }
    let text = file.text(db);
    let parse = levkit_syntax::nethack::parse_compact(text);
    Lowered {
        model: Some(levkit_model::nethack::lower(&parse, text)),
        syntax_errors: parse.errors,
    }
}

/// The semantic model of a `.des` file (`None` for files of other dialects).
pub(crate) fn nethack_model(db: &dyn salsa::Database, file: SourceFile) -> &Option<DesFile> {
    &nethack_lowered(db, file).model
}

impl Language for Nethack {
    fn diagnostics(&self, db: &dyn salsa::Database, file: SourceFile) -> Vec<Diagnostic> {
        let text = file.text(db);
        let syntax = nethack_lowered(db, file).syntax_errors.clone();
        // A file in a newer level language gets one error, not one per line.
        if let Some(newer) = levkit_check::nethack::newer_language(text, &syntax) {
            return vec![newer];
        }
        let mut out = levkit_check::nethack::cap_runs(text, syntax);
        if let Some(model) = nethack_model(db, file) {
            out.extend(levkit_check::nethack::check(model));
        }
        out
    }

    /// The dungeon descriptions that link with it (DG0501 is reported on them).
    fn dependents(
        &self,
        db: &dyn salsa::Database,
        workspace: Workspace,
        file: SourceFile,
    ) -> Vec<SourceFile> {
        workspace
            .files(db)
            .iter()
            .copied()
            .filter(|&d| crate::db::files_below(db, workspace, d).contains(&file))
            .filter(|&d| crate::dungeon::dungeon_model(db, d).is_some())
            .collect()
    }

    fn hover(&self, db: &dyn salsa::Database, file: SourceFile, offset: TextSize) -> Option<Hover> {
        hover::hover(db, file, offset)
    }

    fn completions(
        &self,
        db: &dyn salsa::Database,
        workspace: Workspace,
        file: SourceFile,
        offset: TextSize,
    ) -> Vec<Completion> {
        completion::completions(db, workspace, file, offset, Vocabulary::Levels)
    }

    fn symbols(&self, db: &dyn salsa::Database, file: SourceFile) -> Vec<Symbol> {
        structure::symbols(&parse(db, file).syntax())
    }

    fn folding_ranges(&self, db: &dyn salsa::Database, file: SourceFile) -> Vec<Fold> {
        structure::folding_ranges(&parse(db, file).syntax())
    }

    fn highlights(&self, db: &dyn salsa::Database, file: SourceFile) -> Vec<Highlight> {
        structure::highlights(&parse(db, file).syntax())
    }

    fn definitions(
        &self,
        db: &dyn salsa::Database,
        workspace: Workspace,
        file: SourceFile,
        offset: TextSize,
    ) -> Vec<Location> {
        navigation::goto_definition(db, workspace, file, offset)
    }

    fn references(
        &self,
        db: &dyn salsa::Database,
        workspace: Workspace,
        file: SourceFile,
        offset: TextSize,
    ) -> Vec<Location> {
        navigation::references(db, workspace, file, offset)
    }

    fn inlay_hints(&self, db: &dyn salsa::Database, file: SourceFile) -> Vec<InlayHint> {
        inlay::inlay_hints(db, file)
    }

    /// The dungeon.def beside the level, which places it in its dungeon.
    fn preview_inputs(&self, db: &dyn salsa::Database, file: SourceFile) -> Vec<PathBuf> {
        let path = file.path(db);
        let beside = path.parent().unwrap_or(Path::new(".")).join("dungeon.def");
        if beside == *path {
            Vec::new()
        } else {
            vec![beside]
        }
    }

    fn preview(
        &self,
        db: &dyn salsa::Database,
        workspace: Workspace,
        file: SourceFile,
        request: &PreviewRequest,
    ) -> Preview {
        preview::preview(db, workspace, file, request)
    }

    fn heatmap(
        &self,
        db: &dyn salsa::Database,
        workspace: Workspace,
        file: SourceFile,
        request: &PreviewRequest,
        seeds: (u32, u32),
        progress: &(dyn Fn() + Sync),
    ) -> Option<Heatmap> {
        preview::heatmap(db, workspace, file, request, seeds, progress)
    }

    fn compile(
        &self,
        db: &dyn salsa::Database,
        file: SourceFile,
        emit: Emit,
        diagnostics: &[Diagnostic],
    ) -> Compiled {
        let Some(model) = nethack_model(db, file) else {
            return Compiled::refused("this file holds no NetHack level".into());
        };
        match emit {
            Emit::Files => {}
            Emit::Print | Emit::PrintCompat | Emit::Json | Emit::Lua => {
                return Compiled::refused(format!(
                    "NetHack levels compile to `.lev` files, not to {}",
                    emit.describe()
                ));
            }
        }
        // An error outside every level (before the first one) stops the whole file, and so
        // does a file in a newer level language.
        let file_errors = diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .any(|d| {
                d.code == levkit_diagnostics::Code::NH0015
                    || !model.levels.iter().any(|l| l.range.contains_range(d.range))
            });
        let mut files: Vec<CompiledFile> = Vec::new();
        for level in levkit_compile::nethack::compile_file(model, diagnostics) {
            let Some(name) = level.file_name else {
                continue;
            };
            let bytes = level.bytes.filter(|_| !file_errors);
            // lev_comp opens an existing output without truncating it, so a later level of
            // the same name (NH0421) overwrites the start of the earlier one's bytes.
            if let Some(bytes) = &bytes
                && let Some(earlier) = files
                    .iter_mut()
                    .find(|f| f.name == name && f.bytes.is_some())
                && let Some(old) = &mut earlier.bytes
            {
                let tail = old.get(bytes.len()..).unwrap_or_default().to_vec();
                *old = bytes.clone();
                old.extend(tail);
                continue;
            }
            files.push(CompiledFile { name, bytes });
        }
        Compiled {
            files,
            ..Compiled::default()
        }
    }
}

/// A `.lev` file as readable records; on a malformed file, what was decoded and the problem.
pub(crate) fn inspect(bytes: &[u8]) -> Result<String, (String, String)> {
    levkit_compile::nethack::inspect(bytes).map_err(|e| (e.partial.clone(), e.to_string()))
}

/// A random level of the Dungeons of Doom as NetHack 3.4.3 builds it (`levkit generate`).
#[derive(Debug, Clone)]
pub struct RandomLevel {
    /// The reference maps' format: 21 rows, then the rooms; secret doors and corridors shown
    /// as `S` and `C` when asked to reveal them.
    pub map: String,
    /// The level as `levkit preview` draws it.
    pub picture: levkit_render::Picture,
}

/// The depths of the reference game's Dungeons of Doom, where random levels are made.
pub(crate) const DOOM_DEPTHS: std::ops::RangeInclusive<i32> = 1..=27;

pub(crate) fn random_level(seed: u32, depth: i32, reveal: bool) -> Option<RandomLevel> {
    use levkit_generate::{level::Place, mklev, rng::Rng};
    if !DOOM_DEPTHS.contains(&depth) {
        return None;
    }
    let generated = mklev::makelevel(&mut Rng::new(seed), &Place::doom(depth));
    Some(RandomLevel {
        map: mklev::map_text(&generated, reveal),
        picture: levkit_render::Picture::new(&generated.level, &|_| None),
    })
}
