//! crawl's whole-vault checks, made once the vault's Lua has run: temples, the 1x1 rule of
//! `overwrite_floor_cell`, abyss vaults, the size per orientation, exits, and whether the
//! vault can be chosen at all. crawl reports them at the line where it noticed the vault had
//! ended (the next vault's NAME:); here each is at what causes it.
//!
//! Lua may change tags, depths and the map, so a vault with Lua of its own gets only the
//! checks its Lua cannot change. The map checks run on every map the header transforms can
//! make: an error only when no outcome passes (crawl draws one outcome at random).

use levkit_diagnostics::{Code, Diagnostic, TextRange};
use levkit_model::dcss::Vault;
use levkit_model::dcss::spec::{self, Transform};
use levkit_model::dcss::tables::WORDS;
use levkit_syntax::dcss::Header;

use rustc_hash::FxHashSet;
use std::sync::LazyLock;

use super::{Context, Depths, Transforms};

pub(super) fn check(
    vault: &Vault,
    context: Context,
    transforms: &Transforms,
    depths: &Depths,
    out: &mut Vec<Diagnostic>,
) {
    let authored_lua = vault.lua.iter().any(|l| l.has_code());
    let tags: Vec<&str> = vault.tags().map(|a| a.text.as_str()).collect();
    let orient = vault
        .headers_of(Header::Orient)
        .last()
        .and_then(|h| h.args.first());
    let orient_text = orient.map_or("", |a| a.text.as_str());
    let name = &vault.name.value;
    let tag_range = |wanted: &dyn Fn(&str) -> bool| {
        vault
            .tags()
            .find(|a| wanted(&a.text))
            .map_or(vault.name.range, |a| a.range)
    };

    if !authored_lua {
        placeable(vault, context, depths, &tags, orient_text, out);
    }

    let rows: Vec<&[u8]> = vault.rows().map(|r| r.text.as_bytes()).collect();
    if rows.is_empty() || authored_lua {
        return;
    }
    let map_range = vault
        .maps
        .iter()
        .find(|m| !m.rows.is_empty())
        .map_or(vault.name.range, |m| {
            TextRange::at(m.range.start(), 3.into())
        });
    let width = rows.iter().map(|r| r.len()).max().unwrap_or(0);
    let height = rows.len();

    let transforms: Vec<&Transform> = transforms.valid().collect();
    let mut image = OWN_IMAGES;
    let grid = Grid::new(&transforms, &rows, width, &mut image);
    let in_temple = depths.of_kind(vault, Header::Place).any(|(_, ranges)| {
        ranges.as_ref().is_ok_and(|ranges| {
            ranges
                .iter()
                .any(|r| !r.exclude && r.branch.as_deref() == Some("Temple"))
        })
    });
    let overflow = tags.iter().find(|t| t.starts_with("temple_overflow_"));
    match overflow {
        // crawl trusts the specialised overflow temples.
        Some(tag) if !tag.starts_with("temple_overflow_generic_") => {}
        Some(_) => {
            if let Some(altars) = grid.exact_count(b'B') {
                let wanted = format!("temple_overflow_generic_{altars}");
                if !tags.contains(&wanted.as_str()) {
                    out.push(Diagnostic::new(
                        Code::DC0201,
                        tag_range(&|t| t.starts_with("temple_overflow_generic_")),
                        format!(
                            "the temple has {altars} altars (`B`) but not the tag '{wanted}'; the generic overflow tag must match the number of altars"
                        ),
                    ));
                }
            }
        }
        None if in_temple && !grid.may_hold(b'B') => out.push(Diagnostic::new(
            Code::DC0201,
            map_range,
            "Temple vault must contain at least one altar: put a `B` in the map",
        )),
        None => {}
    }
    let temple = match overflow {
        Some(tag) => tag.starts_with("temple_overflow_generic_"),
        None => in_temple,
    };
    if temple {
        temple_altars(vault, &grid, map_range, out);
    }
    if tags.contains(&"overwrite_floor_cell") && (width != 1 || height != 1) {
        out.push(Diagnostic::new(
            Code::DC0202,
            tag_range(&|t| t == "overwrite_floor_cell"),
            format!("Map tagged 'overwrite_floor_cell' must be 1x1, not {width}x{height}"),
        ));
    }
    if tags.iter().any(|t| matches!(*t, "abyss" | "abyss_rune")) {
        if orient_text == "encompass" {
            out.push(Diagnostic::new(
                Code::DC0203,
                orient.map_or(map_range, |a| a.range),
                format!("Map '{name}' cannot use 'encompass' orientation in the abyss"),
            ));
        }
        if width > 28 || height > 23 {
            out.push(Diagnostic::new(
                Code::DC0204,
                map_range,
                format!("Map '{name}' is too big for the Abyss: {width}x{height} - max 28x23"),
            ));
        }
    } else if let Some(depth) = abyss_depth(vault, depths) {
        // Beyond crawl: the Abyss also picks vaults by DEPTH, and crawl checks only the tags.
        let why = if orient_text == "encompass" {
            Some((
                "uses ORIENT: encompass".to_string(),
                orient.map_or(map_range, |a| a.range),
            ))
        } else if width > 28 || height > 23 {
            Some((format!("is {width}x{height}, larger than 28x23"), map_range))
        } else {
            None
        };
        if let Some((why, range)) = why {
            out.push(
                Diagnostic::new(
                    Code::DC0415,
                    range,
                    format!(
                        "Map '{name}' can be placed in the Abyss (DEPTH: {}) but {why}: crawl does not check it because the vault is not tagged abyss, and the Abyss cannot place it",
                        depth.text
                    ),
                )
                .with_label(depth.range, "placed in the Abyss here"),
            );
        }
    }
    size_checks(name, orient_text, width, height, map_range, out);

    let exempt = orient_text == "encompass"
        || tags
            .iter()
            .any(|t| matches!(*t, "unrand" | "dummy" | "no_exits"));
    let exits = if exempt {
        Exits {
            possible: true,
            certain: true,
            cells: Vec::new(),
        }
    } else {
        grid.exits()
    };
    if !exits.possible {
        out.push(Diagnostic::new(
            Code::DC0206,
            map_range,
            format!(
                "Map '{name}' has no (possible) exits: no stair, and no door, `@` or passable cell on the map's edge or next to a blank; use TAGS: no_exits if this is intentional"
            ),
        ));
    } else if !exits.certain {
        // No single cell is an exit in every outcome, yet several may share the part (a
        // SHUFFLE or an NSUBST count that always leaves one): draw outcomes. crawl checks the
        // one it draws when it compiles the vault.
        let mut drawing = grid.drawing(&transforms);
        drawing.keep_what_reaches(width, height, &exits.cells);
        let closed = (0..EXIT_DRAWS)
            .filter(|&seed| {
                let cells = drawing.draw(&mut Rng::new(u64::from(seed) + 1));
                // Only a cell that may be an exit can be one in a drawn outcome.
                !has_exit(width, height, &exits.cells, cells)
            })
            .count();
        if closed > 0 {
            out.push(Diagnostic::new(
                Code::DC0502,
                map_range,
                format!(
                    "Map '{name}' has no exit in {closed} of {EXIT_DRAWS} drawn outcomes of its transforms ({:.0}%): crawl compiles one outcome and then fails at random (has no (possible) exits); keep an exit out of the transforms' reach, or use TAGS: no_exits if this is intentional",
                    100.0 * closed as f64 / f64::from(EXIT_DRAWS)
                ),
            ));
        }
    }
}

