//! Checks of everything named through the game's tables: classes, monsters, objects, traps,
//! room types, mimic appearances, and of registers and chances.

use levkit_diagnostics::{Code, Diagnostic, TextRange};
use levkit_model::Spanned;
pub(super) use levkit_model::nethack::names::{is_monster_class, is_object_class};
use levkit_model::nethack::names::{monster_index, object_index};
use levkit_model::nethack::tables::{FEATURES, MONSTERS, OBJECTS, ROOM_TYPES, TRAPS};
use levkit_model::nethack::{Alignment, AppearanceKind, Class, Monster, Object, Trap};
use levkit_syntax::suggest::closest;

/// How many entries each register list of the enclosing part or level defines.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct RegisterCounts {
    pub objects: usize,
    pub places: usize,
    pub monsters: usize,
    /// Room levels have no place registers: `place[i]` there means "random".
    pub places_allowed: bool,
}

/// The checks every register use gets: lev_comp's index limit, then the list it points into.
pub(super) fn check_register(
    out: &mut Vec<Diagnostic>,
    kind: &str,
    index: i64,
    range: TextRange,
    defined: usize,
    list_statement: &str,
) {
    let limit = if kind == "align" { 3 } else { 10 };
    if index >= limit {
        out.push(Diagnostic::new(
            Code::NH0109,
            range,
            format!(
                "{kind}[{index}] is past the last register: indexes go from 0 to {}",
                limit - 1
            ),
        ));
    } else if index < 0 {
        // lev_comp stores register i as -i-1, so a negative index becomes a plain value.
        let value = -index - 1;
        let (code, what) = match kind {
            "monster" => (
                Code::NH0405,
                format!(
                    "the monster class with character code {value}, which is no class: the game panics (\"create_monster: unknown monster class\")"
                ),
            ),
            "object" if value == 0 => (
                Code::NH0430,
                "object class 0, which the game reads as a random class".to_string(),
            ),
            "object" => (
                Code::NH0405,
                format!(
                    "the object class with character code {value}, which is no class: the game reads past its class table"
                ),
            ),
            "place" => (
                Code::NH0430,
                format!("the literal position ({value},{value})"),
            ),
            _ => (Code::NH0430, format!("the alignment value {value}")),
        };
        out.push(Diagnostic::new(
            code,
            range,
            format!(
                "{kind}[{index}] has a negative index, which lev_comp silently turns into {what}; use 0 to {}",
                limit - 1
            ),
        ));
    } else if kind != "align" && index as usize >= defined {
        let message = if defined == 0 {
            format!(
                "{kind}[{index}] is used, but no {list_statement} list is defined for it; add one before the statements that use it"
            )
        } else {
            format!(
                "{kind}[{index}] is used, but the {list_statement} list defines only {defined} entr{} (indexes 0 to {})",
                if defined == 1 { "y" } else { "ies" },
                defined - 1
            )
        };
        if kind == "monster" {
            out.push(Diagnostic::new(
                Code::NH0429,
                range,
                format!("{message}. The game reads the register as class 0 and panics (\"create_monster: unknown monster class\") unless an earlier level left a class there"),
            ));
        } else {
            let stale = if kind == "place" {
                "the position an earlier level left there, or (0,0)"
            } else {
                "the class an earlier level left there, or a random one"
            };
            out.push(Diagnostic::new(
                Code::NH0404,
                range,
                format!("{message}; the game uses {stale}"),
            ));
        }
    }
}

pub(super) fn check_chance(out: &mut Vec<Diagnostic>, chance: Option<Spanned<i64>>) {
    if let Some(chance) = chance
        && (chance.value <= 0 || chance.value > 100)
    {
        out.push(Diagnostic::new(
            Code::NH0113,
            chance.range,
            format!(
                "a chance is a percentage from 1 to 100, not {}",
                chance.value
            ),
        ));
    }
}

