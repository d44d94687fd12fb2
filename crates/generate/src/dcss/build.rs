//! One resolution of a vault in progress: crawl's map while its chunks run (the glyph
//! rectangle, tags, orientation, the glyph-keyed specs, MONS and ITEM slots, overlays,
//! markers), the header functions that change it (each called with the text crawl's generated
//! Lua passes), and, once the chunks have run, the orientation draws and the resolution of
//! every cell into terrain, monsters and items.

use std::collections::HashMap;
use std::sync::Arc;

use levkit_model::dcss::spec::{self, Sep};

use super::grid::{Grid, NONE, Trace, record};
use super::look::{self, Look, Terrain};
use super::program::Program;
use super::rng::Rng;
use super::situation::Situation;

/// An alternative of a random choice (`orc w:5`): its text and weight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alt {
    pub text: String,
    pub weight: u32,
}

/// `a / b w:5 / c`: alternatives split at `/`, `w:N` (or `weight:N`) taken as the weight.
pub fn alternatives(text: &str) -> Vec<Alt> {
    text.split('/')
        .map(|piece| {
            let mut weight = spec::DEFAULT_WEIGHT;
            let mut words = Vec::new();
            for word in piece.split_whitespace() {
                match word
                    .strip_prefix("w:")
                    .or_else(|| word.strip_prefix("weight:"))
                    .and_then(|w| w.parse::<u32>().ok())
                {
                    Some(w) => weight = w,
                    None => words.push(word),
                }
            }
            Alt {
                text: words.join(" "),
                weight,
            }
        })
        .collect()
}

/// A random choice among alternatives, drawn per cell (`=`) or once for all (`:`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    pub sep: Sep,
    pub alts: Vec<Alt>,
    /// The draw made once, for `:`.
    pub fixed: Option<usize>,
    /// The statement ([`Program::sites`]) that made it.
    pub by: u32,
    /// Which choice of its statement it is (for the statistics).
    pub part: u16,
}

impl Choice {
    fn draw(&mut self, rng: &mut Rng, trace: &mut Trace) -> Option<usize> {
        if self.sep == Sep::Once
            && let Some(i) = self.fixed
        {
            return Some(i);
        }
        let i = rng.weighted(self.alts.iter().map(|a| u64::from(a.weight)))?;
        record(trace, self.by, self.part, i);
        self.fixed = Some(i);
        Some(i)
    }
}

/// What KFEAT, KMONS, KITEM and KMASK attach to a glyph (indexes into [`Build::choices`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Keyed {
    pub feat: Option<usize>,
    /// KMONS slots, tried in order.
    pub mons: Vec<usize>,
    /// KITEM items, all placed.
    pub items: Vec<usize>,
    pub mask: Vec<String>,
}

/// What COLOUR, FTILE, RTILE, TILE, KPROP and FHEIGHT bound to a cell.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Overlay {
    pub colour: Option<(String, u32)>,
    pub floor_tile: Option<String>,
    pub rock_tile: Option<String>,
    pub tile: Option<String>,
    pub props: Vec<String>,
    pub height: Option<String>,
}

/// A marker (MARKER, `lua_marker`, the helper markers): on a glyph, or a cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marker {
    pub glyph: Option<u8>,
    pub what: String,
    pub by: u32,
}

/// Something the preview says about an outcome.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Note {
    pub message: String,
    /// The statement concerned ([`Program::sites`]), or [`NONE`].
    pub by: u32,
    /// Whether it names a crawl function levkit does not model (the counted kind).
    pub unmodelled: bool,
}

/// A subvault placed into the map: its own resolution, and where it went.
#[derive(Debug, Clone)]
pub struct Placed {
    pub build: Box<Build>,
    pub x: usize,
    pub y: usize,
    pub by: u32,
}