/// How many outcomes of the transforms are drawn when no cell is surely an exit.
const EXIT_DRAWS: u32 = 32;

/// The most altars a temple vault may hold: the gods crawl 0.28.0 gives temples (measured).
const TEMPLE_GODS: usize = 22;

/// A temple's altars, where crawl places one god's altar at each `B` (counted in the cells
/// that hold `B` whatever the transforms draw).
fn temple_altars(vault: &Vault, grid: &Grid, map_range: TextRange, out: &mut Vec<Diagnostic>) {
    let altars = grid.cells().filter(|set| *set == bit(b'B')).count();
    if altars == 0 {
        return;
    }
    for header in vault.headers_of(Header::KFeat) {
        for arg in &header.args {
            if let Ok(keyed) = spec::split(&arg.text)
                && keyed.key.contains('B')
            {
                out.push(Diagnostic::new(
                    Code::DC0208,
                    super::range_in(arg, keyed.key_range.clone()),
                    "Can't change feat 'B' in temple (KFEAT): crawl puts a god's altar at each `B` of a temple; give the feature another glyph",
                ));
            }
        }
    }
    if altars > TEMPLE_GODS {
        out.push(Diagnostic::new(
            Code::DC0209,
            map_range,
            format!(
                "Temple vault has too many altars: {altars} `B`, but a temple has at most {TEMPLE_GODS} gods"
            ),
        ));
    }
}

/// The DEPTH argument that lets the Abyss pick the vault, if one does.
fn abyss_depth<'a>(vault: &'a Vault, depths: &'a Depths) -> Option<&'a levkit_model::dcss::Arg> {
    depths
        .of_kind(vault, Header::Depth)
        .find(|(_, ranges)| {
            ranges.as_ref().is_ok_and(|ranges| {
                ranges
                    .iter()
                    .any(|r| !r.exclude && r.branch.as_deref() == Some("Abyss"))
            })
        })
        .map(|(arg, _)| arg)
}

fn size_checks(
    name: &str,
    orient: &str,
    width: usize,
    height: usize,
    range: TextRange,
    out: &mut Vec<Diagnostic>,
) {
    let mut problem = |message: String| out.push(Diagnostic::new(Code::DC0205, range, message));
    if width > 80 || height > 70 {
        problem(format!(
            "Map '{name}' is too big: {width}x{height} - max 80x70"
        ));
        return;
    }
    if orient.is_empty() || orient == "float" {
        let kind = if orient.is_empty() {
            "Minivault"
        } else {
            "Float"
        };
        if width > 76 || height > 66 {
            problem(format!(
                "{kind} '{name}' is too big: {width}x{height} - max 76x66"
            ));
            return;
        }
    }
    match orient {
        "encompass" => {}
        "north" | "south" if height > 46 => problem(format!(
            "Map too large - height {height} (max 46) for ORIENT: {orient}"
        )),
        "east" | "west" if width > 53 => problem(format!(
            "Map too large - width {width} (max 53) for ORIENT: {orient}"
        )),
        "north" | "south" | "east" | "west" => {}
        _ if width > 53 || height > 46 => {
            let orient = if orient.is_empty() {
                "minivault"
            } else {
                orient
            };
            problem(format!(
                "Map too large - {width}x{height} (max 53x46) for a {orient} map"
            ))
        }
        _ => {}
    }
}

fn placeable(
    vault: &Vault,
    context: Context,
    depths: &Depths,
    tags: &[&str],
    orient: &str,
    out: &mut Vec<Diagnostic>,
) {
    // A depth list crawl cannot read is reported on its own; it still counts as a DEPTH here.
    let has_depth = context.default_depth
        || depths
            .of_kind(vault, Header::Depth)
            .any(|(_, ranges)| ranges.as_ref().map_or(true, |r| !r.is_empty()));
    let has_place = vault
        .headers_of(Header::Place)
        .last()
        .and_then(|h| h.args.first())
        .is_some_and(|a| !a.text.is_empty());
    if has_depth || has_place {
        return;
    }
    let mut all: Vec<&str> = tags.to_vec();
    if orient.is_empty() {
        all.push("minivault");
    }
    if all.iter().any(|t| is_selectable(t)) {
        return;
    }
    all.sort();
    all.dedup();
    out.push(Diagnostic::new(
        Code::DC0207,
        vault.name.range,
        format!(
            "Map '{}' has no DEPTH, no PLACE and no selectable tag in '{}': add a DEPTH (or PLACE), or a tag another vault selects it by",
            vault.name.value,
            all.join(" ")
        ),
    ));
}

