//! NetHack's dungeon description (`dungeon.def`, dgn_comp): checks, the links to the level
//! files beside it, keyword hover, completion, outline, navigation to levels, an overview as
//! the preview, and the `dungeon` file `compile` writes.

mod links;

use levkit_diagnostics::{Diagnostic, Severity, TextSize};
use levkit_model::dungeon::DungeonFile;
use levkit_syntax::Dialect;
use levkit_syntax::SyntaxKind::*;
use levkit_syntax::SyntaxNode;

use crate::compile::{Compiled, CompiledFile, Emit};
use crate::db::{SourceFile, Workspace, dialect, line_index, parse};
use crate::features::{Completion, Fold, Highlight, Hover, Location, Symbol, SymbolKind};
use crate::languages::Language;
use crate::nethack::completion::Vocabulary;
use crate::nethack::{completion, navigation, structure};
use crate::preview::{
    Card, CardDetail, Controls, DungeonOverview, DungeonPreview, Preview, PreviewRequest, Spans,
};

pub(crate) struct Dungeon;

/// The model of a dungeon description (`None` for files of other dialects).
#[salsa::tracked]
pub(crate) fn dungeon_model(db: &dyn salsa::Database, file: SourceFile) -> Option<DungeonFile> {
    (dialect(db, file) == Dialect::NethackDungeon)
        .then(|| levkit_model::dungeon::lower(&parse(db, file).syntax()))
}

impl Language for Dungeon {
    fn diagnostics(&self, db: &dyn salsa::Database, file: SourceFile) -> Vec<Diagnostic> {
        let mut out = parse(db, file).errors().to_vec();
        if let Some(model) = dungeon_model(db, file) {
            out.extend(levkit_check::dungeon::check(model));
        }
        out
    }

    fn workspace_diagnostics(
        &self,
        db: &dyn salsa::Database,
        workspace: Workspace,
        file: SourceFile,
    ) -> Vec<(SourceFile, Diagnostic)> {
        links::links(db, workspace, file)
    }

    /// The level files it links with: their diagnostics (DG0502) and their place.
    fn dependents(
        &self,
        db: &dyn salsa::Database,
        workspace: Workspace,
        file: SourceFile,
    ) -> Vec<SourceFile> {
        crate::db::files_below(db, workspace, file)
    }

    fn hover(&self, db: &dyn salsa::Database, file: SourceFile, offset: TextSize) -> Option<Hover> {
        let token = crate::tree::token_at(&parse(db, file).syntax(), offset)?;
        Some(Hover {
            range: token.text_range(),
            markdown: crate::docs::render(crate::docs::dungeon_keyword(token.text())?),
        })
    }

    fn completions(
        &self,
        db: &dyn salsa::Database,
        workspace: Workspace,
        file: SourceFile,
        offset: TextSize,
    ) -> Vec<Completion> {
        completion::completions(db, workspace, file, offset, Vocabulary::Dungeon)
    }

    fn symbols(&self, db: &dyn salsa::Database, file: SourceFile) -> Vec<Symbol> {
        parse(db, file)
            .syntax()
            .children()
            .filter(|n| n.kind() == DUNGEON)
            .map(|n| dungeon_symbol(&n))
            .collect()
    }