/// crawl's map while its chunks run.
#[derive(Debug, Clone)]
pub struct Build {
    pub program: Arc<Program>,
    pub situation: Situation,
    pub grid: Grid,
    /// Whether `mapchunk` has run (then `map("row")` grows the grid instead).
    pub padded: bool,
    pub rows: Vec<(Vec<u8>, u32)>,
    pub tags: Vec<String>,
    pub orient: Option<String>,
    pub keyed: HashMap<u8, Keyed>,
    pub choices: Vec<Choice>,
    /// MONS slots 1-7 and more, ITEM slots d-k and more.
    pub mons: Vec<usize>,
    pub items: Vec<usize>,
    pub overlays: Vec<Overlay>,
    pub markers: Vec<Marker>,
    pub subvaults: Vec<Placed>,
    /// Feature names changed by `set_feature_name`, shown in descriptions.
    pub feature_names: HashMap<String, String>,
    pub notes: Vec<Note>,
    pub printed: Vec<String>,
    pub rng: Rng,
    pub trace: Trace,
    /// How many statements of each site ran (choice `part`s count per site).
    parts: HashMap<u32, u16>,
    /// When resolving a subvault: the size of the space it is asked to fill.
    pub subvault_size: Option<(usize, usize)>,
    pub subvault_mask: Option<Grid>,
    /// The level's list of random monsters (`set_random_mon_list`), drawn for `0`, `8`, `9`.
    pub random_monsters: Option<usize>,
    /// How many subvault resolutions the whole placement may still try (shared by the
    /// vault and all its subvaults, so that nested retries stay bounded).
    pub subvault_tries: std::rc::Rc<std::cell::Cell<u32>>,
    /// How deep in subvaults this build is.
    pub depth: u32,
    /// The orientation drawn: mirrored left-right, top-bottom, and turned.
    pub orientation: Orientation,
    /// The cells once resolved (a subvault is resolved once, when its parent is).
    pub resolved: Option<Vec<Square>>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Orientation {
    pub hmirror: bool,
    pub vmirror: bool,
    /// `Some(true)`: a clockwise quarter turn.
    pub rotate: Option<bool>,
}

impl Orientation {
    pub fn describe(self) -> String {
        let mut parts = Vec::new();
        if self.hmirror {
            parts.push("mirrored left to right");
        }
        if self.vmirror {
            parts.push("mirrored top to bottom");
        }
        match self.rotate {
            Some(true) => parts.push("turned clockwise"),
            Some(false) => parts.push("turned anticlockwise"),
            None => {}
        }
        if parts.is_empty() {
            "as written".into()
        } else {
            parts.join(", ")
        }
    }
}

/// What a cell becomes once the vault is placed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Square {
    /// The map glyph (after the transforms and the orientation).
    pub glyph: u8,
    pub terrain: Terrain,
    /// The KFEAT statement that chose the terrain, or [`NONE`] (the glyph's own meaning).
    pub terrain_by: u32,
    pub monster: Option<(Look, u32)>,
    pub items: Vec<(Look, u32)>,
    /// The colour COLOUR gave the cell, and its statement.
    pub colour: Option<(String, u32)>,
    /// Other overlays, in words (tiles, properties, heights).
    pub details: Vec<String>,
    /// The map character it started as (`row << 16 | column`), or [`NONE`].
    pub origin: u32,
    /// The statement that last changed its glyph, or [`NONE`].
    pub by: u32,
    /// The subvault that filled the cell (index into [`Build::subvaults`]), or [`NONE`].
    pub sub: u32,
}

pub type Failure = String;

/// How many subvaults (tries included) one placement may resolve: crawl retries a subvault
/// that fails up to 100 times, which nested four deep would never end.
pub const SUBVAULT_TRIES: u32 = 400;

impl Build {
    pub fn new(program: Arc<Program>, situation: Situation, rng: Rng, trace: bool) -> Build {
        Build {
            situation,
            grid: Grid::default(),
            padded: false,
            rows: Vec::new(),
            tags: program.tags.clone(),
            orient: None,
            keyed: HashMap::new(),
            choices: Vec::new(),
            mons: Vec::new(),
            items: Vec::new(),
            overlays: Vec::new(),
            markers: Vec::new(),
            subvaults: Vec::new(),
            feature_names: HashMap::new(),
            notes: Vec::new(),
            printed: Vec::new(),
            rng,
            trace: trace.then(Vec::new),
            parts: HashMap::new(),
            subvault_size: None,
            subvault_mask: None,
            random_monsters: None,
            subvault_tries: std::rc::Rc::new(std::cell::Cell::new(SUBVAULT_TRIES)),
            depth: 0,
            orientation: Orientation::default(),
            resolved: None,
            program,
        }
    }

    pub fn has_tag(&self, tag: &str) -> bool {
        self.tags.iter().any(|t| t == tag)
    }

