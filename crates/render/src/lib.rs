//! Pictures of a generated level: one model ([`Picture`]: what each square shows, its colour,
//! what was placed there and which source line put it there), many renderings (`text`,
//! `ansi`, `svg`, `html`, `json`). The golden-levels `terrain` format lives with the
//! generator (`levkit_generate::dump`).
//!
//! Glyphs and colours follow the game's default tty symbols: terrain as `drawing.c` draws it,
//! a specific monster or object as its class symbol in its own colour (from the generated
//! tables), a trap as `^` (a web `"`) in its kind's colour. What the game would draw on top of
//! the terrain is drawn here too, in the game's order of precedence: a monster hides an
//! object, an object hides a trap. What the loader has not chosen yet is drawn in colours no
//! specific thing of its kind has: a monster of a random class as `M` and an object of a
//! random class as `O`, a random member of a class as the class symbol, all in bright magenta
//! (monsters) or bright cyan (objects); the legend names each ("D  random dragon").

mod dungeon;
mod heatmap;

pub use dungeon::{DungeonOverview, OverviewBranch, OverviewDungeon, OverviewLevel};
pub use heatmap::{Heatmap, HeatmapLayer};

use std::fmt::Write;

use levkit_generate::dump::{trap_name, what_text};
use levkit_generate::level::{COLNO, Event, Level, ROWNO, Terrain, What, door, drawbridge};
use levkit_model::nethack::tables::{FEATURES, MONSTERS, OBJECTS};

/// Where a square's content came from in the source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Source {
    /// Byte offsets of the statement.
    pub start: u32,
    pub end: u32,
    /// 0-based line and column (characters) of its start.
    pub line: u32,
    pub column: u32,
}

/// The game's sixteen colours (curses order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Color {
    Black,
    Red,
    Green,
    Brown,
    Blue,
    Magenta,
    Cyan,
    Gray,
    Orange,
    BrightGreen,
    Yellow,
    BrightBlue,
    BrightMagenta,
    BrightCyan,
    White,
}

impl Color {
    /// The colour of a table's `CLR_` number (no colour is gray, as the game draws it).
    pub fn from_clr(clr: u8) -> Color {
        match clr {
            0 => Color::Black,
            1 => Color::Red,
            2 => Color::Green,
            3 => Color::Brown,
            4 => Color::Blue,
            5 => Color::Magenta,
            6 => Color::Cyan,
            9 => Color::Orange,
            10 => Color::BrightGreen,
            11 => Color::Yellow,
            12 => Color::BrightBlue,
            13 => Color::BrightMagenta,
            14 => Color::BrightCyan,
            15 => Color::White,
            _ => Color::Gray,
        }
    }

    fn ansi(self) -> &'static str {
        match self {
            Color::Black => "\x1b[30m",
            Color::Red => "\x1b[31m",
            Color::Green => "\x1b[32m",
            Color::Brown => "\x1b[33m",
            Color::Blue => "\x1b[34m",
            Color::Magenta => "\x1b[35m",
            Color::Cyan => "\x1b[36m",
            Color::Gray => "\x1b[37m",
            Color::Orange => "\x1b[91m",
            Color::BrightGreen => "\x1b[92m",
            Color::Yellow => "\x1b[93m",
            Color::BrightBlue => "\x1b[94m",
            Color::BrightMagenta => "\x1b[95m",
            Color::BrightCyan => "\x1b[96m",
            Color::White => "\x1b[97m",
        }
    }

    pub fn css(self) -> &'static str {
        match self {
            Color::Black => "#555",
            Color::Red => "#c33",
            Color::Green => "#3a3",
            Color::Brown => "#a63",
            Color::Blue => "#36c",
            Color::Magenta => "#a3a",
            Color::Cyan => "#3aa",
            Color::Gray => "#aaa",
            Color::Orange => "#f93",
            Color::BrightGreen => "#6f6",
            Color::Yellow => "#ff6",
            Color::BrightBlue => "#69f",
            Color::BrightMagenta => "#f6f",
            Color::BrightCyan => "#6ff",
            Color::White => "#fff",
        }
    }
}

