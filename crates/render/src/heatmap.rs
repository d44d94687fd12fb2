//! How often each square holds a monster, object or trap over many seeds.

use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Heatmap {
    pub level: String,
    /// The first and last seed, inclusive.
    pub seeds: [u32; 2],
    /// Per row, per column: in how many seeds the square held something.
    pub counts: Vec<Vec<u32>>,
}

impl Heatmap {
    /// The rows as `0`-`9` (tenths of the seeds, rounded up) and `.` for never.
    pub fn text(&self) -> String {
        let total = u64::from(self.seeds[1] - self.seeds[0]) + 1;
        let mut out = String::new();
        for row in &self.counts {
            for &n in row {
                out.push(match n {
                    0 => '.',
                    n => char::from(b'0' + ((u64::from(n) * 9).div_ceil(total)).min(9) as u8),
                });
            }
            out.push('\n');
        }
        out
    }
}
