//! The level being built, in the game's own terms: the `levl[][]` grid of `struct rm`, the room
//! and door lists, stairs, level flags, and the log of everything placed on it. Every generator
//! (mklev, the special-level loader) writes this one model and every rendering reads it.

pub const COLNO: usize = 80;
pub const ROWNO: usize = 21;

/// The terrain types of 3.4.3's `rm.h`, with the game's numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(u8)]
pub enum Terrain {
    #[default]
    Stone = 0,
    VWall,
    HWall,
    TLCorner,
    TRCorner,
    BLCorner,
    BRCorner,
    CrossWall,
    TUWall,
    TDWall,
    TLWall,
    TRWall,
    DbWall,
    Tree,
    SDoor,
    SCorr,
    Pool,
    Moat,
    Water,
    DrawbridgeUp,
    LavaPool,
    IronBars,
    Door,
    Corr,
    Room,
    Stairs,
    Ladder,
    Fountain,
    Throne,
    Sink,
    Grave,
    Altar,
    Ice,
    DrawbridgeDown,
    Air,
    Cloud,
}

impl Terrain {
    pub const ALL: [Terrain; 36] = {
        use Terrain::*;
        [
            Stone,
            VWall,
            HWall,
            TLCorner,
            TRCorner,
            BLCorner,
            BRCorner,
            CrossWall,
            TUWall,
            TDWall,
            TLWall,
            TRWall,
            DbWall,
            Tree,
            SDoor,
            SCorr,
            Pool,
            Moat,
            Water,
            DrawbridgeUp,
            LavaPool,
            IronBars,
            Door,
            Corr,
            Room,
            Stairs,
            Ladder,
            Fountain,
            Throne,
            Sink,
            Grave,
            Altar,
            Ice,
            DrawbridgeDown,
            Air,
            Cloud,
        ]
    };

    /// The type with the game's number, if there is one.
    pub fn from_code(code: i32) -> Option<Terrain> {
        usize::try_from(code)
            .ok()
            .and_then(|i| Terrain::ALL.get(i).copied())
    }

    pub fn code(self) -> u8 {
        self as u8
    }

    /// `IS_WALL`: a wall of any shape except the drawbridge wall (VWALL..TRWALL).
    pub fn is_wall(self) -> bool {
        (Terrain::VWall..=Terrain::TRWall).contains(&self)
    }

    /// `IS_STWALL`: stone or a wall (STONE..TRWALL).
    pub fn is_stone_or_wall(self) -> bool {
        self <= Terrain::TRWall
    }

    /// `IS_ROCK`: anything you cannot walk into without digging (below POOL).
    pub fn is_rock(self) -> bool {
        self < Terrain::Pool
    }

    /// `IS_DOOR`.
    pub fn is_door(self) -> bool {
        self == Terrain::Door
    }

    /// `ACCESSIBLE`: DOOR and above.
    pub fn is_accessible(self) -> bool {
        self >= Terrain::Door
    }

    /// `IS_POOL`: POOL, MOAT, WATER, LAVAPOOL... as 3.4.3 defines it (POOL..DRAWBRIDGE_UP).
    pub fn is_pool(self) -> bool {
        (Terrain::Pool..=Terrain::DrawbridgeUp).contains(&self)
    }

    /// `IS_FURNITURE`: STAIRS..ALTAR.
    pub fn is_furniture(self) -> bool {
        (Terrain::Stairs..=Terrain::Altar).contains(&self)
    }
}

/// Door states, the `doormask` bits of `rm.h`.
pub mod door {
    pub const NODOOR: u8 = 0;
    pub const BROKEN: u8 = 1;
    pub const ISOPEN: u8 = 2;
    pub const CLOSED: u8 = 4;
    pub const LOCKED: u8 = 8;
    pub const TRAPPED: u8 = 16;
}

/// `drawbridgemask` bits of a drawbridge's own square: its direction in the low two bits,
/// and what lies under a raised one (moat unless `LAVA`).
pub mod drawbridge {
    pub const LAVA: u8 = 4;
}

/// `wall_info` bits (they share `flags` with the door mask, as in the game).
pub mod wall {
    pub const NONDIGGABLE: u8 = 0x08;
    pub const NONPASSWALL: u8 = 0x10;
}

/// Altar alignment bits (`altarmask`): 0 unaligned, 1 chaotic, 2 neutral, 4 lawful, 0x80 shrine.
pub mod altar {
    pub const SHRINE: u8 = 0x80;
}

/// Where a change came from: the byte offset, in the compiled `.lev` file, of the record that
/// caused it (the loader knows where it read each record, the compiler where it wrote it, so
/// the two agree without any numbering convention). A rendering maps it back to the source
/// line. `None` for the generator's own work (random rooms, corridors, fill).
pub type Origin = Option<u32>;

