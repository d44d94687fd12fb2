//! Checks of MAZE levels: map parts, their maps, registers and everything placed on them.

use levkit_diagnostics::{Code, Diagnostic, TextRange};
use levkit_model::Spanned;
use levkit_model::nethack::{
    Area, Class, Coordinate, DetailKind, DoorState, Level, Map, MapPart, MapRow, Rect, Region,
    Registers, Terrain, TerrainGrid, map_origin, terrain_of, wallify,
};

use super::names::{self, RegisterCounts};

/// The game panics on a level with more parts than this.
const MAX_PARTS: usize = 9;
const MAX_MAP_WIDTH: usize = 76;
const MAX_MAP_HEIGHT: usize = 21;

pub(super) fn check_maze<'a>(
    out: &mut Vec<Diagnostic>,
    level: &'a Level,
    index: usize,
    memory: &mut MapMemory<'a>,
) {
    for (i, part) in level.parts.iter().enumerate() {
        if i == MAX_PARTS {
            let range = part
                .geometry
                .map(|g| g.range)
                .or(part.nomap)
                .unwrap_or(part.range);
            out.push(Diagnostic::new(
                Code::NH0402,
                range,
                format!("this is map part number {}; the game panics on a level with more than {MAX_PARTS}. Merge parts or split the level", i + 1),
            ));
        }
        check_part(out, part, level, index, memory);
    }
}

/// `scope` names where the registers belong: "part" or "level".
pub(super) fn check_register_lists(
    out: &mut Vec<Diagnostic>,
    registers: &Registers,
    scope: &str,
) -> RegisterCounts {
    fn duplicates<T>(
        out: &mut Vec<Diagnostic>,
        lists: &[levkit_model::nethack::RegisterList<T>],
        what: &str,
        scope: &str,
    ) {
        for (i, list) in lists.iter().enumerate() {
            if i > 0 {
                out.push(
                    Diagnostic::new(
                        Code::NH0107,
                        list.range,
                        format!("the {what} registers are already set for this {scope}; merge the two lists into one"),
                    )
                    .with_label(lists[0].range, "first set here"),
                );
            }
            if let Some(extra) = list.items.get(10) {
                out.push(Diagnostic::new(
                    Code::NH0108,
                    extra.range,
                    format!("the {what} register list holds at most 10 entries; remove this one and those after it"),
                ));
            }
        }
    }
    duplicates(out, &registers.objects, "object", scope);
    duplicates(out, &registers.places, "place", scope);
    duplicates(out, &registers.monsters, "monster", scope);
    for c in registers.objects.iter().flat_map(|l| &l.items) {
        names::check_object_class(out, *c);
    }
    for c in registers.monsters.iter().flat_map(|l| &l.items) {
        names::check_monster_class(out, *c);
    }
    RegisterCounts {
        objects: registers.object_count().min(10),
        places: registers.place_count().min(10),
        monsters: registers.monster_count().min(10),
        places_allowed: true,
    }
}

/// lev_comp's map rows (`tmpmap`): 21 row pointers that each MAP sets for its own rows only
/// and nothing ever clears. A NOMAP part, a position outside the map or a later level reads
/// whatever map last had that row (freed once its level was written), and a row that no map
/// of the file has had is a null pointer.
pub(super) struct MapMemory<'a> {
    rows: Vec<Option<MemoryRow<'a>>>,
}

impl Default for MapMemory<'_> {
    fn default() -> Self {
        MapMemory {
            rows: vec![None; MAP_ROWS],
        }
    }
}

#[derive(Clone)]
struct MemoryRow<'a> {
    cells: Vec<Terrain>,
    map: &'a Map,
    /// The index in the file of the level whose map it is.
    level: usize,
}

impl<'a> MapMemory<'a> {
    /// A map part is done: its rows, as WALLIFY left them, replace the older ones.
    fn store(&mut self, map: &'a Map, grid: &TerrainGrid, level: usize) {
        for (y, row) in grid.iter().enumerate().take(MAP_ROWS) {
            self.rows[y] = Some(MemoryRow {
                cells: row.clone(),
                map,
                level,
            });
        }
    }
}

/// The rows of lev_comp's map array.
const MAP_ROWS: usize = 21;

