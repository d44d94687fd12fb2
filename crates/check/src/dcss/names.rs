//! Monster names against crawl 0.28.0's catalogues, in every form crawl knows (`orc zombie`,
//! `seven-headed hydra`, `red draconian knight`, `any demon`...), as `specs` reads them once a
//! spec's tags are off.

use std::borrow::Cow;
use std::sync::LazyLock;

use levkit_model::dcss::strings::find;
use levkit_model::dcss::tables::{MONSTERS, Monster, REJECTED_MONSTERS};
use rustc_hash::FxHashMap as HashMap;

/// The monsters by lowercase name.
static MONSTERS_BY_NAME: LazyLock<HashMap<String, &'static Monster>> = LazyLock::new(|| {
    MONSTERS
        .iter()
        .map(|m| (m.name.to_lowercase(), m))
        .collect()
});

fn monster(name: &str) -> Option<&'static Monster> {
    // Most names are written in lowercase already: no copy for them.
    if name
        .bytes()
        .any(|b| b.is_ascii_uppercase() || !b.is_ascii())
    {
        MONSTERS_BY_NAME.get(&name.to_lowercase()).copied()
    } else {
        MONSTERS_BY_NAME.get(name).copied()
    }
}

/// Whether `needle` occurs in `name` (a byte scan: this runs for every monster of every spec).
fn holds(name: &str, needle: &str) -> bool {
    find(name.as_bytes(), needle.as_bytes(), 0).is_some()
}

fn monster_named(name: &str) -> bool {
    monster(name).is_some()
}

/// Whether crawl's `mons_by_name` reads `name` (tags off, `_` read as spaces, `random` as
/// `any`) as a monster. Its own forms are matched as written (`Orc Zombie` fails); only the
/// names of the table match in any case.
fn is_monster(name: &str) -> bool {
    let name = name.trim();
    // Most names are a monster of the table, and the forms answer every such name as the
    // table does but those they read first: one lookup answers the rest (a test holds every
    // name of the table to the forms' answer).
    if monster(name).is_some() && !is_read_before_table(name) {
        return true;
    }
    is_monster_form(name)
}

/// The names of the table that [`is_monster_form`] does not answer by the table.
fn is_read_before_table(name: &str) -> bool {
    TABLE_FORMS.iter().any(|f| f.eq_ignore_ascii_case(name))
        || matches!(
            name,
            "small zombie"
                | "large zombie"
                | "small skeleton"
                | "large skeleton"
                | "small simulacrum"
                | "large simulacrum"
        )
}

/// [`is_monster`] by crawl's forms, in crawl's order, then by the table (`name` trimmed).
fn is_monster_form(name: &str) -> bool {
    if name.is_empty() {
        return false;
    }
    if matches!(
        name,
        "nothing"
            | "any"
            | "any monster"
            | "any demon"
            | "pandemonium lord"
            | "small abomination"
            | "large abomination"
            | "bai suzhen dragon"
    ) {
        return true;
    }
    for class in ["lesser demon", "common demon", "greater demon"] {
        if name == class || name.strip_prefix("any ") == Some(class) {
            return true;
        }
    }
    if matches!(
        name,
        "small zombie" | "large zombie" | "small skeleton" | "large skeleton"
    ) || matches!(name, "small simulacrum" | "large simulacrum")
    {
        return false;
    }
    if name.ends_with("-headed hydra") && !name.starts_with("spectral ") {
        return true;
    }
    if name.ends_with(" slime creature") {
        return true;
    }
    if let Some(base) = name.strip_suffix("-shaped pillar of salt") {
        return is_monster(base);
    }
    if let Some(at) = find(name.as_bytes(), b" mutant beast", 0) {
        return is_mutant_beast(&name[..at]);
    }
    if holds(name, " ugly thing")
        && let Some((colour, rest)) = name.split_once(' ')
        && UGLY_THING_COLOURS.contains(&colour)
    {
        return is_monster(rest);
    }
    if zombie_form(name) == Some(true) {
        return true;
    }
    if holds(name, "draconian") {
        return is_draconian(name);
    }
    if holds(name, "serpent of hell ") {
        // crawl reads the flavour 16 characters in, by its branch's first three letters.
        let flavour = name.get(16..).unwrap_or("").to_lowercase();
        return ["geh", "coc", "dis", "tar"]
            .iter()
            .any(|b| flavour.starts_with(b));
    }
    monster_named(name) && !TABLE_FORMS.iter().any(|f| f.eq_ignore_ascii_case(name))
}

