//! Completion for lev_comp and dgn_comp files, which share their machinery: statement
//! keywords at the start of a line, the values a statement takes at the cursor's argument,
//! and names from the game's tables (or the workspace) inside strings.

use levkit_diagnostics::{TextRange, TextSize};
use levkit_model::nethack::tables::{FEATURES, MONSTERS, OBJECTS, ROOM_TYPES, TRAPS};
use levkit_syntax::SyntaxKind::{self, *};
use levkit_syntax::ast::values;
use levkit_syntax::{SyntaxNode, SyntaxToken};

use crate::db::{SourceFile, Workspace, parse};
use crate::features::{Completion, CompletionKind};

/// Whose keywords to offer: lev_comp's (levels) or dgn_comp's (the dungeon description).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Vocabulary {
    Levels,
    Dungeon,
}

fn is_statement(kind: SyntaxKind) -> bool {
    use levkit_syntax::ast::AstNode;
    levkit_syntax::nethack::ast::Statement::can_cast(kind)
        || levkit_syntax::dungeon::ast::DungeonStatement::can_cast(kind)
}

pub(crate) fn completions(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    offset: TextSize,
    dialect: Vocabulary,
) -> Vec<Completion> {
    let root = parse(db, file).syntax();
    let Some(token) = root.token_at_offset(offset).left_biased() else {
        return keywords(dialect, None, TextRange::empty(offset));
    };
    let statement = token.parent_ancestors().find(|n| is_statement(n.kind()));
    // Inside a string: names.
    if matches!(token.kind(), STRING | UNTERMINATED_STRING) && offset > token.text_range().start() {
        let closed = token.kind() == STRING && token.text().len() > 1;
        if closed && offset >= token.text_range().end() {
            return Vec::new();
        }
        let start = token.text_range().start() + TextSize::from(1);
        let end = if closed {
            token.text_range().end() - TextSize::from(1)
        } else {
            token.text_range().end()
        };
        let replace = TextRange::new(start, end.max(start));
        return statement.map_or_else(Vec::new, |s| names(db, workspace, &s, &token, replace));
    }
    // At the start of a line, or on a word that starts it: statement keywords.
    let line_start = line_prefix_is_blank(&root, &token, offset);
    if line_start {
        let replace = if token.kind() == IDENT
            || token.kind().is_nethack_statement_start()
            || token.kind().is_dungeon_statement_start()
        {
            token.text_range()
        } else {
            TextRange::empty(offset)
        };
        // The line break after a level's last statement belongs to the file, not the level:
        // a blank line there is still in the level that the text above opened.
        let is_level = |n: &SyntaxNode| matches!(n.kind(), MAZE_LEVEL | ROOM_LEVEL);
        let level = token
            .parent_ancestors()
            .find(is_level)
            .or_else(|| {
                root.children()
                    .filter(|n| is_level(n) && n.text_range().start() < offset)
                    .last()
            })
            .map(|n| n.kind());
        return keywords(dialect, level, replace);
    }
    let Some(statement) = statement else {
        return Vec::new();
    };
    let replace = if matches!(token.kind(), COMMA | COLON | WHITESPACE | L_PAREN) {
        TextRange::empty(offset)
    } else {
        token.text_range()
    };
    let index = argument_index(&statement, offset);
    value_keywords(dialect, statement.kind(), index)
        .into_iter()
        .map(|label| Completion {
            label: label.to_string(),
            kind: CompletionKind::Value,
            detail: None,
            replace,
        })
        .collect()
}

/// Whether only blanks (or the word being typed) come before the cursor on its line.
fn line_prefix_is_blank(root: &SyntaxNode, token: &SyntaxToken, offset: TextSize) -> bool {
    let text = root.text().to_string();
    let offset = usize::from(offset).min(text.len());
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let prefix = &text[line_start..offset];
    let word_start = usize::from(token.text_range().start());
    let typed_word = word_start >= line_start && text[line_start..word_start].trim().is_empty();
    prefix.trim().is_empty()
        || (typed_word
            && prefix
                .trim()
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_'))
}

/// Which comma-separated argument of the statement the cursor is in.
fn argument_index(statement: &SyntaxNode, offset: TextSize) -> usize {
    statement
        .children_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| t.kind() == COMMA && t.text_range().end() <= offset)
        .count()
}