/// What lev_comp finds when it looks at a position of its map.
enum Read<'a> {
    /// A cell of a map of this level: this part's own (`own`), or the last map with that row.
    Cell {
        terrain: Terrain,
        map: &'a Map,
        own: bool,
    },
    /// Memory that is not a cell of this level's maps: past the end of a row, or a row freed
    /// with an earlier level. In practice lev_comp finds rock there. `why` says which, and
    /// `from` is the map the row belonged to.
    Leftover { why: String, from: &'a Map },
    /// A row that no map has had, or one outside the array: lev_comp crashes.
    Crash { why: String },
}

/// What coordinates in a part refer to.
struct Part<'a, 'm> {
    map: Option<&'a Map>,
    /// The compiler's copy of the map, which WALLIFY rewrites as statements go by.
    grid: Option<TerrainGrid>,
    /// The rows earlier maps of the file left behind.
    memory: &'m MapMemory<'a>,
    /// The index of this part's level in the file.
    level: usize,
    /// lev_comp's `max_x_map`/`max_y_map`.
    max_x: i64,
    max_y: i64,
    init_map: bool,
    /// Where the map lands on an INIT_MAP level, whose coordinates may leave the map.
    origin: Option<(i64, i64)>,
    registers: RegisterCounts,
}

impl<'a> Part<'a, '_> {
    /// The terrain of this part's own map (after WALLIFY so far), `None` outside it.
    fn terrain(&self, x: i64, y: i64) -> Option<Terrain> {
        let grid = self.grid.as_ref()?;
        grid.get(usize::try_from(y).ok()?)?
            .get(usize::try_from(x).ok()?)
            .copied()
    }

    /// What lev_comp reads at `tmpmap[y][x]`.
    fn read(&self, x: i64, y: i64) -> Read<'a> {
        let Some(row_index) = usize::try_from(y).ok().filter(|&y| y < MAP_ROWS) else {
            return Read::Crash {
                why: format!("row {y} is outside its 21 map rows"),
            };
        };
        let column = usize::try_from(x).ok();
        if let (Some(grid), Some(map)) = (&self.grid, self.map)
            && let Some(row) = grid.get(row_index)
        {
            return match column.and_then(|x| row.get(x)) {
                Some(&terrain) => Read::Cell {
                    terrain,
                    map,
                    own: true,
                },
                None => Read::Leftover {
                    why: format!("({x},{y}) is past the end of row {y} of this part's map"),
                    from: map,
                },
            };
        }
        match &self.memory.rows[row_index] {
            None => Read::Crash {
                why: format!("no map read so far in this file has a row {y}"),
            },
            Some(row) if row.level != self.level => Read::Leftover {
                why: format!(
                    "its row {y} is left from the map of an earlier level, freed when that level was written"
                ),
                from: row.map,
            },
            Some(row) => match column.and_then(|x| row.cells.get(x)) {
                Some(&terrain) => Read::Cell {
                    terrain,
                    map: row.map,
                    own: false,
                },
                None => Read::Leftover {
                    why: format!(
                        "({x},{y}) is past the end of row {y} of the last map with that row"
                    ),
                    from: row.map,
                },
            },
        }
    }

    /// Labels the cell lev_comp read, on the map it belongs to.
    fn read_label(&self, diagnostic: Diagnostic, read: &Read<'_>, x: i64, y: i64) -> Diagnostic {
        match read {
            Read::Cell { terrain, map, own } => match map.cell_range(x, y) {
                Some(range) if *own => diagnostic
                    .with_label(range, format!("the map has {} here", terrain.description())),
                Some(range) => diagnostic.with_label(
                    range,
                    format!(
                        "lev_comp reads this cell of an earlier map: {}",
                        terrain.description()
                    ),
                ),
                None => diagnostic,
            },
            Read::Leftover { from, .. }
                if !self.map.is_some_and(|own| std::ptr::eq(own, *from)) =>
            {
                diagnostic.with_label(from.keyword, "lev_comp's row comes from this map")
            }
            Read::Leftover { .. } => diagnostic,
            Read::Crash { .. } => diagnostic,
        }
    }

    fn cell_label(&self, diagnostic: Diagnostic, x: i64, y: i64) -> Diagnostic {
        let read = self.read(x, y);
        self.read_label(diagnostic, &read, x, y)
    }

    fn map_label(&self, diagnostic: Diagnostic) -> Diagnostic {
        match self.map {
            Some(map) => diagnostic.with_label(
                map.keyword,
                format!("this part's map is {}x{}", map.width(), map.height()),
            ),
            None => diagnostic,
        }
    }

    /// The crash of a read of `tmpmap`, as an error.
    fn crash(&self, out: &mut Vec<Diagnostic>, range: TextRange, what: &str, why: &str) {
        let advice = if self.map.is_none() {
            "Use `random` or a place[i] register, or give this part a GEOMETRY and MAP"
        } else {
            "Keep the position inside the map"
        };
        out.push(Diagnostic::new(
            Code::NH0401,
            range,
            format!("lev_comp looks up {what} in its map, but {why}: it crashes. {advice}"),
        ));
    }

    /// lev_comp's range check of a coordinate (`coord`); returns the literal position when it
    /// passes, for the map reads that follow.
    fn coordinate(
        &self,
        out: &mut Vec<Diagnostic>,
        at: &Spanned<Coordinate>,
    ) -> Option<(i64, i64)> {
        let (x, y) = match at.value {
            Coordinate::Random => return None,
            Coordinate::Place(i) => {
                names::check_register(
                    out,
                    "place",
                    i,
                    at.range,
                    self.registers.places,
                    "RANDOM_PLACES",
                );
                return None;
            }
            Coordinate::At { x, y } => (x, y),
        };
        let in_range = (0..=self.max_x).contains(&x) && (0..=self.max_y).contains(&y);
        let landing = if self.map.is_none() {
            if !self.init_map && !in_range {
                out.push(Diagnostic::new(
                    Code::NH0115,
                    at.range,
                    format!("({x},{y}) is outside the range lev_comp allows in a NOMAP part: x from 0 to 79, y from 0 to 21"),
                ));
                return None;
            }
            // The game puts a NOMAP part at (3,3), or at (1,0) on an INIT_MAP level.
            if self.init_map { (1, 0) } else { (3, 3) }
        } else if let Some(origin) = self.origin {
            // With INIT_MAP the cave surrounds the map, so lev_comp lets a coordinate leave
            // the map; the game then needs it on the level.
            origin
        } else {
            if !in_range {
                let message = if self.max_x < 0 || self.max_y < 0 {
                    format!(
                        "({x},{y}) is outside this part's map, which is empty: lev_comp rejects every coordinate in it"
                    )
                } else {
                    format!(
                        "({x},{y}) is outside this part's map: x goes from 0 to {} and y from 0 to {}, counted from the map's top-left corner",
                        self.max_x, self.max_y
                    )
                };
                out.push(self.map_label(Diagnostic::new(Code::NH0115, at.range, message)));
                return None;
            }
            return Some((x, y));
        };
        let (ax, ay) = (landing.0 + x, landing.1 + y);
        // The game reads a negative x as a register or as `random` (get_location).
        if x < 0 {
            let meaning = if x > -11 {
                format!("place register {}", -x - 1)
            } else {
                "`random`".to_string()
            };
            out.push(self.map_label(Diagnostic::new(
                Code::NH0407,
                at.range,
                format!("the game reads an x of {x} not as a position but as {meaning}; write that instead, or keep x at 0 or more"),
            )));
        } else if !(1..=79).contains(&ax) || !(0..=20).contains(&ay) {
            let start = if self.map.is_some() {
                "from this map's corner"
            } else {
                "from this NOMAP part's corner"
            };
            out.push(self.map_label(Diagnostic::new(
                Code::NH0407,
                at.range,
                format!("({x},{y}) {start} lands at ({ax},{ay}) on the level, which is outside it (x 1 to 79, y 0 to 20); the game says \"get_location: out of bounds\" and puts it in the level's bottom-right corner instead"),
            )));
        }
        Some((x, y))
    }

    /// lev_comp's `check_coord`: something placed on rock or a door, read from lev_comp's map.
    fn placed(&self, out: &mut Vec<Diagnostic>, at: &Spanned<Coordinate>, what: &str) {
        let Some((x, y)) = self.coordinate(out, at) else {
            return;
        };
        // check_coord reads only within max_x_map/max_y_map.
        if !(0..=self.max_x).contains(&x) || !(0..=self.max_y).contains(&y) {
            return;
        }
        let read = self.read(x, y);
        match &read {
            Read::Cell {
                terrain, own: true, ..
            } if terrain.is_rock_or_door() => {
                let diagnostic = Diagnostic::new(
                    Code::NH0205,
                    at.range,
                    format!(
                        "{what} is placed at ({x},{y}), which is {} on the map; move it to an open cell",
                        terrain.description()
                    ),
                );
                out.push(self.read_label(diagnostic, &read, x, y));
            }
            Read::Cell {
                terrain,
                own: false,
                ..
            } if terrain.is_rock_or_door() => {
                let diagnostic = Diagnostic::new(
                    Code::NH0205,
                    at.range,
                    format!(
                        "lev_comp checks ({x},{y}) against the last map it read, where it is {}, and warns \"placed in wall\"; this NOMAP part does not use that map, so the warning is spurious",
                        terrain.description()
                    ),
                );
                out.push(self.read_label(diagnostic, &read, x, y));
            }
            Read::Cell { .. } => {}
            Read::Leftover { why, .. } => {
                let diagnostic = Diagnostic::new(
                    Code::NH0427,
                    at.range,
                    format!(
                        "lev_comp checks ({x},{y}) for a wall in memory that holds no map cell of this level ({why}); it usually finds rock there and warns \"placed in wall\". The game does not read it"
                    ),
                );
                out.push(self.read_label(diagnostic, &read, x, y));
            }
            Read::Crash { why } => {
                self.crash(out, at.range, &format!("({x},{y})"), why);
            }
        }
    }

    /// A map-relative rectangle: lev_comp's range check (one error per rectangle).
    fn rect(&self, out: &mut Vec<Diagnostic>, rect: &Spanned<Rect>) -> bool {
        let Rect { x1, y1, x2, y2 } = rect.value;
        let in_x = |x: i64| (0..=self.max_x).contains(&x);
        let in_y = |y: i64| (0..=self.max_y).contains(&y);
        if in_x(x1) && in_y(y1) && in_x(x2) && in_y(y2) {
            return true;
        }
        let diagnostic = Diagnostic::new(
            Code::NH0116,
            rect.range,
            format!(
                "this region reaches outside the map: x goes from 0 to {} and y from 0 to {}",
                self.max_x, self.max_y
            ),
        );
        out.push(self.map_label(diagnostic));
        false
    }

    fn area(&self, out: &mut Vec<Diagnostic>, area: &Spanned<Area>) {
        let Rect { x1, y1, x2, y2 } = area.value.rect;
        if area.value.whole_level {
            if !(1..=79).contains(&x1)
                || !(0..=20).contains(&y1)
                || !(1..=79).contains(&x2)
                || !(0..=20).contains(&y2)
            {
                out.push(Diagnostic::new(
                    Code::NH0117,
                    area.range,
                    "this levregion reaches outside the level: x must stay within 1..79 and y within 0..20",
                ));
                return;
            }
        } else if !self.rect(out, &area.map(|a| a.rect)) {
            return;
        }
        start_after_end(out, area.range, area.value.rect);
    }
}

