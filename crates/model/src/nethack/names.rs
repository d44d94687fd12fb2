//! Name lookups exactly as lev_comp 3.4.3 does them, over the game's tables.

use super::tables::{MONSTER_CLASSES, MONSTERS, OBJECT_CLASSES, OBJECTS, ROOM_TYPES, TRAPS};

pub fn is_monster_class(c: char) -> bool {
    c.is_ascii() && c != '\0' && MONSTER_CLASSES.contains(&(c as u8))
}

pub fn is_object_class(c: char) -> bool {
    c.is_ascii() && c != '\0' && OBJECT_CLASSES.contains(&(c as u8))
}

/// The index of a monster in `mons[]`: the first of that name, within `class` when given.
pub fn monster_index(name: &str, class: Option<char>) -> Option<u16> {
    MONSTERS
        .iter()
        .find(|m| class.is_none_or(|c| m.class == c as u8) && m.name == name)
        .map(|m| m.index)
}

/// The index of an object in `objects[]`: the first of that name, within `class` when given
/// (lev_comp searches every object when the class is random or a register).
pub fn object_index(name: &str, class: Option<char>) -> Option<u16> {
    OBJECTS
        .iter()
        .find(|o| class.is_none_or(|c| o.class == c as u8) && !o.name.is_empty() && o.name == name)
        .map(|o| o.index)
}

pub fn trap_type(name: &str) -> Option<i8> {
    TRAPS.iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
}

pub fn room_type(name: &str) -> Option<i8> {
    ROOM_TYPES.iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
}
