//! The `.lev` writer: a level's model as lev_comp's records, which [`lev::encode`] lays out.

use levkit_model::nethack::names::{monster_index, object_index, room_type, trap_type};
use levkit_model::nethack::{
    Alignment, AppearanceKind, Class, Coordinate, CorridorEnd, CorridorTarget, Detail, DetailKind,
    Direction, DoorState, Fill, LevRegionKind, Level, LevelKind, Light, Map, MapPart, Monster,
    Object, Rect, Region, RegisterList, Registers, Room, Terrain, terrain_of, wallify,
};
use levkit_model::{Spanned, TextRange};

use super::lev::{self, Area, Body};

/// The four words that open every file: version 3.4.3.0, the feature set of the default Unix
/// build, and the two checksums of that build's tables and structures.
pub(crate) const VERSION_INFO: [u64; 4] = [0x0304_0300, 0x001e_0cc6, 0x211b_117e, 0xb8d2_4950];

/// The coordinate, class and alignment value of `random`.
const RANDOM_REGISTER: i8 = -11;
/// A monster's alignment when none is given.
const NO_ALIGNMENT: i8 = -12;
/// `unfilled` adds this to a region's room type.
const UNFILLED: i8 = 25;

pub fn compile_level(level: &Level) -> Vec<u8> {
    compile_level_with_origins(level).0
}

/// The `.lev` bytes, and for every record the byte offset it starts at with the source range
/// it was written for (a map part's offset maps to its MAP block): the generator reports
/// such offsets as origins, and this turns them back into source lines.
pub fn compile_level_with_origins(level: &Level) -> (Vec<u8>, Vec<(u32, TextRange)>) {
    let (mut records, sources) = level_records(level);
    let (bytes, origins) = lev::encode(&mut records);
    let origins = origins
        .into_iter()
        .map(|(offset, source)| (offset, sources[source as usize]))
        .collect();
    (bytes, origins)
}

/// The records lev_comp writes for a level. Each record's `origin` is an index into the
/// returned source ranges (the statement it was written for) until [`lev::encode`] lays it
/// out.
pub fn level_records(level: &Level) -> (lev::SpecialLevel, Vec<TextRange>) {
    let mut sources = Sources::default();
    let init = level
        .init_map
        .as_ref()
        .map_or_else(lev::InitMap::default, |init| lev::InitMap {
            present: true,
            fg: terrain_code(init.foreground.value),
            bg: terrain_code(init.background.value),
            smoothed: init.smoothed,
            joined: init.joined.value,
            lit: light(init.lit),
            walled: init.walled.map_or(-1, i8::from),
        });
    let flags = level
        .flags
        .iter()
        .fold(0u64, |acc, f| acc | u64::from(f.value.bit()));
    // lev_comp puts a newline before a message only when the text so far is not empty, so
    // empty messages at the start leave no trace.
    let message = level.messages.iter().fold(String::new(), |mut joined, m| {
        if !joined.is_empty() {
            joined.push('\n');
        }
        joined.push_str(&m.value);
        joined
    });
    let body = match level.kind {
        LevelKind::Maze => Body::Maze(lev::Maze {
            filling: match level.fill.map(|f| f.value) {
                Some(Fill::Char(c)) => terrain_code(c),
                _ => -1,
            },
            parts: level
                .parts
                .iter()
                .map(|part| sources.part(part, init.present))
                .collect(),
        }),
        LevelKind::Rooms => Body::Rooms(sources.room_level(level)),
    };
    let records = lev::SpecialLevel {
        version: VERSION_INFO,
        init,
        flags,
        message,
        body,
    };
    (records, sources.ranges)
}

/// The source range of every record, in the order they were built.
#[derive(Default)]
struct Sources {
    ranges: Vec<TextRange>,
}

impl Sources {
    /// The key a record written for `range` carries as its origin.
    fn key(&mut self, range: TextRange) -> u32 {
        self.ranges.push(range);
        (self.ranges.len() - 1) as u32
    }

