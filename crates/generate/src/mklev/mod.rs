//! NetHack 3.4.3's rooms-and-corridors generator (`mklev.c`, with `rect.c` and the room and
//! corridor code of `sp_lev.c` it shares with special levels), ported so that one seed draws
//! the same numbers in the same order and builds the same level.
//!
//! [`Builder`] holds what the game keeps in globals while a level is made (the free
//! rectangles, the connectivity labels, the vault reservation); the special-level loader
//! builds room levels through the same methods.

mod corridors;
mod text;

pub use text::map_text;

use crate::level::{Level, Place, Pos, Room, Terrain, room_type};
use crate::rect::{Rect, Rects, XLIM, YLIM};
use crate::rng::Rng;

/// `MAXNROFROOMS`.
pub const MAX_ROOMS: usize = 40;
/// `DOORMAX`.
pub const MAX_DOORS: usize = 120;

const COLNO: i32 = crate::level::COLNO as i32;
const ROWNO: i32 = crate::level::ROWNO as i32;

/// A level under construction and the generator's working state.
pub struct Builder<'r> {
    pub level: Level,
    pub rng: &'r mut Rng,
    pub place: Place,
    pub rects: Rects,
    /// `smeq[]`: a crude "already connected" label per room (see `makecorridors`).
    pub smeq: Vec<i32>,
    /// Objects the game would have made here. Making them draws nothing (the reference
    /// convention), but the count is part of the reference maps' metadata.
    pub objects_skipped: u32,
}

/// What `makelevel` returns besides the level.
pub struct Generated {
    pub level: Level,
    pub objects_skipped: u32,
}

/// An ordinary random level of the Dungeons of Doom, up to the point where the game would
/// choose a special room (shop, zoo...): rooms, stairs, corridors, niches and the vault.
pub fn makelevel(rng: &mut Rng, place: &Place) -> Generated {
    let mut b = Builder::new(rng, place.clone());
    // The "below Medusa, make a maze" test draws even when it cannot apply.
    b.rng.rn2(5);
    b.makerooms();
    b.sort_rooms();
    b.place_stairs();
    b.makecorridors();
    b.make_niches();
    b.finish_vault();
    Generated {
        level: b.level,
        objects_skipped: b.objects_skipped,
    }
}