/// Something placed on a square, as drawn and described.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thing {
    pub glyph: char,
    pub color: Color,
    /// What it is, with its kind (`monster: master lich`).
    pub text: String,
    /// What it is, for the legend (`master lich`, `random dragon`).
    pub name: String,
    pub source: Option<Source>,
}

/// One square of the picture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Square {
    /// The terrain's glyph and colour, and what is drawn on top.
    pub terrain_glyph: char,
    pub terrain_color: Color,
    pub terrain: std::borrow::Cow<'static, str>,
    pub lit: bool,
    pub things: Vec<Thing>,
    /// The statement that set the terrain.
    pub source: Option<Source>,
}

impl Square {
    /// What the square shows: its first thing (monster before object before trap), else the
    /// terrain.
    pub fn shown(&self) -> (char, Color) {
        self.things
            .first()
            .map_or((self.terrain_glyph, self.terrain_color), |t| {
                (t.glyph, t.color)
            })
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picture {
    /// Rows of squares: 21 of 80 for a NetHack level, a vault's own size for a DCSS vault.
    pub squares: Vec<Vec<Square>>,
    /// Notes for the reader (e.g. parts of the game's work not reproduced).
    pub notes: Vec<String>,
}

/// Terrain glyph, colour and name (the game's default symbols; secret doors and corridors
/// drawn as what they pretend to be).
fn terrain_look(level: &Level, x: i32, y: i32) -> (char, Color, &'static str) {
    let cell = level.at(x, y);
    let wall = if cell.horizontal { '-' } else { '|' };
    match cell.typ {
        Terrain::Stone if level.flags.arboreal => ('#', Color::Green, "solid rock (trees here)"),
        Terrain::Stone => (' ', Color::Gray, "solid rock"),
        Terrain::VWall | Terrain::TLWall | Terrain::TRWall => ('|', Color::Gray, "wall"),
        Terrain::HWall
        | Terrain::TLCorner
        | Terrain::TRCorner
        | Terrain::BLCorner
        | Terrain::BRCorner
        | Terrain::TUWall
        | Terrain::TDWall => ('-', Color::Gray, "wall"),
        Terrain::CrossWall => ('-', Color::Gray, "wall"),
        // The game draws the raised bridge itself on its wall square, and the bridge's own
        // square as what lies under it (`back_to_glyph`).
        Terrain::DbWall => ('#', Color::Brown, "raised drawbridge"),
        Terrain::Tree => ('#', Color::Green, "tree"),
        Terrain::SDoor => (wall, Color::Gray, "secret door (looks like a wall)"),
        Terrain::SCorr => (' ', Color::Gray, "secret corridor (looks like rock)"),
        Terrain::Pool => ('}', Color::Blue, "pool"),
        Terrain::Moat => ('}', Color::Blue, "moat"),
        Terrain::Water => ('}', Color::Blue, "water"),
        Terrain::DrawbridgeUp if cell.flags & drawbridge::LAVA != 0 => {
            ('}', Color::Red, "lava under a raised drawbridge")
        }
        Terrain::DrawbridgeUp => ('}', Color::Blue, "moat under a raised drawbridge"),
        Terrain::LavaPool => ('}', Color::Red, "lava"),
        Terrain::IronBars => ('#', Color::Cyan, "iron bars"),
        Terrain::Door => {
            if cell.flags & (door::CLOSED | door::LOCKED) != 0 {
                (
                    '+',
                    Color::Brown,
                    if cell.flags & door::LOCKED != 0 {
                        "locked door"
                    } else {
                        "closed door"
                    },
                )
            } else if cell.flags & door::ISOPEN != 0 {
                (
                    if cell.horizontal { '|' } else { '-' },
                    Color::Brown,
                    "open door",
                )
            } else if cell.flags & door::BROKEN != 0 {
                ('.', Color::Gray, "broken door")
            } else {
                ('.', Color::Gray, "doorway")
            }
        }
        Terrain::Corr => ('#', Color::Gray, "corridor"),
        Terrain::Room => ('.', Color::Gray, "floor"),
        Terrain::Stairs => {
            let up = [level.upstair, level.branch_stair]
                .iter()
                .flatten()
                .any(|s| s.up && (s.at.x, s.at.y) == (x, y));
            if up {
                ('<', Color::Gray, "staircase up")
            } else {
                ('>', Color::Gray, "staircase down")
            }
        }
        Terrain::Ladder => {
            let up = level.upladder.is_some_and(|s| (s.at.x, s.at.y) == (x, y));
            if up {
                ('<', Color::Brown, "ladder up")
            } else {
                ('>', Color::Brown, "ladder down")
            }
        }
        Terrain::Fountain => ('{', Color::Blue, "fountain"),
        Terrain::Throne => ('\\', Color::Yellow, "throne"),
        Terrain::Sink => ('#', Color::Gray, "sink"),
        Terrain::Grave => ('|', Color::Gray, "grave"),
        Terrain::Altar => ('_', Color::Gray, "altar"),
        Terrain::Ice => ('.', Color::Cyan, "ice"),
        Terrain::DrawbridgeDown => ('.', Color::Brown, "lowered drawbridge"),
        Terrain::Air => (' ', Color::Cyan, "air"),
        Terrain::Cloud => ('#', Color::Gray, "cloud"),
    }
}

/// What a monster request looks like and is called. A random one of a class is its class
/// letter in bright magenta, a colour no monster of the game has. One drawn from no single
/// class is `I`, the game's own mark for a monster known to be somewhere but not which, with a
/// colour for each way of drawing it: no class uses `I`, so it never means two things.
fn monster_look(what: &What) -> (char, Color, String) {
    const RANDOM: Color = Color::BrightMagenta;
    const UNKNOWN: char = 'I';
    match what {
        What::Index(i) => MONSTERS.get(*i as usize).map_or_else(
            || ('M', RANDOM, "unknown monster".to_string()),
            |m| {
                (
                    m.class as char,
                    Color::from_clr(m.color),
                    m.name.to_string(),
                )
            },
        ),
        What::Class(c) => (
            *c as char,
            RANDOM,
            format!("random {}", monster_class_name(*c)),
        ),
        What::Chooser(chooser) => {
            let (color, name) = match *chooser {
                "soldier" => (Color::Red, "random soldier"),
                "morgue" => (Color::White, "random undead"),
                "anthole" => (Color::Brown, "random ant (giant, soldier or fire)"),
                _ => (Color::Yellow, "random throne-room courtier"),
            };
            (UNKNOWN, color, name.to_string())
        }
        _ => (UNKNOWN, RANDOM, "random monster".to_string()),
    }
}

/// What an object request looks like and is called. Random choices are bright cyan.
fn object_look(what: &What) -> (char, Color, String) {
    const RANDOM: Color = Color::BrightCyan;
    match what {
        What::Index(i) => OBJECTS.get(*i as usize).map_or_else(
            || ('O', RANDOM, "unknown object".to_string()),
            |o| {
                let name = if o.name.is_empty() {
                    o.description
                } else {
                    o.name
                };
                (o.class as char, Color::from_clr(o.color), name.to_string())
            },
        ),
        What::Class(c) => (
            *c as char,
            RANDOM,
            format!("random {}", object_class_name(*c)),
        ),
        What::Gold(_) => ('$', Color::Yellow, "gold".to_string()),
        What::ShopItem(_) => ('O', RANDOM, "random shop stock".to_string()),
        _ => ('O', RANDOM, "random object".to_string()),
    }
}

/// A trap's glyph (a web is `"`) and colour, as `drawing.c` draws each kind.
fn trap_look(kind: i32) -> (char, Color) {
    use levkit_model::nethack::tables::{
        CLR_BLACK, CLR_BLUE, CLR_BRIGHT_BLUE, CLR_BRIGHT_GREEN, CLR_BRIGHT_MAGENTA, CLR_BROWN,
        CLR_CYAN, CLR_GRAY, CLR_MAGENTA, CLR_ORANGE, CLR_RED,
    };
    let clr = match kind {
        1 | 2 | 5 => CLR_CYAN,
        4 | 13 => CLR_BROWN,
        6 => CLR_RED,
        8 | 20 | 21 => CLR_BRIGHT_BLUE,
        9 => CLR_BLUE,
        10 => CLR_ORANGE,
        11 | 12 => CLR_BLACK,
        14..=16 => CLR_MAGENTA,
        17 => CLR_BRIGHT_MAGENTA,
        22 => CLR_BRIGHT_GREEN,
        _ => CLR_GRAY,
    };
    // The trap symbols follow the terrain symbols in the game's feature table.
    let glyph = usize::try_from(kind)
        .ok()
        .and_then(|k| FEATURES.get(40 + k))
        .map_or('^', |f| f.symbol as char);
    (glyph, Color::from_clr(clr))
}

/// A monster class, in words (`D`: dragon).
pub fn monster_class_name(class: u8) -> &'static str {
    match class {
        b'a' => "ant or other insect",
        b'b' => "blob",
        b'c' => "cockatrice",
        b'd' => "dog or other canine",
        b'e' => "floating eye or sphere",
        b'f' => "cat or other feline",
        b'g' => "gremlin or gargoyle",
        b'h' => "dwarf or other humanoid",
        b'i' => "imp or minor demon",
        b'j' => "jelly",
        b'k' => "kobold",
        b'l' => "leprechaun",
        b'm' => "mimic",
        b'n' => "nymph",
        b'o' => "orc",
        b'p' => "piercer",
        b'q' => "quadruped",
        b'r' => "rat or other rodent",
        b's' => "spider or centipede",
        b't' => "trapper or lurker above",
        b'u' => "horse or unicorn",
        b'v' => "vortex",
        b'w' => "worm",
        b'x' => "grid bug or xan",
        b'y' => "light",
        b'z' => "zruty",
        b'A' => "angelic being",
        b'B' => "bat or bird",
        b'C' => "centaur",
        b'D' => "dragon",
        b'E' => "elemental or stalker",
        b'F' => "fungus or mold",
        b'G' => "gnome",
        b'H' => "giant humanoid",
        b'J' => "jabberwock",
        b'K' => "Keystone Kop",
        b'L' => "lich",
        b'M' => "mummy",
        b'N' => "naga",
        b'O' => "ogre",
        b'P' => "pudding or ooze",
        b'Q' => "quantum mechanic",
        b'R' => "rust monster or disenchanter",
        b'S' => "snake",
        b'T' => "troll",
        b'U' => "umber hulk",
        b'V' => "vampire",
        b'W' => "wraith",
        b'X' => "xorn",
        b'Y' => "apelike creature",
        b'Z' => "zombie",
        b'@' => "human or elf",
        b' ' => "ghost",
        b'&' => "demon",
        b'\'' => "golem",
        b';' => "sea monster",
        b':' => "lizard or other reptile",
        b'~' => "long worm tail",
        _ => "monster",
    }
}

/// An object class, in words (`)`: weapon).
pub fn object_class_name(class: u8) -> &'static str {
    match class {
        b')' => "weapon",
        b'[' => "armor",
        b'=' => "ring",
        b'"' => "amulet",
        b'(' => "tool",
        b'%' => "food",
        b'!' => "potion",
        b'?' => "scroll",
        b'+' => "spellbook",
        b'/' => "wand",
        b'$' => "gold",
        b'*' => "gem or rock",
        b'`' => "boulder or statue",
        b'0' => "iron ball",
        b'_' => "iron chain",
        b'.' => "venom",
        _ => "object",
    }
}

