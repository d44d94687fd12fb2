//! MAP blocks: rows of terrain, with each cell's place in the text.

use crate::{TextRange, TextSize};

/// The game's location types that a map character can produce (`levl[x][y].typ`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Terrain {
    Stone = 0,
    VWall = 1,
    HWall = 2,
    CrossWall = 7,
    Tree = 13,
    SecretDoor = 14,
    SecretCorridor = 15,
    Pool = 16,
    Moat = 17,
    Water = 18,
    Lava = 20,
    IronBars = 21,
    Door = 22,
    Corridor = 23,
    Room = 24,
    Fountain = 27,
    Throne = 28,
    Sink = 29,
    Ice = 32,
    Air = 34,
    Cloud = 35,
}

impl Terrain {
    /// The game's `levl` type number.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// Rock in the game's sense (`IS_ROCK`): stone, walls, trees, secret doors and corridors.
    pub fn is_rock(self) -> bool {
        self.code() < Terrain::Pool.code()
    }

    /// What lev_comp will not place things on: rock or a door.
    pub fn is_rock_or_door(self) -> bool {
        self.is_rock() || self == Terrain::Door
    }

    /// A room-like location (`IS_ROOM`): floor and everything after it.
    pub fn is_room(self) -> bool {
        self.code() >= Terrain::Room.code()
    }

    pub fn is_wall(self) -> bool {
        matches!(self, Terrain::VWall | Terrain::HWall | Terrain::CrossWall)
    }

    /// A short name, as the game would describe the location.
    pub fn description(self) -> &'static str {
        match self {
            Terrain::Stone => "solid rock",
            Terrain::VWall => "a vertical wall",
            Terrain::HWall => "a horizontal wall",
            Terrain::CrossWall => "a boundary (becomes floor)",
            Terrain::Tree => "a tree",
            Terrain::SecretDoor => "a secret door",
            Terrain::SecretCorridor => "a secret corridor",
            Terrain::Pool => "a pool",
            Terrain::Moat => "a moat",
            Terrain::Water => "water",
            Terrain::Lava => "lava",
            Terrain::IronBars => "iron bars",
            Terrain::Door => "a doorway",
            Terrain::Corridor => "a corridor",
            Terrain::Room => "floor",
            Terrain::Fountain => "a fountain",
            Terrain::Throne => "a throne",
            Terrain::Sink => "a sink",
            Terrain::Ice => "ice",
            Terrain::Air => "open air",
            Terrain::Cloud => "a cloud",
        }
    }
}

/// The terrain a map character stands for (also used for MAZE fills and INIT_MAP).
pub const fn terrain_of(c: char) -> Option<Terrain> {
    Some(match c {
        ' ' => Terrain::Stone,
        '|' => Terrain::VWall,
        '-' => Terrain::HWall,
        'B' => Terrain::CrossWall,
        'T' => Terrain::Tree,
        'S' => Terrain::SecretDoor,
        'H' => Terrain::SecretCorridor,
        'P' => Terrain::Pool,
        '}' => Terrain::Moat,
        'W' => Terrain::Water,
        'L' => Terrain::Lava,
        'F' => Terrain::IronBars,
        '+' => Terrain::Door,
        '#' => Terrain::Corridor,
        '.' => Terrain::Room,
        '{' => Terrain::Fountain,
        '\\' => Terrain::Throne,
        'K' => Terrain::Sink,
        'I' => Terrain::Ice,
        'A' => Terrain::Air,
        'C' => Terrain::Cloud,
        _ => return None,
    })
}

/// [`terrain_of`] for every ASCII character, stone where it has none: a map's cells are
/// looked up rather than matched one by one.
const ASCII_TERRAIN: [Terrain; 256] = {
    // 256 entries (the upper half stone) so that a byte indexes it without a bounds check.
    let mut table = [Terrain::Stone; 256];
    let mut byte = 0;
    while byte < 128 {
        if let Some(terrain) = terrain_of(byte as u8 as char) {
            table[byte] = terrain;
        }
        byte += 1;
    }
    table
};