    pub fn note(&mut self, message: String, by: u32) {
        let note = Note {
            message,
            by,
            unmodelled: false,
        };
        if !self.notes.contains(&note) {
            self.notes.push(note);
        }
    }

    /// A crawl function levkit does not model was called.
    pub fn unmodelled(&mut self, function: &str, by: u32) {
        let note = Note {
            message: format!(
                "levkit does not model `{function}`: the preview ignores what it does"
            ),
            by,
            unmodelled: true,
        };
        if !self.notes.contains(&note) {
            self.notes.push(note);
        }
    }

    fn next_part(&mut self, by: u32) -> u16 {
        let part = self.parts.entry(by).or_insert(0);
        let this = *part;
        *part += 1;
        this
    }

    fn new_choice(&mut self, sep: Sep, alts: Vec<Alt>, by: u32) -> usize {
        let part = self.next_part(by);
        self.choices.push(Choice {
            sep,
            alts,
            fixed: None,
            by,
            part,
        });
        self.choices.len() - 1
    }

    /// The rows `map("...")` gave so far, as a rectangle (crawl pads them before `main`).
    pub fn pad(&mut self) {
        if !self.padded {
            let rows: Vec<Vec<u8>> = self.rows.iter().map(|(r, _)| r.clone()).collect();
            self.grid = Grid::from_rows(&rows);
            // A row Lua gave has no map character behind it.
            for (y, (_, site)) in self.rows.iter().enumerate() {
                if *site == NONE {
                    for x in 0..self.grid.width {
                        self.grid.at_mut(x, y).origin = NONE;
                    }
                }
            }
            self.padded = true;
        }
    }

    /// Runs the header calls of `main` of a vault without Lua.
    pub fn run_calls(&mut self) -> Result<(), (Failure, u32)> {
        let program = self.program.clone();
        for (row, site) in &program.rows {
            self.rows.push((row.clone(), *site));
        }
        self.pad();
        for call in &program.calls {
            self.apply(call.function, &call.arg, call.site)
                .map_err(|message| (message, call.site))?;
        }
        Ok(())
    }

    /// crawl's header function `function` called with `arg` by statement `by`.
    pub fn apply(&mut self, function: &str, arg: &str, by: u32) -> Result<(), Failure> {
        let spec_error = |e: spec::SpecError| e.message;
        match function {
            "map" => {
                let row = arg.as_bytes().to_vec();
                if self.padded {
                    self.push_row(row);
                } else {
                    self.rows.push((row, by));
                }
            }
            "subst" => {
                let subst = spec::subst(arg).map_err(spec_error)?;
                self.grid.subst(&subst, &mut self.rng, &mut self.trace, by);
            }
            "nsubst" => {
                let nsubst = spec::nsubst(arg).map_err(spec_error)?;
                self.grid
                    .nsubst(&nsubst, &mut self.rng, &mut self.trace, by);
            }
            "shuffle" => {
                for item in arg.split(',') {
                    let shuffle = spec::shuffle(item).map_err(spec_error)?;
                    self.grid
                        .shuffle(&shuffle, &mut self.rng, &mut self.trace, by);
                }
            }
            "clear" => {
                let glyphs = spec::clear(arg).map_err(spec_error)?;
                self.grid.clear(&glyphs, by);
            }
            "kfeat" | "kmons" | "kitem" | "kmask" => self.keyed(function, arg, by)?,
            "mons" => {
                let choice = self.new_choice(Sep::Each, alternatives(arg), by);
                self.mons.push(choice);
            }
            "item" => {
                let choice = self.new_choice(Sep::Each, alternatives(arg), by);
                self.items.push(choice);
            }
            "colour" | "ftile" | "rtile" | "tile" | "kprop" | "fheight" => {
                self.overlay(function, arg, by)?
            }
            "tags" => {
                for tag in arg.split_whitespace() {
                    if !self.has_tag(tag) {
                        self.tags.push(tag.to_string());
                    }
                }
            }
            "tags_remove" => {
                let gone: Vec<&str> = arg.split_whitespace().collect();
                self.tags.retain(|t| !gone.contains(&t.as_str()));
            }
            "orient" => self.orient = Some(arg.trim().to_string()),
            "marker" => {
                let keyed = spec::split(arg).map_err(spec_error)?;
                for glyph in keyed.key.bytes() {
                    self.markers.push(Marker {
                        glyph: Some(glyph),
                        what: keyed.value.to_string(),
                        by,
                    });
                }
            }
            // What only the level or the game uses: nothing to draw.
            "depth" | "place" | "desc" | "welcome" | "lfloorcol" | "lrockcol" | "lfloortile"
            | "lrocktile" | "chance" | "weight" | "order" | "depth_weight" | "depth_chance" => {}
            "set_random_mon_list" => {
                // crawl's list is comma-separated; each random monster draws from all of it.
                let alts = arg.split(',').flat_map(alternatives).collect();
                self.random_monsters = Some(self.new_choice(Sep::Each, alts, by));
            }
            "subvault" => return Err("subvault() is resolved by the caller".into()),
            other => self.unmodelled(other, by),
        }
        Ok(())
    }