fn spellings(dialect: Vocabulary, kinds: &[SyntaxKind]) -> Vec<&'static str> {
    type Lookup = fn(&str) -> Option<SyntaxKind>;
    let (words, lookup): (&[&'static str], Lookup) = match dialect {
        Vocabulary::Dungeon => (
            levkit_syntax::dungeon::lexer::KEYWORDS,
            levkit_syntax::dungeon::lexer::keyword,
        ),
        Vocabulary::Levels => (
            levkit_syntax::nethack::lexer::KEYWORDS,
            levkit_syntax::nethack::lexer::keyword,
        ),
    };
    words
        .iter()
        .copied()
        .filter(|w| lookup(w).is_some_and(|k| kinds.contains(&k)))
        .collect()
}

fn keywords(dialect: Vocabulary, level: Option<SyntaxKind>, replace: TextRange) -> Vec<Completion> {
    let kinds: Vec<SyntaxKind> = match dialect {
        Vocabulary::Dungeon => {
            vec![
                DUNGEON_KW,
                ENTRY_KW,
                PROTOFILE_KW,
                DESCRIPTION_KW,
                DGN_ALIGNMENT_KW,
                LEVEL_KW,
                RNDLEVEL_KW,
                CHAINLEVEL_KW,
                RNDCHLEVEL_KW,
                LEVELDESC_KW,
                LEVALIGN_KW,
                BRANCH_KW,
                CHAINBRANCH_KW,
            ]
        }
        Vocabulary::Levels => {
            let mut kinds = vec![MAZE_KW, LEVEL_KW];
            let header = [FLAGS_KW, INIT_MAP_KW, MESSAGE_KW];
            let common = [
                MONSTER_KW,
                OBJECT_KW,
                CONTAINER_KW,
                TRAP_KW,
                DOOR_KW,
                ALTAR_KW,
                FOUNTAIN_KW,
                GOLD_KW,
                ENGRAVING_KW,
                STAIR_KW,
            ];
            match level {
                Some(MAZE_LEVEL) => {
                    kinds.extend(header);
                    kinds.extend([
                        GEOMETRY_KW,
                        MAP_KW,
                        ENDMAP_KW,
                        NOMAP_KW,
                        RANDOM_PLACES_KW,
                        RANDOM_OBJECTS_KW,
                        RANDOM_MONSTERS_KW,
                    ]);
                    kinds.extend(common);
                    kinds.extend([
                        DRAWBRIDGE_KW,
                        MAZEWALK_KW,
                        WALLIFY_KW,
                        LADDER_KW,
                        PORTAL_KW,
                        TELEPORT_REGION_KW,
                        BRANCH_KW,
                        NON_DIGGABLE_KW,
                        NON_PASSWALL_KW,
                        REGION_KW,
                    ]);
                }
                Some(_) => {
                    kinds.extend(header);
                    kinds.extend([
                        RANDOM_OBJECTS_KW,
                        RANDOM_MONSTERS_KW,
                        ROOM_KW,
                        SUBROOM_KW,
                        NAME_KW,
                        CHANCE_KW,
                    ]);
                    kinds.extend(common);
                    kinds.extend([SINK_KW, POOL_KW, RANDOM_CORRIDORS_KW, CORRIDOR_KW]);
                }
                None => {}
            }
            kinds
        }
    };
    spellings(dialect, &kinds)
        .into_iter()
        .map(|w| Completion {
            label: w.to_string(),
            kind: CompletionKind::Keyword,
            detail: None,
            replace,
        })
        .collect()
}