/// One square: `struct rm` without the display fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Cell {
    pub typ: Terrain,
    /// Door mask, altar mask, wall info... depending on `typ`, as the game's 5-bit `flags`.
    pub flags: u8,
    pub horizontal: bool,
    pub lit: bool,
    pub roomno: u8,
    pub edge: bool,
    /// The record that last set this square's terrain.
    pub origin: Origin,
}

/// `NO_ROOM` and `SHARED` room numbers.
pub const NO_ROOM: u8 = 0;
pub const SHARED: u8 = 1;
pub const ROOMOFFSET: u8 = 3;

/// `struct mkroom`. Subrooms live in `Level::subrooms` and are referenced by index.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Room {
    pub lx: i32,
    pub hx: i32,
    pub ly: i32,
    pub hy: i32,
    pub rtype: i32,
    pub rlit: bool,
    pub doorct: i32,
    pub fdoor: i32,
    pub irregular: bool,
    /// Indexes into `Level::subrooms`.
    pub subrooms: Vec<usize>,
    /// For a subroom, its parent's index in `Level::rooms`.
    pub parent: Option<usize>,
    pub origin: Origin,
}

/// Room types (`mkroom.h`).
pub mod room_type {
    pub const OROOM: i32 = 0;
    pub const COURT: i32 = 2;
    pub const SWAMP: i32 = 3;
    pub const VAULT: i32 = 4;
    pub const BEEHIVE: i32 = 5;
    pub const MORGUE: i32 = 6;
    pub const BARRACKS: i32 = 7;
    pub const ZOO: i32 = 8;
    pub const DELPHI: i32 = 9;
    pub const TEMPLE: i32 = 10;
    pub const SHOPBASE: i32 = 14;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pos {
    pub x: i32,
    pub y: i32,
}

/// What a `monster`/`object` line of the reference output names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum What {
    Random,
    /// A class symbol only.
    Class(u8),
    /// `fill_zoo`'s monster choosers: `court`, `soldier`, `morgue`, `anthole`.
    Chooser(&'static str),
    /// Gold with an amount (0: left to the object code).
    Gold(i32),
    /// A shop's stock for room type `14 + k`.
    ShopItem(i32),
    /// An index into the 3.4.3 monster or object table.
    Index(u16),
}

/// Something the level's creation recorded, in creation order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    Monster(What),
    Object(What),
    /// An object put into the most recent container.
    Content(What),
    /// The name given to the thing on the event before.
    Named(String),
    Trap(i32),
    TrapRemoved(i32),
    Engraving {
        kind: i32,
        text: String,
    },
    EngravingRemoved,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    pub event: Event,
    pub at: Pos,
    pub origin: Origin,
}

/// A map drawn on the level: its record, and the level square of its top-left character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlacedMap {
    pub origin: u32,
    pub at: Pos,
}

/// A trap on the final level (`ftrap` list), newest last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Trap {
    pub kind: i32,
    pub at: Pos,
    pub origin: Origin,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stair {
    pub at: Pos,
    pub up: bool,
    pub origin: Origin,
}

/// A level-teleport arrival area (`updest`/`dndest`): in-area and excluded area.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TeleportRegion {
    pub lx: i32,
    pub ly: i32,
    pub hx: i32,
    pub hy: i32,
    pub nlx: i32,
    pub nly: i32,
    pub nhx: i32,
    pub nhy: i32,
}

/// `level.flags` as the reference output lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LevelFlags {
    pub is_maze_lev: bool,
    pub is_cavernous_lev: bool,
    pub noteleport: bool,
    pub hardfloor: bool,
    pub nommap: bool,
    pub shortsighted: bool,
    pub arboreal: bool,
    pub has_shop: bool,
    pub has_vault: bool,
    pub has_zoo: bool,
    pub has_court: bool,
    pub has_morgue: bool,
    pub has_beehive: bool,
    pub has_barracks: bool,
    pub has_temple: bool,
    pub graveyard: bool,
}

/// Alignments as the game stores them (`A_CHAOTIC` -1, `A_NEUTRAL` 0, `A_LAWFUL` 1); `None`
/// where a level or dungeon has no alignment of its own.
pub type Alignment = Option<i32>;

/// The level's place in the dungeon and the hero, which several draws depend on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// Dungeon number (0 the Dungeons of Doom...).
    pub dnum: i32,
    /// Level number inside the dungeon.
    pub dlevel: i32,
    pub depth: i32,
    /// `level_difficulty()`.
    pub difficulty: i32,
    /// The level is in the endgame (the Elemental Planes), where the difficulty is the
    /// Sanctum's depth plus half the hero's level, whatever the level's own depth.
    pub endgame: bool,
    /// The level's own alignment (from dungeon.def), else its dungeon's.
    pub level_align: Alignment,
    pub dungeon_align: Alignment,
    /// The dungeon is hellish (Gehennom): fire traps...
    pub in_hell: bool,
    /// Levels in this dungeon: no down stair on the last one.
    pub dungeon_levels: i32,
    /// The hero's role (`Arc`...`Wiz`; `Val` outside the Quest) and alignment.
    pub role: String,
    pub hero_align: i32,
}

