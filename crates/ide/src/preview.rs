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
    /// Sample the heat over the builds for these seeds (first and last, inclusive) instead of
    /// expecting it from the statements ([`LevelPreview::heatmaps`]).
    pub sample: Option<(u32, u32)>,
    /// The player's place (`D:5`, `Lair:2`), for dialects whose levels depend on it (DCSS
    /// vaults); `None`: the first place the level allows.
    pub place: Option<String>,
    /// Also produce the level's map as its source's glyphs ([`LevelPreview::map`]).
    pub map: bool,
}

impl Default for PreviewRequest {
    fn default() -> PreviewRequest {
        PreviewRequest {
            level: None,
            seed: 1,
            depth: None,
            encoding: PositionEncoding::Utf16,
            terrain: false,
            sample: None,
            place: None,
            map: false,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WirePosition {
    /// 0-based line.
    pub line: u32,
    /// 0-based column in the negotiated encoding's units (UTF-16 unless UTF-8 was chosen).
    pub character: u32,
}

/// An LSP-style range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WireRange {
    pub start: WirePosition,
    pub end: WirePosition,
}

/// A range as byte offsets, with the 0-based line and character column of its start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Source {
    /// Byte offset of the start.
    pub start: u32,
    /// Byte offset just past the end.
    pub end: u32,
    /// 0-based line of the start.
    pub line: u32,
    /// 0-based column of the start, in characters.
    pub column: u32,
}

/// The preview of a file. The variants are told apart by their fields, as the wire has
/// always done (`rows` for levels, `cards` for descriptions, `dungeons` for a dungeon).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
            title: None,
            controls: Some(Controls::default()),
        })
    }

    /// The title, when the preview has one.
    pub fn title(&self) -> Option<&str> {
        match self {
            Preview::Level(level) => level.title.as_deref(),
            Preview::Cards(cards) => cards.title.as_deref(),
            Preview::Dungeon(dungeon) => dungeon.title.as_deref(),
            Preview::Nothing(nothing) => nothing.title.as_deref(),
        }
    }

    /// Sets the title (the facade names the file; the dialects say what is shown of it).
    pub(crate) fn set_title(&mut self, title: String) {
        let slot = match self {
            Preview::Level(level) => &mut level.title,
            Preview::Cards(cards) => &mut cards.title,
            Preview::Dungeon(dungeon) => &mut dungeon.title,
            Preview::Nothing(nothing) => &mut nothing.title,
        };
        *slot = Some(title);
    }

    /// The first error of the file that keeps something of it from being shown (a level from
    /// being built, an entry from having its card, a dungeon description from being compiled).
    pub fn error(&self) -> Option<&PreviewError> {
        match self {
            Preview::Level(level) => level.error.as_ref(),
            Preview::Cards(cards) => cards.error.as_ref(),
            Preview::Dungeon(dungeon) => dungeon.error.as_ref(),
            Preview::Nothing(_) => None,
        }
    }

    /// Whether this is a whole picture of the file's text, one a client keeps to show while
    /// the text is broken: a built level, or cards or an overview of a text without errors.
    pub fn is_whole(&self) -> bool {
        match self {
            Preview::Level(level) => level.generated,
            Preview::Cards(_) | Preview::Dungeon(_) => self.error().is_none(),
            Preview::Nothing(_) => false,
        }
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

/// Which of a preview panel's controls mean something for a preview; a panel hides the others.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Controls {
    /// A picker of the file's levels (it has more than one).
    pub levels: bool,
    /// A seed and a reroll (the picture depends on the seed).
    pub seed: bool,
    /// The regions overlay (the preview has regions).
    pub regions: bool,
    /// The heatmap overlay, expected and sampled over seeds.
    pub heat: bool,
}

