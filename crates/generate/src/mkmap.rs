//! INIT_MAP caves (`mkmap.c`): a random fill smoothed like a cellular automaton, its
//! pockets made into irregular rooms and joined by corridors, then walled and lit.

use crate::level::{COLNO, Level, Pos, ROOMOFFSET, ROWNO, SHARED, Terrain, room_type};
use crate::mklev::{Builder, MAX_ROOMS};

const HEIGHT: i32 = ROWNO as i32 - 1;
const WIDTH: i32 = COLNO as i32 - 2;

/// INIT_MAP's parameters as the loader has them (`lit` already drawn when random).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InitMap {
    pub fg: Terrain,
    pub bg: Terrain,
    pub smoothed: bool,
    pub joined: bool,
    pub lit: bool,
    pub walled: bool,
}

const NEIGHBOURS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// `mkmap`.
pub fn mkmap(b: &mut Builder<'_>, init: &InitMap) {
    let (bg, fg) = (init.bg, init.fg);
    for x in 1..COLNO as i32 {
        for y in 0..ROWNO as i32 {
            b.level.at_mut(x, y).typ = bg;
        }
    }
    // Two fifths of the inner area in the foreground terrain.
    let limit = WIDTH * HEIGHT * 2 / 5;
    let mut count = 0;
    while count < limit {
        let x = b.rng.rn1(WIDTH - 1, 2);
        let y = b.rng.rnd(HEIGHT - 1);
        if b.level.typ(x, y) == bg {
            b.level.at_mut(x, y).typ = fg;
            count += 1;
        }
    }
    pass_one(&mut b.level, bg, fg);
    pass_buffered(&mut b.level, bg, fg, |n| n == 5);
    if init.smoothed {
        for _ in 0..2 {
            pass_buffered(&mut b.level, bg, fg, |n| n < 3);
        }
    }
    if init.joined {
        join_map(b, bg, fg);
    }
    finish_map(b, fg, bg, init.lit, init.walled);
    if init.walled && init.joined {
        b.level.flags.is_maze_lev = false;
        b.level.flags.is_cavernous_lev = true;
    }
}

fn get_map(level: &Level, x: i32, y: i32, bg: Terrain) -> Terrain {
    if x <= 0 || y < 0 || x > WIDTH || y >= HEIGHT {
        bg
    } else {
        level.typ(x, y)
    }
}

fn fg_neighbours(level: &Level, x: i32, y: i32, bg: Terrain, fg: Terrain) -> usize {
    NEIGHBOURS
        .iter()
        .filter(|(dx, dy)| get_map(level, x + dx, y + dy, bg) == fg)
        .count()
}

/// Births and deaths, applied in place as the scan goes (as the game does).
fn pass_one(level: &mut Level, bg: Terrain, fg: Terrain) {
    for x in 2..=WIDTH {
        for y in 1..HEIGHT {
            match fg_neighbours(level, x, y, bg, fg) {
                0..=2 => level.at_mut(x, y).typ = bg,
                5..=8 => level.at_mut(x, y).typ = fg,
                _ => {}
            }
        }
    }
}

/// A pass computed on the old map, then applied: squares whose foreground count satisfies
/// `clear` become background.
fn pass_buffered(level: &mut Level, bg: Terrain, fg: Terrain, clear: impl Fn(usize) -> bool) {
    let mut next = vec![Terrain::Stone; COLNO * ROWNO];
    for x in 2..=WIDTH {
        for y in 1..HEIGHT {
            let n = fg_neighbours(level, x, y, bg, fg);
            next[x as usize * ROWNO + y as usize] = if clear(n) {
                bg
            } else {
                get_map(level, x, y, bg)
            };
        }
    }
    for x in 2..=WIDTH {
        for y in 1..HEIGHT {
            level.at_mut(x, y).typ = next[x as usize * ROWNO + y as usize];
        }
    }
}

/// The bounds and size of what a flood fill reached.
pub(crate) struct Filled {
    pub min_x: i32,
    pub min_y: i32,
    pub max_x: i32,
    pub max_y: i32,
    pub count: usize,
    /// The calls of the fill so far, and whether it stopped at [`FILL_CALL_LIMIT`].
    calls: usize,
    pub gave_up: bool,
}