/// The keywords a statement accepts at argument `index`.
fn value_keywords(dialect: Vocabulary, statement: SyntaxKind, index: usize) -> Vec<&'static str> {
    let kinds: &[SyntaxKind] = match (statement, index) {
        (MAZE_DECL, 1) => &[RANDOM_KW],
        (FLAGS_STMT, _) => &[FLAG_TYPE],
        (INIT_MAP_STMT, 2 | 3) => &[BOOLEAN],
        (INIT_MAP_STMT, 4) | (ROOM_STMT | SUBROOM_STMT, 1) | (REGION_STMT, 1) => {
            &[LIGHT_STATE, RANDOM_KW]
        }
        (INIT_MAP_STMT, 5) | (ROOM_DOOR_STMT, 0) => &[BOOLEAN, RANDOM_KW],
        (GEOMETRY_STMT, 0) => &[LEFT_OR_RIGHT, CENTER_KW],
        (GEOMETRY_STMT, 1) => &[TOP_OR_BOT, CENTER_KW],
        (ROOM_STMT, 0 | 2 | 3 | 4)
        | (SUBROOM_STMT, 0 | 2 | 3)
        | (TRAP_STMT, 0)
        | (GOLD_STMT, 0)
        | (REGION_STMT, 2) => &[RANDOM_KW],
        (ROOM_STMT | SUBROOM_STMT, 5) | (REGION_STMT, 4) => &[BOOLEAN],
        (ROOM_DOOR_STMT, 1) | (DOOR_STMT, 0) => &[DOOR_STATE, RANDOM_KW],
        (ROOM_DOOR_STMT, 2) => &[DIRECTION, RANDOM_KW],
        (ROOM_DOOR_STMT, 3) => &[RANDOM_KW],
        (DOOR_STMT, 1)
        | (MONSTER_STMT, 2)
        | (TRAP_STMT, 1)
        | (FOUNTAIN_STMT | SINK_STMT | POOL_STMT, 0)
        | (GOLD_STMT, 1) => &[RANDOM_KW, PLACE_REG_KW],
        (
            ALTAR_STMT | ENGRAVING_STMT | LADDER_STMT | STAIR_STMT | MAZEWALK_STMT
            | DRAWBRIDGE_STMT,
            0,
        ) => &[RANDOM_KW, PLACE_REG_KW],
        (MONSTER_STMT, 0) => &[RANDOM_KW, MONSTER_REG_KW],
        (MONSTER_STMT | OBJECT_STMT, 1) => &[RANDOM_KW],
        (MONSTER_STMT, _) => &[
            MON_ATTITUDE,
            MON_ALERTNESS,
            ALIGNMENT,
            ALIGN_REG_KW,
            MON_APPEARANCE,
        ],
        (OBJECT_STMT, 0) => &[RANDOM_KW, OBJECT_REG_KW],
        (OBJECT_STMT, 2) => &[CONTAINED_KW, RANDOM_KW, PLACE_REG_KW],
        (OBJECT_STMT, 3) => &[CURSE_TYPE, RANDOM_KW],
        (OBJECT_STMT, _) => &[RANDOM_KW, NONE_KW],
        (DRAWBRIDGE_STMT | MAZEWALK_STMT, 1) => &[DIRECTION],
        (LADDER_STMT | STAIR_STMT, 1) | (STAIR_REGION_STMT | TELEPORT_REGION_STMT, 2) => {
            &[UP_OR_DOWN]
        }
        (STAIR_REGION_STMT | PORTAL_STMT | TELEPORT_REGION_STMT | BRANCH_STMT, 0 | 1) => {
            &[LEVREGION_KW]
        }
        (ALTAR_STMT, 1) => &[ALIGNMENT, ALIGN_REG_KW, RANDOM_KW],
        (ALTAR_STMT, 2) => &[ALTAR_TYPE, RANDOM_KW],
        (ENGRAVING_STMT, 1) => &[ENGRAVING_TYPE, RANDOM_KW],
        (REGION_STMT, 3) => &[FILLING],
        (DESCRIPTION_STMT | DGN_ALIGNMENT_STMT | LEVELDESC_STMT | LEVALIGN_STMT, _) => {
            &[DESCRIPTOR]
        }
        (DGN_BRANCH_STMT | CHAIN_BRANCH_STMT, _) => &[BRANCH_TYPE, UP_OR_DOWN],
        _ => &[],
    };
    let mut words = spellings(dialect, kinds);
    if statement == DRAWBRIDGE_STMT && index == 2 {
        words = vec!["open", "closed"];
    }
    words
}

fn unquote(token: &SyntaxToken) -> String {
    token.text().trim_matches('"').to_string()
}