    fn push_row(&mut self, row: Vec<u8>) {
        let mut rows: Vec<Vec<u8>> = self
            .grid
            .cells
            .chunks(self.grid.width.max(1))
            .take(self.grid.height)
            .map(|r| r.iter().map(|c| c.glyph).collect())
            .collect();
        let old = self.grid.clone();
        rows.push(row);
        let mut grid = Grid::from_rows(&rows);
        for y in 0..old.height {
            for x in 0..old.width {
                *grid.at_mut(x, y) = *old.at(x, y);
            }
        }
        for x in 0..grid.width {
            grid.at_mut(x, old.height).origin = NONE;
        }
        self.grid = grid;
    }

    fn keyed(&mut self, function: &str, arg: &str, by: u32) -> Result<(), Failure> {
        let keyed = spec::split(arg).map_err(|e| e.message)?;
        let glyphs: Vec<u8> = keyed.key.bytes().collect();
        match function {
            "kfeat" => {
                let choice = self.new_choice(keyed.sep, alternatives(keyed.value), by);
                for g in glyphs {
                    self.keyed.entry(g).or_default().feat = Some(choice);
                }
            }
            "kmons" => {
                let slots: Vec<usize> = keyed
                    .value
                    .split(',')
                    .map(|slot| self.new_choice(keyed.sep, alternatives(slot), by))
                    .collect();
                for g in glyphs {
                    self.keyed.entry(g).or_default().mons = slots.clone();
                }
            }
            "kitem" => {
                let items: Vec<usize> = keyed
                    .value
                    .split(',')
                    .map(|item| self.new_choice(keyed.sep, alternatives(item), by))
                    .collect();
                for g in glyphs {
                    self.keyed.entry(g).or_default().items = items.clone();
                }
            }
            _ => {
                let flags: Vec<String> =
                    keyed.value.split_whitespace().map(str::to_string).collect();
                for g in glyphs {
                    self.keyed.entry(g).or_default().mask = flags.clone();
                }
            }
        }
        Ok(())
    }

    fn overlay(&mut self, function: &str, arg: &str, by: u32) -> Result<(), Failure> {
        let overlay = spec::overlay(arg).map_err(|e| e.message)?;
        let alts: Vec<Alt> = overlay
            .options
            .iter()
            .map(|o| Alt {
                text: o.value.clone(),
                weight: o.weight,
            })
            .collect();
        let choice = self.new_choice(overlay.sep, alts, by);
        for at in self.grid.positions(overlay.keys.as_bytes()) {
            let Some(i) = self.choices[choice]
                .clone()
                .draw(&mut self.rng, &mut self.trace)
            else {
                continue;
            };
            if self.choices[choice].sep == Sep::Once {
                self.choices[choice].fixed = Some(i);
            }
            let value = self.choices[choice].alts[i].text.clone();
            let cell = &mut self.grid.cells[at];
            let mut set = if cell.overlay == NONE {
                Overlay::default()
            } else {
                self.overlays[cell.overlay as usize].clone()
            };
            match function {
                "colour" => set.colour = (value != "none").then_some((value, by)),
                "ftile" => set.floor_tile = (value != "none").then_some(value),
                "rtile" => set.rock_tile = (value != "none").then_some(value),
                "tile" => set.tile = (value != "none").then_some(value),
                "kprop" => set.props.push(value),
                _ => set.height = Some(value),
            }
            self.overlays.push(set);
            cell.overlay = (self.overlays.len() - 1) as u32;
        }
        Ok(())
    }

