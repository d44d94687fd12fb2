//! Reachability: which walkable cells of a placed vault a player cannot walk to. The walk
//! starts where the vault meets the level (walkable cells on the map's edge or beside a blank
//! cell), at `@` cells and at stairs, and goes in eight directions, as crawl's movement does,
//! over what crawl lets a walker cross (floor, doors, shallow water, traps, stairs, altars,
//! fountains...; not walls, trees, statues, deep water or lava).

use std::collections::{BTreeMap, BTreeSet};

use super::Outcome;
use super::grid::NONE;
use super::look::Kind;

/// The indexes (into [`Outcome::squares`]) of the floor cells no walk reaches.
pub fn isolated(outcome: &Outcome) -> Vec<usize> {
    let (w, h) = (outcome.width(), outcome.height());
    let walkable = |i: usize| outcome.squares[i].terrain.passable;
    let outside = |i: usize| outcome.squares[i].terrain.kind == Kind::Outside;
    let mut seen = vec![false; w * h];
    let mut queue = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            if !walkable(i) {
                continue;
            }
            let square = &outcome.squares[i];
            let edge = x == 0 || y == 0 || x + 1 == w || y + 1 == h;
            let stair = square.terrain.glyph == '<' || square.terrain.glyph == '>';
            let beside_outside = neighbours(x, y, w, h).any(&outside);
            if edge || stair || beside_outside || square.glyph == b'@' {
                seen[i] = true;
                queue.push(i);
            }
        }
    }
    while let Some(i) = queue.pop() {
        for j in neighbours(i % w, i / w, w, h) {
            if !seen[j] && walkable(j) {
                seen[j] = true;
                queue.push(j);
            }
        }
    }
    // Only floor counts as a pocket: an altar, statue or fountain set in water on purpose
    // is decoration, not a place to walk to.
    (0..w * h)
        .filter(|&i| walkable(i) && !seen[i] && outcome.squares[i].terrain.kind == Kind::Floor)
        .collect()
}

fn neighbours(x: usize, y: usize, w: usize, h: usize) -> impl Iterator<Item = usize> {
    (-1i64..=1)
        .flat_map(|dy| (-1i64..=1).map(move |dx| (dx, dy)))
        .filter(|&(dx, dy)| (dx, dy) != (0, 0))
        .filter_map(move |(dx, dy)| {
            let (nx, ny) = (x as i64 + dx, y as i64 + dy);
            (nx >= 0 && ny >= 0 && (nx as usize) < w && (ny as usize) < h)
                .then(|| ny as usize * w + nx as usize)
        })
}

/// A group of map characters some outcomes wall off.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pocket {
    /// The map characters (`(row, column)` of the vault's map), in reading order.
    pub cells: Vec<(u32, u32)>,
    /// In how many of the seeds some of them were walled off.
    pub seeds_isolated: u32,
    pub seeds: u32,
    /// The first seed that shows it.
    pub example: u64,
}

/// Collects, over outcomes, which map characters were walled off, and groups them.
#[derive(Debug, Default)]
pub struct Survey {
    seeds: u32,
    /// Map character → the seeds (in order) it was walled off in.
    isolated: BTreeMap<(u32, u32), Vec<u64>>,
}

impl Survey {
    pub fn add(&mut self, outcome: &Outcome) {
        self.seeds += 1;
        for i in isolated(outcome) {
            let origin = outcome.squares[i].origin;
            if origin == NONE {
                continue;
            }
            self.isolated
                .entry((origin >> 16, origin & 0xffff))
                .or_default()
                .push(outcome.seed);
        }
    }

    /// The pockets: map characters walled off together (neighbours in the map), each with
    /// the share of seeds and a seed that shows it.
    pub fn pockets(&self) -> Vec<Pocket> {
        let mut left: BTreeSet<(u32, u32)> = self.isolated.keys().copied().collect();
        let mut out = Vec::new();
        while let Some(&first) = left.iter().next() {
            left.remove(&first);
            let mut group = vec![first];
            let mut i = 0;
            while i < group.len() {
                let (r, c) = group[i];
                i += 1;
                for dr in -1i64..=1 {
                    for dc in -1i64..=1 {
                        let (nr, nc) = (r as i64 + dr, c as i64 + dc);
                        if nr < 0 || nc < 0 {
                            continue;
                        }
                        let n = (nr as u32, nc as u32);
                        if left.remove(&n) {
                            group.push(n);
                        }
                    }
                }
            }
            group.sort();
            let mut seeds: BTreeSet<u64> = BTreeSet::new();
            for cell in &group {
                seeds.extend(self.isolated[cell].iter().copied());
            }
            out.push(Pocket {
                cells: group,
                seeds_isolated: seeds.len() as u32,
                seeds: self.seeds,
                example: seeds.iter().next().copied().unwrap_or(0),
            });
        }
        out
    }
}
