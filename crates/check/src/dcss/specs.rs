//! MONS/KMONS, ITEM/KITEM and KFEAT specs read the way crawl 0.28.0 reads them: the tags come off
//! the spec one by one, in crawl's order and by its string rules (a flag word is taken once,
//! a `key:` tag up to the next space, some only after another: `god_gift` after `god:`, the
//! name flags after `name:`), each value is checked against the tables, and what is left is
//! the name. So a tag crawl does not know stays in the name and the name is unknown, as crawl
//! says. Each alternative answers the first problem crawl finds in it.
//!
//! Item alternatives share crawl's one error: a later alternative that gets as far as the
//! name clears an earlier one's error, so that error is only a warning (DC0401); one that
//! stops before (a bad tag, `random`, `*`) leaves it standing.

use std::ops::Range;
use std::sync::LazyLock;

use rustc_hash::FxHashMap as HashMap;

use levkit_diagnostics::{Code, Diagnostic};
use levkit_model::dcss::Arg;
use levkit_model::dcss::spec::trimmed;
use levkit_model::dcss::strings::{
    is_space, parse_int, split, strip_number_tag, strip_tag, strip_tag_prefix, strip_weight, trim,
};
use levkit_model::dcss::tables::{
    BRANCHES, COLOURS, DEFINING_ITEMS, EGOS, ENCHANTMENTS, FEATURE_FORMS, FEATURES, GODS,
    ITEM_CLASSES, ITEM_EGOS, ITEMS, MAIN_TILES, MONSTER_EQUIPMENT, PLAYER_TILES, SPELL_SCHOOLS,
    SPELLS, Str,
};

use super::names::{self, MonsterName};
use super::{exact_range_in, range_in, suggest_instead};

// ---- a spec being read ----------------------------------------------------------------------

/// One alternative of a spec while crawl reads it: the text left (`rest`), and where the
/// alternative is written (`span` of the slot's `text`), to place what is found.
struct Spec<'a> {
    text: &'a str,
    span: Range<usize>,
    rest: String,
    /// Whether `rest` is known to hold no `:`. It only loses text as tags come off (each new
    /// `rest` is a piece of the one before; `monster` takes it whole to split it and reads no
    /// tag until a piece is back), so a `rest` without one stays without.
    colon_free: std::cell::Cell<bool>,
    /// The ASCII bytes of the alternative, one bit each: `rest` only loses text, so a tag with
    /// a byte outside them is not in it (most are not), and is not searched for. A byte beyond
    /// ASCII sets the bit of its low seven bits (a tag may then be searched for in vain).
    alternative_bytes: u128,
}

/// The first problem crawl finds in an alternative: its code, the message, where (in the
/// slot's text), and the name to suggest for a misspelt word.
#[derive(Clone)]
struct Problem {
    code: Code,
    message: String,
    span: Range<usize>,
    suggestion: Option<Suggestion>,
}

/// The name to suggest for a misspelt word, and where a fix may write it in the word's
/// place. Chosen when the problem is found: a problem is kept for its text and reported
/// wherever the text is written again, and its candidates (every monster name, every spell)
/// would be kept with it.
#[derive(Clone)]
struct Suggestion {
    name: &'static str,
    at: Option<Range<usize>>,
}

impl Problem {
    fn suggest(
        mut self,
        word: &str,
        at: Range<usize>,
        candidates: impl IntoIterator<Item = &'static str>,
    ) -> Self {
        self.suggestion =
            closest_of(word, candidates).map(|name| Suggestion { name, at: Some(at) });
        self
    }

    /// A suggestion without a fix (the word is not written as it is named).
    fn suggest_only(
        mut self,
        word: &str,
        candidates: impl IntoIterator<Item = &'static str>,
    ) -> Self {
        self.suggestion = closest_of(word, candidates).map(|name| Suggestion { name, at: None });
        self
    }

    /// The problem of a text written at `offset` of the text it was found in.
    fn shifted(&self, offset: usize) -> Problem {
        let shifted = |span: &Range<usize>| span.start + offset..span.end + offset;
        Problem {
            code: self.code,
            message: self.message.clone(),
            span: shifted(&self.span),
            suggestion: self.suggestion.as_ref().map(|s| Suggestion {
                name: s.name,
                at: s.at.as_ref().map(shifted),
            }),
        }
    }

    /// The diagnostic of the problem of a slot written at `offset` of the argument's text.
    fn diagnostic(&self, arg: &Arg, offset: usize) -> Diagnostic {
        let shifted = |span: &Range<usize>| span.start + offset..span.end + offset;
        let diagnostic = Diagnostic::new(
            self.code,
            range_in(arg, shifted(&self.span)),
            self.message.clone(),
        );
        match &self.suggestion {
            Some(Suggestion { name, at }) => {
                let at = at.as_ref().and_then(|at| exact_range_in(arg, shifted(at)));
                suggest_instead(diagnostic, name, at)
            }
            None => diagnostic,
        }
    }
}

/// The candidate closest to the misspelt `word`, as "did you mean" names it (none when it is
/// the word itself). Between equally close names, one the word begins (`fir`: `fire`): those
/// first, each group in its order.
fn closest_of(
    word: &str,
    candidates: impl IntoIterator<Item = &'static str>,
) -> Option<&'static str> {
    let candidates: Vec<&'static str> = candidates.into_iter().collect();
    let lower = word.to_lowercase();
    let begins = |c: &str| {
        if c.is_ascii() && lower.is_ascii() {
            c.as_bytes()
                .get(..lower.len())
                .is_some_and(|start| start.eq_ignore_ascii_case(lower.as_bytes()))
        } else {
            c.to_lowercase().starts_with(&lower)
        }
    };
    let ordered = (candidates.iter().copied().filter(|c| begins(c)))
        .chain(candidates.iter().copied().filter(|c| !begins(c)));
    levkit_syntax::suggest::closest(word, ordered).filter(|name| *name != word)
}

impl<'a> Spec<'a> {
    fn new(text: &'a str, span: Range<usize>, alternative: &str) -> Self {
        Spec {
            text,
            span,
            rest: alternative.to_string(),
            colon_free: std::cell::Cell::new(false),
            alternative_bytes: byte_set(alternative),
        }
    }

    fn written(&self) -> &str {
        self.text.get(self.span.clone()).unwrap_or("")
    }

    fn tag(&mut self, tag: &str) -> bool {
        self.may_contain(tag) && strip_tag(&mut self.rest, tag)
    }

    /// Whether the text left may contain `tag`: each of its bytes is in the alternative (one
    /// beyond ASCII by its low seven bits, as the set keeps it).
    fn may_contain(&self, tag: &str) -> bool {
        tag.bytes()
            .all(|b| self.alternative_bytes & (1 << (b & 127)) != 0)
    }

    fn prefixed(&mut self, prefix: &str) -> String {
        if !self.may_hold(prefix) {
            return String::new();
        }
        strip_tag_prefix(&mut self.rest, prefix)
    }

    fn number(&mut self, prefix: &str) -> Option<i32> {
        if !self.may_hold(prefix) {
            return None;
        }
        strip_number_tag(&mut self.rest, prefix)
    }

    /// The generation weight, taken off (`weight:` or `w:`).
    fn weight(&mut self) -> Option<i32> {
        if !self.may_hold("w:") {
            return None;
        }
        strip_weight(&mut self.rest)
    }

    /// Whether the text left may hold the `key:` tag `prefix`: most alternatives have no
    /// tag at all, and a byte of the key outside the alternative, or one look for a `:`,
    /// spares the search for it (and the looks after it, once there is none).
    fn may_hold(&self, prefix: &str) -> bool {
        if !self.may_contain(prefix) {
            return false;
        }
        if !prefix.ends_with(':') {
            return true;
        }
        if self.colon_free.get() {
            return false;
        }
        let holds = self.rest.contains(':');
        self.colon_free.set(!holds);
        holds
    }

    /// Where `needle` is first written at the start of a word of the alternative (the whole
    /// alternative when it is not found as written).
    fn place_of(&self, needle: &str) -> Range<usize> {
        let written = self.written();
        let mut from = 0;
        while let Some(pos) = find_from(written, needle, from) {
            if !needle.is_empty() && (pos == 0 || is_space(written.as_bytes()[pos - 1])) {
                return self.span.start + pos..self.span.start + pos + needle.len();
            }
            from = pos + 1;
        }
        self.span.clone()
    }

    /// Where the value of the tag `prefix` + `value` is written.
    fn value_of(&self, prefix: &str, value: &str) -> Range<usize> {
        let tag = self.place_of(&format!("{prefix}{value}"));
        if tag.len() == prefix.len() + value.len() {
            tag.start + prefix.len()..tag.end
        } else {
            tag
        }
    }

    fn problem(&self, code: Code, span: Range<usize>, message: String) -> Problem {
        Problem {
            code,
            message,
            span,
            suggestion: None,
        }
    }

    /// A problem with the value of the tag `prefix`, suggesting one of `candidates`.
    fn bad_value(
        &self,
        code: Code,
        prefix: &str,
        value: &str,
        message: String,
        candidates: impl IntoIterator<Item = &'static str>,
    ) -> Problem {
        let tag = self.place_of(&format!("{prefix}{value}"));
        let at = self.value_of(prefix, value);
        self.problem(code, tag, message)
            .suggest(value, at, candidates)
    }

