//! `.lev` files back to readable text, one record per line, for people who debug levels and
//! for readable diffs when two compilers disagree: the decoded records, formatted.

use std::fmt::Write;

use levkit_model::nethack::tables::{MONSTERS, OBJECTS, ROOM_TYPES, TRAPS};

use super::lev::{
    AltarRec, Area, Body, Coord, Maze, RoomLevel, SpecialLevel, SpotRec, StairRec, Things, TrapRec,
    decode,
};

/// Where decoding stopped and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InspectError {
    pub offset: usize,
    pub message: String,
    /// What was decoded before the problem.
    pub partial: String,
}

impl std::fmt::Display for InspectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "at byte {:#x}: {}", self.offset, self.message)
    }
}

/// Decodes a whole `.lev` file to text.
pub fn inspect(bytes: &[u8]) -> Result<String, InspectError> {
    match decode(bytes) {
        Ok(level) => Ok(format_level(&level)),
        Err(error) => Err(InspectError {
            offset: error.offset,
            message: error.message,
            partial: error
                .partial
                .as_deref()
                .map(format_level)
                .unwrap_or_default(),
        }),
    }
}

struct Out(String);

impl Out {
    fn line(&mut self, indent: usize, text: impl AsRef<str>) {
        let _ = writeln!(self.0, "{}{}", "  ".repeat(indent), text.as_ref());
    }

    /// One line per record of a list.
    fn records<T>(&mut self, what: &str, list: &[T], show: impl Fn(&T) -> String) {
        for record in list {
            self.line(1, format!("{what} {}", show(record)));
        }
    }
}

fn format_level(level: &SpecialLevel) -> String {
    let mut out = Out(String::new());
    let [version, features, sanity1, sanity2] = level.version;
    out.line(0, format!(
        "version {}.{}.{}.{} features {features:#010x} checksums {sanity1:#010x} {sanity2:#010x}",
        version >> 24,
        (version >> 16) & 0xff,
        (version >> 8) & 0xff,
        version & 0xff
    ));
    out.line(
        0,
        match level.body {
            Body::Rooms(_) => "kind rooms (LEVEL)",
            Body::Maze(_) => "kind maze (MAZE)",
        },
    );
    let init = &level.init;
    if init.present {
        out.line(
            0,
            format!(
                "init_map fg={} bg={} smoothed={} joined={} lit={} walled={}",
                terrain_name(init.fg),
                terrain_name(init.bg),
                u8::from(init.smoothed),
                u8::from(init.joined),
                init.lit,
                init.walled
            ),
        );
    }
    let flags = level.flags;
    let flag_names: Vec<&str> = [
        "noteleport",
        "hardfloor",
        "nommap",
        "shortsighted",
        "arboreal",
    ]
    .iter()
    .enumerate()
    .filter(|(i, _)| flags & (1 << i) != 0)
    .map(|(_, n)| *n)
    .collect();
    out.line(
        0,
        format!("flags {flags:#x} {}", flag_names.join("|")).trim_end(),
    );
    if !level.message.is_empty() {
        out.line(0, format!("message {:?}", level.message));
    }
    match &level.body {
        Body::Maze(maze) => format_maze(&mut out, maze),
        Body::Rooms(rooms) => format_rooms(&mut out, rooms),
    }
    out.0
}

fn terrain_name(code: i8) -> String {
    const NAMES: [&str; 36] = [
        "STONE",
        "VWALL",
        "HWALL",
        "TLCORNER",
        "TRCORNER",
        "BLCORNER",
        "BRCORNER",
        "CROSSWALL",
        "TUWALL",
        "TDWALL",
        "TLWALL",
        "TRWALL",
        "DBWALL",
        "TREE",
        "SDOOR",
        "SCORR",
        "POOL",
        "MOAT",
        "WATER",
        "DRAWBRIDGE_UP",
        "LAVAPOOL",
        "IRONBARS",
        "DOOR",
        "CORR",
        "ROOM",
        "STAIRS",
        "LADDER",
        "FOUNTAIN",
        "THRONE",
        "SINK",
        "GRAVE",
        "ALTAR",
        "ICE",
        "DRAWBRIDGE_DOWN",
        "AIR",
        "CLOUD",
    ];
    usize::try_from(code)
        .ok()
        .and_then(|i| NAMES.get(i))
        .map_or_else(|| format!("random({code})"), |n| n.to_string())
}

