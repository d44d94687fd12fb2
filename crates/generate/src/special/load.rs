//! The MAZE loader (`sp_lev.c` load_maze, `mkmaze.c` fixup_special and wallification),
//! drawing the game's random numbers in the game's order.

use levkit_compile::nethack::lev::{
    AltarRec, Area, Body, Coord, CorridorRec, GoldRec, LevRegion, Maze, MazePart, MonsterRec,
    ObjectRec, RoomDoorRec, RoomLevel, RoomRec, SpecialLevel, Things, TrapRec,
};

use super::things::{Humidity, monster_humidity};
use crate::level::{
    COLNO, Event, Level, Origin, Place, Pos, ROWNO, Room, Stair, TeleportRegion, Terrain, What,
    door, drawbridge, room_type, wall,
};
use crate::mklev::Builder;
use crate::rng::Rng;

/// `x_maze_max`, `y_maze_max`: the largest odd-grid coordinates of a maze.
pub(crate) const X_MAZE_MAX: i32 = (COLNO as i32 - 1) & !1;
pub(crate) const Y_MAZE_MAX: i32 = (ROWNO as i32 - 1) & !1;

/// What loading gave: the level, and the parts of the game's work that levkit does not do
/// yet (the level is then only an approximation of the game's).
pub struct Loaded {
    pub level: Level,
    pub unsupported: Vec<&'static str>,
}

/// Loads a special level for a seed's draws: `load_special` then `fixup_special`.
pub fn load_special(sp: &SpecialLevel, name: &str, rng: &mut Rng, place: &Place) -> Loaded {
    let mut loader = Loader::new(rng, place.clone(), name);
    loader.load_common(sp);
    match &sp.body {
        Body::Maze(maze) => loader.load_maze(sp, maze),
        Body::Rooms(rooms) => loader.load_rooms(rooms),
    }
    loader.fixup_special();
    Loaded {
        level: loader.b.level,
        unsupported: loader.unsupported,
    }
}

pub(crate) struct Loader<'r> {
    pub(crate) b: Builder<'r>,
    name: String,
    pub(crate) unsupported: Vec<&'static str>,
    xstart: i32,
    ystart: i32,
    xsize: i32,
    ysize: i32,
    /// `Map[x][y]`: squares covered by a map part.
    mapped: Box<[[bool; ROWNO]; COLNO]>,
    robjects: Vec<i8>,
    rloc: Vec<Coord>,
    rmonst: Vec<i8>,
    /// The three alignments in the order a level's `ralign` shuffle left them (amask values).
    ralign: [i32; 3],
    walks: Vec<(i32, i32, i8, Origin)>,
    /// Level regions in the order `fixup_special` visits them.
    lregions: Vec<LevRegion>,
    /// Specific objects by square, to answer "is there a boulder here?".
    pub(crate) objects_at: Vec<(Pos, i16)>,
    engravings: Vec<Pos>,
    made_branch: bool,
    pub(crate) init_present: bool,
    init_joined: bool,
}