    fn part(&mut self, part: &MapPart, init_present: bool) -> lev::MazePart {
        let (halign, valign) = part
            .geometry
            .map_or((1, 1), |g| (g.value.0.value(), g.value.1.value()));
        let grid = map_codes(part.map.as_ref(), &part.details);
        let (xsize, ysize) = (grid.first().map_or(0, Vec::len) as i8, grid.len() as i8);
        let (object_registers, monster_registers) = registers(&part.registers);
        let records = self.detail_records(&part.details, Container::MapPart);
        lev::MazePart {
            halign,
            valign,
            xsize,
            ysize,
            map: if lev::map_is_stored(init_present, xsize, ysize) {
                grid
            } else {
                Vec::new()
            },
            lev_regions: records.lev_regions,
            object_registers,
            place_registers: part
                .registers
                .places
                .first()
                .map_or(&[][..], |l| &l.items[..])
                .iter()
                .map(|p| (p.value.0 as i8, p.value.1 as i8))
                .collect(),
            monster_registers,
            regions: records.regions,
            doors: records.doors,
            drawbridges: records.drawbridges,
            walks: records.walks,
            non_diggable: records.non_diggable,
            non_passwall: records.non_passwall,
            ladders: records.ladders,
            stairs: records.stairs,
            altars: records.altars,
            fountains: records.fountains,
            traps: records.traps,
            things: records.things,
            origin: self.key(part.map.as_ref().map_or(part.range, |m| m.range)),
        }
    }

    /// The records of the details a `container` writes, each list in source order, keyed by
    /// their sources: one pass over the details, however many kinds of record there are.
    fn detail_records(&mut self, details: &[Detail], container: Container) -> DetailRecords {
        let mut records = DetailRecords::default();
        let in_part = container == Container::MapPart;
        let in_room = container == Container::Room;
        for detail in details {
            match &detail.kind {
                DetailKind::LevRegion(r) if in_part => {
                    records
                        .lev_regions
                        .push(lev_region(r, self.key(detail.range)));
                }
                DetailKind::Region(r) if in_part => {
                    records.regions.push(region(r, self.key(detail.range)))
                }
                DetailKind::Door { state, at } if in_part => records.doors.push(lev::DoorRec {
                    at: coordinate(at),
                    mask: state.value.mask(),
                    origin: self.key(detail.range),
                }),
                DetailKind::Drawbridge {
                    at,
                    direction,
                    state,
                } if in_part => records.drawbridges.push(lev::DrawbridgeRec {
                    at: coordinate(at),
                    dir: match direction.value {
                        Direction::North => 0,
                        Direction::South => 1,
                        Direction::East => 2,
                        Direction::West => 3,
                    },
                    open: state.value == DoorState::Open,
                    origin: self.key(detail.range),
                }),
                DetailKind::Mazewalk { at, direction } if in_part => {
                    records.walks.push(lev::WalkRec {
                        at: coordinate(at),
                        dir: direction_bits(direction.value),
                        origin: self.key(detail.range),
                    });
                }
                DetailKind::NonDiggable(r) if in_part => {
                    records
                        .non_diggable
                        .push(area_rec(r, self.key(detail.range)));
                }
                DetailKind::NonPasswall(r) if in_part => {
                    records
                        .non_passwall
                        .push(area_rec(r, self.key(detail.range)));
                }
                DetailKind::Ladder { at, up } if in_part => {
                    records.ladders.push(stair(at, *up, self.key(detail.range)));
                }
                DetailKind::RoomDoor(door) if in_room => {
                    records.room_doors.push(lev::RoomDoorRec {
                        wall: door.wall.value.map_or(-1, direction_bits),
                        pos: door.position.value.unwrap_or(-1) as i8,
                        secret: door.secret.value.map_or(-1, i8::from),
                        mask: door.state.value.mask(),
                        origin: self.key(detail.range),
                    });
                }
                DetailKind::Sink(at) if in_room => {
                    records.sinks.push(spot(at, self.key(detail.range)))
                }
                DetailKind::Pool(at) if in_room => {
                    records.pools.push(spot(at, self.key(detail.range)))
                }
                DetailKind::Stair { at, up } => {
                    records.stairs.push(stair(at, *up, self.key(detail.range)))
                }
                DetailKind::Altar {
                    at,
                    alignment: align,
                    shrine,
                } => records.altars.push(lev::AltarRec {
                    at: coordinate(at),
                    align: alignment(align.value),
                    shrine: shrine.unwrap_or(-1),
                    origin: self.key(detail.range),
                }),
                DetailKind::Fountain(at) => {
                    records.fountains.push(spot(at, self.key(detail.range)))
                }
                DetailKind::Trap(trap) => records.traps.push(lev::TrapRec {
                    at: coordinate(&trap.at),
                    chance: trap.chance.map_or(100, |c| c.value as i8),
                    kind: trap
                        .kind
                        .as_ref()
                        .map_or(-1, |k| trap_type(&k.value).unwrap_or(-1)),
                    origin: self.key(detail.range),
                }),
                DetailKind::Monster(m) => records
                    .things
                    .monsters
                    .push(monster(m, self.key(detail.range))),
                DetailKind::Object(o) => records
                    .things
                    .objects
                    .push(object(o, self.key(detail.range))),
                DetailKind::Gold { amount, at } => records.things.gold.push(lev::GoldRec {
                    at: coordinate(at),
                    amount: amount.value.unwrap_or(-1) as i32,
                    origin: self.key(detail.range),
                }),
                DetailKind::Engraving { at, kind, text } => {
                    records.things.engravings.push(lev::EngravingRec {
                        at: coordinate(at),
                        text: text.value.clone(),
                        kind: kind.unwrap_or(-1),
                        origin: self.key(detail.range),
                    });
                }
                _ => {}
            }
        }
        records
    }