impl Picture {
    /// The picture of a level; `source` turns a record's origin into a source position.
    pub fn new(level: &Level, source: &dyn Fn(u32) -> Option<Source>) -> Picture {
        let mut squares: Vec<Vec<Square>> = (0..ROWNO as i32)
            .map(|y| {
                (0..COLNO as i32)
                    .map(|x| {
                        let (glyph, color, name) = terrain_look(level, x, y);
                        let cell = level.at(x, y);
                        Square {
                            terrain_glyph: glyph,
                            terrain_color: color,
                            terrain: name.into(),
                            lit: cell.lit,
                            things: Vec::new(),
                            source: cell.origin.and_then(source),
                        }
                    })
                    .collect()
            })
            .collect();
        // Monsters first, then objects, then traps: the order the game draws them in.
        let mut placed: Vec<(u8, i32, i32, Thing)> = Vec::new();
        for (i, p) in level.events.iter().enumerate() {
            let src = p.origin.and_then(source);
            let (rank, glyph, color, kind, name) = match &p.event {
                Event::Monster(w) => {
                    let (g, c, name) = monster_look(w);
                    (0, g, c, "monster", name)
                }
                Event::Object(w) => {
                    let (g, c, name) = object_look(w);
                    (1, g, c, "object", name)
                }
                Event::Trap(k) => {
                    let (g, c) = trap_look(*k);
                    (2, g, c, "trap", trap_name(*k).to_string())
                }
                Event::Engraving { text, .. } => (
                    3,
                    '~',
                    Color::Gray,
                    "engraving",
                    format!("engraving \"{text}\""),
                ),
                _ => continue,
            };
            let text = match &p.event {
                Event::Monster(w) => format!("monster: {}", describe(w, true, &name)),
                Event::Object(w) => format!("object: {}", describe(w, false, &name)),
                _ => format!("{kind}: {name}"),
            };
            placed.push((
                rank,
                i as i32,
                0,
                Thing {
                    glyph,
                    color,
                    text,
                    name,
                    source: src,
                },
            ));
            let last = placed.len() - 1;
            placed[last].2 = p.at.y * COLNO as i32 + p.at.x;
        }
        placed.sort_by_key(|(rank, order, _, _)| (*rank, *order));
        for (_, _, at, thing) in placed {
            let (x, y) = ((at % COLNO as i32) as usize, (at / COLNO as i32) as usize);
            if let Some(square) = squares.get_mut(y).and_then(|row| row.get_mut(x)) {
                square.things.push(thing);
            }
        }
        Picture {
            squares,
            notes: Vec::new(),
        }
    }

