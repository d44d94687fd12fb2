//! Go to definition and find references: registers and the lists that define them, subroom
//! parents and room names, dungeon.def chains, and level names across a dungeon.def and the
//! `.des` files of the workspace.

use levkit_diagnostics::{TextRange, TextSize};
use levkit_syntax::SyntaxKind::*;
use levkit_syntax::ast::{AstNode, Value, values};
use levkit_syntax::{SyntaxNode, SyntaxToken};

use crate::FileId;
use crate::db::{SourceFile, Workspace, parse};
use crate::features::Location;

/// What the cursor names.
enum Target {
    /// `place[i]`, `monster[i]`, `object[i]` in a part or level, or the i-th register entry.
    Register {
        scope: SyntaxNode,
        list: levkit_syntax::SyntaxKind,
        index: usize,
    },
    /// A room name (a NAME or a SUBROOM's parent) in a level.
    RoomName { level: SyntaxNode, name: String },
    /// A level name: in a MAZE/LEVEL declaration or in dungeon.def.
    LevelName(String),
}

fn token_at(db: &dyn salsa::Database, file: SourceFile, offset: TextSize) -> Option<SyntaxToken> {
    crate::tree::token_at(&parse(db, file).syntax(), offset)
}

use crate::tree::unquote;

fn register_list(kind: levkit_syntax::SyntaxKind) -> Option<levkit_syntax::SyntaxKind> {
    Some(match kind {
        PLACE_REG_KW => RANDOM_PLACES_STMT,
        MONSTER_REG_KW => RANDOM_MONSTERS_STMT,
        OBJECT_REG_KW => RANDOM_OBJECTS_STMT,
        _ => return None,
    })
}

/// The map part (maze) or level (rooms) whose registers a node uses.
fn register_scope(node: &SyntaxNode) -> Option<SyntaxNode> {
    node.ancestors()
        .find(|n| n.kind() == MAP_PART)
        .or_else(|| node.ancestors().find(|n| n.kind() == ROOM_LEVEL))
}

/// The position of a value in its statement's values.
fn value_index(statement: &SyntaxNode, token: &SyntaxToken) -> Option<usize> {
    values(statement)
        .iter()
        .position(|v| v.text_range().contains_range(token.text_range()))
}

fn target(token: &SyntaxToken) -> Option<Target> {
    if let Some(register) = token.parent_ancestors().find(|n| n.kind() == REGISTER) {
        let keyword = register.first_token()?.kind();
        let index: usize = values(&register).first()?.token()?.text().parse().ok()?;
        return Some(Target::Register {
            scope: register_scope(&register)?,
            list: register_list(keyword)?,
            index,
        });
    }
    let statement = token.parent_ancestors().find(|n| {
        levkit_syntax::nethack::ast::Statement::can_cast(n.kind())
            || levkit_syntax::dungeon::ast::DungeonStatement::can_cast(n.kind())
    })?;
    let kind = statement.kind();
    if matches!(
        kind,
        RANDOM_PLACES_STMT | RANDOM_MONSTERS_STMT | RANDOM_OBJECTS_STMT
    ) {
        let index = value_index(&statement, token)?;
        return Some(Target::Register {
            scope: register_scope(&statement)?,
            list: kind,
            index,
        });
    }
    if !matches!(token.kind(), STRING | UNTERMINATED_STRING) {
        return None;
    }
    let name = unquote(token.text());
    let index = value_index(&statement, token)?;
    match (kind, index) {
        (NAME_STMT, 0) | (SUBROOM_STMT, 4) => Some(Target::RoomName {
            level: statement.ancestors().find(|n| n.kind() == ROOM_LEVEL)?,
            name,
        }),
        (MAZE_DECL | LEVEL_DECL | DGN_LEVEL_STMT | CHAIN_LEVEL_STMT, 0)
        | (CHAIN_LEVEL_STMT, 2)
        | (CHAIN_BRANCH_STMT, 1)
        | (PORTAL_STMT, 2) => Some(Target::LevelName(name)),
        _ => None,
    }
}

/// The value ranges of the i-th entry of a register list statement.
fn register_entries(scope: &SyntaxNode, list: levkit_syntax::SyntaxKind) -> Vec<TextRange> {
    scope
        .children()
        .chain(scope.descendants().filter(|n| n.kind() == list))
        .filter(|n| n.kind() == list)
        .take(1)
        .flat_map(|n| values(&n).into_iter().map(|v| v.text_range()))
        .collect()
}

fn register_uses(
    scope: &SyntaxNode,
    list: levkit_syntax::SyntaxKind,
    index: usize,
) -> Vec<TextRange> {
    scope
        .descendants()
        .filter(|n| n.kind() == REGISTER)
        .filter(|n| n.first_token().and_then(|t| register_list(t.kind())) == Some(list))
        .filter(|n| {
            values(n)
                .first()
                .and_then(Value::token)
                .and_then(|t| t.text().parse::<usize>().ok())
                == Some(index)
        })
        .map(|n| n.text_range())
        .collect()
}

fn room_names(level: &SyntaxNode, name: &str) -> Vec<TextRange> {
    level
        .descendants()
        .filter(|n| n.kind() == NAME_STMT)
        .filter_map(|n| values(&n).first().and_then(|v| v.token().cloned()))
        .filter(|t| unquote(t.text()) == name)
        .map(|t| t.text_range())
        .collect()
}