fn start_after_end(out: &mut Vec<Diagnostic>, range: TextRange, rect: Rect) {
    if rect.x1 > rect.x2 || rect.y1 > rect.y2 {
        out.push(Diagnostic::new(
            Code::NH0417,
            range,
            "the first corner of this area is right of or below the second; the game draws random positions in it with a negative or zero range, which can crash it. Swap them",
        ));
    }
}

fn empty_dig_area(out: &mut Vec<Diagnostic>, rect: &Spanned<Rect>) {
    let Rect { x1, y1, x2, y2 } = rect.value;
    if x1 > x2 || y1 > y2 {
        out.push(Diagnostic::new(
            Code::NH0433,
            rect.range,
            "the first corner of this area is right of or below the second, so it covers nothing; swap them",
        ));
    }
}

/// Where a detail is placed, for those placed at a single position.
fn position(kind: &DetailKind) -> Option<&Spanned<Coordinate>> {
    match kind {
        DetailKind::Monster(monster) => Some(&monster.at),
        DetailKind::Object(object) => object.at.as_ref(),
        DetailKind::Trap(trap) => Some(&trap.at),
        DetailKind::Door { at, .. }
        | DetailKind::Drawbridge { at, .. }
        | DetailKind::Mazewalk { at, .. }
        | DetailKind::Ladder { at, .. }
        | DetailKind::Stair { at, .. }
        | DetailKind::Altar { at, .. }
        | DetailKind::Fountain(at)
        | DetailKind::Sink(at)
        | DetailKind::Pool(at)
        | DetailKind::Gold { at, .. }
        | DetailKind::Engraving { at, .. } => Some(at),
        _ => None,
    }
}

