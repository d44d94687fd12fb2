//! Traps (`mklev.c` mktrap, `trap.c` maketrap), and where monsters may stand.

use super::load::{Loader, monster_index, object_index};
use crate::level::{Event, Level, Origin, Pos, Terrain, Trap, What};

/// Where a random position may be: `DRY` floor-like squares, `WET` water and lava.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Humidity {
    pub dry: bool,
    pub wet: bool,
}

impl Humidity {
    pub const DRY: Humidity = Humidity {
        dry: true,
        wet: false,
    };
    pub const WET: Humidity = Humidity {
        dry: false,
        wet: true,
    };
    pub const DRY_WET: Humidity = Humidity {
        dry: true,
        wet: true,
    };
}

/// Monsters that swim (`M1_SWIM` in the 3.4.3 monster table).
const SWIMMERS: [&str; 25] = [
    "gremlin",
    "water nymph",
    "woodchuck",
    "water elemental",
    "rust monster",
    "garter snake",
    "snake",
    "water moccasin",
    "pit viper",
    "python",
    "cobra",
    "water troll",
    "Medusa",
    "water demon",
    "mail daemon",
    "jellyfish",
    "piranha",
    "shark",
    "giant eel",
    "electric eel",
    "kraken",
    "newt",
    "baby crocodile",
    "crocodile",
    "Orion",
];

/// The squares a monster may be put on at random: swimmers anywhere, eels in water, the rest
/// on dry land. A class-only request counts as the class's first monster.
pub fn monster_humidity(what: &What) -> Humidity {
    use levkit_model::nethack::tables::MONSTERS;
    let entry = match what {
        What::Index(i) => MONSTERS.get(*i as usize),
        What::Class(c) => MONSTERS.iter().find(|m| m.class == *c),
        _ => None,
    };
    match entry {
        Some(m) if SWIMMERS.contains(&m.name.as_str()) => {
            if m.class == b';' {
                Humidity::WET
            } else {
                Humidity::DRY_WET
            }
        }
        _ => Humidity::DRY,
    }
}

// Trap numbers of 3.4.3's trap.h.
const ROCKTRAP: i32 = 3;
pub(crate) const LANDMINE: i32 = 6;
const ROLLING_BOULDER_TRAP: i32 = 7;
const SLP_GAS_TRAP: i32 = 8;
const FIRE_TRAP: i32 = 10;
const PIT: i32 = 11;
pub(crate) const SPIKED_PIT: i32 = 12;
const HOLE: i32 = 13;
const TRAPDOOR: i32 = 14;
const TELEP_TRAP: i32 = 15;
const LEVEL_TELEP: i32 = 16;
const MAGIC_PORTAL: i32 = 17;
const WEB: i32 = 18;
const STATUE_TRAP: i32 = 19;
const POLY_TRAP: i32 = 22;
const TRAPNUM: i32 = 23;

