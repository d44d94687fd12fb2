//! Links between a dungeon description and the `.des` files beside it: every special level of
//! the dungeon should have a level file, and every level file should be reachable.

use std::path::Path;

use levkit_diagnostics::{Code, Diagnostic, TextRange};
use levkit_model::dungeon::StatementKind;

use crate::db::{SourceFile, Workspace};
use crate::dungeon::dungeon_model;
use crate::nethack::nethack_model;

/// Levels the game builds by code, with no level file.
const BUILT_WITHOUT_FILE: &[&str] = &["rogue", "dummy"];

/// Which `.des` level names a dungeon description asks for.
struct Wanted {
    /// Exact names, each with the range of the dungeon.def text that asks for it.
    names: Vec<(String, TextRange)>,
    /// Quest levels `x-NAME`: any role's `Rol-NAME`.
    role_suffixes: Vec<(String, TextRange)>,
    /// Whether filler files (`minefill`, `Rol-fila`, `Rol-filb`) are loaded.
    mines: bool,
    quest: bool,
}

fn wanted(model: &levkit_model::dungeon::DungeonFile) -> Wanted {
    let mut wanted = Wanted {
        names: Vec::new(),
        role_suffixes: Vec::new(),
        mines: false,
        quest: false,
    };
    let mut depth = 0;
    for statement in &model.statements {
        match &statement.kind {
            StatementKind::Dungeon { name, depth: d, .. } => {
                depth = d.value.base + d.value.rand.max(0);
                wanted.mines |= name.value == "The Gnomish Mines";
            }
            StatementKind::Protofile(proto) => {
                for level in 1..=depth {
                    wanted
                        .names
                        .push((format!("{}{level}", proto.value), proto.range));
                }
            }
            StatementKind::Level {
                name, alternatives, ..
            } => {
                if BUILT_WITHOUT_FILE.contains(&name.value.as_str()) {
                    continue;
                }
                if let Some(suffix) = name.value.strip_prefix("x-") {
                    wanted.role_suffixes.push((suffix.to_string(), name.range));
                    wanted.quest = true;
                } else if let Some(n) = alternatives {
                    for i in 1..=n.value.max(0) {
                        wanted
                            .names
                            .push((format!("{}-{i}", name.value), name.range));
                    }
                } else {
                    wanted.names.push((name.value.clone(), name.range));
                }
            }
            _ => {}
        }
    }
    wanted
}

fn role_suffix(name: &str) -> Option<&str> {
    let (role, suffix) = name.split_once('-')?;
    (role.len() == 3 && role.chars().next().is_some_and(|c| c.is_ascii_uppercase()))
        .then_some(suffix)
}

fn under(dir: &Path, path: &Path) -> bool {
    path.starts_with(dir)
}

/// What a dungeon description and the level files beside it say of each other, each
/// diagnostic with the file it belongs to.
pub(crate) fn links(
    db: &dyn salsa::Database,
    workspace: Workspace,
    dungeon_file: SourceFile,
) -> Vec<(SourceFile, Diagnostic)> {
    let mut out = Vec::new();
    let files = workspace.files(db);
    let Some(model) = dungeon_model(db, dungeon_file) else {
        return out;
    };
    let dir = dungeon_file.path(db).parent().unwrap_or(Path::new(""));
    let levels: Vec<(SourceFile, String, TextRange)> = files
        .iter()
        .filter(|f| under(dir, f.path(db)))
        .filter_map(|&f| nethack_model(db, f).as_ref().map(|m| (f, m)))
        .flat_map(|(f, m)| {
            m.levels
                .iter()
                .filter_map(move |l| l.name.as_ref().map(|n| (f, n.value.clone(), n.range)))
        })
        .collect();
    if levels.is_empty() {
        return out;
    }
    let wanted = wanted(model);
    let defined = |name: &str| levels.iter().any(|(_, level, _)| level == name);
    let found_any = wanted.names.iter().any(|(name, _)| defined(name))
        || wanted.role_suffixes.iter().any(|(suffix, _)| {
            levels
                .iter()
                .any(|(_, level, _)| role_suffix(level) == Some(suffix.as_str()))
        });
    if !found_any {
        // A folder of other levels (examples, a variant's work in progress): one note, not
        // a warning per level the game would load.
        let at = model
            .statements
            .first()
            .map_or_else(TextRange::default, |s| s.range);
        let count = wanted.names.len() + wanted.role_suffixes.len();
        out.push((
            dungeon_file,
            Diagnostic::new(
                Code::DG0503,
                at,
                format!(
                    "none of the {count} special levels this dungeon description loads is defined by the {} level{} in this folder, so the links between them are not checked; keep the dungeon's `.des` files beside it to check them",
                    levels.len(),
                    if levels.len() == 1 { "" } else { "s" }
                ),
            ),
        ));
        return out;
    }
    // One warning per statement, naming every level it lacks (an RNDLEVEL's alternatives).
    let mut missing: Vec<(TextRange, Vec<&str>)> = Vec::new();
    for (name, range) in &wanted.names {
        if defined(name) {
            continue;
        }
        match missing.iter_mut().find(|(r, _)| r == range) {
            Some((_, names)) => names.push(name),
            None => missing.push((*range, vec![name])),
        }
    }
    for (range, names) in missing {
        let message = match names.as_slice() {
            [name] => format!(
                "no `.des` file here defines the level \"{name}\", which the game loads as {name}.lev"
            ),
            names => format!(
                "no `.des` file here defines the levels {}, which the game loads from {}",
                names
                    .iter()
                    .map(|n| format!("\"{n}\""))
                    .collect::<Vec<_>>()
                    .join(", "),
                names
                    .iter()
                    .map(|n| format!("{n}.lev"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        out.push((dungeon_file, Diagnostic::new(Code::DG0501, range, message)));
    }
    for (suffix, range) in &wanted.role_suffixes {
        if !levels
            .iter()
            .any(|(_, level, _)| role_suffix(level) == Some(suffix.as_str()))
        {
            out.push((
                dungeon_file,
                Diagnostic::new(
                    Code::DG0501,
                    *range,
                    format!(
                        "no `.des` file here defines a quest level \"Rol-{suffix}\" for any role"
                    ),
                ),
            ));
        }
    }
    for (file, level, range) in &levels {
        let reachable = wanted.names.iter().any(|(n, _)| n == level)
            || role_suffix(level).is_some_and(|s| {
                wanted.role_suffixes.iter().any(|(w, _)| w == s)
                    || (wanted.quest && matches!(s, "fila" | "filb"))
            })
            || (wanted.mines && level == "minefill");
        if !reachable {
            out.push((
                *file,
                Diagnostic::new(
                    Code::DG0502,
                    *range,
                    format!(
                        "the dungeon description {} never loads the level \"{level}\"; add it there or remove it",
                        dungeon_file.path(db).file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned())
                    ),
                ),
            ));
        }
    }
    out
}