fn check_map(out: &mut Vec<Diagnostic>, map: &Map, part: &MapPart, level: &Level) {
    let init_map = level.init_map.is_some();
    let (width, height) = (map.width(), map.height());
    // The game draws a random position in the map with rn2(width) and rn2(height), which
    // divides by zero on an empty map; with INIT_MAP an empty map stands for the whole level.
    let random = part
        .details
        .iter()
        .filter_map(|d| position(&d.kind))
        .find(|at| at.value == Coordinate::Random);
    if (width == 0 || height == 0)
        && !init_map
        && let Some(random) = random
    {
        out.push(
            Diagnostic::new(
                Code::NH0403,
                map.keyword,
                "this map has no cells, and the game crashes (a division by zero) when it places something at random in it. Draw at least one row",
            )
            .with_label(random.range, "placed at random"),
        );
    }
    if width > 0 && height > 0 && !init_map {
        no_spot_for_random(out, map, part, level);
    }
    if height > MAX_MAP_HEIGHT {
        let row = map.rows()[MAX_MAP_HEIGHT].range;
        out.push(
            Diagnostic::new(
                Code::NH0114,
                row,
                format!("the map has {height} rows but at most {MAX_MAP_HEIGHT} fit on a level; this is row {}", MAX_MAP_HEIGHT + 1),
            )
            .with_label(map.keyword, "the map starts here"),
        );
    }
    if width > MAX_MAP_WIDTH {
        let widest = map
            .rows()
            .iter()
            .position(|r| r.len() == width)
            .unwrap_or(0);
        let range = map
            .cell_range(MAX_MAP_WIDTH as i64, widest as i64)
            .unwrap_or(map.rows()[widest].range);
        out.push(
            Diagnostic::new(
                Code::NH0114,
                range,
                format!("the map is {width} columns wide but at most {MAX_MAP_WIDTH} fit; this cell is column {}", MAX_MAP_WIDTH + 1),
            )
            .with_label(map.keyword, "the map starts here"),
        );
    }
}