fn names(
    db: &dyn salsa::Database,
    workspace: Workspace,
    statement: &SyntaxNode,
    token: &SyntaxToken,
    replace: TextRange,
) -> Vec<Completion> {
    let vals = values(statement);
    let index = vals
        .iter()
        .position(|v| v.text_range().contains_range(token.text_range()));
    let class = vals
        .first()
        .and_then(|v| v.token())
        .filter(|t| t.kind() == CHAR)
        .and_then(|t| {
            let inner = &t.text()[1..t.text().len().saturating_sub(1)];
            inner
                .strip_prefix('\\')
                .filter(|s| !s.is_empty())
                .unwrap_or(inner)
                .bytes()
                .next()
        });
    let in_appearance = token.parent().is_some_and(|p| p.kind() == APPEARANCE);
    let item = |label: &str, kind, detail: String| Completion {
        label: label.to_string(),
        kind,
        detail: Some(detail),
        replace,
    };
    let monsters = |class: Option<u8>| {
        MONSTERS
            .iter()
            .filter(|m| class.is_none_or(|c| m.class == c))
            .map(|m| {
                item(
                    m.name.as_str(),
                    CompletionKind::Monster,
                    format!("monster '{}', index {}", m.class as char, m.index),
                )
            })
            .collect::<Vec<_>>()
    };
    let objects = |class: Option<u8>| {
        OBJECTS
            .iter()
            .filter(|o| !o.name.is_empty() && class.is_none_or(|c| o.class == c))
            .map(|o| {
                item(
                    o.name.as_str(),
                    CompletionKind::Object,
                    format!("object '{}', index {}", o.class as char, o.index),
                )
            })
            .collect::<Vec<_>>()
    };
    match (statement.kind(), index) {
        (MONSTER_STMT, _) if in_appearance => {
            let kind = token
                .parent()
                .and_then(|p| p.first_token())
                .map(|t| t.text().to_string());
            match kind.as_deref() {
                Some("m_object") => objects(None),
                _ => FEATURES
                    .iter()
                    .filter(|f| !f.explanation.is_empty())
                    .map(|f| {
                        item(
                            f.explanation.as_str(),
                            CompletionKind::Feature,
                            format!("looks like '{}'", f.symbol as char),
                        )
                    })
                    .fold(Vec::new(), |mut acc: Vec<Completion>, c| {
                        if !acc.iter().any(|a| a.label == c.label) {
                            acc.push(c);
                        }
                        acc
                    }),
            }
        }
        (MONSTER_STMT, Some(1)) => monsters(class),
        (OBJECT_STMT, Some(1)) => objects(class),
        (OBJECT_STMT, Some(_)) => monsters(None),
        (TRAP_STMT, Some(0)) => TRAPS
            .iter()
            .map(|(n, v)| item(n, CompletionKind::Trap, format!("trap type {v}")))
            .collect(),
        (ROOM_STMT | SUBROOM_STMT, Some(0)) | (REGION_STMT, Some(2)) => ROOM_TYPES
            .iter()
            .map(|(n, v)| item(n, CompletionKind::RoomType, format!("room type {v}")))
            .collect(),
        (SUBROOM_STMT, Some(4)) => statement
            .ancestors()
            .find(|n| n.kind() == ROOM_LEVEL)
            .into_iter()
            .flat_map(|level| {
                level
                    .descendants()
                    .filter(|n| n.kind() == NAME_STMT)
                    .collect::<Vec<_>>()
            })
            .filter_map(|n| values(&n).first().and_then(|v| v.token().cloned()))
            .map(|t| item(&unquote(&t), CompletionKind::Name, "room".into()))
            .collect(),
        (PORTAL_STMT, Some(2)) | (CHAIN_LEVEL_STMT, Some(2)) | (CHAIN_BRANCH_STMT, Some(1)) => {
            level_names(db, workspace, statement, replace)
        }
        (DGN_BRANCH_STMT | CHAIN_BRANCH_STMT, Some(0)) => statement
            .ancestors()
            .last()
            .into_iter()
            .flat_map(|root| {
                root.descendants()
                    .filter(|n| n.kind() == DUNGEON_STMT)
                    .collect::<Vec<_>>()
            })
            .filter_map(|n| values(&n).first().and_then(|v| v.token().cloned()))
            .map(|t| item(&unquote(&t), CompletionKind::Name, "dungeon".into()))
            .collect(),
        _ => Vec::new(),
    }
}

/// Level names: from dungeon.def statements of the workspace (or this file).
fn level_names(
    db: &dyn salsa::Database,
    workspace: Workspace,
    statement: &SyntaxNode,
    replace: TextRange,
) -> Vec<Completion> {
    let mut roots: Vec<SyntaxNode> = statement.ancestors().last().into_iter().collect();
    roots.extend(workspace.files(db).iter().map(|&f| parse(db, f).syntax()));
    let mut out: Vec<Completion> = Vec::new();
    for root in roots {
        for node in root.descendants().filter(|n| {
            matches!(
                n.kind(),
                DGN_LEVEL_STMT | CHAIN_LEVEL_STMT | MAZE_DECL | LEVEL_DECL
            )
        }) {
            if let Some(t) = values(&node).first().and_then(|v| v.token().cloned()) {
                let label = unquote(&t);
                if !out.iter().any(|c| c.label == label) {
                    out.push(Completion {
                        label,
                        kind: CompletionKind::Name,
                        detail: Some("level".into()),
                        replace,
                    });
                }
            }
        }
    }
    out
}
