//! Monster, item and feature specs against crawl 0.28.0's catalogues: the name left once the
//! spec's tags (`w:5`, `att:friendly`, `generate_awake`...) are taken off, in every form crawl
//! knows (`orc zombie`, `seven-headed hydra`, `any weapon`, `orc corpse`, `web`...).

use std::ops::Range;

use levkit_diagnostics::{Code, Diagnostic};
use levkit_model::dcss::Arg;
use levkit_model::dcss::tables::{
    FEATURE_FORMS, FEATURES, ITEMS, MONSTERS, REJECTED_ITEMS, REJECTED_MONSTERS,
};

use super::{did_you_mean, name_range, range_in};

/// Splits `arg.text[span]` at `separator`, answering each piece's trimmed span.
fn pieces(text: &str, span: Range<usize>, separator: char) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = span.start;
    for piece in text[span.clone()].split(separator) {
        let lead = piece.len() - piece.trim_start().len();
        let s = start + lead;
        out.push(s..s + piece.trim().len());
        start += piece.len() + separator.len_utf8();
    }
    out
}

/// A tag of a spec: `key:value` with a lowercase key, or one of the flag words.
fn is_tag(word: &str, flags: &[&str]) -> bool {
    if flags.contains(&word) || word.starts_with("n_") || word.starts_with("name_") {
        return true;
    }
    match word.split_once(':') {
        Some((key, _)) => {
            !key.is_empty()
                && key
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b == b'_' || b.is_ascii_digit())
        }
        None => false,
    }
}

/// The words of a spec that are not tags, joined by single spaces (`name:` and the like take
/// one word, spaces written as `_`).
fn name_of(spec: &str, flags: &[&str]) -> String {
    spec.split_whitespace()
        .filter(|word| !is_tag(word, flags))
        .collect::<Vec<_>>()
        .join(" ")
}

const MONSTER_FLAGS: &[&str] = &[
    "generate_awake",
    "patrolling",
    "band",
    "seen",
    "always_corpse",
    "never_corpse",
    "god_gift",
    "summoned",
    "actual",
];

const ITEM_FLAGS: &[&str] = &[
    "never_decay",
    "good_item",
    "star_item",
    "mundane",
    "damaged",
    "randart",
    "useful",
    "unobtainable",
    "mimic",
    "no_pickup",
    "no_uniq",
    "allow_uniq",
    "acquire",
    "randbook",
    "unrand",
    "cursed",
];

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::sync::LazyLock;

use levkit_model::dcss::tables::Monster;

/// The monsters by lowercase name.
static MONSTERS_BY_NAME: LazyLock<HashMap<String, &'static Monster>> = LazyLock::new(|| {
    MONSTERS
        .iter()
        .map(|m| (m.name.to_lowercase(), m))
        .collect()
});

/// Item keys, and unrandart names as crawl also matches them (`_` for spaces, no quotes).
static ITEM_KEYS: LazyLock<HashSet<String>> = LazyLock::new(|| {
    let mut keys: HashSet<String> = ITEMS.iter().map(|i| i.key.to_string()).collect();
    for item in ITEMS.iter().filter(|i| i.class == "unrandart") {
        keys.insert(simplified(item.name));
        keys.insert(simplified(item.key));
    }
    keys
});

fn monster(name: &str) -> Option<&'static Monster> {
    MONSTERS_BY_NAME.get(&name.to_lowercase()).copied()
}

fn monster_named(name: &str) -> bool {
    monster(name).is_some()
}