/// The map glyph of a terrain code (corners and T-walls as the plain wall glyphs).
fn glyph(code: i8) -> char {
    match code {
        0 => ' ',
        1 | 3..=6 | 8..=12 => '|',
        2 => '-',
        7 => 'B',
        13 => 'T',
        14 => 'S',
        15 => 'H',
        16 => 'P',
        17 => '}',
        18 => 'W',
        20 => 'L',
        21 => 'F',
        22 => '+',
        23 => '#',
        24 => '.',
        27 => '{',
        28 => '\\',
        29 => 'K',
        32 => 'I',
        34 => 'A',
        35 => 'C',
        _ => '?',
    }
}

fn coord((x, y): Coord) -> String {
    match (x, y) {
        (-11, -11) => "random".to_string(),
        (x, y) if (-10..=-1).contains(&x) && x == y => format!("place[{}]", -x - 1),
        _ => format!("({x},{y})"),
    }
}

fn class(c: i8) -> String {
    match c {
        -11 => "random".into(),
        -10..=-1 => format!("register[{}]", -c - 1),
        c => match u8::try_from(c) {
            Ok(b) if b.is_ascii_graphic() || b == b' ' => format!("'{}'", b as char),
            _ => format!("{c}"),
        },
    }
}

fn area(a: &Area) -> String {
    format!("({},{},{},{})", a.x1, a.y1, a.x2, a.y2)
}

/// The name at a stored index, or `default`.
fn named<'a>(names: &[&'a str], index: i8, default: &'a str) -> &'a str {
    usize::try_from(index)
        .ok()
        .and_then(|i| names.get(i))
        .copied()
        .unwrap_or(default)
}

fn format_maze(out: &mut Out, maze: &Maze) {
    out.line(0, format!("filling {}", terrain_name(maze.filling)));
    out.line(0, format!("parts {}", maze.parts.len()));
    for (index, part) in maze.parts.iter().enumerate() {
        out.line(
            0,
            format!(
                "part {index}: halign {} valign {} size {}x{}",
                part.halign, part.valign, part.xsize, part.ysize
            ),
        );
        for row in &part.map {
            let row: String = row.iter().map(|&b| glyph(b)).collect();
            out.line(1, format!("|{row}|"));
        }
        for region in &part.lev_regions {
            let kind = named(
                &[
                    "down stair",
                    "up stair",
                    "portal",
                    "branch",
                    "teleport",
                    "teleport up",
                    "teleport down",
                ],
                region.rtype,
                "?",
            );
            let levregion = |a: &Area, is_level: bool| {
                format!("{}{}", if is_level { "levregion" } else { "" }, area(a))
            };
            let mut line = format!(
                "lev_region {kind} in {} not {}",
                levregion(&region.inarea, region.in_islev),
                levregion(&region.delarea, region.del_islev)
            );
            if !region.name.is_empty() {
                line.push_str(&format!(" to {:?}", region.name));
            }
            out.line(1, line);
        }
        format_registers(
            out,
            &part.object_registers,
            Some(&part.place_registers),
            &part.monster_registers,
        );
        out.records("region", &part.regions, |r| {
            let (rtype, unfilled) = if r.rtype >= 25 {
                (r.rtype - 25, " unfilled")
            } else {
                (r.rtype, "")
            };
            format!(
                "{} type {}{unfilled} lit {} irregular {}",
                area(&r.area),
                room_type_name(rtype),
                r.rlit,
                u8::from(r.irregular)
            )
        });
        out.records("door", &part.doors, |d| {
            format!("{} mask {}", coord(d.at), d.mask)
        });
        out.records("drawbridge", &part.drawbridges, |d| {
            let dir = named(&["north", "south", "east", "west"], d.dir, "?");
            let state = if d.open { "open" } else { "closed" };
            format!("{} {dir} {state}", coord(d.at))
        });
        out.records("mazewalk", &part.walks, |w| {
            format!("{} dir {}", coord(w.at), w.dir as u8)
        });
        out.records("non_diggable", &part.non_diggable, |a| area(&a.area));
        out.records("non_passwall", &part.non_passwall, |a| area(&a.area));
        out.records("ladder", &part.ladders, stair);
        out.records("stair", &part.stairs, stair);
        out.records("altar", &part.altars, altar);
        out.records("fountain", &part.fountains, spot);
        out.records("trap", &part.traps, trap);
        format_things(out, &part.things);
    }
}

fn stair(s: &StairRec) -> String {
    format!("{} {}", coord(s.at), if s.up { "up" } else { "down" })
}

fn altar(a: &AltarRec) -> String {
    format!("{} align {} shrine {}", coord(a.at), a.align, a.shrine)
}

fn spot(s: &SpotRec) -> String {
    coord(s.at)
}

