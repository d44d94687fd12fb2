//! lev_comp's records, field for field, in the order the file holds them. Every value is
//! the stored one (`-1` random, `-11` a random coordinate...: see the research note, 2.6);
//! every record that the game's loader can report keeps an `origin`.
//!
//! `origin` is the byte offset the record starts at once the level is laid out: decoding sets
//! it, and encoding sets it (after noting the key the writer had put there for the record's
//! source). So `decode(bytes)` and an encoded level compare equal field for field.

/// A coordinate as stored: non-negative is map- or room-relative, -1..-10 a place register,
/// -11 random.
pub type Coord = (i8, i8);

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SpecialLevel {
    /// `version_info`: version, feature set and the two checksums of the build.
    pub version: [u64; 4],
    pub init: InitMap,
    /// NOTELEPORT 1, HARDFLOOR 2, NOMMAP 4, SHORTSIGHTED 8, ARBOREAL 16.
    pub flags: u64,
    /// The MESSAGE lines joined with `\n`.
    pub message: String,
    /// The level kind (LEVEL 1, MAZE 2) and what follows the header.
    pub body: Body,
}

/// `lev_init`: INIT_MAP's parameters (all zero without INIT_MAP).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct InitMap {
    pub present: bool,
    pub fg: i8,
    pub bg: i8,
    pub smoothed: bool,
    pub joined: bool,
    /// 0, 1, or -1 random.
    pub lit: i8,
    /// 0, 1, or -1 random (which the game treats as walled).
    pub walled: i8,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Body {
    Rooms(RoomLevel),
    Maze(Maze),
}

impl Default for Body {
    fn default() -> Self {
        Body::Maze(Maze::default())
    }
}

impl Body {
    /// The level kind byte.
    pub fn kind(&self) -> i8 {
        match self {
            Body::Rooms(_) => 1,
            Body::Maze(_) => 2,
        }
    }

    /// An empty body of a kind byte.
    pub fn of_kind(kind: i8) -> Option<Body> {
        match kind {
            1 => Some(Body::Rooms(RoomLevel::default())),
            2 => Some(Body::Maze(Maze::default())),
            _ => None,
        }
    }
}

/// A MAZE file: the fill and the map parts.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Maze {
    /// The fill terrain, or -1 for the game's maze pattern.
    pub filling: i8,
    /// One to nine parts.
    pub parts: Vec<MazePart>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MazePart {
    pub halign: i8,
    pub valign: i8,
    pub xsize: i8,
    pub ysize: i8,
    /// Terrain codes, row by row (`ysize` rows of `xsize`); empty when the file stores no map
    /// (see [`map_is_stored`](super::map_is_stored)).
    pub map: Vec<Vec<i8>>,
    pub lev_regions: Vec<LevRegion>,
    /// Class characters, in the file's (reversed) order.
    pub object_registers: Vec<i8>,
    pub place_registers: Vec<Coord>,
    pub monster_registers: Vec<i8>,
    pub regions: Vec<RegionRec>,
    pub doors: Vec<DoorRec>,
    pub drawbridges: Vec<DrawbridgeRec>,
    pub walks: Vec<WalkRec>,
    pub non_diggable: Vec<AreaRec>,
    pub non_passwall: Vec<AreaRec>,
    pub ladders: Vec<StairRec>,
    pub stairs: Vec<StairRec>,
    pub altars: Vec<AltarRec>,
    pub fountains: Vec<SpotRec>,
    pub traps: Vec<TrapRec>,
    pub things: Things,
    pub origin: u32,
}

