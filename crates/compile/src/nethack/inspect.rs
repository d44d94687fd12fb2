//! `.lev` files back to readable text, one record per line, for people who debug levels and
//! for readable diffs when two compilers disagree.

use std::fmt::Write;

use levkit_model::nethack::tables::{MONSTERS, OBJECTS, ROOM_TYPES, TRAPS};

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

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    out: String,
}

type Read<T> = Result<T, (usize, String)>;

impl Reader<'_> {
    fn take(&mut self, n: usize, what: &str) -> Read<&[u8]> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.bytes.len());
        match end {
            Some(end) => {
                let slice = &self.bytes[self.pos..end];
                self.pos = end;
                Ok(slice)
            }
            None => Err((self.pos, format!("the file ends inside {what}"))),
        }
    }
    fn i8(&mut self, what: &str) -> Read<i64> {
        Ok(i64::from(self.take(1, what)?[0] as i8))
    }
    fn u8(&mut self, what: &str) -> Read<usize> {
        Ok(usize::from(self.take(1, what)?[0]))
    }
    fn i16(&mut self, what: &str) -> Read<i64> {
        let b = self.take(2, what)?;
        Ok(i64::from(i16::from_le_bytes([b[0], b[1]])))
    }
    fn i32(&mut self, what: &str) -> Read<i64> {
        let b = self.take(4, what)?;
        Ok(i64::from(i32::from_le_bytes([b[0], b[1], b[2], b[3]])))
    }
    fn u64(&mut self, what: &str) -> Read<u64> {
        let b = self.take(8, what)?;
        let mut word = [0; 8];
        word.copy_from_slice(b);
        Ok(u64::from_le_bytes(word))
    }
    /// A `Str_or_Len` union: returns the length.
    fn str_len(&mut self, what: &str) -> Read<usize> {
        let len = self.i32(what)?;
        self.take(4, what)?;
        usize::try_from(len)
            .map_err(|_| (self.pos - 8, format!("negative length {len} for {what}")))
    }
    fn text(&mut self, len: usize, what: &str) -> Read<String> {
        Ok(String::from_utf8_lossy(self.take(len, what)?).into_owned())
    }
    fn line(&mut self, indent: usize, text: impl AsRef<str>) {
        let _ = writeln!(self.out, "{}{}", "  ".repeat(indent), text.as_ref());
    }
}

/// Decodes a whole `.lev` file.
pub fn inspect(bytes: &[u8]) -> Result<String, InspectError> {
    let mut r = Reader {
        bytes,
        pos: 0,
        out: String::new(),
    };
    match decode(&mut r) {
        Ok(()) if r.pos == bytes.len() => Ok(r.out),
        Ok(()) => Err(InspectError {
            offset: r.pos,
            message: format!("{} bytes follow the end of the level", bytes.len() - r.pos),
            partial: r.out,
        }),
        Err((offset, message)) => Err(InspectError {
            offset,
            message,
            partial: r.out,
        }),
    }
}

