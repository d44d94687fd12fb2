//! Problems crawl misses in how a vault's glyphs are used: crawl checks no glyph when it
//! compiles a vault, and at placement a glyph without a meaning quietly becomes floor, a spec
//! for a glyph the map lacks does nothing, and a monster or item glyph without its MONS or
//! ITEM entry places something random.
//!
//! The glyphs are followed through the header transforms in source order (crawl runs them in
//! that order after reading every map row): SUBST, NSUBST, SHUFFLE and CLEAR see the glyphs
//! the map may hold at their line; the overlays (COLOUR, tiles, KPROP, FHEIGHT, MARKER) bind
//! to the cells holding their key at their line; KFEAT, KMONS, KITEM, KMASK and the MONS and
//! ITEM glyphs are resolved when the vault is placed, after every transform.
//!
//! A vault whose own Lua may rewrite the map or add specs (Lua in its prelude or main chunk)
//! is left alone, as is a vault without map rows (its map comes from elsewhere). The rows a map
//! swallows for want of its ENDMAP (see `endmap`) are the author's next vault, not this map:
//! they are left out.

use levkit_diagnostics::{Code, Diagnostic, TextEdit, TextRange, TextSize};
use levkit_model::dcss::spec::{self, Transform};
use levkit_model::dcss::tables::GLYPHS;
use levkit_model::dcss::{Arg, MapRow, Vault};
use levkit_syntax::dcss::{Chunk, Header};

use super::endmap::Swallowed;
use super::{Transforms, range_in};

/// A set of ASCII glyphs, one bit per byte value.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Glyphs(u128);

impl Glyphs {
    pub(crate) fn has(self, glyph: u8) -> bool {
        glyph < 128 && self.0 & (1 << glyph) != 0
    }

    pub(crate) fn add(&mut self, glyph: u8) {
        if glyph < 128 {
            self.0 |= 1 << glyph;
        }
    }

    /// A glyph beyond ASCII is beyond this set.
    fn add_char(&mut self, glyph: char) {
        if glyph.is_ascii() {
            self.add(glyph as u8);
        }
    }

    fn add_all(&mut self, other: Glyphs) {
        self.0 |= other.0;
    }

    fn remove_all(&mut self, other: Glyphs) {
        self.0 &= !other.0;
    }

    /// The ASCII glyphs whose flag is set (`flags` indexed by byte).
    fn of_flags(flags: &[bool; 256]) -> Glyphs {
        // Eight flags a word: multiplied, their bytes (each 0 or 1) land on distinct bits of the
        // product's top byte, the first flag's on its lowest bit (no two bits meet, so nothing
        // carries into it).
        let mut set = 0;
        for (i, chunk) in flags[..128].chunks_exact(8).enumerate() {
            let word = u64::from_le_bytes(std::array::from_fn(|k| u8::from(chunk[k])));
            set |= u128::from(word.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * i);
        }
        Glyphs(set)
    }

    fn of(text: &str) -> Glyphs {
        let mut set = Glyphs::default();
        for b in text.bytes() {
            set.add(b);
        }
        set
    }

    /// The glyphs of the set in ascending order.
    fn iter(self) -> impl Iterator<Item = u8> {
        members(self.0)
    }
}

/// The bits set in a 128-bit glyph set, in ascending order (bit by bit: sets are small).
pub(super) fn members(mut bits: u128) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        let glyph = (bits != 0).then(|| bits.trailing_zeros() as u8)?;
        bits &= bits - 1;
        Some(glyph)
    })
}

/// The glyphs crawl gives a meaning of their own (section 7.7 of the research note): walls,
/// doors, water, stairs, altars, fountains, the monster and item glyphs, and so on.
pub fn has_default_meaning(glyph: u8) -> bool {
    default_meanings().has(glyph)
}

/// The glyphs of [`has_default_meaning`].
fn default_meanings() -> Glyphs {
    static MEANINGFUL: std::sync::LazyLock<Glyphs> = std::sync::LazyLock::new(|| {
        let mut set = Glyphs::default();
        for g in GLYPHS.iter().filter(|g| g.glyph.len() == 1) {
            set.add(g.glyph.as_bytes()[0]);
        }
        set
    });
    *MEANINGFUL
}

