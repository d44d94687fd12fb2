//! The shape of a file for editors: outline (document symbols), folding ranges and selection
//! ranges. Plain data with byte ranges; the server converts them.

use levkit_diagnostics::{TextRange, TextSize};
use levkit_syntax::SyntaxKind::{self, *};
use levkit_syntax::{SyntaxNode, SyntaxToken};

use crate::{SourceFile, parse};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SymbolKind {
    Level,
    MapPart,
    Room,
    Subroom,
    Dungeon,
    DungeonLevel,
    Branch,
    /// A monster or object of an RLG327 file.
    Description,
}

/// One entry of the outline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub detail: Option<String>,
    pub kind: SymbolKind,
    /// The whole construct.
    pub range: TextRange,
    /// What to select when the symbol is picked (its name, or its opening statement).
    pub focus: TextRange,
    pub children: Vec<Symbol>,
}

fn first_string(node: &SyntaxNode) -> Option<SyntaxToken> {
    node.descendants_with_tokens()
        .filter_map(|e| e.into_token())
        .find(|t| matches!(t.kind(), STRING | UNTERMINATED_STRING))
}

fn unquote(token: &SyntaxToken) -> String {
    token.text().trim_matches('"').to_string()
}

fn statement_text(node: &SyntaxNode) -> String {
    node.text()
        .to_string()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn document_symbols(db: &dyn salsa::Database, file: SourceFile) -> Vec<Symbol> {
    let root = parse(db, file).syntax();
    let mut out = Vec::new();
    for node in root.children() {
        match node.kind() {
            MAZE_LEVEL | ROOM_LEVEL => out.push(level_symbol(&node)),
            DUNGEON => out.push(dungeon_symbol(&node)),
            RLG_ENTRY => {
                let name = node
                    .children()
                    .filter(|f| {
                        f.kind() == RLG_FIELD && f.first_token().is_some_and(|t| t.text() == "NAME")
                    })
                    .find_map(|f| {
                        f.children_with_tokens()
                            .filter_map(|e| e.into_token())
                            .find(|t| t.kind() == RLG_TEXT)
                    });
                let kind = node
                    .children_with_tokens()
                    .filter_map(|e| e.into_token())
                    .find(|t| t.kind() == RLG_WORD);
                out.push(Symbol {
                    name: name
                        .as_ref()
                        .map_or_else(|| "(unnamed)".into(), |t| t.text().trim_end().to_string()),
                    detail: kind.map(|t| t.text().to_string()),
                    kind: SymbolKind::Description,
                    range: node.text_range(),
                    focus: name.map_or(node.text_range(), |t| t.text_range()),
                    children: Vec::new(),
                });
            }
            _ => {}
        }
    }
    out
}

fn named(
    node: &SyntaxNode,
    opening: Option<SyntaxNode>,
    kind: SymbolKind,
    fallback: &str,
) -> Symbol {
    let name_token = opening.as_ref().and_then(first_string);
    Symbol {
        name: name_token
            .as_ref()
            .map_or_else(|| fallback.to_string(), unquote),
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
                    children: Vec::new(),
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
                    .map(|t| unquote(&t));
                let room_type = header.as_ref().and_then(first_string).map(|t| unquote(&t));
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
                    children: Vec::new(),
                });
            }
            _ => {}
        }
    }
    symbol
}