    fn room_level(&mut self, level: &Level) -> lev::RoomLevel {
        let (object_registers, monster_registers) = registers(&level.registers);
        let rooms = level.rooms.iter().map(|room| self.room(room)).collect();
        let corridors = &level.corridors;
        let corridors = match corridors.random {
            Some(range) => vec![lev::CorridorRec {
                src: lev::CorridorEnd {
                    room: -1,
                    wall: 0,
                    door: 0,
                },
                dest: lev::CorridorEnd::default(),
                origin: self.key(range),
            }],
            None => corridors
                .explicit
                .iter()
                .map(|corridor| lev::CorridorRec {
                    src: corridor_end(&corridor.from),
                    dest: match &corridor.to {
                        CorridorTarget::Door(end) => corridor_end(end),
                        CorridorTarget::Number(n) => lev::CorridorEnd {
                            room: -1,
                            wall: n.value as i8,
                            door: 0,
                        },
                    },
                    origin: self.key(corridor.range),
                })
                .collect(),
        };
        lev::RoomLevel {
            object_registers,
            monster_registers,
            rooms,
            corridors,
        }
    }

    fn room(&mut self, room: &Room) -> lev::RoomRec {
        let origin = self.key(room.range);
        let (x, y) = room.position.value.unwrap_or((-1, -1));
        let (w, h) = room.size.value.unwrap_or((-1, -1));
        let (xalign, yalign) = room
            .alignment
            .value
            .map_or((-1, -1), |(h, v)| (h.value(), v.value()));
        let chance = room.details.iter().find_map(|d| match &d.kind {
            DetailKind::RoomChance(c) => Some(c.value),
            _ => None,
        });
        let records = self.detail_records(&room.details, Container::Room);
        lev::RoomRec {
            name: room.name().map_or_else(String::new, |n| n.value.clone()),
            parent: room
                .parent
                .as_ref()
                .map_or_else(String::new, |p| p.value.clone()),
            x: x as i8,
            y: y as i8,
            w: w as i8,
            h: h as i8,
            xalign,
            yalign,
            rtype: room_type_value(room.room_type.as_ref()),
            chance: chance.unwrap_or(0) as i8,
            rlit: light(room.lit.value),
            filled: room.filled.map_or(1, |f| i8::from(f.value)),
            doors: records.room_doors,
            stairs: records.stairs,
            altars: records.altars,
            fountains: records.fountains,
            sinks: records.sinks,
            pools: records.pools,
            traps: records.traps,
            things: records.things,
            origin,
        }
    }
}

/// What holds a list of details: each writes its own kinds of record.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Container {
    MapPart,
    Room,
}