fn room_parents(level: &SyntaxNode, name: &str) -> Vec<TextRange> {
    level
        .descendants()
        .filter(|n| n.kind() == SUBROOM_STMT)
        .filter_map(|n| values(&n).get(4).and_then(|v| v.token().cloned()))
        .filter(|t| unquote(t.text()) == name)
        .map(|t| t.text_range())
        .collect()
}

/// Where a level of this name is declared: `.des` levels, and dungeon.def level statements.
fn level_declarations(
    db: &dyn salsa::Database,
    files: &[SourceFile],
    name: &str,
) -> (Vec<Location>, Vec<Location>) {
    let (mut des, mut dungeon) = (Vec::new(), Vec::new());
    for &file in files {
        let root = parse(db, file).syntax();
        for node in root.descendants().filter(|n| {
            matches!(
                n.kind(),
                MAZE_DECL | LEVEL_DECL | DGN_LEVEL_STMT | CHAIN_LEVEL_STMT
            )
        }) {
            let Some(token) = values(&node).first().and_then(|v| v.token().cloned()) else {
                continue;
            };
            let declared = unquote(token.text());
            let is_dungeon = matches!(node.kind(), DGN_LEVEL_STMT | CHAIN_LEVEL_STMT);
            // A random level `name` is loaded from `name-1`...; quest `x-NAME` from `Rol-NAME`.
            let matches = declared == name
                || (is_dungeon
                    && name
                        .rsplit_once('-')
                        .is_some_and(|(stem, n)| stem == declared && n.parse::<u32>().is_ok()))
                || (is_dungeon
                    && declared.strip_prefix("x-").is_some_and(|s| {
                        name.split_once('-')
                            .is_some_and(|(r, t)| r.len() == 3 && t == s)
                    }));
            if matches {
                let location = Location {
                    file: FileId(file),
                    range: token.text_range(),
                };
                if is_dungeon {
                    dungeon.push(location)
                } else {
                    des.push(location)
                }
            }
        }
    }
    (des, dungeon)
}

fn workspace_files(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
) -> Vec<SourceFile> {
    let mut files = workspace.files(db).clone();
    if !files.contains(&file) {
        files.push(file);
    }
    files
}

pub(crate) fn goto_definition(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    offset: TextSize,
) -> Vec<Location> {
    let Some(token) = token_at(db, file, offset) else {
        return Vec::new();
    };
    let at = |range| Location {
        file: FileId(file),
        range,
    };
    match target(&token) {
        Some(Target::Register { scope, list, index }) => register_entries(&scope, list)
            .get(index)
            .map(|&r| vec![at(r)])
            .unwrap_or_default(),
        Some(Target::RoomName { level, name }) => {
            room_names(&level, &name).into_iter().map(at).collect()
        }
        Some(Target::LevelName(name)) => {
            let files = workspace_files(db, workspace, file);
            let (des, dungeon) = level_declarations(db, &files, &name);
            let in_dungeon_file = token.parent_ancestors().any(|n| {
                matches!(
                    n.kind(),
                    DGN_LEVEL_STMT | CHAIN_LEVEL_STMT | CHAIN_BRANCH_STMT
                )
            });
            let is_chain_base = token
                .parent_ancestors()
                .find(|n| matches!(n.kind(), CHAIN_LEVEL_STMT | CHAIN_BRANCH_STMT))
                .is_some_and(|s| value_index(&s, &token) != Some(0));
            // From dungeon.def, a level's definition is its level file; a chain's, the level
            // it names. From a level file, it is the dungeon.def line that places the level.
            let preferred = if is_chain_base {
                dungeon
                    .into_iter()
                    .filter(|l| l.file == FileId(file))
                    .collect()
            } else if in_dungeon_file {
                des
            } else {
                dungeon
            };
            preferred
                .into_iter()
                .filter(|l| !l.range.contains_range(token.text_range()) || l.file != FileId(file))
                .collect()
        }
        None => Vec::new(),
    }
}

pub(crate) fn references(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    offset: TextSize,
) -> Vec<Location> {
    let Some(token) = token_at(db, file, offset) else {
        return Vec::new();
    };
    let at = |range| Location {
        file: FileId(file),
        range,
    };
    match target(&token) {
        Some(Target::Register { scope, list, index }) => {
            let mut out: Vec<Location> = register_entries(&scope, list)
                .get(index)
                .map(|&r| vec![at(r)])
                .unwrap_or_default();
            out.extend(register_uses(&scope, list, index).into_iter().map(at));
            out
        }
        Some(Target::RoomName { level, name }) => room_names(&level, &name)
            .into_iter()
            .chain(room_parents(&level, &name))
            .map(at)
            .collect(),
        Some(Target::LevelName(name)) => {
            let files = workspace_files(db, workspace, file);
            let (des, dungeon) = level_declarations(db, &files, &name);
            let mut out: Vec<Location> = des.into_iter().chain(dungeon).collect();
            for &other in &files {
                let root = parse(db, other).syntax();
                for statement in root.descendants().filter(|n| {
                    matches!(n.kind(), CHAIN_LEVEL_STMT | CHAIN_BRANCH_STMT | PORTAL_STMT)
                }) {
                    let index = match statement.kind() {
                        CHAIN_LEVEL_STMT | PORTAL_STMT => 2,
                        _ => 1,
                    };
                    if let Some(t) = values(&statement)
                        .get(index)
                        .and_then(|v| v.token().cloned())
                        && unquote(t.text()) == name
                    {
                        out.push(Location {
                            file: FileId(other),
                            range: t.text_range(),
                        });
                    }
                }
            }
            out
        }
        None => Vec::new(),
    }
}
