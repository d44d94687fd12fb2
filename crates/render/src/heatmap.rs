//! How often each square holds a monster, object or trap over many seeds.

use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Heatmap {
    pub level: String,
    /// The first and last seed, inclusive.
    pub seeds: [u32; 2],
    /// Per row, per column: in how many seeds the square held something.
    pub counts: Vec<Vec<u32>>,
    /// The same counts by kind (`wall`, `floor`, `monster`...), when the dialect tells kinds
    /// apart.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub layers: Vec<HeatmapLayer>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HeatmapLayer {
    pub kind: String,
    /// Per row, per column: in how many seeds the square was of the kind.
    pub counts: Vec<Vec<u32>>,
}

impl Heatmap {
    /// The rows as `0`-`9` (tenths of the seeds, rounded up) and `.` for never.
    /// Each layer follows under its kind's name.
    pub fn text(&self) -> String {
        let total = u64::from(self.seeds[1] - self.seeds[0]) + 1;
        let mut out = String::new();
        if !self.layers.is_empty() {
            out.push_str("monster or item:\n");
        }
        out.push_str(&rows_text(&self.counts, total));
        for layer in &self.layers {
            out.push_str(&format!("\n{}:\n", layer.kind));
            out.push_str(&rows_text(&layer.counts, total));
        }
        out
    }
}

fn rows_text(counts: &[Vec<u32>], total: u64) -> String {
    let mut out = String::new();
    for row in counts {
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
