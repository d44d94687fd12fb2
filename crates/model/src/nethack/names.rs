//! Name lookups exactly as lev_comp 3.4.3 does them, over the game's tables.

use std::sync::LazyLock;

use rustc_hash::FxHashMap;

use super::tables::{MONSTER_CLASSES, MONSTERS, OBJECT_CLASSES, OBJECTS, ROOM_TYPES, TRAPS};

/// Where each name stands in a table: the positions of every entry of that name, in table
/// order (a few names are shared between classes). lev_comp searches the table from the
/// start; looking the name up first gives the same first match without reading the rest.
struct NameIndex(FxHashMap<&'static str, Vec<u16>>);

impl NameIndex {
    fn new(names: impl Iterator<Item = &'static str>) -> NameIndex {
        let mut index: FxHashMap<&'static str, Vec<u16>> = FxHashMap::default();
        for (position, name) in names.enumerate() {
            index.entry(name).or_default().push(position as u16);
        }
        NameIndex(index)
    }

    fn positions(&self, name: &str) -> impl Iterator<Item = usize> + '_ {
        self.0
            .get(name)
            .into_iter()
            .flatten()
            .map(|&p| usize::from(p))
    }
}

static MONSTER_NAMES: LazyLock<NameIndex> =
    LazyLock::new(|| NameIndex::new(MONSTERS.iter().map(|m| m.name.as_str())));
/// (The nameless placeholder objects sit under "", which `object_index` never looks up.)
static OBJECT_NAMES: LazyLock<NameIndex> =
    LazyLock::new(|| NameIndex::new(OBJECTS.iter().map(|o| o.name.as_str())));

/// Which ASCII characters a table of class characters holds (`0`, an unused class, is none):
/// one look-up per question rather than a search of the table.
const fn class_set(classes: &[u8]) -> [bool; 128] {
    let mut set = [false; 128];
    let mut i = 0;
    while i < classes.len() {
        let c = classes[i];
        if c != 0 && c.is_ascii() {
            set[c as usize] = true;
        }
        i += 1;
    }
    set
}

static MONSTER_CLASS_SET: [bool; 128] = class_set(MONSTER_CLASSES);
static OBJECT_CLASS_SET: [bool; 128] = class_set(OBJECT_CLASSES);

pub fn is_monster_class(c: char) -> bool {
    MONSTER_CLASS_SET.get(c as usize).copied().unwrap_or(false)
}

pub fn is_object_class(c: char) -> bool {
    OBJECT_CLASS_SET.get(c as usize).copied().unwrap_or(false)
}

/// The index of a monster in `mons[]`: the first of that name, within `class` when given.
pub fn monster_index(name: &str, class: Option<char>) -> Option<u16> {
    MONSTER_NAMES
        .positions(name)
        .map(|p| &MONSTERS[p])
        .find(|m| class.is_none_or(|c| m.class == c as u8))
        .map(|m| m.index)
}

/// The index of an object in `objects[]`: the first of that name, within `class` when given
/// (lev_comp searches every object when the class is random or a register).
pub fn object_index(name: &str, class: Option<char>) -> Option<u16> {
    if name.is_empty() {
        return None;
    }
    OBJECT_NAMES
        .positions(name)
        .map(|p| &OBJECTS[p])
        .find(|o| class.is_none_or(|c| o.class == c as u8))
        .map(|o| o.index)
}

pub fn trap_type(name: &str) -> Option<i8> {
    TRAPS.iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
}

pub fn room_type(name: &str) -> Option<i8> {
    ROOM_TYPES.iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
}