/// Whether a tag lets a vault be chosen by tag: any word but crawl's flags and the `uniq_`,
/// `luniq_`, `ruin_` and `chance_` prefixes.
fn is_selectable(tag: &str) -> bool {
    // Looked up rather than found by a walk over every word of the tables.
    static FLAGS: LazyLock<FxHashSet<&'static str>> = LazyLock::new(|| {
        WORDS
            .iter()
            .filter(|w| w.header == "TAGS" && w.kind == "flag tag")
            .map(|w| w.word.as_str())
            .collect()
    });
    let prefixed = ["uniq_", "luniq_", "ruin_", "chance_"]
        .iter()
        .any(|p| tag.starts_with(p));
    !(prefixed || FLAGS.contains(tag))
}

/// A set of glyphs: bit `b` for ASCII byte `b`, bit 0 for any other byte.
type Glyphs = u128;

const fn bit(byte: u8) -> Glyphs {
    if byte < 128 && byte != 0 {
        1 << byte
    } else {
        1
    }
}

fn bits(text: &str) -> Glyphs {
    text.bytes().fold(0, |set, b| set | bit(b))
}

/// What each cell of the map may hold after the header transforms: the image of its glyph
/// (rows shorter than the map read as blank), found by lookup rather than stored per cell.
struct Grid<'a> {
    rows: &'a [&'a [u8]],
    width: usize,
    image: &'a [Glyphs; 128],
    /// The glyphs (by their bit) some transform may find in a cell that starts with them.
    touched: Glyphs,
}

const BLANK: Glyphs = 1 << b' ';

/// Each glyph as its own image, before any transform (made once: every map starts from it).
const OWN_IMAGES: [Glyphs; 128] = {
    let mut images = [0; 128];
    let mut glyph = 0;
    while glyph < 128 {
        images[glyph] = bit(glyph as u8);
        glyph += 1;
    }
    images
};