    fn folding_ranges(&self, db: &dyn salsa::Database, file: SourceFile) -> Vec<Fold> {
        crate::tree::folds(&parse(db, file).syntax(), |k| k == DUNGEON)
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

    fn preview(
        &self,
        db: &dyn salsa::Database,
        _workspace: Workspace,
        file: SourceFile,
        request: &PreviewRequest,
    ) -> Preview {
        let Some(model) = dungeon_model(db, file) else {
            return Preview::nothing("this file holds no dungeon description".into());
        };
        let spans = Spans {
            text: file.text(db),
            index: line_index(db, file),
            encoding: request.encoding,
        };
        let overview = DungeonOverview::new(&model.tables());
        let cards = overview_cards(model, &overview, &spans);
        // A file with an error compiles to nothing: the overview is of the text as it stands,
        // and the first error comes with it, as a broken level's does.
        let error = spans.first_error(crate::db::file_diagnostics(db, file));
        let mut title = format!(
            "{} dungeon{}",
            overview.dungeons.len(),
            if overview.dungeons.len() == 1 {
                ""
            } else {
                "s"
            }
        );
        let mut notes = Vec::new();
        if error.is_some() {
            title.push_str(" (the file has errors)");
            notes.push(
                "the file has errors: this overview is of its text as it stands, which compiles to no dungeon file until they are fixed".into(),
            );
        }
        Preview::Dungeon(DungeonPreview {
            title: Some(title),
            controls: Some(Controls::default()),
            overview,
            cards,
            notes,
            error,
        })
    }

    fn compile(
        &self,
        db: &dyn salsa::Database,
        file: SourceFile,
        emit: Emit,
        diagnostics: &[Diagnostic],
    ) -> Compiled {
        let Some(model) = dungeon_model(db, file) else {
            return Compiled::refused("this file holds no dungeon description".into());
        };
        match emit {
            Emit::Files => {}
            Emit::Print | Emit::PrintCompat | Emit::Json | Emit::Lua => {
                return Compiled::refused(format!(
                    "a dungeon description compiles to the game's `dungeon` file, not to {}",
                    emit.describe()
                ));
            }
        }
        let has_errors = diagnostics.iter().any(|d| d.severity == Severity::Error);
        // dgn_comp names its output after the input without its extension.
        let name = file
            .path(db)
            .file_stem()
            .map_or_else(|| "dungeon".into(), |s| s.to_string_lossy().into_owned());
        Compiled {
            files: vec![CompiledFile {
                name,
                bytes: (!has_errors).then(|| levkit_compile::dungeon::compile(model)),
            }],
            ..Compiled::default()
        }
    }
}

fn dungeon_symbol(dungeon: &SyntaxNode) -> Symbol {
    let opening = dungeon.children().find(|n| n.kind() == DUNGEON_STMT);
    let mut symbol = structure::named(dungeon, opening, SymbolKind::Dungeon, "(unnamed dungeon)");
    for child in dungeon.children() {
        let kind = match child.kind() {
            DGN_LEVEL_STMT | CHAIN_LEVEL_STMT => SymbolKind::DungeonLevel,
            DGN_BRANCH_STMT | CHAIN_BRANCH_STMT => SymbolKind::Branch,
            _ => continue,
        };
        let mut entry = structure::named(&child, Some(child.clone()), kind, "?");
        entry.detail = child.first_token().map(|t| t.text().to_string());
        symbol.children.push(entry);
    }
    symbol
}

/// The overview as cards: one per dungeon (its depth and special levels), then one for the
/// branches, each linked to the statement that declares it.
fn overview_cards(model: &DungeonFile, overview: &DungeonOverview, spans: &Spans<'_>) -> Vec<Card> {
    use levkit_model::dungeon::StatementKind;
    let place = |base: i64, rand: i64| {
        let at = if base < 0 {
            format!("{} from the bottom", -base)
        } else {
            format!("level {base}")
        };
        if rand > 1 {
            format!("{at} to {}", base + rand - 1)
        } else {
            at
        }
    };
    let card = |range, name: String, details: Vec<CardDetail>| Card {
        range: spans.range(range),
        source: spans.source(range),
        fields: serde_json::Map::new(),
        name: Some(name),
        glyph: None,
        color: None,
        details,
        text: None,
    };
    let declarations = model
        .statements
        .iter()
        .filter(|s| matches!(s.kind, StatementKind::Dungeon { .. }));
    let mut cards: Vec<Card> = overview
        .dungeons
        .iter()
        .zip(declarations)
        .map(|(dungeon, statement)| {
            let depth = if dungeon.rand > 1 {
                format!("{} to {}", dungeon.base, dungeon.base + dungeon.rand - 1)
            } else {
                dungeon.base.to_string()
            };
            let details = std::iter::once(CardDetail {
                label: "levels".into(),
                value: depth,
            })
            .chain(dungeon.levels.iter().map(|level| CardDetail {
                label: level.name.clone(),
                value: format!(
                    "{}{}",
                    place(level.base, level.rand),
                    if level.variants > 0 {
                        format!(" (one of {} files)", level.variants)
                    } else {
                        String::new()
                    }
                ),
            }))
            .collect();
            card(statement.range, dungeon.name.clone(), details)
        })
        .collect();
    let first_branch = model
        .statements
        .iter()
        .find(|s| matches!(s.kind, StatementKind::Branch { .. }));
    if let Some(statement) = first_branch {
        let details = overview
            .branches
            .iter()
            .map(|b| CardDetail {
                label: b.name.clone(),
                value: format!(
                    "{} at {}{}",
                    b.kind,
                    place(b.at, 0),
                    b.after
                        .as_ref()
                        .map_or(String::new(), |a| format!(" after {a}"))
                ),
            })
            .collect();
        cards.push(card(statement.range, "branches".into(), details));
    }
    cards
}
