//! Compiled special levels (`.lev`, as lev_comp 3.4.3 writes them on x86_64 Linux) decoded
//! into typed records, in the order the game's loader reads them. Every record keeps the
//! byte offset it starts at (its [`Origin`](crate::level::Origin)).

/// A problem with the file: where decoding stopped and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    pub offset: usize,
    pub message: String,
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "at byte {:#x} of the .lev file: {}",
            self.offset, self.message
        )
    }
}

type Decoded<T> = Result<T, DecodeError>;

/// `lev_init`: INIT_MAP's parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct InitMap {
    pub present: bool,
    pub fg: i8,
    pub bg: i8,
    pub smoothed: bool,
    pub joined: bool,
    pub lit: i8,
    pub walled: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecialLevel {
    pub init: InitMap,
    /// NOTELEPORT 1, HARDFLOOR 2, NOMMAP 4, SHORTSIGHTED 8, ARBOREAL 16.
    pub flags: u64,
    pub message: String,
    pub body: Body,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Body {
    Maze(Maze),
    Rooms(RoomLevel),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Maze {
    /// The fill terrain, or -1 for the game's maze pattern.
    pub filling: i8,
    pub parts: Vec<MazePart>,
}

/// A coordinate as stored: non-negative is map-relative, -1..-10 a place register, -11 random.
pub type Coord = (i8, i8);

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MazePart {
    pub halign: i8,
    pub valign: i8,
    pub xsize: i8,
    pub ysize: i8,
    /// Terrain codes, row by row (`ysize` rows of `xsize`); empty when the part has no map.
    pub map: Vec<Vec<i8>>,
    pub origin: u32,
    pub lev_regions: Vec<LevRegion>,
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
}

/// Monsters, objects, gold and engravings: the tail every part and room shares.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Things {
    pub monsters: Vec<MonsterRec>,
    pub objects: Vec<ObjectRec>,
    pub gold: Vec<GoldRec>,
    pub engravings: Vec<EngravingRec>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Area {
    pub x1: i8,
    pub y1: i8,
    pub x2: i8,
    pub y2: i8,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LevRegion {
    pub inarea: Area,
    pub delarea: Area,
    pub in_islev: bool,
    pub del_islev: bool,
    /// LR_DOWNSTAIR 0, UPSTAIR 1, PORTAL 2, BRANCH 3, TELE 4, UPTELE 5, DOWNTELE 6.
    pub rtype: i8,
    pub name: String,
    pub origin: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RegionRec {
    pub area: Area,
    pub rtype: i8,
    pub rlit: i8,
    pub irregular: bool,
    pub origin: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DoorRec {
    pub at: Coord,
    pub mask: i8,
    pub origin: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawbridgeRec {
    pub at: Coord,
    pub dir: i8,
    pub open: bool,
    pub origin: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WalkRec {
    pub at: Coord,
    pub dir: i8,
    pub origin: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AreaRec {
    pub area: Area,
    pub origin: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StairRec {
    pub at: Coord,
    pub up: bool,
    pub origin: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AltarRec {
    pub at: Coord,
    pub align: i8,
    pub shrine: i8,
    pub origin: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpotRec {
    pub at: Coord,
    pub origin: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrapRec {
    pub at: Coord,
    pub chance: i8,
    pub kind: i8,
    pub origin: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MonsterRec {
    pub name: Option<String>,
    pub appear_as: Option<String>,
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

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectRec {
    pub name: Option<String>,
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GoldRec {
    pub at: Coord,
    pub amount: i32,
    pub origin: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngravingRec {
    pub at: Coord,
    pub text: String,
    pub kind: i8,
    pub origin: u32,
}

/// A LEVEL (rooms) file: registers, rooms in file order, corridors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoomLevel {
    pub object_registers: Vec<i8>,
    pub monster_registers: Vec<i8>,
    pub rooms: Vec<RoomRec>,
    pub corridors: Vec<CorridorRec>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoomRec {
    pub name: String,
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoomDoorRec {
    pub wall: i8,
    pub pos: i8,
    pub secret: i8,
    pub mask: i8,
    pub origin: u32,
}

/// `corridor`: src room/door/wall to dest room/door/wall; a src room of -1 means
/// RANDOM_CORRIDORS.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CorridorRec {
    pub bytes: [i8; 6],
    pub origin: u32,
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize, what: &str) -> Decoded<&[u8]> {
        match self
            .pos
            .checked_add(n)
            .filter(|&end| end <= self.bytes.len())
        {
            Some(end) => {
                let slice = &self.bytes[self.pos..end];
                self.pos = end;
                Ok(slice)
            }
            None => Err(DecodeError {
                offset: self.pos,
                message: format!("the file ends inside {what}"),
            }),
        }
    }
    fn i8(&mut self, what: &str) -> Decoded<i8> {
        Ok(self.take(1, what)?[0] as i8)
    }
    fn count(&mut self, what: &str) -> Decoded<usize> {
        Ok(self.i8(what)?.max(0) as usize)
    }
    fn i16(&mut self, what: &str) -> Decoded<i16> {
        let b = self.take(2, what)?;
        Ok(i16::from_le_bytes([b[0], b[1]]))
    }
    fn i32(&mut self, what: &str) -> Decoded<i32> {
        let b = self.take(4, what)?;
        Ok(i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u64(&mut self, what: &str) -> Decoded<u64> {
        let b = self.take(8, what)?;
        let mut word = [0; 8];
        word.copy_from_slice(b);
        Ok(u64::from_le_bytes(word))
    }
    /// A `Str_or_Len` union: its length.
    fn str_len(&mut self, what: &str) -> Decoded<usize> {
        let at = self.pos;
        let len = self.i32(what)?;
        self.take(4, what)?;
        usize::try_from(len).map_err(|_| DecodeError {
            offset: at,
            message: format!("negative length {len} for {what}"),
        })
    }
    fn text(&mut self, len: usize, what: &str) -> Decoded<String> {
        Ok(String::from_utf8_lossy(self.take(len, what)?).into_owned())
    }
    fn origin(&self) -> u32 {
        self.pos as u32
    }
    fn coord(&mut self, what: &str) -> Decoded<Coord> {
        Ok((self.i8(what)?, self.i8(what)?))
    }
    fn area(&mut self, what: &str) -> Decoded<Area> {
        Ok(Area {
            x1: self.i8(what)?,
            y1: self.i8(what)?,
            x2: self.i8(what)?,
            y2: self.i8(what)?,
        })
    }
    fn list<T>(
        &mut self,
        what: &str,
        mut one: impl FnMut(&mut Self) -> Decoded<T>,
    ) -> Decoded<Vec<T>> {
        let n = self.count(what)?;
        (0..n).map(|_| one(self)).collect()
    }
}

/// Decodes a whole `.lev` file.
pub fn decode(bytes: &[u8]) -> Decoded<SpecialLevel> {
    let mut r = Reader { bytes, pos: 0 };
    r.take(32, "the version header")?;
    let kind = r.i8("the level kind")?;
    let init = r.take(8, "INIT_MAP")?;
    let init = InitMap {
        present: init[0] != 0,
        fg: init[2] as i8,
        bg: init[3] as i8,
        smoothed: init[4] != 0,
        joined: init[5] != 0,
        lit: init[6] as i8,
        walled: init[7] != 0,
    };
    let flags = r.u64("the level flags")?;
    let len = r.take(1, "the message length")?[0] as usize;
    let message = r.text(len, "the message")?;
    let body = match kind {
        1 => Body::Rooms(decode_rooms(&mut r)?),
        2 => Body::Maze(decode_maze(&mut r, init.present)?),
        other => {
            return Err(DecodeError {
                offset: 32,
                message: format!("unknown level kind {other}"),
            });
        }
    };
    if r.pos != bytes.len() {
        return Err(DecodeError {
            offset: r.pos,
            message: format!("{} bytes left over after the level", bytes.len() - r.pos),
        });
    }
    Ok(SpecialLevel {
        init,
        flags,
        message,
        body,
    })
}

fn decode_maze(r: &mut Reader<'_>, init_map: bool) -> Decoded<Maze> {
    let filling = r.i8("the filling")?;
    let at = r.pos;
    let parts = r.i8("the number of parts")?;
    if !(1..=9).contains(&parts) {
        return Err(DecodeError {
            offset: at,
            message: format!("{parts} map parts (1 to 9 expected)"),
        });
    }
    let parts = (0..parts)
        .map(|_| decode_part(r, init_map))
        .collect::<Decoded<_>>()?;
    Ok(Maze { filling, parts })
}

fn decode_part(r: &mut Reader<'_>, init_map: bool) -> Decoded<MazePart> {
    let origin = r.origin();
    let mut part = MazePart {
        halign: r.i8("halign")?,
        valign: r.i8("valign")?,
        xsize: r.i8("xsize")?,
        ysize: r.i8("ysize")?,
        origin,
        ..MazePart::default()
    };
    if !(init_map && part.xsize <= 1 && part.ysize <= 1) {
        for _ in 0..part.ysize.max(0) {
            let row = r.take(part.xsize.max(0) as usize, "a map row")?;
            part.map.push(row.iter().map(|&b| b as i8).collect());
        }
    }
    part.lev_regions = r.list("the level regions", |r| {
        let origin = r.origin();
        let inarea = r.area("a level region")?;
        let delarea = r.area("a level region")?;
        let in_islev = r.i8("a level region")? != 0;
        let del_islev = r.i8("a level region")? != 0;
        let rtype = r.i8("a level region")?;
        r.take(5, "a level region")?;
        let len = r.str_len("a level region's name")?;
        let name = r.text(len, "a level region's name")?;
        Ok(LevRegion {
            inarea,
            delarea,
            in_islev,
            del_islev,
            rtype,
            name,
            origin,
        })
    })?;
    part.object_registers = r.list("object registers", |r| r.i8("an object register"))?;
    let n = r.count("place registers")?;
    let xs = r.take(n, "place registers")?.to_vec();
    let ys = r.take(n, "place registers")?.to_vec();
    part.place_registers = xs
        .iter()
        .zip(&ys)
        .map(|(&x, &y)| (x as i8, y as i8))
        .collect();
    part.monster_registers = r.list("monster registers", |r| r.i8("a monster register"))?;
    part.regions = r.list("regions", |r| {
        let origin = r.origin();
        Ok(RegionRec {
            area: r.area("a region")?,
            rtype: r.i8("a region")?,
            rlit: r.i8("a region")?,
            irregular: r.i8("a region")? != 0,
            origin,
        })
    })?;
    part.doors = r.list("doors", |r| {
        let origin = r.origin();
        Ok(DoorRec {
            at: r.coord("a door")?,
            mask: r.i8("a door")?,
            origin,
        })
    })?;
    part.drawbridges = r.list("drawbridges", |r| {
        let origin = r.origin();
        Ok(DrawbridgeRec {
            at: r.coord("a drawbridge")?,
            dir: r.i8("a drawbridge")?,
            open: r.i8("a drawbridge")? != 0,
            origin,
        })
    })?;
    part.walks = r.list("mazewalks", |r| {
        let origin = r.origin();
        Ok(WalkRec {
            at: r.coord("a mazewalk")?,
            dir: r.i8("a mazewalk")?,
            origin,
        })
    })?;
    part.non_diggable = r.list("non-diggable areas", |r| {
        let origin = r.origin();
        Ok(AreaRec {
            area: r.area("a non-diggable area")?,
            origin,
        })
    })?;
    part.non_passwall = r.list("non-passwall areas", |r| {
        let origin = r.origin();
        Ok(AreaRec {
            area: r.area("a non-passwall area")?,
            origin,
        })
    })?;
    part.ladders = r.list("ladders", stair)?;
    part.stairs = r.list("stairs", stair)?;
    part.altars = r.list("altars", altar)?;
    part.fountains = r.list("fountains", spot)?;
    part.traps = r.list("traps", trap)?;
    part.things = things(r)?;
    Ok(part)
}

fn stair(r: &mut Reader<'_>) -> Decoded<StairRec> {
    let origin = r.origin();
    Ok(StairRec {
        at: r.coord("a stair")?,
        up: r.i8("a stair")? != 0,
        origin,
    })
}

fn altar(r: &mut Reader<'_>) -> Decoded<AltarRec> {
    let origin = r.origin();
    Ok(AltarRec {
        at: r.coord("an altar")?,
        align: r.i8("an altar")?,
        shrine: r.i8("an altar")?,
        origin,
    })
}

fn spot(r: &mut Reader<'_>) -> Decoded<SpotRec> {
    let origin = r.origin();
    Ok(SpotRec {
        at: r.coord("a position")?,
        origin,
    })
}

fn trap(r: &mut Reader<'_>) -> Decoded<TrapRec> {
    let origin = r.origin();
    Ok(TrapRec {
        at: r.coord("a trap")?,
        chance: r.i8("a trap")?,
        kind: r.i8("a trap")?,
        origin,
    })
}

fn things(r: &mut Reader<'_>) -> Decoded<Things> {
    let monsters = r.list("monsters", |r| {
        let origin = r.origin();
        let name_len = r.str_len("a monster's name")?;
        let appear_len = r.str_len("a monster's appearance")?;
        let id = r.i16("a monster")?;
        let b = r.take(14, "a monster")?.to_vec();
        let name = r.text(name_len, "a monster's name")?;
        let appear_as = r.text(appear_len, "a monster's appearance")?;
        Ok(MonsterRec {
            name: (name_len > 0).then_some(name),
            appear_as: (appear_len > 0).then_some(appear_as),
            id,
            align: b[0] as i8,
            at: (b[1] as i8, b[2] as i8),
            chance: b[3] as i8,
            class: b[4] as i8,
            appear: b[5] as i8,
            peaceful: b[6] as i8,
            asleep: b[7] as i8,
            origin,
        })
    })?;
    let objects = r.list("objects", |r| {
        let origin = r.origin();
        let name_len = r.str_len("an object's name")?;
        let corpsenm = r.i32("an object")?;
        let id = r.i16("an object")?;
        let spe = r.i16("an object")?;
        let b = r.take(8, "an object")?.to_vec();
        let name = r.text(name_len, "an object's name")?;
        Ok(ObjectRec {
            name: (name_len > 0).then_some(name),
            corpsenm,
            id,
            spe,
            at: (b[0] as i8, b[1] as i8),
            chance: b[2] as i8,
            class: b[3] as i8,
            containment: b[4] as i8,
            curse: b[5] as i8,
            origin,
        })
    })?;
    let gold = r.list("gold", |r| {
        let origin = r.origin();
        let at = r.coord("gold")?;
        r.take(2, "gold")?;
        Ok(GoldRec {
            at,
            amount: r.i32("gold")?,
            origin,
        })
    })?;
    let engravings = r.list("engravings", |r| {
        let origin = r.origin();
        let at = r.coord("an engraving")?;
        r.take(6, "an engraving")?;
        let len = r.str_len("an engraving's text")?;
        let kind = r.i8("an engraving")?;
        r.take(7, "an engraving")?;
        let text = r.text(len, "an engraving's text")?;
        Ok(EngravingRec {
            at,
            text,
            kind,
            origin,
        })
    })?;
    Ok(Things {
        monsters,
        objects,
        gold,
        engravings,
    })
}

fn decode_rooms(r: &mut Reader<'_>) -> Decoded<RoomLevel> {
    let object_registers = r.list("object registers", |r| r.i8("an object register"))?;
    let monster_registers = r.list("monster registers", |r| r.i8("a monster register"))?;
    let rooms = r.list("rooms", |r| {
        let origin = r.origin();
        let len = r.i16("a room's name")?.max(0) as usize;
        let name = r.text(len, "a room's name")?;
        let len = r.i16("a room's parent")?.max(0) as usize;
        let parent = r.text(len, "a room's parent")?;
        let b = r.take(10, "a room")?.to_vec();
        let v = |i: usize| b[i] as i8;
        Ok(RoomRec {
            name,
            parent,
            x: v(0),
            y: v(1),
            w: v(2),
            h: v(3),
            xalign: v(4),
            yalign: v(5),
            rtype: v(6),
            chance: v(7),
            rlit: v(8),
            filled: v(9),
            doors: r.list("doors", |r| {
                let origin = r.origin();
                Ok(RoomDoorRec {
                    wall: r.i8("a door")?,
                    pos: r.i8("a door")?,
                    secret: r.i8("a door")?,
                    mask: r.i8("a door")?,
                    origin,
                })
            })?,
            stairs: r.list("stairs", stair)?,
            altars: r.list("altars", altar)?,
            fountains: r.list("fountains", spot)?,
            sinks: r.list("sinks", spot)?,
            pools: r.list("pools", spot)?,
            traps: r.list("traps", trap)?,
            things: things(r)?,
            origin,
        })
    })?;
    let corridors = r.list("corridors", |r| {
        let origin = r.origin();
        let b = r.take(6, "a corridor")?;
        let mut bytes = [0i8; 6];
        for (slot, &byte) in bytes.iter_mut().zip(b) {
            *slot = byte as i8;
        }
        Ok(CorridorRec { bytes, origin })
    })?;
    Ok(RoomLevel {
        object_registers,
        monster_registers,
        rooms,
        corridors,
    })
}