/// Names of the monster table that crawl reads only in its own forms above, as written.
const TABLE_FORMS: &[&str] = &[
    "bai suzhen dragon",
    "serpent of hell gehenna",
    "serpent of hell cocytus",
    "serpent of hell dis",
    "serpent of hell tartarus",
];

const UGLY_THING_COLOURS: &[&str] = &["red", "brown", "green", "cyan", "purple", "white"];

/// `<m> zombie`, `<m> skeleton`, `<m> simulacrum`, `<m> spectre`, `spectral <m>`: whether
/// crawl makes it from `<m>` (`None` when `name` is none of these forms).
fn zombie_form(name: &str) -> Option<bool> {
    type Ok = fn(&Monster) -> bool;
    let forms: [(&str, Ok); 4] = [
        (" zombie", |m| m.zombie),
        (" skeleton", |m| m.skeleton),
        (" simulacrum", |m| m.simulacrum),
        (" spectre", |m| m.spectral),
    ];
    let (base, ok): (&str, Ok) = match forms.iter().find(|(suffix, _)| name.ends_with(suffix)) {
        Some((suffix, ok)) => (&name[..name.len() - suffix.len()], *ok),
        None => (name.strip_prefix("spectral ")?, |m| m.spectral),
    };
    let base = base.trim();
    Some(match monster(base) {
        Some(found) if !is_special_form(base) => ok(found),
        // The special forms (`seven-headed hydra simulacrum`) as their own monster, but not
        // a zombie of a zombie.
        _ => zombie_form(base).is_none() && is_monster(base),
    })
}

/// Whether `name` is one of the forms `is_monster` reads before the table.
fn is_special_form(name: &str) -> bool {
    name.ends_with("-headed hydra") || name.ends_with(" slime creature")
}

/// The words before ` mutant beast`: a tier, facets joined by `-`, or a tier and facets.
fn is_mutant_beast(words: &str) -> bool {
    const TIERS: &[&str] = &["larval", "juvenile", "mature", "elder", "primal"];
    const FACETS: &[&str] = &["sting", "bat", "fire", "weird", "shock", "ox"];
    let words = words.to_lowercase();
    let words: Vec<&str> = words.split(' ').filter(|w| !w.is_empty()).collect();
    let facets = |word: &str| {
        word.split('-')
            .filter(|f| !f.is_empty())
            .all(|f| FACETS.contains(&f))
    };
    match words.as_slice() {
        [one] => TIERS.contains(one) || facets(one),
        [tier, last] => TIERS.contains(tier) && facets(last),
        _ => false,
    }
}

/// A draconian form crawl knows: a draconian's name, `[any] base ...`, `[any] [nonbase]
/// draconian` or `<colour> draconian`, or a colour before a job (`red draconian knight`).
fn is_draconian(name: &str) -> bool {
    if monster_named(name) {
        return true;
    }
    let name = name.strip_prefix("any ").unwrap_or(name);
    if name.starts_with("base ") {
        return true;
    }
    let name = name.strip_prefix("nonbase ").unwrap_or(name).trim();
    if name == "draconian" || monster_named(name) {
        return true;
    }
    let Some((colour, job)) = name.split_once(' ') else {
        return false;
    };
    let colour_known =
        colour == colour.to_lowercase() && monster_named(&format!("{colour} draconian"));
    let job = job.trim();
    let nonbase = job.to_lowercase().starts_with("draconian ") && monster_named(job);
    colour_known && nonbase
}

/// The entries crawl keeps but cannot place, by ASCII-lowercase name (the first of a name wins).
static REJECTED_MONSTERS_BY_NAME: LazyLock<HashMap<String, &'static str>> = LazyLock::new(|| {
    let mut by_name = HashMap::default();
    for m in REJECTED_MONSTERS {
        by_name
            .entry(m.name.to_ascii_lowercase())
            .or_insert(m.message.as_str());
    }
    by_name
});

fn rejected_monster(name: &str) -> Option<&'static str> {
    if name.bytes().any(|b| b.is_ascii_uppercase()) {
        REJECTED_MONSTERS_BY_NAME.get(&name.to_ascii_lowercase())
    } else {
        REJECTED_MONSTERS_BY_NAME.get(name)
    }
    .copied()
}