impl<'r> Builder<'r> {
    pub fn new(rng: &'r mut Rng, place: Place) -> Builder<'r> {
        Builder {
            level: Level::new(),
            rng,
            place,
            rects: Rects::new(),
            smeq: Vec::new(),
            objects_skipped: 0,
        }
    }

    /// `makerooms`: rooms until the free space runs out, with one try at reserving a vault.
    fn makerooms(&mut self) {
        let mut tried_vault = false;
        while self.level.rooms.len() < MAX_ROOMS && self.rects.random(self.rng).is_some() {
            if self.level.rooms.len() >= MAX_ROOMS / 6 && self.rng.rn2(2) != 0 && !tried_vault {
                tried_vault = true;
                if let Some(at) = self.create_vault() {
                    self.level.vault = Some(at);
                }
            } else if self
                .create_room(-1, -1, -1, -1, -1, -1, room_type::OROOM, -1)
                .is_none()
            {
                return;
            }
        }
    }

    fn create_vault(&mut self) -> Option<Pos> {
        self.create_room(-1, -1, 2, 2, -1, -1, room_type::VAULT, 1)
    }

    /// `sort_rooms`: by left edge; the sort must be stable, as glibc's merge sort is.
    pub fn sort_rooms(&mut self) {
        self.level.rooms.sort_by_key(|room| room.lx);
        for (i, room) in self.level.rooms.iter().enumerate() {
            for &sub in &room.subrooms {
                self.level.subrooms[sub].parent = Some(i);
            }
        }
    }

    /// Down stairs in one room, up stairs in another (the game's draw order included).
    fn place_stairs(&mut self) {
        let nroom = self.level.rooms.len() as i32;
        if nroom == 0 {
            return;
        }
        let mut croom = self.rng.rn2(nroom) as usize;
        if self.place.dlevel != self.place.dungeon_levels {
            // Arguments are evaluated right to left: y is drawn before x.
            let y = self.somey(croom);
            let x = self.somex(croom);
            self.mkstairs(x, y, false);
        }
        if nroom > 1 {
            let troom = croom;
            croom = self.rng.rn2(nroom - 1) as usize;
            if croom == troom {
                croom += 1;
            }
        }
        if self.place.dlevel != 1 {
            let (x, y) = loop {
                let x = self.somex(croom);
                let y = self.somey(croom);
                if !self.occupied(x, y) {
                    break (x, y);
                }
            };
            self.mkstairs(x, y, true);
        }
    }

    /// `occupied`: a trap, furniture, lava or water.
    pub fn occupied(&self, x: i32, y: i32) -> bool {
        let typ = self.level.typ(x, y);
        self.level.traps.iter().any(|t| t.at == Pos { x, y })
            || typ.is_furniture()
            || typ == Terrain::LavaPool
            || typ.is_pool()
    }

    /// `mkstairs`: no stair leads off the top or bottom of the dungeon.
    pub fn mkstairs(&mut self, x: i32, y: i32, up: bool) {
        if x == 0
            || (self.place.dlevel == 1 && up)
            || (self.place.dlevel == self.place.dungeon_levels && !up)
        {
            return;
        }
        let stair = crate::level::Stair {
            at: Pos { x, y },
            up,
            origin: None,
        };
        if up {
            self.level.upstair = Some(stair);
        } else {
            self.level.dnstair = Some(stair);
        }
        self.level.set_typ(x, y, Terrain::Stairs, None);
    }

    /// `somex`: a random column of a room's floor.
    pub fn somex(&mut self, room: usize) -> i32 {
        let r = &self.level.rooms[room];
        let (lx, hx) = (r.lx, r.hx);
        self.rng.rn2(hx - lx + 1) + lx
    }

    /// `somey`: a random row of a room's floor.
    pub fn somey(&mut self, room: usize) -> i32 {
        let r = &self.level.rooms[room];
        let (ly, hy) = (r.ly, r.hy);
        self.rng.rn2(hy - ly + 1) + ly
    }

    /// `somexy`: a random floor square of a room: for an irregular room one that is its own
    /// and not an edge; never inside a subroom or on a wall.
    pub fn somexy(&mut self, room: usize) -> Option<Pos> {
        let r = self.level.rooms[room].clone();
        if r.irregular {
            let own = room as u8 + crate::level::ROOMOFFSET;
            let good = |level: &Level, x: i32, y: i32| {
                let cell = level.at(x, y);
                !cell.edge && cell.roomno == own
            };
            for _ in 0..100 {
                let x = self.somex(room);
                let y = self.somey(room);
                if good(&self.level, x, y) {
                    return Some(Pos { x, y });
                }
            }
            return (r.lx..=r.hx)
                .flat_map(|x| (r.ly..=r.hy).map(move |y| Pos { x, y }))
                .find(|p| good(&self.level, p.x, p.y));
        }
        if r.subrooms.is_empty() {
            let x = self.somex(room);
            let y = self.somey(room);
            return Some(Pos { x, y });
        }
        for _ in 0..100 {
            let x = self.somex(room);
            let y = self.somey(room);
            if self.level.typ(x, y).is_wall() {
                continue;
            }
            let in_subroom = r.subrooms.iter().any(|&s| {
                let sub = &self.level.subrooms[s];
                (sub.lx..=sub.hx).contains(&x) && (sub.ly..=sub.hy).contains(&y)
            });
            if !in_subroom {
                return Some(Pos { x, y });
            }
        }
        None
    }

    /// A random light state for a room at this depth (`rlit == -1`).
    pub fn random_lit(&mut self) -> bool {
        self.rng.rnd(1 + self.place.depth.abs()) < 11 && self.rng.rn2(77) != 0
    }

    /// `check_room`: keeps a gap of stone around a room, shrinking it (or, one time in three,
    /// giving up) where something is in the way.
    pub fn check_room(
        &mut self,
        lowx: &mut i32,
        ddx: &mut i32,
        lowy: &mut i32,
        ddy: &mut i32,
        vault: bool,
    ) -> bool {
        let mut hix = *lowx + *ddx;
        let mut hiy = *lowy + *ddy;
        let xlim = XLIM + i32::from(vault);
        let ylim = YLIM + i32::from(vault);
        *lowx = (*lowx).max(3);
        *lowy = (*lowy).max(2);
        hix = hix.min(COLNO - 3);
        hiy = hiy.min(ROWNO - 3);
        'check: loop {
            if hix <= *lowx || hiy <= *lowy {
                return false;
            }
            for x in *lowx - xlim..=hix + xlim {
                if x <= 0 || x >= COLNO {
                    continue;
                }
                let ymax = (hiy + ylim).min(ROWNO - 1);
                for y in (*lowy - ylim).max(0)..=ymax {
                    if self.level.typ(x, y) != Terrain::Stone {
                        if self.rng.rn2(3) == 0 {
                            return false;
                        }
                        if x < *lowx {
                            *lowx = x + xlim + 1;
                        } else {
                            hix = x - xlim - 1;
                        }
                        if y < *lowy {
                            *lowy = y + ylim + 1;
                        } else {
                            hiy = y - ylim - 1;
                        }
                        continue 'check;
                    }
                }
            }
            *ddx = hix - *lowx;
            *ddy = hiy - *lowy;
            return true;
        }
    }

