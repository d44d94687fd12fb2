//! Checks of MAZE levels: map parts, their maps, registers and everything placed on them.

use levkit_diagnostics::{Code, Diagnostic, TextRange};
use levkit_model::Spanned;
use levkit_model::nethack::{
    Area, Coordinate, DetailKind, DoorState, Level, Map, MapPart, Rect, Region, Registers, Terrain,
    TerrainGrid, map_origin, wallify,
};

use super::names::{self, RegisterCounts};

/// The game panics on a level with more parts than this.
const MAX_PARTS: usize = 9;
const MAX_MAP_WIDTH: usize = 76;
const MAX_MAP_HEIGHT: usize = 21;

pub(super) fn check_maze(out: &mut Vec<Diagnostic>, level: &Level) {
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
        check_part(out, part, level.init_map.is_some());
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

/// How lev_comp reads its copy of the map at a coordinate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum MapRead {
    /// It does not.
    None,
    /// `check_coord`: only within `max_x`/`max_y` (which are 79 and 21 for NOMAP).
    Bounded,
    /// DOOR and DRAWBRIDGE: at any non-negative position.
    Unbounded,
}

/// What coordinates in a part refer to.
struct Part<'a> {
    map: Option<&'a Map>,
    /// The compiler's copy of the map, which WALLIFY rewrites as statements go by.
    grid: Option<TerrainGrid>,
    /// lev_comp's `max_x_map`/`max_y_map`.
    max_x: i64,
    max_y: i64,
    init_map: bool,
    /// Where the map lands on an INIT_MAP level, whose coordinates may leave the map.
    origin: Option<(i64, i64)>,
    registers: RegisterCounts,
}

impl Part<'_> {
    fn terrain(&self, x: i64, y: i64) -> Option<Terrain> {
        let grid = self.grid.as_ref()?;
        grid.get(usize::try_from(y).ok()?)?
            .get(usize::try_from(x).ok()?)
            .copied()
    }

    fn cell_label(&self, diagnostic: Diagnostic, x: i64, y: i64) -> Diagnostic {
        let terrain = self.terrain(x, y);
        match (self.map.and_then(|m| m.cell_range(x, y)), terrain) {
            (Some(range), Some(t)) => {
                diagnostic.with_label(range, format!("the map has {} here", t.description()))
            }
            _ => diagnostic,
        }
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

    /// Checks a coordinate; returns the literal position when it lies on the map.
    /// Checks a coordinate; returns the literal position when it lies on the map. `read`
    /// says how lev_comp looks at the map there, which decides where it crashes.
    fn coordinate(
        &self,
        out: &mut Vec<Diagnostic>,
        at: &Spanned<Coordinate>,
        read: MapRead,
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
        let on_map = (0..=self.max_x).contains(&x) && (0..=self.max_y).contains(&y);
        // lev_comp reads its map row at this position without checking that the row exists.
        let crashes = x >= 0
            && y >= 0
            && match read {
                MapRead::Unbounded => self.map.is_none() || !on_map,
                MapRead::Bounded => self.map.is_none() && on_map,
                MapRead::None => false,
            };
        if self.map.is_none() {
            if crashes {
                out.push(Diagnostic::new(
                    Code::NH0401,
                    at.range,
                    "lev_comp reads the map at this position, but a NOMAP part has no map: it crashes. Use `random` or a place[i] register, or add a GEOMETRY and MAP",
                ));
            } else if !self.init_map && !on_map {
                out.push(Diagnostic::new(
                    Code::NH0115,
                    at.range,
                    format!("({x},{y}) is outside the range lev_comp allows in a NOMAP part: x from 0 to 79, y from 0 to 21"),
                ));
            } else if self.init_map && (!(0..=78).contains(&x) || !(0..=20).contains(&y)) {
                out.push(Diagnostic::new(
                    Code::NH0407,
                    at.range,
                    format!("({x},{y}) is outside the level: in a NOMAP part of an INIT_MAP level x goes from 0 to 78 and y from 0 to 20"),
                ));
            }
            return None;
        }
        if let Some((x0, y0)) = self.origin {
            if crashes {
                out.push(self.map_label(Diagnostic::new(
                    Code::NH0115,
                    at.range,
                    format!("({x},{y}) is outside this part's map; with INIT_MAP lev_comp does not say so, but it reads the map there and crashes. Keep x within 0..{} and y within 0..{}", self.max_x, self.max_y),
                )));
                return None;
            }
            // With INIT_MAP the cave surrounds the map, so a coordinate may leave the map
            // as long as it stays on the level.
            let (ax, ay) = (x0 + x, y0 + y);
            if !(1..=79).contains(&ax) || !(0..=20).contains(&ay) {
                out.push(self.map_label(Diagnostic::new(
                    Code::NH0407,
                    at.range,
                    format!("({x},{y}) from this map's corner lands at ({ax},{ay}) on the level, which is outside it (x 1 to 79, y 0 to 20)"),
                )));
                return None;
            }
            return on_map.then_some((x, y));
        }
        if !on_map {
            let diagnostic = Diagnostic::new(
                Code::NH0115,
                at.range,
                format!(
                    "({x},{y}) is outside this part's map: x goes from 0 to {} and y from 0 to {}, counted from the map's top-left corner{}",
                    self.max_x,
                    self.max_y,
                    if crashes {
                        " (lev_comp then crashes reading the map there)"
                    } else {
                        ""
                    }
                ),
            );
            out.push(self.map_label(diagnostic));
            return None;
        }
        Some((x, y))
    }

    /// lev_comp's `check_coord`: something placed on rock or a door.
    fn placed(&self, out: &mut Vec<Diagnostic>, at: &Spanned<Coordinate>, what: &str) {
        let Some((x, y)) = self.coordinate(out, at, MapRead::Bounded) else {
            return;
        };
        if let Some(terrain) = self.terrain(x, y)
            && terrain.is_rock_or_door()
        {
            let diagnostic = Diagnostic::new(
                Code::NH0205,
                at.range,
                format!(
                    "{what} is placed at ({x},{y}), which is {} on the map; move it to an open cell",
                    terrain.description()
                ),
            );
            out.push(self.cell_label(diagnostic, x, y));
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
            "the first corner of this area is right of or below the second, so it is empty; swap them",
        ));
    }
}

