//! Stocking a special room of a special level: `fill_room` (`sp_lev.c`) for vaults and
//! `fill_zoo` (`mkroom.c`) for zoos, throne rooms, beehives, morgues and barracks.
//!
//! Following the reference loads' conventions, making a monster or an object draws nothing
//! and is only recorded; the monster-type choosers of courts, barracks and morgues are
//! recorded as `chooser ...`. Every other draw (gold amounts, the morgue's corpses, boxes
//! and graves, the beehive's royal jelly, the barracks' payroll) is the game's.

use super::load::{Loader, RoomRef, monster_index, object_index, room_number};
use crate::level::{Event, Level, Pos, ROOMOFFSET, Terrain, What, door, room_type};

impl Loader<'_> {
    /// The stocking part of `fill_room`: a vault's gold, or `fill_zoo` for the crowded
    /// room types. Shops are not stocked here (see `fill_room`).
    pub(crate) fn stock_special_room(&mut self, which: RoomRef) {
        let rtype = self.room(which).rtype;
        match rtype {
            room_type::VAULT => {
                let r = self.room(which).clone();
                let depth = self.b.place.depth.abs();
                for x in r.lx..=r.hx {
                    for y in r.ly..=r.hy {
                        let amount = self.b.rng.rn1((depth * 100).max(1), 51);
                        self.b
                            .level
                            .record(Event::Object(What::Gold(amount)), x, y, None);
                    }
                }
            }
            room_type::COURT
            | room_type::ZOO
            | room_type::BEEHIVE
            | room_type::MORGUE
            | room_type::BARRACKS => self.fill_zoo(which),
            _ => {}
        }
    }

    /// Whether `fill_room` stocks this room type itself (shops are left out).
    pub(crate) fn stocks_itself(rtype: i32) -> bool {
        matches!(
            rtype,
            room_type::VAULT
                | room_type::COURT
                | room_type::ZOO
                | room_type::BEEHIVE
                | room_type::MORGUE
                | room_type::BARRACKS
        )
    }

    /// `fill_zoo`: a sleeping monster on every free square of the room, with the type's
    /// treasure; a court gets its throne and the royal coffers.
    fn fill_zoo(&mut self, which: RoomRef) {
        let room = self.room(which).clone();
        let rtype = room.rtype;
        let own = room_number(which);
        let difficulty = self.b.place.difficulty;
        let first_door = usize::try_from(room.fdoor)
            .ok()
            .and_then(|i| self.b.level.doors.get(i).copied());
        let door = if room.doorct > 0 { first_door } else { None };
        let (mut tx, mut ty, mut goldlim) = (0, 0, 0);
        match rtype {
            room_type::COURT => {
                let mut placed = false;
                if self.b.level.flags.is_maze_lev {
                    'find: for x in room.lx..=room.hx {
                        for y in room.ly..=room.hy {
                            if self.b.level.typ(x, y) == Terrain::Throne {
                                (tx, ty) = (x, y);
                                placed = true;
                                break 'find;
                            }
                        }
                    }
                }
                if !placed {
                    let mut tries = 100;
                    loop {
                        if let Some(p) = self.somexy(which) {
                            (tx, ty) = (p.x, p.y);
                        }
                        tries -= 1;
                        if !(self.b.occupied(tx, ty) && tries > 0) {
                            break;
                        }
                    }
                }
            }
            room_type::BEEHIVE => {
                tx = room.lx + (room.hx - room.lx + 1) / 2;
                ty = room.ly + (room.hy - room.ly + 1) / 2;
                if room.irregular && Level::isok(tx, ty) {
                    let cell = self.b.level.at(tx, ty);
                    if (cell.roomno != own || cell.edge)
                        && let Some(p) = self.somexy(which)
                    {
                        (tx, ty) = (p.x, p.y);
                    }
                }
            }
            room_type::ZOO => goldlim = 500 * difficulty,
            _ => {}
        }
        for sx in room.lx..=room.hx {
            for sy in room.ly..=room.hy {
                if !Level::isok(sx, sy) {
                    continue;
                }
                if room.irregular {
                    let cell = self.b.level.at(sx, sy);
                    let by_door = door.is_some_and(|d| distmin(sx, sy, d) <= 1);
                    if cell.roomno != own || cell.edge || by_door {
                        continue;
                    }
                } else {
                    // SPACE_POS: anything above a door.
                    let blocked = door.is_some_and(|d| {
                        (sx == room.lx && d.x == sx - 1)
                            || (sx == room.hx && d.x == sx + 1)
                            || (sy == room.ly && d.y == sy - 1)
                            || (sy == room.hy && d.y == sy + 1)
                    });
                    if self.b.level.typ(sx, sy) <= Terrain::Door || blocked {
                        continue;
                    }
                }
                if rtype == room_type::COURT && self.b.level.typ(sx, sy) == Terrain::Throne {
                    continue;
                }
                let monster = match rtype {
                    room_type::COURT => What::Chooser("court"),
                    room_type::BARRACKS => What::Chooser("soldier"),
                    room_type::MORGUE => What::Chooser("morgue"),
                    room_type::BEEHIVE if sx == tx && sy == ty => {
                        What::Index(monster_index("queen bee"))
                    }
                    room_type::BEEHIVE => What::Index(monster_index("killer bee")),
                    _ => What::Random,
                };
                self.b.level.record(Event::Monster(monster), sx, sy, None);
                match rtype {
                    room_type::ZOO => {
                        let mut i = match door {
                            Some(d) => {
                                let distval = (sx - d.x).pow(2) + (sy - d.y).pow(2);
                                distval.saturating_mul(distval)
                            }
                            None => goldlim,
                        };
                        if i >= goldlim {
                            i = 5 * difficulty;
                        }
                        goldlim -= i;
                        let amount = self.b.rng.rn1(i.max(1), 10);
                        self.object(What::Gold(amount), sx, sy);
                    }
                    room_type::MORGUE => {
                        if self.b.rng.rn2(5) == 0 {
                            self.object(What::Index(object_index("corpse")), sx, sy);
                        }
                        if self.b.rng.rn2(10) == 0 {
                            self.box_or_chest(sx, sy);
                        }
                        if self.b.rng.rn2(5) == 0 {
                            self.make_grave(sx, sy);
                        }
                    }
                    room_type::BEEHIVE => {
                        let jelly = self.b.rng.rn2(3) == 0;
                        if jelly {
                            let what = What::Index(object_index("lump of royal jelly"));
                            self.object(what, sx, sy);
                        }
                    }
                    room_type::BARRACKS => {
                        let payroll = self.b.rng.rn2(20) == 0;
                        if payroll {
                            self.box_or_chest(sx, sy);
                        }
                    }
                    _ => {}
                }
            }
        }
        let flags = &mut self.b.level.flags;
        match rtype {
            room_type::COURT => {
                if Level::isok(tx, ty) {
                    self.b.level.at_mut(tx, ty).typ = Terrain::Throne;
                }
                let p = self.somexy(which).unwrap_or(Pos { x: tx, y: ty });
                let amount = self.b.rng.rn1((50 * difficulty).max(1), 10);
                self.object(What::Gold(amount), p.x, p.y);
                self.object(What::Index(object_index("chest")), p.x, p.y);
                self.b.level.flags.has_court = true;
            }
            room_type::BARRACKS => flags.has_barracks = true,
            room_type::ZOO => flags.has_zoo = true,
            room_type::MORGUE => flags.has_morgue = true,
            room_type::BEEHIVE => flags.has_beehive = true,
            _ => {}
        }
    }

    fn object(&mut self, what: What, x: i32, y: i32) {
        self.b.level.record(Event::Object(what), x, y, None);
    }

    /// The treasure of the dead and the barracks' payroll: a large box two times in three.
    fn box_or_chest(&mut self, x: i32, y: i32) {
        let name = if self.b.rng.rn2(3) != 0 {
            "large box"
        } else {
            "chest"
        };
        self.object(What::Index(object_index(name)), x, y);
    }

    /// `make_grave`: on a floor (or grave) square without a trap, a grave whose headstone
    /// reads one of the game's 29 epitaphs.
    pub(crate) fn make_grave(&mut self, x: i32, y: i32) {
        let typ = self.b.level.typ(x, y);
        let trapped = self.b.level.traps.iter().any(|t| t.at == Pos { x, y });
        if !matches!(typ, Terrain::Room | Terrain::Grave) || trapped {
            return;
        }
        self.b.level.at_mut(x, y).typ = Terrain::Grave;
        let k = self.b.rng.rn2(29);
        self.make_engraving(Pos { x, y }, 6, format!("epitaph#{k}"), None);
    }
}