/// The records of a container's details, by kind.
#[derive(Default)]
struct DetailRecords {
    lev_regions: Vec<lev::LevRegion>,
    regions: Vec<lev::RegionRec>,
    doors: Vec<lev::DoorRec>,
    room_doors: Vec<lev::RoomDoorRec>,
    drawbridges: Vec<lev::DrawbridgeRec>,
    walks: Vec<lev::WalkRec>,
    non_diggable: Vec<lev::AreaRec>,
    non_passwall: Vec<lev::AreaRec>,
    ladders: Vec<lev::StairRec>,
    stairs: Vec<lev::StairRec>,
    altars: Vec<lev::AltarRec>,
    fountains: Vec<lev::SpotRec>,
    sinks: Vec<lev::SpotRec>,
    pools: Vec<lev::SpotRec>,
    traps: Vec<lev::TrapRec>,
    things: lev::Things,
}

fn terrain_code(c: char) -> i8 {
    terrain_of(c).map_or(-1, |t| t.code() as i8)
}

fn light(light: Light) -> i8 {
    match light {
        Light::Lit => 1,
        Light::Unlit => 0,
        Light::Random => -1,
    }
}

/// The part's map as lev_comp stores it: terrain codes, rows padded with stone, and every
/// WALLIFY of the part applied (lev_comp does it at compile time).
fn map_codes(map: Option<&Map>, details: &[Detail]) -> Vec<Vec<i8>> {
    let Some(map) = map else {
        return vec![vec![Terrain::Stone.code() as i8]];
    };
    let mut grid = map.terrain_grid();
    if details
        .iter()
        .any(|d| matches!(d.kind, DetailKind::Wallify))
    {
        wallify(&mut grid);
    }
    grid.iter()
        .map(|row| row.iter().map(|t| t.code() as i8).collect())
        .collect()
}

fn coordinate(at: &Spanned<Coordinate>) -> lev::Coord {
    match at.value {
        Coordinate::At { x, y } => (x as i8, y as i8),
        Coordinate::Place(i) => ((-i - 1) as i8, (-i - 1) as i8),
        Coordinate::Random => (RANDOM_REGISTER, RANDOM_REGISTER),
    }
}

fn direction_bits(direction: Direction) -> i8 {
    match direction {
        Direction::North => 1,
        Direction::South => 2,
        Direction::East => 4,
        Direction::West => 8,
    }
}

fn area(rect: Rect) -> Area {
    Area {
        x1: rect.x1 as i8,
        y1: rect.y1 as i8,
        x2: rect.x2 as i8,
        y2: rect.y2 as i8,
    }
}

fn area_rec(rect: &Spanned<Rect>, origin: u32) -> lev::AreaRec {
    lev::AreaRec {
        area: area(rect.value),
        origin,
    }
}

fn lev_region(region: &levkit_model::nethack::LevRegion, origin: u32) -> lev::LevRegion {
    let (rtype, name) = match &region.kind {
        LevRegionKind::Stair { up: false } => (0, None),
        LevRegionKind::Stair { up: true } => (1, None),
        LevRegionKind::Portal { destination } => (2, Some(&destination.value)),
        LevRegionKind::Branch => (3, None),
        LevRegionKind::Teleport { up: None } => (4, None),
        LevRegionKind::Teleport { up: Some(true) } => (5, None),
        LevRegionKind::Teleport { up: Some(false) } => (6, None),
    };
    lev::LevRegion {
        inarea: area(region.area.value.rect),
        delarea: area(region.excluded.value.rect),
        in_islev: region.area.value.whole_level,
        del_islev: region.excluded.value.whole_level,
        rtype,
        name: name.cloned().unwrap_or_default(),
        origin,
    }
}

/// Register lists: classes in reverse source order (lev_comp's right-recursive lists).
fn registers(registers: &Registers) -> (Vec<i8>, Vec<i8>) {
    let classes = |lists: &[RegisterList<char>]| -> Vec<i8> {
        lists.first().map_or_else(Vec::new, |l| {
            l.items.iter().rev().map(|c| class_char(c.value)).collect()
        })
    };
    (classes(&registers.objects), classes(&registers.monsters))
}

fn class_char(c: char) -> i8 {
    if c.is_ascii() { c as i8 } else { -1 }
}