/// The game looks for a random spot in the map that suits what it places there (its
/// `get_location`): 100 draws, then every cell, then it panics. Nothing placed before the
/// things of a part turns a cell into floor (doors, drawbridges and features only take floor
/// away), so a map with no cell of the kind a thing needs makes the game panic whenever that
/// thing is placed at random. On the Plane of Water any spot will do.
fn no_spot_for_random(out: &mut Vec<Diagnostic>, map: &Map, part: &MapPart, level: &Level) {
    if level.name.as_ref().is_some_and(|n| n.value == "water") {
        return;
    }
    // Padding cells are stone, which suits nothing: the written cells say it all.
    let mut wet = false;
    for c in map.rows().iter().flat_map(MapRow::cells) {
        match terrain_of(c) {
            Some(
                Terrain::Room | Terrain::Corridor | Terrain::Ice | Terrain::Air | Terrain::Cloud,
            ) => return,
            Some(Terrain::Pool | Terrain::Moat | Terrain::Water | Terrain::Lava) => wet = true,
            _ => {}
        }
    }
    for detail in &part.details {
        let Some(at) = position(&detail.kind) else {
            continue;
        };
        // What needs dry ground for sure: a monster of no class (the game makes it without
        // knowing its kind), an object, a trap, gold, an engraving, a feature, stairs or a
        // ladder. A monster of a class or kind may swim, and then water does too.
        let needs_dry_only = match &detail.kind {
            DetailKind::Monster(monster) => monster.class.value == Class::Random,
            // Doors, drawbridges and mazewalks are not judged here.
            DetailKind::Door { .. }
            | DetailKind::Drawbridge { .. }
            | DetailKind::Mazewalk { .. } => {
                continue;
            }
            _ => true,
        };
        if at.value != Coordinate::Random || (wet && !needs_dry_only) {
            continue;
        }
        let needs = if needs_dry_only {
            "floor, corridor, ice, air or cloud"
        } else {
            "floor, corridor, ice, air, cloud, water or lava"
        };
        out.push(
            Diagnostic::new(
                Code::NH0436,
                at.range,
                format!("this map has no {needs}, where the game puts what is placed at random: it looks 100 times, then at every cell, then panics (\"get_location: can't find a place!\"). Give it a fixed position, or draw some floor in the map"),
            )
            .with_label(map.keyword, "the map"),
        );
    }
}