/// What a monster name stands for, as far as its equipment goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum MonsterName {
    /// A monster crawl picks when it places the vault (`any`, `lesser demon`, `nothing`...).
    Random,
    /// A monster of the tables, or one made from it (`orc zombie` carries what `orc` does).
    Named(&'static str),
    /// A made monster that carries nothing (simulacra, spectral things, a bare `zombie`).
    Unequipped,
    /// Another form crawl knows.
    Other,
}

/// Why crawl rejects a monster name.
pub(super) enum NameProblem {
    /// An entry crawl keeps but cannot place, with crawl's message.
    Dummy(&'static str),
    Unknown,
}

/// What [`monster_name`] answers for a name of the tables, by its ASCII-lowercase name: the
/// names that crawl's forms read before the table are left out, so that every name here is
/// answered by this one lookup.
#[derive(Clone, Copy)]
enum KnownName {
    Rejected(&'static str),
    Named(&'static str),
    Random,
}

static KNOWN_NAMES: LazyLock<HashMap<String, KnownName>> = LazyLock::new(|| {
    let mut known = HashMap::default();
    for (name, monster) in MONSTERS_BY_NAME.iter() {
        if name.is_ascii() && !is_read_before_table(&name.to_ascii_lowercase()) {
            let kind = if is_random_name(name) {
                KnownName::Random
            } else {
                KnownName::Named(monster.name.as_str())
            };
            known.insert(name.clone(), kind);
        }
    }
    // A rejected entry is answered first.
    for (name, message) in REJECTED_MONSTERS_BY_NAME.iter() {
        if name.is_ascii() {
            known.insert(name.clone(), KnownName::Rejected(message));
        }
    }
    known
});

/// A monster name as crawl reads it once the tags are off (any case, `_` for spaces).
pub(super) fn monster_name(written: &str) -> Result<MonsterName, NameProblem> {
    // Copies only where a name needs changing: this runs for every monster of every spec.
    let trimmed = written.trim();
    let name: Cow<str> = if trimmed.contains('_') {
        Cow::Owned(trimmed.replace('_', " "))
    } else {
        Cow::Borrowed(trimmed)
    };
    // Most names are a name of the tables, in ASCII: one lookup answers them (the forms are
    // read below, as for any other name).
    let ascii = name.is_ascii() && !holds(&name, "random");
    if ascii {
        let known = if name.bytes().any(|b| b.is_ascii_uppercase()) {
            KNOWN_NAMES.get(&name.to_ascii_lowercase())
        } else {
            KNOWN_NAMES.get(&*name)
        };
        match known {
            Some(KnownName::Rejected(message)) => return Err(NameProblem::Dummy(message)),
            Some(KnownName::Named(base)) => return Ok(MonsterName::Named(base)),
            Some(KnownName::Random) => return Ok(MonsterName::Random),
            None => {}
        }
    }
    monster_name_by_forms(name, !ascii)
}

/// [`monster_name`] by crawl's forms (`name` with `_` read as spaces); `may_be_rejected`
/// when the name may be a rejected entry still.
fn monster_name_by_forms(
    name: Cow<str>,
    may_be_rejected: bool,
) -> Result<MonsterName, NameProblem> {
    if may_be_rejected && let Some(message) = rejected_monster(&name) {
        return Err(NameProblem::Dummy(message));
    }
    let name = if holds(&name, "random") {
        Cow::Owned(name.replace("random", "any"))
    } else {
        name
    };
    if !is_monster(&name) {
        return Err(NameProblem::Unknown);
    }
    if name
        .bytes()
        .any(|b| b.is_ascii_uppercase() || !b.is_ascii())
    {
        Ok(name_kind(&name.to_lowercase()))
    } else {
        Ok(name_kind(&name))
    }
}

/// Whether `name` (lowercase) is one crawl picks a monster for when it places the vault.
fn is_random_name(name: &str) -> bool {
    matches!(
        name,
        "nothing" | "any" | "any monster" | "any demon" | "0" | "8" | "9"
    ) || name.ends_with("lesser demon")
        || name.ends_with("common demon")
        || name.ends_with("greater demon")
}

fn name_kind(name: &str) -> MonsterName {
    let named = |base: &str| {
        monster(base).map_or(MonsterName::Other, |m| MonsterName::Named(m.name.as_str()))
    };
    if is_random_name(name) {
        return MonsterName::Random;
    }
    if let Some(found) = monster(name) {
        return MonsterName::Named(found.name.as_str());
    }
    if let Some((count, rest)) = name.split_once(' ')
        && count.bytes().all(|b| b.is_ascii_digit())
        && is_monster(rest)
    {
        return name_kind(rest);
    }
    if is_derived(name) {
        return match name
            .strip_suffix(" zombie")
            .or_else(|| name.strip_suffix(" skeleton"))
        {
            Some(base) => match name_kind(base.trim()) {
                MonsterName::Named(base) => MonsterName::Named(base),
                _ => MonsterName::Other,
            },
            None => MonsterName::Unequipped,
        };
    }
    if name.ends_with("-headed hydra") {
        named("hydra")
    } else if name.ends_with(" slime creature") {
        named("slime creature")
    } else if name.ends_with("-shaped pillar of salt") {
        named("pillar of salt")
    } else if name.ends_with("mutant beast") {
        named("mutant beast")
    } else if name.ends_with("ugly thing") {
        named("ugly thing")
    } else if name.starts_with("serpent of hell ") {
        named("the Serpent of Hell")
    } else {
        MonsterName::Other
    }
}

/// Whether `name` (lowercase) is a zombie, skeleton, simulacrum or spectral form.
pub(super) fn is_derived(name: &str) -> bool {
    [" zombie", " skeleton", " simulacrum", " spectre"]
        .iter()
        .any(|suffix| name.ends_with(suffix))
        || name.starts_with("spectral ")
        || matches!(
            name,
            "zombie" | "skeleton" | "simulacrum" | "spectral thing"
        )
}

/// The monster of the tables named `name` (case-insensitive).
pub(super) fn monster_by_name(name: &str) -> Option<&'static Monster> {
    monster(name)
}

/// Every monster name, for suggestions.
pub(super) fn monster_names() -> impl Iterator<Item = &'static str> {
    MONSTERS.iter().map(|m| m.name.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a name's reading comes to, to compare two readings.
    fn answer(
        result: Result<MonsterName, NameProblem>,
    ) -> Result<MonsterName, Option<&'static str>> {
        result.map_err(|problem| match problem {
            NameProblem::Dummy(message) => Some(message),
            NameProblem::Unknown => None,
        })
    }