impl Loader<'_> {
    fn can_dig_down(&self) -> bool {
        !self.b.level.flags.hardfloor && self.b.place.dlevel != self.b.place.dungeon_levels
    }

    fn can_fall_through(&self) -> bool {
        self.can_dig_down() || (self.b.place.dnum == 0 && self.b.place.dlevel == 27)
    }

    /// `mktrap` with a position, as a special level's TRAP uses it: a random kind obeys the
    /// level's difficulty; nothing goes into water.
    pub(crate) fn mktrap(&mut self, num: i32, p: Pos, origin: Origin) {
        if self.is_pool(p.x, p.y) {
            return;
        }
        let mut kind = if num > 0 && num < TRAPNUM {
            num
        } else if self.b.place.in_hell && self.b.rng.rn2(5) == 0 {
            FIRE_TRAP
        } else {
            let lvl = self.b.place.difficulty;
            loop {
                let mut kind = self.b.rng.rnd(TRAPNUM - 1);
                match kind {
                    MAGIC_PORTAL => kind = 0,
                    ROLLING_BOULDER_TRAP | SLP_GAS_TRAP if lvl < 2 => kind = 0,
                    LEVEL_TELEP if lvl < 5 || self.b.level.flags.noteleport => kind = 0,
                    SPIKED_PIT if lvl < 5 => kind = 0,
                    LANDMINE if lvl < 6 => kind = 0,
                    WEB if lvl < 7 => kind = 0,
                    STATUE_TRAP | POLY_TRAP if lvl < 8 => kind = 0,
                    FIRE_TRAP if !self.b.place.in_hell => kind = 0,
                    TELEP_TRAP if self.b.level.flags.noteleport => kind = 0,
                    HOLE if self.b.rng.rn2(7) != 0 => kind = 0,
                    _ => {}
                }
                if kind != 0 {
                    break kind;
                }
            }
        };
        if (kind == TRAPDOOR || kind == HOLE) && !self.can_fall_through() {
            kind = ROCKTRAP;
        }
        self.maketrap(p, kind, origin);
        if kind == WEB {
            let spider = What::Index(monster_index("giant spider"));
            self.b
                .level
                .record(Event::Monster(spider), p.x, p.y, origin);
        }
    }

    /// `rndtrap`: the stricter random kind of the maze's junk fill.
    pub(crate) fn rndtrap(&mut self) -> i32 {
        loop {
            let kind = self.b.rng.rnd(TRAPNUM - 1);
            let rejected = match kind {
                HOLE | MAGIC_PORTAL => true,
                TRAPDOOR => !self.can_dig_down(),
                LEVEL_TELEP | TELEP_TRAP => self.b.level.flags.noteleport,
                ROLLING_BOULDER_TRAP | ROCKTRAP => self.b.place.dnum == 7,
                _ => false,
            };
            if !rejected {
                return kind;
            }
        }
    }

    /// `maketrap`: a trap replaces another (never a magic portal); pits and holes turn
    /// their square into floor; a rolling boulder looks for its launch square.
    pub(crate) fn maketrap(&mut self, p: Pos, kind: i32, origin: Origin) {
        let existing = self.b.level.traps.iter().position(|t| t.at == p);
        if let Some(i) = existing {
            if self.b.level.traps[i].kind == MAGIC_PORTAL {
                return;
            }
            self.b.level.traps[i].kind = kind;
            self.b.level.traps[i].origin = origin;
        } else {
            self.b.level.traps.push(Trap {
                kind,
                at: p,
                origin,
            });
        }
        self.b.level.record(Event::Trap(kind), p.x, p.y, origin);
        match kind {
            STATUE_TRAP => {
                let statue = What::Index(object_index("statue"));
                self.b.level.record(Event::Object(statue), p.x, p.y, origin);
            }
            ROLLING_BOULDER_TRAP => self.roll_launch(p, origin),
            HOLE | PIT | SPIKED_PIT | TRAPDOOR => {
                let maze = self.b.level.flags.is_maze_lev;
                let cavernous = self.b.level.flags.is_cavernous_lev;
                let cell = self.b.level.at_mut(p.x, p.y);
                cell.flags = 0;
                if cell.typ >= Terrain::Room {
                    cell.typ = Terrain::Room;
                } else if matches!(cell.typ, Terrain::Stone | Terrain::SCorr) {
                    cell.typ = Terrain::Corr;
                } else if cell.typ.is_wall() || cell.typ == Terrain::SDoor {
                    cell.typ = if maze {
                        Terrain::Room
                    } else if cavernous {
                        Terrain::Corr
                    } else {
                        Terrain::Door
                    };
                }
            }
            _ => {}
        }
    }

    /// `mkroll_launch` for a rolling boulder trap: a clear path 2 to 8 squares long both ways.
    fn roll_launch(&mut self, p: Pos, origin: Origin) {
        const XDIR: [i32; 8] = [-1, -1, 0, 1, 1, 1, 0, -1];
        const YDIR: [i32; 8] = [0, -1, -1, -1, 0, 1, 1, 1];
        let mut distance = self.b.rng.rn1(5, 4);
        let mut dir = self.b.rng.rn2(8) as usize;
        let mut tries = 0;
        let clear = |level: &Level, mut x: i32, mut y: i32, distance: i32, dx: i32, dy: i32| {
            for _ in 0..distance {
                x += dx;
                y += dy;
                if !Level::isok(x, y) {
                    return None;
                }
                let cell = level.at(x, y);
                let closed = cell.typ == Terrain::Door
                    && cell.flags & (crate::level::door::CLOSED | crate::level::door::LOCKED) != 0;
                if cell.typ < Terrain::Pool || closed {
                    return None;
                }
            }
            Some(Pos { x, y })
        };
        while distance >= 2 {
            let (dx, dy) = (XDIR[dir], YDIR[dir]);
            let (tx, ty) = (p.x + distance * dx, p.y + distance * dy);
            let mut launch = if Level::isok(tx, ty) && self.is_pool(tx, ty) {
                None
            } else {
                clear(&self.b.level, p.x, p.y, distance, dx, dy)
            };
            if clear(&self.b.level, p.x, p.y, distance, -dx, -dy).is_none() {
                launch = None;
            }
            if let Some(at) = launch {
                let boulder = object_index("boulder");
                self.objects_at.push((at, boulder as i16));
                self.b
                    .level
                    .record(Event::Object(What::Index(boulder)), at.x, at.y, origin);
                return;
            }
            dir = (dir + 1) % 8;
            tries += 1;
            if tries % 8 == 0 {
                distance -= 1;
            }
        }
    }
}