/// The glyphs from `first` to `last`.
const fn glyph_range(first: u8, last: u8) -> Glyphs {
    let mut set = 0;
    let mut glyph = first;
    while glyph <= last {
        set |= 1 << glyph;
        glyph += 1;
    }
    Glyphs(set)
}

const LETTERS: Glyphs = Glyphs(glyph_range(b'A', b'Z').0 | glyph_range(b'a', b'z').0);

/// The monster glyphs (`1`-`7`) and the item glyphs (`d`-`k`).
const SLOT_GLYPHS: Glyphs = Glyphs(glyph_range(b'1', b'7').0 | glyph_range(b'd', b'k').0);

/// The number of monster glyphs (`1`-`7`) and item glyphs (`d`-`k`).
const MONSTER_GLYPHS: usize = 7;
const ITEM_GLYPHS: usize = 8;

/// The monster or item glyph of a MONS or ITEM entry, if it has one.
pub fn slot_glyph(header: Header, index: usize) -> Option<u8> {
    match header {
        Header::Mons if index < MONSTER_GLYPHS => Some(b'1' + index as u8),
        Header::Item if index < ITEM_GLYPHS => Some(b'd' + index as u8),
        _ => None,
    }
}

/// Whether the vault's own Lua can change its map or specs before placement.
pub fn lua_may_rewrite(vault: &Vault) -> bool {
    vault
        .lua
        .iter()
        .any(|l| matches!(l.chunk, Chunk::Prelude | Chunk::Main) && l.has_code())
}

/// A glyph of a header's key, and where it is written.
struct KeyGlyph {
    glyph: u8,
    range: TextRange,
    /// The other glyphs of the key, when removing this one leaves a key.
    removable: bool,
}

/// The glyphs of a key written at `span` of the argument's text (blanks and `/` skipped).
/// Into `keys`, emptied first (one buffer serves every header of a vault).
fn key_glyphs(arg: &Arg, span: std::ops::Range<usize>, keys: &mut Vec<KeyGlyph>) {
    keys.clear();
    let text = &arg.text[span.clone()];
    let is_glyph = |b: &u8| !matches!(b, b' ' | b'\t' | b'/');
    // Counted rather than gathered first: the key is read straight into its glyphs.
    let removable = text.bytes().filter(is_glyph).nth(1).is_some();
    let mut seen = Glyphs::default();
    keys.extend(
        text.bytes()
            .enumerate()
            .filter(|(_, b)| is_glyph(b))
            .filter(|&(_, glyph)| {
                let new = !seen.has(glyph);
                seen.add(glyph);
                new
            })
            .map(|(i, glyph)| KeyGlyph {
                glyph,
                range: range_in(arg, span.start + i..span.start + i + 1),
                removable,
            }),
    );
}

/// When a header's key is looked up in the map.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Binds {
    /// At its line, on the glyphs the map holds then (transforms and overlays).
    Now,
    /// When the vault is placed, after every transform (KFEAT, KMONS, KITEM, KMASK).
    Placement,
    /// Some time the map holds it (SUBVAULT, resolved by crawl's placement).
    Ever,
}

fn describe(glyph: u8) -> String {
    if glyph.is_ascii_graphic() {
        format!("`{}`", glyph as char)
    } else {
        format!("byte {glyph:#04x}")
    }
}

/// The rows the author meant as this vault's map: its first `own` rows.
fn own_rows(vault: &Vault, own: usize) -> impl Iterator<Item = &MapRow> {
    vault.rows().take(own)
}