/// A level as the game builds it for a seed.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct LevelPreview {
    /// What the preview shows, in words: the file, the level and the seed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Which controls apply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controls: Option<Controls>,
    /// The level shown.
    pub level: String,
    /// Every level of the file, in order.
    pub levels: Vec<String>,
    /// The 0-based line each of `levels` begins on, so that a client can show the level
    /// under the cursor.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub level_lines: Vec<u32>,
    /// The game's random seed it was built with.
    pub seed: u32,
    /// Whether the level was built; when it has errors only its map parts are drawn, where
    /// the game puts them, and `error` says why.
    pub generated: bool,
    /// How deep the level is (its place in the dungeon, or the requested depth), when built.
    pub depth: Option<i32>,
    /// The level's dungeon number, when built.
    pub dungeon: Option<i32>,
    /// The level's number within its dungeon, when built.
    pub dlevel: Option<i32>,
    /// 21 rows of 80 glyphs.
    pub rows: Vec<String>,
    /// Every square that something of the source made, with what it holds.
    pub cells: Vec<Cell>,
    /// The glyphs the picture uses, with what they mean.
    pub legend: Vec<LegendEntry>,
    /// What the picture leaves out or approximates.
    pub notes: Vec<String>,
    /// The rectangles statements mark (REGION, NON_DIGGABLE, stair and teleport areas...).
    pub regions: Vec<Region>,
    /// Expected things per square, from the statements alone (all kinds together; the same
    /// as the `all` layer of `heatmaps` when that is expected rather than sampled).
    pub heat: Vec<Heat>,
    /// The heat of each kind of thing (`all`, then `monsters`, `objects`, `traps`...), expected
    /// from the statements or sampled over many builds ([`PreviewRequest::sample`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub heatmaps: Vec<HeatLayer>,
    /// The first error that keeps the level from being built. While it is there, `rows`
    /// and `cells` are a sketch from the text: a client that showed a built picture of this
    /// level keeps it, marked out of date, and shows the error.
    pub error: Option<PreviewError>,
    /// The picture, for the renderings (text, colours, SVG, HTML, PNG).
    #[serde(skip)]
    pub picture: Option<levkit_render::Picture>,
    /// The reference loads' text format, when asked for.
    #[serde(skip)]
    pub terrain: Option<String>,
    /// The map as resolved for the seed, before it is mirrored or turned, in the source's
    /// glyphs (a DCSS vault: what `map()` answers in its `validate`), when asked for.
    #[serde(skip)]
    pub map: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Cell {
    /// Column, 0..79.
    pub x: usize,
    /// Row, 0..20.
    pub y: usize,
    /// What the square shows.
    pub glyph: String,
    /// What made it: the thing shown, else the terrain.
    pub what: String,
    /// The terrain underneath, when built.
    pub terrain: Option<String>,
    /// Whether the square is lit.
    pub lit: bool,
    /// The source of what is shown (`null` when nothing of this file made it).
    pub range: Option<WireRange>,
    /// The same source, as byte offsets.
    pub source: Option<Source>,
    /// Everything on the square, top first.
    pub things: Vec<Thing>,
    /// The CSS colour the square is drawn in, when the picture is coloured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
}

/// A monster, object, trap or feature on a square.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Thing {
    /// How the game draws it.
    pub glyph: String,
    /// What it is, in words.
    pub text: String,
    /// The statement that put it there (`null` when none of this file did).
    pub range: Option<WireRange>,
    /// The same statement, as byte offsets.
    pub source: Option<Source>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct LegendEntry {
    pub glyph: String,
    /// A CSS colour, when the picture is coloured.
    pub color: Option<String>,
    /// What the glyph stands for.
    pub meaning: String,
}

/// A rectangle of the level (in level coordinates) that a statement marks.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Region {
    /// Left column.
    pub x1: usize,
    /// Top row.
    pub y1: usize,
    /// Right column, inclusive.
    pub x2: usize,
    /// Bottom row, inclusive.
    pub y2: usize,
    /// What the rectangle is, in words.
    pub what: String,
    /// The statement that marks it.
    pub range: WireRange,
    /// The same statement, as byte offsets.
    pub source: Source,
    /// What identifies the region across edits elsewhere in the file: its statement's
    /// text (with `#2`, `#3`... for repeats).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// A CSS colour of its own, to tell it from the other regions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
}

/// How many things are expected on a square: a random placement spread evenly over the open
/// ground of its map part, `place[i]` over its list, chances counted.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Heat {
    pub x: usize,
    pub y: usize,
    /// The expected number of monsters, objects, traps, gold piles and engravings.
    pub expected: f64,
}

/// How many things of a kind land on each square.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct HeatLayer {
    /// What is counted: `all`, or a kind of thing (`monsters`, `objects`, `traps`...).
    pub kind: String,
    /// `expected` (from the statements alone) or `sampled` (counted over builds).
    pub mode: String,
    /// The first and last seed built (inclusive), when sampled.
    pub seeds: Option<[u32; 2]>,
    /// What a value is, for the scale: `things expected` or `share of builds`.
    pub unit: String,
    /// The largest value of the layer (the top of its scale; 0 when empty).
    pub max: f64,
    /// Every square with a value above 0.
    pub cells: Vec<HeatValue>,
    /// Why the layer looks as it does, when that needs saying: why it is empty, or why it
    /// is even.
    pub note: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct HeatValue {
    pub x: usize,
    pub y: usize,
    pub value: f64,
}

/// The first error that keeps a level from being built, an entry of a description file from
/// having its card, or a dungeon description from being compiled; the same shape in every
/// preview that has one.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PreviewError {
    /// Its stable code (see docs/diagnostics.md).
    pub code: String,
    pub message: String,
    pub range: WireRange,
    pub source: Source,
}

/// `error at line 12: the message (NH0102)`, as a terminal shows it.
impl std::fmt::Display for PreviewError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "error at line {}: {} ({})",
            self.range.start.line + 1,
            self.message,
            self.code
        )
    }
}