pub(super) fn check_monster_class(out: &mut Vec<Diagnostic>, c: Spanned<char>) {
    if !is_monster_class(c.value) {
        out.push(Diagnostic::new(
            Code::NH0110,
            c.range,
            format!("'{}' is not a monster class; classes are letters and symbols such as 'd' (dogs) or '@' (humans)", c.value.escape_debug()),
        ));
    }
}

pub(super) fn check_object_class(out: &mut Vec<Diagnostic>, c: Spanned<char>) {
    if !is_object_class(c.value) {
        out.push(Diagnostic::new(
            Code::NH0111,
            c.range,
            format!("'{}' is not an object class; classes are symbols such as ')' (weapons) or '(' (tools)", c.value.escape_debug()),
        ));
    }
}

fn class_char_range(class: &Spanned<Class>) -> TextRange {
    class.range
}

pub(super) fn check_monster(
    out: &mut Vec<Diagnostic>,
    monster: &Monster,
    registers: RegisterCounts,
) {
    check_chance(out, monster.chance);
    match monster.class.value {
        Class::Char(c) => check_monster_class(out, Spanned::new(c, monster.class.range)),
        Class::Register(i) => check_register(
            out,
            "monster",
            i,
            monster.class.range,
            registers.monsters,
            "RANDOM_MONSTERS",
        ),
        Class::Random => {}
    }
    if let Some(name) = &monster.name {
        match monster.class.value {
            Class::Char(c) if is_monster_class(c) => {
                if monster_index(&name.value, Some(c)).is_none() {
                    out.push(unknown_monster(name, c, monster.class.range));
                }
            }
            Class::Char(_) => {}
            Class::Random | Class::Register(_) => {
                let mut diagnostic = Diagnostic::new(
                    Code::NH0413,
                    name.range,
                    format!(
                        "lev_comp looks a monster name up only in a given class, so with a {} class \"{}\" is ignored and the monster is random",
                        if monster.class.value == Class::Random {
                            "random"
                        } else {
                            "register"
                        },
                        name.value
                    ),
                );
                if let Some(m) = MONSTERS.iter().find(|m| m.name == name.value) {
                    diagnostic
                        .message
                        .push_str(&format!("; write its class '{}' instead", m.class as char));
                    diagnostic = diagnostic.with_replacement(
                        format!("Use class '{}'", m.class as char),
                        class_char_range(&monster.class),
                        format!("'{}'", escape_class(m.class as char)),
                    );
                }
                out.push(diagnostic);
            }
        }
    }
    if let Some(alignment) = &monster.alignment {
        if let Alignment::Register(i) = alignment.value {
            check_register(out, "align", i, alignment.range, 3, "");
        }
        let priestly = monster
            .name
            .as_ref()
            .is_some_and(|n| matches!(n.value.as_str(), "aligned priest" | "Angel"));
        if !priestly {
            out.push(Diagnostic::new(
                Code::NH0418,
                alignment.range,
                "only priests and Angels take an alignment: for any other monster the game creates nothing at all. Remove the alignment",
            ));
        }
    }
    if let Some(appearance) = &monster.appearance {
        check_appearance(out, monster, appearance);
    }
}