/// `distmin`: the king-move distance.
fn distmin(x: i32, y: i32, d: Pos) -> i32 {
    (x - d.x).abs().max((y - d.y).abs())
}

impl Loader<'_> {
    /// Fort Ludios' treasury (`fixup_special`): the unfilled morgue becomes an ordinary room
    /// holding gold on every square, a third of them trapped with a land mine or a spiked
    /// pit.
    pub(crate) fn stock_treasury(&mut self) {
        let Some(index) = self
            .b
            .level
            .rooms
            .iter()
            .position(|r| r.rtype == room_type::MORGUE)
        else {
            return;
        };
        self.b.level.flags.graveyard = false;
        self.b.level.flags.has_morgue = false;
        self.b.level.rooms[index].rtype = room_type::OROOM;
        let r = self.b.level.rooms[index].clone();
        for x in r.lx..=r.hx {
            for y in r.ly..=r.hy {
                let amount = self.b.rng.rn1(300, 600);
                self.object(What::Gold(amount), x, y);
                if self.b.rng.rn2(3) == 0 && !self.is_pool(x, y) {
                    let kind = if self.b.rng.rn2(3) != 0 {
                        super::things::LANDMINE
                    } else {
                        super::things::SPIKED_PIT
                    };
                    self.maketrap(Pos { x, y }, kind, None);
                }
            }
        }
    }
}