    /// `place:` as crawl's `level_id::parse_level_id` reads it: `Err` for a bad branch or
    /// depth, else whether the place is a real level (a depth of 0 is not).
    fn place(&self, code_of: fn(&str) -> Code, value: &str) -> Result<bool, Problem> {
        let (branch_name, level) = value.split_once(':').unwrap_or((value, ""));
        let Some(branch) = BRANCHES.iter().find(|b| b.abbrev == branch_name) else {
            let tag = self.place_of(&format!("place:{value}"));
            let at = self.value_of("place:", value);
            return Err(self
                .problem(
                    code_of("branch"),
                    tag,
                    format!(
                        "Invalid branch \"{branch_name}\" in spec \"{value}\": branch names are crawl's abbreviations, case-sensitive (D, Lair, Orc, Vaults...)"
                    ),
                )
                .suggest(
                    branch_name,
                    at.start..at.start + branch_name.len(),
                    BRANCHES.iter().map(|b| b.abbrev.as_str()),
                ));
        };
        let depth = match level {
            "" => 1,
            "$" => i64::from(branch.max_depth),
            _ => levkit_syntax::atoi(level),
        };
        if depth < 0 || depth > i64::from(branch.max_depth) {
            return Err(self.problem(
                code_of("depth"),
                self.place_of(&format!("place:{value}")),
                format!(
                    "Invalid depth for {branch_name} in spec \"{value}\": {} has {} level{}",
                    branch.abbrev,
                    branch.max_depth,
                    if branch.max_depth == 1 { "" } else { "s" }
                ),
            ));
        }
        Ok(depth > 0)
    }
}

/// The set of [`Spec::alternative_bytes`]: a word of 64 bits for each half of ASCII, one
/// shift and one `or` a byte (this reads every alternative read).
fn byte_set(text: &str) -> u128 {
    let mut halves = [0u64; 2];
    for b in text.bytes() {
        halves[usize::from(b >> 6) & 1] |= 1 << (b & 63);
    }
    u128::from(halves[0]) | u128::from(halves[1]) << 64
}

fn place_code(what: &str) -> Code {
    if what == "branch" {
        Code::DC0102
    } else {
        Code::DC0101
    }
}

/// Where `needle` first occurs in `text` from `from` (a char boundary, else nowhere): what
/// `text.get(from..)?.find(needle)` says, counted from the start of `text`, without building a
/// `str` searcher for a short text.
fn find_from(text: &str, needle: &str, from: usize) -> Option<usize> {
    if !text.is_char_boundary(from) {
        return None;
    }
    if needle.is_empty() {
        return Some(from);
    }
    levkit_model::dcss::strings::find(text.as_bytes(), needle.as_bytes(), from)
}

/// Splits `span` of `text` at `separator`, an ASCII byte, answering each piece's trimmed span
/// (as they are read: no list is built for a slot or a list of slots).
pub(super) fn pieces(
    text: &str,
    span: Range<usize>,
    separator: u8,
) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut start = span.start;
    text.as_bytes()[span]
        .split(move |&b| b == separator)
        .map(move |piece| {
            let range = start..start + piece.len();
            start += piece.len() + 1;
            trimmed(text, range)
        })
}

/// The pieces [`split`] cuts `text` into, as they are cut (no list of them is built for a
/// monster or an item alternative read).
fn pieces_of(text: &str, separator: char) -> impl Iterator<Item = &str> {
    text.split(separator)
        .map(trim)
        .filter(|piece| !piece.is_empty())
}

// ---- the tables, as the specs match them ------------------------------------------------------

/// Spell names as a spec writes them, lowercase with `_` for a space (every spell, then the
/// monsters' only).
static SPELL_WORDS: LazyLock<(Vec<String>, Vec<String>)> = LazyLock::new(|| {
    let word = |name: &str| name.to_lowercase().replace(' ', "_");
    (
        SPELLS.iter().map(|s| word(s.name.as_str())).collect(),
        SPELLS
            .iter()
            .filter(|s| s.monster)
            .map(|s| word(s.name.as_str()))
            .collect(),
    )
});

fn spell_words(monster_only: bool) -> impl Iterator<Item = &'static str> {
    let (all, monster) = &*SPELL_WORDS;
    if monster_only { monster } else { all }
        .iter()
        .map(String::as_str)
}

/// crawl's `spell_by_name`: the spell (case-insensitive, `name` with spaces).
fn spell(name: &str) -> Option<&'static levkit_model::dcss::tables::Spell> {
    SPELLS.iter().find(|s| s.name.eq_ignore_ascii_case(name))
}

/// The god words as a spec writes them (`_` for a space).
static GOD_WORDS: LazyLock<Vec<String>> =
    LazyLock::new(|| GODS.iter().map(|g| g.replace(' ', "_")).collect());

fn god_words() -> impl Iterator<Item = &'static str> {
    GOD_WORDS.iter().map(String::as_str)
}

/// crawl's `str_to_god` (exact, case-insensitive) on a value with `_` for spaces.
fn is_god(value: &str) -> bool {
    let name = value.replace('_', " ");
    let name = trim(&name);
    GODS.iter().any(|g| g.eq_ignore_ascii_case(name))
}

fn is_tile(name: &str, tiles: &[Str]) -> bool {
    tiles.iter().any(|t| t.eq_ignore_ascii_case(name))
}

/// What crawl's unrandart lookup compares: spaces as `_`, no `'`, lowercase.
fn unrand_key(name: &str) -> String {
    // An ASCII name (every unrandart's, and nearly every one written) in one pass and one
    // copy: the general route makes three.
    if name.is_ascii() {
        let mut key = String::with_capacity(name.len());
        for byte in name.bytes() {
            match byte {
                b'\'' => {}
                b' ' => key.push('_'),
                _ => key.push(char::from(byte.to_ascii_lowercase())),
            }
        }
        return key;
    }
    unrand_key_general(name)
}

/// [`unrand_key`] for any name (Unicode lowercasing depends on the letters around, as for a
/// final sigma).
fn unrand_key_general(name: &str) -> String {
    name.replace(' ', "_").replace('\'', "").to_lowercase()
}

/// The unrandarts by what crawl matches: the whole key (spaces as `_`, no `'`, lowercase),
/// and each text between two quotes of it (`dagger_"morg"` answers to `morg`); each with the
/// index of the first unrandart that has it, since crawl takes the first that matches.
struct Unrandarts {
    whole: HashMap<String, usize>,
    quoted: HashMap<String, usize>,
    items: Vec<&'static str>,
}

static UNRANDARTS: LazyLock<Unrandarts> = LazyLock::new(|| {
    let mut table = Unrandarts {
        whole: HashMap::default(),
        quoted: HashMap::default(),
        items: Vec::new(),
    };
    for item in ITEMS.iter().filter(|i| i.class == "unrandart") {
        let index = table.items.len();
        table.items.push(item.key.as_str());
        let art = unrand_key(item.name.as_str());
        let quotes: Vec<usize> = art.match_indices('"').map(|(i, _)| i).collect();
        for (n, &open) in quotes.iter().enumerate() {
            for &close in &quotes[n + 1..] {
                table
                    .quoted
                    .entry(art[open + 1..close].to_string())
                    .or_insert(index);
            }
        }
        table.whole.entry(art).or_insert(index);
    }
    table
});

/// The unrandart `name` stands for (its item key): its whole name, or the part of it in
/// quotes (`morg` for `dagger "Morg"`), as crawl's `get_unrandart_num` matches.
fn unrandart(name: &str) -> Option<&'static str> {
    let key = unrand_key(name);
    let table = &*UNRANDARTS;
    let first = [table.whole.get(&key), table.quoted.get(&key)]
        .into_iter()
        .flatten()
        .min()?;
    Some(table.items[*first])
}

/// The ordinary items by their key (crawl's item name cache).
static ITEMS_BY_KEY: LazyLock<
    HashMap<&'static str, &'static levkit_model::dcss::tables::ItemName>,
> = LazyLock::new(|| {
    let mut by_key = HashMap::default();
    for item in ITEMS.iter().filter(|i| i.class != "unrandart") {
        by_key.entry(item.key.as_str()).or_insert(item);
    }
    by_key
});

/// An ordinary item by name (crawl's item name cache: lowercase, exact).
fn item_named(name: &str) -> Option<&'static levkit_model::dcss::tables::ItemName> {
    // Most names are written in lowercase already: looked up without a copy.
    if name
        .bytes()
        .all(|b| b.is_ascii() && !b.is_ascii_uppercase())
    {
        return ITEMS_BY_KEY.get(name).copied();
    }
    ITEMS_BY_KEY.get(name.to_lowercase().as_str()).copied()
}

/// What each monster carries from a `; items` spec, by ASCII-lowercase name (a name's first
/// entry, as a search of the table finds it).
static EQUIPMENT_BY_NAME: LazyLock<HashMap<String, &'static str>> = LazyLock::new(|| {
    let mut by_name = HashMap::default();
    for monster in MONSTER_EQUIPMENT {
        by_name
            .entry(monster.name.as_str().to_ascii_lowercase())
            .or_insert(monster.equipment.as_str());
    }
    by_name
});

/// The equipment of the monster `name` (its name in any ASCII case), `any` when the table
/// does not say.
fn equipment_of(name: &str) -> &'static str {
    let found = if name.bytes().any(|b| b.is_ascii_uppercase()) {
        EQUIPMENT_BY_NAME.get(&name.to_ascii_lowercase())
    } else {
        EQUIPMENT_BY_NAME.get(name)
    };
    found.copied().unwrap_or("any")
}

