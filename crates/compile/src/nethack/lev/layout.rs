//! The byte layout, written once: every function below walks a record's fields in file
//! order through a [`Pass`], which either reads them from bytes ([`Reader`]) or writes them
//! ([`Writer`]). The passes differ only where a direction must: a count or a length comes from
//! the records when writing and from the bytes when reading, and padding is written as zeros
//! and skipped when read.

use std::ops::RangeInclusive;

use super::records::*;

/// Where decoding stopped and why, with what was decoded before.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    pub offset: usize,
    pub message: String,
    /// The level as far as it was decoded: the whole header, and every record finished
    /// before the problem (a part or room keeps what was read of it). `None` when the
    /// problem is in the header.
    pub partial: Option<Box<SpecialLevel>>,
}

impl DecodeError {
    fn new(offset: usize, message: String) -> Self {
        DecodeError {
            offset,
            message,
            partial: None,
        }
    }
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "at byte {:#x}: {}", self.offset, self.message)
    }
}

impl std::error::Error for DecodeError {}

type Step = Result<(), DecodeError>;

/// Decodes a whole `.lev` file.
pub fn decode(bytes: &[u8]) -> Result<SpecialLevel, DecodeError> {
    let mut reader = Reader { bytes, pos: 0 };
    let mut level = SpecialLevel::default();
    header(&mut reader, &mut level)?;
    let mut result = body(&mut reader, &mut level);
    if result.is_ok() && reader.pos != bytes.len() {
        let left = bytes.len() - reader.pos;
        result = Err(DecodeError::new(
            reader.pos,
            format!("{left} bytes follow the end of the level"),
        ));
    }
    match result {
        Ok(()) => Ok(level),
        Err(error) => Err(DecodeError {
            partial: Some(Box::new(level)),
            ..error
        }),
    }
}

/// Lays a level out as bytes. Every record's `origin` becomes the offset it starts at (what
/// decoding the bytes gives), and the origin it held before is returned beside that offset:
/// the writer keys records by source that way.
pub fn encode(level: &mut SpecialLevel) -> (Vec<u8>, Vec<(u32, u32)>) {
    let mut writer = Writer::default();
    // Writing cannot fail: every step of the writer is `Ok`.
    let _ = header(&mut writer, level).and_then(|()| body(&mut writer, level));
    (writer.bytes, writer.origins)
}

/// Whether a map part stores its map: a part of an INIT_MAP level without a MAP (a single
/// square) does not, as the cave is its map.
pub fn map_is_stored(init_present: bool, xsize: i8, ysize: i8) -> bool {
    !init_present || xsize > 1 || ysize > 1
}

/// One direction of the layout. `what` names the field for error messages.
trait Pass: Sized {
    fn offset(&self) -> usize;
    fn i8(&mut self, value: &mut i8, what: &str) -> Step;
    fn i16(&mut self, value: &mut i16, what: &str) -> Step;
    fn i32(&mut self, value: &mut i32, what: &str) -> Step;
    fn u64(&mut self, value: &mut u64, what: &str) -> Step;
    /// Bytes of no meaning: zeros when writing, skipped when reading.
    fn padding(&mut self, n: usize, what: &str) -> Step;
    /// A record starts here.
    fn origin(&mut self, origin: &mut u32);
    /// The `len` bytes of a string whose length came earlier.
    fn text(&mut self, text: &mut String, len: usize, what: &str) -> Step;
    /// A field whose byte picks a variant.
    fn choice<T>(
        &mut self,
        value: &mut T,
        code: fn(&T) -> i8,
        of_code: fn(i8) -> Option<T>,
        what: &str,
    ) -> Step;
    /// A count byte, then the records.
    fn list<T: Default>(
        &mut self,
        list: &mut Vec<T>,
        what: &str,
        item: impl FnMut(&mut Self, &mut T) -> Step,
    ) -> Step;
    /// A count byte (in `allowed`), then records that hold records: a record is kept by the
    /// reader once its `head` is read, so that what was read of it survives an error.
    fn nested_list<T: Default>(
        &mut self,
        list: &mut Vec<T>,
        what: &str,
        allowed: RangeInclusive<usize>,
        head: impl FnMut(&mut Self, &mut T) -> Step,
        rest: impl FnMut(&mut Self, &mut T) -> Step,
    ) -> Step;
    /// `height` rows of `width` terrain bytes.
    fn rows(&mut self, map: &mut Vec<Vec<i8>>, width: usize, height: usize) -> Step;
    /// A count, the x bytes, then the y bytes.
    fn places(&mut self, places: &mut Vec<Coord>, what: &str) -> Step;
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize, what: &str) -> Result<&[u8], DecodeError> {
        match self.pos.checked_add(n).filter(|&e| e <= self.bytes.len()) {
            Some(end) => {
                let slice = &self.bytes[self.pos..end];
                self.pos = end;
                Ok(slice)
            }
            None => Err(DecodeError::new(
                self.pos,
                format!("the file ends inside {what}"),
            )),
        }
    }

    fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N], DecodeError> {
        let mut array = [0; N];
        array.copy_from_slice(self.take(N, what)?);
        Ok(array)
    }

    /// Counts are signed bytes: a negative one is no record.
    fn count(&mut self, what: &str) -> Result<usize, DecodeError> {
        let [byte] = self.array(what)?;
        Ok(usize::try_from(byte as i8).unwrap_or(0))
    }
}