impl<'a> Grid<'a> {
    /// The grid of `rows` and the images of `image`, which holds [`OWN_IMAGES`] when it
    /// comes: the caller keeps the 2 KB table, and a grid made of one it returned cost two
    /// copies of it per map.
    fn new(
        transforms: &[&Transform],
        rows: &'a [&'a [u8]],
        width: usize,
        image: &'a mut [Glyphs; 128],
    ) -> Grid<'a> {
        // Every transform maps a set of glyphs to the union of what it maps each member to,
        // so following each glyph through the transforms once gives every cell's set: the
        // glyph's image (index 0 stands for every byte beyond ASCII).
        let mut touched: Glyphs = 0;
        // A glyph no transform has touched yet is still its own image, so only the keys and
        // the glyphs touched before can hold a key (looking at all 128 glyphs for each of the
        // corpus's 53,000 transforms was a twentieth of a check).
        let may_hold =
            |keys: Glyphs, touched: Glyphs| super::glyphs::members(keys | touched).map(usize::from);
        for transform in transforms {
            match transform {
                Transform::Subst(s) => {
                    let keys = bits(&s.keys);
                    let options = s.options.iter().fold(0, |set, o| set | char_bit(o.value));
                    for glyph in may_hold(keys, touched) {
                        let set = &mut image[glyph];
                        if *set & keys != 0 {
                            *set = (*set & !keys) | options;
                            touched |= 1 << glyph;
                        }
                    }
                }
                Transform::NSubst(n) => {
                    let keys = bits(&n.keys);
                    let options = n
                        .segments
                        .iter()
                        .flat_map(|s| &s.options)
                        .fold(0, |set, o| set | char_bit(o.value));
                    for glyph in may_hold(keys, touched) {
                        let set = &mut image[glyph];
                        if *set & keys != 0 {
                            *set |= options;
                            touched |= 1 << glyph;
                        }
                    }
                }
                Transform::Shuffle(s) => {
                    // Each glyph may become the glyph at its place in any block: what each
                    // glyph (by its bit) may become, gathered over the blocks.
                    let mut to = [0 as Glyphs; 128];
                    let mut from: Glyphs = 0;
                    let mut link = |glyph: u8, targets: Glyphs| {
                        let b = bit(glyph);
                        from |= b;
                        to[b.trailing_zeros() as usize] |= targets;
                    };
                    if s.blocks.len() == 1 {
                        let all = bits(&s.blocks[0]);
                        s.blocks[0].bytes().for_each(|b| link(b, all));
                    } else {
                        let first = s.blocks[0].len();
                        for i in 0..first {
                            let column = s
                                .blocks
                                .iter()
                                .filter_map(|b| b.as_bytes().get(i))
                                .fold(0, |set, &b| set | bit(b));
                            for b in s.blocks.iter().filter_map(|b| b.as_bytes().get(i)) {
                                link(*b, column);
                            }
                        }
                    }
                    for glyph in may_hold(from, touched) {
                        let set = &mut image[glyph];
                        let mut hit = *set & from;
                        if hit != 0 {
                            touched |= 1 << glyph;
                        }
                        let mut targets = 0;
                        while hit != 0 {
                            targets |= to[hit.trailing_zeros() as usize];
                            hit &= hit - 1;
                        }
                        *set |= targets;
                    }
                }
                Transform::Clear(glyphs) => {
                    let keys = bits(glyphs);
                    for glyph in may_hold(keys, touched) {
                        let set = &mut image[glyph];
                        if *set & keys != 0 {
                            *set = (*set & !keys) | BLANK;
                            touched |= 1 << glyph;
                        }
                    }
                }
            }
        }
        Grid {
            rows,
            width,
            image,
            touched,
        }
    }

    fn cell(&self, x: usize, y: usize) -> Glyphs {
        let b = self.rows[y].get(x).copied().unwrap_or(b' ');
        self.image[if b < 128 { b as usize } else { 0 }]
    }

    fn cells(&self) -> impl Iterator<Item = Glyphs> + '_ {
        (0..self.rows.len()).flat_map(move |y| (0..self.width).map(move |x| self.cell(x, y)))
    }

    /// How many cells hold `glyph` whatever the transforms draw (`None` when they decide).
    fn exact_count(&self, glyph: u8) -> Option<usize> {
        let mut count = 0;
        for set in self.cells() {
            if set == bit(glyph) {
                count += 1;
            } else if set & bit(glyph) != 0 {
                return None;
            }
        }
        Some(count)
    }

    fn may_hold(&self, glyph: u8) -> bool {
        self.cells().any(|set| set & bit(glyph) != 0)
    }

    /// Whether some outcome of the transforms has an exit (`possible`) and whether every one
    /// has (`certain`: a cell that is an exit whatever the transforms draw).
    fn exits(&self) -> Exits {
        let (width, height) = (self.width, self.rows.len());
        // Each glyph's class, read by byte: each cell looked at (and its neighbours) is a
        // table read rather than its set's tests.
        let mut classes = OWN_CLASSES;
        for glyph in super::glyphs::members(self.touched) {
            if let Some(class) = classes.get_mut(usize::from(glyph)) {
                *class = classify(self.image[usize::from(glyph) & 127]);
            }
        }
        let rows = self.rows;
        let mut search = ExitSearch::new(width, height, |x, y| {
            let b = rows[y].get(x).copied().unwrap_or(b' ');
            classes[if b < 128 { usize::from(b) } else { 0 }]
        });
        if width == 0 || height == 0 {
            return search.exits;
        }
        // The edge first: most maps have an exit there whatever the transforms draw, and the
        // look stops at the first such cell (the cells' order matters to nothing else).
        let (last_x, last_y) = (width - 1, height - 1);
        for y in [0, last_y]
            .into_iter()
            .take(if last_y == 0 { 1 } else { 2 })
        {
            for x in 0..width {
                if search.look(x, y) {
                    return search.exits;
                }
            }
        }
        for y in 1..last_y {
            for x in [0, last_x]
                .into_iter()
                .take(if last_x == 0 { 1 } else { 2 })
            {
                if search.look(x, y) {
                    return search.exits;
                }
            }
        }
        for y in 1..last_y {
            for x in 1..last_x {
                if search.look(x, y) {
                    return search.exits;
                }
            }
        }
        search.exits
    }

    /// What drawing outcomes of the transforms starts from.
    fn drawing<'t>(&self, transforms: &[&'t Transform]) -> Drawing<'t> {
        let mut cells = Vec::with_capacity(self.width * self.rows.len());
        for row in self.rows {
            cells.extend_from_slice(row);
            cells.resize(cells.len() + self.width - row.len(), b' ');
        }
        let mut transforms: Vec<Prepared<'t>> =
            transforms.iter().map(|&t| Prepared::new(t)).collect();
        // Follow each byte the map may start with through the transforms, as sets of the bytes
        // it may have become, to find the transforms that may find a key in a cell starting
        // with it. A cell no transform can find (`touched`) is left alone.
        let mut present = [false; 256];
        for &b in &cells {
            present[usize::from(b)] = true;
        }
        let mut finders: Vec<(u8, Bytes, Vec<usize>)> = (0..=u8::MAX)
            .filter(|&b| present[usize::from(b)] && self.touched & bit(b) != 0)
            .map(|b| (b, Bytes::default().with(b), Vec::new()))
            .collect();
        for (t, prepared) in transforms.iter().enumerate() {
            for (_, set, found_by) in &mut finders {
                if let Some(after) = prepared.after(*set) {
                    found_by.push(t);
                    *set = after;
                }
            }
        }
        let mut found_by: [&[usize]; 256] = [&[]; 256];
        for (b, _, by) in &finders {
            found_by[usize::from(*b)] = by;
        }
        for (i, &b) in cells.iter().enumerate() {
            for &t in found_by[usize::from(b)] {
                if let Some(prepared) = transforms.get_mut(t) {
                    prepared.at.push(i);
                }
            }
        }
        Drawing {
            transforms,
            start: cells.clone(),
            cells,
            scratch: Vec::new(),
        }
    }
}

/// A set of bytes, a bit each.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Bytes([u64; 4]);

impl Bytes {
    fn with(mut self, b: u8) -> Bytes {
        self.0[usize::from(b >> 6)] |= 1 << (b & 63);
        self
    }

    fn of(bytes: impl IntoIterator<Item = u8>) -> Bytes {
        bytes.into_iter().fold(Bytes::default(), Bytes::with)
    }

    fn meets(self, other: Bytes) -> bool {
        self.0.iter().zip(other.0).any(|(a, b)| a & b != 0)
    }

    fn union(self, other: Bytes) -> Bytes {
        Bytes(std::array::from_fn(|i| self.0[i] | other.0[i]))
    }

    fn without(self, other: Bytes) -> Bytes {
        Bytes(std::array::from_fn(|i| self.0[i] & !other.0[i]))
    }
}

/// Outcomes of a map's transforms, each transform drawn over the cells it may find a key
/// in: the others never match it, so they draw nothing from the generator and the outcome is
/// the one drawn over every cell. Most cells of a map are walls and floor that no transform
/// names. What each transform needs is made once for all the draws.
struct Drawing<'t> {
    transforms: Vec<Prepared<'t>>,
    /// The map before any transform, row after row of `width` glyphs (rows padded with
    /// blanks), which each draw starts from.
    start: Vec<u8>,
    /// The map as a draw goes.
    cells: Vec<u8>,
    /// The places an NSUBST draws from, or the order a SHUFFLE draws.
    scratch: Vec<usize>,
}