/// The class of an ego's item class (`OBJ_WEAPONS` → `weapon`).
fn ego_class(class: &str) -> Option<&'static str> {
    match class {
        "OBJ_WEAPONS" => Some("weapon"),
        "OBJ_ARMOUR" => Some("armour"),
        "OBJ_MISSILES" => Some("missile"),
        _ => None,
    }
}

// ---- monsters -------------------------------------------------------------------------------

// ---- slots, read once per text ---------------------------------------------------------------

/// The kinds of slot a header's argument holds, each read by its own function.
#[derive(Clone, Copy)]
enum Slot {
    Monster,
    Item,
    Feature,
}

/// What reading texts found so far on this thread, by text: vaults repeat the same slots and
/// alternatives (`MONS: orc priest`, `ITEM: any scroll`), whose outcomes depend only on their
/// text and are placed from where each is written. Cleared when it grows past a bound, so
/// that a long editing session keeps it small.
struct TextCache<V> {
    /// Where each text's entry is in `entries`, by the text's hash: a text is hashed once a
    /// lookup, and once only when it is then read and kept (the map keeps no text to hash
    /// again as it grows). A text read before (most are) is found with one probe of the map
    /// and one comparison.
    at: std::collections::HashMap<u64, usize, std::hash::BuildHasherDefault<Prehashed>>,
    entries: Vec<(Box<str>, V)>,
}

/// The hasher of [`TextCache::at`], whose keys are hashes already: it passes them on.
#[derive(Default)]
struct Prehashed(u64);

impl std::hash::Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `u64` keys are hashed with it; anything else is still hashed.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, hash: u64) {
        self.0 = hash;
    }
}

impl<V> Default for TextCache<V> {
    fn default() -> Self {
        TextCache {
            at: Default::default(),
            entries: Vec::new(),
        }
    }
}

impl<V> TextCache<V> {
    const BOUND: usize = 8192;

    /// What reading `text` found, read now by `read` if it was not before.
    fn get_or_read(&mut self, text: &str, read: impl FnOnce() -> V) -> &V {
        use std::hash::BuildHasher;
        let hash = rustc_hash::FxBuildHasher.hash_one(text);
        if let Some(&at) = self.at.get(&hash)
            && self
                .entries
                .get(at)
                .is_some_and(|(written, _)| **written == *text)
        {
            return &self.entries[at].1;
        }
        if self.entries.len() >= Self::BOUND {
            self.at.clear();
            self.entries.clear();
        }
        let value = read();
        // A text of the same hash read before gives its place up.
        self.at.insert(hash, self.entries.len());
        self.entries.push((text.into(), value));
        &self.entries[self.entries.len() - 1].1
    }
}

thread_local! {
    /// The problems of the slots read so far, by kind and text.
    static SLOT_PROBLEMS: std::cell::RefCell<[TextCache<Vec<Problem>>; 3]> =
        std::cell::RefCell::default();
}

/// Reads the slot written at `span` of the argument, or takes what reading its text found
/// before, and reports its problems at their places.
fn check_slot(slot: Slot, arg: &Arg, span: Range<usize>, out: &mut Vec<Diagnostic>) {
    let Some(text) = arg.text.get(span.clone()) else {
        return;
    };
    SLOT_PROBLEMS.with(|cache| {
        let mut cache = cache.borrow_mut();
        let problems = cache[slot as usize].get_or_read(text, || {
            let mut problems = Vec::new();
            match slot {
                Slot::Monster => monster_slot_problems(text, &mut problems),
                Slot::Item => item_slot_problems(text, &mut problems),
                Slot::Feature => feature_slot_problems(text, &mut problems),
            }
            problems
        });
        for problem in problems {
            out.push(problem.diagnostic(arg, span.start));
        }
    });
}

/// One MONS slot, or one KMONS slot, at `span` of the argument.
pub(super) fn monster_slot(arg: &Arg, span: Range<usize>, out: &mut Vec<Diagnostic>) {
    check_slot(Slot::Monster, arg, span, out);
}

/// What reading a monster alternative found: the problems of its items crawl lets pass, and
/// its outcome (spans from the alternative's start).
type MonsterOutcome = (Vec<Problem>, Result<Monster, Problem>);

thread_local! {
    /// The monster alternatives read so far on this thread, by text: slots share them more
    /// than whole slots (`orc / orc priest`, `orc priest / orc wizard`).
    static MONSTER_ALTERNATIVES: std::cell::RefCell<TextCache<MonsterOutcome>> =
        std::cell::RefCell::default();
}

/// The monster alternative `text`, written at `offset` of its slot, read as crawl reads it
/// (or as it was read before): its outcome, with the problems crawl lets pass in `out`.
fn monster_alternative(
    text: &str,
    offset: usize,
    out: &mut Vec<Problem>,
) -> Result<Monster, Problem> {
    MONSTER_ALTERNATIVES.with(|cache| {
        let mut cache = cache.borrow_mut();
        let (problems, outcome) = cache.get_or_read(text, || {
            let mut problems = Vec::new();
            let outcome = monster(&mut Spec::new(text, 0..text.len(), text), &mut problems);
            (problems, outcome)
        });
        out.extend(problems.iter().map(|p| p.shifted(offset)));
        match outcome {
            Ok(monster) => Ok(Monster {
                items: monster.items,
                unfit: monster.unfit.as_ref().map(|p| p.shifted(offset)),
            }),
            Err(problem) => Err(problem.shifted(offset)),
        }
    })
}

/// A monster slot written `text`: `/`-separated alternatives; crawl rejects the slot at the
/// first bad one, so each is an error.
fn monster_slot_problems(text: &str, out: &mut Vec<Problem>) {
    let mut unfit = None;
    for alternative in pieces(text, 0..text.len(), b'/') {
        if alternative.is_empty() {
            continue;
        }
        match monster_alternative(&text[alternative.clone()], alternative.start, out) {
            Err(problem) => out.push(problem),
            Ok(monster) => {
                // A later alternative with items sets crawl's error anew (to none when they
                // parse): items a monster cannot carry are an error only in the last
                // alternative with items.
                if monster.items {
                    unfit = None;
                }
                if let Some(problem) = monster.unfit {
                    unfit = Some(problem);
                }
            }
        }
    }
    if let Some(problem) = unfit {
        out.push(problem);
    }
}

/// KMONS: comma-separated slots.
pub(super) fn monster_list(arg: &Arg, span: Range<usize>, out: &mut Vec<Diagnostic>) {
    for slot in pieces(&arg.text, span, b',') {
        monster_slot(arg, slot, out);
    }
}

/// The flags crawl takes off a monster spec unconditionally, and the keys of its `key:` tags,
/// for the hints on a name that keeps an unknown one.
const MONSTER_FLAGS: &[&str] = &[
    "generate_awake",
    "patrolling",
    "band",
    "seen",
    "always_corpse",
    "never_corpse",
];
const MONSTER_KEYS: &[&str] = &[
    "spells:",
    "weight:",
    "w:",
    "att:",
    "place:",
    "hd:",
    "hp:",
    "dur:",
    "shifter:",
    "sum:",
    "nas:",
    "col:",
    "god:",
    "tile:",
    "dbname:",
    "name:",
    "ench:",
    "perm_ench:",
];
/// The flags crawl reads only after `name:` (long and short forms).
const NAME_FLAGS: &[&str] = &[
    "name_suffix",
    "n_suf",
    "name_adjective",
    "n_adj",
    "name_replace",
    "n_rpl",
    "name_definite",
    "n_the",
    "name_descriptor",
    "n_des",
    "name_species",
    "n_spe",
    "name_zombie",
    "n_zom",
    "name_nocorpse",
    "n_noc",
];

/// The summon types `sum:` takes besides spells.
const SUMMON_TYPES: &[&str] = &[
    "clone", "animate", "chaos", "miscast", "zot", "wrath", "aid",
];

/// A monster alternative crawl read to its end.
#[derive(Clone)]
struct Monster {
    /// Whether it has a `; items` part.
    items: bool,
    /// Items it cannot carry: crawl's error, which a later alternative with items clears.
    unfit: Option<Problem>,
}