/// The glyph checks of `vault`, whose map may swallow the rows from `swallowed` on.
pub(super) fn check(
    vault: &Vault,
    swallowed: Option<&Swallowed>,
    transforms: &Transforms,
    out: &mut Vec<Diagnostic>,
) {
    let own = swallowed.map_or(usize::MAX, |s| s.first);
    if lua_may_rewrite(vault) {
        non_ascii(vault, own, out);
        return;
    }
    // The glyphs of the map as crawl reads it (each byte a glyph): a flag per byte, one store
    // a cell (this reads every cell of every map), gathered into a set at the end. The flags
    // also say whether any row holds a byte beyond ASCII (few do) or any byte at all.
    let mut held = [false; 256];
    for row in own_rows(vault, own) {
        for &b in row.text.as_bytes() {
            held[usize::from(b)] = true;
        }
    }
    if held[128..].contains(&true) {
        non_ascii(vault, own, out);
    }
    if !held.contains(&true) {
        return;
    }
    let mut present = Glyphs::of_flags(&held);
    let in_map = present;
    // Where a glyph of the map first is: looked for only for a diagnostic.
    let first_cell = |glyph: u8| {
        if !in_map.has(glyph) {
            return None;
        }
        own_rows(vault, own).find_map(|row| {
            let i = memchr::memchr(glyph, row.text.as_bytes())?;
            Some(TextRange::at(
                row.range.start() + TextSize::from(i as u32),
                1.into(),
            ))
        })
    };
    let mut ever = present;
    // Where a glyph that is not in the map first comes from (a transform's argument).
    let mut produced_at: [Option<TextRange>; 128] = [None; 128];
    // Every glyph some header names: a glyph named nowhere has no meaning of its author's.
    let mut named = Glyphs::default();
    let mut keyed = Glyphs::default();
    let mut deferred: Vec<(Header, KeyGlyph)> = Vec::new();
    let mut keys: Vec<KeyGlyph> = Vec::new();
    let mut entries: Vec<(Header, &Arg)> = Vec::new();
    for (header_index, header) in vault.headers.iter().enumerate() {
        for (arg_index, arg) in header.args.iter().enumerate() {
            let binds = match header.header {
                Header::Subst | Header::NSubst | Header::Shuffle | Header::Clear => Binds::Now,
                Header::Colour
                | Header::FTile
                | Header::RTile
                | Header::Tile
                | Header::KProp
                | Header::FHeight
                | Header::Marker => Binds::Now,
                Header::KFeat | Header::KMons | Header::KItem | Header::KMask => Binds::Placement,
                Header::Subvault => Binds::Ever,
                Header::Mons | Header::Item => {
                    entries.push((header.header, arg));
                    continue;
                }
                _ => continue,
            };
            let parsed = transforms.get(header_index, arg_index);
            // Where the key and value of an argument that has them are: a substitution's
            // own, else read now, once for both uses.
            let split = match (header.header, parsed) {
                (Header::Shuffle | Header::Clear, _) => None,
                (_, Some(Ok(Transform::Subst(subst)))) => {
                    Some(Ok((subst.key_range.clone(), subst.value_range.clone())))
                }
                (_, Some(Ok(Transform::NSubst(nsubst)))) => {
                    Some(Ok((nsubst.key_range.clone(), nsubst.value_range.clone())))
                }
                _ => Some(spec::split(&arg.text).map(|keyed| (keyed.key_range, keyed.value_range))),
            };
            if matches!(header.header, Header::Subst | Header::NSubst)
                && let Some(Ok((_, value))) = &split
            {
                misread_weights(header.header, arg, value.clone(), out);
            }
            let transform = match parsed {
                Some(Ok(transform)) => Some(transform),
                // crawl reports a malformed spec on its own.
                Some(Err(_)) => continue,
                None => None,
            };
            let key_span = match split {
                None => 0..arg.text.len(),
                Some(Ok((key, _))) => key,
                Some(Err(_)) => continue,
            };
            key_glyphs(arg, key_span, &mut keys);
            for key in &keys {
                named.add(key.glyph);
                // A feature, monster or item spec replaces the glyph's own meaning (a mask
                // only adds to it).
                if matches!(header.header, Header::KFeat | Header::KMons | Header::KItem) {
                    keyed.add(key.glyph);
                }
            }
            match binds {
                Binds::Now => {
                    let all_absent = keys.iter().all(|k| !present.has(k.glyph));
                    for key in &keys {
                        // A shuffle of several glyphs may well list one the map lacks.
                        let reported = !present.has(key.glyph)
                            && (header.header != Header::Shuffle || all_absent);
                        if reported {
                            out.push(not_in_map(header.header, key, ever.has(key.glyph), false));
                        }
                    }
                }
                Binds::Placement | Binds::Ever => {
                    deferred.extend(keys.drain(..).map(|k| (header.header, k)));
                }
            }
            if let Some(transform) = transform {
                let made = apply(transform, &mut present);
                named.add_all(made);
                for glyph in made.iter() {
                    if !ever.has(glyph) {
                        produced_at[glyph as usize].get_or_insert(arg.range);
                    }
                }
                ever.add_all(made);
            }
        }
    }
    for (header, key) in deferred {
        let holds = if header == Header::Subvault {
            ever.has(key.glyph)
        } else {
            present.has(key.glyph)
        };
        if !holds {
            out.push(not_in_map(header, &key, ever.has(key.glyph), true));
        }
    }
    // Where a glyph is seen: its first map cell, or the transform that makes it.
    let site = |glyph: u8| first_cell(glyph).or(produced_at[glyph as usize]);
    let mut counts = [0usize; 2];
    for (header, arg) in &entries {
        let kind = usize::from(*header == Header::Item);
        let slot = counts[kind];
        counts[kind] += 1;
        let what = if *header == Header::Mons {
            "monster"
        } else {
            "item"
        };
        match slot_glyph(*header, slot) {
            None => out.push(Diagnostic::new(
                Code::DC0412,
                arg.range,
                format!(
                    "{} entry {} is never placed: only the first {} entries have a glyph ({})",
                    header.keyword(),
                    slot + 1,
                    if kind == 0 {
                        MONSTER_GLYPHS
                    } else {
                        ITEM_GLYPHS
                    },
                    if kind == 0 {
                        "`1` to `7`"
                    } else {
                        "`d` to `k`"
                    }
                ),
            )),
            Some(glyph) if !present.has(glyph) || keyed.has(glyph) => {
                let why = if keyed.has(glyph) {
                    format!("a K* header gives {} its own {what}", describe(glyph))
                } else {
                    format!("the map never holds its glyph {}", describe(glyph))
                };
                out.push(Diagnostic::new(
                    Code::DC0412,
                    arg.range,
                    format!(
                        "{} entry {} is never placed: {why}",
                        header.keyword(),
                        slot + 1
                    ),
                ));
            }
            Some(_) => {}
        }
    }
    let [monsters, items] = counts;
    // The monster and item glyphs no K* header gives a meaning of its own, picked as a set.
    for glyph in Glyphs(present.0 & SLOT_GLYPHS.0 & !keyed.0).iter() {
        let (header, count, index, what) = match glyph {
            b'1'..=b'7' => (Header::Mons, monsters, (glyph - b'1') as usize, "monster"),
            b'd'..=b'k' => (Header::Item, items, (glyph - b'd') as usize, "item"),
            _ => continue,
        };
        if index < count {
            continue;
        }
        let Some(range) = site(glyph) else { continue };
        let has = match count {
            0 => format!("the vault has no {}", header.keyword()),
            1 => format!("{} has 1 entry", header.keyword()),
            n => format!("{} has {n} entries", header.keyword()),
        };
        out.push(Diagnostic::new(
            Code::DC0413,
            range,
            format!(
                "{} stands for {} entry {} but {has}: crawl places a random {what} here (`{}` says so, if that is meant)",
                describe(glyph),
                header.keyword(),
                index + 1,
                if header == Header::Mons { '0' } else { '%' }
            ),
        ));
    }
    // Letters are the glyphs authors give meanings to: one that nothing defines is most likely
    // a forgotten definition or a typo. (Punctuation without a meaning, such as `'` or `"`,
    // is a common way of writing floor that later transforms leave alone.)
    // The letters without a meaning of crawl's or a header's, picked as a set.
    let unnamed = Glyphs(ever.0 & LETTERS.0 & !default_meanings().0 & !named.0);
    for glyph in unnamed.iter() {
        let Some(range) = first_cell(glyph) else {
            continue;
        };
        let other_case = if glyph.is_ascii_uppercase() {
            glyph.to_ascii_lowercase()
        } else {
            glyph.to_ascii_uppercase()
        };
        let (replacement, title) = if named.has(other_case) || keyed.has(other_case) {
            (
                other_case,
                format!(
                    "; did you mean {}, which this vault defines?",
                    describe(other_case)
                ),
            )
        } else {
            (b'.', String::new())
        };
        let edits: Vec<TextEdit> = own_rows(vault, own)
            .flat_map(|row| {
                row.text
                    .bytes()
                    .enumerate()
                    .filter(move |&(_, b)| b == glyph)
                    .map(move |(i, _)| TextEdit {
                        range: TextRange::at(
                            row.range.start() + TextSize::from(i as u32),
                            1.into(),
                        ),
                        new_text: (replacement as char).to_string(),
                    })
            })
            .collect();
        out.push(
            Diagnostic::new(
                Code::DC0410,
                range,
                format!(
                    "{} means nothing in this vault: it is none of crawl's map glyphs and no header names it, so it becomes plain floor when the vault is placed{title}",
                    describe(glyph)
                ),
            )
            .with_fix(
                format!(
                    "Write {} for every {}",
                    describe(replacement),
                    describe(glyph)
                ),
                edits,
            ),
        );
    }
}