impl Place {
    /// The place moved to another depth (`levkit preview --depth`): the difficulty follows
    /// the depth, except in the endgame, whose rule does not depend on it.
    pub fn at_depth(mut self, depth: i32) -> Place {
        self.depth = depth;
        if !self.endgame {
            self.difficulty = depth;
        }
        self
    }

    /// An ordinary Dungeons of Doom level at this depth, for a neutral Valkyrie.
    pub fn doom(depth: i32) -> Place {
        Place {
            dnum: 0,
            dlevel: depth,
            depth,
            difficulty: depth,
            endgame: false,
            level_align: None,
            dungeon_align: None,
            in_hell: false,
            dungeon_levels: 27,
            role: "Val".to_string(),
            hero_align: 0,
        }
    }
}

/// The whole level: `levl`, `rooms`, `subrooms`, `doors`, stairs, flags and the event log.
#[derive(Debug, Clone)]
pub struct Level {
    /// `cells[x][y]`, as `levl[x][y]`.
    pub cells: Box<[[Cell; ROWNO]; COLNO]>,
    pub rooms: Vec<Room>,
    pub subrooms: Vec<Room>,
    /// `doors[]`, in creation order (rooms index into it with `fdoor`/`doorct`).
    pub doors: Vec<Pos>,
    pub upstair: Option<Stair>,
    pub dnstair: Option<Stair>,
    /// The branch stair (`sstairs`).
    pub branch_stair: Option<Stair>,
    pub upladder: Option<Stair>,
    pub dnladder: Option<Stair>,
    pub traps: Vec<Trap>,
    pub flags: LevelFlags,
    pub updest: TeleportRegion,
    pub dndest: TeleportRegion,
    /// The vault's interior top-left, when mklev reserved one.
    pub vault: Option<Pos>,
    pub events: Vec<Placed>,
    /// Where each map part's map was drawn, in load order: a square whose terrain still has
    /// the map's origin came from the map's character at its offset from `at`.
    pub maps: Vec<PlacedMap>,
    /// Where writes off the map go (see [`Level::at_mut`]).
    off_map: Cell,
}

impl Default for Level {
    fn default() -> Self {
        Level::new()
    }
}

impl Level {
    /// Solid unlit stone everywhere, no rooms.
    pub fn new() -> Level {
        Level {
            cells: Box::new([[Cell::default(); ROWNO]; COLNO]),
            rooms: Vec::new(),
            subrooms: Vec::new(),
            doors: Vec::new(),
            upstair: None,
            dnstair: None,
            branch_stair: None,
            upladder: None,
            dnladder: None,
            traps: Vec::new(),
            flags: LevelFlags::default(),
            updest: TeleportRegion::default(),
            dndest: TeleportRegion::default(),
            vault: None,
            events: Vec::new(),
            maps: Vec::new(),
            off_map: Cell::default(),
        }
    }

    /// `isok(x, y)`: inside the map (column 0 counts, as in the game).
    pub fn isok(x: i32, y: i32) -> bool {
        (0..COLNO as i32).contains(&x) && (0..ROWNO as i32).contains(&y)
    }

    /// The square at (x, y). Off the map (only a damaged level gets there) reads as rock.
    pub fn at(&self, x: i32, y: i32) -> &Cell {
        static OFF_MAP: Cell = Cell {
            typ: Terrain::Stone,
            flags: 0,
            horizontal: false,
            lit: false,
            roomno: 0,
            edge: false,
            origin: None,
        };
        if Level::isok(x, y) {
            &self.cells[x as usize][y as usize]
        } else {
            &OFF_MAP
        }
    }

    /// The square at (x, y) to change. Off the map, changes go to a scratch square and are
    /// lost, where the game would write past its arrays.
    pub fn at_mut(&mut self, x: i32, y: i32) -> &mut Cell {
        if Level::isok(x, y) {
            &mut self.cells[x as usize][y as usize]
        } else {
            self.off_map = Cell::default();
            &mut self.off_map
        }
    }

    pub fn typ(&self, x: i32, y: i32) -> Terrain {
        self.at(x, y).typ
    }

    pub fn set_typ(&mut self, x: i32, y: i32, typ: Terrain, origin: Origin) {
        let cell = self.at_mut(x, y);
        cell.typ = typ;
        cell.origin = origin;
    }

    pub fn record(&mut self, event: Event, x: i32, y: i32, origin: Origin) {
        self.events.push(Placed {
            event,
            at: Pos { x, y },
            origin,
        });
    }
}