fn check_appearance(
    out: &mut Vec<Diagnostic>,
    monster: &Monster,
    appearance: &levkit_model::nethack::Appearance,
) {
    let is_mimic = matches!(monster.class.value, Class::Char('m'));
    if appearance.kind.value == AppearanceKind::Monster {
        out.push(Diagnostic::new(
            Code::NH0414,
            appearance.kind.range,
            "the game does not implement m_monster: the mimic keeps its own look. Use m_feature or m_object",
        ));
    } else if !is_mimic {
        out.push(Diagnostic::new(
            Code::NH0414,
            appearance.kind.range,
            "only mimics (class 'm') can take an appearance; the game ignores it on other monsters",
        ));
    }
    let what = &appearance.what;
    match appearance.kind.value {
        AppearanceKind::Feature => {
            let known = FEATURES
                .iter()
                .any(|f| !f.explanation.is_empty() && f.explanation == what.value);
            if !known {
                let mut diagnostic = Diagnostic::new(
                    Code::NH0425,
                    what.range,
                    format!(
                        "no dungeon feature is called \"{}\"; the game will complain and show the mimic as itself",
                        what.value
                    ),
                );
                diagnostic = did_you_mean(
                    diagnostic,
                    what.range,
                    closest(
                        &what.value,
                        FEATURES
                            .iter()
                            .map(|f| f.explanation.as_str())
                            .filter(|e| !e.is_empty()),
                    ),
                );
                out.push(diagnostic);
            }
        }
        AppearanceKind::Object => {
            if !OBJECTS
                .iter()
                .any(|o| !o.name.is_empty() && o.name == what.value)
            {
                let mut diagnostic = Diagnostic::new(
                    Code::NH0414,
                    what.range,
                    format!(
                        "no object is called \"{}\"; the game will complain and show the mimic as itself",
                        what.value
                    ),
                );
                diagnostic = did_you_mean(
                    diagnostic,
                    what.range,
                    closest(
                        &what.value,
                        OBJECTS
                            .iter()
                            .map(|o| o.name.as_str())
                            .filter(|n| !n.is_empty()),
                    ),
                );
                out.push(diagnostic);
            }
        }
        AppearanceKind::Monster => {}
    }
}

fn escape_class(c: char) -> String {
    match c {
        '\\' | '\'' => format!("\\{c}"),
        _ => c.to_string(),
    }
}

fn unknown_monster(name: &Spanned<String>, class: char, class_range: TextRange) -> Diagnostic {
    let mut diagnostic = Diagnostic::new(
        Code::NH0202,
        name.range,
        format!(
            "no monster of class '{class}' is called \"{}\"; the game makes a random monster instead",
            name.value
        ),
    );
    if let Some(other) = MONSTERS.iter().find(|m| m.name == name.value) {
        let other_class = other.class as char;
        diagnostic.message = format!(
            "\"{}\" is a monster of class '{other_class}', not '{class}'; as written the game makes a random monster",
            name.value
        );
        return diagnostic.with_replacement(
            format!("Use class '{other_class}'"),
            class_range,
            format!("'{}'", escape_class(other_class)),
        );
    }
    let in_class = MONSTERS
        .iter()
        .filter(|m| m.class == class as u8)
        .map(|m| m.name.as_str());
    diagnostic = did_you_mean(diagnostic, name.range, closest(&name.value, in_class));
    diagnostic
}

pub(super) fn check_object(out: &mut Vec<Diagnostic>, object: &Object, registers: RegisterCounts) {
    check_chance(out, object.chance);
    let class = match object.class.value {
        Class::Char(c) => {
            check_object_class(out, Spanned::new(c, object.class.range));
            Some(c).filter(|&c| is_object_class(c))
        }
        Class::Register(i) => {
            check_register(
                out,
                "object",
                i,
                object.class.range,
                registers.objects,
                "RANDOM_OBJECTS",
            );
            None
        }
        Class::Random => None,
    };
    if let Some(name) = &object.name {
        // lev_comp searches the given class, or every object when the class is not a character.
        let in_scope = |o: &&levkit_model::nethack::tables::ObjectEntry| {
            class.is_none_or(|c| o.class == c as u8)
        };
        if object_index(&name.value, class).is_none() {
            let mut diagnostic = Diagnostic::new(
                Code::NH0203,
                name.range,
                match class {
                    Some(c) => format!(
                        "no object of class '{c}' is called \"{}\"; the game makes a random object instead",
                        name.value
                    ),
                    None => format!(
                        "no object is called \"{}\"; the game makes a random object instead",
                        name.value
                    ),
                },
            );
            if let (Some(c), Some(other)) = (class, OBJECTS.iter().find(|o| o.name == name.value)) {
                let other_class = other.class as char;
                diagnostic.message = format!(
                    "\"{}\" is an object of class '{other_class}', not '{c}'; as written the game makes a random object",
                    name.value
                );
                diagnostic = diagnostic.with_replacement(
                    format!("Use class '{other_class}'"),
                    object.class.range,
                    format!("'{}'", escape_class(other_class)),
                );
            } else {
                diagnostic = did_you_mean(
                    diagnostic,
                    name.range,
                    object_suggestion(&name.value, |o| in_scope(&o)),
                );
            }
            out.push(diagnostic);
        }
    }
    if let Some(monster) = &object.monster
        && monster.value != "random"
        && !MONSTERS.iter().any(|m| m.name == monster.value)
    {
        let mut diagnostic = Diagnostic::new(
            Code::NH0426,
            monster.range,
            format!(
                "no monster is called \"{}\"; lev_comp says nothing and the game picks a random one (write \"random\" to say so)",
                monster.value
            ),
        );
        diagnostic = did_you_mean(
            diagnostic,
            monster.range,
            closest(&monster.value, MONSTERS.iter().map(|m| m.name.as_str())),
        );
        out.push(diagnostic);
    }
}