    /// The number of columns and rows.
    pub fn size(&self) -> (usize, usize) {
        (
            self.squares.iter().map(Vec::len).max().unwrap_or(0),
            self.squares.len(),
        )
    }

    /// The rows of glyphs.
    pub fn text(&self) -> String {
        let mut out = String::with_capacity(ROWNO * (COLNO + 1));
        for row in &self.squares {
            let line: String = row.iter().map(|s| s.shown().0).collect();
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }

    /// The rows with the game's colours as ANSI escapes.
    pub fn ansi(&self) -> String {
        let mut out = String::new();
        for row in &self.squares {
            let mut current = None;
            for square in row {
                let (glyph, color) = square.shown();
                if current != Some(color) {
                    out.push_str(color.ansi());
                    current = Some(color);
                }
                out.push(glyph);
            }
            out.push_str("\x1b[0m\n");
        }
        out
    }

    /// What the picture's glyphs mean, first appearance first: one entry per glyph and
    /// colour shown (what is hidden under a thing is not listed), naming everything it stands
    /// for, so that one glyph never has two meanings without the colours telling them apart.
    pub fn legend(&self) -> Vec<(char, Color, String)> {
        legend(self.squares.iter().flatten().map(|square| {
            let (glyph, color) = square.shown();
            let name = square
                .things
                .first()
                .map_or(square.terrain.as_ref(), |t| t.name.as_str());
            (glyph, color, name)
        }))
    }

    /// What a square shows, for hover titles.
    pub fn describe_square(&self, x: usize, y: usize) -> String {
        let square = &self.squares[y][x];
        let mut lines = vec![format!("({x}, {y}) {}", square.terrain)];
        if let Some(s) = square.source {
            lines[0].push_str(&format!(" — line {}", s.line + 1));
        }
        for t in &square.things {
            let mut line = t.text.clone();
            if let Some(s) = t.source {
                line.push_str(&format!(" — line {}", s.line + 1));
            }
            lines.push(line);
        }
        lines.join("\n")
    }

    /// An SVG drawing: coloured glyphs on a dark ground, a title on every square that is not
    /// plain rock, and the legend underneath.
    pub fn svg(&self) -> String {
        const W: usize = 10;
        const H: usize = 18;
        let legend = self.legend();
        let legend_rows = legend.len().div_ceil(4);
        let (columns, rows) = self.size();
        let (width, height) = (columns.max(80) * W, rows * H + 8 + legend_rows * H);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"monospace\" font-size=\"15\">"
        );
        let _ = writeln!(out, "<rect width=\"100%\" height=\"100%\" fill=\"#111\"/>");
        for (y, row) in self.squares.iter().enumerate() {
            for (x, square) in row.iter().enumerate() {
                let (glyph, color) = square.shown();
                if glyph == ' ' && square.things.is_empty() && square.source.is_none() {
                    continue;
                }
                let (px, py) = (x * W, y * H);
                let _ = write!(
                    out,
                    "<g><title>{}</title>",
                    escape(&self.describe_square(x, y))
                );
                if square.lit && glyph != ' ' {
                    let _ = write!(
                        out,
                        "<rect x=\"{px}\" y=\"{py}\" width=\"{W}\" height=\"{H}\" fill=\"#1d1d24\"/>"
                    );
                }
                let _ = writeln!(
                    out,
                    "<text x=\"{}\" y=\"{}\" fill=\"{}\" text-anchor=\"middle\">{}</text></g>",
                    px + W / 2,
                    py + H - 4,
                    color.css(),
                    escape(&glyph.to_string())
                );
            }
        }
        for (i, (glyph, color, meaning)) in legend.iter().enumerate() {
            let (px, py) = ((i % 4) * 200 + 4, rows * H + 8 + (i / 4) * H + H - 4);
            let _ = writeln!(
                out,
                "<text x=\"{px}\" y=\"{py}\" fill=\"{}\">{}</text><text x=\"{}\" y=\"{py}\" fill=\"#ccc\" font-size=\"12\">{}</text>",
                color.css(),
                escape(&glyph.to_string()),
                px + 14,
                escape(meaning)
            );
        }
        out.push_str("</svg>\n");
        out
    }

