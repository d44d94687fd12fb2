//! Doors, corridors and niches (`mklev.c` join/makecorridors/dosdoor/makeniche and
//! `sp_lev.c` dig_corridor).

use super::{Builder, MAX_DOORS, Niche};
use crate::level::{Level, Pos, Terrain, door, room_type};

const COLNO: i32 = crate::level::COLNO as i32;
const ROWNO: i32 = crate::level::ROWNO as i32;

impl Builder<'_> {
    /// `bydoor`: a door or secret door is orthogonally next to (x, y).
    pub fn bydoor(&self, x: i32, y: i32) -> bool {
        [(1, 0), (-1, 0), (0, 1), (0, -1)].iter().any(|(dx, dy)| {
            let (nx, ny) = (x + dx, y + dy);
            Level::isok(nx, ny) && matches!(self.level.typ(nx, ny), Terrain::Door | Terrain::SDoor)
        })
    }

    /// `okdoor`: a plain wall square, not beside another door, with door slots left.
    pub fn okdoor(&self, x: i32, y: i32) -> bool {
        matches!(self.level.typ(x, y), Terrain::HWall | Terrain::VWall)
            && self.level.doors.len() < MAX_DOORS
            && !self.bydoor(x, y)
    }

    /// `finddpos`: a door position on a wall segment: a random square if it will do, else
    /// the first good one, else an existing door, else the segment's bottom-left end.
    pub fn finddpos(&mut self, xl: i32, yl: i32, xh: i32, yh: i32) -> Pos {
        let x = if xl == xh {
            xl
        } else {
            xl + self.rng.rn2(xh - xl + 1)
        };
        let y = if yl == yh {
            yl
        } else {
            yl + self.rng.rn2(yh - yl + 1)
        };
        if self.okdoor(x, y) {
            return Pos { x, y };
        }
        let segment = || (xl..=xh).flat_map(move |x| (yl..=yh).map(move |y| Pos { x, y }));
        if let Some(p) = segment().find(|p| self.okdoor(p.x, p.y)) {
            return p;
        }
        if let Some(p) =
            segment().find(|p| matches!(self.level.typ(p.x, p.y), Terrain::Door | Terrain::SDoor))
        {
            return p;
        }
        Pos { x: xl, y: yh }
    }

    /// `dodoor`: a door, or one time in eight a secret door.
    pub fn dodoor(&mut self, x: i32, y: i32, room: usize) {
        if self.level.doors.len() >= MAX_DOORS {
            return;
        }
        let secret = self.rng.rn2(8) == 0;
        self.dosdoor(x, y, room, secret);
    }

    /// `dosdoor`: makes the door and draws its state.
    pub fn dosdoor(&mut self, x: i32, y: i32, room: usize, mut secret: bool) {
        let shop_door = self.in_shop(x, y);
        if !self.level.typ(x, y).is_wall() {
            // Already a door: never hide it.
            secret = false;
        }
        let difficulty = self.place.difficulty;
        let mask = if !secret {
            let mut mask;
            if self.rng.rn2(3) == 0 {
                mask = if self.rng.rn2(5) == 0 {
                    door::ISOPEN
                } else if self.rng.rn2(6) == 0 {
                    door::LOCKED
                } else {
                    door::CLOSED
                };
                if mask != door::ISOPEN && !shop_door && difficulty >= 5 && self.rng.rn2(25) == 0 {
                    mask |= door::TRAPPED;
                }
            } else {
                mask = if shop_door {
                    door::ISOPEN
                } else {
                    door::NODOOR
                };
            }
            // A trapped door deep down may be a door-mimic instead (making it draws nothing).
            if mask & door::TRAPPED != 0 && difficulty >= 9 && self.rng.rn2(5) == 0 {
                mask = door::NODOOR;
                let mimic = crate::level::What::Class(b'm');
                self.level
                    .record(crate::level::Event::Monster(mimic), x, y, None);
            }
            mask
        } else {
            let mut mask = if shop_door || self.rng.rn2(5) == 0 {
                door::LOCKED
            } else {
                door::CLOSED
            };
            if !shop_door && difficulty >= 4 && self.rng.rn2(20) == 0 {
                mask |= door::TRAPPED;
            }
            mask
        };
        let cell = self.level.at_mut(x, y);
        cell.typ = if secret {
            Terrain::SDoor
        } else {
            Terrain::Door
        };
        cell.flags = mask;
        self.add_door(x, y, room);
    }

    /// Whether (x, y) is in or on the walls of a shop (`in_rooms(x, y, SHOPBASE)`).
    fn in_shop(&self, x: i32, y: i32) -> bool {
        self.level.rooms.iter().any(|r| {
            r.rtype >= room_type::SHOPBASE
                && (r.lx - 1..=r.hx + 1).contains(&x)
                && (r.ly - 1..=r.hy + 1).contains(&y)
        })
    }

    /// `add_door`: the door joins the room's run in the door list (later rooms shift).
    pub fn add_door(&mut self, x: i32, y: i32, room: usize) {
        let rooms = &mut self.level.rooms;
        rooms[room].doorct += 1;
        let at = match rooms.get(room + 1) {
            Some(next) => next.fdoor as usize,
            None => self.level.doors.len(),
        };
        let at = at.min(self.level.doors.len());
        self.level.doors.insert(at, Pos { x, y });
        for later in rooms.iter_mut().skip(room + 1) {
            later.fdoor += 1;
        }
    }

    /// `join`: a corridor between two rooms, from facing walls. `nxcor` corridors are the
    /// extra ones: they may stop short (dead ends) and never start from a non-stone square.
    pub fn join(&mut self, a: usize, b: usize, nxcor: bool) {
        if self.level.doors.len() >= MAX_DOORS {
            return;
        }
        let (croom, troom) = (self.level.rooms[a].clone(), self.level.rooms[b].clone());
        let (dx, dy, cc, tt);
        if troom.lx > croom.hx {
            (dx, dy) = (1, 0);
            cc = self.finddpos(croom.hx + 1, croom.ly, croom.hx + 1, croom.hy);
            tt = self.finddpos(troom.lx - 1, troom.ly, troom.lx - 1, troom.hy);
        } else if troom.hy < croom.ly {
            (dx, dy) = (0, -1);
            cc = self.finddpos(croom.lx, croom.ly - 1, croom.hx, croom.ly - 1);
            tt = self.finddpos(troom.lx, troom.hy + 1, troom.hx, troom.hy + 1);
        } else if troom.hx < croom.lx {
            (dx, dy) = (-1, 0);
            cc = self.finddpos(croom.lx - 1, croom.ly, croom.lx - 1, croom.hy);
            tt = self.finddpos(troom.hx + 1, troom.ly, troom.hx + 1, troom.hy);
        } else {
            (dx, dy) = (0, 1);
            cc = self.finddpos(croom.lx, croom.hy + 1, croom.hx, croom.hy + 1);
            tt = self.finddpos(troom.lx, troom.ly - 1, troom.hx, troom.ly - 1);
        }
        let org = Pos {
            x: cc.x + dx,
            y: cc.y + dy,
        };
        let dest = Pos {
            x: tt.x - dx,
            y: tt.y - dy,
        };
        if nxcor && Level::isok(org.x, org.y) && self.level.typ(org.x, org.y) != Terrain::Stone {
            return;
        }
        if self.okdoor(cc.x, cc.y) || !nxcor {
            self.dodoor(cc.x, cc.y, a);
        }
        let floor = if self.level.flags.arboreal {
            Terrain::Room
        } else {
            Terrain::Corr
        };
        if !self.dig_corridor(org, dest, nxcor, floor, Terrain::Stone) {
            return;
        }
        if self.okdoor(tt.x, tt.y) || !nxcor {
            self.dodoor(tt.x, tt.y, b);
        }
        let (la, lb) = (self.smeq[a], self.smeq[b]);
        if la < lb {
            self.smeq[b] = la;
        } else {
            self.smeq[a] = lb;
        }
    }

    /// `makecorridors`: neighbours first, then every other room, then whatever is still
    /// apart, then a few extra corridors that may dead-end.
    pub fn makecorridors(&mut self) {
        let nroom = self.level.rooms.len();
        if self.smeq.len() < nroom {
            self.smeq.extend(self.smeq.len() as i32..nroom as i32);
        }
        for a in 0..nroom.saturating_sub(1) {
            self.join(a, a + 1, false);
            if self.rng.rn2(50) == 0 {
                break;
            }
        }
        for a in 0..nroom.saturating_sub(2) {
            if self.smeq[a] != self.smeq[a + 2] {
                self.join(a, a + 2, false);
            }
        }
        let mut any = true;
        let mut a = 0;
        while any && a < nroom {
            any = false;
            for b in 0..nroom {
                if self.smeq[a] != self.smeq[b] {
                    self.join(a, b, false);
                    any = true;
                }
            }
            a += 1;
        }
        if nroom > 2 {
            let n = nroom as i32;
            for _ in 0..self.rng.rn2(n) + 4 {
                let a = self.rng.rn2(n);
                let mut b = self.rng.rn2(n - 2);
                if b >= a {
                    b += 2;
                }
                self.join(a as usize, b as usize, true);
            }
        }
    }

    /// `dig_corridor`: digs from `org` towards `dest` through `btyp`, laying `ftyp` (1% of a
    /// plain corridor hidden). False when it had to stop.
    pub fn dig_corridor(
        &mut self,
        org: Pos,
        dest: Pos,
        nxcor: bool,
        ftyp: Terrain,
        btyp: Terrain,
    ) -> bool {
        let (mut xx, mut yy, tx, ty) = (org.x, org.y, dest.x, dest.y);
        if xx <= 0
            || yy <= 0
            || tx <= 0
            || ty <= 0
            || xx > COLNO - 1
            || tx > COLNO - 1
            || yy > ROWNO - 1
            || ty > ROWNO - 1
        {
            return false;
        }
        let (mut dx, mut dy) = if tx > xx {
            (1, 0)
        } else if ty > yy {
            (0, 1)
        } else if tx < xx {
            (-1, 0)
        } else {
            (0, -1)
        };
        xx -= dx;
        yy -= dy;
        let passable = |t: Terrain| t == btyp || t == ftyp || t == Terrain::SCorr;
        let mut steps = 0;
        while xx != tx || yy != ty {
            steps += 1;
            if steps > 501 || (nxcor && self.rng.rn2(35) == 0) {
                return false;
            }
            xx += dx;
            yy += dy;
            if xx >= COLNO - 1 || xx <= 0 || yy <= 0 || yy >= ROWNO - 1 {
                return false;
            }
            let typ = self.level.typ(xx, yy);
            if typ == btyp {
                if ftyp != Terrain::Corr || self.rng.rn2(100) != 0 {
                    self.level.set_typ(xx, yy, ftyp, None);
                    // A boulder one time in fifty: the draw is made, the boulder (an object)
                    // draws nothing and is not counted by the reference.
                    if nxcor && self.rng.rn2(50) == 0 {
                        let boulder = crate::special::object_index("boulder");
                        let what = crate::level::What::Index(boulder);
                        self.level
                            .record(crate::level::Event::Object(what), xx, yy, None);
                    }
                } else {
                    self.level.set_typ(xx, yy, Terrain::SCorr, None);
                }
            } else if typ != ftyp && typ != Terrain::SCorr {
                return false;
            }
            let dix = (xx - tx).abs();
            let diy = (yy - ty).abs();
            if dy != 0 && dix > diy {
                let ddx = if xx > tx { -1 } else { 1 };
                if passable(self.level.typ(xx + ddx, yy)) {
                    (dx, dy) = (ddx, 0);
                    continue;
                }
            } else if dx != 0 && diy > dix {
                let ddy = if yy > ty { -1 } else { 1 };
                if passable(self.level.typ(xx, yy + ddy)) {
                    (dx, dy) = (0, ddy);
                    continue;
                }
            }
            if passable(self.level.typ(xx + dx, yy + dy)) {
                continue;
            }
            if dx != 0 {
                dx = 0;
                dy = if ty < yy { -1 } else { 1 };
            } else {
                dy = 0;
                dx = if tx < xx { -1 } else { 1 };
            }
            if passable(self.level.typ(xx + dx, yy + dy)) {
                continue;
            }
            dx = -dx;
            dy = -dy;
        }
        true
    }

    /// `make_niches`: a few closets off room walls, some hiding a trapdoor or a level
    /// teleporter.
    pub(crate) fn make_niches(&mut self) {
        let nroom = self.level.rooms.len() as i32;
        let count = self.rng.rnd(nroom / 2 + 1);
        let depth = self.place.depth;
        let mut level_teleporter = !self.level.flags.noteleport && depth > 15;
        let mut trapdoor = depth > 5 && depth < 25;
        for _ in 0..count {
            if level_teleporter && self.rng.rn2(6) == 0 {
                level_teleporter = false;
                self.makeniche(Niche::LevelTeleporter);
            } else if trapdoor && self.rng.rn2(6) == 0 {
                trapdoor = false;
                self.makeniche(Niche::TrapDoor);
            } else {
                self.makeniche(Niche::Plain);
            }
        }
    }

    /// `place_niche`: a spot on the top or bottom wall with stone beyond it.
    fn place_niche(&mut self, room: usize) -> Option<(Pos, i32)> {
        let r = &self.level.rooms[room];
        let (lx, hx, ly, hy) = (r.lx, r.hx, r.ly, r.hy);
        let (dy, at) = if self.rng.rn2(2) != 0 {
            (1, self.finddpos(lx, hy + 1, hx, hy + 1))
        } else {
            (-1, self.finddpos(lx, ly - 1, hx, ly - 1))
        };
        let beyond = (at.x, at.y + dy);
        let inside = (at.x, at.y - dy);
        let ok = Level::isok(beyond.0, beyond.1)
            && self.level.typ(beyond.0, beyond.1) == Terrain::Stone
            && Level::isok(inside.0, inside.1)
            && !self.level.typ(inside.0, inside.1).is_pool()
            && !self.level.typ(inside.0, inside.1).is_furniture();
        ok.then_some((at, dy))
    }

    /// `makeniche`: up to eight tries at a niche in an ordinary room.
    pub(crate) fn makeniche(&mut self, kind: Niche) {
        if self.level.doors.len() >= MAX_DOORS {
            return;
        }
        for _ in 0..8 {
            let nroom = self.level.rooms.len() as i32;
            let room = self.rng.rn2(nroom) as usize;
            if self.level.rooms[room].rtype != room_type::OROOM {
                continue;
            }
            if self.level.rooms[room].doorct == 1 && self.rng.rn2(5) != 0 {
                continue;
            }
            let Some((at, dy)) = self.place_niche(room) else {
                continue;
            };
            let (nx, ny) = (at.x, at.y + dy);
            if kind != Niche::Plain || self.rng.rn2(4) == 0 {
                self.level.set_typ(nx, ny, Terrain::SCorr, None);
                // Making the trap draws nothing; the hint engraved in the dust inside the
                // room is worn a little, which does draw.
                let hint: Option<&[u8]> = match kind {
                    Niche::TrapDoor => Some(b"Vlad was here"),
                    Niche::Teleporter | Niche::LevelTeleporter => Some(b"ad aerarium"),
                    Niche::Plain => None,
                };
                if let Some(hint) = hint {
                    let mut text = hint.to_vec();
                    crate::engrave::wipe_out(self.rng, &mut text, 5);
                }
                self.dosdoor(at.x, at.y, room, true);
            } else {
                self.level.set_typ(nx, ny, Terrain::Corr, None);
                if self.rng.rn2(7) != 0 {
                    let secret = self.rng.rn2(5) != 0;
                    self.dosdoor(at.x, at.y, room, secret);
                } else {
                    if !self.level.flags.noteleport {
                        // A scroll of teleportation.
                        self.objects_skipped += 1;
                    }
                    if self.rng.rn2(3) == 0 {
                        self.objects_skipped += 1;
                    }
                }
            }
            return;
        }
    }
}