impl Pass for Reader<'_> {
    fn offset(&self) -> usize {
        self.pos
    }
    fn i8(&mut self, value: &mut i8, what: &str) -> Step {
        *value = i8::from_le_bytes(self.array(what)?);
        Ok(())
    }
    fn i16(&mut self, value: &mut i16, what: &str) -> Step {
        *value = i16::from_le_bytes(self.array(what)?);
        Ok(())
    }
    fn i32(&mut self, value: &mut i32, what: &str) -> Step {
        *value = i32::from_le_bytes(self.array(what)?);
        Ok(())
    }
    fn u64(&mut self, value: &mut u64, what: &str) -> Step {
        *value = u64::from_le_bytes(self.array(what)?);
        Ok(())
    }
    fn padding(&mut self, n: usize, what: &str) -> Step {
        self.take(n, what).map(drop)
    }
    fn origin(&mut self, origin: &mut u32) {
        *origin = self.pos as u32;
    }
    fn text(&mut self, text: &mut String, len: usize, what: &str) -> Step {
        let at = self.pos;
        // Refused rather than replaced: a lossy string would write back other bytes.
        *text = String::from_utf8(self.take(len, what)?.to_vec()).map_err(|e| {
            let bad = at + e.utf8_error().valid_up_to();
            DecodeError::new(bad, format!("{what} is not UTF-8 text"))
        })?;
        Ok(())
    }
    fn choice<T>(
        &mut self,
        value: &mut T,
        _code: fn(&T) -> i8,
        of_code: fn(i8) -> Option<T>,
        what: &str,
    ) -> Step {
        let at = self.pos;
        let [code] = self.array(what)?;
        *value = of_code(code as i8)
            .ok_or_else(|| DecodeError::new(at, format!("unknown {what} {}", code as i8)))?;
        Ok(())
    }
    fn list<T: Default>(
        &mut self,
        list: &mut Vec<T>,
        what: &str,
        mut item: impl FnMut(&mut Self, &mut T) -> Step,
    ) -> Step {
        list.clear();
        for _ in 0..self.count(what)? {
            let mut record = T::default();
            item(self, &mut record)?;
            list.push(record);
        }
        Ok(())
    }
    fn nested_list<T: Default>(
        &mut self,
        list: &mut Vec<T>,
        what: &str,
        allowed: RangeInclusive<usize>,
        mut head: impl FnMut(&mut Self, &mut T) -> Step,
        mut rest: impl FnMut(&mut Self, &mut T) -> Step,
    ) -> Step {
        let at = self.pos;
        let n = self.count(what)?;
        if !allowed.contains(&n) {
            return Err(DecodeError::new(
                at,
                format!(
                    "{n} {what} ({} to {} expected)",
                    allowed.start(),
                    allowed.end()
                ),
            ));
        }
        list.clear();
        for _ in 0..n {
            let mut record = T::default();
            head(self, &mut record)?;
            list.push(record);
            if let Some(record) = list.last_mut() {
                rest(self, record)?;
            }
        }
        Ok(())
    }
    fn rows(&mut self, map: &mut Vec<Vec<i8>>, width: usize, height: usize) -> Step {
        map.clear();
        for _ in 0..height {
            let row = self.take(width, "a map row")?;
            map.push(row.iter().map(|&b| b as i8).collect());
        }
        Ok(())
    }
    fn places(&mut self, places: &mut Vec<Coord>, what: &str) -> Step {
        let n = self.count(what)?;
        let xs = self.take(n, what)?.to_vec();
        let ys = self.take(n, what)?;
        *places = xs
            .iter()
            .zip(ys)
            .map(|(&x, &y)| (x as i8, y as i8))
            .collect();
        Ok(())
    }
}