/// Whether crawl reads `name` (lowercase, `_` as spaces, tags removed) as a monster.
fn is_monster(name: &str) -> bool {
    let name = name.trim();
    if name.is_empty() {
        return false;
    }
    let name = name.replace("random", "any");
    let name = name.as_str();
    if matches!(
        name,
        "nothing"
            | "any"
            | "0"
            | "8"
            | "9"
            | "any monster"
            | "any demon"
            | "pandemonium lord"
            | "small abomination"
            | "large abomination"
            | "zombie"
            | "skeleton"
            | "simulacrum"
            | "spectral thing"
            | "spectral"
            | "spectre"
            | "bai suzhen dragon"
    ) {
        return true;
    }
    for class in ["lesser demon", "common demon", "greater demon"] {
        if name == class || name.strip_prefix("any ") == Some(class) {
            return true;
        }
    }
    if monster_named(name) {
        return true;
    }
    // `3 orc`: a count before the name.
    if let Some((count, rest)) = name.split_once(' ')
        && count.bytes().all(|b| b.is_ascii_digit())
        && is_monster(rest)
    {
        return true;
    }
    let derived = |suffix: &str, ok: fn(&Monster) -> bool| {
        name.strip_suffix(suffix)
            .and_then(|base| monster(base.trim()))
            .is_some_and(ok)
    };
    if derived(" zombie", |m| m.zombie)
        || derived(" skeleton", |m| m.skeleton)
        || derived(" simulacrum", |m| m.simulacrum)
        || derived(" spectre", |m| m.spectral)
    {
        return true;
    }
    // The derived forms of the special forms (`seven-headed hydra simulacrum`).
    for suffix in [" zombie", " skeleton", " simulacrum", " spectre"] {
        if let Some(base) = name.strip_suffix(suffix)
            && !monster_named(base)
            && is_monster(base)
        {
            return true;
        }
    }
    if let Some(base) = name.strip_prefix("spectral ")
        && monster(base).is_some_and(|m| m.spectral)
    {
        return true;
    }
    if let Some(heads) = name.strip_suffix("-headed hydra") {
        return !heads.is_empty();
    }
    if let Some(base) = name.strip_suffix("-shaped pillar of salt") {
        return is_monster(base);
    }
    if let Some(base) = name.strip_suffix("-shaped block of ice") {
        return is_monster(base);
    }
    if name.ends_with(" slime creature")
        || name.ends_with("mutant beast")
        || name.ends_with("ugly thing")
        || name.contains("draconian")
        || name.starts_with("serpent of hell ")
    {
        return true;
    }
    false
}

/// The entries crawl keeps but cannot place, by ASCII-lowercase name (the first of a name wins).
static REJECTED_MONSTERS_BY_NAME: LazyLock<HashMap<String, &'static str>> = LazyLock::new(|| {
    let mut by_name = HashMap::default();
    for m in REJECTED_MONSTERS {
        by_name
            .entry(m.name.to_ascii_lowercase())
            .or_insert(m.message);
    }
    by_name
});

fn rejected_monster(name: &str) -> Option<&'static str> {
    REJECTED_MONSTERS_BY_NAME
        .get(&name.to_ascii_lowercase())
        .copied()
}

/// One MONS slot, or one KMONS slot: `/`-separated alternatives; every bad one is an error.
pub(super) fn monster_slot(arg: &Arg, span: Range<usize>, out: &mut Vec<Diagnostic>) {
    for alternative in pieces(&arg.text, span, '/') {
        let spec = &arg.text[alternative.clone()];
        // `spells:` goes first (its value holds `;`), then `;` parts the monster from its
        // equipment, then the other tags.
        let without_spells: Vec<&str> = spec
            .split_whitespace()
            .filter(|w| !w.starts_with("spells:"))
            .collect();
        let without_spells = without_spells.join(" ");
        let mut parts = without_spells.split(';');
        let base = name_of(parts.next().unwrap_or(""), MONSTER_FLAGS);
        let equipment: Vec<&str> = parts.collect();
        if equipment.len() > 1 {
            out.push(Diagnostic::new(
                Code::DC0120,
                range_in(arg, alternative.clone()),
                format!("Too many semi-colons for '{spec}' spec: one `;` separates the monster from its items"),
            ));
            continue;
        }
        let name = base.trim().replace('_', " ");
        // Tags alone (`place:Snake:1`) ask for a random monster.
        if name.is_empty() {
            continue;
        }
        if let Some(message) = rejected_monster(&name) {
            out.push(Diagnostic::new(
                Code::DC0119,
                range_in(arg, alternative.clone()),
                format!("{message}: crawl 0.28.0 keeps this entry but cannot place it"),
            ));
        } else if !is_monster(&name.to_lowercase()) {
            let diagnostic = Diagnostic::new(
                Code::DC0119,
                range_in(arg, alternative.clone()),
                format!("unknown monster: \"{name}\": crawl 0.28.0 has no monster of that name"),
            );
            out.push(did_you_mean(
                diagnostic,
                &name,
                name_range(arg, alternative.clone(), base.trim()),
                MONSTERS.iter().map(|m| m.name),
            ));
        }
    }
}