fn check_part<'a>(
    out: &mut Vec<Diagnostic>,
    part: &'a MapPart,
    level: &'a Level,
    index: usize,
    memory: &mut MapMemory<'a>,
) {
    let init_map = level.init_map.is_some();
    if let Some(map) = &part.map {
        check_map(out, map, part, level);
    } else if part.nomap.is_none() {
        // GEOMETRY without its MAP: the parser reported it, and nothing here can be placed.
        return;
    }
    let registers = check_register_lists(out, &part.registers, "part");
    let (max_x, max_y) = match &part.map {
        Some(map) => (map.width() as i64 - 1, map.height() as i64 - 1),
        None => (79, 21),
    };
    let mut scope = Part {
        map: part.map.as_ref(),
        grid: part.map.as_ref().map(|map| {
            let mut grid = map.terrain_grid();
            // lev_comp has 21 rows; the rows past them are an error (NH0114) anyway.
            grid.truncate(MAP_ROWS);
            grid
        }),
        memory,
        level: index,
        max_x,
        max_y,
        init_map,
        origin: match (&part.map, part.geometry) {
            (Some(map), Some(geometry)) if init_map => {
                let (h, v) = geometry.value;
                let (width, height) = (map.width() as i64, map.height() as i64);
                // With INIT_MAP a 1x1 map stands for the whole level, cornered at (1,0).
                if width <= 1 && height <= 1 {
                    Some((1, 0))
                } else {
                    map_origin(h, v, width, height)
                }
            }
            _ => None,
        },
        registers,
    };
    for list in &part.registers.places {
        for place in &list.items {
            let (x, y) = place.value;
            scope.coordinate(out, &Spanned::new(Coordinate::At { x, y }, place.range));
        }
    }
    let mut container_seen = false;
    let mut passwalls = 0;
    for detail in &part.details {
        match &detail.kind {
            DetailKind::Monster(monster) => {
                names::check_monster(out, monster, registers);
                scope.placed(out, &monster.at, "the monster");
            }
            DetailKind::Object(object) => {
                names::check_object(out, object, registers);
                match &object.at {
                    Some(at) => scope.placed(out, at, "the object"),
                    None => check_contained(out, object, container_seen),
                }
                container_seen |= object.is_container;
            }
            DetailKind::Trap(trap) => {
                names::check_trap(out, trap);
                scope.placed(out, &trap.at, "the trap");
            }
            DetailKind::Door { at, .. } => {
                // lev_comp compares every DOOR at a non-negative position with its map.
                if let Some((x, y)) = scope.coordinate(out, at)
                    && x >= 0
                    && y >= 0
                {
                    check_door(out, &scope, at.range, x, y);
                }
            }
            DetailKind::Drawbridge {
                at,
                direction,
                state,
            } => {
                if let Some((x, y)) = scope.coordinate(out, at)
                    && x >= 0
                    && y >= 0
                {
                    check_drawbridge(out, &scope, at.range, direction, x, y);
                }
                if !matches!(state.value, DoorState::Open | DoorState::Closed) {
                    out.push(Diagnostic::new(
                        Code::NH0123,
                        state.range,
                        "a drawbridge is either `open` or `closed`",
                    ));
                }
            }
            DetailKind::Mazewalk { at, .. } => {
                scope.coordinate(out, at);
            }
            DetailKind::Wallify => match &mut scope.grid {
                Some(grid) => wallify(grid),
                None => out.push(Diagnostic::new(
                    Code::NH0428,
                    detail.range,
                    "WALLIFY in a NOMAP part makes lev_comp wallify 80x22 cells of the part's one-cell map, and it crashes. Wallify a MAP part instead",
                )),
            },
            DetailKind::Ladder { at, .. } => scope.placed(out, at, "the ladder"),
            DetailKind::Stair { at, .. } => scope.placed(out, at, "the stairway"),
            DetailKind::LevRegion(region) => {
                scope.area(out, &region.area);
                scope.area(out, &region.excluded);
            }
            DetailKind::Altar { at, alignment, .. } => {
                if let levkit_model::nethack::Alignment::Register(i) = alignment.value {
                    names::check_register(out, "align", i, alignment.range, 3, "");
                }
                scope.placed(out, at, "the altar");
            }
            DetailKind::Fountain(at) => scope.placed(out, at, "the fountain"),
            DetailKind::Sink(at) | DetailKind::Pool(at) => {
                scope.coordinate(out, at);
            }
            DetailKind::Gold { at, .. } => scope.placed(out, at, "the gold"),
            DetailKind::Engraving { at, .. } => scope.placed(out, at, "the engraving"),
            DetailKind::NonDiggable(rect) => {
                if scope.rect(out, rect) {
                    empty_dig_area(out, rect);
                }
            }
            DetailKind::NonPasswall(rect) => {
                if scope.rect(out, rect) {
                    empty_dig_area(out, rect);
                }
                passwalls += 1;
                if passwalls == 32 {
                    out.push(Diagnostic::new(
                        Code::NH0135,
                        detail.range,
                        "this is the 32nd NON_PASSWALL of this map part; lev_comp keeps at most 31. Merge some regions",
                    ));
                }
            }
            DetailKind::Region(region) => check_region(out, &scope, region),
            DetailKind::RoomDoor(_) | DetailKind::RoomName(_) | DetailKind::RoomChance(_) => {}
        }
    }
    super::check_item_counts(out, &part.details, "map part");
    if let (Some(map), Some(grid)) = (scope.map, &scope.grid) {
        memory.store(map, grid, index);
    }
}