/// Reads one monster alternative as crawl's `parse_mons_spec` does: its first problem, or
/// what it is (the warnings of its items go to `out`).
fn monster(spec: &mut Spec, out: &mut Vec<Problem>) -> Result<Monster, Problem> {
    loop {
        let value = spec.prefixed("spells:");
        if value.is_empty() {
            break;
        }
        if let Some(problem) = spells(spec, &value) {
            return Err(problem);
        }
    }
    // The name part becomes the text left below.
    let whole = std::mem::take(&mut spec.rest);
    let mut parts = pieces_of(&whole, ';');
    let Some(name_part) = parts.next() else {
        return Err(spec.problem(
            Code::DC0120,
            spec.span.clone(),
            format!(
                "Not enough non-semicolons for '{whole}' spec: nothing is left to name the monster"
            ),
        ));
    };
    let items_part = parts.next();
    if parts.next().is_some() {
        return Err(spec.problem(
            Code::DC0120,
            spec.span.clone(),
            format!(
                "Too many semi-colons for '{name_part}' spec: one `;` separates the monster from its items"
            ),
        ));
    }
    let mut items = Vec::new();
    if let Some(items_text) = items_part {
        let items_text = items_text.replace('|', "/");
        let segments = split(&items_text, '.');
        if segments.len() > 12 {
            return Err(spec.problem(
                Code::DC0120,
                spec.span.clone(),
                format!(
                    "More items than monster item slots for '{name_part}': a monster carries at most 12 items"
                ),
            ));
        }
        let after = spec.written().find(';').map_or(0, |i| i + 1);
        let mut from = after;
        // The segments where they are written, for the diagnostics (`|` stands for `/`).
        let written = spec.written().replace('|', "/");
        for segment in segments {
            let at = find_from(&written, segment, from);
            let span = match at {
                Some(at) => {
                    from = at + segment.len();
                    spec.span.start + at..spec.span.start + at + segment.len()
                }
                None => spec.span.clone(),
            };
            match item_slot_outcome(spec.text, span, segment, out) {
                Some(problem) => return Err(problem),
                None => items.push(segment.to_string()),
            }
        }
    }
    spec.rest = name_part.to_string();
    spec.weight();
    for flag in ["generate_awake", "patrolling", "band"] {
        spec.tag(flag);
    }
    spec.prefixed("att:");
    for flag in ["seen", "always_corpse", "never_corpse"] {
        spec.tag(flag);
    }
    // `3 orc`: a count before the name.
    let digits = spec.rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && spec.rest.as_bytes().get(digits) == Some(&b' ') {
        spec.rest = spec.rest[digits..].to_string();
    }
    let place = spec.prefixed("place:");
    let mut placed = false;
    if !place.is_empty() {
        match spec.place(place_code, &place) {
            Ok(real) => placed = real,
            Err(problem) => return Err(problem),
        }
    }
    spec.number("hd:");
    spec.number("hp:");
    let duration = spec.number("dur:").filter(|d| (1..=6).contains(d));
    spec.prefixed("shifter:");
    let summon = spec.prefixed("sum:");
    if !summon.is_empty() {
        let kind = summon.replace('_', " ");
        if !(SUMMON_TYPES.contains(&kind.as_str()) || spell(&kind).is_some()) {
            let message = format!(
                "bad monster summon type: \"{kind}\": sum: takes a spell (as magic_dart) or clone, animate, chaos, miscast, zot, wrath, aid"
            );
            return Err(spec.bad_value(
                Code::DC0120,
                "sum:",
                &summon,
                message,
                spell_words(false).chain(SUMMON_TYPES.iter().copied()),
            ));
        }
        if duration.is_none() {
            return Err(no_duration(spec, "sum:", &summon));
        }
    }
    let summoner = spec.prefixed("nas:");
    if !summoner.is_empty() && duration.is_none() {
        return Err(no_duration(spec, "nas:", &summoner));
    }
    let colour = spec.prefixed("col:");
    if !colour.is_empty() && colour != "any" && !COLOURS.iter().any(|c| c.mons && c.name == colour)
    {
        let original = spec.written().to_string();
        return Err(spec.bad_value(
            Code::DC0114,
            "col:",
            &colour,
            format!(
                "bad monster colour \"{colour}\" in \"{original}\": col: takes a lowercase colour other than black, an element colour, or any"
            ),
            COLOURS
                .iter()
                .filter(|c| c.mons)
                .map(|c| c.name.as_str())
                .chain(["any"]),
        ));
    }
    let god = spec.prefixed("god:");
    if !god.is_empty() {
        if !is_god(&god) {
            let name = god.replace('_', " ");
            return Err(spec.bad_value(
                Code::DC0120,
                "god:",
                &god,
                format!(
                    "bad monster god: \"{name}\": crawl 0.28.0 has no god of that name (written with `_` for spaces, as the_Shining_One)"
                ),
                god_words(),
            ));
        }
        spec.tag("god_gift");
    }
    let tile = spec.prefixed("tile:");
    if !tile.is_empty() && !is_tile(&tile, PLAYER_TILES) {
        return Err(spec.bad_value(
            Code::DC0115,
            "tile:",
            &tile,
            format!("bad tile name: \"{tile}\": crawl 0.28.0 has no monster tile of that name"),
            PLAYER_TILES.iter().map(|t| t.as_str()),
        ));
    }
    spec.prefixed("dbname:");
    if !spec.prefixed("name:").is_empty() {
        let _ = (spec.tag("name_suffix") || spec.tag("n_suf"))
            || (spec.tag("name_adjective") || spec.tag("n_adj"))
            || (spec.tag("name_replace") || spec.tag("n_rpl"));
        for (long, short) in [
            ("name_definite", "n_the"),
            ("name_descriptor", "n_des"),
            ("name_species", "n_spe"),
            ("name_zombie", "n_zom"),
            ("name_nocorpse", "n_noc"),
        ] {
            let _ = spec.tag(long) || spec.tag(short);
        }
    }
    for (prefix, permanent) in [("ench:", false), ("perm_ench:", true)] {
        loop {
            let value = spec.prefixed(prefix);
            if value.is_empty() {
                break;
            }
            if let Some(problem) = enchantment(spec, prefix, &value, permanent) {
                return Err(problem);
            }
        }
    }
    let name = trim(&spec.rest).to_string();
    let kind = if name == "8" || name == "9" || placed || name == "0" {
        MonsterName::Random
    } else {
        match names::monster_name(&name) {
            Ok(kind) => kind,
            Err(problem) => return Err(unknown_monster(spec, &name, problem)),
        }
    };
    if items.is_empty() {
        return Ok(Monster {
            items: false,
            unfit: None,
        });
    }
    let unfit = |problem: Option<Problem>| Monster {
        items: true,
        unfit: problem,
    };
    let cannot = |spec: &Spec| {
        Some(spec.problem(
            Code::DC0120,
            spec.span.clone(),
            format!(
                "Monster '{name}' can't use items: crawl 0.28.0 gives no equipment to this monster"
            ),
        ))
    };
    match kind {
        MonsterName::Random => Err(spec.problem(
            Code::DC0120,
            spec.span.clone(),
            "Can't give spec items to a random monster: name the monster that carries them"
                .to_string(),
        )),
        MonsterName::Named(base) => {
            let equipment = equipment_of(base);
            match equipment {
                "none" => Ok(unfit(cannot(spec))),
                "one weapon" | "one body armour" if items.len() > 1 => Ok(unfit(cannot(spec))),
                "one weapon" | "one body armour" => {
                    let weapon = equipment == "one weapon";
                    let defines = defining_item(&items[0])
                        .is_some_and(|d| if weapon { d.weapon } else { d.armour });
                    Ok(unfit((!defines).then(|| {
                        spec.problem(
                            Code::DC0120,
                            spec.span.clone(),
                            format!(
                                "Monster '{name}' needs a defining item: its one item must be {}",
                                if weapon { "a weapon" } else { "a body armour" }
                            ),
                        )
                    })))
                }
                _ => Ok(unfit(None)),
            }
        }
        MonsterName::Other => Ok(unfit(None)),
        MonsterName::Unequipped => Ok(unfit(cannot(spec))),
    }
}

/// The entry of the defining items for an item spec (its first alternative, tags off).
fn defining_item(segment: &str) -> Option<&'static levkit_model::dcss::tables::DefiningItem> {
    let first = segment.split('/').next().unwrap_or("");
    let mut rest = first.to_string();
    for key in ITEM_KEYS {
        while !strip_tag_prefix(&mut rest, key).is_empty() {}
    }
    for flag in ITEM_FLAGS {
        strip_tag(&mut rest, flag);
    }
    let name = trim(&rest).to_lowercase();
    let key = unrandart(&name).unwrap_or(&name);
    DEFINING_ITEMS.iter().find(|d| d.item == key)
}

fn no_duration(spec: &Spec, prefix: &str, value: &str) -> Problem {
    spec.problem(
        Code::DC0120,
        spec.place_of(&format!("{prefix}{value}")),
        format!("marked summon with no duration: {prefix} needs dur: from 1 to 6 in the same spec"),
    )
}

/// One `spells:` value: `;`-separated slots of `spell.frequency.flags`.
fn spells(spec: &Spec, value: &str) -> Option<Problem> {
    for slot in split(value, ';') {
        let name = slot.replace('_', " ").to_lowercase();
        if matches!(name.as_str(), "." | "none" | "no spell") {
            continue;
        }
        let fields = split(&name, '.');
        let Some(&spell_name) = fields.first() else {
            continue;
        };
        let Some(found) = spell(spell_name) else {
            let written = spell_name.replace(' ', "_");
            let at = spec.place_of(&format!("spells:{value}"));
            let word_at = spec
                .text
                .get(at.clone())
                .and_then(|t| t.find(&written))
                .map_or(at.clone(), |i| at.start + i..at.start + i + written.len());
            return Some(
                spec.problem(
                    Code::DC0120,
                    at,
                    format!(
                        "Unknown spell name: '{spell_name}' in '{slot}': crawl 0.28.0 has no spell of that name"
                    ),
                )
                .suggest(&written, word_at, spell_words(true)),
            );
        };
        if !found.monster {
            return Some(spec.problem(
                Code::DC0120,
                spec.place_of(&format!("spells:{value}")),
                format!(
                    "Not a monster spell: '{spell_name}': crawl 0.28.0 lets only players cast it"
                ),
            ));
        }
        if let Some(frequency) = fields.get(1)
            && levkit_syntax::atoi(frequency) <= 0
        {
            return Some(spec.problem(
                Code::DC0120,
                spec.place_of(&format!("spells:{value}")),
                format!(
                    "Need a positive spell frequency;got '{frequency}' in '{name}': a frequency is a whole number above 0"
                ),
            ));
        }
    }
    None
}