/// One written row of a map, with digits (column rulers) removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapRow {
    pub range: TextRange,
    /// The cells as written, rulers removed.
    cells: RowCells,
    /// Where each cell's character is in the text; empty when cell `x` is byte `x` of the row,
    /// as in almost every row (a map's cells then take half the memory).
    offsets: Vec<TextSize>,
}

/// A row's cells: a byte each when all are ASCII, as in every map the game ships (a quarter
/// of the memory of characters).
#[derive(Debug, Clone, PartialEq, Eq)]
enum RowCells {
    Ascii(Vec<u8>),
    Chars(Vec<char>),
}

impl MapRow {
    /// A row of `cells` written at `offsets`.
    pub fn new(range: TextRange, cells: Vec<char>, mut offsets: Vec<TextSize>) -> MapRow {
        let start = range.start();
        let ascii = cells.iter().all(char::is_ascii);
        if ascii
            && offsets
                .iter()
                .enumerate()
                .all(|(x, &offset)| offset == start + TextSize::from(x as u32))
        {
            offsets = Vec::new();
        }
        let cells = if ascii {
            RowCells::Ascii(cells.iter().map(|&c| c as u8).collect())
        } else {
            RowCells::Chars(cells)
        };
        MapRow {
            range,
            cells,
            offsets,
        }
    }

    /// A row whose cells are its bytes, all ASCII and none a ruler digit.
    pub fn contiguous(range: TextRange, cells: &[u8]) -> MapRow {
        debug_assert!(cells.is_ascii());
        MapRow {
            range,
            cells: RowCells::Ascii(cells.to_vec()),
            offsets: Vec::new(),
        }
    }

    /// How many cells the row has.
    pub fn len(&self) -> usize {
        match &self.cells {
            RowCells::Ascii(cells) => cells.len(),
            RowCells::Chars(cells) => cells.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The character of cell `x`.
    pub fn cell(&self, x: usize) -> Option<char> {
        match &self.cells {
            RowCells::Ascii(cells) => cells.get(x).map(|&b| char::from(b)),
            RowCells::Chars(cells) => cells.get(x).copied(),
        }
    }

    /// The cells' characters, left to right.
    pub fn cells(&self) -> impl Iterator<Item = char> + '_ {
        let (ascii, chars) = match &self.cells {
            RowCells::Ascii(cells) => (&cells[..], &[][..]),
            RowCells::Chars(cells) => (&[][..], &cells[..]),
        };
        ascii
            .iter()
            .map(|&b| char::from(b))
            .chain(chars.iter().copied())
    }

    /// Where cell `x`'s character is in the text.
    pub fn offset(&self, x: usize) -> Option<TextSize> {
        if self.offsets.is_empty() {
            (x < self.len()).then(|| self.range.start() + TextSize::from(x as u32))
        } else {
            self.offsets.get(x).copied()
        }
    }

    /// The cell whose character starts at `offset`.
    pub fn cell_at(&self, offset: TextSize) -> Option<usize> {
        if self.offsets.is_empty() {
            let x = usize::from(offset.checked_sub(self.range.start())?);
            (x < self.len()).then_some(x)
        } else {
            self.offsets.iter().position(|&o| o == offset)
        }
    }
}

/// A MAP block. Short rows are padded with stone up to the widest row, as lev_comp does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Map {
    /// From `MAP` to `ENDMAP`.
    pub range: TextRange,
    /// The `MAP` keyword.
    pub keyword: TextRange,
    /// Read through [`Map::rows`]: the width is kept from them.
    rows: Vec<MapRow>,
    pub closed: bool,
    /// The longest row's length, kept because every cell lookup asks for it.
    width: usize,
}

impl Map {
    pub fn new(range: TextRange, keyword: TextRange, rows: Vec<MapRow>, closed: bool) -> Self {
        let width = rows.iter().map(MapRow::len).max().unwrap_or(0);
        Map {
            range,
            keyword,
            rows,
            closed,
            width,
        }
    }

