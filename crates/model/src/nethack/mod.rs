//! The semantic model of a NetHack 3.4.3 `.des` file: levels, map parts, rooms and the things
//! placed in them, in the game's own vocabulary. Numbers are kept as written (`i64`), so that
//! checks can report values lev_comp would silently truncate.

mod lower;
mod map;
pub mod names;
pub mod tables;

pub use lower::lower;
pub use map::{Map, MapRow, Terrain, TerrainGrid, terrain_of, wallify};

use crate::{Spanned, TextRange};

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DesFile {
    pub levels: Vec<Level>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LevelKind {
    /// `MAZE`: map parts placed on a filled level.
    Maze,
    /// `LEVEL`: rooms and corridors.
    Rooms,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Level {
    pub kind: LevelKind,
    /// The whole level, from its declaration to the next level.
    pub range: TextRange,
    /// The `MAZE:`/`LEVEL:` statement.
    pub declaration: TextRange,
    pub name: Option<Spanned<String>>,
    /// The MAZE fill; `None` for room levels.
    pub fill: Option<Spanned<Fill>>,
    pub flags: Vec<Spanned<Flag>>,
    pub init_map: Option<InitMap>,
    pub messages: Vec<Spanned<String>>,
    /// Map parts of a MAZE level, in order.
    pub parts: Vec<MapPart>,
    /// Object and monster registers of a room level (map parts hold their own).
    pub registers: Registers,
    /// Rooms and subrooms of a room level, in source order.
    pub rooms: Vec<Room>,
    pub corridors: Corridors,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fill {
    Char(char),
    Random,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Flag {
    NoTeleport,
    HardFloor,
    NoMagicMap,
    ShortSighted,
    Arboreal,
}

impl Flag {
    pub fn from_keyword(word: &str) -> Option<Flag> {
        Some(match word {
            "noteleport" => Flag::NoTeleport,
            "hardfloor" => Flag::HardFloor,
            "nommap" => Flag::NoMagicMap,
            "shortsighted" => Flag::ShortSighted,
            "arboreal" => Flag::Arboreal,
            _ => return None,
        })
    }

    /// The bit lev_comp stores for the flag.
    pub fn bit(self) -> u32 {
        match self {
            Flag::NoTeleport => 1,
            Flag::HardFloor => 2,
            Flag::NoMagicMap => 4,
            Flag::ShortSighted => 8,
            Flag::Arboreal => 16,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InitMap {
    pub range: TextRange,
    pub foreground: Spanned<char>,
    pub background: Spanned<char>,
    pub smoothed: bool,
    pub joined: Spanned<bool>,
    pub lit: Light,
    /// `None` is `random` (which the game treats as walled).
    pub walled: Option<bool>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Light {
    Lit,
    Unlit,
    Random,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HAlign {
    Left,
    HalfLeft,
    Center,
    HalfRight,
    Right,
}

impl HAlign {
    pub fn from_keyword(word: &str) -> Option<HAlign> {
        Some(match word {
            "left" => HAlign::Left,
            "half-left" => HAlign::HalfLeft,
            "center" => HAlign::Center,
            "half-right" => HAlign::HalfRight,
            "right" => HAlign::Right,
            _ => return None,
        })
    }

    /// lev_comp's number for the alignment.
    pub fn value(self) -> i8 {
        match self {
            HAlign::Left => 1,
            HAlign::HalfLeft => 2,
            HAlign::Center => 3,
            HAlign::HalfRight => 4,
            HAlign::Right => 5,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VAlign {
    Top,
    Center,
    Bottom,
}

impl VAlign {
    pub fn from_keyword(word: &str) -> Option<VAlign> {
        Some(match word {
            "top" => VAlign::Top,
            "center" => VAlign::Center,
            "bottom" => VAlign::Bottom,
            _ => return None,
        })
    }

    pub fn value(self) -> i8 {
        match self {
            VAlign::Top => 1,
            VAlign::Center => 3,
            VAlign::Bottom => 5,
        }
    }
}

/// Where the game puts a map of `width` x `height` on the level (`sp_lev.c`): the level
/// position of the map's top-left cell, or `None` when the game would panic.
pub fn map_origin(h: HAlign, v: VAlign, width: i64, height: i64) -> Option<(i64, i64)> {
    let mut x = match h {
        HAlign::Left => 3,
        HAlign::HalfLeft => 2 + (76 - width) / 4,
        HAlign::Center => 2 + (76 - width) / 2,
        HAlign::HalfRight => 2 + ((76 - width) * 3) / 4,
        HAlign::Right => 78 - width - 1,
    };
    let mut y = match v {
        VAlign::Top => 3,
        VAlign::Center => 2 + (18 - height) / 2,
        VAlign::Bottom => 20 - height - 1,
    };
    if x % 2 == 0 {
        x += 1;
    }
    if y % 2 == 0 {
        y += 1;
    }
    if y < 0 || y + height > 21 {
        y += if y > 0 { -2 } else { 2 };
        if height == 21 {
            y = 0;
        }
        if y < 0 || y + height > 21 {
            return None;
        }
    }
    Some((x, y))
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapPart {
    pub range: TextRange,
    /// `GEOMETRY` alignment; `None` for `NOMAP`.
    pub geometry: Option<Spanned<(HAlign, VAlign)>>,
    /// The map; `None` for `NOMAP` (or a GEOMETRY without its MAP).
    pub map: Option<Map>,
    /// The `NOMAP` statement, when the part is one.
    pub nomap: Option<TextRange>,
    pub registers: Registers,
    pub details: Vec<Detail>,
}

/// One `RANDOM_OBJECTS`/`RANDOM_PLACES`/`RANDOM_MONSTERS` statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegisterList<T> {
    pub range: TextRange,
    pub items: Vec<Spanned<T>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Registers {
    pub objects: Vec<RegisterList<char>>,
    pub places: Vec<RegisterList<(i64, i64)>>,
    pub monsters: Vec<RegisterList<char>>,
}

impl Registers {
    pub fn object_count(&self) -> usize {
        self.objects.first().map_or(0, |l| l.items.len())
    }
    pub fn place_count(&self) -> usize {
        self.places.first().map_or(0, |l| l.items.len())
    }
    pub fn monster_count(&self) -> usize {
        self.monsters.first().map_or(0, |l| l.items.len())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Coordinate {
    /// A literal position: map-relative in a maze part, room-relative in a room.
    At {
        x: i64,
        y: i64,
    },
    /// `place[i]`.
    Place(i64),
    Random,
}

/// A monster or object class: a class character, a register, or `random`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    Char(char),
    Register(i64),
    Random,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Alignment {
    /// noalign 0, chaos 1, neutral 2, law 4, coaligned 3, noncoaligned 7 (lev_comp's values).
    Value(i8),
    Register(i64),
    Random,
}

impl Alignment {
    pub fn from_keyword(word: &str) -> Option<Alignment> {
        Some(Alignment::Value(match word {
            "noalign" => 0,
            "chaos" => 1,
            "neutral" => 2,
            "coaligned" => 3,
            "law" => 4,
            "noncoaligned" => 7,
            _ => return None,
        }))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DoorState {
    Random,
    NoDoor,
    Broken,
    Open,
    Closed,
    Locked,
}

impl DoorState {
    pub fn from_keyword(word: &str) -> Option<DoorState> {
        Some(match word {
            "random" => DoorState::Random,
            "nodoor" => DoorState::NoDoor,
            "broken" => DoorState::Broken,
            "open" => DoorState::Open,
            "closed" => DoorState::Closed,
            "locked" => DoorState::Locked,
            _ => return None,
        })
    }

    /// The game's door mask (`D_*`), -1 for random.
    pub fn mask(self) -> i8 {
        match self {
            DoorState::Random => -1,
            DoorState::NoDoor => 0,
            DoorState::Broken => 1,
            DoorState::Open => 2,
            DoorState::Closed => 4,
            DoorState::Locked => 8,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    North,
    South,
    East,
    West,
}

impl Direction {
    pub fn from_keyword(word: &str) -> Option<Direction> {
        Some(match word {
            "north" => Direction::North,
            "south" => Direction::South,
            "east" => Direction::East,
            "west" => Direction::West,
            _ => return None,
        })
    }

    /// The step one cell in this direction.
    pub fn delta(self) -> (i64, i64) {
        match self {
            Direction::North => (0, -1),
            Direction::South => (0, 1),
            Direction::East => (1, 0),
            Direction::West => (-1, 0),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Detail {
    /// The whole statement.
    pub range: TextRange,
    pub kind: DetailKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DetailKind {
    Monster(Monster),
    Object(Object),
    Trap(Trap),
    /// A maze DOOR on a `+` or `S` cell of the map.
    Door {
        state: Spanned<DoorState>,
        at: Spanned<Coordinate>,
    },
    /// A room DOOR, placed on one of the room's walls.
    RoomDoor(RoomDoor),
    Drawbridge {
        at: Spanned<Coordinate>,
        direction: Spanned<Direction>,
        state: Spanned<DoorState>,
    },
    Mazewalk {
        at: Spanned<Coordinate>,
        direction: Spanned<Direction>,
    },
    Wallify,
    Ladder {
        at: Spanned<Coordinate>,
        up: bool,
    },
    Stair {
        at: Spanned<Coordinate>,
        up: bool,
    },
    /// STAIR, PORTAL, TELEPORT_REGION or BRANCH with two areas.
    LevRegion(LevRegion),
    Altar {
        at: Spanned<Coordinate>,
        alignment: Spanned<Alignment>,
        /// `None` is random; 0 altar, 1 shrine, 2 sanctum.
        shrine: Option<i8>,
    },
    Fountain(Spanned<Coordinate>),
    Sink(Spanned<Coordinate>),
    Pool(Spanned<Coordinate>),
    Gold {
        /// `None` is random.
        amount: Spanned<Option<i64>>,
        at: Spanned<Coordinate>,
    },
    Engraving {
        at: Spanned<Coordinate>,
        /// `None` is random; 1 dust, 2 engrave, 3 burn, 4 mark.
        kind: Option<i8>,
        text: Spanned<String>,
    },
    NonDiggable(Spanned<Rect>),
    NonPasswall(Spanned<Rect>),
    Region(Region),
    /// `NAME:` inside a room.
    RoomName(Spanned<String>),
    /// `CHANCE:` inside a room.
    RoomChance(Spanned<i64>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Monster {
    pub chance: Option<Spanned<i64>>,
    pub class: Spanned<Class>,
    /// `None` is `random`.
    pub name: Option<Spanned<String>>,
    pub at: Spanned<Coordinate>,
    /// The name the monster is christened with. Boxed, as the appearance: both are rare, and
    /// a monster inline is most of a level's model.
    pub given_name: Option<Box<Spanned<String>>>,
    pub peaceful: Option<Spanned<bool>>,
    pub asleep: Option<Spanned<bool>>,
    pub alignment: Option<Spanned<Alignment>>,
    pub appearance: Option<Box<Appearance>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AppearanceKind {
    Feature,
    Object,
    Monster,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Appearance {
    pub kind: Spanned<AppearanceKind>,
    pub what: Spanned<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Object {
    /// `CONTAINER` rather than `OBJECT`.
    pub is_container: bool,
    pub chance: Option<Spanned<i64>>,
    pub class: Spanned<Class>,
    pub name: Option<Spanned<String>>,
    /// `None` is `contained` (inside the last container).
    pub at: Option<Spanned<Coordinate>>,
    pub contained: Option<TextRange>,
    /// `None` is not given; `Some(None)` is random; 1 blessed, 2 uncursed, 3 cursed.
    pub curse: Option<Spanned<Option<i8>>>,
    /// The monster of a corpse, statue or figurine. Boxed, as the given name: both are rare.
    pub monster: Option<Box<Spanned<String>>>,
    /// `Some(None)` is random.
    pub enchantment: Option<Spanned<Option<i64>>>,
    /// `Some(None)` is `none`.
    pub given_name: Option<Box<Spanned<Option<String>>>>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trap {
    pub chance: Option<Spanned<i64>>,
    /// `None` is `random`.
    pub kind: Option<Spanned<String>>,
    pub at: Spanned<Coordinate>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoomDoor {
    /// `None` is random.
    pub secret: Spanned<Option<bool>>,
    pub state: Spanned<DoorState>,
    pub wall: Spanned<Option<Direction>>,
    pub position: Spanned<Option<i64>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rect {
    pub x1: i64,
    pub y1: i64,
    pub x2: i64,
    pub y2: i64,
}

/// An area of a level region: map-relative, or level-absolute with `levregion`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Area {
    pub rect: Rect,
    pub whole_level: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LevRegionKind {
    Stair {
        up: bool,
    },
    Portal {
        destination: Spanned<String>,
    },
    /// `None` applies in both directions.
    Teleport {
        up: Option<bool>,
    },
    Branch,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LevRegion {
    pub kind: LevRegionKind,
    /// Where the thing may go.
    pub area: Spanned<Area>,
    /// Where it may not.
    pub excluded: Spanned<Area>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Region {
    pub rect: Spanned<Rect>,
    pub lit: Spanned<Light>,
    /// `None` is random.
    pub room_type: Option<Spanned<String>>,
    pub room_type_range: TextRange,
    pub unfilled: Option<Spanned<bool>>,
    pub irregular: Option<Spanned<bool>>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Room {
    /// The ROOM or SUBROOM with its contents.
    pub range: TextRange,
    /// The ROOM or SUBROOM line.
    pub header: TextRange,
    pub is_subroom: bool,
    /// `None` is random.
    pub room_type: Option<Spanned<String>>,
    pub room_type_range: TextRange,
    pub lit: Spanned<Light>,
    /// `None` is random.
    pub position: Spanned<Option<(i64, i64)>>,
    /// `None` is random (always `None` for subrooms).
    pub alignment: Spanned<Option<(HAlign, VAlign)>>,
    pub size: Spanned<Option<(i64, i64)>>,
    /// The parent's name, for a subroom.
    pub parent: Option<Spanned<String>>,
    pub filled: Option<Spanned<bool>>,
    pub details: Vec<Detail>,
}

impl Room {
    /// The room's NAME, if it has one (the first, if several).
    pub fn name(&self) -> Option<&Spanned<String>> {
        self.details.iter().find_map(|d| match &d.kind {
            DetailKind::RoomName(name) => Some(name),
            _ => None,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Corridors {
    /// The `RANDOM_CORRIDORS` statement.
    pub random: Option<TextRange>,
    pub explicit: Vec<Corridor>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Corridor {
    pub range: TextRange,
    pub from: CorridorEnd,
    pub to: CorridorTarget,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CorridorEnd {
    pub range: TextRange,
    pub room: Spanned<i64>,
    pub wall: Direction,
    /// `None` is random.
    pub door: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CorridorTarget {
    Door(CorridorEnd),
    /// `CORRIDOR: spec, N`, which the game ignores.
    Number(Spanned<i64>),
}
