//! The preview contract: what `levkit/preview` answers and `levkit preview --format json`
//! prints, as typed data. Both edges serialise these types as they are; the written schema
//! is generated from them (`cargo xtask codegen`), and the webview is type-checked against it.
//!
//! Positions are given twice, for the two kinds of reader: `range` in lines and columns of
//! the requested encoding (what an editor selects), `source` in byte offsets with a 0-based
//! line and a column in characters (what a script slices the text with).

use levkit_diagnostics::{Diagnostic, LineIndex, PositionEncoding, TextRange};
use serde::Serialize;

pub use levkit_render::{DungeonOverview, Heatmap};

/// What to preview and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreviewRequest {
    /// A level (or vault) of the file by name; the first when `None` or unknown.
    pub level: Option<String>,
    /// The game's random seed.
    pub seed: u32,
    /// The level's depth, instead of its place in the dungeon.
    pub depth: Option<i32>,
    /// The unit of `range` columns.
    pub encoding: PositionEncoding,
    /// Also produce the reference loads' text format ([`LevelPreview::terrain`]).
    pub terrain: bool,
}

impl Default for PreviewRequest {
    fn default() -> PreviewRequest {
        PreviewRequest {
            level: None,
            seed: 1,
            depth: None,
            encoding: PositionEncoding::Utf16,
            terrain: false,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct WirePosition {
    pub line: u32,
    pub character: u32,
}

/// An LSP-style range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct WireRange {
    pub start: WirePosition,
    pub end: WirePosition,
}

/// A range as byte offsets, with the 0-based line and character column of its start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Source {
    pub start: u32,
    pub end: u32,
    pub line: u32,
    pub column: u32,
}

/// The preview of a file. The variants are told apart by their fields, as the wire has
/// always done (`rows` for levels, `cards` for descriptions, `dungeons` for a dungeon).
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Preview {
    Level(Box<LevelPreview>),
    Cards(CardsPreview),
    Dungeon(DungeonPreview),
    Nothing(NothingPreview),
}

impl Preview {
    pub(crate) fn nothing(note: String) -> Preview {
        Preview::Nothing(NothingPreview {
            rows: Vec::new(),
            levels: Vec::new(),
            notes: vec![note],
        })
    }

    pub fn notes(&self) -> &[String] {
        match self {
            Preview::Level(level) => &level.notes,
            Preview::Cards(cards) => &cards.notes,
            Preview::Dungeon(dungeon) => &dungeon.notes,
            Preview::Nothing(nothing) => &nothing.notes,
        }
    }
}

/// A level as the game builds it for a seed.
#[derive(Debug, Clone, Serialize)]
pub struct LevelPreview {
    /// The level shown.
    pub level: String,
    /// Every level of the file, in order.
    pub levels: Vec<String>,
    pub seed: u32,
    /// Whether the level was built; when it has errors only its map parts are drawn, where
    /// the game puts them, and `error` says why.
    pub generated: bool,
    pub depth: Option<i32>,
    /// The level's dungeon number and level within it, when built.
    pub dungeon: Option<i32>,
    pub dlevel: Option<i32>,
    /// 21 rows of 80 glyphs.
    pub rows: Vec<String>,
    /// Every square that something of the source made, with what it holds.
    pub cells: Vec<Cell>,
    pub legend: Vec<LegendEntry>,
    /// What the picture leaves out or approximates.
    pub notes: Vec<String>,
    pub regions: Vec<Region>,
    /// Expected things per square, from the statements alone.
    pub heat: Vec<Heat>,
    /// The first error that keeps the level from being built.
    pub error: Option<PreviewError>,
    /// The picture, for the renderings (text, colours, SVG, HTML, PNG).
    #[serde(skip)]
    pub picture: Option<levkit_render::Picture>,
    /// The reference loads' text format, when asked for.
    #[serde(skip)]
    pub terrain: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Cell {
    pub x: usize,
    pub y: usize,
    /// What the square shows.
    pub glyph: String,
    /// What made it: the thing shown, else the terrain.
    pub what: String,
    /// The terrain underneath, when built.
    pub terrain: Option<String>,
    pub lit: bool,
    /// The source of what is shown.
    pub range: Option<WireRange>,
    pub source: Option<Source>,
    /// Everything on the square, top first.
    pub things: Vec<Thing>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Thing {
    pub glyph: String,
    pub text: String,
    pub range: Option<WireRange>,
    pub source: Option<Source>,
}

#[derive(Debug, Clone, Serialize)]
pub struct LegendEntry {
    pub glyph: String,
    /// A CSS colour, when the picture is coloured.
    pub color: Option<String>,
    pub meaning: String,
}

/// A rectangle of the level (in level coordinates) that a statement marks.
#[derive(Debug, Clone, Serialize)]
pub struct Region {
    pub x1: usize,
    pub y1: usize,
    pub x2: usize,
    pub y2: usize,
    pub what: String,
    pub range: WireRange,
    pub source: Source,
}

#[derive(Debug, Clone, Serialize)]
pub struct Heat {
    pub x: usize,
    pub y: usize,
    pub expected: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct PreviewError {
    pub code: String,
    pub message: String,
    pub range: WireRange,
    pub source: Source,
}

/// Description files: a card per valid entry.
#[derive(Debug, Clone, Serialize)]
pub struct CardsPreview {
    /// `monster` or `object`.
    pub kind: String,
    pub cards: Vec<Card>,
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Card {
    pub range: WireRange,
    pub source: Source,
    /// Field name (lower case) to its text, in the assignment's order.
    pub fields: serde_json::Map<String, serde_json::Value>,
}

/// A dungeon description: its dungeons, levels and branches.
#[derive(Debug, Clone, Serialize)]
pub struct DungeonPreview {
    #[serde(flatten)]
    pub overview: DungeonOverview,
    pub notes: Vec<String>,
}

/// Nothing to show, and why.
#[derive(Debug, Clone, Serialize)]
pub struct NothingPreview {
    /// Always empty; kept so that clients that draw rows draw nothing.
    pub rows: Vec<String>,
    pub levels: Vec<String>,
    pub notes: Vec<String>,
}

/// Converts byte ranges of one file into both wire forms.
pub(crate) struct Spans<'a> {
    pub text: &'a str,
    pub index: &'a LineIndex,
    pub encoding: PositionEncoding,
}

impl Spans<'_> {
    pub fn range(&self, range: TextRange) -> WireRange {
        let position = |offset| {
            let at = self.index.position(self.text, offset, self.encoding);
            WirePosition {
                line: at.line,
                character: at.col,
            }
        };
        WireRange {
            start: position(range.start()),
            end: position(range.end()),
        }
    }

    pub fn source(&self, range: TextRange) -> Source {
        let at = self.index.line_col_chars(self.text, range.start());
        Source {
            start: range.start().into(),
            end: range.end().into(),
            line: at.line,
            column: at.col,
        }
    }

    pub fn error(&self, diagnostic: &Diagnostic) -> PreviewError {
        PreviewError {
            code: diagnostic.code.as_str().to_string(),
            message: diagnostic.message.clone(),
            range: self.range(diagnostic.range),
            source: self.source(diagnostic.range),
        }
    }
}