    /// `create_room`: a room at a fixed or random place, of fixed or random size. Arguments
    /// are the special-level file's (-1 = random); positions are 1..5 on a 5x5 grid,
    /// alignments 1 left/top, 2 (acts as left), 3 center, 4/5 right/bottom... as in the game.
    /// Returns the floor's top-left corner. A vault is not added to the room list: only its
    /// place is returned, as the game reserves it for later.
    #[allow(clippy::too_many_arguments)]
    pub fn create_room(
        &mut self,
        x: i32,
        y: i32,
        w: i32,
        h: i32,
        xal: i32,
        yal: i32,
        rtype: i32,
        rlit: i32,
    ) -> Option<Pos> {
        let rtype = if rtype == -1 { room_type::OROOM } else { rtype };
        let vault = rtype == room_type::VAULT;
        let (xlim, ylim) = if vault {
            (XLIM + 1, YLIM + 1)
        } else {
            (XLIM, YLIM)
        };
        let lit = if rlit == -1 {
            self.random_lit()
        } else {
            rlit != 0
        };
        let (mut xabs, mut yabs, mut wtmp, mut htmp) = (0, 0, 0, 0);
        let mut r2 = Rect {
            lx: 0,
            ly: 0,
            hx: 0,
            hy: 0,
        };
        let mut found = None;
        for _ in 0..=100 {
            if (x < 0 && y < 0 && w < 0 && xal < 0 && yal < 0) || vault {
                let r1 = self.rects.random(self.rng)?;
                let Rect { lx, ly, hx, hy } = r1;
                let (mut dx, mut dy) = if vault {
                    (1, 1)
                } else {
                    let dx = 2 + self.rng.rn2(if hx - lx > 28 { 12 } else { 8 });
                    let mut dy = 2 + self.rng.rn2(4);
                    if dx * dy > 50 {
                        dy = 50 / dx;
                    }
                    (dx, dy)
                };
                let xborder = if lx > 0 && hx < COLNO - 1 {
                    2 * xlim
                } else {
                    xlim + 1
                };
                let yborder = if ly > 0 && hy < ROWNO - 1 {
                    2 * ylim
                } else {
                    ylim + 1
                };
                if hx - lx < dx + 3 + xborder || hy - ly < dy + 3 + yborder {
                    continue;
                }
                xabs = lx
                    + if lx > 0 { xlim } else { 3 }
                    + self
                        .rng
                        .rn2(hx - if lx > 0 { lx } else { 3 } - dx - xborder + 1);
                yabs = ly
                    + if ly > 0 { ylim } else { 2 }
                    + self
                        .rng
                        .rn2(hy - if ly > 0 { ly } else { 2 } - dy - yborder + 1);
                let nroom = self.level.rooms.len() as i32;
                if ly == 0
                    && hy >= ROWNO - 1
                    && (nroom == 0 || self.rng.rn2(nroom) == 0)
                    && yabs + dy > ROWNO / 2
                {
                    yabs = self.rng.rn1(3, 2);
                    if nroom < 4 && dy > 1 {
                        dy -= 1;
                    }
                }
                if !self.check_room(&mut xabs, &mut dx, &mut yabs, &mut dy, vault) {
                    continue;
                }
                wtmp = dx + 1;
                htmp = dy + 1;
                r2 = Rect {
                    lx: xabs - 1,
                    ly: yabs - 1,
                    hx: xabs + wtmp,
                    hy: yabs + htmp,
                };
                found = Some(r1);
            } else {
                let (mut xtmp, mut ytmp) = (x, y);
                let mut rndpos = 0;
                if xtmp < 0 && ytmp < 0 {
                    xtmp = self.rng.rnd(5);
                    ytmp = self.rng.rnd(5);
                    rndpos = 1;
                }
                wtmp = w;
                htmp = h;
                if wtmp < 0 || htmp < 0 {
                    wtmp = self.rng.rn1(15, 3);
                    htmp = self.rng.rn1(8, 2);
                }
                let xaltmp = if xal == -1 { self.rng.rnd(3) } else { xal };
                let yaltmp = if yal == -1 { self.rng.rnd(3) } else { yal };
                xabs = ((xtmp - 1) * COLNO) / 5 + 1;
                yabs = ((ytmp - 1) * ROWNO) / 5 + 1;
                // sp_lev.h: LEFT 1, H_LEFT 2, CENTER 3, H_RIGHT 4, RIGHT 5; TOP 1, BOTTOM 5.
                match xaltmp {
                    5 => xabs += COLNO / 5 - wtmp,
                    3 => xabs += (COLNO / 5 - wtmp) / 2,
                    _ => {}
                }
                match yaltmp {
                    5 => yabs += ROWNO / 5 - htmp,
                    3 => yabs += (ROWNO / 5 - htmp) / 2,
                    _ => {}
                }
                if xabs + wtmp - 1 > COLNO - 2 {
                    xabs = COLNO - wtmp - 3;
                }
                if xabs < 2 {
                    xabs = 2;
                }
                if yabs + htmp - 1 > ROWNO - 2 {
                    yabs = ROWNO - htmp - 3;
                }
                if yabs < 2 {
                    yabs = 2;
                }
                r2 = Rect {
                    lx: xabs - 1,
                    ly: yabs - 1,
                    hx: xabs + wtmp + rndpos,
                    hy: yabs + htmp + rndpos,
                };
                found = self.rects.containing(&r2);
            }
            if found.is_some() {
                break;
            }
        }
        let r1 = found?;
        self.rects.split(&r1, &r2);
        if !vault {
            let index = self.level.rooms.len();
            if self.smeq.len() <= index {
                self.smeq.resize(index + 1, 0);
            }
            self.smeq[index] = index as i32;
            self.add_room(
                xabs,
                yabs,
                xabs + wtmp - 1,
                yabs + htmp - 1,
                lit,
                rtype,
                false,
            );
        }
        Some(Pos { x: xabs, y: yabs })
    }

