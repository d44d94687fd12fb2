//! A vault's map while it is resolved: a rectangle of glyphs (bytes, as crawl keeps them),
//! each remembering the map character it started as and the statement that last changed it,
//! and the transforms crawl applies to it (SUBST, NSUBST, SHUFFLE, CLEAR, mirrors, turns).

use levkit_model::dcss::spec::{NSubst, Sep, Shuffle, Subst, Weighted};

use super::rng::Rng;

/// No source character or statement.
pub const NONE: u32 = u32::MAX;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cell {
    pub glyph: u8,
    /// The map character it started as: `row << 16 | column` of the vault's map rows, or
    /// [`NONE`] for padding and cells a subvault or Lua made.
    pub origin: u32,
    /// The statement (an index the caller gives) that last changed the glyph, or [`NONE`].
    pub by: u32,
    /// The overlays (COLOUR, tiles...) bound to it: an index the caller gives, or [`NONE`].
    pub overlay: u32,
    /// The subvault that filled it (an index the caller gives), or [`NONE`]: the transforms
    /// of the vault around it no longer change it.
    pub sub: u32,
    /// Where in that subvault's own cells.
    pub sub_at: u32,
}

impl Cell {
    pub fn blank() -> Cell {
        Cell {
            glyph: b' ',
            origin: NONE,
            by: NONE,
            overlay: NONE,
            sub: NONE,
            sub_at: NONE,
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Grid {
    pub width: usize,
    pub height: usize,
    /// Row by row.
    pub cells: Vec<Cell>,
}

/// One random choice made while resolving, for the statistics: which option of which
/// statement's choice (`part` tells the choices of one statement apart).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Draw {
    pub by: u32,
    pub part: u16,
    pub chosen: u16,
}

/// Where draws are written when a caller counts them.
pub type Trace = Option<Vec<Draw>>;

pub(crate) fn record(trace: &mut Trace, by: u32, part: u16, chosen: usize) {
    if let Some(draws) = trace {
        draws.push(Draw {
            by,
            part,
            chosen: chosen as u16,
        });
    }
}

/// The bytes an option stands for: crawl reads replacements byte by byte, so a character of
/// several bytes is several options.
pub fn option_bytes(options: &[Weighted<char>]) -> Vec<(u8, u32)> {
    let mut out = Vec::with_capacity(options.len());
    for option in options {
        let mut buffer = [0u8; 4];
        for &b in option.value.encode_utf8(&mut buffer).as_bytes() {
            out.push((b, option.weight));
        }
    }
    out
}

fn pick(options: &[(u8, u32)], rng: &mut Rng, trace: &mut Trace, by: u32, part: u16) -> Option<u8> {
    let i = rng.weighted(options.iter().map(|o| u64::from(o.1)))?;
    record(trace, by, part, i);
    Some(options[i].0)
}

impl Grid {
    /// The map rows, padded with blanks to the longest (crawl pads before `main` runs).
    pub fn from_rows(rows: &[Vec<u8>]) -> Grid {
        let width = rows.iter().map(Vec::len).max().unwrap_or(0);
        let mut cells = Vec::with_capacity(width * rows.len());
        for (y, row) in rows.iter().enumerate() {
            for x in 0..width {
                cells.push(match row.get(x) {
                    Some(&glyph) => Cell {
                        glyph,
                        origin: ((y as u32) << 16) | x as u32,
                        ..Cell::blank()
                    },
                    None => Cell::blank(),
                });
            }
        }
        Grid {
            width,
            height: rows.len(),
            cells,
        }
    }

    pub fn at(&self, x: usize, y: usize) -> &Cell {
        &self.cells[y * self.width + x]
    }

    pub fn at_mut(&mut self, x: usize, y: usize) -> &mut Cell {
        &mut self.cells[y * self.width + x]
    }

    pub fn get(&self, x: i64, y: i64) -> Option<&Cell> {
        if x < 0 || y < 0 || x as usize >= self.width || y as usize >= self.height {
            return None;
        }
        Some(self.at(x as usize, y as usize))
    }

    /// The glyphs, row by row: also what crawl's `map()` answers once the rows are padded
    /// (every row as wide as the widest, blanks included).
    pub fn rows(&self) -> Vec<String> {
        self.cells
            .chunks(self.width.max(1))
            .take(self.height)
            .map(|row| {
                String::from_utf8_lossy(&row.iter().map(|c| c.glyph).collect::<Vec<_>>())
                    .into_owned()
            })
            .collect()
    }

    fn set(&mut self, at: usize, glyph: u8, by: u32) {
        let cell = &mut self.cells[at];
        if cell.glyph != glyph {
            cell.glyph = glyph;
            cell.by = by;
        }
    }

    /// The indexes of the cells holding one of `keys`, in reading order (a subvault's cells
    /// hold none).
    pub fn positions(&self, keys: &[u8]) -> Vec<usize> {
        (0..self.cells.len())
            .filter(|&i| self.cells[i].sub == NONE && keys.contains(&self.cells[i].glyph))
            .collect()
    }

    pub fn subst(&mut self, subst: &Subst, rng: &mut Rng, trace: &mut Trace, by: u32) {
        let keys = subst.keys.as_bytes();
        let options = option_bytes(&subst.options);
        let mut once = None;
        for at in self.positions(keys) {
            let glyph = match (subst.sep, once) {
                (Sep::Once, Some(glyph)) => glyph,
                _ => {
                    let Some(glyph) = pick(&options, rng, trace, by, 0) else {
                        return;
                    };
                    once = Some(glyph);
                    glyph
                }
            };
            self.set(at, glyph, by);
        }
    }

    pub fn nsubst(&mut self, nsubst: &NSubst, rng: &mut Rng, trace: &mut Trace, by: u32) {
        let mut places = self.positions(nsubst.keys.as_bytes());
        rng.shuffle(&mut places);
        let mut next = 0;
        for (part, segment) in nsubst.segments.iter().enumerate() {
            let options = option_bytes(&segment.options);
            let count = segment
                .count
                .map_or(places.len() - next, |n| n as usize)
                .min(places.len() - next);
            let mut once = None;
            for &at in &places[next..next + count] {
                let glyph = match (segment.sep, once) {
                    (Sep::Once, Some(glyph)) => glyph,
                    _ => {
                        let Some(glyph) = pick(&options, rng, trace, by, part as u16) else {
                            continue;
                        };
                        once = Some(glyph);
                        glyph
                    }
                };
                self.set(at, glyph, by);
            }
            next += count;
        }
    }

    /// SHUFFLE: the blocks (or the glyphs of a single block) in a random order, every glyph
    /// of the map moved with its block, all at once.
    pub fn shuffle(&mut self, shuffle: &Shuffle, rng: &mut Rng, trace: &mut Trace, by: u32) {
        let blocks: Vec<Vec<u8>> = if shuffle.blocks.len() == 1 {
            shuffle.blocks[0].bytes().map(|b| vec![b]).collect()
        } else {
            shuffle.blocks.iter().map(|b| b.bytes().collect()).collect()
        };
        let mut order: Vec<usize> = (0..blocks.len()).collect();
        rng.shuffle(&mut order);
        if let Some(first) = order.iter().position(|&i| i == 0) {
            record(trace, by, 0, first);
        }
        // crawl maps a glyph by its first place in the blocks, so when it stands in several
        // (`X+ / X+ / +X`) the first block it is in decides where it goes.
        let mut mapping = [None::<u8>; 256];
        for (i, block) in blocks.iter().enumerate() {
            let target = &blocks[order[i]];
            for (j, &from) in block.iter().enumerate() {
                if let (None, Some(&to)) = (mapping[from as usize], target.get(j)) {
                    mapping[from as usize] = Some(to);
                }
            }
        }
        for at in 0..self.cells.len() {
            if self.cells[at].sub != NONE {
                continue;
            }
            if let Some(to) = mapping[self.cells[at].glyph as usize] {
                self.set(at, to, by);
            }
        }
    }

    pub fn clear(&mut self, glyphs: &str, by: u32) {
        for at in self.positions(glyphs.as_bytes()) {
            self.set(at, b' ', by);
        }
    }

    /// Left and right swapped.
    pub fn hmirror(&mut self) {
        for row in self.cells.chunks_mut(self.width.max(1)) {
            row.reverse();
        }
    }

    /// Top and bottom swapped.
    pub fn vmirror(&mut self) {
        let w = self.width;
        for y in 0..self.height / 2 {
            for x in 0..w {
                self.cells.swap(y * w + x, (self.height - 1 - y) * w + x);
            }
        }
    }

    /// A quarter turn, clockwise or not.
    pub fn rotate(&mut self, clockwise: bool) {
        let (w, h) = (self.width, self.height);
        let mut cells = Vec::with_capacity(self.cells.len());
        for ny in 0..w {
            for nx in 0..h {
                let (x, y) = if clockwise {
                    (ny, h - 1 - nx)
                } else {
                    (w - 1 - ny, nx)
                };
                cells.push(self.cells[y * w + x]);
            }
        }
        self.cells = cells;
        self.width = h;
        self.height = w;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use levkit_model::dcss::spec;

    fn grid(rows: &[&str]) -> Grid {
        Grid::from_rows(
            &rows
                .iter()
                .map(|r| r.as_bytes().to_vec())
                .collect::<Vec<_>>(),
        )
    }

    #[test]
    fn rows_are_padded_and_turned() {
        let mut g = grid(&["ab", "c"]);
        assert_eq!(g.rows(), ["ab", "c "]);
        g.rotate(true);
        assert_eq!(g.rows(), ["ca", " b"]);
        g.rotate(false);
        assert_eq!(g.rows(), ["ab", "c "]);
        g.hmirror();
        g.vmirror();
        assert_eq!(g.rows(), [" c", "ba"]);
        assert_eq!(g.at(1, 1).origin, 0);
    }

    #[test]
    fn nsubst_gives_exact_counts() {
        let mut rng = Rng::new(1);
        let mut g = grid(&["......", "......"]);
        let n = spec::nsubst(". = 3=x / 2:y / z").unwrap();
        g.nsubst(&n, &mut rng, &mut None, 0);
        let count = |c| g.cells.iter().filter(|x| x.glyph == c).count();
        assert_eq!((count(b'x'), count(b'y'), count(b'z')), (3, 2, 7));
    }

    #[test]
    fn shuffle_moves_blocks_together() {
        let mut rng = Rng::new(5);
        for _ in 0..20 {
            let mut g = grid(&["abcd"]);
            g.shuffle(&spec::shuffle("ab/cd").unwrap(), &mut rng, &mut None, 0);
            assert!(matches!(g.rows()[0].as_str(), "abcd" | "cdab"));
        }
    }

    #[test]
    fn shuffle_maps_a_repeated_glyph_by_its_first_block() {
        // Two of the three blocks are `X+`, so the map keeps its `X+` two times in three
        // (crawl's frequency); the last block deciding would swap them two times in three.
        let mut rng = Rng::new(7);
        let mut kept = 0;
        for _ in 0..3000 {
            let mut g = grid(&["X+"]);
            g.shuffle(
                &spec::shuffle("X+ / X+ / +X").unwrap(),
                &mut rng,
                &mut None,
                0,
            );
            let row = g.rows()[0].clone();
            assert!(matches!(row.as_str(), "X+" | "+X"), "{row}");
            kept += usize::from(row == "X+");
        }
        assert!((1850..2150).contains(&kept), "kept {kept} of 3000");
    }
}