/// A map character beyond ASCII: crawl reads each of its bytes as a glyph of no meaning.
fn non_ascii(vault: &Vault, own: usize, out: &mut Vec<Diagnostic>) {
    for row in own_rows(vault, own).filter(|r| !r.text.is_ascii()) {
        for (i, c) in row.text.char_indices().filter(|(_, c)| !c.is_ascii()) {
            let range = TextRange::at(
                row.range.start() + TextSize::from(i as u32),
                TextSize::of(c),
            );
            out.push(Diagnostic::new(
                Code::DC0410,
                range,
                format!(
                    "U+{:04X} is not a map glyph: crawl reads its {} bytes as {} glyphs of no meaning, which become floor (the row is {} wider than it looks)",
                    c as u32,
                    c.len_utf8(),
                    c.len_utf8(),
                    match c.len_utf8() - 1 {
                        1 => "one cell".to_string(),
                        n => format!("{n} cells"),
                    }
                ),
            ));
        }
    }
}

fn not_in_map(header: Header, key: &KeyGlyph, was_there: bool, at_placement: bool) -> Diagnostic {
    let glyph = describe(key.glyph);
    let message = match (was_there, at_placement) {
        (false, _) => format!(
            "the map never holds {glyph}: this {} does nothing for it",
            header.keyword()
        ),
        (true, false) => format!(
            "no cell holds {glyph} any more at this line (an earlier transform replaced them): this {} does nothing for it",
            header.keyword()
        ),
        (true, true) => format!(
            "no cell holds {glyph} when the vault is placed (a transform replaces them first): this {} never applies",
            header.keyword()
        ),
    };
    let diagnostic = Diagnostic::new(Code::DC0411, key.range, message);
    if key.removable && header != Header::Shuffle {
        diagnostic.with_replacement(format!("Remove {glyph} from the key"), key.range, "")
    } else {
        diagnostic
    }
}