/// Description files: a card per valid entry.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CardsPreview {
    /// What the preview shows, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Which controls apply (none, for cards).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controls: Option<Controls>,
    /// `monster` or `object`.
    pub kind: String,
    /// One per valid entry, in file order.
    pub cards: Vec<Card>,
    /// What the cards leave out or approximate: a note per entry left out for its errors.
    pub notes: Vec<String>,
    /// The first error of the file. While it is there, an entry with an error has no card
    /// (a note names it): a client that showed whole cards of this file keeps them, marked
    /// out of date, and shows the error, as for a level.
    pub error: Option<PreviewError>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Card {
    /// The entry (`BEGIN` to `END`).
    pub range: WireRange,
    pub source: Source,
    /// Field name (lower case) to its text, in the assignment's order.
    #[cfg_attr(
        feature = "schema",
        schemars(with = "std::collections::BTreeMap<String, String>")
    )]
    pub fields: serde_json::Map<String, serde_json::Value>,
    /// The card's heading.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The symbol the entry is drawn with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub glyph: Option<String>,
    /// The CSS colour of the symbol.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// Every other field, in the assignment's order, as it reads (dice with their range).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<CardDetail>,
    /// A longer description, its lines as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CardDetail {
    pub label: String,
    pub value: String,
}

/// A dungeon description: its dungeons, levels and branches.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DungeonPreview {
    /// What the preview shows, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Which controls apply (none, for an overview).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controls: Option<Controls>,
    #[serde(flatten)]
    pub overview: DungeonOverview,
    /// The overview as cards, a card per dungeon, for clients that draw cards.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cards: Vec<Card>,
    pub notes: Vec<String>,
    /// The first error of the file. While it is there, the overview is of the text as it
    /// stands (which compiles to nothing): a client that showed a whole overview of this file
    /// keeps it, marked out of date, and shows the error, as for a level.
    pub error: Option<PreviewError>,
}

/// Nothing to show, and why.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NothingPreview {
    /// What the preview shows, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Which controls apply (none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controls: Option<Controls>,
    /// Always empty; kept so that clients that draw rows draw nothing.
    pub rows: Vec<String>,
    pub levels: Vec<String>,
    /// Why there is nothing to show.
    pub notes: Vec<String>,
}

/// Every square that shows something or that something of the source made, with what it
/// holds and its colour.
pub(crate) fn picture_cells(picture: &levkit_render::Picture, spans: &Spans<'_>) -> Vec<Cell> {
    let range_of = |s: &levkit_render::Source| TextRange::new(s.start.into(), s.end.into());
    let mut out = Vec::new();
    for (y, row) in picture.squares.iter().enumerate() {
        for (x, square) in row.iter().enumerate() {
            let (glyph, color) = square.shown();
            if glyph == ' ' && square.source.is_none() && square.things.is_empty() {
                continue;
            }
            // What is shown, with the statement that made it (a thing's, else the
            // terrain's), else the terrain.
            let (what, source) = square
                .things
                .iter()
                .find(|t| t.source.is_some())
                .map(|t| (t.text.clone(), t.source))
                .or_else(|| square.things.first().map(|t| (t.text.clone(), None)))
                .filter(|(_, source)| source.is_some() || square.source.is_none())
                .unwrap_or_else(|| (square.terrain.to_string(), square.source));
            out.push(Cell {
                x,
                y,
                glyph: glyph.to_string(),
                what,
                terrain: Some(square.terrain.to_string()),
                lit: square.lit,
                range: source.map(|s| spans.range(range_of(&s))),
                source: source.map(|s| spans.source(range_of(&s))),
                things: square
                    .things
                    .iter()
                    .map(|t| Thing {
                        glyph: t.glyph.to_string(),
                        text: t.text.clone(),
                        range: t.source.map(|s| spans.range(range_of(&s))),
                        source: t.source.map(|s| spans.source(range_of(&s))),
                    })
                    .collect(),
                color: Some(color.css().to_string()),
            });
        }
    }
    out
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

    /// The first error among `diagnostics`, the one a preview of broken text carries.
    pub fn first_error(&self, diagnostics: &[Diagnostic]) -> Option<PreviewError> {
        diagnostics
            .iter()
            .find(|d| d.severity == levkit_diagnostics::Severity::Error)
            .map(|d| self.error(d))
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

/// The JSON Schema of [`Preview`] as serialised (draft 2020-12), derived from these types and
/// their serde attributes; `cargo xtask codegen` writes it, and the TypeScript declarations and
/// `docs/preview-protocol.md` made from it.
#[cfg(feature = "schema")]
pub fn preview_schema() -> serde_json::Value {
    schemars::generate::SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator()
        .into_root_schema_for::<Preview>()
        .to_value()
}