/// Monsters, objects, gold and engravings: the tail every part and room shares.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Things {
    pub monsters: Vec<MonsterRec>,
    pub objects: Vec<ObjectRec>,
    pub gold: Vec<GoldRec>,
    pub engravings: Vec<EngravingRec>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Area {
    pub x1: i8,
    pub y1: i8,
    pub x2: i8,
    pub y2: i8,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LevRegion {
    pub inarea: Area,
    pub delarea: Area,
    /// The areas are level coordinates (`levregion(...)`), not map-relative.
    pub in_islev: bool,
    pub del_islev: bool,
    /// LR_DOWNSTAIR 0, UPSTAIR 1, PORTAL 2, BRANCH 3, TELE 4, UPTELE 5, DOWNTELE 6.
    pub rtype: i8,
    /// A portal's destination; empty otherwise.
    pub name: String,
    pub origin: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RegionRec {
    pub area: Area,
    /// A room type, plus 25 when `unfilled`.
    pub rtype: i8,
    pub rlit: i8,
    pub irregular: bool,
    pub origin: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DoorRec {
    pub at: Coord,
    pub mask: i8,
    pub origin: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DrawbridgeRec {
    pub at: Coord,
    /// North 0, south 1, east 2, west 3.
    pub dir: i8,
    pub open: bool,
    pub origin: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WalkRec {
    pub at: Coord,
    /// North 1, south 2, east 4, west 8.
    pub dir: i8,
    pub origin: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AreaRec {
    pub area: Area,
    pub origin: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StairRec {
    pub at: Coord,
    pub up: bool,
    pub origin: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AltarRec {
    pub at: Coord,
    pub align: i8,
    pub shrine: i8,
    pub origin: u32,
}

/// A fountain, sink or pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SpotRec {
    pub at: Coord,
    pub origin: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TrapRec {
    pub at: Coord,
    pub chance: i8,
    pub kind: i8,
    pub origin: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MonsterRec {
    /// Empty when not given.
    pub name: String,
    /// Empty when not given.
    pub appear_as: String,
    /// Index into the monster table, or -1.
    pub id: i16,
    pub align: i8,
    pub at: Coord,
    pub chance: i8,
    pub class: i8,
    pub appear: i8,
    pub peaceful: i8,
    pub asleep: i8,
    pub origin: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ObjectRec {
    /// Empty when not given.
    pub name: String,
    /// -1 none, -2 random, else a monster index.
    pub corpsenm: i32,
    pub id: i16,
    pub spe: i16,
    pub at: Coord,
    pub chance: i8,
    pub class: i8,
    /// 0 loose, 1 inside the last container, 2 a container.
    pub containment: i8,
    pub curse: i8,
    pub origin: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GoldRec {
    pub at: Coord,
    pub amount: i32,
    pub origin: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EngravingRec {
    pub at: Coord,
    pub text: String,
    pub kind: i8,
    pub origin: u32,
}

/// A LEVEL (rooms) file: registers, rooms in file order, corridors.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RoomLevel {
    pub object_registers: Vec<i8>,
    pub monster_registers: Vec<i8>,
    /// Rooms and subrooms, in source order.
    pub rooms: Vec<RoomRec>,
    pub corridors: Vec<CorridorRec>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RoomRec {
    pub name: String,
    /// The enclosing room's name: set for a SUBROOM.
    pub parent: String,
    pub x: i8,
    pub y: i8,
    pub w: i8,
    pub h: i8,
    pub xalign: i8,
    pub yalign: i8,
    pub rtype: i8,
    pub chance: i8,
    pub rlit: i8,
    pub filled: i8,
    pub doors: Vec<RoomDoorRec>,
    pub stairs: Vec<StairRec>,
    pub altars: Vec<AltarRec>,
    pub fountains: Vec<SpotRec>,
    pub sinks: Vec<SpotRec>,
    pub pools: Vec<SpotRec>,
    pub traps: Vec<TrapRec>,
    pub things: Things,
    pub origin: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RoomDoorRec {
    pub wall: i8,
    pub pos: i8,
    pub secret: i8,
    pub mask: i8,
    pub origin: u32,
}

/// `corridor`: from a room's door to another's. A source room of -1 is RANDOM_CORRIDORS; a
/// destination room of -1 is a corridor to a number (held in `dest.wall`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CorridorRec {
    pub src: CorridorEnd,
    pub dest: CorridorEnd,
    pub origin: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CorridorEnd {
    pub room: i8,
    /// North 1, south 2, east 4, west 8.
    pub wall: i8,
    /// The door's index on that wall, or -1 random.
    pub door: i8,
}