fn dungeon_symbol(dungeon: &SyntaxNode) -> Symbol {
    let opening = dungeon.children().find(|n| n.kind() == DUNGEON_STMT);
    let mut symbol = named(dungeon, opening, SymbolKind::Dungeon, "(unnamed dungeon)");
    for child in dungeon.children() {
        let kind = match child.kind() {
            DGN_LEVEL_STMT | CHAIN_LEVEL_STMT => SymbolKind::DungeonLevel,
            DGN_BRANCH_STMT | CHAIN_BRANCH_STMT => SymbolKind::Branch,
            _ => continue,
        };
        let mut entry = named(&child, Some(child.clone()), kind, "?");
        entry.detail = child.first_token().map(|t| t.text().to_string());
        symbol.children.push(entry);
    }
    symbol
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FoldKind {
    Region,
    Comment,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fold {
    pub range: TextRange,
    pub kind: FoldKind,
}

/// Levels, map parts, MAP blocks, rooms, dungeons, and runs of comment lines.
pub fn folding_ranges(db: &dyn salsa::Database, file: SourceFile) -> Vec<Fold> {
    let root = parse(db, file).syntax();
    let mut out: Vec<Fold> = root
        .descendants()
        .filter(|n| {
            matches!(
                n.kind(),
                MAZE_LEVEL | ROOM_LEVEL | MAP_PART | MAP_BLOCK | ROOM | DUNGEON
            )
        })
        .map(|n| Fold {
            range: trimmed(&n),
            kind: FoldKind::Region,
        })
        .collect();
    let mut run: Option<(TextRange, usize)> = None;
    for token in root
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
    {
        match token.kind() {
            COMMENT => {
                run = Some(match run {
                    Some((range, n)) => (range.cover(token.text_range()), n + 1),
                    None => (token.text_range(), 1),
                })
            }
            WHITESPACE | NEWLINE => {}
            _ => {
                if let Some((range, _)) = run.take().filter(|&(_, n)| n > 1) {
                    out.push(Fold {
                        range,
                        kind: FoldKind::Comment,
                    });
                }
            }
        }
    }
    if let Some((range, _)) = run.filter(|&(_, n)| n > 1) {
        out.push(Fold {
            range,
            kind: FoldKind::Comment,
        });
    }
    out.sort_by_key(|f| f.range.start());
    out
}

/// A node's range without the trivia at its end.
fn trimmed(node: &SyntaxNode) -> TextRange {
    let end = node
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| !t.kind().is_trivia())
        .last()
        .map_or(node.text_range().end(), |t| t.text_range().end());
    TextRange::new(
        node.text_range().start(),
        end.max(node.text_range().start()),
    )
}

/// The nested ranges around an offset, innermost first (token, argument, statement, block...).
pub fn selection_ranges(
    db: &dyn salsa::Database,
    file: SourceFile,
    offset: TextSize,
) -> Vec<TextRange> {
    let root = parse(db, file).syntax();
    let Some(token) = root.token_at_offset(offset).right_biased() else {
        return Vec::new();
    };
    let mut out = vec![token.text_range()];
    for node in token.parent_ancestors() {
        let range = trimmed(&node);
        if out
            .last()
            .is_none_or(|last| *last != range && range.contains_range(*last))
        {
            out.push(range);
        }
    }
    out
}

/// Kinds of semantic tokens levkit reports; the server publishes them as its legend.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HighlightKind {
    Keyword,
    Value,
    String,
    Number,
    Comment,
    Character,
    Wall,
    Floor,
    Door,
    Corridor,
    Water,
    Lava,
    Tree,
    Feature,
    Stone,
    Air,
}

impl HighlightKind {
    pub const ALL: [HighlightKind; 16] = [
        HighlightKind::Keyword,
        HighlightKind::Value,
        HighlightKind::String,
        HighlightKind::Number,
        HighlightKind::Comment,
        HighlightKind::Character,
        HighlightKind::Wall,
        HighlightKind::Floor,
        HighlightKind::Door,
        HighlightKind::Corridor,
        HighlightKind::Water,
        HighlightKind::Lava,
        HighlightKind::Tree,
        HighlightKind::Feature,
        HighlightKind::Stone,
        HighlightKind::Air,
    ];

    /// The semantic token type name (standard LSP names where one fits).
    pub fn name(self) -> &'static str {
        match self {
            HighlightKind::Keyword => "keyword",
            HighlightKind::Value => "enumMember",
            HighlightKind::String => "string",
            HighlightKind::Number => "number",
            HighlightKind::Comment => "comment",
            HighlightKind::Character => "type",
            HighlightKind::Wall => "mapWall",
            HighlightKind::Floor => "mapFloor",
            HighlightKind::Door => "mapDoor",
            HighlightKind::Corridor => "mapCorridor",
            HighlightKind::Water => "mapWater",
            HighlightKind::Lava => "mapLava",
            HighlightKind::Tree => "mapTree",
            HighlightKind::Feature => "mapFeature",
            HighlightKind::Stone => "mapStone",
            HighlightKind::Air => "mapAir",
        }
    }
}

/// The class of a map glyph, for colouring map bodies.
pub fn glyph_class(c: char) -> Option<HighlightKind> {
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Highlight {
    pub range: TextRange,
    pub kind: HighlightKind,
}

fn token_class(kind: SyntaxKind) -> Option<HighlightKind> {
    Some(match kind {
        COMMENT | PREPROCESSOR => HighlightKind::Comment,
        STRING | UNTERMINATED_STRING => HighlightKind::String,
        INT | PERCENT => HighlightKind::Number,
        RLG_BEGIN_KW | RLG_END_KW | RLG_FIELD_KW | RLG_HEADER_TEXT => HighlightKind::Keyword,
        RLG_TEXT | RLG_DESC_LINE => HighlightKind::String,
        RLG_WORD => HighlightKind::Value,
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
pub fn highlights(db: &dyn salsa::Database, file: SourceFile) -> Vec<Highlight> {
    let root = parse(db, file).syntax();
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