fn region(region: &Region, origin: u32) -> lev::RegionRec {
    let mut rtype = room_type_value(region.room_type.as_ref());
    if region.unfilled.is_some_and(|u| u.value) {
        rtype = rtype.wrapping_add(UNFILLED);
    }
    lev::RegionRec {
        area: area(region.rect.value),
        rtype,
        rlit: light(region.lit.value),
        irregular: region.irregular.is_some_and(|i| i.value),
        origin,
    }
}

/// A room type's number: `random` is -1, an unknown name is ordinary (0).
fn room_type_value(name: Option<&Spanned<String>>) -> i8 {
    name.map_or(-1, |n| room_type(&n.value).unwrap_or(0))
}

fn stair(at: &Spanned<Coordinate>, up: bool, origin: u32) -> lev::StairRec {
    lev::StairRec {
        at: coordinate(at),
        up,
        origin,
    }
}

fn spot(at: &Spanned<Coordinate>, origin: u32) -> lev::SpotRec {
    lev::SpotRec {
        at: coordinate(at),
        origin,
    }
}

fn alignment(alignment: Alignment) -> i8 {
    match alignment {
        Alignment::Value(v) => v,
        Alignment::Register(i) => (-i - 1) as i8,
        Alignment::Random => RANDOM_REGISTER,
    }
}

fn class(class: Class) -> i8 {
    match class {
        Class::Char(c) => class_char(c),
        Class::Register(i) => (-i - 1) as i8,
        Class::Random => RANDOM_REGISTER,
    }
}

fn monster(monster: &Monster, origin: u32) -> lev::MonsterRec {
    // lev_comp looks the name up only with a class character.
    let id = match (&monster.name, monster.class.value) {
        (Some(n), Class::Char(c)) => monster_index(&n.value, Some(c)).map_or(-1, |i| i as i16),
        _ => -1,
    };
    lev::MonsterRec {
        name: monster
            .given_name
            .as_ref()
            .map_or_else(String::new, |n| n.value.clone()),
        appear_as: monster
            .appearance
            .as_ref()
            .map_or_else(String::new, |a| a.what.value.clone()),
        id,
        align: monster
            .alignment
            .map_or(NO_ALIGNMENT, |a| alignment(a.value)),
        at: coordinate(&monster.at),
        chance: monster.chance.map_or(100, |c| c.value as i8),
        class: class(monster.class.value),
        appear: match monster.appearance.as_ref().map(|a| a.kind.value) {
            None => 0,
            Some(AppearanceKind::Feature) => 1,
            Some(AppearanceKind::Object) => 2,
            Some(AppearanceKind::Monster) => 3,
        },
        peaceful: monster.peaceful.map_or(-1, |p| i8::from(p.value)),
        asleep: monster.asleep.map_or(-1, |a| i8::from(a.value)),
        origin,
    }
}

fn object(object: &Object, origin: u32) -> lev::ObjectRec {
    let class_char = match object.class.value {
        Class::Char(c) => Some(c),
        _ => None,
    };
    lev::ObjectRec {
        name: object
            .given_name
            .as_ref()
            .and_then(|n| n.value.clone())
            .unwrap_or_default(),
        corpsenm: match &object.monster {
            None => -1,
            Some(m) => monster_index(&m.value, None).map_or(-2, |i| i as i32),
        },
        id: object.name.as_ref().map_or(-1, |n| {
            object_index(&n.value, class_char).map_or(-1, |i| i as i16)
        }),
        spe: object.enchantment.and_then(|e| e.value).unwrap_or(-127) as i16,
        // A contained object has no position: lev_comp stores random.
        at: object
            .at
            .as_ref()
            .map_or((RANDOM_REGISTER, RANDOM_REGISTER), coordinate),
        chance: object.chance.map_or(100, |c| c.value as i8),
        class: class(object.class.value),
        containment: if object.is_container {
            2
        } else if object.at.is_none() {
            1
        } else {
            0
        },
        curse: object.curse.and_then(|c| c.value).unwrap_or(-1),
        origin,
    }
}

fn corridor_end(end: &CorridorEnd) -> lev::CorridorEnd {
    lev::CorridorEnd {
        room: end.room.value as i8,
        wall: direction_bits(end.wall),
        door: end.door.unwrap_or(-1) as i8,
    }
}