    /// A PNG of coloured tiles, one 8x12 tile per square (no glyphs: tiny-skia draws no
    /// text). Rock is black, floor dark (lighter where lit), walls and other terrain in their
    /// colour; a monster, object or trap is an inset square in its colour on top.
    pub fn png(&self) -> Vec<u8> {
        const W: u32 = 8;
        const H: u32 = 12;
        let (columns, rows) = self.size();
        let Some(mut pixmap) = tiny_skia::Pixmap::new(columns as u32 * W, rows as u32 * H) else {
            return Vec::new();
        };
        pixmap.fill(tiny_skia::Color::from_rgba8(17, 17, 17, 255));
        let paint = |css: &str| {
            let hex = css.trim_start_matches('#');
            let digit = |i: usize| u8::from_str_radix(&hex[i..=i], 16).unwrap_or(0) * 17;
            let mut paint = tiny_skia::Paint::default();
            paint.set_color_rgba8(digit(0), digit(1), digit(2), 255);
            paint
        };
        for (y, row) in self.squares.iter().enumerate() {
            for (x, square) in row.iter().enumerate() {
                let (px, py) = ((x as u32 * W) as f32, (y as u32 * H) as f32);
                let tile = match square.terrain_glyph {
                    ' ' => None,
                    '.' if square.terrain_color == Color::Gray => {
                        Some(if square.lit { "#334" } else { "#223" })
                    }
                    _ => Some(square.terrain_color.css()),
                };
                if let (Some(css), Some(rect)) =
                    (tile, tiny_skia::Rect::from_xywh(px, py, W as f32, H as f32))
                {
                    pixmap.fill_rect(rect, &paint(css), tiny_skia::Transform::identity(), None);
                }
                if let (Some(thing), Some(rect)) = (
                    square.things.first(),
                    tiny_skia::Rect::from_xywh(px + 2.0, py + 3.0, W as f32 - 4.0, H as f32 - 6.0),
                ) {
                    let css = thing.color.css();
                    pixmap.fill_rect(rect, &paint(css), tiny_skia::Transform::identity(), None);
                }
            }
        }
        pixmap.encode_png().unwrap_or_default()
    }