#[derive(Default)]
struct Writer {
    bytes: Vec<u8>,
    /// Each record's offset, and the origin it carried.
    origins: Vec<(u32, u32)>,
}

impl Writer {
    /// Counts are one byte: lev_comp keeps the low byte of larger ones.
    fn count(&mut self, n: usize) {
        self.bytes.push(n as u8);
    }
}

impl Pass for Writer {
    fn offset(&self) -> usize {
        self.bytes.len()
    }
    fn i8(&mut self, value: &mut i8, _: &str) -> Step {
        self.bytes.extend_from_slice(&value.to_le_bytes());
        Ok(())
    }
    fn i16(&mut self, value: &mut i16, _: &str) -> Step {
        self.bytes.extend_from_slice(&value.to_le_bytes());
        Ok(())
    }
    fn i32(&mut self, value: &mut i32, _: &str) -> Step {
        self.bytes.extend_from_slice(&value.to_le_bytes());
        Ok(())
    }
    fn u64(&mut self, value: &mut u64, _: &str) -> Step {
        self.bytes.extend_from_slice(&value.to_le_bytes());
        Ok(())
    }
    fn padding(&mut self, n: usize, _: &str) -> Step {
        self.bytes.extend(std::iter::repeat_n(0, n));
        Ok(())
    }
    fn origin(&mut self, origin: &mut u32) {
        let at = self.bytes.len() as u32;
        self.origins.push((at, *origin));
        *origin = at;
    }
    fn text(&mut self, text: &mut String, _len: usize, _: &str) -> Step {
        self.bytes.extend_from_slice(text.as_bytes());
        Ok(())
    }
    fn choice<T>(
        &mut self,
        value: &mut T,
        code: fn(&T) -> i8,
        _of_code: fn(i8) -> Option<T>,
        _: &str,
    ) -> Step {
        self.bytes.push(code(value) as u8);
        Ok(())
    }
    fn list<T: Default>(
        &mut self,
        list: &mut Vec<T>,
        _: &str,
        mut item: impl FnMut(&mut Self, &mut T) -> Step,
    ) -> Step {
        self.count(list.len());
        list.iter_mut().try_for_each(|record| item(self, record))
    }
    fn nested_list<T: Default>(
        &mut self,
        list: &mut Vec<T>,
        _: &str,
        _allowed: RangeInclusive<usize>,
        mut head: impl FnMut(&mut Self, &mut T) -> Step,
        mut rest: impl FnMut(&mut Self, &mut T) -> Step,
    ) -> Step {
        self.count(list.len());
        list.iter_mut()
            .try_for_each(|record| head(self, record).and_then(|()| rest(self, record)))
    }
    fn rows(&mut self, map: &mut Vec<Vec<i8>>, _width: usize, _height: usize) -> Step {
        for row in map.iter() {
            self.bytes.extend(row.iter().map(|&b| b as u8));
        }
        Ok(())
    }
    fn places(&mut self, places: &mut Vec<Coord>, _: &str) -> Step {
        self.count(places.len());
        self.bytes.extend(places.iter().map(|&(x, _)| x as u8));
        self.bytes.extend(places.iter().map(|&(_, y)| y as u8));
        Ok(())
    }
}