    /// Mirrors and turns the map as crawl does once the vault is chosen: each with one chance
    /// in two, unless a tag forbids it (a map wider or taller than 70 is not turned, a
    /// single cell is never flipped).
    pub fn orient_randomly(&mut self) {
        let single = self.grid.width <= 1 && self.grid.height <= 1;
        if self.rng.coinflip() && !self.has_tag("no_hmirror") && !single {
            self.grid.hmirror();
            self.orientation.hmirror = true;
            self.orient = self.orient.take().map(|o| swap_words(&o, "east", "west"));
        }
        if self.rng.coinflip() && !self.has_tag("no_vmirror") && !single {
            self.grid.vmirror();
            self.orientation.vmirror = true;
            self.orient = self.orient.take().map(|o| swap_words(&o, "north", "south"));
        }
        if self.rng.coinflip() {
            let clockwise = self.rng.coinflip();
            if !self.has_tag("no_rotate")
                && !single
                && self.grid.width <= 70
                && self.grid.height <= 70
            {
                self.grid.rotate(clockwise);
                self.orientation.rotate = Some(clockwise);
                self.orient = self.orient.take().map(|o| turn(&o, clockwise));
            }
        }
    }

    fn draw(&mut self, choice: usize) -> Option<Alt> {
        let mut c = std::mem::replace(
            &mut self.choices[choice],
            Choice {
                sep: Sep::Each,
                alts: Vec::new(),
                fixed: None,
                by: NONE,
                part: 0,
            },
        );
        let i = c.draw(&mut self.rng, &mut self.trace);
        let alt = i.map(|i| c.alts[i].clone());
        self.choices[choice] = c;
        alt
    }

    fn slot_monster(&mut self, choice: usize) -> Option<(Look, u32)> {
        let by = self.choices[choice].by;
        let alt = self.draw(choice)?;
        look::monster(&alt.text).map(|l| (l, by))
    }

    fn slot_item(&mut self, choice: usize) -> Option<(Look, u32)> {
        let by = self.choices[choice].by;
        let alt = self.draw(choice)?;
        look::item(&alt.text).map(|l| (l, by))
    }

    fn kfeat_terrain(&mut self, choice: usize) -> Option<(Terrain, u32)> {
        let by = self.choices[choice].by;
        let alt = self.draw(choice)?;
        let text: String = alt
            .text
            .split_whitespace()
            .filter(|w| *w != "mimic" && *w != "no_mimic" && !w.starts_with("mimic:"))
            .collect::<Vec<_>>()
            .join(" ");
        let terrain = if text.len() == 1 {
            look::glyph_terrain(text.as_bytes()[0], &self.situation.branch)
        } else if let Some(t) = look::feature(&text) {
            t
        } else if text.ends_with("trap") || text == "web" || text == "shaft" || text == "trap" {
            look::trap(&text)
        } else if text.contains("shop") || text.contains("store") || text.contains("emporium") {
            look::shop(&text)
        } else {
            self.note(
                format!("levkit does not know the feature {text:?}: drawn as floor"),
                by,
            );
            look::floor()
        };
        Some((terrain, by))
    }