pub(super) fn check_trap(out: &mut Vec<Diagnostic>, trap: &Trap) {
    check_chance(out, trap.chance);
    let Some(kind) = &trap.kind else { return };
    if !TRAPS.iter().any(|(name, _)| *name == kind.value) {
        let mut diagnostic = Diagnostic::new(
            Code::NH0112,
            kind.range,
            format!("\"{}\" is not a trap of the game", kind.value),
        );
        diagnostic = did_you_mean(
            diagnostic,
            kind.range,
            closest(&kind.value, TRAPS.iter().map(|(n, _)| *n)),
        );
        out.push(diagnostic);
    } else if kind.value == "magic portal" {
        out.push(Diagnostic::new(
            Code::NH0415,
            kind.range,
            "a magic portal made as a trap leads nowhere; use a PORTAL statement with a destination level",
        ));
    }
}

/// Checks a room type; returns its number, or `None` for random (unknown types are ordinary).
pub(super) fn check_room_type(
    out: &mut Vec<Diagnostic>,
    room_type: Option<&Spanned<String>>,
) -> Option<i8> {
    let room_type = room_type?;
    if let Some((_, value)) = ROOM_TYPES.iter().find(|(name, _)| *name == room_type.value) {
        return Some(*value);
    }
    let mut diagnostic = Diagnostic::new(
        Code::NH0204,
        room_type.range,
        format!(
            "\"{}\" is not a room type of the game, so it becomes an ordinary room",
            room_type.value
        ),
    );
    diagnostic = did_you_mean(
        diagnostic,
        room_type.range,
        closest(&room_type.value, ROOM_TYPES.iter().map(|(n, _)| *n)),
    );
    out.push(diagnostic);
    Some(0)
}

/// The object a misspelt name most likely means. People often write the name the game shows
/// ("potion of healing") where the table has the bare name ("healing"), so that is tried first.
fn object_suggestion(
    name: &str,
    in_scope: impl Fn(&levkit_model::nethack::tables::ObjectEntry) -> bool,
) -> Option<&'static str> {
    let candidates = || OBJECTS.iter().filter(|o| in_scope(o) && !o.name.is_empty());
    if let Some((_, bare)) = name.split_once(" of ")
        && let Some(o) = candidates().find(|o| o.name == bare)
    {
        return Some(o.name.as_str());
    }
    closest(name, candidates().map(|o| o.name.as_str()))
}

/// Appends "did you mean" and the fix that writes the suggestion, when there is one.
pub(super) fn did_you_mean(
    diagnostic: Diagnostic,
    range: TextRange,
    suggestion: Option<&str>,
) -> Diagnostic {
    let Some(s) = suggestion else {
        return diagnostic;
    };
    let mut diagnostic = diagnostic;
    diagnostic
        .message
        .push_str(&format!("; did you mean \"{s}\"?"));
    diagnostic.with_replacement(format!("Replace with \"{s}\""), range, format!("\"{s}\""))
}