impl<'r> Loader<'r> {
    fn new(rng: &'r mut Rng, place: Place, name: &str) -> Loader<'r> {
        Loader {
            b: Builder::new(rng, place),
            name: name.to_string(),
            unsupported: Vec::new(),
            xstart: 1,
            ystart: 0,
            xsize: COLNO as i32 - 1,
            ysize: ROWNO as i32,
            mapped: Box::new([[false; ROWNO]; COLNO]),
            robjects: Vec::new(),
            rloc: Vec::new(),
            rmonst: Vec::new(),
            ralign: [1, 2, 4],
            walks: Vec::new(),
            lregions: Vec::new(),
            objects_at: Vec::new(),
            engravings: Vec::new(),
            made_branch: false,
            init_present: false,
            init_joined: false,
        }
    }

    /// Remembers a part of the game's work that levkit does not reproduce (once).
    pub(crate) fn note_unsupported(&mut self, what: &'static str) {
        if !self.unsupported.contains(&what) {
            self.unsupported.push(what);
        }
    }

    fn rng(&mut self) -> &mut Rng {
        self.b.rng
    }

    fn level(&mut self) -> &mut Level {
        &mut self.b.level
    }

    /// `load_common_data`: the alignment shuffle, INIT_MAP and the level flags.
    fn load_common(&mut self, sp: &SpecialLevel) {
        let i = self.rng().rn2(3) as usize;
        self.ralign.swap(2, i);
        if self.rng().rn2(2) != 0 {
            self.ralign.swap(1, 0);
        }
        self.b.level.flags.is_maze_lev = matches!(sp.body, Body::Maze(_));
        if sp.init.present {
            self.init_present = true;
            let lit = if sp.init.lit < 0 {
                self.rng().rn2(2) != 0
            } else {
                sp.init.lit != 0
            };
            let terrain = |code: i8| Terrain::from_code(i32::from(code)).unwrap_or(Terrain::Stone);
            let init = crate::mkmap::InitMap {
                fg: terrain(sp.init.fg),
                bg: terrain(sp.init.bg),
                smoothed: sp.init.smoothed,
                joined: sp.init.joined,
                lit,
                walled: sp.init.walled != 0,
            };
            self.init_joined = sp.init.joined;
            crate::mkmap::mkmap(&mut self.b, &init);
        }
        let flags = &mut self.b.level.flags;
        flags.noteleport = sp.flags & 1 != 0;
        flags.hardfloor = sp.flags & 2 != 0;
        flags.nommap = sp.flags & 4 != 0;
        flags.shortsighted = sp.flags & 8 != 0;
        flags.arboreal = sp.flags & 16 != 0;
    }

    fn load_maze(&mut self, sp: &SpecialLevel, maze: &Maze) {
        if !sp.init.present {
            for x in 2..=X_MAZE_MAX {
                for y in 0..=Y_MAZE_MAX {
                    let typ = if maze.filling == -1 {
                        if y < 2 || (x % 2 != 0 && y % 2 != 0) {
                            Terrain::Stone
                        } else {
                            Terrain::HWall
                        }
                    } else {
                        Terrain::from_code(i32::from(maze.filling)).unwrap_or(Terrain::Stone)
                    };
                    self.level().set_typ(x, y, typ, None);
                }
            }
        }
        for part in &maze.parts {
            self.load_part(part);
        }
        self.run_mazewalks();
        wallification(&mut self.b.level, 1, 0, COLNO as i32 - 1, ROWNO as i32 - 1);
        self.junk_fill();
    }

    /// Where a part goes (GEOMETRY), then its map.
    fn place_part(&mut self, part: &MazePart) {
        let (xsize, ysize) = (i32::from(part.xsize), i32::from(part.ysize));
        self.xsize = xsize;
        self.ysize = ysize;
        self.xstart = match part.halign {
            1 => 3,
            2 => 2 + (X_MAZE_MAX - 2 - xsize) / 4,
            3 => 2 + (X_MAZE_MAX - 2 - xsize) / 2,
            4 => 2 + (X_MAZE_MAX - 2 - xsize) * 3 / 4,
            5 => X_MAZE_MAX - xsize - 1,
            _ => self.xstart,
        };
        self.ystart = match part.valign {
            1 => 3,
            3 => 2 + (Y_MAZE_MAX - 2 - ysize) / 2,
            5 => Y_MAZE_MAX - ysize - 1,
            _ => self.ystart,
        };
        if self.xstart % 2 == 0 {
            self.xstart += 1;
        }
        if self.ystart % 2 == 0 {
            self.ystart += 1;
        }
        if self.ystart < 0 || self.ystart + ysize > ROWNO as i32 {
            self.ystart += if self.ystart > 0 { -2 } else { 2 };
            if ysize == ROWNO as i32 {
                self.ystart = 0;
            }
            self.ystart = self.ystart.clamp(0, (ROWNO as i32 - ysize).max(0));
        }
        if self.init_present && xsize <= 1 && ysize <= 1 {
            self.xstart = 1;
            self.ystart = 0;
            self.xsize = COLNO as i32 - 1;
            self.ysize = ROWNO as i32;
            return;
        }
        let origin = Some(part.origin);
        self.b.level.maps.push(crate::level::PlacedMap {
            origin: part.origin,
            at: Pos {
                x: self.xstart,
                y: self.ystart,
            },
        });
        for (dy, row) in part.map.iter().enumerate() {
            for (dx, &code) in row.iter().enumerate() {
                let (x, y) = (self.xstart + dx as i32, self.ystart + dy as i32);
                if !Level::isok(x, y) {
                    continue;
                }
                let typ = Terrain::from_code(i32::from(code)).unwrap_or(Terrain::Stone);
                let left_is_wall = x != self.xstart && {
                    let left = self.b.level.at(x - 1, y);
                    left.typ.is_wall() || left.horizontal
                };
                let cell = self.level().at_mut(x, y);
                cell.typ = typ;
                cell.origin = origin;
                cell.lit = false;
                cell.flags = 0;
                cell.horizontal = false;
                cell.roomno = 0;
                cell.edge = false;
                match typ {
                    Terrain::SDoor | Terrain::Door => {
                        if typ == Terrain::SDoor {
                            cell.flags = door::CLOSED;
                        }
                        cell.horizontal = left_is_wall;
                    }
                    Terrain::HWall | Terrain::IronBars => cell.horizontal = true,
                    Terrain::LavaPool => cell.lit = true,
                    _ => {}
                }
                self.mapped[x as usize][y as usize] = true;
            }
        }
        if self.init_present && self.init_joined {
            let (xs, ys) = (self.xstart, self.ystart);
            crate::mkmap::remove_rooms(&mut self.b.level, xs, ys, xs + xsize, ys + ysize);
        }
    }

    fn load_part(&mut self, part: &MazePart) {
        self.place_part(part);
        let has_bounds = part
            .map
            .iter()
            .flatten()
            .any(|&c| c == Terrain::CrossWall as i8);
        // Level regions: each part's go in front of the earlier ones, in reverse.
        let mut regions = Vec::new();
        for lr in &part.lev_regions {
            let mut lr = lr.clone();
            if !lr.in_islev {
                lr.inarea = self.area(lr.inarea, Humidity::DRY_WET);
            }
            if !lr.del_islev {
                lr.delarea = self.area(lr.delarea, Humidity::DRY_WET);
            }
            regions.push(lr);
        }
        regions.reverse();
        regions.append(&mut self.lregions);
        self.lregions = regions;

        if !part.object_registers.is_empty() {
            self.robjects = part.object_registers.clone();
            shuffle(self.b.rng, &mut self.robjects, None);
        }
        if !part.place_registers.is_empty() {
            let mut xs: Vec<i8> = part.place_registers.iter().map(|p| p.0).collect();
            let mut ys: Vec<i8> = part.place_registers.iter().map(|p| p.1).collect();
            shuffle(self.b.rng, &mut xs, Some(&mut ys));
            self.rloc = xs.into_iter().zip(ys).collect();
        }
        if !part.monster_registers.is_empty() {
            self.rmonst = part.monster_registers.clone();
            shuffle(self.b.rng, &mut self.rmonst, None);
        }

        let mut mustfill = Vec::new();
        for region in &part.regions {
            let (mut rtype, mut prefilled) = (i32::from(region.rtype), false);
            if rtype > 24 {
                rtype -= 25;
                prefilled = true;
            }
            let lit = if region.rlit < 0 {
                self.b.random_lit()
            } else {
                region.rlit != 0
            };
            let area = self.area(region.area, Humidity::DRY_WET);
            let not_needed = rtype == room_type::OROOM && !region.irregular && !prefilled;
            if not_needed || self.b.level.rooms.len() >= crate::mklev::MAX_ROOMS {
                self.light_region(area, lit);
                continue;
            }
            if rtype != room_type::OROOM {
                mustfill.push((self.b.level.rooms.len(), prefilled));
            }
            let (x1, y1, x2, y2) = (
                i32::from(area.x1),
                i32::from(area.y1),
                i32::from(area.x2),
                i32::from(area.y2),
            );
            if region.irregular {
                let rmno = self.b.level.rooms.len() as u8 + crate::level::ROOMOFFSET;
                let f = crate::mkmap::flood_fill_rm(&mut self.b.level, x1, y1, rmno, lit, true);
                if f.gave_up {
                    self.note_unsupported(
                        "an irregular region whose flood fill never ends (the game would hang)",
                    );
                }
                self.b
                    .add_room(f.min_x, f.min_y, f.max_x, f.max_y, false, rtype, true);
                let room = self.b.level.rooms.last_mut().unwrap();
                room.rlit = lit;
                room.irregular = true;
                room.origin = Some(region.origin);
            } else {
                self.b.add_room(x1, y1, x2, y2, lit, rtype, true);
                let index = self.b.level.rooms.len() - 1;
                self.b.level.rooms[index].origin = Some(region.origin);
                self.topologize(index);
            }
        }

        for d in &part.doors {
            let mask = if d.mask == -1 {
                let i = 1u8 << self.rng().rn2(5);
                i >> 1
            } else {
                d.mask as u8
            };
            let p = self.location(d.at, Humidity::DRY);
            let mut mask = mask;
            let cell = self.level().at_mut(p.x, p.y);
            if cell.typ != Terrain::SDoor {
                cell.typ = Terrain::Door;
            } else if mask < door::CLOSED {
                mask = door::CLOSED;
            }
            cell.flags = mask;
            cell.origin = Some(d.origin);
            // List the door with every room whose box (grown by one) holds it.
            let mut room = 0;
            while room < self.b.level.rooms.len()
                && self.b.level.doors.len() < crate::mklev::MAX_DOORS
            {
                let r = &self.b.level.rooms[room];
                if r.hx >= p.x - 1 && r.lx <= p.x + 1 && r.hy >= p.y - 1 && r.ly <= p.y + 1 {
                    self.b.add_door(p.x, p.y, room);
                }
                room += 1;
            }
        }

        for (room, prefilled) in mustfill {
            self.fill_room(room, prefilled);
        }

        if has_bounds {
            for x in self.xstart..self.xstart + self.xsize {
                for y in self.ystart..self.ystart + self.ysize {
                    if Level::isok(x, y) && self.b.level.typ(x, y) == Terrain::CrossWall {
                        self.level().at_mut(x, y).typ = Terrain::Room;
                    }
                }
            }
        }

        for db in &part.drawbridges {
            let p = self.location(db.at, Humidity::DRY_WET);
            create_drawbridge(
                &mut self.b.level,
                p.x,
                p.y,
                db.dir,
                db.open,
                Some(db.origin),
            );
        }
        for w in &part.walks {
            let p = self.location(w.at, Humidity::DRY_WET);
            self.walks.push((p.x, p.y, w.dir, Some(w.origin)));
        }
        for (list, bit) in [
            (&part.non_diggable, wall::NONDIGGABLE),
            (&part.non_passwall, wall::NONPASSWALL),
        ] {
            for d in list {
                let a = self.area(d.area, Humidity::DRY_WET);
                for y in i32::from(a.y1)..=i32::from(a.y2) {
                    for x in i32::from(a.x1)..=i32::from(a.x2) {
                        if Level::isok(x, y) && self.b.level.typ(x, y).is_stone_or_wall() {
                            self.level().at_mut(x, y).flags |= bit;
                        }
                    }
                }
            }
        }
        for l in &part.ladders {
            let p = self.location(l.at, Humidity::DRY);
            self.level()
                .set_typ(p.x, p.y, Terrain::Ladder, Some(l.origin));
            let ladder = Stair {
                at: p,
                up: l.up,
                origin: Some(l.origin),
            };
            if l.up {
                self.level().upladder = Some(ladder);
            } else {
                self.level().dnladder = Some(ladder);
            }
        }
        let mut prev: Option<Pos> = None;
        for s in &part.stairs {
            let mut tries = 0;
            let p = loop {
                let p = self.location(s.at, Humidity::DRY);
                let near = prev.is_some_and(|q| (p.x - q.x).abs().max((p.y - q.y).abs()) <= 8);
                let again = prev.is_some()
                    && {
                        let t = tries;
                        tries += 1;
                        t < 100
                    }
                    && near;
                if !again {
                    break p;
                }
            };
            self.delete_trap(p);
            self.mkstairs(p, s.up, Some(s.origin));
            prev = Some(p);
        }
        for a in &part.altars {
            self.create_altar(a, None);
        }
        for f in &part.fountains {
            let p = self.location(f.at, Humidity::DRY);
            let typ = self.b.level.typ(p.x, p.y);
            if !(typ.is_furniture() && typ != Terrain::Fountain) {
                self.level()
                    .set_typ(p.x, p.y, Terrain::Fountain, Some(f.origin));
            }
        }
        for t in &part.traps {
            self.create_trap(t, None);
        }
        self.create_things(&part.things, None);
    }

    fn create_things(&mut self, things: &Things, room: Option<RoomRef>) {
        // A room's lists are read back to front, except its objects.
        let monsters: Vec<_> = match room {
            Some(_) => things.monsters.iter().rev().collect(),
            None => things.monsters.iter().collect(),
        };
        for m in monsters {
            self.create_monster(m, room);
        }
        let mut container = false;
        for o in &things.objects {
            self.create_object(o, &mut container, room);
        }
        let gold: Vec<_> = match room {
            Some(_) => things.gold.iter().rev().collect(),
            None => things.gold.iter().collect(),
        };
        for g in gold {
            self.create_gold(g, room);
        }
        let engravings: Vec<_> = match room {
            Some(_) => things.engravings.iter().rev().collect(),
            None => things.engravings.iter().collect(),
        };
        for e in engravings {
            let p = self.place_in(e.at, Humidity::DRY, room);
            let kind = if e.kind > 0 {
                i32::from(e.kind)
            } else {
                self.rng().rnd(5)
            };
            self.make_engraving(p, kind, e.text.clone(), Some(e.origin));
        }
    }

    pub(crate) fn make_engraving(&mut self, p: Pos, kind: i32, text: String, origin: Origin) {
        if self.engravings.contains(&p) {
            self.level()
                .record(Event::EngravingRemoved, p.x, p.y, origin);
        } else {
            self.engravings.push(p);
        }
        self.level()
            .record(Event::Engraving { kind, text }, p.x, p.y, origin);
    }

    /// `get_location`: a map-relative, register or random position.
    pub(crate) fn location(&mut self, at: Coord, humidity: Humidity) -> Pos {
        let (x, y) = (i32::from(at.0), i32::from(at.1));
        let p = if x >= 0 {
            Pos {
                x: x + self.xstart,
                y: y + self.ystart,
            }
        } else if x > -11 {
            let rx = self
                .rloc
                .get((-x - 1) as usize)
                .map_or(0, |p| i32::from(p.0));
            let ry = self
                .rloc
                .get((-y - 1).max(0) as usize)
                .map_or(0, |p| i32::from(p.1));
            Pos {
                x: self.xstart + rx,
                y: self.ystart + ry,
            }
        } else {
            let mut found = None;
            for _ in 0..100 {
                let x = self.xstart + self.b.rng.rn2(self.xsize);
                let y = self.ystart + self.b.rng.rn2(self.ysize);
                if self.is_ok_location(x, y, humidity) {
                    found = Some(Pos { x, y });
                    break;
                }
            }
            found
                .or_else(|| {
                    (0..self.xsize)
                        .flat_map(|dx| (0..self.ysize).map(move |dy| (dx, dy)))
                        .map(|(dx, dy)| Pos {
                            x: self.xstart + dx,
                            y: self.ystart + dy,
                        })
                        .find(|p| self.is_ok_location(p.x, p.y, humidity))
                })
                .unwrap_or(Pos {
                    x: X_MAZE_MAX,
                    y: Y_MAZE_MAX,
                })
        };
        if Level::isok(p.x, p.y) {
            p
        } else {
            Pos {
                x: X_MAZE_MAX,
                y: Y_MAZE_MAX,
            }
        }
    }

    fn area(&mut self, a: Area, humidity: Humidity) -> Area {
        let p1 = self.location((a.x1, a.y1), humidity);
        let p2 = self.location((a.x2, a.y2), humidity);
        Area {
            x1: p1.x as i8,
            y1: p1.y as i8,
            x2: p2.x as i8,
            y2: p2.y as i8,
        }
    }

    pub(crate) fn is_ok_location(&self, x: i32, y: i32, humidity: Humidity) -> bool {
        if !Level::isok(x, y) {
            return false;
        }
        if self.name == "water" {
            return true;
        }
        let typ = self.b.level.typ(x, y);
        if humidity.dry
            && matches!(
                typ,
                Terrain::Room | Terrain::Air | Terrain::Cloud | Terrain::Ice | Terrain::Corr
            )
        {
            return true;
        }
        humidity.wet && (self.is_pool(x, y) || self.is_lava(x, y))
    }

    pub(crate) fn is_pool(&self, x: i32, y: i32) -> bool {
        let cell = self.b.level.at(x, y);
        matches!(cell.typ, Terrain::Pool | Terrain::Moat | Terrain::Water)
            || (cell.typ == Terrain::DrawbridgeUp && cell.flags & drawbridge::LAVA == 0)
    }

    pub(crate) fn is_lava(&self, x: i32, y: i32) -> bool {
        let cell = self.b.level.at(x, y);
        cell.typ == Terrain::LavaPool
            || (cell.typ == Terrain::DrawbridgeUp && cell.flags & drawbridge::LAVA != 0)
    }

    fn light_region(&mut self, a: Area, lit: bool) {
        let (mut lx, mut ly, mut hx, mut hy) = (
            i32::from(a.x1),
            i32::from(a.y1),
            i32::from(a.x2),
            i32::from(a.y2),
        );
        if lit {
            lx = (lx - 1).max(1);
            hx = (hx + 1).min(COLNO as i32 - 1);
            ly = (ly - 1).max(0);
            hy = (hy + 1).min(ROWNO as i32 - 1);
        }
        for x in lx..=hx {
            for y in ly..=hy {
                if Level::isok(x, y) && self.b.level.typ(x, y) != Terrain::LavaPool {
                    self.level().at_mut(x, y).lit = lit;
                }
            }
        }
    }

    /// `topologize`: room numbers on a room's floor and edges.
    fn topologize(&mut self, index: usize) {
        self.topologize_ref(RoomRef::Top(index));
    }

    /// `topologize` for a room or a subroom; a subroom's number follows the game's layout,
    /// where `subrooms` starts right after the `MAXNROFROOMS + 1` slots of `rooms`. A room
    /// already numbered, or an irregular one, is left alone.
    fn topologize_ref(&mut self, room: RoomRef) {
        let r = self.room(room).clone();
        let roomno = room_number(room);
        if r.irregular || (Level::isok(r.lx, r.ly) && self.b.level.at(r.lx, r.ly).roomno == roomno)
        {
            return;
        }
        for x in r.lx - 1..=r.hx + 1 {
            for y in r.ly - 1..=r.hy + 1 {
                if !Level::isok(x, y) {
                    continue;
                }
                let edge = x < r.lx || x > r.hx || y < r.ly || y > r.hy;
                let cell = self.level().at_mut(x, y);
                if edge {
                    cell.edge = true;
                    cell.roomno = if cell.roomno != 0 && cell.roomno != roomno {
                        crate::level::SHARED
                    } else {
                        roomno
                    };
                } else {
                    cell.roomno = roomno;
                }
            }
        }
    }

    /// `fill_room` for a special level's typed region: vaults and crowded rooms are
    /// stocked (`fill.rs`), shops not yet; the level flags are set as the game sets them.
    fn fill_room(&mut self, index: usize, prefilled: bool) {
        let rtype = self.b.level.rooms[index].rtype;
        if !prefilled {
            if rtype >= room_type::SHOPBASE {
                self.stock_shop(RoomRef::Top(index));
            } else if Self::stocks_itself(rtype) {
                self.stock_special_room(RoomRef::Top(index));
            }
        }
        let flags = &mut self.b.level.flags;
        match rtype {
            t if t >= room_type::SHOPBASE => flags.has_shop = true,
            room_type::VAULT => flags.has_vault = true,
            room_type::ZOO => flags.has_zoo = true,
            room_type::COURT => flags.has_court = true,
            room_type::MORGUE => flags.has_morgue = true,
            room_type::BEEHIVE => flags.has_beehive = true,
            room_type::BARRACKS => flags.has_barracks = true,
            room_type::TEMPLE => flags.has_temple = true,
            room_type::SWAMP => {}
            _ => {}
        }
    }

    fn delete_trap(&mut self, p: Pos) {
        if let Some(i) = self.b.level.traps.iter().position(|t| t.at == p) {
            let t = self.b.level.traps.remove(i);
            self.level()
                .record(Event::TrapRemoved(t.kind), p.x, p.y, t.origin);
        }
    }

    /// `mkstairs`, with the dungeon's ends respected.
    fn mkstairs(&mut self, p: Pos, up: bool, origin: Origin) {
        let place = &self.b.place;
        if p.x == 0 || (place.dlevel == 1 && up) || (place.dlevel == place.dungeon_levels && !up) {
            return;
        }
        let stair = Stair { at: p, up, origin };
        if up {
            self.level().upstair = Some(stair);
        } else {
            self.level().dnstair = Some(stair);
        }
        self.level().set_typ(p.x, p.y, Terrain::Stairs, origin);
    }

    fn create_altar(&mut self, a: &AltarRec, room: Option<RoomRef>) {
        let (p, in_temple) = match room {
            Some(r) => (
                self.free_room_loc(a.at, r),
                self.room(r).rtype == room_type::TEMPLE,
            ),
            None => {
                let p = self.location(a.at, Humidity::DRY);
                let in_temple = self.b.level.rooms.iter().any(|r| {
                    r.rtype == room_type::TEMPLE
                        && (r.lx - 1..=r.hx + 1).contains(&p.x)
                        && (r.ly - 1..=r.hy + 1).contains(&p.y)
                });
                (p, in_temple)
            }
        };
        let old = self.b.level.typ(p.x, p.y);
        if old == Terrain::Stairs || old == Terrain::Ladder {
            return;
        }
        let amask = self.alignment_mask(a.align);
        let shrine = if a.shrine < 0 {
            self.rng().rn2(2)
        } else {
            i32::from(a.shrine)
        };
        let cell = self.level().at_mut(p.x, p.y);
        cell.typ = Terrain::Altar;
        cell.flags = amask as u8;
        cell.origin = Some(a.origin);
        if in_temple && shrine != 0 {
            cell.flags |= crate::level::altar::SHRINE;
            self.b.level.flags.has_temple = true;
            // The priest stands one square east of the altar.
            let what = if shrine > 1 {
                "high priest"
            } else {
                "aligned priest"
            };
            let index = monster_index(what);
            self.level().record(
                Event::Monster(What::Index(index)),
                p.x + 1,
                p.y,
                Some(a.origin),
            );
        }
    }

    /// An alignment field as an `amask` (1 chaotic, 2 neutral, 4 lawful), with the draws the
    /// game makes for "co-aligned", "non-co-aligned" and random ones.
    pub(crate) fn alignment_mask(&mut self, align: i8) -> i32 {
        let hero = self.b.place.hero_align;
        match align {
            3 => align_to_mask(hero),
            // The game wraps `noncoalignment` in the `Align2amask` macro, which evaluates
            // its argument once per comparison: one draw to test for "no alignment", a
            // second to test for lawful, and a third for the value itself when that second
            // one is not lawful.
            7 => {
                let _unaligned_test = self.noncoalignment(hero);
                if self.noncoalignment(hero) == 1 {
                    align_to_mask(1)
                } else {
                    let al = self.noncoalignment(hero);
                    align_to_mask(al)
                }
            }
            a if a <= -11 => self.induced_align(80),
            a if a < 0 => self.ralign[(-i32::from(a) - 1).min(2) as usize],
            a => i32::from(a),
        }
    }

    /// `noncoalignment`: an alignment other than the hero's, one draw.
    fn noncoalignment(&mut self, hero: i32) -> i32 {
        let k = self.rng().rn2(2);
        if hero == 0 {
            if k != 0 { -1 } else { 1 }
        } else if k != 0 {
            -hero
        } else {
            0
        }
    }

    /// `induced_align`: the level's alignment, else the dungeon's, else any.
    /// A filler level (one the game builds from a prototype file, not a special level of
    /// the dungeon) has no level alignment of its own: only the dungeon's counts.
    fn induced_align(&mut self, pct: i32) -> i32 {
        let level_align = if is_filler(&self.name) {
            None
        } else {
            self.b.place.level_align
        };
        if let Some(al) = level_align
            && self.rng().rn2(100) < pct
        {
            return align_to_mask(al);
        }
        if let Some(al) = self.b.place.dungeon_align
            && self.rng().rn2(100) < pct
        {
            return align_to_mask(al);
        }
        let al = self.rng().rn2(3) - 1;
        align_to_mask(al)
    }

    fn create_trap(&mut self, t: &TrapRec, room: Option<RoomRef>) {
        if self.rng().rn2(100) >= i32::from(t.chance) {
            return;
        }
        let p = match room {
            Some(r) => self.free_room_loc(t.at, r),
            None => self.location(t.at, Humidity::DRY),
        };
        self.mktrap(i32::from(t.kind), p, Some(t.origin));
    }

    fn create_monster(&mut self, m: &MonsterRec, room: Option<RoomRef>) {
        if self.rng().rn2(100) >= i32::from(m.chance) {
            return;
        }
        let class: Option<u8> = if m.class >= 0 {
            Some(m.class as u8)
        } else if m.class > -11 {
            self.rmonst
                .get((-i32::from(m.class) - 1) as usize)
                .map(|&c| c as u8)
        } else {
            None
        };
        let class = class.filter(|&c| c != 0);
        let _amask = self.alignment_mask_for_monster(m.align);
        let what = match class {
            None => What::Random,
            Some(_) if m.id >= 0 => What::Index(m.id as u16),
            Some(c) => What::Class(c),
        };
        let humidity = monster_humidity(&what);
        let p = self.place_in(m.at, humidity, room);
        // A MONSTER with an alignment makes a roaming minion: only priests and Angels exist.
        if m.align != -12 {
            let keep = matches!(what, What::Index(i)
                if i == monster_index("aligned priest") || i == monster_index("Angel"));
            if !keep {
                return;
            }
        }
        self.level()
            .record(Event::Monster(what), p.x, p.y, Some(m.origin));
        if !m.name.is_empty() {
            self.level()
                .record(Event::Named(m.name.clone()), p.x, p.y, Some(m.origin));
        }
    }

    fn alignment_mask_for_monster(&mut self, align: i8) -> i32 {
        // -12 (no alignment given) also draws the induced alignment.
        self.alignment_mask(align)
    }

    fn create_object(&mut self, o: &ObjectRec, container: &mut bool, room: Option<RoomRef>) {
        if self.rng().rn2(100) >= i32::from(o.chance) {
            return;
        }
        let p = self.place_in(o.at, Humidity::DRY, room);
        let class: u8 = if o.class >= 0 {
            o.class as u8
        } else if o.class > -11 {
            self.robjects
                .get((-(i32::from(o.class) + 1)) as usize)
                .map_or(0, |&c| c as u8)
        } else {
            0
        };
        let what = if class == 0 {
            What::Random
        } else if o.id != -1 {
            What::Index(o.id as u16)
        } else if class == b'$' {
            What::Gold(0)
        } else {
            What::Class(class)
        };
        if let What::Index(id) = what {
            self.objects_at.push((p, id as i16));
        }
        let event = if o.containment == 1 {
            if !*container {
                return;
            }
            Event::Content(what)
        } else {
            Event::Object(what)
        };
        self.level().record(event, p.x, p.y, Some(o.origin));
        if !o.name.is_empty() {
            self.level()
                .record(Event::Named(o.name.clone()), p.x, p.y, Some(o.origin));
        }
        if o.containment == 2 {
            *container = true;
        }
    }

    fn create_gold(&mut self, g: &GoldRec, room: Option<RoomRef>) {
        let p = self.place_in(g.at, Humidity::DRY, room);
        let amount = if g.amount == -1 {
            self.rng().rnd(200)
        } else {
            g.amount
        };
        self.level()
            .record(Event::Object(What::Gold(amount)), p.x, p.y, Some(g.origin));
    }

    /// The queued MAZEWALKs, last declared first, then the maze carver from each.
    fn run_mazewalks(&mut self) {
        let walks = std::mem::take(&mut self.walks);
        for &(mut x, mut y, dir, origin) in walks.iter().rev() {
            match dir {
                1 => y -= 1,
                2 => y += 1,
                4 => x += 1,
                _ => x -= 1,
            }
            if !Level::isok(x, y) {
                continue;
            }
            if self.b.level.typ(x, y) != Terrain::Door {
                let cell = self.level().at_mut(x, y);
                cell.typ = Terrain::Room;
                cell.flags = 0;
                cell.origin = origin;
            }
            if x % 2 == 0 {
                x += if dir == 4 { 1 } else { -1 };
                if Level::isok(x, y) {
                    let cell = self.level().at_mut(x, y);
                    cell.typ = Terrain::Room;
                    cell.flags = 0;
                    cell.origin = origin;
                }
            }
            if y % 2 == 0 {
                y += if dir == 2 { 1 } else { -1 };
            }
            walkfrom(&mut self.b.level, self.b.rng, x, y, origin);
        }
        self.walks = walks;
    }

    /// The random "junk" of a level whose maze is mostly not covered by maps.
    fn junk_fill(&mut self) {
        let mapcountmax = (X_MAZE_MAX - 2) * (Y_MAZE_MAX - 2);
        let mut mapcount = mapcountmax;
        for x in 2..X_MAZE_MAX {
            for y in 0..Y_MAZE_MAX {
                if self.mapped[x as usize][y as usize] {
                    mapcount -= 1;
                }
            }
        }
        if self.walks.is_empty() || mapcount <= mapcountmax / 10 {
            return;
        }
        let mapfact = (mapcount * 100) / mapcountmax;
        for _ in 0..self.rng().rnd(20 * mapfact / 100) {
            let p = self.maze1xy(Humidity::DRY);
            let gem = self.rng().rn2(2) != 0;
            let what = if gem { What::Class(b'*') } else { What::Random };
            self.level().record(Event::Object(what), p.x, p.y, None);
        }
        for _ in 0..self.rng().rnd(12 * mapfact / 100) {
            let p = self.maze1xy(Humidity::DRY);
            let boulder = object_index("boulder");
            self.objects_at.push((p, boulder as i16));
            self.level()
                .record(Event::Object(What::Index(boulder)), p.x, p.y, None);
        }
        for _ in 0..self.rng().rn2(2) {
            let p = self.maze1xy(Humidity::DRY);
            let what = What::Index(monster_index("minotaur"));
            self.level().record(Event::Monster(what), p.x, p.y, None);
        }
        for _ in 0..self.rng().rnd(12 * mapfact / 100) {
            let p = self.maze1xy(Humidity::DRY_WET);
            self.level()
                .record(Event::Monster(What::Random), p.x, p.y, None);
        }
        for _ in 0..self.rng().rn2(15 * mapfact / 100) {
            let p = self.maze1xy(Humidity::DRY);
            self.level()
                .record(Event::Object(What::Gold(0)), p.x, p.y, None);
        }
        for _ in 0..self.rng().rn2(15 * mapfact / 100) {
            let p = self.maze1xy(Humidity::DRY);
            let mut kind = self.rndtrap();
            if self
                .objects_at
                .iter()
                .any(|&(q, id)| q == p && id == object_index("boulder") as i16)
            {
                while matches!(kind, 11..=14) {
                    kind = self.rndtrap();
                }
            }
            self.maketrap(p, kind, None);
        }
    }

    fn maze1xy(&mut self, humidity: Humidity) -> Pos {
        let mut tries = 2000;
        loop {
            let x = self.rng().rn1(X_MAZE_MAX - 3, 3);
            let y = self.rng().rn1(Y_MAZE_MAX - 3, 3);
            tries -= 1;
            if tries < 0 {
                return Pos { x, y };
            }
            if x % 2 != 0
                && y % 2 != 0
                && !self.mapped[x as usize][y as usize]
                && self.is_ok_location(x, y, humidity)
            {
                return Pos { x, y };
            }
        }
    }

    /// `fixup_special`: level regions (stairs, portals, branches, teleport areas) and the
    /// branch of a level that has one.
    fn fixup_special(&mut self) {
        if self.name == "water" {
            self.water_bubbles();
        }
        let mut added_branch = false;
        for lr in std::mem::take(&mut self.lregions) {
            let (i, d) = (lr.inarea, lr.delarea);
            let area = |a: Area| {
                (
                    i32::from(a.x1),
                    i32::from(a.y1),
                    i32::from(a.x2),
                    i32::from(a.y2),
                )
            };
            match lr.rtype {
                0..=3 => {
                    if lr.rtype == 3 {
                        added_branch = true;
                    }
                    self.place_lregion(area(i), area(d), lr.rtype, Some(lr.origin));
                }
                4..=6 => {
                    let region = TeleportRegion {
                        lx: area(i).0,
                        ly: area(i).1,
                        hx: area(i).2,
                        hy: area(i).3,
                        nlx: area(d).0,
                        nly: area(d).1,
                        nhx: area(d).2,
                        nhy: area(d).3,
                    };
                    if lr.rtype != 6 {
                        self.b.level.updest = region;
                    }
                    if lr.rtype != 5 {
                        self.b.level.dndest = region;
                    }
                }
                _ => {}
            }
        }
        if !added_branch && super::branch::branch_of(&self.name).is_some() {
            self.place_lregion((0, 0, 0, 0), (0, 0, 0, 0), 3, None);
        }
        match self.name.as_str() {
            n if n.starts_with("medusa") => self.medusa_statues(),
            "wizard1" => {
                if let Some(room) = self.search_special(room_type::MORGUE) {
                    self.create_secret_door(room, W_SOUTH | W_EAST | W_WEST);
                }
            }
            "sanctum" => {
                if let Some(room) = self.search_special(room_type::TEMPLE) {
                    self.create_secret_door(room, W_NORTH | W_SOUTH | W_EAST | W_WEST);
                }
            }
            "knox" => self.stock_treasury(),
            "castle" => self.b.level.flags.graveyard = true,
            n if n.starts_with("Pri-") => self.b.level.flags.graveyard = true,
            _ => {}
        }
    }

    /// `search_special`: the first room of a type (rooms of a MAZE level have no subrooms).
    fn search_special(&self, rtype: i32) -> Option<usize> {
        self.b.level.rooms.iter().position(|r| r.rtype == rtype)
    }

    /// `create_secret_door`: up to 100 tries at a random square of one of the allowed walls
    /// (the game tests the east bit for the left wall and the west bit for the right one).
    fn create_secret_door(&mut self, room: usize, walls: u8) {
        let r = self.b.level.rooms[room].clone();
        for _ in 0..100 {
            let mut sx = self.rng().rn1(r.hx - r.lx + 1, r.lx);
            let mut sy = self.rng().rn1(r.hy - r.ly + 1, r.ly);
            match self.rng().rn2(4) {
                0 if walls & W_NORTH != 0 => sy = r.ly - 1,
                1 if walls & W_SOUTH != 0 => sy = r.hy + 1,
                2 if walls & W_EAST != 0 => sx = r.lx - 1,
                3 if walls & W_WEST != 0 => sx = r.hx + 1,
                _ => continue,
            }
            if Level::isok(sx, sy) && self.b.okdoor(sx, sy) {
                let cell = self.level().at_mut(sx, sy);
                cell.typ = Terrain::SDoor;
                cell.flags = door::CLOSED;
                self.b.add_door(sx, sy, room);
                return;
            }
        }
    }

    /// `place_lregion`: 200 random tries inside the area and outside the excluded one, then
    /// a scan.
    fn place_lregion(
        &mut self,
        (mut lx, mut ly, mut hx, mut hy): (i32, i32, i32, i32),
        excluded: (i32, i32, i32, i32),
        rtype: i8,
        origin: Origin,
    ) {
        if lx == 0 {
            if rtype == 3 && !self.b.level.rooms.is_empty() {
                self.place_branch(None, origin);
                return;
            }
            (lx, hx, ly, hy) = (1, COLNO as i32 - 1, 1, ROWNO as i32 - 1);
        }
        let oneshot = lx == hx && ly == hy;
        for _ in 0..200 {
            let x = self.rng().rn1(hx - lx + 1, lx);
            let y = self.rng().rn1(hy - ly + 1, ly);
            if self.put_lregion_here(Pos { x, y }, excluded, rtype, oneshot, origin) {
                return;
            }
        }
        for x in lx..=hx {
            for y in ly..=hy {
                if self.put_lregion_here(Pos { x, y }, excluded, rtype, true, origin) {
                    return;
                }
            }
        }
    }

    fn bad_location(&self, p: Pos, (nlx, nly, nhx, nhy): (i32, i32, i32, i32)) -> bool {
        if !Level::isok(p.x, p.y) {
            return true;
        }
        let typ = self.b.level.typ(p.x, p.y);
        self.b.occupied(p.x, p.y)
            || (p.x >= nlx && p.x <= nhx && p.y >= nly && p.y <= nhy)
            || !((typ == Terrain::Corr && self.b.level.flags.is_maze_lev)
                || typ == Terrain::Room
                || typ == Terrain::Air)
    }

    fn put_lregion_here(
        &mut self,
        p: Pos,
        excluded: (i32, i32, i32, i32),
        rtype: i8,
        oneshot: bool,
        origin: Origin,
    ) -> bool {
        if self.bad_location(p, excluded) {
            if !oneshot {
                return false;
            }
            if let Some(t) = self.b.level.traps.iter().find(|t| t.at == p)
                && t.kind != 17
            {
                self.delete_trap(p);
            }
            if self.bad_location(p, excluded) {
                return false;
            }
        }
        match rtype {
            0 | 1 => self.mkstairs(p, rtype == 1, origin),
            2 => self.maketrap(p, 17, origin),
            3 => self.place_branch(Some(p), origin),
            _ => {}
        }
        true
    }

    /// `place_branch`: the branch stair or portal of this level, if it has one.
    fn place_branch(&mut self, at: Option<Pos>, origin: Origin) {
        let Some(branch) = super::branch::branch_of(&self.name) else {
            return;
        };
        if self.made_branch {
            return;
        }
        let p = match at {
            Some(p) => p,
            None => self.find_branch_room(),
        };
        match branch {
            super::branch::Branch::Portal => self.maketrap(p, 17, origin),
            super::branch::Branch::Stairs { up } => {
                self.b.level.branch_stair = Some(Stair { at: p, up, origin });
                self.level().set_typ(p.x, p.y, Terrain::Stairs, origin);
            }
            super::branch::Branch::Nothing => {}
        }
        self.made_branch = true;
    }

    fn find_branch_room(&mut self) -> Pos {
        let nroom = self.b.level.rooms.len() as i32;
        if nroom == 0 {
            return self.mazexy();
        }
        let room = if nroom > 2 {
            let mut tries = 0;
            loop {
                let r = self.rng().rn2(nroom) as usize;
                let room = &self.b.level.rooms[r];
                let stairs_here = [self.b.level.upstair, self.b.level.dnstair]
                    .iter()
                    .flatten()
                    .any(|s| {
                        (room.lx..=room.hx).contains(&s.at.x)
                            && (room.ly..=room.hy).contains(&s.at.y)
                    });
                tries += 1;
                if !((stairs_here || room.rtype != room_type::OROOM) && tries < 100) {
                    break r;
                }
            }
        } else {
            self.rng().rn2(nroom) as usize
        };
        // The game tries until it succeeds; a room with no free floor would hang it, so a
        // damaged level gives up after many tries.
        for _ in 0..10_000 {
            let x = self.b.somex(room);
            let y = self.b.somey(room);
            let typ = self.b.level.typ(x, y);
            if !self.b.occupied(x, y) && matches!(typ, Terrain::Corr | Terrain::Room) {
                return Pos { x, y };
            }
        }
        let r = &self.b.level.rooms[room];
        Pos { x: r.lx, y: r.ly }
    }

    fn mazexy(&mut self) -> Pos {
        for _ in 0..100 {
            let x = 3 + 2 * self.rng().rn2((X_MAZE_MAX >> 1) - 1);
            let y = 3 + 2 * self.rng().rn2((Y_MAZE_MAX >> 1) - 1);
            if self.b.level.typ(x, y) == Terrain::Room {
                return Pos { x, y };
            }
        }
        for x in 0..(X_MAZE_MAX >> 1) - 1 {
            for y in 0..(Y_MAZE_MAX >> 1) - 1 {
                let p = Pos {
                    x: 3 + 2 * x,
                    y: 3 + 2 * y,
                };
                if self.b.level.typ(p.x, p.y) == Terrain::Room {
                    return p;
                }
            }
        }
        Pos { x: 3, y: 3 }
    }
}

/// MAZEWALK directions and wall sides (`W_NORTH`...).
const W_NORTH: u8 = 1;
const W_SOUTH: u8 = 2;
const W_EAST: u8 = 4;
const W_WEST: u8 = 8;

/// `create_drawbridge`: (x, y) is the water or lava square; the wall beyond it in `dir`
/// becomes the bridge's wall or its open doorway.
fn create_drawbridge(
    level: &mut Level,
    x: i32,
    y: i32,
    dir: i8,
    open: bool,
    origin: Origin,
) -> bool {
    let lava = level.typ(x, y) == Terrain::LavaPool;
    let (x2, y2, horizontal) = match dir {
        0 => (x, y - 1, true),
        1 => (x, y + 1, true),
        2 => (x + 1, y, false),
        _ => (x - 1, y, false),
    };
    if !Level::isok(x2, y2) || !level.typ(x2, y2).is_wall() {
        return false;
    }
    if open {
        level.set_typ(x, y, Terrain::DrawbridgeDown, origin);
        level.set_typ(x2, y2, Terrain::Door, origin);
        level.at_mut(x2, y2).flags = door::NODOOR;
    } else {
        level.set_typ(x, y, Terrain::DrawbridgeUp, origin);
        level.set_typ(x2, y2, Terrain::DbWall, origin);
        level.at_mut(x2, y2).flags = wall::NONDIGGABLE;
    }
    level.at_mut(x, y).horizontal = !horizontal;
    level.at_mut(x2, y2).horizontal = horizontal;
    level.at_mut(x, y).flags = dir as u8 | if lava { drawbridge::LAVA } else { 0 };
    true
}

/// `walkfrom`: the depth-first maze carver, two squares at a time on the odd grid.
fn walkfrom(level: &mut Level, rng: &mut Rng, x: i32, y: i32, origin: Origin) {
    let okay = |level: &Level, x: i32, y: i32, dir: usize| {
        let (dx, dy) = [(0, -1), (1, 0), (0, 1), (-1, 0)][dir];
        let (x, y) = (x + 2 * dx, y + 2 * dy);
        !(x < 3 || y < 3 || x > X_MAZE_MAX || y > Y_MAZE_MAX || level.typ(x, y) != Terrain::Stone)
    };
    // An explicit stack: each frame is a square still looking for unvisited neighbours.
    let carve = |level: &mut Level, x: i32, y: i32| {
        if Level::isok(x, y) && level.typ(x, y) != Terrain::Door {
            let cell = level.at_mut(x, y);
            cell.typ = Terrain::Room;
            cell.flags = 0;
            cell.origin = origin;
        }
    };
    if !Level::isok(x, y) {
        return;
    }
    carve(level, x, y);
    // Each frame of the game's recursion keeps exploring from where its last step took it,
    // never from where it started: the top of this stack moves with every step.
    let mut stack = vec![(x, y)];
    while let Some(&(x, y)) = stack.last() {
        let dirs: Vec<usize> = (0..4).filter(|&d| okay(level, x, y, d)).collect();
        if dirs.is_empty() {
            stack.pop();
            continue;
        }
        let dir = dirs[rng.rn2(dirs.len() as i32) as usize];
        let (dx, dy) = [(0, -1), (1, 0), (0, 1), (-1, 0)][dir];
        let mid = level.at_mut(x + dx, y + dy);
        mid.typ = Terrain::Room;
        mid.origin = origin;
        let next = (x + 2 * dx, y + 2 * dy);
        *stack.last_mut().unwrap() = next;
        carve(level, next.0, next.1);
        stack.push(next);
    }
}

/// `wallification`: walls buried in rock become rock, then every wall takes the shape its
/// neighbours call for.
pub(crate) fn wallification(level: &mut Level, x1: i32, y1: i32, x2: i32, y2: i32) {
    let is_solid =
        |level: &Level, x: i32, y: i32| !Level::isok(x, y) || level.typ(x, y).is_stone_or_wall();
    for x in x1..=x2 {
        for y in y1..=y2 {
            let typ = level.typ(x, y);
            if typ.is_wall() && typ != Terrain::DbWall {
                let buried = [
                    (-1, -1),
                    (-1, 0),
                    (-1, 1),
                    (0, -1),
                    (0, 1),
                    (1, -1),
                    (1, 0),
                    (1, 1),
                ]
                .iter()
                .all(|(dx, dy)| is_solid(level, x + dx, y + dy));
                if buried {
                    level.at_mut(x, y).typ = Terrain::Stone;
                }
            }
        }
    }
    let iswall = |level: &Level, x: i32, y: i32| {
        Level::isok(x, y) && {
            let t = level.typ(x, y);
            t.is_wall() || t == Terrain::Door || t == Terrain::SDoor || t == Terrain::IronBars
        }
    };
    let wall_or_stone = |level: &Level, x: i32, y: i32| {
        !Level::isok(x, y) || {
            let t = level.typ(x, y);
            t == Terrain::Stone
                || t.is_wall()
                || t == Terrain::Door
                || t == Terrain::SDoor
                || t == Terrain::IronBars
        }
    };
    use Terrain::*;
    const SPINES: [Terrain; 16] = [
        VWall, HWall, HWall, HWall, VWall, TRCorner, TLCorner, TDWall, VWall, BRCorner, BLCorner,
        TUWall, VWall, TLWall, TRWall, CrossWall,
    ];
    for x in x1..=x2 {
        for y in y1..=y2 {
            let typ = level.typ(x, y);
            if !(typ.is_wall() && typ != DbWall) {
                continue;
            }
            let mut locale = [[false; 3]; 3];
            for (i, row) in locale.iter_mut().enumerate() {
                for (j, v) in row.iter_mut().enumerate() {
                    *v = wall_or_stone(level, x + i as i32 - 1, y + j as i32 - 1);
                }
            }
            let spine = |wall_there: bool, dx: i32, dy: i32| -> u32 {
                if !wall_there {
                    return 0;
                }
                let (nx, ny) = ((1 + dx) as usize, (1 + dy) as usize);
                let closed = if dx != 0 {
                    locale[1][0] && locale[1][2] && locale[nx][0] && locale[nx][2]
                } else {
                    locale[0][1] && locale[2][1] && locale[0][ny] && locale[2][ny]
                };
                u32::from(!closed)
            };
            let bits = (spine(iswall(level, x, y - 1), 0, -1) << 3)
                | (spine(iswall(level, x, y + 1), 0, 1) << 2)
                | (spine(iswall(level, x + 1, y), 1, 0) << 1)
                | spine(iswall(level, x - 1, y), -1, 0);
            if bits != 0 {
                level.at_mut(x, y).typ = SPINES[bits as usize];
            }
        }
    }
}

/// `sp_lev_shuffle`: a Fisher-Yates shuffle that skips the swap when an item stays.
fn shuffle(rng: &mut Rng, list: &mut [i8], mut other: Option<&mut Vec<i8>>) {
    for i in (1..list.len()).rev() {
        let j = rng.rn2(i as i32 + 1) as usize;
        if j == i {
            continue;
        }
        list.swap(i, j);
        if let Some(other) = other.as_deref_mut() {
            other.swap(i, j);
        }
    }
}

fn align_to_mask(al: i32) -> i32 {
    match al {
        a if a > 0 => 4,
        0 => 2,
        _ => 1,
    }
}

pub(crate) fn monster_index(name: &str) -> u16 {
    levkit_model::nethack::tables::MONSTERS
        .iter()
        .find(|m| m.name == name)
        .map_or(0, |m| m.index)
}

pub(crate) fn object_index(name: &str) -> u16 {
    levkit_model::nethack::tables::OBJECTS
        .iter()
        .find(|o| o.name == name)
        .map_or(0, |o| o.index)
}

/// Filler levels: the Mines' `minefill`, the quest's `Xxx-fila`/`Xxx-filb` and Vlad's
/// `tower2`/`tower3`, built from prototype files rather than listed as special levels.
pub(crate) fn is_filler(name: &str) -> bool {
    name == "minefill"
        || name.ends_with("-fila")
        || name.ends_with("-filb")
        || name == "tower2"
        || name == "tower3"
}

/// The number a room's squares carry (`roomno`): rooms from `ROOMOFFSET`, subrooms after
/// the `MAXNROFROOMS + 1` slots of `rooms`, as the game lays its arrays out.
pub(crate) fn room_number(room: RoomRef) -> u8 {
    let slot = match room {
        RoomRef::Top(i) => i,
        RoomRef::Sub(i) => crate::mklev::MAX_ROOMS + 1 + i,
    };
    (slot as u8).saturating_add(crate::level::ROOMOFFSET)
}

/// A room or a subroom of a room level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RoomRef {
    Top(usize),
    Sub(usize),
}