/// lev_comp's DOOR check: the map must have a door or a secret door at the position.
fn check_door(out: &mut Vec<Diagnostic>, scope: &Part<'_, '_>, range: TextRange, x: i64, y: i64) {
    let read = scope.read(x, y);
    let message = match &read {
        Read::Cell {
            terrain: Terrain::Door | Terrain::SecretDoor,
            ..
        } => return,
        Read::Cell {
            terrain, own: true, ..
        } => format!(
            "a DOOR must stand on a door ('+') or secret door ('S') of the map, but ({x},{y}) is {}; fix the map or the coordinate",
            terrain.description()
        ),
        Read::Cell { terrain, .. } => format!(
            "lev_comp compares this DOOR with the last map it read, where ({x},{y}) is {}, and refuses the level (\"Door decl doesn't match the map\"). Give the position with a place[i] register, which lev_comp does not compare",
            terrain.description()
        ),
        Read::Leftover { why, .. } => format!(
            "lev_comp compares this DOOR with memory that holds no map cell of this level ({why}), finds no door and refuses the level (\"Door decl doesn't match the map\"). Give the position with a place[i] register, or give this part a MAP"
        ),
        Read::Crash { why } => {
            scope.crash(out, range, &format!("the DOOR at ({x},{y})"), why);
            return;
        }
    };
    let diagnostic = Diagnostic::new(Code::NH0121, range, message);
    out.push(scope.read_label(diagnostic, &read, x, y));
}

/// lev_comp's DRAWBRIDGE check: the next cell in its direction must be a wall.
fn check_drawbridge(
    out: &mut Vec<Diagnostic>,
    scope: &Part<'_, '_>,
    range: TextRange,
    direction: &Spanned<levkit_model::nethack::Direction>,
    x: i64,
    y: i64,
) {
    let (dx, dy) = direction.value.delta();
    let (wx, wy) = (x + dx, y + dy);
    let read = scope.read(wx, wy);
    let off_own_map = scope.grid.is_some() && scope.terrain(wx, wy).is_none();
    let (code, at, message) = match &read {
        Read::Cell { terrain, .. } if terrain.is_wall() => return,
        Read::Crash { why } => {
            scope.crash(
                out,
                direction.range,
                &format!("the drawbridge's wall at ({wx},{wy})"),
                why,
            );
            return;
        }
        _ if off_own_map => (
            Code::NH0410,
            direction.range,
            format!(
                "the drawbridge's wall would be at ({wx},{wy}), outside the map; lev_comp reads past the map there, finds no wall and refuses the level. Move the drawbridge inside"
            ),
        ),
        Read::Cell {
            terrain, own: true, ..
        } => (
            Code::NH0122,
            range,
            format!(
                "a drawbridge needs a wall next to it in its direction, but ({wx},{wy}) is {}",
                terrain.description()
            ),
        ),
        Read::Cell { terrain, .. } => (
            Code::NH0122,
            range,
            format!(
                "lev_comp looks for the drawbridge's wall at ({wx},{wy}) in the last map it read, where it is {}, and refuses the level",
                terrain.description()
            ),
        ),
        Read::Leftover { why, .. } => (
            Code::NH0122,
            range,
            format!(
                "lev_comp looks for the drawbridge's wall at ({wx},{wy}) in memory that holds no map cell of this level ({why}), finds none and refuses the level"
            ),
        ),
    };
    let diagnostic = Diagnostic::new(code, at, message);
    out.push(scope.read_label(diagnostic, &read, wx, wy));
}