/// Runs a transform on the set of glyphs the map may hold; answers the glyphs it may write.
fn apply(transform: &Transform, present: &mut Glyphs) -> Glyphs {
    let mut made = Glyphs::default();
    match transform {
        Transform::Subst(subst) => {
            let keys = Glyphs::of(&subst.keys);
            if present.0 & keys.0 != 0 {
                present.remove_all(keys);
                for option in &subst.options {
                    made.add_char(option.value);
                }
            }
        }
        Transform::NSubst(nsubst) => {
            let keys = Glyphs::of(&nsubst.keys);
            if present.0 & keys.0 != 0 {
                // A segment without a count takes every cell left; otherwise the cells
                // beyond the counts keep their glyph.
                if nsubst.segments.iter().any(|s| s.count.is_none()) {
                    present.remove_all(keys);
                }
                for option in nsubst.segments.iter().flat_map(|s| &s.options) {
                    made.add_char(option.value);
                }
            }
        }
        Transform::Shuffle(shuffle) => {
            let all: Glyphs = Glyphs::of(&shuffle.blocks.concat());
            if present.0 & all.0 != 0 {
                made = all;
            }
        }
        Transform::Clear(glyphs) => {
            let keys = Glyphs::of(glyphs);
            if present.0 & keys.0 != 0 {
                present.remove_all(keys);
                made.add(b' ');
            }
        }
    }
    present.add_all(made);
    made
}