/// The most calls one flood fill may make. A fill from a square its own scan skips (an
/// irregular region starting on water, which the game's left scan steps over) calls itself
/// for that square again from every neighbouring row and never ends: the game would hang on
/// such a level (only a corrupt `.lev` has one). A fill of a real level makes at most about
/// one call per square.
pub const FILL_CALL_LIMIT: usize = 2 * COLNO * ROWNO;

/// `flood_fill_rm`: gives room number `rmno` to the squares of (sx, sy)'s type connected to
/// it, scanning line by line as the game does (its bounds quirks included). With `anyroom`
/// the bordering walls and doors become the room's edge.
pub(crate) fn flood_fill_rm(
    level: &mut Level,
    sx: i32,
    sy: i32,
    rmno: u8,
    lit: bool,
    anyroom: bool,
) -> Filled {
    let mut filled = Filled {
        min_x: sx,
        min_y: sy,
        max_x: sx,
        max_y: sy,
        count: 0,
        calls: 0,
        gave_up: false,
    };
    fill(level, sx, sy, rmno, lit, anyroom, &mut filled);
    filled
}

fn fill(
    level: &mut Level,
    mut sx: i32,
    sy: i32,
    rmno: u8,
    lit: bool,
    anyroom: bool,
    f: &mut Filled,
) {
    f.calls += 1;
    if f.calls > FILL_CALL_LIMIT {
        f.gave_up = true;
        return;
    }
    let fg = level.typ(sx, sy);
    while sx > 0
        && (if anyroom {
            level.typ(sx, sy) >= Terrain::Room
        } else {
            level.typ(sx, sy) == fg
        })
        && level.at(sx, sy).roomno != rmno
    {
        sx -= 1;
    }
    sx += 1;
    f.min_x = f.min_x.min(sx);
    f.min_y = f.min_y.min(sy);
    let mut i = sx;
    while i <= WIDTH && level.typ(i, sy) == fg {
        let cell = level.at_mut(i, sy);
        cell.roomno = rmno;
        cell.lit = lit;
        if anyroom {
            for ii in (if i == sx { i - 1 } else { i })..=i + 1 {
                for jj in sy - 1..=sy + 1 {
                    if Level::isok(ii, jj) {
                        let t = level.typ(ii, jj);
                        if t.is_wall() || t == Terrain::Door {
                            let cell = level.at_mut(ii, jj);
                            cell.edge = true;
                            if lit {
                                cell.lit = true;
                            }
                            if cell.roomno != rmno {
                                cell.roomno = SHARED;
                            }
                        }
                    }
                }
            }
        }
        f.count += 1;
        i += 1;
    }
    let nx = i;
    for ny in [sy - 1, sy + 1] {
        if !Level::isok(sx, ny) {
            continue;
        }
        for i in sx..nx {
            if level.typ(i, ny) == fg {
                if level.at(i, ny).roomno != rmno {
                    fill(level, i, ny, rmno, lit, anyroom, f);
                }
            } else {
                if (i > sx || Level::isok(i - 1, ny))
                    && Level::isok(i - 1, ny)
                    && level.typ(i - 1, ny) == fg
                    && level.at(i - 1, ny).roomno != rmno
                {
                    fill(level, i - 1, ny, rmno, lit, anyroom, f);
                }
                if (i < nx - 1 || Level::isok(i + 1, ny))
                    && Level::isok(i + 1, ny)
                    && level.typ(i + 1, ny) == fg
                    && level.at(i + 1, ny).roomno != rmno
                {
                    fill(level, i + 1, ny, rmno, lit, anyroom, f);
                }
            }
        }
    }
    f.max_x = f.max_x.max(nx - 1);
    f.max_y = f.max_y.max(sy);
}