fn decode(r: &mut Reader<'_>) -> Read<()> {
    let version = r.u64("the version")?;
    let features = r.u64("the feature set")?;
    let sanity1 = r.u64("the first checksum")?;
    let sanity2 = r.u64("the second checksum")?;
    r.line(0, format!(
        "version {}.{}.{}.{} features {features:#010x} checksums {sanity1:#010x} {sanity2:#010x}",
        version >> 24,
        (version >> 16) & 0xff,
        (version >> 8) & 0xff,
        version & 0xff
    ));
    let kind = r.i8("the level kind")?;
    let init = r.take(8, "INIT_MAP")?.to_vec();
    let flags = r.u64("the flags")?;
    let message_len = r.u8("the message length")?;
    let message = r.text(message_len, "the message")?;
    r.line(
        0,
        match kind {
            1 => "kind rooms (LEVEL)".to_string(),
            2 => "kind maze (MAZE)".to_string(),
            k => return Err((0x20, format!("unknown level kind {k}"))),
        },
    );
    if init[0] != 0 {
        r.line(
            0,
            format!(
                "init_map fg={} bg={} smoothed={} joined={} lit={} walled={}",
                terrain_name(init[2] as i8),
                terrain_name(init[3] as i8),
                init[4] as i8,
                init[5] as i8,
                init[6] as i8,
                init[7] as i8
            ),
        );
    }
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
    r.line(
        0,
        format!("flags {flags:#x} {}", flag_names.join("|")).trim_end(),
    );
    if !message.is_empty() {
        r.line(0, format!("message {message:?}"));
    }
    if kind == 2 {
        decode_maze(r, init[0] != 0)
    } else {
        decode_rooms(r)
    }
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
fn glyph(code: u8) -> char {
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

fn coord(x: i64, y: i64) -> String {
    match (x, y) {
        (-11, -11) => "random".to_string(),
        (x, y) if (-10..=-1).contains(&x) && x == y => format!("place[{}]", -x - 1),
        _ => format!("({x},{y})"),
    }
}

fn class(c: i64) -> String {
    match c {
        -11 => "random".into(),
        -10..=-1 => format!("register[{}]", -c - 1),
        c => match u8::try_from(c) {
            Ok(b) if b.is_ascii_graphic() || b == b' ' => format!("'{}'", b as char),
            _ => format!("{c}"),
        },
    }
}

fn decode_maze(r: &mut Reader<'_>, init_map: bool) -> Read<()> {
    let filling = r.i8("the filling")?;
    r.line(0, format!("filling {}", terrain_name(filling as i8)));
    let parts = r.i8("the number of parts")?;
    r.line(0, format!("parts {parts}"));
    for part in 0..parts.max(0) {
        let halign = r.i8("halign")?;
        let valign = r.i8("valign")?;
        let xsize = r.i8("xsize")?;
        let ysize = r.i8("ysize")?;
        r.line(
            0,
            format!("part {part}: halign {halign} valign {valign} size {xsize}x{ysize}"),
        );
        if !init_map || xsize > 1 || ysize > 1 {
            for _ in 0..ysize.max(0) {
                let row: String = r
                    .take(xsize.max(0) as usize, "a map row")?
                    .iter()
                    .map(|&b| glyph(b))
                    .collect();
                r.line(1, format!("|{row}|"));
            }
        }
        let n = r.i8("the level region count")?;
        for _ in 0..n.max(0) {
            let rec = r.take(16, "a level region")?.to_vec();
            let name_len = r.str_len("a level region name")?;
            let name = r.text(name_len, "a level region name")?;
            let kind = [
                "down stair",
                "up stair",
                "portal",
                "branch",
                "teleport",
                "teleport up",
                "teleport down",
            ]
            .get(rec[10] as usize)
            .copied()
            .unwrap_or("?");
            let area = |o: usize, lev: u8| {
                format!(
                    "{}({},{},{},{})",
                    if lev != 0 { "levregion" } else { "" },
                    rec[o] as i8,
                    rec[o + 1] as i8,
                    rec[o + 2] as i8,
                    rec[o + 3] as i8
                )
            };
            let mut line = format!(
                "lev_region {kind} in {} not {}",
                area(0, rec[8]),
                area(4, rec[9])
            );
            if !name.is_empty() {
                line.push_str(&format!(" to {name:?}"));
            }
            r.line(1, line);
        }
        decode_registers(r, true)?;
        records(r, "region", 7, |b| {
            let rtype = b[4] as i8;
            let (rtype, unfilled) = if rtype >= 25 {
                (rtype - 25, " unfilled")
            } else {
                (rtype, "")
            };
            format!(
                "({},{},{},{}) type {}{unfilled} lit {} irregular {}",
                b[0] as i8,
                b[1] as i8,
                b[2] as i8,
                b[3] as i8,
                room_type_name(rtype),
                b[5] as i8,
                b[6]
            )
        })?;
        records(r, "door", 3, |b| {
            format!(
                "{} mask {}",
                coord(b[0] as i8 as i64, b[1] as i8 as i64),
                b[2] as i8
            )
        })?;
        records(r, "drawbridge", 4, |b| {
            let dir = ["north", "south", "east", "west"]
                .get(b[2] as usize)
                .copied()
                .unwrap_or("?");
            format!(
                "{} {dir} {}",
                coord(b[0] as i8 as i64, b[1] as i8 as i64),
                if b[3] != 0 { "open" } else { "closed" }
            )
        })?;
        records(r, "mazewalk", 3, |b| {
            format!(
                "{} dir {}",
                coord(b[0] as i8 as i64, b[1] as i8 as i64),
                b[2]
            )
        })?;
        records(r, "non_diggable", 4, |b| {
            format!(
                "({},{},{},{})",
                b[0] as i8, b[1] as i8, b[2] as i8, b[3] as i8
            )
        })?;
        records(r, "non_passwall", 4, |b| {
            format!(
                "({},{},{},{})",
                b[0] as i8, b[1] as i8, b[2] as i8, b[3] as i8
            )
        })?;
        records(r, "ladder", 3, stair)?;
        records(r, "stair", 3, stair)?;
        records(r, "altar", 4, altar)?;
        records(r, "fountain", 2, |b| {
            coord(b[0] as i8 as i64, b[1] as i8 as i64)
        })?;
        records(r, "trap", 4, trap)?;
        decode_things(r)?;
    }
    Ok(())
}

fn stair(b: &[u8]) -> String {
    format!(
        "{} {}",
        coord(b[0] as i8 as i64, b[1] as i8 as i64),
        if b[2] != 0 { "up" } else { "down" }
    )
}

fn altar(b: &[u8]) -> String {
    format!(
        "{} align {} shrine {}",
        coord(b[0] as i8 as i64, b[1] as i8 as i64),
        b[2] as i8,
        b[3] as i8
    )
}

fn trap(b: &[u8]) -> String {
    let kind = b[3] as i8;
    let name = TRAPS
        .iter()
        .find(|(_, v)| *v == kind)
        .map_or("random", |(n, _)| *n);
    format!(
        "{} {}% {name}",
        coord(b[0] as i8 as i64, b[1] as i8 as i64),
        b[2] as i8
    )
}

fn room_type_name(rtype: i8) -> String {
    ROOM_TYPES
        .iter()
        .find(|(_, v)| *v == rtype)
        .map_or_else(|| format!("random({rtype})"), |(n, _)| format!("{n:?}"))
}

/// A count byte, then fixed-size records, one line each.
fn records(
    r: &mut Reader<'_>,
    what: &str,
    size: usize,
    show: impl Fn(&[u8]) -> String,
) -> Read<()> {
    let n = r.i8(what)?;
    for _ in 0..n.max(0) {
        let rec = r.take(size, what)?.to_vec();
        r.line(1, format!("{what} {}", show(&rec)));
    }
    Ok(())
}

fn decode_registers(r: &mut Reader<'_>, with_places: bool) -> Read<()> {
    let n = r.i8("the object registers")?;
    let objects: Vec<String> = r
        .take(n.max(0) as usize, "the object registers")?
        .iter()
        .map(|&c| class(c as i8 as i64))
        .collect();
    if n > 0 {
        r.line(1, format!("object registers {}", objects.join(" ")));
    }
    if with_places {
        let n = r.i8("the place registers")?.max(0) as usize;
        let xs = r.take(n, "the place registers")?.to_vec();
        let ys = r.take(n, "the place registers")?.to_vec();
        if n > 0 {
            let places: Vec<String> = xs
                .iter()
                .zip(&ys)
                .map(|(&x, &y)| coord(x as i8 as i64, y as i8 as i64))
                .collect();
            r.line(1, format!("place registers {}", places.join(" ")));
        }
    }
    let n = r.i8("the monster registers")?;
    let monsters: Vec<String> = r
        .take(n.max(0) as usize, "the monster registers")?
        .iter()
        .map(|&c| class(c as i8 as i64))
        .collect();
    if n > 0 {
        r.line(1, format!("monster registers {}", monsters.join(" ")));
    }
    Ok(())
}

fn decode_things(r: &mut Reader<'_>) -> Read<()> {
    let n = r.i8("the monster count")?;
    for _ in 0..n.max(0) {
        let name_len = r.str_len("a monster name")?;
        let appear_len = r.str_len("a monster appearance")?;
        let id = r.i16("a monster id")?;
        let rest = r.take(14, "a monster")?.to_vec();
        let name = r.text(name_len, "a monster name")?;
        let appear_as = r.text(appear_len, "a monster appearance")?;
        let monster = usize::try_from(id)
            .ok()
            .and_then(|i| MONSTERS.get(i))
            .map_or("random", |m| m.name);
        let mut line = format!(
            "monster {} {monster} (id {id}) at {} {}% align {} peaceful {} asleep {}",
            class(rest[4] as i8 as i64),
            coord(rest[1] as i8 as i64, rest[2] as i8 as i64),
            rest[3] as i8,
            rest[0] as i8,
            rest[6] as i8,
            rest[7] as i8
        );
        if !name.is_empty() {
            line.push_str(&format!(" named {name:?}"));
        }
        if rest[5] != 0 {
            line.push_str(&format!(" appears ({}) as {appear_as:?}", rest[5]));
        }
        r.line(1, line);
    }
    let n = r.i8("the object count")?;
    for _ in 0..n.max(0) {
        let name_len = r.str_len("an object name")?;
        let corpse = r.i32("an object's monster")?;
        let id = r.i16("an object id")?;
        let spe = r.i16("an object enchantment")?;
        let rest = r.take(8, "an object")?.to_vec();
        let name = r.text(name_len, "an object name")?;
        let object = usize::try_from(id)
            .ok()
            .and_then(|i| OBJECTS.get(i))
            .map_or("random", |o| o.name);
        let containment = ["", " contained", " container"]
            .get(rest[4] as usize)
            .copied()
            .unwrap_or(" ?");
        let mut line = format!(
            "object {} {object} (id {id}) at {} {}% spe {spe} curse {} corpse {corpse}{containment}",
            class(rest[3] as i8 as i64),
            coord(rest[0] as i8 as i64, rest[1] as i8 as i64),
            rest[2] as i8,
            rest[5] as i8
        );
        if !name.is_empty() {
            line.push_str(&format!(" named {name:?}"));
        }
        r.line(1, line);
    }
    records(r, "gold", 8, |b| {
        let amount = i32::from_le_bytes([b[4], b[5], b[6], b[7]]);
        format!(
            "{} amount {amount}",
            coord(b[0] as i8 as i64, b[1] as i8 as i64)
        )
    })?;
    let n = r.i8("the engraving count")?;
    for _ in 0..n.max(0) {
        let head = r.take(8, "an engraving")?.to_vec();
        let len = r.str_len("an engraving text")?;
        let tail = r.take(8, "an engraving")?.to_vec();
        let text = r.text(len, "an engraving text")?;
        r.line(
            1,
            format!(
                "engraving {} type {} {text:?}",
                coord(head[0] as i8 as i64, head[1] as i8 as i64),
                tail[0] as i8
            ),
        );
    }
    Ok(())
}

fn decode_rooms(r: &mut Reader<'_>) -> Read<()> {
    decode_registers(r, false)?;
    let rooms = r.i8("the room count")?;
    r.line(0, format!("rooms {rooms}"));
    for index in 0..rooms.max(0) {
        let name_len = r.i16("a room name")?.max(0) as usize;
        let name = r.text(name_len, "a room name")?;
        let parent_len = r.i16("a room parent")?.max(0) as usize;
        let parent = r.text(parent_len, "a room parent")?;
        let b = r.take(10, "a room")?.to_vec();
        let v = |i: usize| b[i] as i8;
        let mut line = format!(
            "room {index}{}{}: pos ({},{}) size ({},{}) align ({},{}) type {} chance {} lit {} filled {}",
            if name.is_empty() {
                String::new()
            } else {
                format!(" {name:?}")
            },
            if parent.is_empty() {
                String::new()
            } else {
                format!(" in {parent:?}")
            },
            v(0),
            v(1),
            v(2),
            v(3),
            v(4),
            v(5),
            room_type_name(v(6)),
            v(7),
            v(8),
            v(9)
        );
        line.truncate(line.trim_end().len());
        r.line(0, line);
        records(r, "door", 4, |b| {
            format!(
                "wall {} pos {} secret {} mask {}",
                b[0] as i8, b[1] as i8, b[2] as i8, b[3] as i8
            )
        })?;
        records(r, "stair", 3, stair)?;
        records(r, "altar", 4, altar)?;
        records(r, "fountain", 2, |b| {
            coord(b[0] as i8 as i64, b[1] as i8 as i64)
        })?;
        records(r, "sink", 2, |b| {
            coord(b[0] as i8 as i64, b[1] as i8 as i64)
        })?;
        records(r, "pool", 2, |b| {
            coord(b[0] as i8 as i64, b[1] as i8 as i64)
        })?;
        records(r, "trap", 4, trap)?;
        decode_things(r)?;
    }
    let corridors = r.i8("the corridor count")?;
    for _ in 0..corridors.max(0) {
        let b = r.take(6, "a corridor")?.to_vec();
        let line = if b[0] as i8 == -1 && b[1..].iter().all(|&x| x == 0) {
            "corridors random".to_string()
        } else {
            format!(
                "corridor ({},{},{}) to ({},{},{})",
                b[0] as i8, b[1] as i8, b[2] as i8, b[3] as i8, b[4] as i8, b[5] as i8
            )
        };
        r.line(0, line);
    }
    Ok(())
}