/// One `ench:` or `perm_ench:` value: `name[:degree[:duration]]` (no duration when permanent).
fn enchantment(spec: &Spec, prefix: &str, value: &str, permanent: bool) -> Option<Problem> {
    let tag = spec.place_of(&format!("{prefix}{value}"));
    let fields = split(value, ':');
    let problem = |message: String| Some(spec.problem(Code::DC0120, tag.clone(), message));
    let Some(&name) = fields.first() else {
        return problem(format!(
            "crawl 0.28.0 crashes on `{prefix}{value}`, which names no enchantment"
        ));
    };
    if fields.len() > if permanent { 2 } else { 3 } {
        return problem(format!(
            "bad {}ench specifier: \"{value}\": write {prefix}name{}",
            if permanent { "perm_" } else { "" },
            if permanent {
                "[:degree]"
            } else {
                "[:degree[:duration]]"
            }
        ));
    }
    if !ENCHANTMENTS.iter().any(|e| e.writable && e.name == name) {
        let at = spec.value_of(prefix, value);
        let problem = spec.problem(
            Code::DC0120,
            tag.clone(),
            format!(
                "unknown ench: \"{name}\": crawl 0.28.0 has no enchantment of that name (names are lowercase, as haste)"
            ),
        );
        let candidates = ENCHANTMENTS
            .iter()
            .filter(|e| e.writable)
            .map(|e| e.name.as_str());
        // The fix replaces the name only where the value begins with it.
        return Some(if value.starts_with(name) {
            problem.suggest(
                name,
                at.start..at.start + name.len().min(at.len()),
                candidates,
            )
        } else {
            problem.suggest_only(name, candidates)
        });
    }
    for (index, what) in [(1, "deg"), (2, "dur")] {
        if let Some(field) = fields.get(index)
            && parse_int(field).is_none()
        {
            return problem(format!(
                "invalid {what} in ench specifier \"{value}\": the {} is a whole number",
                if index == 1 { "degree" } else { "duration" }
            ));
        }
    }
    None
}

/// An unknown monster name, with a hint when a word of it looks like a tag crawl did not
/// take off.
fn unknown_monster(spec: &Spec, name: &str, problem: names::NameProblem) -> Problem {
    match problem {
        names::NameProblem::Dummy(message) => spec.problem(
            Code::DC0119,
            spec.span.clone(),
            format!("{message}: crawl 0.28.0 keeps this entry but cannot place it"),
        ),
        names::NameProblem::Unknown => {
            let mut message =
                format!("unknown monster: \"{name}\": crawl 0.28.0 has no monster of that name");
            let clean = name.replace('_', " ");
            let close = levkit_syntax::suggest::closest(&clean, names::monster_names()).is_some();
            if let Some(extra) = words_after_name(name, |n| names::monster_name(n).is_ok())
                && leftover_tag(&extra, MONSTER_FLAGS, MONSTER_KEYS).is_none()
                && !close
            {
                message.push_str(&format!(
                    "; `{extra}` is no tag crawl knows, so it stays in the name"
                ));
                return spec.problem(Code::DC0119, spec.span.clone(), message);
            }
            if let Some((word, hint, candidates)) = leftover_tag(name, MONSTER_FLAGS, MONSTER_KEYS)
                && !close
            {
                message.push_str(&hint);
                let at = spec.place_of(word);
                let key_len = word.find(':').map_or(word.len(), |i| i + 1);
                return spec
                    .problem(Code::DC0119, spec.span.clone(), message)
                    .suggest(
                        &word[..key_len],
                        at.start..at.start + key_len.min(at.len()),
                        candidates,
                    );
            }
            let written = spec.place_of(name);
            spec.problem(Code::DC0119, spec.span.clone(), message)
                .suggest(&clean, written, names::monster_names())
        }
    }
}

/// The words after the longest run of first words that `known` takes as a name, when there
/// is such a run (`cursed` in `long sword cursed`).
fn words_after_name(name: &str, known: impl Fn(&str) -> bool) -> Option<String> {
    let words: Vec<&str> = name.split(' ').filter(|w| !w.is_empty()).collect();
    (1..words.len())
        .rev()
        .find(|&n| known(&words[..n].join(" ")))
        .map(|n| words[n..].join(" "))
}

/// A word of a name left over from tags: the word, the hint, and the tag words to suggest.
fn leftover_tag<'n>(
    name: &'n str,
    flags: &'static [&'static str],
    keys: &'static [&'static str],
) -> Option<(&'n str, String, Vec<&'static str>)> {
    let candidates = || flags.iter().chain(keys).copied().collect::<Vec<_>>();
    for word in name.split(' ') {
        if NAME_FLAGS.contains(&word) {
            return Some((
                word,
                format!(
                    "; `{word}` counts as a tag only after a name: tag (and only one of n_suf, n_adj, n_rpl)"
                ),
                Vec::new(),
            ));
        }
        if word == "god_gift" {
            return Some((
                word,
                "; `god_gift` counts as a tag only after a god: tag".to_string(),
                Vec::new(),
            ));
        }
        if flags.contains(&word) {
            return Some((
                word,
                format!(
                    "; crawl takes the tag `{word}` off once, so a second one stays in the name"
                ),
                Vec::new(),
            ));
        }
        if let Some((key, _)) = word.split_once(':') {
            let key = format!("{key}:");
            if keys.contains(&key.as_str()) {
                return Some((
                    word,
                    format!(
                        "; crawl takes the tag `{key}` off once, so a second one stays in the name"
                    ),
                    Vec::new(),
                ));
            }
            return Some((
                word,
                format!("; `{key}` is no tag crawl knows here"),
                candidates(),
            ));
        }
        if word.starts_with("n_") || word.starts_with("name_") {
            return Some((
                word,
                format!("; `{word}` is no tag crawl knows"),
                NAME_FLAGS.to_vec(),
            ));
        }
    }
    None
}

// ---- items ----------------------------------------------------------------------------------

/// What reading an item alternative found: the problems crawl lets pass, and its effect
/// (spans from the alternative's start).
type ItemOutcome = (Vec<Problem>, Effect);

thread_local! {
    /// The item alternatives read so far on this thread, by text (`any weapon`, `potion of
    /// heal wounds`...).
    static ITEM_ALTERNATIVES: std::cell::RefCell<TextCache<ItemOutcome>> =
        std::cell::RefCell::default();
}

/// The item alternative `alternative` written at `span` of `slot_text`, read as crawl reads
/// it (or as it was read before, when it is written as it is read).
fn item_alternative(
    slot_text: &str,
    span: Range<usize>,
    alternative: &str,
    out: &mut Vec<Problem>,
) -> Effect {
    if slot_text.get(span.clone()) != Some(alternative) {
        return item(&mut Spec::new(slot_text, span, alternative), out);
    }
    ITEM_ALTERNATIVES.with(|cache| {
        let mut cache = cache.borrow_mut();
        let (problems, effect) = cache.get_or_read(alternative, || {
            let mut problems = Vec::new();
            let effect = item(
                &mut Spec::new(alternative, 0..alternative.len(), alternative),
                &mut problems,
            );
            (problems, effect)
        });
        let offset = span.start;
        out.extend(problems.iter().map(|p| p.shifted(offset)));
        match effect {
            Effect::Keep => Effect::Keep,
            Effect::Set(problem) => Effect::Set(problem.shifted(offset)),
            Effect::Clear(problem) => Effect::Clear(problem.as_ref().map(|p| p.shifted(offset))),
            Effect::Crash(problem) => Effect::Crash(problem.shifted(offset)),
        }
    })
}

/// What one item alternative does to crawl's one error of the slot.
enum Effect {
    /// Stops before the name: the error stays as it was.
    Keep,
    /// Stops before the name with an error.
    Set(Problem),
    /// Gets to the name: any earlier error is cleared, and this one may set its own.
    Clear(Option<Problem>),
    /// crawl aborts: always an error.
    Crash(Problem),
}

/// One ITEM slot, one KITEM item, one item of a monster or a shop: `/`-separated alternatives.
pub(super) fn item_slot(arg: &Arg, span: Range<usize>, out: &mut Vec<Diagnostic>) {
    check_slot(Slot::Item, arg, span, out);
}

fn item_slot_problems(text: &str, out: &mut Vec<Problem>) {
    if let Some(problem) = item_slot_outcome(text, 0..text.len(), text, out) {
        out.push(problem);
    }
}

/// KITEM: comma-separated items.
pub(super) fn item_list(arg: &Arg, span: Range<usize>, out: &mut Vec<Diagnostic>) {
    for item in pieces(&arg.text, span, b',') {
        item_slot(arg, item, out);
    }
}