/// KMONS: comma-separated slots.
pub(super) fn monster_list(arg: &Arg, span: Range<usize>, out: &mut Vec<Diagnostic>) {
    for slot in pieces(&arg.text, span, ',') {
        monster_slot(arg, slot, out);
    }
}

const ITEM_CLASSES: &[&str] = &[
    "weapon",
    "weapons",
    "armour",
    "armor",
    "missile",
    "missiles",
    "wand",
    "wands",
    "food",
    "scroll",
    "scrolls",
    "jewellery",
    "jewelry",
    "ring",
    "amulet",
    "potion",
    "potions",
    "book",
    "books",
    "staff",
    "staves",
    "orb",
    "misc",
    "miscellaneous",
    "rune",
    "runes",
    "gold",
    "corpse",
    "corpses",
    "magical staff",
    "manual",
    "useful",
    "good",
];

fn simplified(name: &str) -> String {
    name.to_lowercase()
        .replace('_', " ")
        .replace(['\'', '"'], "")
}

/// Whether crawl reads `name` (tags removed) as an item.
fn is_item(name: &str) -> bool {
    let lower = name.to_lowercase();
    let lower = lower.trim();
    if matches!(
        lower,
        "random"
            | "any"
            | "%"
            | "*"
            | "|"
            | "$"
            | "gold"
            | "nothing"
            | "star_item"
            | "superb_item"
            | "corpse"
            | "skeleton"
            | ""
    ) {
        return true;
    }
    for prefix in ["any ", "random "] {
        if let Some(class) = lower.strip_prefix(prefix) {
            return class
                .split(' ')
                .all(|w| ITEM_CLASSES.contains(&w) || ITEM_CLASSES.contains(&class));
        }
    }
    if ITEM_KEYS.contains(lower) || ITEM_KEYS.contains(&simplified(lower)) {
        return true;
    }
    for suffix in [" corpse", " skeleton"] {
        if let Some(base) = lower.strip_suffix(suffix)
            && (monster(base).is_some_and(|m| {
                if suffix == " corpse" {
                    m.corpse
                } else {
                    m.item_skeleton
                }
            }) || is_monster(base))
        {
            return true;
        }
    }
    false
}

/// Whether an item alternative is bad: crawl's message and whether the name is unknown (and
/// worth a suggestion), or `None` when crawl reads it.
fn bad_item(spec: &str) -> Option<(String, Option<String>)> {
    let name = name_of(spec, ITEM_FLAGS);
    if is_item(&name) {
        return None;
    }
    // `acquire weapon`: a class, chosen as a god's gift.
    let acquires = spec
        .split_whitespace()
        .any(|w| w == "acquire" || w.starts_with("acquire:"));
    if acquires && ITEM_CLASSES.contains(&name.to_lowercase().as_str()) {
        return None;
    }
    if let Some(rejected) = REJECTED_ITEMS
        .iter()
        .find(|i| i.name.eq_ignore_ascii_case(&name))
    {
        return Some((
            format!("{}: removed from crawl 0.28.0", rejected.message),
            None,
        ));
    }
    Some((
        format!("Bad item name: '{name}': crawl 0.28.0 has no item of that name"),
        Some(name),
    ))
}

/// One ITEM slot, or one KITEM item: `/`-separated alternatives. crawl drops a bad
/// alternative silently when a later one is good, so only the last is an error; the others
/// are warnings.
pub(super) fn item_slot(arg: &Arg, span: Range<usize>, out: &mut Vec<Diagnostic>) {
    let alternatives = pieces(&arg.text, span, '/');
    let last = alternatives.len().saturating_sub(1);
    for (i, alternative) in alternatives.into_iter().enumerate() {
        let spec = &arg.text[alternative.clone()];
        if let Some((message, unknown)) = bad_item(spec) {
            let (code, message) = if i == last {
                (Code::DC0121, message)
            } else {
                (
                    Code::DC0401,
                    format!(
                        "{message}; crawl silently drops this alternative because a later one is valid"
                    ),
                )
            };
            let mut diagnostic = Diagnostic::new(code, range_in(arg, alternative.clone()), message);
            if let Some(name) = unknown {
                diagnostic = did_you_mean(
                    diagnostic,
                    &name,
                    name_range(arg, alternative, &name),
                    ITEMS.iter().map(|i| i.name),
                );
            }
            out.push(diagnostic);
        }
    }
}