fn trap(t: &TrapRec) -> String {
    let name = TRAPS
        .iter()
        .find(|(_, v)| *v == t.kind)
        .map_or("random", |(n, _)| *n);
    format!("{} {}% {name}", coord(t.at), t.chance)
}

fn room_type_name(rtype: i8) -> String {
    ROOM_TYPES
        .iter()
        .find(|(_, v)| *v == rtype)
        .map_or_else(|| format!("random({rtype})"), |(n, _)| format!("{n:?}"))
}

fn format_registers(out: &mut Out, objects: &[i8], places: Option<&[Coord]>, monsters: &[i8]) {
    let classes = |list: &[i8]| list.iter().map(|&c| class(c)).collect::<Vec<_>>().join(" ");
    if !objects.is_empty() {
        out.line(1, format!("object registers {}", classes(objects)));
    }
    if let Some(places) = places.filter(|p| !p.is_empty()) {
        let places: Vec<String> = places.iter().map(|&p| coord(p)).collect();
        out.line(1, format!("place registers {}", places.join(" ")));
    }
    if !monsters.is_empty() {
        out.line(1, format!("monster registers {}", classes(monsters)));
    }
}

fn format_things(out: &mut Out, things: &Things) {
    for m in &things.monsters {
        let monster = usize::try_from(m.id)
            .ok()
            .and_then(|i| MONSTERS.get(i))
            .map_or("random", |m| m.name.as_str());
        let mut line = format!(
            "monster {} {monster} (id {}) at {} {}% align {} peaceful {} asleep {}",
            class(m.class),
            m.id,
            coord(m.at),
            m.chance,
            m.align,
            m.peaceful,
            m.asleep
        );
        if !m.name.is_empty() {
            line.push_str(&format!(" named {:?}", m.name));
        }
        if m.appear != 0 {
            line.push_str(&format!(
                " appears ({}) as {:?}",
                m.appear as u8, m.appear_as
            ));
        }
        out.line(1, line);
    }
    for o in &things.objects {
        let object = usize::try_from(o.id)
            .ok()
            .and_then(|i| OBJECTS.get(i))
            .map_or("random", |o| o.name.as_str());
        let containment = named(&["", " contained", " container"], o.containment, " ?");
        let mut line = format!(
            "object {} {object} (id {}) at {} {}% spe {} curse {} corpse {}{containment}",
            class(o.class),
            o.id,
            coord(o.at),
            o.chance,
            o.spe,
            o.curse,
            o.corpsenm
        );
        if !o.name.is_empty() {
            line.push_str(&format!(" named {:?}", o.name));
        }
        out.line(1, line);
    }
    out.records("gold", &things.gold, |g| {
        format!("{} amount {}", coord(g.at), g.amount)
    });
    out.records("engraving", &things.engravings, |e| {
        format!("{} type {} {:?}", coord(e.at), e.kind, e.text)
    });
}

fn format_rooms(out: &mut Out, level: &RoomLevel) {
    format_registers(out, &level.object_registers, None, &level.monster_registers);
    out.line(0, format!("rooms {}", level.rooms.len()));
    for (index, r) in level.rooms.iter().enumerate() {
        let name = if r.name.is_empty() {
            String::new()
        } else {
            format!(" {:?}", r.name)
        };
        let parent = if r.parent.is_empty() {
            String::new()
        } else {
            format!(" in {:?}", r.parent)
        };
        out.line(
            0,
            format!(
                "room {index}{name}{parent}: pos ({},{}) size ({},{}) align ({},{}) type {} chance {} lit {} filled {}",
                r.x,
                r.y,
                r.w,
                r.h,
                r.xalign,
                r.yalign,
                room_type_name(r.rtype),
                r.chance,
                r.rlit,
                r.filled
            ),
        );
        out.records("door", &r.doors, |d| {
            format!(
                "wall {} pos {} secret {} mask {}",
                d.wall, d.pos, d.secret, d.mask
            )
        });
        out.records("stair", &r.stairs, stair);
        out.records("altar", &r.altars, altar);
        out.records("fountain", &r.fountains, spot);
        out.records("sink", &r.sinks, spot);
        out.records("pool", &r.pools, spot);
        out.records("trap", &r.traps, trap);
        format_things(out, &r.things);
    }
    for c in &level.corridors {
        let (s, d) = (c.src, c.dest);
        let line = if s.room == -1 && [s.wall, s.door, d.room, d.wall, d.door] == [0; 5] {
            "corridors random".to_string()
        } else {
            format!(
                "corridor ({},{},{}) to ({},{},{})",
                s.room, s.wall, s.door, d.room, d.wall, d.door
            )
        };
        out.line(0, line);
    }
}