// The layout itself, in file order.

fn header(p: &mut impl Pass, level: &mut SpecialLevel) -> Step {
    for word in &mut level.version {
        p.u64(word, "the version header")?;
    }
    p.choice(&mut level.body, Body::kind, Body::of_kind, "level kind")?;
    let init = &mut level.init;
    flag(p, &mut init.present, "INIT_MAP")?;
    p.padding(1, "INIT_MAP")?;
    p.i8(&mut init.fg, "INIT_MAP")?;
    p.i8(&mut init.bg, "INIT_MAP")?;
    flag(p, &mut init.smoothed, "INIT_MAP")?;
    flag(p, &mut init.joined, "INIT_MAP")?;
    p.i8(&mut init.lit, "INIT_MAP")?;
    p.i8(&mut init.walled, "INIT_MAP")?;
    p.u64(&mut level.flags, "the flags")?;
    // The message length is unsigned.
    let mut len = level.message.len() as u8 as i8;
    p.i8(&mut len, "the message length")?;
    p.text(&mut level.message, usize::from(len as u8), "the message")
}

fn body(p: &mut impl Pass, level: &mut SpecialLevel) -> Step {
    let init_present = level.init.present;
    match &mut level.body {
        Body::Maze(maze) => {
            p.i8(&mut maze.filling, "the filling")?;
            p.nested_list(&mut maze.parts, "map parts", 1..=9, part_head, |p, part| {
                part_rest(p, part, init_present)
            })
        }
        Body::Rooms(rooms) => {
            p.list(&mut rooms.object_registers, "object registers", byte)?;
            p.list(&mut rooms.monster_registers, "monster registers", byte)?;
            p.nested_list(&mut rooms.rooms, "rooms", 0..=127, room_head, room_rest)?;
            p.list(&mut rooms.corridors, "corridors", corridor)
        }
    }
}

/// A boolean byte: 0 or 1 written, anything but 0 true when read.
fn flag(p: &mut impl Pass, value: &mut bool, what: &str) -> Step {
    let mut byte = i8::from(*value);
    p.i8(&mut byte, what)?;
    *value = byte != 0;
    Ok(())
}

fn byte(p: &mut impl Pass, value: &mut i8) -> Step {
    p.i8(value, "a register")
}

fn coord(p: &mut impl Pass, at: &mut Coord, what: &str) -> Step {
    p.i8(&mut at.0, what)?;
    p.i8(&mut at.1, what)
}

fn area(p: &mut impl Pass, area: &mut Area, what: &str) -> Step {
    for v in [&mut area.x1, &mut area.y1, &mut area.x2, &mut area.y2] {
        p.i8(v, what)?;
    }
    Ok(())
}

/// `Str_or_Len`: the length in the first four of eight bytes; the text follows the record.
fn str_len(p: &mut impl Pass, text: &str, what: &str) -> Result<usize, DecodeError> {
    let at = p.offset();
    let mut len = text.len() as i32;
    p.i32(&mut len, what)?;
    p.padding(4, what)?;
    usize::try_from(len)
        .map_err(|_| DecodeError::new(at, format!("negative length {len} for {what}")))
}

/// A room's name: an int16 length, then the text.
fn room_name(p: &mut impl Pass, name: &mut String, what: &str) -> Step {
    let mut len = name.len() as i16;
    p.i16(&mut len, what)?;
    p.text(name, usize::try_from(len).unwrap_or(0), what)
}

fn part_head(p: &mut impl Pass, part: &mut MazePart) -> Step {
    p.origin(&mut part.origin);
    p.i8(&mut part.halign, "a map part")?;
    p.i8(&mut part.valign, "a map part")?;
    p.i8(&mut part.xsize, "a map part")?;
    p.i8(&mut part.ysize, "a map part")
}