    /// A self-contained HTML page around the SVG drawing.
    pub fn html(&self, title: &str) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>{}</title></head>\n<body style=\"background:#111;color:#ccc;font-family:sans-serif\">\n<h1 style=\"font-size:1.1em\">{}</h1>",
            escape(title),
            escape(title)
        );
        out.push_str(&self.svg());
        for note in &self.notes {
            let _ = writeln!(out, "<p>{}</p>", escape(note));
        }
        out.push_str("</body></html>\n");
        out
    }

    /// The picture as JSON: rows, legend, and every square that has a source or things.
    pub fn json(&self, header: serde_json::Value) -> serde_json::Value {
        let source_json = |s: &Source| serde_json::json!({"start": s.start, "end": s.end, "line": s.line, "column": s.column});
        let mut cells = Vec::new();
        for (y, row) in self.squares.iter().enumerate() {
            for (x, square) in row.iter().enumerate() {
                if square.source.is_none() && square.things.is_empty() {
                    continue;
                }
                let (glyph, _) = square.shown();
                cells.push(serde_json::json!({
                    "x": x,
                    "y": y,
                    "glyph": glyph.to_string(),
                    "terrain": square.terrain,
                    "lit": square.lit,
                    "source": square.source.as_ref().map(source_json),
                    "things": square.things.iter().map(|t| serde_json::json!({
                        "glyph": t.glyph.to_string(),
                        "text": t.text,
                        "source": t.source.as_ref().map(source_json),
                    })).collect::<Vec<_>>(),
                }));
            }
        }
        let rows: Vec<String> = self
            .squares
            .iter()
            .map(|row| row.iter().map(|s| s.shown().0).collect())
            .collect();
        let legend: Vec<_> = self
            .legend()
            .into_iter()
            .map(|(g, c, m)| serde_json::json!({"glyph": g.to_string(), "color": c.css(), "meaning": m}))
            .collect();
        let mut value = header;
        if let Some(object) = value.as_object_mut() {
            object.insert("rows".into(), rows.into());
            object.insert("legend".into(), legend.into());
            object.insert("cells".into(), cells.into());
            object.insert("notes".into(), self.notes.clone().into());
        }
        value
    }
}