/// The error crawl reports for an item slot written `text` (at `span` of the slot
/// `slot_text`), if any; the problems of alternatives crawl drops silently go to `out` as
/// warnings, and a crash is an error of its own.
fn item_slot_outcome(
    slot_text: &str,
    span: Range<usize>,
    text: &str,
    out: &mut Vec<Problem>,
) -> Option<Problem> {
    let mut effects = Vec::new();
    let written = slot_text.get(span.clone()).unwrap_or("");
    let mut from = 0;
    for alternative in pieces_of(text, '/') {
        // Searched after the alternative before it, so a repeated text is placed where it is.
        let at = find_from(written, alternative, from);
        let alt_span = match at {
            Some(at) => {
                from = at + alternative.len();
                span.start + at..span.start + at + alternative.len()
            }
            None => span.clone(),
        };
        effects.push(item_alternative(slot_text, alt_span, alternative, out));
    }
    // Whether an alternative after each one clears crawl's error.
    let mut cleared_later = vec![false; effects.len()];
    for i in (0..effects.len().saturating_sub(1)).rev() {
        cleared_later[i] = cleared_later[i + 1] || matches!(effects[i + 1], Effect::Clear(_));
    }
    let mut standing = None;
    for (effect, cleared) in effects.into_iter().zip(cleared_later) {
        let problem = match effect {
            Effect::Keep | Effect::Clear(None) => continue,
            Effect::Crash(problem) => {
                out.push(problem);
                continue;
            }
            Effect::Set(problem) | Effect::Clear(Some(problem)) => problem,
        };
        if cleared {
            let mut problem = problem;
            problem.code = Code::DC0401;
            problem
                .message
                .push_str("; crawl silently drops this alternative because a later one is valid");
            out.push(problem);
        } else if let Some(earlier) = standing.replace(problem) {
            // A later error replaces it in crawl's report; it shows once that one is fixed.
            out.push(earlier);
        }
    }
    standing
}

/// The flags crawl takes off an item spec, and the keys of its tags, for the hints on a name
/// that keeps an unknown one.
const ITEM_FLAGS: &[&str] = &[
    "acquire",
    "good_item",
    "mundane",
    "damaged",
    "randart",
    "useful",
    "unobtainable",
    "mimic",
    "no_pickup",
    "no_uniq",
    "allow_uniq",
    "randbook",
    "never_decay",
];
const ITEM_KEYS: &[&str] = &[
    "weight:",
    "w:",
    "q:",
    "fresh:",
    "special:",
    "place:",
    "acquire:",
    "ego:",
    "ident:",
    "level:",
    "mimic:",
    "charges:",
    "plus:",
    "uniq:",
    "disc:",
    "disc2:",
    "numspells:",
    "slevels:",
    "title:",
    "spells:",
    "owner:",
    "tile:",
    "wtile:",
];

/// Reads one item alternative as crawl's `parse_single_spec` does.
fn item(spec: &mut Spec, out: &mut Vec<Problem>) -> Effect {
    if let Some(weight) = spec.weight()
        && weight <= 0
    {
        let at = spec.place_of("w:");
        let at = if at == spec.span {
            spec.place_of("weight:")
        } else {
            at
        };
        return Effect::Set(spec.problem(
            Code::DC0122,
            at,
            format!("Bad item generation weight: '{weight}': a weight is a whole number above 0"),
        ));
    }
    spec.number("q:");
    spec.number("fresh:");
    spec.number("special:");
    let place = spec.prefixed("place:");
    if !place.is_empty()
        && let Err(problem) = spec.place(place_code, &place)
    {
        return Effect::Set(problem);
    }
    let source = spec.prefixed("acquire:");
    if !source.is_empty() || spec.tag("acquire") {
        let mut problem = None;
        if !source.is_empty() && !is_god(&source) {
            let name = source.replace('_', " ");
            problem = Some(spec.bad_value(
                Code::DC0122,
                "acquire:",
                &source,
                format!(
                    "unknown god name: '{name}': crawl 0.28.0 has no god of that name (written with `_` for spaces)"
                ),
                god_words(),
            ));
        }
        let class = trim(&spec.rest).to_string();
        if class != "any"
            && let Some(bad) = bad_class(spec, &class)
        {
            problem = Some(bad);
        }
        return problem.map_or(Effect::Keep, Effect::Set);
    }
    let ego = spec.prefixed("ego:");
    let ident = spec.prefixed("ident:");
    if !ident.is_empty()
        && ident != "all"
        && let Some(bad) = split(&ident, '|')
            .into_iter()
            .find(|i| !matches!(*i, "type" | "pluses" | "properties"))
    {
        let tag = spec.place_of(&format!("ident:{ident}"));
        let written = spec.text.get(tag.clone()).unwrap_or("");
        let at = written
            .find(bad)
            .map_or(tag.clone(), |i| tag.start + i..tag.start + i + bad.len());
        return Effect::Set(
            spec.problem(
                Code::DC0122,
                tag,
                format!(
                    "Bad identify status: {ident}: ident: takes all, or type, pluses and properties joined by |"
                ),
            )
            .suggest(bad, at, ["all", "type", "pluses", "properties"]),
        );
    }
    if !spec.tag("good_item")
        && let Some(level) = spec.number("level:")
        && level <= 0
        && !(-5..=-2).contains(&level)
    {
        return Effect::Set(spec.problem(
            Code::DC0122,
            spec.place_of(&format!("level:{level}")),
            format!("Bad item level: {level}: a level is above 0, or -2 to -5 for crawl's special levels"),
        ));
    }
    for flag in ["mundane", "damaged", "randart", "useful", "unobtainable"] {
        spec.tag(flag);
    }
    spec.number("mimic:");
    spec.tag("mimic");
    spec.tag("no_pickup");
    spec.number("charges:");
    spec.number("plus:");
    spec.tag("no_uniq");
    if !spec.tag("allow_uniq")
        && let Some(uniq) = spec.number("uniq:")
        && uniq <= 0
    {
        return Effect::Set(spec.problem(
            Code::DC0122,
            spec.place_of("uniq:"),
            format!("Bad uniq level: {uniq}: a level is above 0"),
        ));
    }
    if spec.tag("randbook") {
        return randbook(spec).map_or(Effect::Keep, Effect::Set);
    }
    if spec.rest.contains("deck") {
        let rest = spec.rest.clone();
        return Effect::Set(spec.problem(
            Code::DC0121,
            spec.span.clone(),
            format!("removed deck: \"{rest}\": crawl 0.28.0 has no decks"),
        ));
    }
    for (prefix, tiles, sheet) in [
        ("tile:", MAIN_TILES, "item"),
        ("wtile:", PLAYER_TILES, "worn"),
    ] {
        let tile = spec.prefixed(prefix);
        if !tile.is_empty() && !is_tile(&tile, tiles) {
            return Effect::Set(spec.bad_value(
                Code::DC0115,
                prefix,
                &tile,
                format!("bad tile name: \"{tile}\": crawl 0.28.0 has no {sheet} tile of that name"),
                tiles.iter().map(|t| t.as_str()),
            ));
        }
    }
    let name = trim(&spec.rest).to_string();
    let random_ego = || {
        spec.bad_value(
            Code::DC0122,
            "ego:",
            &ego,
            "Can't set an ego for random items: name the weapon, armour or missile (or its class, as any weapon)".to_string(),
            [],
        )
    };
    match name.as_str() {
        "random" | "any" | "%" | "*" | "star_item" | "|" | "superb_item" => {
            return if ego.is_empty() {
                Effect::Keep
            } else {
                Effect::Set(random_ego())
            };
        }
        "$" | "gold" => {
            return if ego.is_empty() {
                Effect::Keep
            } else {
                Effect::Set(spec.bad_value(
                    Code::DC0122,
                    "ego:",
                    &ego,
                    "Can't set an ego for gold: gold has no egos".to_string(),
                    [],
                ))
            };
        }
        "nothing" => return Effect::Clear(None),
        _ => {}
    }
    if name.ends_with("corpse") || name.ends_with("skeleton") {
        return Effect::Clear(corpse(spec, &name, out));
    }
    if unrandart(&name).is_some() {
        return Effect::Clear(None);
    }
    let (class, random_kind, key) = if let Some(class) = name
        .strip_prefix("any ")
        .or_else(|| name.strip_prefix("random "))
    {
        if let Some(bad) = bad_class(spec, class) {
            return Effect::Clear(Some(bad));
        }
        let class = match trim(class) {
            "weapon" => "OBJ_WEAPONS",
            "armour" => "OBJ_ARMOUR",
            "missile" => "OBJ_MISSILES",
            _ => "",
        };
        (class, true, "")
    } else {
        match item_named(&name) {
            Some(found) => (found.class.as_str(), false, found.key.as_str()),
            None => return Effect::Clear(Some(bad_item_name(spec, &name))),
        }
    };
    if ego.is_empty() {
        return Effect::Clear(None);
    }
    let ego_at = spec.value_of("ego:", &ego);
    let ego_tag = spec.place_of(&format!("ego:{ego}"));
    let Some(class) = ego_class(class) else {
        return Effect::Clear(Some(
            spec.problem(
                Code::DC0122,
                ego_tag,
                "An ego can only be applied to a weapon, missile or armour: this item takes none"
                    .to_string(),
            ),
        ));
    };
    if ego == "none" {
        return Effect::Clear(None);
    }
    if !EGOS.iter().any(|e| e.class == class && e.name == ego) {
        if EGOS.iter().any(|e| e.name == ego) {
            return Effect::Clear(Some(
                spec.problem(
                    Code::DC0122,
                    ego_tag,
                    format!(
                        "Ego '{ego}' is invalid for item '{name}': {ego} is an ego of {}, not of {class}s",
                        EGOS.iter()
                            .filter(|e| e.name == ego)
                            .map(|e| format!("{}s", e.class))
                            .collect::<Vec<_>>()
                            .join(" and ")
                    ),
                )
                .suggest(&ego, ego_at, EGOS.iter().filter(|e| e.class == class).map(|e| e.name.as_str())),
            ));
        }
        return Effect::Clear(Some(
            spec.problem(
                Code::DC0122,
                ego_tag,
                format!("No such ego as: {ego}: crawl 0.28.0 has no {class} ego of that name"),
            )
            .suggest(
                &ego,
                ego_at,
                EGOS.iter()
                    .filter(|e| e.class == class)
                    .map(|e| e.name.as_str())
                    .chain(["none"]),
            ),
        ));
    }
    if random_kind {
        return Effect::Clear(None);
    }
    let Some(egos) = ITEM_EGOS.iter().find(|i| i.item == key) else {
        return Effect::Clear(None);
    };
    if egos.crashing.split(' ').any(|e| e == ego) {
        return Effect::Crash(spec.problem(
            Code::DC0122,
            ego_tag,
            format!(
                "crawl 0.28.0 aborts on ego '{ego}' for '{name}' (invalid brand): the ego is a leftover of older versions"
            ),
        ));
    }
    if !egos.egos.split(' ').any(|e| e == ego) {
        return Effect::Clear(Some(spec.problem(
            Code::DC0122,
            ego_tag,
            format!(
                "Ego '{ego}' is incompatible with item '{name}': this item takes {}",
                egos.egos.replace(' ', ", ")
            ),
        )));
    }
    Effect::Clear(None)
}

