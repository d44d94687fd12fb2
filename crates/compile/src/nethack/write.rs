//! The `.lev` writer: lev_comp's structs, field by field, padding included.

use levkit_model::nethack::names::{monster_index, object_index, room_type, trap_type};
use levkit_model::nethack::{
    Alignment, AppearanceKind, Area, Class, Coordinate, CorridorEnd, CorridorTarget, Detail,
    DetailKind, Direction, Fill, LevRegion, LevRegionKind, Level, LevelKind, Light, Map, MapPart,
    Monster, Object, Rect, Region, Registers, Room, Terrain, terrain_of, wallify,
};
use levkit_model::{Spanned, TextRange};

/// The four words that open every file: version 3.4.3.0, the feature set of the default Unix
/// build, and the two checksums of that build's tables and structures.
pub(crate) const VERSION_INFO: [u64; 4] = [0x0304_0300, 0x001e_0cc6, 0x211b_117e, 0xb8d2_4950];

const SP_LEV_ROOMS: u8 = 1;
const SP_LEV_MAZE: u8 = 2;
/// The coordinate, class and alignment value of `random`.
const RANDOM_REGISTER: i8 = -11;
/// A monster's alignment when none is given.
const NO_ALIGNMENT: i8 = -12;
/// `unfilled` adds this to a region's room type.
const UNFILLED: i8 = 25;

#[derive(Default)]
struct Out {
    bytes: Vec<u8>,
    /// Where each record starts in `bytes`, and the source it came from.
    origins: Vec<(u32, TextRange)>,
}