    pub fn rows(&self) -> &[MapRow] {
        &self.rows
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.rows.len()
    }

    /// The character at a map position (stone in the padding), or `None` outside the map.
    pub fn char_at(&self, x: i64, y: i64) -> Option<char> {
        if x < 0 || y < 0 || x as usize >= self.width() {
            return None;
        }
        let row = self.rows.get(y as usize)?;
        Some(row.cell(x as usize).unwrap_or(' '))
    }

    /// The terrain at a map position; characters that are not map glyphs count as stone,
    /// as lev_comp would store them.
    pub fn terrain_at(&self, x: i64, y: i64) -> Option<Terrain> {
        self.char_at(x, y)
            .map(|c| terrain_of(c).unwrap_or(Terrain::Stone))
    }

    /// The text of a cell, when it is written (padding cells have none).
    pub fn cell_range(&self, x: i64, y: i64) -> Option<TextRange> {
        if x < 0 || y < 0 {
            return None;
        }
        let row = self.rows.get(y as usize)?;
        let offset = row.offset(x as usize)?;
        let len = row.cell(x as usize)?.len_utf8() as u32;
        Some(TextRange::at(offset, TextSize::from(len)))
    }
}

/// A map's terrain as the compiler holds it: `grid[y][x]`, every row padded to the width.
pub type TerrainGrid = Vec<Vec<Terrain>>;

impl Map {
    pub fn terrain_grid(&self) -> TerrainGrid {
        let width = self.width();
        self.rows
            .iter()
            .map(|row| {
                let mut cells = Vec::with_capacity(width);
                let terrain = |c: u32| {
                    ASCII_TERRAIN
                        .get(c as usize)
                        .copied()
                        .unwrap_or(Terrain::Stone)
                };
                match &row.cells {
                    RowCells::Ascii(bytes) => {
                        cells.extend(bytes.iter().map(|&b| ASCII_TERRAIN[usize::from(b)]))
                    }
                    RowCells::Chars(chars) => {
                        cells.extend(chars.iter().map(|&c| terrain(c as u32)))
                    }
                }
                cells.resize(width, Terrain::Stone);
                cells
            })
            .collect()
    }
}

/// lev_comp's `WALLIFY`, done at compile time: every stone cell next to a room-like cell or a
/// boundary (`B`) becomes a wall. The first such neighbour, scanning rows top to bottom and
/// each row left to right, decides: horizontal if it is in another row, vertical otherwise.
pub fn wallify(grid: &mut TerrainGrid) {
    let height = grid.len();
    for y in 0..height {
        let width = grid[y].len();
        for x in 0..width {
            if grid[y][x] != Terrain::Stone {
                continue;
            }
            let found = (y.saturating_sub(1)..=(y + 1).min(height - 1)).find(|&yy| {
                (x.saturating_sub(1)..=(x + 1).min(width - 1)).any(|xx| {
                    let t = grid[yy].get(xx).copied().unwrap_or(Terrain::Stone);
                    t.is_room() || t == Terrain::CrossWall
                })
            });
            if let Some(yy) = found {
                grid[y][x] = if yy != y {
                    Terrain::HWall
                } else {
                    Terrain::VWall
                };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wallify_prefers_the_first_neighbour_found() {
        let mut grid: TerrainGrid = ["     ", " ... ", "     "]
            .iter()
            .map(|r| r.chars().map(|c| terrain_of(c).unwrap()).collect())
            .collect();
        wallify(&mut grid);
        let text: Vec<String> = grid
            .iter()
            .map(|r| {
                r.iter()
                    .map(|t| match t {
                        Terrain::HWall => '-',
                        Terrain::VWall => '|',
                        Terrain::Room => '.',
                        _ => ' ',
                    })
                    .collect()
            })
            .collect();
        assert_eq!(text, ["-----", "|...|", "-----"]);
    }
}
