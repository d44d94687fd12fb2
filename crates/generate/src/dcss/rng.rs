//! The random numbers of a vault preview. crawl's own sequence cannot be reproduced (its state
//! at placement depends on the whole game so far), so a preview is faithful in distribution:
//! every draw below has the distribution of the crawl function of the same name, and a seed
//! always gives the same outcome. The generator is xoshiro256** seeded through splitmix64.

#[derive(Debug, Clone)]
pub struct Rng {
    state: [u64; 4],
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        let mut x = seed;
        let mut next = || {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        Rng {
            state: [next(), next(), next(), next()],
        }
    }

    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.state;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// 0 ..= n-1 without bias (Lemire's method); 0 when `n` is 0.
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        loop {
            let m = u128::from(self.next_u64()) * u128::from(n);
            let low = m as u64;
            if low >= n.wrapping_neg() % n {
                return (m >> 64) as u64;
            }
        }
    }

    /// crawl's `random2(n)`: 0 ..= n-1, and 0 for n <= 0.
    pub fn random2(&mut self, n: i64) -> i64 {
        if n <= 0 {
            0
        } else {
            self.below(n as u64) as i64
        }
    }

    /// crawl's `random_range(low, high)`: low ..= high (the bounds in either order).
    pub fn range(&mut self, low: i64, high: i64) -> i64 {
        let (low, high) = if low <= high {
            (low, high)
        } else {
            (high, low)
        };
        low + self.below((high - low) as u64 + 1) as i64
    }

    pub fn coinflip(&mut self) -> bool {
        self.next_u64() >> 63 == 1
    }

    /// True once in `n` (always for n <= 1).
    pub fn one_chance_in(&mut self, n: i64) -> bool {
        n <= 1 || self.below(n as u64) == 0
    }

    /// True `x` times in `y`.
    pub fn x_chance_in_y(&mut self, x: i64, y: i64) -> bool {
        if x <= 0 {
            return false;
        }
        if x >= y {
            return true;
        }
        (self.below(y as u64) as i64) < x
    }

    /// A real number in [0, 1).
    pub fn real(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// The sum of `count` dice of `sides` faces (each 1 ..= sides).
    pub fn roll_dice(&mut self, count: i64, sides: i64) -> i64 {
        if sides <= 0 {
            return 0;
        }
        (0..count.clamp(0, 10_000))
            .map(|_| 1 + self.random2(sides))
            .sum()
    }

    /// The average of `rolls` draws of `random2(max)`, rounded down: crawl's `random2avg`.
    pub fn random2avg(&mut self, max: i64, rolls: i64) -> i64 {
        let rolls = rolls.clamp(1, 10_000);
        let mut sum = self.random2(max);
        for _ in 1..rolls {
            sum += self.random2(max + 1);
        }
        sum / rolls
    }

    /// `num / den`, rounded up with a chance equal to the remainder's share.
    pub fn div_rand_round(&mut self, num: i64, den: i64) -> i64 {
        if den == 0 {
            return 0;
        }
        let (q, r) = (num.div_euclid(den), num.rem_euclid(den));
        q + i64::from(self.random2(den.abs()) < r)
    }

    /// An index into `weights`, each picked with probability weight / total (`None` when the
    /// total is 0). Options of weight 0 are never picked.
    pub fn weighted(&mut self, weights: impl IntoIterator<Item = u64>) -> Option<usize> {
        // One pass, as crawl does: each option replaces the pick with probability
        // weight / running total, which gives every option its share of the total.
        let mut total = 0u64;
        let mut pick = None;
        for (i, w) in weights.into_iter().enumerate() {
            if w == 0 {
                continue;
            }
            total += w;
            if self.below(total) < w {
                pick = Some(i);
            }
        }
        pick
    }

    /// Shuffles in place (every order equally likely).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_stay_in_their_ranges() {
        let mut rng = Rng::new(7);
        for _ in 0..1000 {
            assert!((0..5).contains(&rng.random2(5)));
            assert!((3..=9).contains(&rng.range(9, 3)));
            assert!((0.0..1.0).contains(&rng.real()));
            assert!((2..=12).contains(&rng.roll_dice(2, 6)));
        }
        assert_eq!(rng.random2(0), 0);
        assert_eq!(rng.weighted([0, 0]), None);
        assert_eq!(rng.weighted([0, 3, 0]), Some(1));
    }

    #[test]
    fn a_seed_gives_the_same_draws() {
        let draws = |seed| {
            let mut rng = Rng::new(seed);
            (0..8).map(|_| rng.random2(100)).collect::<Vec<_>>()
        };
        assert_eq!(draws(3), draws(3));
        assert_ne!(draws(3), draws(4));
    }
}