/// KITEM: comma-separated items.
pub(super) fn item_list(arg: &Arg, span: Range<usize>, out: &mut Vec<Diagnostic>) {
    for item in pieces(&arg.text, span, ',') {
        item_slot(arg, item, out);
    }
}

const FEATURE_FLAGS: &[&str] = &["mimic", "no_mimic"];

/// KFEAT: `/`-separated alternatives, each a glyph, a feature, a trap or a shop.
pub(super) fn kfeat(arg: &Arg, span: Range<usize>, out: &mut Vec<Diagnostic>) {
    for alternative in pieces(&arg.text, span, '/') {
        let spec = &arg.text[alternative.clone()];
        if let Some((message, unknown)) = bad_feature(spec) {
            let mut diagnostic =
                Diagnostic::new(Code::DC0116, range_in(arg, alternative.clone()), message);
            if let Some((name, kind)) = unknown {
                let at = name_range(arg, alternative, &name);
                diagnostic = match kind {
                    FeatureKind::Trap => did_you_mean(
                        diagnostic,
                        &name,
                        at,
                        FEATURE_FORMS
                            .iter()
                            .filter(|f| f.kind == "trap form" && f.accepted)
                            .map(|f| f.spec),
                    ),
                    FeatureKind::Feature => did_you_mean(
                        diagnostic,
                        &name,
                        at,
                        FEATURES.iter().filter(|f| f.accepted).map(|f| f.name),
                    ),
                };
            }
            out.push(diagnostic);
        }
    }
}

/// What an unknown KFEAT name was meant to be.
enum FeatureKind {
    Trap,
    Feature,
}

/// crawl's message on a bad KFEAT alternative, with the unknown name and its kind when a
/// suggestion makes sense.
fn bad_feature(spec: &str) -> Option<(String, Option<(String, FeatureKind)>)> {
    let words: Vec<&str> = spec
        .split_whitespace()
        .filter(|w| {
            !(FEATURE_FLAGS.contains(w)
                || w.starts_with("w:")
                || w.starts_with("weight:")
                || w.starts_with("mimic:"))
        })
        .collect();
    let name = words.join(" ");
    if name.chars().count() == 1 {
        return None;
    }
    let before_items = name.split(';').next().unwrap_or("").trim();
    let shop_words: Vec<&str> = before_items
        .split_whitespace()
        .filter(|w| !(w.contains(':') || matches!(*w, "use_all" | "gozag")))
        .collect();
    if shop_words.contains(&"shop") {
        if name.matches(';').count() > 1 {
            return Some((format!("too many semi-colons for '{name}' spec"), None));
        }
        let form = shop_words.join(" ");
        let known = FEATURE_FORMS
            .iter()
            .any(|f| f.kind == "shop form" && f.spec == form && f.accepted);
        if !known {
            let kind = form
                .strip_suffix(" shop")
                .or_else(|| form.strip_prefix("shop "))
                .unwrap_or(&form);
            return Some((
                format!(
                    "bad shop type: '{kind}': shops are weapon, armour, antique weapon, antique armour, antiques, jewellery, book, distillery, scroll, general, random or any"
                ),
                None,
            ));
        }
        return None;
    }
    if name == "web" || name.ends_with(" trap") || name.starts_with("trap ") {
        let known = FEATURE_FORMS
            .iter()
            .any(|f| f.kind == "trap form" && f.spec == name && f.accepted);
        let lower = name.to_lowercase();
        let known = known
            || FEATURE_FORMS
                .iter()
                .any(|f| f.kind == "trap form" && f.spec.to_lowercase() == lower && f.accepted);
        return (!known).then(|| {
            (
                format!("bad trap name: '{name}'"),
                Some((name.clone(), FeatureKind::Trap)),
            )
        });
    }
    if FEATURES.iter().any(|f| f.name == name && f.accepted) {
        return None;
    }
    Some((
        format!(
            "no features matching \"{name}\": crawl 0.28.0 has no feature of that name (they are written like rock_wall, altar_zin)"
        ),
        Some((name, FeatureKind::Feature)),
    ))
}
