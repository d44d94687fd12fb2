//! The shape of a level file for editors: outline, folding and semantic highlighting
//! (tokens by class, map rows glyph by glyph). Plain data with byte ranges.

use levkit_diagnostics::{TextRange, TextSize};
use levkit_syntax::SyntaxKind::{self, *};
use levkit_syntax::{SyntaxNode, SyntaxToken};

use crate::features::{Fold, Highlight, HighlightKind, Symbol, SymbolKind};
use crate::tree::unquote;

pub(crate) fn first_string(node: &SyntaxNode) -> Option<SyntaxToken> {
    node.descendants_with_tokens()
        .filter_map(|e| e.into_token())
        .find(|t| matches!(t.kind(), STRING | UNTERMINATED_STRING))
}

pub(crate) fn statement_text(node: &SyntaxNode) -> String {
    node.text()
        .to_string()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

pub(crate) fn symbols(root: &SyntaxNode) -> Vec<Symbol> {
    root.children()
        .filter(|n| matches!(n.kind(), MAZE_LEVEL | ROOM_LEVEL))
        .map(|n| level_symbol(&n))
        .collect()
}

pub(crate) fn named(
    node: &SyntaxNode,
    opening: Option<SyntaxNode>,
    kind: SymbolKind,
    fallback: &str,
) -> Symbol {
    let name_token = opening.as_ref().and_then(first_string);
    Symbol {
        name: name_token
            .as_ref()
            .map_or_else(|| fallback.to_string(), |t| unquote(t.text())),
        detail: None,
        kind,
        range: node.text_range(),
        focus: name_token
            .map(|t| t.text_range())
            .or_else(|| opening.map(|o| o.text_range()))
            .unwrap_or_else(|| node.text_range()),
        children: Vec::new(),
    }
}

fn level_symbol(level: &SyntaxNode) -> Symbol {
    let declaration = level
        .children()
        .find(|n| matches!(n.kind(), MAZE_DECL | LEVEL_DECL));
    let mut symbol = named(level, declaration, SymbolKind::Level, "(unnamed level)");
    symbol.detail = Some(
        if level.kind() == MAZE_LEVEL {
            "MAZE"
        } else {
            "LEVEL"
        }
        .into(),
    );
    for child in level.children() {
        match child.kind() {
            MAP_PART => {
                let opening = child
                    .children()
                    .find(|n| matches!(n.kind(), GEOMETRY_STMT | NOMAP_STMT));
                let (name, detail) = match &opening {
                    Some(o) if o.kind() == NOMAP_STMT => ("NOMAP".to_string(), None),
                    Some(o) => {
                        let size = child.children().find(|n| n.kind() == MAP_BLOCK).map(|map| {
                            let rows: Vec<_> = map
                                .children_with_tokens()
                                .filter_map(|e| e.into_token())
                                .filter(|t| t.kind() == MAP_ROW)
                                .collect();
                            let width = rows
                                .iter()
                                .map(|r| r.text().chars().filter(|c| !c.is_ascii_digit()).count())
                                .max()
                                .unwrap_or(0);
                            format!("{width}x{}", rows.len())
                        });
                        (statement_text(o), size)
                    }
                    None => ("map part".into(), None),
                };
                symbol.children.push(Symbol {
                    name,
                    detail,
                    kind: SymbolKind::MapPart,
                    range: child.text_range(),
                    focus: opening.map_or(child.text_range(), |o| o.text_range()),
                    children: contents(&child),
                });
            }
            ROOM => {
                let header = child
                    .children()
                    .find(|n| matches!(n.kind(), ROOM_STMT | SUBROOM_STMT));
                let is_subroom = header.as_ref().is_some_and(|h| h.kind() == SUBROOM_STMT);
                let room_name = child
                    .children()
                    .find(|n| n.kind() == NAME_STMT)
                    .and_then(|n| first_string(&n))
                    .map(|t| unquote(t.text()));
                let room_type = header
                    .as_ref()
                    .and_then(first_string)
                    .map(|t| unquote(t.text()));
                symbol.children.push(Symbol {
                    name: room_name
                        .clone()
                        .unwrap_or_else(|| room_type.clone().unwrap_or_else(|| "random".into())),
                    detail: Some(format!(
                        "{}{}",
                        if is_subroom { "SUBROOM" } else { "ROOM" },
                        room_type
                            .filter(|_| room_name.is_some())
                            .map_or(String::new(), |t| format!(" {t}"))
                    )),
                    kind: if is_subroom {
                        SymbolKind::Subroom
                    } else {
                        SymbolKind::Room
                    },
                    range: child.text_range(),
                    focus: header.map_or(child.text_range(), |h| h.text_range()),
                    children: contents(&child),
                });
            }
            _ => {}
        }
    }
    // A room level's own statements (its registers and corridors), after its rooms.
    if level.kind() == ROOM_LEVEL {
        symbol.children.extend(contents(level));
    }
    symbol
}

/// The groups of an outline, in this order, with the kind of their entries.
const GROUPS: [(&str, SymbolKind); 8] = [
    ("registers", SymbolKind::Register),
    ("regions", SymbolKind::Region),
    ("monsters", SymbolKind::Thing),
    ("objects", SymbolKind::Thing),
    ("traps", SymbolKind::Thing),
    ("doors", SymbolKind::Thing),
    ("features", SymbolKind::Thing),
    ("corridors", SymbolKind::Thing),
];

/// Which group a statement goes in, what to call it and a detail (where it goes).
fn outline_entry(statement: &SyntaxNode) -> Option<(&'static str, String, Option<String>)> {
    let text = statement_text(statement);
    // The statement without its keyword: what it says.
    let said = text
        .split_once(':')
        .map_or(text.as_str(), |(_, rest)| rest)
        .to_string();
    let name = first_string(statement).map(|t| unquote(t.text()));
    let class = statement
        .children_with_tokens()
        .filter_map(|e| e.into_token())
        .find(|t| t.kind() == CHAR)
        .map(|t| t.text().to_string());
    // Where it goes: its last coordinate, register or `random`.
    let place = statement
        .children_with_tokens()
        .filter(|e| matches!(e.kind(), COORD | REGISTER | RANDOM_KW))
        .last()
        .map(|e| match e {
            rowan::NodeOrToken::Node(n) => n.text().to_string(),
            rowan::NodeOrToken::Token(t) => t.text().to_string(),
        });
    let random = |what: &str| match &class {
        Some(class) => format!("random {class}"),
        None => format!("random {what}"),
    };
    Some(match statement.kind() {
        RANDOM_OBJECTS_STMT | RANDOM_PLACES_STMT | RANDOM_MONSTERS_STMT => {
            let keyword = text.split_once(':').map_or(text.as_str(), |(k, _)| k);
            ("registers", keyword.to_string(), Some(said))
        }
        REGION_STMT | NON_DIGGABLE_STMT | NON_PASSWALL_STMT | TELEPORT_REGION_STMT
        | STAIR_REGION_STMT | PORTAL_STMT | BRANCH_STMT => ("regions", text, None),
        MONSTER_STMT => ("monsters", name.unwrap_or_else(|| random("monster")), place),
        OBJECT_STMT => ("objects", name.unwrap_or_else(|| random("object")), place),
        GOLD_STMT => ("objects", "gold".into(), place),
        TRAP_STMT => ("traps", name.unwrap_or_else(|| "random trap".into()), place),
        DOOR_STMT => {
            let state = statement
                .children_with_tokens()
                .filter_map(|e| e.into_token())
                .find(|t| matches!(t.kind(), DOOR_STATE | RANDOM_KW))
                .map_or("door".to_string(), |t| format!("{} door", t.text()));
            ("doors", state, place)
        }
        DRAWBRIDGE_STMT => ("doors", "drawbridge".into(), Some(said)),
        ROOM_DOOR_STMT => ("doors", "door".into(), Some(said)),
        FOUNTAIN_STMT | SINK_STMT | POOL_STMT | ALTAR_STMT | STAIR_STMT | LADDER_STMT
        | ENGRAVING_STMT | MAZEWALK_STMT | WALLIFY_STMT => ("features", text, None),
        RANDOM_CORRIDORS_STMT | CORRIDOR_STMT => ("corridors", text, None),
        _ => return None,
    })
}

/// The statements of a map part, a room or a room level, grouped by what they do
/// (registers, regions, monsters, objects, traps, doors, features, corridors); in a group,
/// the things of one name (16 soldiers) are gathered under that name.
fn contents(node: &SyntaxNode) -> Vec<Symbol> {
    let mut groups: Vec<Vec<Symbol>> = vec![Vec::new(); GROUPS.len()];
    for statement in node.children() {
        let Some((group, name, detail)) = outline_entry(&statement) else {
            continue;
        };
        let Some(at) = GROUPS.iter().position(|(g, _)| *g == group) else {
            continue;
        };
        groups[at].push(Symbol {
            name,
            detail,
            kind: GROUPS[at].1.clone(),
            range: statement.text_range(),
            focus: statement.text_range(),
            children: Vec::new(),
        });
    }
    GROUPS
        .iter()
        .zip(groups)
        .filter(|(_, entries)| !entries.is_empty())
        .map(|((group, _), entries)| {
            let count = entries.len();
            let mut children: Vec<Symbol> = Vec::new();
            for entry in entries {
                let same = entries_named(&children, &entry.name);
                match same {
                    Some(at) if children[at].kind == SymbolKind::Group => {
                        let gathered = &mut children[at];
                        gathered.range = gathered.range.cover(entry.range);
                        gathered.children.push(entry);
                        gathered.detail = Some(format!("×{}", gathered.children.len()));
                    }
                    Some(at) if *group != "regions" && *group != "registers" => {
                        let first = children.remove(at);
                        children.insert(
                            at,
                            Symbol {
                                name: entry.name.clone(),
                                detail: Some("×2".into()),
                                kind: SymbolKind::Group,
                                range: first.range.cover(entry.range),
                                focus: first.focus,
                                children: vec![first, entry],
                            },
                        );
                    }
                    _ => children.push(entry),
                }
            }
            let range = children
                .iter()
                .map(|c| c.range)
                .reduce(TextRange::cover)
                .unwrap_or_default();
            Symbol {
                name: (*group).to_string(),
                detail: Some(count.to_string()),
                kind: SymbolKind::Group,
                range,
                focus: children.first().map_or(range, |c| c.focus),
                children,
            }
        })
        .collect()
}

/// The entry of this name among an outline group's entries, if any.
fn entries_named(children: &[Symbol], name: &str) -> Option<usize> {
    children.iter().position(|c| c.name == name)
}

/// Levels, map parts, MAP blocks and rooms, and runs of comment lines.
pub(crate) fn folding_ranges(root: &SyntaxNode) -> Vec<Fold> {
    crate::tree::folds(root, |k| {
        matches!(k, MAZE_LEVEL | ROOM_LEVEL | MAP_PART | MAP_BLOCK | ROOM)
    })
}

/// The class of a map glyph, for colouring map bodies.
pub(crate) fn glyph_class(c: char) -> Option<HighlightKind> {
    Some(match c {
        '-' | '|' | 'B' | 'S' => HighlightKind::Wall,
        '.' | 'I' => HighlightKind::Floor,
        '+' => HighlightKind::Door,
        '#' | 'H' => HighlightKind::Corridor,
        '}' | 'P' | 'W' => HighlightKind::Water,
        'L' => HighlightKind::Lava,
        'T' => HighlightKind::Tree,
        '{' | '\\' | 'K' | 'F' => HighlightKind::Feature,
        ' ' => return None,
        'A' | 'C' => HighlightKind::Air,
        _ => return None,
    })
}

/// The class of a token of lev_comp's or dgn_comp's files.
pub(crate) fn token_class(kind: SyntaxKind) -> Option<HighlightKind> {
    Some(match kind {
        COMMENT | PREPROCESSOR => HighlightKind::Comment,
        STRING | UNTERMINATED_STRING => HighlightKind::String,
        INT | PERCENT => HighlightKind::Number,
        CHAR => HighlightKind::Character,
        k if k.is_nethack_statement_start() || k.is_dungeon_statement_start() => {
            HighlightKind::Keyword
        }
        ENDMAP_KW | LEVREGION_KW | CONTAINED_KW => HighlightKind::Keyword,
        k if k.is_nethack_value_keyword() => HighlightKind::Value,
        BRANCH_TYPE | DESCRIPTOR => HighlightKind::Value,
        _ => return None,
    })
}

/// Semantic highlighting: tokens by class, and map rows glyph run by glyph run.
pub(crate) fn highlights(root: &SyntaxNode) -> Vec<Highlight> {
    let mut out = Vec::new();
    for token in root
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
    {
        if token.kind() == MAP_ROW {
            let start = token.text_range().start();
            let mut run: Option<(usize, usize, HighlightKind)> = None;
            for (i, c) in token.text().char_indices() {
                let class = glyph_class(c);
                match (run, class) {
                    (Some((s, _, k)), Some(c2)) if k == c2 => run = Some((s, i + c.len_utf8(), k)),
                    _ => {
                        if let Some((s, e, k)) = run.take() {
                            out.push(Highlight {
                                range: TextRange::new(start + to_size(s), start + to_size(e)),
                                kind: k,
                            });
                        }
                        run = class.map(|k| (i, i + c.len_utf8(), k));
                    }
                }
            }
            if let Some((s, e, k)) = run {
                out.push(Highlight {
                    range: TextRange::new(start + to_size(s), start + to_size(e)),
                    kind: k,
                });
            }
        } else if let Some(kind) = token_class(token.kind()) {
            out.push(Highlight {
                range: token.text_range(),
                kind,
            });
        }
    }
    out
}

fn to_size(n: usize) -> TextSize {
    TextSize::from(n as u32)
}