/// A transform with the tables its draws read.
struct Prepared<'t> {
    transform: &'t Transform,
    /// Which bytes its keys (a SHUFFLE's glyphs) are.
    is_key: [bool; 256],
    /// A SHUFFLE's glyphs, block after block, as crawl reads them.
    from: Vec<u8>,
    /// Its keys (a SHUFFLE's glyphs and slashes), and the bytes it may turn a key into.
    keys: Bytes,
    options: Bytes,
    /// The cells (in order) that may hold a key when the transform comes: it finds nothing
    /// in the others, so a draw looks at these alone.
    at: Vec<usize>,
    /// A SUBST's options, or each NSUBST segment's, ready to draw.
    draws: Vec<Draw<'t>>,
}

impl<'t> Prepared<'t> {
    fn new(transform: &'t Transform) -> Prepared<'t> {
        let keys = match transform {
            Transform::Subst(s) => s.keys.as_bytes(),
            Transform::NSubst(n) => n.keys.as_bytes(),
            Transform::Clear(glyphs) => glyphs.as_bytes(),
            Transform::Shuffle(_) => &[],
        };
        let mut is_key = [false; 256];
        for &b in keys {
            is_key[usize::from(b)] = true;
        }
        let from = match transform {
            Transform::Shuffle(shuffle) => shuffle.blocks.join("/").into_bytes(),
            _ => Vec::new(),
        };
        let options = match transform {
            Transform::Subst(s) => Bytes::of(s.options.iter().map(|o| glyph_byte(o.value))),
            Transform::NSubst(n) => Bytes::of(
                n.segments
                    .iter()
                    .flat_map(|s| &s.options)
                    .map(|o| glyph_byte(o.value)),
            ),
            // A shuffle moves its glyphs (and the blocks' slashes) among themselves.
            Transform::Shuffle(_) => Bytes::of(from.iter().copied()),
            Transform::Clear(_) => Bytes::default().with(b' '),
        };
        let keys = match transform {
            Transform::Shuffle(_) => options,
            _ => Bytes::of(keys.iter().copied()),
        };
        let draws = match transform {
            Transform::Subst(s) => vec![Draw::new(&s.options)],
            Transform::NSubst(n) => n.segments.iter().map(|s| Draw::new(&s.options)).collect(),
            Transform::Shuffle(_) | Transform::Clear(_) => Vec::new(),
        };
        Prepared {
            transform,
            is_key,
            from,
            keys,
            options,
            at: Vec::new(),
            draws,
        }
    }

    /// What a cell that may hold the bytes `set` may hold after the transform, or `None`
    /// when it cannot hold a key (and keeps its byte).
    fn after(&self, set: Bytes) -> Option<Bytes> {
        let keys = self.keys;
        if !set.meets(keys) {
            return None;
        }
        Some(match self.transform {
            Transform::Subst(_) | Transform::Clear(_) => set.without(keys).union(self.options),
            Transform::NSubst(_) | Transform::Shuffle(_) => set.union(self.options),
        })
    }
}

impl Drawing<'_> {
    /// Drops the transforms after the last one that may change a cell [`has_exit`] reads for
    /// the cells `looked_at`: they draw after every transform that matters, so they change
    /// neither those cells nor what the others draw (a vault's last transforms often place
    /// monsters and items inside it, away from its exits).
    fn keep_what_reaches(&mut self, width: usize, height: usize, looked_at: &[(usize, usize)]) {
        let mut read = vec![false; self.start.len()];
        let mut mark = |x: usize, y: usize| {
            if let Some(cell) = read.get_mut(y * width + x) {
                *cell = true;
            }
        };
        for &(x, y) in looked_at {
            mark(x, y);
            if x > 0 && y > 0 && x + 1 < width && y + 1 < height {
                mark(x, y - 1);
                mark(x, y + 1);
                mark(x - 1, y);
                mark(x + 1, y);
            }
        }
        let last = self
            .transforms
            .iter()
            .rposition(|p| p.at.iter().any(|&i| read.get(i) == Some(&true)));
        self.transforms.truncate(last.map_or(0, |last| last + 1));
    }

    /// The transforms' outcome for one draw of `rng`, row after row.
    fn draw(&mut self, rng: &mut Rng) -> &[u8] {
        self.cells.copy_from_slice(&self.start);
        for prepared in &self.transforms {
            apply(&mut self.cells, prepared, rng, &mut self.scratch);
        }
        &self.cells
    }
}

/// A glyph of a transform as a map byte (every character beyond ASCII is floor alike).
fn glyph_byte(c: char) -> u8 {
    if c.is_ascii() { c as u8 } else { 0x80 }
}

/// Options with their total weight, drawn as crawl draws them. Made once for all the draws
/// of a vault, with the glyph of each number below a small total: most weights are small (10
/// when none is written), and a table read replaces a walk over the options.
struct Draw<'a> {
    options: &'a [spec::Weighted<char>],
    total: u64,
    /// The glyph [`Draw::pick_at`] gives each number below `total`; empty when the total is
    /// larger than [`DRAW_TABLE_MAX`].
    table: Vec<u8>,
}

/// The largest total weight whose draws are read from a table.
const DRAW_TABLE_MAX: u64 = 512;

impl<'a> Draw<'a> {
    fn new(options: &'a [spec::Weighted<char>]) -> Self {
        let total = options.iter().map(|o| u64::from(o.weight)).sum::<u64>();
        let mut draw = Draw {
            options,
            total: total.max(1),
            table: Vec::new(),
        };
        if total == 0 {
            draw.table.push(draw.pick_at(0));
        } else if total <= DRAW_TABLE_MAX {
            for o in options {
                let glyph = glyph_byte(o.value);
                draw.table
                    .extend(std::iter::repeat_n(glyph, o.weight as usize));
            }
        }
        draw
    }

    fn pick(&self, rng: &mut Rng) -> u8 {
        let n = rng.below(self.total);
        match usize::try_from(n).ok().and_then(|n| self.table.get(n)) {
            Some(&glyph) => glyph,
            None => self.pick_at(n),
        }
    }

