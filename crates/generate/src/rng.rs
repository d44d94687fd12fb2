//! NetHack 3.4.3's random numbers on Linux: glibc `random()` (the TYPE_3 additive feedback
//! generator) seeded with `srandom(seed)`. The game's helpers are one draw each.

/// glibc's `random()` state after `srandom(seed)`.
#[derive(Clone)]
pub struct Rng {
    table: [u32; 34],
    /// Index of the next slot to write, modulo 34 (a ring of the last 34 values).
    next: usize,
    /// How many raw draws were made; a cheap fingerprint for tests and debugging.
    pub draws: u64,
}

impl Rng {
    /// `srandom(seed)`: a Lehmer sequence fills 31 words, 3 more copy the first ones, then the
    /// additive recurrence runs 310 times before the first output.
    pub fn new(seed: u32) -> Rng {
        let mut table = [0u32; 34];
        // glibc takes the seed as a signed int and replaces 0 with 1.
        let mut word = if seed == 0 { 1i32 } else { seed as i32 };
        table[0] = word as u32;
        for slot in table.iter_mut().take(31).skip(1) {
            // 16807 * word mod (2^31 - 1) without overflow (Schrage's method), as glibc does.
            let hi = word / 127_773;
            let lo = word % 127_773;
            word = 16_807 * lo - 2_836 * hi;
            if word < 0 {
                word += 2_147_483_647;
            }
            *slot = word as u32;
        }
        for i in 31..34 {
            table[i] = table[i - 31];
        }
        let mut rng = Rng {
            table,
            next: 0,
            draws: 0,
        };
        for _ in 0..310 {
            rng.step();
        }
        rng
    }

    /// r[k] = r[k-31] + r[k-3] (mod 2^32) over a ring of 34; returns r[k].
    fn step(&mut self) -> u32 {
        let k = self.next;
        let value = self.table[(k + 34 - 31) % 34].wrapping_add(self.table[(k + 34 - 3) % 34]);
        self.table[k] = value;
        self.next = (k + 1) % 34;
        value
    }

    /// One `random()` call: 0 ..= 2^31 - 1.
    pub fn random(&mut self) -> u32 {
        self.draws += 1;
        self.step() >> 1
    }

    /// `rn2(x)`: 0 ..= x-1. Like the game, `x <= 0` is a caller bug; it answers 0 (still one
    /// draw) instead of dividing by zero.
    pub fn rn2(&mut self, x: i32) -> i32 {
        let r = self.random();
        if x <= 0 { 0 } else { (r % x as u32) as i32 }
    }

    /// `rnd(x)`: 1 ..= x.
    pub fn rnd(&mut self, x: i32) -> i32 {
        self.rn2(x) + 1
    }

    /// `rn1(x, y)`: y ..= y+x-1.
    pub fn rn1(&mut self, x: i32, y: i32) -> i32 {
        self.rn2(x) + y
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn matches_glibc_random() {
        // First outputs of glibc `srandom(1); random()` and `srandom(42)`, from a C program.
        assert_eq!(Rng::new(0).random(), 1804289383, "seed 0 acts as seed 1");
        let mut one = Rng::new(1);
        let got: Vec<u32> = (0..5).map(|_| one.random()).collect();
        assert_eq!(
            got,
            [1804289383, 846930886, 1681692777, 1714636915, 1957747793]
        );
        let mut forty_two = Rng::new(42);
        let got: Vec<u32> = (0..3).map(|_| forty_two.random()).collect();
        assert_eq!(got, FORTY_TWO);
    }

    const FORTY_TWO: [u32; 3] = [71876166, 708592740, 1483128881];
}