/// `join_map`: every pocket of more than three squares becomes an irregular room (smaller
/// ones are filled in), then neighbouring rooms are joined by corridors of the foreground.
fn join_map(b: &mut Builder<'_>, bg: Terrain, fg: Terrain) {
    'scan: for x in 2..=WIDTH {
        for y in 1..HEIGHT {
            if b.level.typ(x, y) != fg || b.level.at(x, y).roomno != 0 {
                continue;
            }
            let rmno = b.level.rooms.len() as u8 + ROOMOFFSET;
            let f = flood_fill_rm(&mut b.level, x, y, rmno, false, false);
            if f.count > 3 {
                b.add_room(
                    f.min_x,
                    f.min_y,
                    f.max_x,
                    f.max_y,
                    false,
                    room_type::OROOM,
                    true,
                );
                b.level.rooms.last_mut().unwrap().irregular = true;
                if b.level.rooms.len() >= MAX_ROOMS * 2 {
                    break 'scan;
                }
            } else {
                for sx in f.min_x..=f.max_x {
                    for sy in f.min_y..=f.max_y {
                        if b.level.at(sx, sy).roomno == rmno {
                            let cell = b.level.at_mut(sx, sy);
                            cell.typ = bg;
                            cell.roomno = 0;
                        }
                    }
                }
            }
        }
    }
    let nroom = b.level.rooms.len();
    let mut croom = 0;
    for croom2 in 1..nroom {
        let (sm, em) = match (b.somexy(croom), b.somexy(croom2)) {
            (Some(sm), Some(em)) => (sm, em),
            _ => {
                let (r1, r2) = (&b.level.rooms[croom], &b.level.rooms[croom2]);
                (
                    Pos {
                        x: r1.lx + (r1.hx - r1.lx) / 2,
                        y: r1.ly + (r1.hy - r1.ly) / 2,
                    },
                    Pos {
                        x: r2.lx + (r2.hx - r2.lx) / 2,
                        y: r2.ly + (r2.hy - r2.ly) / 2,
                    },
                )
            }
        };
        b.dig_corridor(sm, em, false, fg, bg);
        let (r1, r2) = (&b.level.rooms[croom], &b.level.rooms[croom2]);
        let beside = r2.lx > r1.hx;
        let apart = r2.ly > r1.hy || r2.hy < r1.ly;
        if beside || (apart && b.rng.rn2(3) != 0) {
            croom = croom2;
        }
    }
}

fn finish_map(b: &mut Builder<'_>, fg: Terrain, bg: Terrain, lit: bool, walled: bool) {
    if walled {
        // lev_comp's wallify: stone beside floor becomes wall, the last floor neighbour in
        // scan order deciding its direction.
        for x in 1..COLNO as i32 {
            for y in 0..ROWNO as i32 {
                if b.level.typ(x, y) != Terrain::Stone {
                    continue;
                }
                for yy in y - 1..=y + 1 {
                    for xx in x - 1..=x + 1 {
                        if Level::isok(xx, yy) && b.level.typ(xx, yy) == Terrain::Room {
                            b.level.at_mut(x, y).typ = if yy != y {
                                Terrain::HWall
                            } else {
                                Terrain::VWall
                            };
                        }
                    }
                }
            }
        }
    }
    if lit {
        for x in 1..COLNO as i32 {
            for y in 0..ROWNO as i32 {
                let t = b.level.typ(x, y);
                if (!fg.is_rock() && t == fg)
                    || (!bg.is_rock() && t == bg)
                    || (bg == Terrain::Tree && t == bg)
                    || (walled && t.is_wall())
                {
                    b.level.at_mut(x, y).lit = true;
                }
            }
        }
        for room in &mut b.level.rooms {
            room.rlit = true;
        }
    }
    for x in 1..COLNO as i32 {
        for y in 0..ROWNO as i32 {
            if b.level.typ(x, y) == Terrain::LavaPool {
                b.level.at_mut(x, y).lit = true;
            }
        }
    }
}

/// `remove_rooms`: a map laid over a joined cave removes the cave rooms entirely inside it.
pub(crate) fn remove_rooms(level: &mut Level, lx: i32, ly: i32, hx: i32, hy: i32) {
    for i in (0..level.rooms.len()).rev() {
        let r = &level.rooms[i];
        if r.hx < lx || r.lx >= hx || r.hy < ly || r.ly >= hy {
            continue;
        }
        if r.lx < lx || r.hx >= hx || r.ly < ly || r.hy >= hy {
            continue;
        }
        // The last room takes the removed one's place, and its squares its number.
        let last = level.rooms.len() - 1;
        if i != last {
            let moved = level.rooms[last].clone();
            let old = last as u8 + ROOMOFFSET;
            let new = i as u8 + ROOMOFFSET;
            for x in moved.lx..=moved.hx {
                for y in moved.ly..=moved.hy {
                    if level.at(x, y).roomno == old {
                        level.at_mut(x, y).roomno = new;
                    }
                }
            }
            level.rooms[i] = moved;
        }
        level.rooms.pop();
    }
}