/// A replacement token like `TUV*:10`: crawl takes a weight only after a single glyph, so it
/// reads every character of the token, `:`, `1` and `0` included, as a glyph of weight 10.
fn misread_weights(
    header: Header,
    arg: &Arg,
    value: std::ops::Range<usize>,
    out: &mut Vec<Diagnostic>,
) {
    // Every misread token has a colon: a value without one (most) has none.
    if !arg.text[value.clone()].contains(':') {
        return;
    }
    // The replacement parts: SUBST's value; each NSUBST segment after its count.
    if header == Header::Subst {
        misread_weights_in(arg, value, out);
    } else {
        let mut start = value.start;
        for segment in arg.text[value.clone()].split('/') {
            let glyphs = segment.find(['=', ':']).map_or(0, |at| at + 1);
            misread_weights_in(arg, start + glyphs..start + segment.len(), out);
            start += segment.len() + 1;
        }
    }
}

/// [`misread_weights`] in one replacement part of the argument.
fn misread_weights_in(arg: &Arg, part: std::ops::Range<usize>, out: &mut Vec<Diagnostic>) {
    let mut at = part.start;
    for token in arg.text[part.clone()].split([' ', '\t']) {
        let span = at..at + token.len();
        at += token.len() + 1;
        let bytes = token.as_bytes();
        let Some(colon) = token.rfind(':') else {
            continue;
        };
        let weight = &token[colon + 1..];
        if bytes.len() < 4
            || bytes[1] == b':'
            || colon < 2
            || weight.is_empty()
            || !weight.bytes().all(|b| b.is_ascii_digit())
            || !token.is_ascii()
        {
            continue;
        }
        let glyphs: Vec<String> = token.chars().map(|c| format!("`{c}`")).collect();
        let mut fixed: Vec<String> = token[..colon - 1].chars().map(String::from).collect();
        fixed.push(token[colon - 1..].to_string());
        let fixed = fixed.join(" ");
        out.push(
            Diagnostic::new(
                Code::DC0418,
                range_in(arg, span.clone()),
                format!(
                    "crawl reads `{token}` as the glyphs {}, each of weight 10: a weight only follows a lone glyph, as in `{}`",
                    glyphs.join(", "),
                    &token[colon - 1..]
                ),
            )
            .with_replacement(format!("Write `{fixed}`"), range_in(arg, span), fixed),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_constant_sets_hold_their_glyphs() {
        let members = |set: Glyphs| set.iter().collect::<Vec<u8>>();
        let letters: Vec<u8> = (0..128u8).filter(u8::is_ascii_alphabetic).collect();
        assert_eq!(members(LETTERS), letters);
        assert_eq!(members(SLOT_GLYPHS), b"1234567defghijk");
    }

    #[test]
    fn flags_gather_into_the_set_of_their_glyphs() {
        for held in [
            &b""[..],
            b"x.@+",
            b"\x00\x7f",
            b"01234567abcdefgh\x80\xff",
            b" ~",
        ] {
            let mut flags = [false; 256];
            let mut set = Glyphs::default();
            for &b in held {
                flags[usize::from(b)] = true;
                set.add(b);
            }
            assert_eq!(Glyphs::of_flags(&flags), set);
        }
        let all = [true; 256];
        assert_eq!(Glyphs::of_flags(&all), Glyphs(u128::MAX));
    }
}