impl Loader<'_> {
    pub(crate) fn room(&self, r: RoomRef) -> &Room {
        match r {
            RoomRef::Top(i) => &self.b.level.rooms[i],
            RoomRef::Sub(i) => &self.b.level.subrooms[i],
        }
    }

    /// A maze position, or a room-relative one inside a room.
    fn place_in(&mut self, at: Coord, humidity: Humidity, room: Option<RoomRef>) -> Pos {
        match room {
            Some(r) => self.room_loc(at, r),
            None => self.location(at, humidity),
        }
    }

    pub(crate) fn somexy(&mut self, r: RoomRef) -> Option<Pos> {
        match r {
            RoomRef::Top(i)
                if !self.b.level.rooms[i].irregular
                    && !self.b.level.rooms[i].subrooms.is_empty() =>
            {
                self.somexy_around_subrooms(i)
            }
            RoomRef::Top(i) => self.b.somexy(i),
            RoomRef::Sub(i) => {
                let room = self.b.level.subrooms[i].clone();
                let x = self.b.rng.rn2(room.hx - room.lx + 1) + room.lx;
                let y = self.b.rng.rn2(room.hy - room.ly + 1) + room.ly;
                Some(Pos { x, y })
            }
        }
    }

    /// `somexy` in a room with subrooms: up to 100 tries at a square that is not a wall and
    /// not inside a subroom or on its walls (`inside_room` counts the walls, so a subroom's
    /// door is refused too). As in the game, success on the hundredth try still fails.
    fn somexy_around_subrooms(&mut self, i: usize) -> Option<Pos> {
        let r = self.b.level.rooms[i].clone();
        let mut tries = 0;
        let mut p = Pos { x: r.lx, y: r.ly };
        while tries < 100 {
            tries += 1;
            p = Pos {
                x: self.b.somex(i),
                y: self.b.somey(i),
            };
            if self.b.level.typ(p.x, p.y).is_wall() {
                continue;
            }
            let in_subroom = r.subrooms.iter().any(|&s| {
                let sub = &self.b.level.subrooms[s];
                (sub.lx - 1..=sub.hx + 1).contains(&p.x) && (sub.ly - 1..=sub.hy + 1).contains(&p.y)
            });
            if !in_subroom {
                break;
            }
        }
        (tries < 100).then_some(p)
    }

    /// `get_room_loc`: a random square of the room, or an offset from its corner (either
    /// axis may be random).
    fn room_loc(&mut self, at: Coord, r: RoomRef) -> Pos {
        let (x, y) = (i32::from(at.0), i32::from(at.1));
        if x < 0 && y < 0 {
            let (lx, ly) = (self.room(r).lx, self.room(r).ly);
            return self.somexy(r).unwrap_or(Pos { x: lx, y: ly });
        }
        let room = self.room(r).clone();
        let x = if x < 0 {
            self.b.rng.rn2(room.hx - room.lx + 1)
        } else {
            x
        };
        let y = if y < 0 {
            self.b.rng.rn2(room.hy - room.ly + 1)
        } else {
            y
        };
        let p = Pos {
            x: x + room.lx,
            y: y + room.ly,
        };
        if Level::isok(p.x, p.y) {
            p
        } else {
            Pos {
                x: room.lx,
                y: room.ly,
            }
        }
    }

    /// `get_free_room_loc`: a room square that is plain floor (100 tries).
    fn free_room_loc(&mut self, at: Coord, r: RoomRef) -> Pos {
        let mut p = self.room_loc(at, r);
        let mut tries = 0;
        while self.b.level.typ(p.x, p.y) != Terrain::Room && tries < 100 {
            tries += 1;
            p = self.room_loc(at, r);
        }
        p
    }

    /// `load_rooms`: rooms in file order, each followed by its subrooms and contents, then
    /// the corridors.
    fn load_rooms(&mut self, rl: &RoomLevel) {
        if !rl.object_registers.is_empty() {
            self.robjects = rl.object_registers.clone();
            shuffle(self.b.rng, &mut self.robjects, None);
        }
        if !rl.monster_registers.is_empty() {
            self.rmonst = rl.monster_registers.clone();
            shuffle(self.b.rng, &mut self.rmonst, None);
        }
        for (i, room) in rl.rooms.iter().enumerate() {
            if room.parent.is_empty() {
                self.build_room(&rl.rooms, i, None);
            }
        }
        for c in &rl.corridors {
            self.create_corridor(c);
        }
    }

    fn build_room(&mut self, all: &[RoomRec], index: usize, parent: Option<usize>) {
        let r = &all[index];
        let rtype = if r.chance == 0 || self.rng().rn2(100) < i32::from(r.chance) {
            i32::from(r.rtype)
        } else {
            room_type::OROOM
        };
        let made = match parent {
            Some(p) => self
                .b
                .create_subroom(
                    p,
                    r.x.into(),
                    r.y.into(),
                    r.w.into(),
                    r.h.into(),
                    rtype,
                    r.rlit.into(),
                )
                .map(|i| Some(RoomRef::Sub(i))),
            None => self
                .b
                .create_room(
                    r.x.into(),
                    r.y.into(),
                    r.w.into(),
                    r.h.into(),
                    r.xalign.into(),
                    r.yalign.into(),
                    rtype,
                    r.rlit.into(),
                )
                // A vault is not added to the list: the game goes on with the room made
                // last, as this does.
                .map(|_| self.b.level.rooms.len().checked_sub(1).map(RoomRef::Top)),
        };
        let room = match made {
            None => return,
            Some(Some(room)) => room,
            // Only a corrupt `.lev` starts with a vault; the game would read before its rooms.
            Some(None) => {
                self.note_unsupported(
                    "a vault as the first room (the game reads outside its room list)",
                );
                return;
            }
        };
        match room {
            RoomRef::Top(i) => self.b.level.rooms[i].origin = Some(r.origin),
            RoomRef::Sub(i) => self.b.level.subrooms[i].origin = Some(r.origin),
        }
        if let RoomRef::Top(top) = room {
            for (j, sub) in all.iter().enumerate() {
                if !sub.parent.is_empty() && sub.parent == r.name {
                    self.build_room(all, j, Some(top));
                }
            }
        }
        // Contents: lists are read back to front (objects excepted).
        for s in r.stairs.iter().rev() {
            let p = self.free_room_loc(s.at, room);
            self.mkstairs(p, s.up, Some(s.origin));
        }
        for (list, typ) in [
            (&r.sinks, Terrain::Sink),
            (&r.pools, Terrain::Pool),
            (&r.fountains, Terrain::Fountain),
        ] {
            for f in list.iter().rev() {
                self.room_feature(f.at, room, typ, Some(f.origin));
            }
        }
        for a in r.altars.iter().rev() {
            self.create_altar(a, Some(room));
        }
        for d in r.doors.iter().rev() {
            self.create_room_door(d, room);
        }
        for t in r.traps.iter().rev() {
            self.create_trap(t, Some(room));
        }
        self.create_things(&r.things, Some(room));
        self.topologize_ref(room);
        if rtype != room_type::OROOM && r.filled != 0 {
            self.fill_special_room(room);
        }
    }

    fn fill_special_room(&mut self, room: RoomRef) {
        match room {
            RoomRef::Top(i) => self.fill_room(i, false),
            RoomRef::Sub(i) => {
                let rtype = self.b.level.subrooms[i].rtype;
                if rtype >= room_type::SHOPBASE {
                    self.stock_shop(room);
                } else if Self::stocks_itself(rtype) {
                    self.stock_special_room(room);
                }
            }
        }
    }

    /// `create_feature` in a room: a random square avoids occupied ones (200 tries).
    fn room_feature(&mut self, at: Coord, room: RoomRef, typ: Terrain, origin: Origin) {
        let p = if at.0 < 0 && at.1 < 0 {
            let mut tries = 0;
            loop {
                let p = self.room_loc((-1, -1), room);
                tries += 1;
                if !(tries <= 200 && self.b.occupied(p.x, p.y)) {
                    if tries > 200 {
                        return;
                    }
                    break p;
                }
            }
        } else {
            self.room_loc(at, room)
        };
        let old = self.b.level.typ(p.x, p.y);
        if old.is_furniture() && old != typ {
            return;
        }
        self.level().set_typ(p.x, p.y, typ, origin);
    }

    /// `create_door` for a room: random secrecy, state, wall and position, then up to 100
    /// tries at a spot where a door may go.
    fn create_room_door(&mut self, d: &RoomDoorRec, room: RoomRef) {
        let secret = if d.secret == -1 {
            self.rng().rn2(2) != 0
        } else {
            d.secret != 0
        };
        let mask = if d.mask == -1 {
            if !secret {
                if self.rng().rn2(3) == 0 {
                    let mut mask = if self.rng().rn2(5) == 0 {
                        door::ISOPEN
                    } else if self.rng().rn2(6) == 0 {
                        door::LOCKED
                    } else {
                        door::CLOSED
                    };
                    if mask != door::ISOPEN && self.rng().rn2(25) == 0 {
                        mask |= door::TRAPPED;
                    }
                    mask
                } else {
                    door::NODOOR
                }
            } else {
                let mut mask = if self.rng().rn2(5) == 0 {
                    door::LOCKED
                } else {
                    door::CLOSED
                };
                if self.rng().rn2(20) == 0 {
                    mask |= door::TRAPPED;
                }
                mask
            }
        } else {
            d.mask as u8
        };
        let r = self.room(room).clone();
        let mut found = None;
        for _ in 0..=100 {
            let wall = if d.wall == -1 {
                1 << self.rng().rn2(4)
            } else {
                i32::from(d.wall)
            };
            let pos = if d.pos == -1 {
                let span = if wall == 8 || wall == 4 {
                    r.hy - r.ly
                } else {
                    r.hx - r.lx
                };
                self.rng().rn2(span)
            } else {
                i32::from(d.pos)
            };
            let (x, y) = match wall {
                1 => (r.lx + pos, r.ly - 1),
                2 => (r.lx + pos, r.hy + 1),
                8 => (r.lx - 1, r.ly + pos),
                4 => (r.hx + 1, r.ly + pos),
                _ => (0, 0),
            };
            if Level::isok(x, y) && self.b.okdoor(x, y) {
                found = Some(Pos { x, y });
                break;
            }
        }
        let Some(p) = found else {
            return;
        };
        if let RoomRef::Top(i) = room {
            self.b.add_door(p.x, p.y, i);
        } else {
            // A subroom's doors count in the door list too.
            self.add_subroom_door(p, room);
        }
        let cell = self.level().at_mut(p.x, p.y);
        cell.typ = if secret {
            Terrain::SDoor
        } else {
            Terrain::Door
        };
        cell.flags = mask;
        cell.origin = Some(d.origin);
    }

    /// `create_corridor`: RANDOM_CORRIDORS joins the rooms as a random level does; an explicit
    /// corridor runs between two rooms' doors.
    fn create_corridor(&mut self, c: &CorridorRec) {
        let (src, dest) = (c.src, c.dest);
        let (src_room, src_wall, src_door) = (src.room, src.wall, src.door);
        let (dest_room, dest_wall, dest_door) = (dest.room, dest.wall, dest.door);
        if src_room == -1 {
            self.b.sort_rooms();
            self.b.makecorridors();
            return;
        }
        let Some(mut org) = self.search_door(src_room, src_wall, src_door) else {
            return;
        };
        if dest_room == -1 {
            return;
        }
        let Some(mut dest) = self.search_door(dest_room, dest_wall, dest_door) else {
            return;
        };
        let step = |p: &mut Pos, wall: i8| match wall {
            1 => p.y -= 1,
            2 => p.y += 1,
            8 => p.x -= 1,
            4 => p.x += 1,
            _ => {}
        };
        step(&mut org, src_wall);
        step(&mut dest, dest_wall);
        self.b
            .dig_corridor(org, dest, false, Terrain::Corr, Terrain::Stone);
    }

    /// `search_door`: the n-th door on a room's wall (the game looks below the room for
    /// "north" and above it for "south").
    fn search_door(&self, room: i8, wall: i8, n: i8) -> Option<Pos> {
        let r = self.b.level.rooms.get(usize::try_from(room).ok()?)?;
        let (dx, dy, mut x, mut y) = match wall {
            1 => (1, 0, r.lx, r.hy + 1),
            2 => (1, 0, r.lx, r.ly - 1),
            4 => (0, 1, r.hx + 1, r.ly),
            8 => (0, 1, r.lx - 1, r.ly),
            _ => return None,
        };
        let mut count = i32::from(n);
        while x <= r.hx + 1 && y <= r.hy + 1 && Level::isok(x, y) {
            if matches!(self.b.level.typ(x, y), Terrain::Door | Terrain::SDoor) {
                if count <= 0 {
                    return Some(Pos { x, y });
                }
                count -= 1;
            }
            x += dx;
            y += dy;
        }
        None
    }
}