fn check_map(out: &mut Vec<Diagnostic>, map: &Map) {
    let (width, height) = (map.width(), map.height());
    if width == 0 || height == 0 {
        out.push(Diagnostic::new(
            Code::NH0403,
            map.keyword,
            "this map has no cells; the game panics when it places anything at random in it. Draw at least one row",
        ));
    }
    if height > MAX_MAP_HEIGHT {
        let row = map.rows[MAX_MAP_HEIGHT].range;
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
            .rows
            .iter()
            .position(|r| r.cells.len() == width)
            .unwrap_or(0);
        let range = map
            .cell_range(MAX_MAP_WIDTH as i64, widest as i64)
            .unwrap_or(map.rows[widest].range);
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

fn check_part(out: &mut Vec<Diagnostic>, part: &MapPart, init_map: bool) {
    if let Some(map) = &part.map {
        check_map(out, map);
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
        grid: part.map.as_ref().map(Map::terrain_grid),
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
            scope.coordinate(
                out,
                &Spanned::new(Coordinate::At { x, y }, place.range),
                MapRead::None,
            );
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
                if let Some((x, y)) = scope.coordinate(out, at, MapRead::Unbounded)
                    && let Some(terrain) = scope.terrain(x, y)
                    && !matches!(terrain, Terrain::Door | Terrain::SecretDoor)
                {
                    let diagnostic = Diagnostic::new(
                        Code::NH0121,
                        at.range,
                        format!(
                            "a DOOR must stand on a door ('+') or secret door ('S') of the map, but ({x},{y}) is {}; fix the map or the coordinate",
                            terrain.description()
                        ),
                    );
                    out.push(scope.cell_label(diagnostic, x, y));
                }
            }
            DetailKind::Drawbridge {
                at,
                direction,
                state,
            } => {
                if let Some((x, y)) = scope.coordinate(out, at, MapRead::Unbounded) {
                    let (dx, dy) = direction.value.delta();
                    let (wx, wy) = (x + dx, y + dy);
                    match scope.terrain(wx, wy) {
                        None if scope.grid.is_some() => out.push(Diagnostic::new(
                            Code::NH0410,
                            direction.range,
                            format!("the drawbridge's wall would be at ({wx},{wy}), outside the map; lev_comp reads past the map there. Move the drawbridge inside"),
                        )),
                        Some(terrain) if !terrain.is_wall() => {
                            let diagnostic = Diagnostic::new(
                                Code::NH0122,
                                at.range,
                                format!("a drawbridge needs a wall next to it in its direction, but ({wx},{wy}) is {}", terrain.description()),
                            );
                            out.push(scope.cell_label(diagnostic, wx, wy));
                        }
                        _ => {}
                    }
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
                scope.coordinate(out, at, MapRead::None);
            }
            DetailKind::Wallify => {
                if let Some(grid) = &mut scope.grid {
                    wallify(grid);
                }
            }
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
                scope.coordinate(out, at, MapRead::None);
            }
            DetailKind::Gold { at, .. } => scope.placed(out, at, "the gold"),
            DetailKind::Engraving { at, .. } => scope.placed(out, at, "the engraving"),
            DetailKind::NonDiggable(rect) => {
                if scope.rect(out, rect) {
                    start_after_end(out, rect.range, rect.value);
                }
            }
            DetailKind::NonPasswall(rect) => {
                if scope.rect(out, rect) {
                    start_after_end(out, rect.range, rect.value);
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
}

pub(super) fn check_contained(
    out: &mut Vec<Diagnostic>,
    object: &levkit_model::nethack::Object,
    container_seen: bool,
) {
    if let Some(range) = object.contained {
        if object.is_container {
            out.push(Diagnostic::new(
                Code::NH0416,
                range,
                "a container cannot be put inside another container; the game does not nest them",
            ));
        } else if !container_seen {
            out.push(Diagnostic::new(
                Code::NH0416,
                range,
                "`contained` puts the object into the last CONTAINER, but none comes before it here; add a CONTAINER line above",
            ));
        }
    }
}

fn check_region(out: &mut Vec<Diagnostic>, scope: &Part<'_>, region: &Region) {
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
    if !in_map || scope.grid.is_none() {
        return;
    }
    let Rect { x1, y1, x2, y2 } = rect;
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
    } else if irregular
        && let Some(terrain) = scope.terrain(x1, y1)
        && !terrain.is_room()
    {
        let diagnostic = Diagnostic::new(
            Code::NH0120,
            region.rect.range,
            format!(
                "an irregular region is flood-filled from its first corner ({x1},{y1}), which must be floor, but it is {}",
                terrain.description()
            ),
        );
        out.push(scope.cell_label(diagnostic, x1, y1));
    }
}