    /// The option the number `n` (below the total) draws.
    fn pick_at(&self, mut n: u64) -> u8 {
        for o in self.options {
            if n < u64::from(o.weight) {
                return glyph_byte(o.value);
            }
            n -= u64::from(o.weight);
        }
        self.options.last().map_or(b' ', |o| glyph_byte(o.value))
    }
}

/// One transform on a drawn map (its cells row after row), drawn as crawl draws it:
/// looking only at the cells that may hold a key (`at`) finds what looking at all finds.
fn apply(cells: &mut [u8], prepared: &Prepared<'_>, rng: &mut Rng, scratch: &mut Vec<usize>) {
    let is_key = &prepared.is_key;
    match prepared.transform {
        Transform::Subst(subst) => {
            let Some(draw) = prepared.draws.first() else {
                return;
            };
            if subst.sep == spec::Sep::Once {
                let glyph = draw.pick(rng);
                for &i in &prepared.at {
                    if is_key[usize::from(cells[i])] {
                        cells[i] = glyph;
                    }
                }
            } else {
                for &i in &prepared.at {
                    if is_key[usize::from(cells[i])] {
                        cells[i] = draw.pick(rng);
                    }
                }
            }
        }
        Transform::NSubst(nsubst) => {
            let at = scratch;
            at.clear();
            at.extend(
                prepared
                    .at
                    .iter()
                    .copied()
                    .filter(|&i| is_key[usize::from(cells[i])]),
            );
            rng.shuffle(at);
            let mut next = 0;
            for (segment, draw) in nsubst.segments.iter().zip(&prepared.draws) {
                let left = at.len() - next;
                let count = segment.count.map_or(left, |n| (n as usize).min(left));
                let once = (segment.sep == spec::Sep::Once).then(|| draw.pick(rng));
                for &i in &at[next..next + count] {
                    cells[i] = once.unwrap_or_else(|| draw.pick(rng));
                }
                next += count;
            }
        }
        Transform::Shuffle(shuffle) => {
            // Block by block (or glyph by glyph in one block), each glyph to the glyph at its
            // place in the shuffled text (its first place, as crawl looks it up).
            let from = &prepared.from;
            let single = shuffle.blocks.len() == 1;
            let order = scratch;
            order.clear();
            order.extend(
                0..if single {
                    from.len()
                } else {
                    shuffle.blocks.len()
                },
            );
            rng.shuffle(order);
            // The shuffled text, read byte by byte as it is joined.
            let to = order.iter().enumerate().flat_map(|(n, &block)| {
                let (separator, bytes): (&[u8], &[u8]) = if single {
                    (b"", &from[block..=block])
                } else {
                    (
                        if n == 0 { b"" } else { b"/" },
                        shuffle.blocks[block].as_bytes(),
                    )
                };
                separator.iter().chain(bytes)
            });
            // Each byte to itself unless the shuffle moves it.
            let mut map: [u8; 256] = std::array::from_fn(|b| b as u8);
            let mut mapped = [false; 256];
            for (&a, &b) in from.iter().zip(to) {
                if !mapped[usize::from(a)] {
                    mapped[usize::from(a)] = true;
                    map[usize::from(a)] = b;
                }
            }
            for &i in &prepared.at {
                cells[i] = map[usize::from(cells[i])];
            }
        }
        Transform::Clear(_) => {
            for &i in &prepared.at {
                if is_key[usize::from(cells[i])] {
                    cells[i] = b' ';
                }
            }
        }
    }
}

/// A small deterministic generator for drawing outcomes (xorshift64*).
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// Whether some outcome has an exit (`possible`) and whether every one has (`certain`), for
/// a map whose cell `(x, y)` may hold the glyphs `cell(x, y)`.
/// Only the cells `at` are looked at as exits (their neighbours too).
#[cfg(test)]
fn exits_where(
    width: usize,
    height: usize,
    at: impl IntoIterator<Item = (usize, usize)>,
    cell: impl Fn(usize, usize) -> Glyphs,
) -> Exits {
    let mut search = ExitSearch::new(width, height, |x, y| classify(cell(x, y)));
    for (x, y) in at {
        if search.look(x, y) {
            break;
        }
    }
    search.exits
}

/// The exits found so far on a map whose cell `(x, y)` is of the class `cell(x, y)`.
struct ExitSearch<F> {
    width: usize,
    height: usize,
    cell: F,
    exits: Exits,
}

impl<F: Fn(usize, usize) -> Class> ExitSearch<F> {
    fn new(width: usize, height: usize, cell: F) -> Self {
        ExitSearch {
            width,
            height,
            cell,
            exits: Exits::default(),
        }
    }

    /// Looks at the cell `(x, y)` as an exit; whether an exit is now certain (and the
    /// search is over).
    #[inline]
    fn look(&mut self, x: usize, y: usize) -> bool {
        let (width, height, cell) = (self.width, self.height, &self.cell);
        let exits = &mut self.exits;
        let class = cell(x, y);
        let mut exit = false;
        if class & STAIR != 0 {
            exit = true;
            exits.certain |= class & SURE_STAIR != 0;
        }
        if class & EXIT != 0 {
            let (edge, blank_next, surely_blank_next) =
                if x == 0 || y == 0 || x + 1 == width || y + 1 == height {
                    (true, false, false)
                } else {
                    let around = cell(x, y - 1) | cell(x, y + 1) | cell(x - 1, y) | cell(x + 1, y);
                    (false, around & MAY_BLANK != 0, around & SURE_BLANK != 0)
                };
            if edge || blank_next {
                exit = true;
                exits.certain |= class & SURE_EXIT != 0 && (edge || surely_blank_next);
            }
        }
        if exit {
            exits.possible = true;
            exits.cells.push((x, y));
        }
        exits.certain
    }
}

/// What the exit rule asks of a cell that may hold a set of glyphs, a bit each: whether it
/// may hold a stair (and holds nothing else), may hold a glyph that makes an exit (and
/// nothing else), may be blank (and is surely blank).
type Class = u8;
const STAIR: Class = 1;
const SURE_STAIR: Class = 2;
const EXIT: Class = 4;
const SURE_EXIT: Class = 8;
const MAY_BLANK: Class = 16;
const SURE_BLANK: Class = 32;