    #[test]
    fn a_known_name_is_answered_by_the_lookup_as_by_the_forms() {
        let table = MONSTERS
            .iter()
            .map(|m| m.name.as_str())
            .chain(REJECTED_MONSTERS.iter().map(|m| m.name.as_str()));
        let written = [
            "orc",
            "Orc",
            "orc zombie",
            "random",
            "any",
            "nothing",
            "lesser demon",
            "any lesser demon",
            "small zombie",
            "Small Zombie",
            "bai suzhen dragon",
            "serpent of hell gehenna",
            "Serpent_Of_Hell_Dis",
            "_orc",
            "orc_",
            " orc ",
            "3 orc",
            "red draconian knight",
            "ÖRC",
            "orc\u{212a}",
            "",
            "program bug",
            "Program_Bug",
            "random orc",
            "8",
            "0",
        ];
        for name in table.chain(written) {
            for name in [
                name.to_string(),
                name.to_uppercase(),
                name.to_lowercase(),
                name.replace(' ', "_"),
            ] {
                let spaced: Cow<str> = Cow::Owned(name.trim().replace('_', " "));
                assert_eq!(
                    answer(monster_name(&name)),
                    answer(monster_name_by_forms(spaced, true)),
                    "{name:?}"
                );
            }
        }
    }

    #[test]
    fn a_table_name_is_answered_by_the_lookup_as_by_the_forms() {
        for m in MONSTERS.iter() {
            let title: String = m
                .name
                .split(' ')
                .map(|w| {
                    let mut chars = w.chars();
                    chars.next().map_or(String::new(), |c| {
                        c.to_uppercase().chain(chars).collect::<String>()
                    })
                })
                .collect::<Vec<_>>()
                .join(" ");
            for name in [
                m.name.as_str().to_owned(),
                m.name.as_str().to_lowercase(),
                m.name.as_str().to_uppercase(),
                title,
            ] {
                assert_eq!(is_monster(&name), is_monster_form(&name), "{name:?}");
            }
        }
    }
}