/// `any <class>`, `random <class>`, `acquire <class>`: crawl's `parse_random_by_class`.
fn bad_class(spec: &Spec, class: &str) -> Option<Problem> {
    let class = trim(class);
    if ITEM_CLASSES.iter().any(|c| *c == class) {
        return None;
    }
    let at = if class.is_empty() {
        spec.span.clone()
    } else {
        spec.place_of(class)
    };
    Some(
        spec.problem(
            Code::DC0121,
            at.clone(),
            format!(
                "Bad item class: '{class}': classes are weapon, missile, armour, wand, scroll, jewellery, potion, book, magical staff, orb, misc, corpse, rune, gold, manual, ring, amulet..."
            ),
        )
        .suggest(class, at, ITEM_CLASSES.iter().map(|c| c.as_str())),
    )
}

/// A name that is no item, with a hint when a word of it looks like a tag crawl did not take
/// off.
fn bad_item_name(spec: &Spec, name: &str) -> Problem {
    let mut message = format!("Bad item name: '{name}': crawl 0.28.0 has no item of that name");
    let close =
        levkit_syntax::suggest::closest(name, ITEMS.iter().map(|i| i.name.as_str())).is_some();
    if let Some(extra) =
        words_after_name(name, |n| item_named(n).is_some() || unrandart(n).is_some())
        && !close
    {
        message.push_str(&format!(
            "; `{extra}` is no tag crawl knows, so it stays in the name"
        ));
        return spec.problem(Code::DC0121, spec.span.clone(), message);
    }
    if let Some((word, hint, candidates)) = leftover_tag(name, ITEM_FLAGS, ITEM_KEYS)
        && !close
    {
        message.push_str(&hint);
        let at = spec.place_of(word);
        let key_len = word.find(':').map_or(word.len(), |i| i + 1);
        return spec
            .problem(Code::DC0121, spec.span.clone(), message)
            .suggest(
                &word[..key_len],
                at.start..at.start + key_len.min(at.len()),
                candidates,
            );
    }
    if let Some(rejected) = levkit_model::dcss::tables::REJECTED_ITEMS
        .iter()
        .find(|i| i.name.eq_ignore_ascii_case(name))
    {
        return spec.problem(
            Code::DC0121,
            spec.span.clone(),
            format!("{}: removed from crawl 0.28.0", rejected.message),
        );
    }
    let at = spec.place_of(name);
    spec.problem(Code::DC0121, spec.span.clone(), message)
        .suggest(name, at, ITEMS.iter().map(|i| i.name.as_str()))
}

/// `<monster> corpse` and `<monster> skeleton`: the monster is read as a monster spec.
fn corpse(spec: &mut Spec, name: &str, out: &mut Vec<Problem>) -> Option<Problem> {
    let mut rest = name.to_string();
    strip_tag(&mut rest, "never_decay");
    let skeleton = if let Some(base) = rest.strip_suffix("corpse") {
        rest = trim(base).to_string();
        false
    } else {
        let base = rest.strip_suffix("skeleton").unwrap_or(&rest);
        rest = trim(base).to_string();
        true
    };
    if rest.is_empty() {
        return None;
    }
    let text = rest.clone();
    for alternative in split(&text, '/') {
        let mut monster_spec = Spec::new(spec.text, spec.span.clone(), alternative);
        match monster(&mut monster_spec, out) {
            Err(problem) => return Some(problem),
            Ok(monster) => {
                if let Some(problem) = monster.unfit {
                    return Some(problem);
                }
            }
        }
    }
    let lower = rest.to_lowercase().replace('_', " ");
    let valid = !names::is_derived(&lower)
        && match names::monster_name(&rest) {
            Ok(MonsterName::Named(base)) => names::monster_by_name(base)
                .is_none_or(|m| if skeleton { m.item_skeleton } else { m.corpse }),
            _ => true,
        };
    (!valid).then(|| {
        spec.problem(
            Code::DC0121,
            spec.span.clone(),
            format!(
                "Requested corpse '{rest}' is invalid: this monster leaves no {}",
                if skeleton { "skeleton" } else { "corpse" }
            ),
        )
    })
}

/// `randbook`: crawl reads its tags and ignores the rest of the spec.
fn randbook(spec: &mut Spec) -> Option<Problem> {
    for prefix in ["disc:", "disc2:"] {
        let school = spec.prefixed(prefix);
        if !school.is_empty()
            && !SPELL_SCHOOLS
                .iter()
                .any(|s| s.eq_ignore_ascii_case(&school))
        {
            return Some(spec.bad_value(
                Code::DC0122,
                prefix,
                &school,
                format!(
                    "Bad spell school: {school}: schools are conjuration, hexes, fire, ice, air, earth, poison, necromancy, summoning, translocation, transmutation (or their short names)"
                ),
                SPELL_SCHOOLS.iter().map(|s| s.as_str()),
            ));
        }
    }
    // crawl keeps these two in a `short`.
    if let Some(count) = spec.number("numspells:").map(|n| n as i16)
        && !(1..=8).contains(&count)
    {
        return Some(spec.problem(
            Code::DC0122,
            spec.place_of("numspells:"),
            format!("Bad spellbook size: {count}: a randbook holds 1 to 8 spells"),
        ));
    }
    if spec.number("slevels:").map(|n| n as i16) == Some(0) {
        return Some(spec.problem(
            Code::DC0122,
            spec.place_of("slevels:"),
            "Bad slevels: 0: the spell levels are not 0".to_string(),
        ));
    }
    spec.prefixed("title:");
    let spells = spec.prefixed("spells:");
    for name in split(&spells, '&') {
        if spell(&name.replace('_', " ")).is_none() {
            let tag = spec.place_of(&format!("spells:{spells}"));
            let written = spec.text.get(tag.clone()).unwrap_or("");
            let at = written
                .find(name)
                .map_or(tag.clone(), |i| tag.start + i..tag.start + i + name.len());
            return Some(
                spec.problem(
                    Code::DC0122,
                    tag,
                    format!("Bad spell: {name}: crawl 0.28.0 has no spell of that name"),
                )
                .suggest(name, at, spell_words(false)),
            );
        }
    }
    spec.prefixed("owner:");
    None
}

// ---- features ---------------------------------------------------------------------------------

/// KFEAT: `/`-separated alternatives, each a glyph, a feature, a trap or a shop.
pub(super) fn kfeat(arg: &Arg, span: Range<usize>, out: &mut Vec<Diagnostic>) {
    check_slot(Slot::Feature, arg, span, out);
}

fn feature_slot_problems(text: &str, out: &mut Vec<Problem>) {
    for alternative in pieces(text, 0..text.len(), b'/') {
        if alternative.is_empty() {
            continue;
        }
        let mut spec = Spec::new(text, alternative.clone(), &text[alternative]);
        if let Some(problem) = feature(&mut spec, out) {
            out.push(problem);
        }
    }
}

/// The trap names (lowercase) of the `<name> trap` forms crawl accepts.
fn trap_names() -> impl Iterator<Item = &'static str> {
    FEATURE_FORMS
        .iter()
        .filter(|f| f.kind == "trap form" && f.accepted)
        .filter_map(|f| f.spec.strip_suffix(" trap"))
}

/// The shop types of the `<type> shop` forms crawl accepts.
fn shop_types() -> impl Iterator<Item = &'static str> {
    FEATURE_FORMS
        .iter()
        .filter(|f| f.kind == "shop form" && f.accepted)
        .filter_map(|f| f.spec.strip_suffix(" shop"))
}