const fn classify(set: Glyphs) -> Class {
    let (exit_glyphs, stair_glyphs) = EXIT_AND_STAIR_GLYPHS;
    let mut class = 0;
    if set & stair_glyphs != 0 {
        class |= STAIR;
        if set & !stair_glyphs == 0 {
            class |= SURE_STAIR;
        }
    }
    if set & exit_glyphs != 0 {
        class |= EXIT;
        if set & !exit_glyphs == 0 {
            class |= SURE_EXIT;
        }
    }
    if set & BLANK != 0 {
        class |= MAY_BLANK;
    }
    if set == BLANK {
        class |= SURE_BLANK;
    }
    class
}

/// The class of each glyph that no transform touches (index 0 for every byte beyond ASCII).
const OWN_CLASSES: [Class; 128] = {
    let mut classes = [0; 128];
    let mut glyph = 0;
    while glyph < 128 {
        classes[glyph] = classify(OWN_IMAGES[glyph]);
        glyph += 1;
    }
    classes
};

/// The glyphs that may make an exit, and the stairs. At compile time crawl judges a cell by
/// its glyph's own meaning: KFEAT, KMONS and KITEM are resolved only when the vault is placed.
const EXIT_AND_STAIR_GLYPHS: (Glyphs, Glyphs) = {
    // Bytes beyond ASCII are floor.
    let mut exit_glyphs: Glyphs = 1;
    let mut stair_glyphs: Glyphs = 0;
    let mut glyph = 1u8;
    while glyph < 128 {
        if glyph != b' ' {
            let feature = glyph_feature(glyph);
            if matches!(feature, Feature::Stair) {
                stair_glyphs |= 1 << glyph;
            }
            if matches!(glyph, b'@' | b'=' | b'+') || !matches!(feature, Feature::Solid) {
                exit_glyphs |= 1 << glyph;
            }
        }
        glyph += 1;
    }
    (exit_glyphs, stair_glyphs)
};

/// Whether a drawn map (`cells`, row after row, one glyph each) has an exit among the cells
/// `at`: what [`exits_where`] finds possible when every cell holds a single glyph, read by
/// byte rather than through sets (each of the draws asks).
fn has_exit(width: usize, height: usize, at: &[(usize, usize)], cells: &[u8]) -> bool {
    let (exit_bytes, stair_bytes) = &EXIT_AND_STAIR_BYTES;
    let glyph = |x: usize, y: usize| usize::from(cells[y * width + x]);
    at.iter().any(|&(x, y)| {
        let b = glyph(x, y);
        stair_bytes[b]
            || (exit_bytes[b]
                && (x == 0
                    || y == 0
                    || x + 1 == width
                    || y + 1 == height
                    || [
                        glyph(x, y - 1),
                        glyph(x, y + 1),
                        glyph(x - 1, y),
                        glyph(x + 1, y),
                    ]
                    .contains(&usize::from(b' '))))
    })
}

/// [`EXIT_AND_STAIR_GLYPHS`] by byte: whether each may make an exit, and whether it is a stair.
const EXIT_AND_STAIR_BYTES: ([bool; 256], [bool; 256]) = {
    let (exit_glyphs, stair_glyphs) = EXIT_AND_STAIR_GLYPHS;
    let mut exit_bytes = [false; 256];
    let mut stair_bytes = [false; 256];
    let mut b = 0;
    while b < 256 {
        exit_bytes[b] = exit_glyphs & bit(b as u8) != 0;
        stair_bytes[b] = stair_glyphs & bit(b as u8) != 0;
        b += 1;
    }
    (exit_bytes, stair_bytes)
};

/// Whether a map has an exit in some outcome of its transforms, and in every one, and the
/// cells that may be one.
#[derive(Debug, Clone, Default)]
struct Exits {
    possible: bool,
    certain: bool,
    cells: Vec<(usize, usize)>,
}

