//! What the features answer: plain data with byte ranges, no LSP types. The edges convert
//! ranges to lines and columns.

use levkit_diagnostics::{Diagnostic, TextEdit, TextRange, TextSize};

use crate::FileId;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hover {
    pub range: TextRange,
    pub markdown: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompletionKind {
    Keyword,
    Value,
    Monster,
    Object,
    Trap,
    RoomType,
    Feature,
    /// A level, room or dungeon name.
    Name,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completion {
    pub label: String,
    pub kind: CompletionKind,
    pub detail: Option<String>,
    /// The text the completion replaces.
    pub replace: TextRange,
}

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
    /// A DCSS vault.
    Vault,
    /// Statements of one kind, gathered in the outline (the monsters of a map part...).
    Group,
    /// A rectangle a statement marks (REGION, NON_DIGGABLE, stair and teleport areas...).
    Region,
    /// A list of random choices (RANDOM_PLACES...).
    Register,
    /// Something placed: a monster, an object, a trap, a door, a feature.
    Thing,
    /// A function (of a DCSS file's Lua).
    Function,
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
    /// A monster placed on a map cell (DCSS monster glyphs, KMONS).
    Monster,
    /// An item placed on a map cell (DCSS item glyphs, KITEM).
    Item,
}

impl HighlightKind {
    pub const ALL: [HighlightKind; 18] = [
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
        HighlightKind::Monster,
        HighlightKind::Item,
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
            HighlightKind::Monster => "mapMonster",
            HighlightKind::Item => "mapItem",
        }
    }

    /// Its index in [`HighlightKind::ALL`] (the server's legend).
    pub fn index(self) -> u32 {
        HighlightKind::ALL
            .iter()
            .position(|k| *k == self)
            .unwrap_or(0) as u32
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Highlight {
    pub range: TextRange,
    pub kind: HighlightKind,
}

/// A place in a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location {
    pub file: FileId,
    pub range: TextRange,
}

/// A code action: a titled set of edits, and the diagnostic it fixes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Action {
    pub title: String,
    pub edits: Vec<TextEdit>,
    pub diagnostic: Diagnostic,
}

/// A label shown after a piece of text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InlayHint {
    pub offset: TextSize,
    pub label: String,
    pub tooltip: String,
}