impl Loader<'_> {
    /// `stock_room` as the reference loads stand it in: the shopkeeper inside the first
    /// door (`shkinit`; no shop without one), the door repairs, then one `shop-item` per
    /// square that is not next to the shopkeeper's door. Nothing is drawn.
    pub(crate) fn stock_shop(&mut self, which: RoomRef) {
        let room = self.room(which).clone();
        let own = room_number(which);
        let Some(door_at) = usize::try_from(room.fdoor)
            .ok()
            .and_then(|i| self.b.level.doors.get(i).copied())
        else {
            return;
        };
        let (mut sx, mut sy) = (door_at.x, door_at.y);
        let inside = |level: &Level, x: i32, y: i32| {
            Level::isok(x, y) && !level.at(x, y).edge && level.at(x, y).roomno == own
        };
        if room.irregular {
            if inside(&self.b.level, sx - 1, sy) {
                sx -= 1;
            } else if inside(&self.b.level, sx + 1, sy) {
                sx += 1;
            } else if inside(&self.b.level, sx, sy - 1) {
                sy -= 1;
            } else if inside(&self.b.level, sx, sy + 1) {
                // The game moves along x here too.
                sx += 1;
            } else {
                return;
            }
        } else if sx == room.lx - 1 {
            sx += 1;
        } else if sx == room.hx + 1 {
            sx -= 1;
        } else if sy == room.ly - 1 {
            sy += 1;
        } else if sy == room.hy + 1 {
            sy -= 1;
        } else {
            return;
        }
        let shopkeeper = What::Index(monster_index("shopkeeper"));
        self.b
            .level
            .record(Event::Monster(shopkeeper), sx, sy, None);

        // The door repairs.
        let (dx, dy) = (door_at.x, door_at.y);
        if Level::isok(dx, dy) {
            let cell = self.b.level.at_mut(dx, dy);
            if cell.flags == door::NODOOR && cell.typ != Terrain::SDoor {
                cell.flags = door::ISOPEN;
            }
            if cell.typ == Terrain::SDoor {
                // `cvt_sdoor_to_door`: a newly exposed door is closed unless locked.
                let mut mask = cell.flags & !0x07;
                if mask & door::LOCKED == 0 {
                    mask |= door::CLOSED;
                }
                cell.typ = Terrain::Door;
                cell.flags = mask;
            }
            if cell.flags & door::TRAPPED != 0 {
                cell.flags = door::LOCKED;
            }
            if cell.flags == door::LOCKED {
                let (mut m, mut n) = (dx, dy);
                if self.inside_shop(dx + 1, dy) {
                    m -= 1;
                } else if self.inside_shop(dx - 1, dy) {
                    m += 1;
                }
                if self.inside_shop(dx, dy + 1) {
                    n -= 1;
                } else if self.inside_shop(dx, dy - 1) {
                    n += 1;
                }
                self.make_engraving(Pos { x: m, y: n }, 1, "Closed for inventory".into(), None);
            }
        }

        let kind = room.rtype - room_type::SHOPBASE;
        for x in room.lx..=room.hx {
            for y in room.ly..=room.hy {
                if room.irregular {
                    let cell = self.b.level.at(x, y);
                    if cell.edge || cell.roomno != own || distmin(x, y, door_at) <= 1 {
                        continue;
                    }
                } else if (x == room.lx && door_at.x == x - 1)
                    || (x == room.hx && door_at.x == x + 1)
                    || (y == room.ly && door_at.y == y - 1)
                    || (y == room.hy && door_at.y == y + 1)
                {
                    continue;
                }
                self.object(What::ShopItem(kind), x, y);
            }
        }
        self.b.level.flags.has_shop = true;
    }

    /// `inside_shop`: on the floor of a shop.
    fn inside_shop(&self, x: i32, y: i32) -> bool {
        if !Level::isok(x, y) {
            return false;
        }
        let cell = self.b.level.at(x, y);
        if cell.roomno < ROOMOFFSET || cell.edge {
            return false;
        }
        let slot = usize::from(cell.roomno - ROOMOFFSET);
        let room = if slot <= crate::mklev::MAX_ROOMS {
            self.b.level.rooms.get(slot)
        } else {
            self.b
                .level
                .subrooms
                .get(slot - crate::mklev::MAX_ROOMS - 1)
        };
        room.is_some_and(|r| r.rtype >= room_type::SHOPBASE)
    }
}