    /// Every cell as the game makes it: KFEAT, KMONS, KITEM, the MONS and ITEM slots and the
    /// glyphs' own meanings, after the orientation.
    pub fn resolve(&mut self) -> Vec<Square> {
        let mut out = Vec::with_capacity(self.grid.cells.len());
        let branch = self.situation.branch.clone();
        for at in 0..self.grid.cells.len() {
            let cell = self.grid.cells[at];
            if cell.sub != NONE {
                // Filled by a subvault: its own resolution, already made.
                out.push(self.subvault_square(cell.sub, cell.sub_at));
                continue;
            }
            let glyph = cell.glyph;
            let keyed = self.keyed.get(&glyph).cloned().unwrap_or_default();
            let (mut terrain, mut terrain_by) = (look::glyph_terrain(glyph, &branch), NONE);
            if let Some(choice) = keyed.feat
                && let Some((t, by)) = self.kfeat_terrain(choice)
            {
                terrain = t;
                terrain_by = by;
            }
            let mut monster = None;
            for &slot in &keyed.mons {
                if let Some(m) = self.slot_monster(slot) {
                    monster = Some(m);
                    break;
                }
            }
            let mut items = Vec::new();
            for &item in &keyed.items {
                if let Some(i) = self.slot_item(item) {
                    items.push(i);
                }
            }
            if keyed.feat.is_none() && (!keyed.mons.is_empty() || !keyed.items.is_empty()) {
                terrain = look::floor();
            }
            if keyed.mons.is_empty() {
                match glyph {
                    b'1'..=b'7' => {
                        let slot = (glyph - b'1') as usize;
                        match self.mons.get(slot).copied() {
                            Some(choice) => monster = self.slot_monster(choice),
                            None => {
                                monster = look::monster("random").map(|l| (l, NONE));
                            }
                        }
                    }
                    b'0' | b'8' | b'9' => {
                        monster = match self.random_monsters {
                            Some(list) => self.slot_monster(list),
                            None => look::monster(&(glyph as char).to_string()).map(|l| (l, NONE)),
                        };
                    }
                    _ => {}
                }
            }
            if keyed.items.is_empty() {
                match glyph {
                    b'd'..=b'k' => {
                        let slot = (glyph - b'd') as usize;
                        if let Some(choice) = self.items.get(slot).copied() {
                            items.extend(self.slot_item(choice));
                        } else {
                            items.extend(look::item("%").map(|l| (l, NONE)));
                        }
                    }
                    b'%' | b'*' | b'|' | b'$' => {
                        items.extend(look::item(&(glyph as char).to_string()).map(|l| (l, NONE)));
                    }
                    _ => {}
                }
            }
            let (colour, details) = match cell.overlay {
                NONE => (None, Vec::new()),
                i => {
                    let o = &self.overlays[i as usize];
                    let mut details = Vec::new();
                    if let Some(t) = &o.floor_tile {
                        details.push(format!("floor tile {t}"));
                    }
                    if let Some(t) = &o.rock_tile {
                        details.push(format!("wall tile {t}"));
                    }
                    if let Some(t) = &o.tile {
                        details.push(format!("tile {t}"));
                    }
                    for p in &o.props {
                        details.push(format!("property {p}"));
                    }
                    if let Some(h) = &o.height {
                        details.push(format!("height {h}"));
                    }
                    (o.colour.clone(), details)
                }
            };
            if let Some(name) = self.feature_names.get(&terrain.feature) {
                terrain.description = name.clone();
            }
            out.push(Square {
                glyph,
                terrain,
                terrain_by,
                monster,
                items,
                colour,
                details,
                origin: cell.origin,
                by: cell.by,
                sub: NONE,
            });
        }
        out
    }

    fn subvault_square(&mut self, sub: u32, at: u32) -> Square {
        let placed = &mut self.subvaults[sub as usize];
        if placed.build.resolved.is_none() {
            let squares = placed.build.resolve();
            placed.build.resolved = Some(squares);
        }
        let mut square =
            placed.build.resolved.as_ref().expect("resolved above")[at as usize].clone();
        square.sub = sub;
        square.origin = NONE;
        square
    }
}

fn swap_words(text: &str, a: &str, b: &str) -> String {
    text.replace(a, "\u{0}").replace(b, a).replace('\u{0}', b)
}

/// An orientation after a quarter turn (`northeast` turned clockwise is `southeast`).
fn turn(text: &str, clockwise: bool) -> String {
    let (mut x, mut y) = (0i32, 0i32);
    let mut rest = text;
    for (word, dx, dy) in [
        ("north", 0, -1),
        ("south", 0, 1),
        ("east", 1, 0),
        ("west", -1, 0),
    ] {
        if let Some(r) = rest.strip_prefix(word) {
            x += dx;
            y += dy;
            rest = r;
        }
    }
    if (x, y) == (0, 0) || !rest.is_empty() {
        return text.to_string();
    }
    let (x, y) = if clockwise { (-y, x) } else { (y, -x) };
    let vertical = match y {
        -1 => "north",
        1 => "south",
        _ => "",
    };
    let horizontal = match x {
        1 => "east",
        -1 => "west",
        _ => "",
    };
    format!("{vertical}{horizontal}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alternatives_take_their_weights() {
        let alts = alternatives("orc w:5 / goblin / kobold weight:2");
        let got: Vec<(&str, u32)> = alts.iter().map(|a| (a.text.as_str(), a.weight)).collect();
        assert_eq!(got, [("orc", 5), ("goblin", 10), ("kobold", 2)]);
        assert_eq!(turn("northeast", true), "southeast");
        assert_eq!(turn("north", false), "west");
        assert_eq!(turn("float", true), "float");
        assert_eq!(swap_words("northwest", "east", "west"), "northeast");
    }
}