    /// `add_room`: a room with its walls drawn (unless `special`), lit with its walls.
    #[allow(clippy::too_many_arguments)]
    pub fn add_room(
        &mut self,
        lowx: i32,
        lowy: i32,
        hix: i32,
        hiy: i32,
        lit: bool,
        rtype: i32,
        special: bool,
    ) {
        let room = self.draw_room(lowx, lowy, hix, hiy, lit, rtype, special);
        let (lx, ly, hx, hy) = (room.lx, room.ly, room.hx, room.hy);
        self.level.rooms.push(room);
        if !special {
            self.level.set_typ(lx - 1, ly - 1, Terrain::TLCorner, None);
            self.level.set_typ(hx + 1, ly - 1, Terrain::TRCorner, None);
            self.level.set_typ(lx - 1, hy + 1, Terrain::BLCorner, None);
            self.level.set_typ(hx + 1, hy + 1, Terrain::BRCorner, None);
        }
    }

    /// `create_subroom`: a room inside room `parent` at a relative position (-1 = random);
    /// the parent's floor must be at least 4x4. Returns the subroom's index.
    #[allow(clippy::too_many_arguments)]
    pub fn create_subroom(
        &mut self,
        parent: usize,
        mut x: i32,
        mut y: i32,
        mut w: i32,
        mut h: i32,
        rtype: i32,
        rlit: i32,
    ) -> Option<usize> {
        let p = self.level.rooms[parent].clone();
        let width = p.hx - p.lx + 1;
        let height = p.hy - p.ly + 1;
        if width < 4 || height < 4 {
            return None;
        }
        if w == -1 {
            w = self.rng.rnd(width - 3);
        }
        if h == -1 {
            h = self.rng.rnd(height - 3);
        }
        if x == -1 {
            x = self.rng.rnd(width - w - 1) - 1;
        }
        if y == -1 {
            y = self.rng.rnd(height - h - 1) - 1;
        }
        if x == 1 {
            x = 0;
        }
        if y == 1 {
            y = 0;
        }
        if x + w + 1 == width {
            x += 1;
        }
        if y + h + 1 == height {
            y += 1;
        }
        let rtype = if rtype == -1 { room_type::OROOM } else { rtype };
        let lit = if rlit == -1 {
            self.random_lit()
        } else {
            rlit != 0
        };
        let (lx, ly) = (p.lx + x, p.ly + y);
        let mut room = self.draw_room(lx, ly, lx + w - 1, ly + h - 1, lit, rtype, false);
        room.parent = Some(parent);
        crate::special::wallification(
            &mut self.level,
            room.lx - 1,
            room.ly - 1,
            room.hx + 1,
            room.hy + 1,
        );
        let index = self.level.subrooms.len();
        self.level.subrooms.push(room);
        self.level.rooms[parent].subrooms.push(index);
        Some(index)
    }