fn char_bit(c: char) -> Glyphs {
    if c.is_ascii() { bit(c as u8) } else { 1 }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Feature {
    /// A wall, tree, statue or grate (closed doors count as passable here, as in crawl's
    /// exit rule).
    Solid,
    /// A stair or gate other than an escape hatch.
    Stair,
    Floor,
}

const fn glyph_feature(glyph: u8) -> Feature {
    match glyph {
        b'x' | b'X' | b'c' | b'v' | b'b' | b'm' | b'n' | b'o' | b't' | b'G' | b'I' => {
            Feature::Solid
        }
        b'}' | b'{' | b')' | b'(' | b']' | b'[' => Feature::Stair,
        _ => Feature::Floor,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A random map of `glyphs` (rows of random lengths) and random transforms over them.
    fn random_vault(rng: &mut Rng, glyphs: &[u8]) -> (Vec<Vec<u8>>, Vec<Transform>) {
        let glyph = |rng: &mut Rng| glyphs[rng.below(glyphs.len() as u64) as usize] as char;
        let height = 1 + rng.below(6) as usize;
        let rows: Vec<Vec<u8>> = (0..height)
            .map(|_| {
                let len = rng.below(7) as usize;
                (0..len).map(|_| glyph(rng) as u8).collect()
            })
            .collect();
        let mut transforms = Vec::new();
        for _ in 0..rng.below(6) {
            let key: String = (0..1 + rng.below(2)).map(|_| glyph(rng)).collect();
            let option = |rng: &mut Rng| format!("{}:{}", glyph(rng), 1 + rng.below(9));
            let options: Vec<String> = (0..1 + rng.below(3)).map(|_| option(rng)).collect();
            let (header, text) = match rng.below(4) {
                0 => {
                    let sep = if rng.below(2) == 0 { '=' } else { ':' };
                    (Header::Subst, format!("{key} {sep} {}", options.join(" ")))
                }
                1 => (
                    Header::NSubst,
                    format!(
                        "{key} = {} = {} / * = {}",
                        1 + rng.below(3),
                        options[0],
                        options.join(" ")
                    ),
                ),
                2 => {
                    let blocks = if rng.below(2) == 0 {
                        1
                    } else {
                        2 + rng.below(2)
                    };
                    let block = |rng: &mut Rng| -> String { (0..2).map(|_| glyph(rng)).collect() };
                    let text: Vec<String> = (0..blocks).map(|_| block(rng)).collect();
                    (Header::Shuffle, text.join("/"))
                }
                _ => (Header::Clear, key),
            };
            if let Some(Ok(transform)) = spec::transform(header, &text) {
                transforms.push(transform);
            }
        }
        (rows, transforms)
    }

    /// Runs `check` on 3,000 random vaults over `glyphs`: their rows, transforms, width and
    /// grid.
    fn each_random_grid(
        seed: u64,
        glyphs: &[u8],
        mut check: impl FnMut(&[&[u8]], &[&Transform], usize, &Grid<'_>),
    ) {
        let mut rng = Rng::new(seed);
        for _ in 0..3000 {
            let (rows, transforms) = random_vault(&mut rng, glyphs);
            let rows: Vec<&[u8]> = rows.iter().map(Vec::as_slice).collect();
            let width = rows.iter().map(|r| r.len()).max().unwrap_or(0);
            let transforms: Vec<&Transform> = transforms.iter().collect();
            let mut image = OWN_IMAGES;
            let grid = Grid::new(&transforms, &rows, width, &mut image);
            check(&rows, &transforms, width, &grid);
        }
    }

    #[test]
    fn a_draw_over_the_cells_that_may_hold_a_key_equals_a_draw_over_all_cells() {
        each_random_grid(11, b"x.+@ ab1c\x80", |rows, transforms, _, grid| {
            let mut fast = grid.drawing(transforms);
            // The general path: every transform looks at every cell some transform may find
            // (`touched`).
            let mut everywhere = grid.drawing(transforms);
            let live: Vec<usize> = (0..everywhere.start.len())
                .filter(|&i| grid.touched & bit(everywhere.start[i]) != 0)
                .collect();
            for prepared in &mut everywhere.transforms {
                prepared.at = live.clone();
            }
            for seed in 0..4 {
                assert_eq!(
                    fast.draw(&mut Rng::new(seed)),
                    everywhere.draw(&mut Rng::new(seed)),
                    "{rows:?} {transforms:?}"
                );
            }
        });
    }

    #[test]
    fn a_drawing_without_the_transforms_that_cannot_reach_an_exit_finds_the_same_exits() {
        each_random_grid(13, b"x.+@ ab){c\x80", |rows, transforms, width, grid| {
            let exits = grid.exits();
            if exits.certain {
                return;
            }
            let height = rows.len();
            let mut all = grid.drawing(transforms);
            let mut kept = grid.drawing(transforms);
            kept.keep_what_reaches(width, height, &exits.cells);
            for seed in 1..=8 {
                assert_eq!(
                    has_exit(width, height, &exits.cells, all.draw(&mut Rng::new(seed))),
                    has_exit(width, height, &exits.cells, kept.draw(&mut Rng::new(seed))),
                    "{rows:?} {transforms:?}"
                );
            }
        });
    }

    #[test]
    fn the_edge_first_search_for_exits_agrees_with_one_in_reading_order() {
        each_random_grid(5, b"x.+@ ){c\x80", |rows, transforms, width, grid| {
            let cells = (0..rows.len()).flat_map(|y| (0..width).map(move |x| (x, y)));
            let in_order = exits_where(width, rows.len(), cells, |x, y| grid.cell(x, y));
            let edge_first = grid.exits();
            assert_eq!(
                (edge_first.possible, edge_first.certain),
                (in_order.possible, in_order.certain),
                "{rows:?} {transforms:?}"
            );
            if !in_order.certain {
                let mut cells = edge_first.cells.clone();
                cells.sort_by_key(|&(x, y)| (y, x));
                assert_eq!(cells, in_order.cells, "{rows:?} {transforms:?}");
            }
        });
    }

    #[test]
    fn a_draw_read_from_its_table_picks_what_the_walk_over_its_options_picks() {
        let mut rng = Rng::new(3);
        for _ in 0..2000 {
            let options: Vec<spec::Weighted<char>> = (0..rng.below(6))
                .map(|_| spec::Weighted {
                    value: ['x', '.', '+', 'é'][rng.below(4) as usize],
                    weight: [0, 1, 10, 30, 600][rng.below(5) as usize],
                })
                .collect();
            let draw = Draw::new(&options);
            assert!(draw.table.is_empty() || draw.table.len() as u64 == draw.total);
            for (n, &glyph) in draw.table.iter().enumerate() {
                assert_eq!(glyph, draw.pick_at(n as u64), "{options:?} {n}");
            }
        }
    }

    #[test]
    fn a_drawn_map_has_an_exit_where_its_sets_of_one_glyph_have_one() {
        // Small maps of glyphs that make exits, stairs, walls and blanks, every cell looked at.
        let glyphs = b"x.+@ ){c\x80\x00";
        let mut rng = Rng::new(7);
        for _ in 0..2000 {
            let (width, height) = (1 + rng.below(5) as usize, 1 + rng.below(5) as usize);
            let cells: Vec<u8> = (0..width * height)
                .map(|_| glyphs[rng.below(glyphs.len() as u64) as usize])
                .collect();
            let at: Vec<(usize, usize)> = (0..height)
                .flat_map(|y| (0..width).map(move |x| (x, y)))
                .filter(|_| rng.below(4) != 0)
                .collect();
            let sets = exits_where(width, height, at.iter().copied(), |x, y| {
                bit(cells[y * width + x])
            });
            assert_eq!(
                has_exit(width, height, &at, &cells),
                sets.possible,
                "{cells:?}"
            );
        }
    }
}