/// Reads one KFEAT alternative as crawl's `keyed_mapspec::parse_feature` does.
fn feature(spec: &mut Spec, out: &mut Vec<Problem>) -> Option<Problem> {
    let original = spec.rest.clone();
    spec.weight();
    if spec.number("mimic:").is_none() {
        spec.tag("mimic");
    }
    spec.tag("no_mimic");
    spec.rest = trim(&spec.rest).to_string();
    // One byte: a map glyph.
    if spec.rest.len() == 1 {
        return None;
    }
    if spec.tag("trap") || spec.rest == "web" {
        spec.tag("trap");
        let name = trim(&spec.rest).to_lowercase();
        if trap_names().any(|t| t.eq_ignore_ascii_case(&name)) {
            return None;
        }
        let at = spec.place_of(trim(&spec.rest));
        let at = if name.is_empty() {
            spec.span.clone()
        } else {
            at
        };
        return Some(
            spec.problem(
                Code::DC0116,
                spec.span.clone(),
                format!(
                    "bad trap name: '{name}': traps are written as `<name> trap`, as dart trap"
                ),
            )
            .suggest(&name, at, trap_names()),
        );
    }
    if spec.tag("shop") {
        return shop(spec, out);
    }
    if FEATURES.iter().any(|f| f.accepted && f.name == spec.rest) {
        return None;
    }
    if spec.rest.is_empty() {
        return Some(spec.problem(
            Code::DC0116,
            spec.span.clone(),
            format!(
                "no features matching \"{original}\": `mimic`, `mimic:N` and `no_mimic` only mark the feature written with them (as `mimic altar_zin`); write the feature too"
            ),
        ));
    }
    let name = spec.rest.clone();
    let at = spec.place_of(&name);
    Some(
        spec.problem(
            Code::DC0116,
            spec.span.clone(),
            format!(
                "no features matching \"{original}\": crawl 0.28.0 has no feature of that name (they are written like rock_wall, altar_zin)"
            ),
        )
        .suggest(
            &name,
            at,
            FEATURES.iter().filter(|f| f.accepted).map(|f| f.name.as_str()),
        ),
    )
}

/// A shop (`shop` already off) as crawl's `keyed_mapspec::parse_shop` reads it: its type,
/// then its items, `|`-separated after a `;`.
fn shop(spec: &mut Spec, out: &mut Vec<Problem>) -> Option<Problem> {
    let original = spec.rest.clone();
    spec.tag("shop");
    spec.tag("use_all");
    spec.tag("gozag");
    for prefix in ["name:", "type:", "suffix:"] {
        spec.prefixed(prefix);
    }
    spec.number("count:");
    spec.number("greed:");
    let rest = spec.rest.clone();
    let parts = split(&rest, ';');
    let Some(&kind) = parts.first() else {
        return Some(spec.problem(
            Code::DC0116,
            spec.span.clone(),
            "crawl 0.28.0 crashes on a shop without a type: write one, as general shop".to_string(),
        ));
    };
    if parts.len() > 2 {
        return Some(spec.problem(
            Code::DC0116,
            spec.span.clone(),
            format!(
                "too many semi-colons for '{original}' spec: one `;` separates the shop from its items"
            ),
        ));
    }
    if !shop_types().any(|t| t == kind) {
        let at = spec.place_of(kind);
        return Some(
            spec.problem(
                Code::DC0116,
                spec.span.clone(),
                format!(
                    "bad shop type: '{rest}': shops are weapon, armour, antique weapon, antique armour, antiques, jewellery, book, distillery, scroll, general, random or any"
                ),
            )
            .suggest(kind, at, shop_types()),
        );
    }
    let items = parts.get(1)?;
    let written = spec.written().to_string();
    let mut from = written.find(';').map_or(0, |i| i + 1);
    for item in split(items, '|') {
        let span = match written.get(from..).and_then(|w| w.find(item)) {
            Some(at) => {
                from += at + item.len();
                spec.span.start + from - item.len()..spec.span.start + from
            }
            None => spec.span.clone(),
        };
        if let Some(problem) = item_slot_outcome(spec.text, span, item, out) {
            return Some(problem);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chosen_suggestion_is_the_one_did_you_mean_makes() {
        let arg = Arg {
            text: "fir orc".into(),
            range: levkit_diagnostics::TextRange::new(0.into(), 7.into()),
            line: 0,
        };
        let cases: [(&str, &[&'static str]); 5] = [
            ("fir", &["air", "fire", "fir", "firm"]),
            ("orc", &["orc"]),
            ("xyz", &["fire"]),
            ("Fir", &["air", "fire"]),
            ("fir", &[]),
        ];
        for (word, candidates) in cases {
            let problem = Problem {
                code: Code::DC0119,
                message: "m".to_string(),
                span: 0..3,
                suggestion: None,
            };
            let lower = word.to_lowercase();
            let begins = |c: &&str| c.starts_with(&lower);
            let ordered = (candidates.iter().copied().filter(begins))
                .chain(candidates.iter().copied().filter(|c| !begins(c)));
            let diagnostic = Diagnostic::new(Code::DC0119, range_in(&arg, 4..7), "m".to_string());
            let expected = super::super::did_you_mean(
                diagnostic.clone(),
                word,
                exact_range_in(&arg, 4..7),
                ordered.clone(),
            );
            let suggested = problem
                .clone()
                .suggest(word, 0..3, candidates.iter().copied());
            assert_eq!(suggested.diagnostic(&arg, 4), expected, "{word}");
            let expected = super::super::did_you_mean(diagnostic, word, None, ordered);
            let suggested = problem.suggest_only(word, candidates.iter().copied());
            assert_eq!(suggested.diagnostic(&arg, 4), expected, "{word}");
        }
    }

    #[test]
    fn the_text_cache_answers_each_text_its_own_outcome() {
        let mut cache = TextCache::default();
        let texts: Vec<String> = (0..3 * TextCache::<usize>::BOUND)
            .map(|n| format!("orc {}", n % 5000))
            .collect();
        for (n, text) in texts.iter().enumerate() {
            let read = *cache.get_or_read(text, || n % 5000);
            assert_eq!(read, n % 5000, "{text}");
        }
        // A text whose hash leads to another text's entry is read, not answered that one.
        use std::hash::BuildHasher;
        let mut cache = TextCache::default();
        cache.get_or_read("elf", || 7);
        cache
            .at
            .insert(rustc_hash::FxBuildHasher.hash_one("orc"), 0);
        assert_eq!(*cache.get_or_read("orc", || 8), 8);
        assert_eq!(*cache.get_or_read("elf", || 9), 7);
    }

    #[test]
    fn the_byte_set_holds_each_ascii_byte_and_the_low_bits_of_others() {
        for text in [
            "",
            "orc priest",
            "w:10 place:D:$",
            "\u{7f}\0 Spëar",
            "\u{2003}x",
        ] {
            let mut set = 0u128;
            for b in text.bytes() {
                set |= 1 << (b & 127);
            }
            assert_eq!(byte_set(text), set, "{text:?}");
        }
    }

    #[test]
    fn unrand_key_agrees_with_the_general_route() {
        let written = [
            "",
            "dagger \"Morg\"",
            "Singing Sword",
            "  sword of Zonguldrok's  ",
            "UNRAND_Wyrmbane",
            "x\t'y'\n\"Z\"",
        ];
        let names = ITEMS.iter().map(|i| i.name.as_str()).chain(written);
        for name in names {
            assert_eq!(unrand_key(name), unrand_key_general(name), "{name:?}");
        }
        assert_eq!(unrand_key("ΣΑΣ 'x'"), unrand_key_general("ΣΑΣ 'x'"));
    }

    #[test]
    fn the_equipment_by_name_is_the_first_in_any_ascii_case() {
        let names = MONSTER_EQUIPMENT
            .iter()
            .flat_map(|m| [m.name.as_str().to_string(), m.name.as_str().to_uppercase()])
            .chain(["no such monster".to_string()]);
        for name in names {
            let searched = MONSTER_EQUIPMENT
                .iter()
                .find(|m| m.name.eq_ignore_ascii_case(&name))
                .map_or("any", |m| m.equipment.as_str());
            assert_eq!(equipment_of(&name), searched, "{name}");
        }
    }

    #[test]
    fn an_item_name_in_lowercase_is_found_without_a_copy() {
        for name in [
            "potion of heal wounds",
            "Potion of Heal Wounds",
            "Spëar",
            "",
        ] {
            let copied = ITEMS_BY_KEY.get(name.to_lowercase().as_str()).copied();
            assert_eq!(
                item_named(name).map(|i| i.key.as_str()),
                copied.map(|i| i.key.as_str())
            );
        }
    }

    #[test]
    fn pieces_of_a_text_are_those_split_gathers() {
        for text in ["", ";", "orc", " orc ; ; dagger ", "a/b/ /c\t/", "x;;y;z"] {
            for separator in [';', '/'] {
                let cut: Vec<&str> = pieces_of(text, separator).collect();
                assert_eq!(cut, split(text, separator), "{text:?}");
            }
        }
    }

    #[test]
    fn pieces_are_trimmed_as_str_trim_trims() {
        fn by_str(text: &str, separator: char) -> Vec<Range<usize>> {
            let mut out = Vec::new();
            let mut start = 0;
            for piece in text.split(separator) {
                let lead = piece.len() - piece.trim_start().len();
                out.push(start + lead..start + lead + piece.trim().len());
                start += piece.len() + 1;
            }
            out
        }
        for text in [
            "",
            "x",
            "orc, orc priest ,, ",
            " a / b\u{a0}/ \u{2003}c ",
            "\u{b} a \u{c}/\t\r\n",
            "é/ é ,é",
        ] {
            for separator in [b',', b'/'] {
                assert_eq!(
                    pieces(text, 0..text.len(), separator).collect::<Vec<_>>(),
                    by_str(text, char::from(separator)),
                    "{text:?}"
                );
            }
        }
    }

    #[test]
    fn unrandarts_match_by_name_or_quoted_nickname() {
        assert!(unrandart("singing_sword").is_some());
        assert!(unrandart("Morg").is_some());
        assert!(unrandart("\"morg\"").is_none());
        assert!(unrandart("the singing sword").is_none());
    }
}