impl Loader<'_> {
    /// `add_door` for a subroom: the door joins the subroom's run in the door list; later
    /// subrooms shift, rooms do not (as in the game, whose subrooms follow the rooms).
    pub(crate) fn add_subroom_door(&mut self, p: Pos, which: RoomRef) {
        let RoomRef::Sub(i) = which else {
            return;
        };
        let doors = self.b.level.doors.len();
        let subrooms = &mut self.b.level.subrooms;
        subrooms[i].doorct += 1;
        let at = subrooms
            .get(i + 1)
            .map_or(doors, |next| usize::try_from(next.fdoor).unwrap_or(doors))
            .min(doors);
        for later in subrooms.iter_mut().skip(i + 1) {
            later.fdoor += 1;
        }
        self.b.level.doors.insert(at, p);
    }
}

impl Loader<'_> {
    /// Medusa's extra statues (`fixup_special`): up to four at random good squares of the
    /// level's one room, then one more anywhere in it, whose position the reference build
    /// draws y first (it evaluates call arguments right to left). A statue's monster counts
    /// as a human, so the game's re-draw loops for stone-resistant monsters stop at once.
    pub(crate) fn medusa_statues(&mut self) {
        if self.b.level.rooms.is_empty() {
            return;
        }
        let statue = What::Index(object_index("statue"));
        for _ in 0..self.b.rng.rnd(4) {
            let x = self.b.somex(0);
            let y = self.b.somey(0);
            if self.goodpos(x, y) {
                self.object(statue.clone(), x, y);
            }
        }
        let _player_statue = self.b.rng.rn2(2);
        let y = self.b.somey(0);
        let x = self.b.somex(0);
        self.object(statue, x, y);
    }

    /// `goodpos` for no monster in particular: an accessible square that is not a closed
    /// door and holds no boulder (the hero is off the map).
    fn goodpos(&self, x: i32, y: i32) -> bool {
        if !Level::isok(x, y) {
            return false;
        }
        let cell = self.b.level.at(x, y);
        if !cell.typ.is_accessible() {
            return false;
        }
        if cell.typ == Terrain::Door && cell.flags & (door::LOCKED | door::CLOSED) != 0 {
            return false;
        }
        let boulder = object_index("boulder") as i16;
        !self
            .objects_at
            .iter()
            .any(|&(p, id)| p == Pos { x, y } && id == boulder)
    }
}

/// The air bubbles' shapes (`mk_bubble`): width, height, then one bit row per line.
const BUBBLES: [&[u8]; 7] = [
    &[2, 1, 0x3],
    &[3, 2, 0x7, 0x7],
    &[4, 3, 0x6, 0xf, 0x6],
    &[5, 3, 0xe, 0x1f, 0xe],
    &[6, 4, 0x1e, 0x3f, 0x3f, 0x1e],
    &[7, 4, 0x3e, 0x7f, 0x7f, 0x3e],
    &[8, 4, 0x7e, 0xff, 0xff, 0x7e],
];

impl Loader<'_> {
    /// The Plane of Water's air bubbles (`setup_waterlevel`, `mk_bubble`, the first
    /// `mv_bubble`), made before the level regions are placed: a grid of bubbles with a
    /// random spacing, each of a random shape and drift, its squares turned into lit air.
    pub(crate) fn water_bubbles(&mut self) {
        let (bxmin, bymin, bxmax, bymax) = (4, 2, 77, 19);
        let xskip = 10 + self.b.rng.rn2(10);
        let yskip = 4 + self.b.rng.rn2(4);
        let mut x0 = bxmin;
        while x0 <= bxmax {
            let mut y0 = bymin;
            while y0 <= bymax {
                let n = self.b.rng.rn2(7) as usize;
                if x0 < bxmax && y0 < bymax {
                    let shape = BUBBLES[n];
                    let (w, h) = (i32::from(shape[0]), i32::from(shape[1]));
                    let x = if x0 + w - 1 > bxmax {
                        bxmax - w + 1
                    } else {
                        x0
                    };
                    let y = if y0 + h - 1 > bymax {
                        bymax - h + 1
                    } else {
                        y0
                    };
                    let _dx = 1 - self.b.rng.rn2(3);
                    let _dy = 1 - self.b.rng.rn2(3);
                    let (x, y) = (x.max(bxmin), y.max(bymin));
                    for i in 0..w {
                        for j in 0..h {
                            if shape[(j + 2) as usize] & (1 << i) != 0 && Level::isok(x + i, y + j)
                            {
                                let cell = self.b.level.at_mut(x + i, y + j);
                                cell.typ = Terrain::Air;
                                cell.lit = true;
                            }
                        }
                    }
                }
                y0 += yskip;
            }
            x0 += xskip;
        }
    }
}