    /// The shared part of `do_room_or_subroom`: bounds, light, walls and floor (corners are
    /// the caller's: rooms get corners, subrooms get their walls recomputed).
    #[allow(clippy::too_many_arguments)]
    fn draw_room(
        &mut self,
        mut lowx: i32,
        mut lowy: i32,
        mut hix: i32,
        mut hiy: i32,
        lit: bool,
        rtype: i32,
        special: bool,
    ) -> Room {
        // Wall-less rooms may touch the map's edge.
        if lowx == 0 {
            lowx += 1;
        }
        if lowy == 0 {
            lowy += 1;
        }
        hix = hix.min(COLNO - 2);
        hiy = hiy.min(ROWNO - 2);
        if lit {
            for x in lowx - 1..=hix + 1 {
                for y in (lowy - 1).max(0)..=hiy + 1 {
                    self.level.at_mut(x, y).lit = true;
                }
            }
        }
        if !special {
            for x in lowx - 1..=hix + 1 {
                for y in [lowy - 1, hiy + 1] {
                    let cell = self.level.at_mut(x, y);
                    cell.typ = Terrain::HWall;
                    cell.horizontal = true;
                }
            }
            for x in [lowx - 1, hix + 1] {
                for y in lowy..=hiy {
                    let cell = self.level.at_mut(x, y);
                    cell.typ = Terrain::VWall;
                    cell.horizontal = false;
                }
            }
            for x in lowx..=hix {
                for y in lowy..=hiy {
                    self.level.at_mut(x, y).typ = Terrain::Room;
                }
            }
        }
        Room {
            lx: lowx,
            hx: hix,
            ly: lowy,
            hy: hiy,
            rtype,
            rlit: lit,
            doorct: 0,
            fdoor: self.level.doors.len() as i32,
            ..Room::default()
        }
    }

    /// The vault reserved by `makerooms`, made now that corridors cannot run into it.
    fn finish_vault(&mut self) {
        let Some(mut at) = self.level.vault else {
            return;
        };
        let (mut w, mut h) = (1, 1);
        let mut ok = self.check_room(&mut at.x, &mut w, &mut at.y, &mut h, true);
        if !ok
            && self.rects.random(self.rng).is_some()
            && let Some(again) = self.create_vault()
        {
            at = again;
            ok = self.check_room(&mut at.x, &mut w, &mut at.y, &mut h, true);
        }
        if !ok {
            self.level.vault = None;
            return;
        }
        self.level.vault = Some(at);
        self.add_room(
            at.x,
            at.y,
            at.x + w,
            at.y + h,
            true,
            room_type::VAULT,
            false,
        );
        self.level.flags.has_vault = true;
        // fill_room: gold on every square. The amount is the caller's draw; the gold itself
        // draws nothing and the reference does not count it.
        let depth = self.place.depth.abs();
        for _ in at.x..=at.x + w {
            for _ in at.y..=at.y + h {
                self.rng.rn1(depth * 100, 51);
            }
        }
        // mk_knox_portal: a 2-in-3 chance of deferring the portal to a later level.
        self.rng.rn2(3);
        if !self.level.flags.noteleport && self.rng.rn2(3) == 0 {
            self.makeniche(Niche::Teleporter);
        }
    }
}

/// What a niche hides (`makeniche`'s trap type).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Niche {
    Plain,
    TrapDoor,
    LevelTeleporter,
    Teleporter,
}