fn part_rest(p: &mut impl Pass, part: &mut MazePart, init_present: bool) -> Step {
    if map_is_stored(init_present, part.xsize, part.ysize) {
        let width = usize::try_from(part.xsize).unwrap_or(0);
        let height = usize::try_from(part.ysize).unwrap_or(0);
        p.rows(&mut part.map, width, height)?;
    }
    p.list(&mut part.lev_regions, "level regions", lev_region)?;
    p.list(&mut part.object_registers, "object registers", byte)?;
    p.places(&mut part.place_registers, "place registers")?;
    p.list(&mut part.monster_registers, "monster registers", byte)?;
    p.list(&mut part.regions, "regions", |p, r| {
        p.origin(&mut r.origin);
        area(p, &mut r.area, "a region")?;
        p.i8(&mut r.rtype, "a region")?;
        p.i8(&mut r.rlit, "a region")?;
        flag(p, &mut r.irregular, "a region")
    })?;
    p.list(&mut part.doors, "doors", |p, d| {
        p.origin(&mut d.origin);
        coord(p, &mut d.at, "a door")?;
        p.i8(&mut d.mask, "a door")
    })?;
    p.list(&mut part.drawbridges, "drawbridges", |p, d| {
        p.origin(&mut d.origin);
        coord(p, &mut d.at, "a drawbridge")?;
        p.i8(&mut d.dir, "a drawbridge")?;
        flag(p, &mut d.open, "a drawbridge")
    })?;
    p.list(&mut part.walks, "mazewalks", |p, w| {
        p.origin(&mut w.origin);
        coord(p, &mut w.at, "a mazewalk")?;
        p.i8(&mut w.dir, "a mazewalk")
    })?;
    p.list(&mut part.non_diggable, "non-diggable areas", area_rec)?;
    p.list(&mut part.non_passwall, "non-passwall areas", area_rec)?;
    p.list(&mut part.ladders, "ladders", stair)?;
    p.list(&mut part.stairs, "stairs", stair)?;
    p.list(&mut part.altars, "altars", altar)?;
    p.list(&mut part.fountains, "fountains", spot)?;
    p.list(&mut part.traps, "traps", trap)?;
    things(p, &mut part.things)
}

fn lev_region(p: &mut impl Pass, r: &mut LevRegion) -> Step {
    p.origin(&mut r.origin);
    area(p, &mut r.inarea, "a level region")?;
    area(p, &mut r.delarea, "a level region")?;
    flag(p, &mut r.in_islev, "a level region")?;
    flag(p, &mut r.del_islev, "a level region")?;
    p.i8(&mut r.rtype, "a level region")?;
    p.padding(5, "a level region")?;
    let len = str_len(p, &r.name, "a level region's name")?;
    p.text(&mut r.name, len, "a level region's name")
}

fn area_rec(p: &mut impl Pass, r: &mut AreaRec) -> Step {
    p.origin(&mut r.origin);
    area(p, &mut r.area, "an area")
}

fn stair(p: &mut impl Pass, s: &mut StairRec) -> Step {
    p.origin(&mut s.origin);
    coord(p, &mut s.at, "a stair")?;
    flag(p, &mut s.up, "a stair")
}

fn altar(p: &mut impl Pass, a: &mut AltarRec) -> Step {
    p.origin(&mut a.origin);
    coord(p, &mut a.at, "an altar")?;
    p.i8(&mut a.align, "an altar")?;
    p.i8(&mut a.shrine, "an altar")
}

fn spot(p: &mut impl Pass, s: &mut SpotRec) -> Step {
    p.origin(&mut s.origin);
    coord(p, &mut s.at, "a position")
}

fn trap(p: &mut impl Pass, t: &mut TrapRec) -> Step {
    p.origin(&mut t.origin);
    coord(p, &mut t.at, "a trap")?;
    p.i8(&mut t.chance, "a trap")?;
    p.i8(&mut t.kind, "a trap")
}