impl Out {
    /// The next bytes are the record written for this source range.
    fn mark(&mut self, range: TextRange) {
        self.origins.push((self.bytes.len() as u32, range));
    }
    fn i8(&mut self, v: i64) {
        // C stores into a signed char: keep the low byte, as lev_comp does.
        self.bytes.push(v as u8);
    }
    fn i16(&mut self, v: i64) {
        self.bytes.extend_from_slice(&(v as i16).to_le_bytes());
    }
    fn i32(&mut self, v: i64) {
        self.bytes.extend_from_slice(&(v as i32).to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    fn zeros(&mut self, n: usize) {
        self.bytes.extend(std::iter::repeat_n(0, n));
    }
    /// The `Str_or_Len` union: the length in the first four of eight bytes.
    fn str_len(&mut self, s: Option<&str>) {
        self.i32(s.map_or(0, |s| s.len() as i64));
        self.zeros(4);
    }
    fn text(&mut self, s: Option<&str>) {
        if let Some(s) = s {
            self.bytes.extend_from_slice(s.as_bytes());
        }
    }
    fn count(&mut self, n: usize) {
        self.i8(n as i64);
    }
}

pub fn compile_level(level: &Level) -> Vec<u8> {
    compile_level_with_origins(level).0
}

/// The `.lev` bytes, and for every record the byte offset it starts at with the source range
/// it was written for (a map part's offset maps to its MAP block): the generator reports
/// such offsets as origins, and this turns them back into source lines.
pub fn compile_level_with_origins(level: &Level) -> (Vec<u8>, Vec<(u32, TextRange)>) {
    let mut out = Out::default();
    for word in VERSION_INFO {
        out.u64(word);
    }
    out.bytes.push(match level.kind {
        LevelKind::Rooms => SP_LEV_ROOMS,
        LevelKind::Maze => SP_LEV_MAZE,
    });
    match &level.init_map {
        Some(init) => {
            out.i8(1);
            out.i8(0);
            out.i8(terrain_code(init.foreground.value));
            out.i8(terrain_code(init.background.value));
            out.i8(i64::from(init.smoothed));
            out.i8(i64::from(init.joined.value));
            out.i8(light(init.lit));
            out.i8(init.walled.map_or(-1, i64::from));
        }
        None => out.zeros(8),
    }
    let flags = level
        .flags
        .iter()
        .fold(0u64, |acc, f| acc | u64::from(f.value.bit()));
    out.u64(flags);
    let message = level
        .messages
        .iter()
        .map(|m| m.value.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    out.count(message.len());
    out.text(Some(&message));
    match level.kind {
        LevelKind::Maze => write_maze(&mut out, level),
        LevelKind::Rooms => write_rooms(&mut out, level),
    }
    (out.bytes, out.origins)
}

fn terrain_code(c: char) -> i64 {
    terrain_of(c).map_or(-1, |t| i64::from(t.code()))
}

fn light(light: Light) -> i64 {
    match light {
        Light::Lit => 1,
        Light::Unlit => 0,
        Light::Random => -1,
    }
}

fn write_maze(out: &mut Out, level: &Level) {
    out.i8(match level.fill.map(|f| f.value) {
        Some(Fill::Char(c)) => terrain_code(c),
        _ => -1,
    });
    out.count(level.parts.len());
    for part in &level.parts {
        write_part(out, part, level.init_map.is_some());
    }
}

fn write_part(out: &mut Out, part: &MapPart, init_map: bool) {
    let (halign, valign) = part
        .geometry
        .map_or((1, 1), |g| (g.value.0.value(), g.value.1.value()));
    out.mark(part.map.as_ref().map_or(part.range, |m| m.range));
    out.i8(halign.into());
    out.i8(valign.into());
    let grid = map_bytes(part.map.as_ref(), &part.details);
    let (width, height) = (grid.first().map_or(0, Vec::len), grid.len());
    out.count(width);
    out.count(height);
    if !init_map || width > 1 || height > 1 {
        for row in &grid {
            out.bytes.extend_from_slice(row);
        }
    }

    let details = |f: fn(&DetailKind) -> bool| part.details.iter().filter(move |d| f(&d.kind));
    let regions: Vec<_> = part
        .details
        .iter()
        .filter_map(|d| match &d.kind {
            DetailKind::LevRegion(r) => Some((d.range, r)),
            _ => None,
        })
        .collect();
    out.count(regions.len());
    for (range, region) in regions {
        out.mark(range);
        write_lev_region(out, region);
    }
    write_registers(out, &part.registers, true);

    let list: Vec<&Detail> = details(|k| matches!(k, DetailKind::Region(_))).collect();
    out.count(list.len());
    for detail in list {
        out.mark(detail.range);
        if let DetailKind::Region(region) = &detail.kind {
            write_region(out, region);
        }
    }
    let list: Vec<&Detail> = details(|k| matches!(k, DetailKind::Door { .. })).collect();
    out.count(list.len());
    for detail in list {
        out.mark(detail.range);
        if let DetailKind::Door { state, at } = &detail.kind {
            coordinate(out, at);
            out.i8(state.value.mask().into());
        }
    }
    let list: Vec<&Detail> = details(|k| matches!(k, DetailKind::Drawbridge { .. })).collect();
    out.count(list.len());
    for detail in list {
        out.mark(detail.range);
        if let DetailKind::Drawbridge {
            at,
            direction,
            state,
        } = &detail.kind
        {
            coordinate(out, at);
            out.i8(match direction.value {
                Direction::North => 0,
                Direction::South => 1,
                Direction::East => 2,
                Direction::West => 3,
            });
            out.i8(i64::from(
                state.value == levkit_model::nethack::DoorState::Open,
            ));
        }
    }
    let list: Vec<&Detail> = details(|k| matches!(k, DetailKind::Mazewalk { .. })).collect();
    out.count(list.len());
    for detail in list {
        out.mark(detail.range);
        if let DetailKind::Mazewalk { at, direction } = &detail.kind {
            coordinate(out, at);
            out.i8(direction_bits(direction.value));
        }
    }
    for wanted in [true, false] {
        let rects: Vec<(TextRange, &Spanned<Rect>)> = part
            .details
            .iter()
            .filter_map(|d| match &d.kind {
                DetailKind::NonDiggable(r) if wanted => Some((d.range, r)),
                DetailKind::NonPasswall(r) if !wanted => Some((d.range, r)),
                _ => None,
            })
            .collect();
        out.count(rects.len());
        for (range, rect) in rects {
            out.mark(range);
            write_rect(out, rect.value);
        }
    }
    write_placed(out, &part.details, |k| match k {
        DetailKind::Ladder { at, up } => Some((at, Some(i64::from(*up)))),
        _ => None,
    });
    write_placed(out, &part.details, |k| match k {
        DetailKind::Stair { at, up } => Some((at, Some(i64::from(*up)))),
        _ => None,
    });
    write_altars(out, &part.details);
    write_placed(out, &part.details, |k| match k {
        DetailKind::Fountain(at) => Some((at, None)),
        _ => None,
    });
    write_traps(out, &part.details);
    write_monsters_objects_gold_engravings(out, &part.details);
}

/// The part's map as lev_comp stores it: terrain codes, rows padded with stone, and every
/// WALLIFY of the part applied (lev_comp does it at compile time).
fn map_bytes(map: Option<&Map>, details: &[Detail]) -> Vec<Vec<u8>> {
    let Some(map) = map else {
        return vec![vec![Terrain::Stone.code()]];
    };
    let mut grid = map.terrain_grid();
    if details
        .iter()
        .any(|d| matches!(d.kind, DetailKind::Wallify))
    {
        wallify(&mut grid);
    }
    grid.iter()
        .map(|row| row.iter().map(|t| t.code()).collect())
        .collect()
}

fn coordinate(out: &mut Out, at: &Spanned<Coordinate>) {
    match at.value {
        Coordinate::At { x, y } => {
            out.i8(x);
            out.i8(y);
        }
        Coordinate::Place(i) => {
            out.i8(-i - 1);
            out.i8(-i - 1);
        }
        Coordinate::Random => {
            out.i8(RANDOM_REGISTER.into());
            out.i8(RANDOM_REGISTER.into());
        }
    }
}

fn direction_bits(direction: Direction) -> i64 {
    match direction {
        Direction::North => 1,
        Direction::South => 2,
        Direction::East => 4,
        Direction::West => 8,
    }
}

fn write_rect(out: &mut Out, rect: Rect) {
    for v in [rect.x1, rect.y1, rect.x2, rect.y2] {
        out.i8(v);
    }
}

fn write_lev_region(out: &mut Out, region: &LevRegion) {
    let Area {
        rect: area,
        whole_level: area_is_level,
    } = region.area.value;
    let Area {
        rect: excluded,
        whole_level: excluded_is_level,
    } = region.excluded.value;
    write_rect(out, area);
    write_rect(out, excluded);
    out.i8(i64::from(area_is_level));
    out.i8(i64::from(excluded_is_level));
    let (rtype, name) = match &region.kind {
        LevRegionKind::Stair { up: false } => (0, None),
        LevRegionKind::Stair { up: true } => (1, None),
        LevRegionKind::Portal { destination } => (2, Some(destination.value.as_str())),
        LevRegionKind::Branch => (3, None),
        LevRegionKind::Teleport { up: None } => (4, None),
        LevRegionKind::Teleport { up: Some(true) } => (5, None),
        LevRegionKind::Teleport { up: Some(false) } => (6, None),
    };
    out.i8(rtype);
    out.zeros(5);
    out.str_len(name);
    out.text(name);
}

/// Register lists: classes in reverse source order (lev_comp's right-recursive lists), places
/// in source order, x bytes then y bytes.
fn write_registers(out: &mut Out, registers: &Registers, with_places: bool) {
    let classes = |lists: &[levkit_model::nethack::RegisterList<char>]| -> Vec<i64> {
        lists.first().map_or_else(Vec::new, |l| {
            l.items.iter().rev().map(|c| class_char(c.value)).collect()
        })
    };
    let objects = classes(&registers.objects);
    out.count(objects.len());
    objects.iter().for_each(|&c| out.i8(c));
    if with_places {
        let places = registers.places.first().map_or(&[][..], |l| &l.items[..]);
        out.count(places.len());
        places.iter().for_each(|p| out.i8(p.value.0));
        places.iter().for_each(|p| out.i8(p.value.1));
    }
    let monsters = classes(&registers.monsters);
    out.count(monsters.len());
    monsters.iter().for_each(|&c| out.i8(c));
}

fn class_char(c: char) -> i64 {
    if c.is_ascii() { c as i64 } else { -1 }
}

fn write_region(out: &mut Out, region: &Region) {
    write_rect(out, region.rect.value);
    let mut rtype = room_type_value(region.room_type.as_ref());
    if region.unfilled.is_some_and(|u| u.value) {
        rtype += i64::from(UNFILLED);
    }
    out.i8(rtype);
    out.i8(light(region.lit.value));
    out.i8(i64::from(region.irregular.is_some_and(|i| i.value)));
}

/// A room type's number: `random` is -1, an unknown name is ordinary (0).
fn room_type_value(name: Option<&Spanned<String>>) -> i64 {
    name.map_or(-1, |n| room_type(&n.value).map_or(0, i64::from))
}

/// Records made of a position and an optional flag byte (ladders, stairs, fountains...).
fn write_placed<'a>(
    out: &mut Out,
    details: &'a [Detail],
    select: impl Fn(&'a DetailKind) -> Option<(&'a Spanned<Coordinate>, Option<i64>)>,
) {
    let list: Vec<_> = details
        .iter()
        .filter_map(|d| select(&d.kind).map(|v| (d.range, v)))
        .collect();
    out.count(list.len());
    for (range, (at, flag)) in list {
        out.mark(range);
        coordinate(out, at);
        if let Some(flag) = flag {
            out.i8(flag);
        }
    }
}

fn alignment(out: &mut Out, alignment: Alignment) {
    out.i8(match alignment {
        Alignment::Value(v) => v.into(),
        Alignment::Register(i) => -i - 1,
        Alignment::Random => RANDOM_REGISTER.into(),
    });
}

fn write_altars(out: &mut Out, details: &[Detail]) {
    let list: Vec<_> = details
        .iter()
        .filter_map(|d| match &d.kind {
            DetailKind::Altar {
                at,
                alignment,
                shrine,
            } => Some((d.range, at, alignment, shrine)),
            _ => None,
        })
        .collect();
    out.count(list.len());
    for (range, at, align, shrine) in list {
        out.mark(range);
        coordinate(out, at);
        alignment(out, align.value);
        out.i8(shrine.map_or(-1, i64::from));
    }
}

fn write_traps(out: &mut Out, details: &[Detail]) {
    let list: Vec<_> = details
        .iter()
        .filter_map(|d| match &d.kind {
            DetailKind::Trap(t) => Some((d.range, t)),
            _ => None,
        })
        .collect();
    out.count(list.len());
    for (range, trap) in list {
        out.mark(range);
        coordinate(out, &trap.at);
        out.i8(trap.chance.map_or(100, |c| c.value));
        out.i8(trap
            .kind
            .as_ref()
            .map_or(-1, |k| trap_type(&k.value).map_or(-1, i64::from)));
    }
}

fn class(out: &mut Out, class: Class) -> Option<char> {
    match class {
        Class::Char(c) => {
            out.i8(class_char(c));
            Some(c)
        }
        Class::Register(i) => {
            out.i8(-i - 1);
            None
        }
        Class::Random => {
            out.i8(RANDOM_REGISTER.into());
            None
        }
    }
}

fn write_monster(out: &mut Out, monster: &Monster) {
    let name = monster.given_name.as_ref().map(|n| n.value.as_str());
    let appear_as = monster.appearance.as_ref().map(|a| a.what.value.as_str());
    out.str_len(name);
    out.str_len(appear_as);
    // lev_comp looks the name up only with a class character.
    let id = match (&monster.name, monster.class.value) {
        (Some(n), Class::Char(c)) => monster_index(&n.value, Some(c)).map_or(-1, i64::from),
        _ => -1,
    };
    out.i16(id);
    match monster.alignment {
        Some(a) => alignment(out, a.value),
        None => out.i8(NO_ALIGNMENT.into()),
    }
    coordinate(out, &monster.at);
    out.i8(monster.chance.map_or(100, |c| c.value));
    class(out, monster.class.value);
    out.i8(match monster.appearance.as_ref().map(|a| a.kind.value) {
        None => 0,
        Some(AppearanceKind::Feature) => 1,
        Some(AppearanceKind::Object) => 2,
        Some(AppearanceKind::Monster) => 3,
    });
    out.i8(monster.peaceful.map_or(-1, |p| i64::from(p.value)));
    out.i8(monster.asleep.map_or(-1, |a| i64::from(a.value)));
    out.zeros(6);
    out.text(name);
    out.text(appear_as);
}

fn write_object(out: &mut Out, object: &Object) {
    let name = object.given_name.as_ref().and_then(|n| n.value.as_deref());
    out.str_len(name);
    out.i32(match &object.monster {
        None => -1,
        Some(m) => monster_index(&m.value, None).map_or(-2, i64::from),
    });
    let class_char = match object.class.value {
        Class::Char(c) => Some(c),
        _ => None,
    };
    out.i16(object.name.as_ref().map_or(-1, |n| {
        object_index(&n.value, class_char).map_or(-1, i64::from)
    }));
    out.i16(object.enchantment.and_then(|e| e.value).unwrap_or(-127));
    match &object.at {
        Some(at) => coordinate(out, at),
        None => {
            out.i8(RANDOM_REGISTER.into());
            out.i8(RANDOM_REGISTER.into());
        }
    }
    out.i8(object.chance.map_or(100, |c| c.value));
    class(out, object.class.value);
    out.i8(if object.is_container {
        2
    } else if object.at.is_none() {
        1
    } else {
        0
    });
    out.i8(object.curse.and_then(|c| c.value).map_or(-1, i64::from));
    out.zeros(2);
    out.text(name);
}

fn write_monsters_objects_gold_engravings(out: &mut Out, details: &[Detail]) {
    let monsters: Vec<_> = details
        .iter()
        .filter_map(|d| match &d.kind {
            DetailKind::Monster(m) => Some((d.range, m)),
            _ => None,
        })
        .collect();
    out.count(monsters.len());
    for (range, m) in monsters {
        out.mark(range);
        write_monster(out, m);
    }
    let objects: Vec<_> = details
        .iter()
        .filter_map(|d| match &d.kind {
            DetailKind::Object(o) => Some((d.range, o)),
            _ => None,
        })
        .collect();
    out.count(objects.len());
    for (range, o) in objects {
        out.mark(range);
        write_object(out, o);
    }
    let golds: Vec<_> = details
        .iter()
        .filter_map(|d| match &d.kind {
            DetailKind::Gold { amount, at } => Some((d.range, amount, at)),
            _ => None,
        })
        .collect();
    out.count(golds.len());
    for (range, amount, at) in golds {
        out.mark(range);
        coordinate(out, at);
        out.zeros(2);
        out.i32(amount.value.unwrap_or(-1));
    }
    let engravings: Vec<_> = details
        .iter()
        .filter_map(|d| match &d.kind {
            DetailKind::Engraving { at, kind, text } => Some((d.range, at, kind, text)),
            _ => None,
        })
        .collect();
    out.count(engravings.len());
    for (range, at, kind, text) in engravings {
        out.mark(range);
        coordinate(out, at);
        out.zeros(6);
        out.str_len(Some(&text.value));
        out.i8(kind.map_or(-1, i64::from));
        out.zeros(7);
        out.text(Some(&text.value));
    }
}

fn write_rooms(out: &mut Out, level: &Level) {
    write_registers(out, &level.registers, false);
    out.count(level.rooms.len());
    for room in &level.rooms {
        write_room(out, room);
    }
    let corridors = &level.corridors;
    if corridors.random.is_some() {
        out.count(1);
        out.bytes.extend_from_slice(&[0xff, 0, 0, 0, 0, 0]);
    } else {
        out.count(corridors.explicit.len());
        for corridor in &corridors.explicit {
            corridor_end(out, &corridor.from);
            match &corridor.to {
                CorridorTarget::Door(end) => corridor_end(out, end),
                CorridorTarget::Number(n) => {
                    out.i8(-1);
                    out.i8(n.value);
                    out.i8(0);
                }
            }
        }
    }
}

fn corridor_end(out: &mut Out, end: &CorridorEnd) {
    out.i8(end.room.value);
    out.i8(direction_bits(end.wall));
    out.i8(end.door.unwrap_or(-1));
}

fn write_room(out: &mut Out, room: &Room) {
    out.mark(room.range);
    let name = room.name().map(|n| n.value.as_str());
    let parent = room.parent.as_ref().map(|p| p.value.as_str());
    for s in [name, parent] {
        out.i16(s.map_or(0, |s| s.len() as i64));
        out.text(s);
    }
    let (x, y) = room.position.value.unwrap_or((-1, -1));
    let (w, h) = room.size.value.unwrap_or((-1, -1));
    let (xalign, yalign) = room
        .alignment
        .value
        .map_or((-1, -1), |(h, v)| (h.value().into(), v.value().into()));
    for v in [x, y, w, h, xalign, yalign] {
        out.i8(v);
    }
    out.i8(room_type_value(room.room_type.as_ref()));
    let chance = room.details.iter().find_map(|d| match &d.kind {
        DetailKind::RoomChance(c) => Some(c.value),
        _ => None,
    });
    out.i8(chance.unwrap_or(0));
    out.i8(light(room.lit.value));
    out.i8(room.filled.map_or(1, |f| i64::from(f.value)));

    let doors: Vec<_> = room
        .details
        .iter()
        .filter_map(|d| match &d.kind {
            DetailKind::RoomDoor(door) => Some((d.range, door)),
            _ => None,
        })
        .collect();
    out.count(doors.len());
    for (range, door) in doors {
        out.mark(range);
        out.i8(door.wall.value.map_or(-1, direction_bits));
        out.i8(door.position.value.unwrap_or(-1));
        out.i8(door.secret.value.map_or(-1, i64::from));
        out.i8(door.state.value.mask().into());
    }
    write_placed(out, &room.details, |k| match k {
        DetailKind::Stair { at, up } => Some((at, Some(i64::from(*up)))),
        _ => None,
    });
    write_altars(out, &room.details);
    for select in [
        (|k: &DetailKind| matches!(k, DetailKind::Fountain(_))) as fn(&DetailKind) -> bool,
        |k| matches!(k, DetailKind::Sink(_)),
        |k| matches!(k, DetailKind::Pool(_)),
    ] {
        write_placed(out, &room.details, |k| match k {
            DetailKind::Fountain(at) | DetailKind::Sink(at) | DetailKind::Pool(at) if select(k) => {
                Some((at, None))
            }
            _ => None,
        });
    }
    write_traps(out, &room.details);
    write_monsters_objects_gold_engravings(out, &room.details);
}
