//! The free-rectangle list of `rect.c`: the parts of the map where a new room may still go.
//! Its order matters: `rnd_rect` picks by index, and removal moves the last entry into the
//! hole, so a port must keep exactly the game's order.

use crate::rng::Rng;

/// At most this many free rectangles are remembered (`MAXRECT`).
pub const MAX_RECTS: usize = 50;
/// The stone gap kept around rooms (`XLIM`, `YLIM`).
pub const XLIM: i32 = 4;
pub const YLIM: i32 = 3;

const COLNO: i32 = crate::level::COLNO as i32;
const ROWNO: i32 = crate::level::ROWNO as i32;

/// An inclusive rectangle of squares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    pub lx: i32,
    pub ly: i32,
    pub hx: i32,
    pub hy: i32,
}

impl Rect {
    pub fn contains(&self, inner: &Rect) -> bool {
        inner.lx >= self.lx && inner.ly >= self.ly && inner.hx <= self.hx && inner.hy <= self.hy
    }

    /// The overlap of two rectangles, if any.
    pub fn intersection(&self, other: &Rect) -> Option<Rect> {
        if other.lx > self.hx || other.ly > self.hy || other.hx < self.lx || other.hy < self.ly {
            return None;
        }
        let r = Rect {
            lx: other.lx.max(self.lx),
            ly: other.ly.max(self.ly),
            hx: other.hx.min(self.hx),
            hy: other.hy.min(self.hy),
        };
        (r.lx <= r.hx && r.ly <= r.hy).then_some(r)
    }
}

/// The list lives in a fixed array, as in the game: `split` can read entries past the end of
/// the list after a nested split shrank it, and those stale entries must be the game's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rects {
    slots: [Rect; MAX_RECTS + 1],
    count: usize,
}

impl Default for Rects {
    fn default() -> Self {
        Rects::new()
    }
}

impl Rects {
    /// `init_rect`: the whole map is free.
    pub fn new() -> Rects {
        let mut slots = [Rect {
            lx: 0,
            ly: 0,
            hx: 0,
            hy: 0,
        }; MAX_RECTS + 1];
        slots[0] = Rect {
            lx: 0,
            ly: 0,
            hx: COLNO - 1,
            hy: ROWNO - 1,
        };
        Rects { slots, count: 1 }
    }

    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    pub fn as_slice(&self) -> &[Rect] {
        &self.slots[..self.count]
    }

    /// `rnd_rect`: one draw when the list is not empty.
    pub fn random(&self, rng: &mut Rng) -> Option<Rect> {
        if self.count == 0 {
            return None;
        }
        Some(self.slots[rng.rn2(self.count as i32) as usize])
    }

    /// `get_rect`: the first free rectangle that holds `r`.
    pub fn containing(&self, r: &Rect) -> Option<Rect> {
        self.as_slice()
            .iter()
            .find(|free| free.contains(r))
            .copied()
    }

    /// `remove_rect`: the last entry takes the removed one's place.
    pub fn remove(&mut self, r: &Rect) {
        if let Some(i) = self.as_slice().iter().position(|free| free == r) {
            self.count -= 1;
            self.slots[i] = self.slots[self.count];
        }
    }

    /// `add_rect`: ignored when the list is full or `r` lies inside a free rectangle.
    pub fn add(&mut self, r: Rect) {
        if self.count >= MAX_RECTS || self.containing(&r).is_some() {
            return;
        }
        self.slots[self.count] = r;
        self.count += 1;
    }

    /// `split_rects`: takes `used` (a room with its walls, inside `from`) out of the free
    /// space, keeping the bands around it that are wide enough for another room.
    pub fn split(&mut self, from: &Rect, used: &Rect) {
        let old = *from;
        self.remove(from);
        // Walk down from the current end; nested splits may shrink the list, and the walk
        // then reads stale slots, as the game does.
        for i in (0..self.count).rev() {
            let free = self.slots[i];
            if let Some(overlap) = free.intersection(used) {
                self.split(&free, &overlap);
            }
        }
        if used.ly - old.ly - 1
            > (if old.hy < ROWNO - 1 {
                2 * YLIM
            } else {
                YLIM + 1
            }) + 4
        {
            self.add(Rect {
                hy: used.ly - 2,
                ..old
            });
        }
        if used.lx - old.lx - 1
            > (if old.hx < COLNO - 1 {
                2 * XLIM
            } else {
                XLIM + 1
            }) + 4
        {
            self.add(Rect {
                hx: used.lx - 2,
                ..old
            });
        }
        if old.hy - used.hy - 1 > (if old.ly > 0 { 2 * YLIM } else { YLIM + 1 }) + 4 {
            self.add(Rect {
                ly: used.hy + 2,
                ..old
            });
        }
        if old.hx - used.hx - 1 > (if old.lx > 0 { 2 * XLIM } else { XLIM + 1 }) + 4 {
            self.add(Rect {
                lx: used.hx + 2,
                ..old
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_room_in_the_middle_leaves_four_overlapping_bands() {
        let mut rects = Rects::new();
        let all = rects.as_slice()[0];
        rects.split(
            &all,
            &Rect {
                lx: 30,
                ly: 8,
                hx: 40,
                hy: 12,
            },
        );
        assert_eq!(
            rects.as_slice(),
            [
                Rect {
                    lx: 0,
                    ly: 0,
                    hx: 28,
                    hy: 20
                },
                Rect {
                    lx: 42,
                    ly: 0,
                    hx: 79,
                    hy: 20
                },
            ],
            "the bands above and below are too thin (7 and 7 rows)"
        );
    }
}