/// A thing for hover titles: its name, and the request's own words when they say more.
fn describe(what: &What, monster: bool, name: &str) -> String {
    match what {
        What::Index(_) | What::Random => name.to_string(),
        _ => format!("{name} ({})", what_text(what, monster)),
    }
}

/// Legend entries from (glyph, colour, name) triples: one per glyph and colour, first
/// appearance first, naming up to five things (blank squares are not listed).
pub fn legend<'a>(
    shown: impl Iterator<Item = (char, Color, &'a str)>,
) -> Vec<(char, Color, String)> {
    const NAMED: usize = 5;
    let mut entries: Vec<(char, Color, Vec<&str>)> = Vec::new();
    for (glyph, color, name) in shown {
        if glyph == ' ' {
            continue;
        }
        match entries.iter_mut().find(|e| e.0 == glyph && e.1 == color) {
            Some(entry) if !entry.2.contains(&name) => entry.2.push(name),
            Some(_) => {}
            None => entries.push((glyph, color, vec![name])),
        }
    }
    entries
        .into_iter()
        .map(|(glyph, color, names)| {
            let mut meaning = names[..names.len().min(NAMED)].join(", ");
            if names.len() > NAMED {
                meaning.push_str(&format!(" and {} more", names.len() - NAMED));
            }
            (glyph, color, meaning)
        })
        .collect()
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// A random monster's look (a class's, or one drawn from no single class) is never the
    /// look of another random draw or of a monster of the game: the map alone tells them apart.
    #[test]
    fn a_random_monster_s_look_means_one_thing() {
        let mut random: Vec<What> = vec![What::Random];
        random.extend(["court", "soldier", "morgue", "anthole"].map(What::Chooser));
        random.extend(MONSTERS.iter().map(|m| What::Class(m.class)));
        let mut meaning: HashMap<(char, Color), String> = HashMap::new();
        for what in &random {
            let (glyph, color, name) = monster_look(what);
            let first = meaning.entry((glyph, color)).or_insert(name.clone());
            assert_eq!(*first, name, "{glyph} in {color:?} means both");
        }
        for (i, monster) in MONSTERS.iter().enumerate() {
            let (glyph, color, name) = monster_look(&What::Index(i as u16));
            assert!(
                !meaning.contains_key(&(glyph, color)),
                "{} looks like {:?}",
                monster.name,
                meaning.get(&(glyph, color))
            );
            assert_ne!(glyph, 'I', "{name}");
        }
    }
}