fn things(p: &mut impl Pass, things: &mut Things) -> Step {
    p.list(&mut things.monsters, "monsters", monster)?;
    p.list(&mut things.objects, "objects", object)?;
    p.list(&mut things.gold, "gold", |p, g| {
        p.origin(&mut g.origin);
        coord(p, &mut g.at, "gold")?;
        p.padding(2, "gold")?;
        p.i32(&mut g.amount, "gold")
    })?;
    p.list(&mut things.engravings, "engravings", |p, e| {
        p.origin(&mut e.origin);
        coord(p, &mut e.at, "an engraving")?;
        p.padding(6, "an engraving")?;
        let len = str_len(p, &e.text, "an engraving's text")?;
        p.i8(&mut e.kind, "an engraving")?;
        p.padding(7, "an engraving")?;
        p.text(&mut e.text, len, "an engraving's text")
    })
}

fn monster(p: &mut impl Pass, m: &mut MonsterRec) -> Step {
    p.origin(&mut m.origin);
    let name_len = str_len(p, &m.name, "a monster's name")?;
    let appear_len = str_len(p, &m.appear_as, "a monster's appearance")?;
    p.i16(&mut m.id, "a monster")?;
    p.i8(&mut m.align, "a monster")?;
    coord(p, &mut m.at, "a monster")?;
    for v in [
        &mut m.chance,
        &mut m.class,
        &mut m.appear,
        &mut m.peaceful,
        &mut m.asleep,
    ] {
        p.i8(v, "a monster")?;
    }
    p.padding(6, "a monster")?;
    p.text(&mut m.name, name_len, "a monster's name")?;
    p.text(&mut m.appear_as, appear_len, "a monster's appearance")
}

fn object(p: &mut impl Pass, o: &mut ObjectRec) -> Step {
    p.origin(&mut o.origin);
    let name_len = str_len(p, &o.name, "an object's name")?;
    p.i32(&mut o.corpsenm, "an object")?;
    p.i16(&mut o.id, "an object")?;
    p.i16(&mut o.spe, "an object")?;
    coord(p, &mut o.at, "an object")?;
    for v in [
        &mut o.chance,
        &mut o.class,
        &mut o.containment,
        &mut o.curse,
    ] {
        p.i8(v, "an object")?;
    }
    p.padding(2, "an object")?;
    p.text(&mut o.name, name_len, "an object's name")
}

fn room_head(p: &mut impl Pass, r: &mut RoomRec) -> Step {
    p.origin(&mut r.origin);
    room_name(p, &mut r.name, "a room's name")?;
    room_name(p, &mut r.parent, "a room's parent")?;
    for v in [
        &mut r.x,
        &mut r.y,
        &mut r.w,
        &mut r.h,
        &mut r.xalign,
        &mut r.yalign,
        &mut r.rtype,
        &mut r.chance,
        &mut r.rlit,
        &mut r.filled,
    ] {
        p.i8(v, "a room")?;
    }
    Ok(())
}

fn room_rest(p: &mut impl Pass, r: &mut RoomRec) -> Step {
    p.list(&mut r.doors, "doors", |p, d| {
        p.origin(&mut d.origin);
        for v in [&mut d.wall, &mut d.pos, &mut d.secret, &mut d.mask] {
            p.i8(v, "a door")?;
        }
        Ok(())
    })?;
    p.list(&mut r.stairs, "stairs", stair)?;
    p.list(&mut r.altars, "altars", altar)?;
    p.list(&mut r.fountains, "fountains", spot)?;
    p.list(&mut r.sinks, "sinks", spot)?;
    p.list(&mut r.pools, "pools", spot)?;
    p.list(&mut r.traps, "traps", trap)?;
    things(p, &mut r.things)
}

fn corridor(p: &mut impl Pass, c: &mut CorridorRec) -> Step {
    p.origin(&mut c.origin);
    for end in [&mut c.src, &mut c.dest] {
        p.i8(&mut end.room, "a corridor")?;
        p.i8(&mut end.wall, "a corridor")?;
        p.i8(&mut end.door, "a corridor")?;
    }
    Ok(())
}