pub(super) fn check_contained(
    out: &mut Vec<Diagnostic>,
    object: &levkit_model::nethack::Object,
    container_seen: bool,
) {
    if let Some(range) = object.contained {
        if object.is_container {
            out.push(Diagnostic::new(
                Code::NH0434,
                range,
                "a container cannot be put inside another container: the game says \"containment type 3?\" and leaves it where it is. Remove `contained`",
            ));
        } else if !container_seen {
            out.push(Diagnostic::new(
                Code::NH0416,
                range,
                "`contained` puts the object into the last CONTAINER the game made, but none comes before it in this level, so that is one of an earlier level, which may be gone (a crash); add a CONTAINER line above",
            ));
        }
    }
}

fn check_region(out: &mut Vec<Diagnostic>, scope: &Part<'_, '_>, region: &Region) {
    let rect = region.rect.value;
    let in_map = scope.rect(out, &region.rect);
    if rect.x1 > rect.x2 || rect.y1 > rect.y2 {
        out.push(Diagnostic::new(
            Code::NH0118,
            region.rect.range,
            "the first corner of this region is right of or below the second; swap them",
        ));
    }
    let room_type = names::check_room_type(out, region.room_type.as_ref());
    let irregular = region.irregular.is_some_and(|i| i.value);
    // lev_comp compares the type including the `unfilled` offset, so only a filled vault counts.
    let unfilled = region.unfilled.is_some_and(|u| u.value);
    if room_type == Some(4)
        && !unfilled
        && (irregular || rect.x2 - rect.x1 != 1 || rect.y2 - rect.y1 != 1)
    {
        out.push(Diagnostic::new(
            Code::NH0119,
            region.rect.range,
            "a vault region must be regular and exactly 2x2, such as (x,y,x+1,y+1)",
        ));
    }
    if !in_map {
        return;
    }
    let Rect { x1, y1, x2, y2 } = rect;
    // The -w checks read the map too; they are only made here for a part's own map.
    if !irregular && scope.grid.is_none() {
        return;
    }
    if !irregular && x1 > 0 && y1 > 0 && x2 < scope.max_x && y2 < scope.max_y {
        let rock = (y1..=y2)
            .flat_map(|y| (x1..=x2).map(move |x| (x, y)))
            .find(|&(x, y)| scope.terrain(x, y).is_some_and(Terrain::is_rock_or_door));
        if let Some((x, y)) = rock {
            let diagnostic = Diagnostic::new(
                Code::NH0301,
                region.rect.range,
                format!(
                    "this room region covers rock or a door, for example at ({x},{y}); a room's rectangle should hold only its floor"
                ),
            );
            out.push(scope.cell_label(diagnostic, x, y));
        }
        let corners = [
            (x1 - 1, y1 - 1),
            (x1 - 1, y2 + 1),
            (x2 + 1, y1 - 1),
            (x2 + 1, y2 + 1),
        ];
        if let Some(&(x, y)) = corners
            .iter()
            .find(|&&(x, y)| scope.terrain(x, y).is_some_and(|t| !t.is_rock()))
        {
            let diagnostic = Diagnostic::new(
                Code::NH0302,
                region.rect.range,
                format!(
                    "the corner ({x},{y}) just outside this room region is not rock; a room's walls should enclose it"
                ),
            );
            out.push(scope.cell_label(diagnostic, x, y));
        }
    } else if irregular {
        let read = scope.read(x1, y1);
        let message = match &read {
            Read::Cell { terrain, .. } if terrain.is_room() => return,
            Read::Cell {
                terrain, own: true, ..
            } => format!(
                "an irregular region is flood-filled from its first corner ({x1},{y1}), which must be floor, but it is {}",
                terrain.description()
            ),
            Read::Cell { terrain, .. } => format!(
                "lev_comp looks for floor at this irregular region's first corner ({x1},{y1}) in the last map it read, where it is {}, and refuses the level",
                terrain.description()
            ),
            Read::Leftover { why, .. } => format!(
                "lev_comp looks for floor at this irregular region's first corner ({x1},{y1}) in memory that holds no map cell of this level ({why}) and refuses the level"
            ),
            Read::Crash { why } => {
                scope.crash(
                    out,
                    region.rect.range,
                    &format!("the corner ({x1},{y1})"),
                    why,
                );
                return;
            }
        };
        let diagnostic = Diagnostic::new(Code::NH0120, region.rect.range, message);
        out.push(scope.read_label(diagnostic, &read, x1, y1));
    }
}
