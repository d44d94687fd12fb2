//! Checks of room levels (`LEVEL`): rooms, subrooms, their contents and the corridors.

use std::collections::HashMap;

use levkit_diagnostics::{Code, Diagnostic};
use levkit_model::Spanned;
use levkit_model::nethack::{Coordinate, CorridorEnd, CorridorTarget, DetailKind, Level, Room};

use super::maze::{check_contained, check_register_lists};
use super::names::{self, RegisterCounts};

/// The game keeps this many rooms, and as many subrooms.
const MAX_ROOMS: usize = 40;
const MAX_SUBROOMS_PER_PARENT: usize = 24;

pub(super) fn check_room_level(out: &mut Vec<Diagnostic>, level: &Level) {
    let mut registers = check_register_lists(out, &level.registers, "level");
    registers.places_allowed = false;

    let mut top_level = 0;
    let mut subrooms = 0;
    for room in &level.rooms {
        let count = if room.is_subroom {
            &mut subrooms
        } else {
            &mut top_level
        };
        *count += 1;
        if *count == MAX_ROOMS + 1 {
            out.push(Diagnostic::new(
                Code::NH0409,
                room.header,
                format!(
                    "this is {} number {}; the game keeps at most {MAX_ROOMS}",
                    if room.is_subroom { "subroom" } else { "room" },
                    MAX_ROOMS + 1
                ),
            ));
        }
        check_room(out, room, registers);
    }
    check_room_names(out, level);
    check_corridors(out, level);
}

fn check_room(out: &mut Vec<Diagnostic>, room: &Room, registers: RegisterCounts) {
    let room_type = names::check_room_type(out, room.room_type.as_ref());
    if let Some((x, y)) = room.position.value {
        if room.is_subroom {
            if x < 0 || y < 0 {
                out.push(Diagnostic::new(
                    Code::NH0125,
                    room.position.range,
                    "a subroom's position is an offset inside its parent and cannot be negative",
                ));
            }
        } else if !(1..=5).contains(&x) || !(1..=5).contains(&y) {
            out.push(Diagnostic::new(
                Code::NH0124,
                room.position.range,
                format!("({x},{y}) is not a room position: the level is a 5x5 grid, so x and y go from 1 to 5"),
            ));
        }
    }
    let mut name: Option<&Spanned<String>> = None;
    let mut chance: Option<&Spanned<i64>> = None;
    let mut container_seen = false;
    for detail in &room.details {
        match &detail.kind {
            DetailKind::RoomName(this) => match name {
                Some(first) => out.push(
                    Diagnostic::new(
                        Code::NH0126,
                        detail.range,
                        "this room already has a name; keep one NAME line",
                    )
                    .with_label(first.range, "first named here"),
                ),
                None => name = Some(this),
            },
            DetailKind::RoomChance(this) => {
                if let Some(first) = chance {
                    out.push(
                        Diagnostic::new(
                            Code::NH0127,
                            detail.range,
                            "this room already has a chance; keep one CHANCE line",
                        )
                        .with_label(first.range, "first given here"),
                    );
                } else if room_type == Some(0) {
                    out.push(
                        Diagnostic::new(
                            Code::NH0128,
                            detail.range,
                            "only a typed room (a shop, a temple, a zoo...) can have a CHANCE, which is the chance it keeps its type",
                        )
                        .with_label(room.room_type_range, "this room is ordinary"),
                    );
                } else if !(1..=99).contains(&this.value) {
                    out.push(Diagnostic::new(
                        Code::NH0129,
                        this.range,
                        format!(
                            "a room's chance is a percentage from 1 to 99, not {}",
                            this.value
                        ),
                    ));
                } else {
                    // lev_comp remembers a chance only once it has accepted it.
                    chance = Some(this);
                }
            }
            // -1 is how lev_comp stores `random`, so a written -1 is random too.
            DetailKind::RoomDoor(door)
                if door.wall.value.is_none() && door.position.value.is_some_and(|p| p != -1) =>
            {
                out.push(
                        Diagnostic::new(
                            Code::NH0130,
                            door.position.range,
                            "the door's wall is random, so its position on that wall must be random too",
                        )
                        .with_replacement("Make the position random", door.position.range, "random"),
                    );
            }
            DetailKind::Monster(monster) => {
                names::check_monster(out, monster, registers);
                check_room_coordinate(out, room, &monster.at, "monster");
            }
            DetailKind::Object(object) => {
                names::check_object(out, object, registers);
                match &object.at {
                    Some(at) => check_room_coordinate(out, room, at, "object"),
                    None => check_contained(out, object, container_seen),
                }
                container_seen |= object.is_container;
            }
            DetailKind::Trap(trap) => {
                names::check_trap(out, trap);
                check_room_coordinate(out, room, &trap.at, "trap");
            }
            DetailKind::Altar { at, alignment, .. } => {
                if let levkit_model::nethack::Alignment::Register(i) = alignment.value {
                    names::check_register(out, "align", i, alignment.range, 3, "");
                }
                check_room_coordinate(out, room, at, "altar");
            }
            DetailKind::Stair { at, .. } => check_room_coordinate(out, room, at, "stairs"),
            DetailKind::Fountain(at)
            | DetailKind::Sink(at)
            | DetailKind::Pool(at)
            | DetailKind::Gold { at, .. }
            | DetailKind::Engraving { at, .. } => check_room_coordinate(out, room, at, "thing"),
            _ => {}
        }
    }
    super::check_item_counts(out, &room.details, "room");
}

/// Room coordinates are offsets from the floor's top-left corner; a negative one means random.
fn check_room_coordinate(
    out: &mut Vec<Diagnostic>,
    room: &Room,
    at: &Spanned<Coordinate>,
    what: &str,
) {
    match at.value {
        Coordinate::Place(i) => {
            if (0..10).contains(&i) {
                out.push(Diagnostic::new(
                    Code::NH0404,
                    at.range,
                    "room levels have no place registers: the game treats place[i] in a room as random. Write `random`",
                ).with_replacement("Replace with `random`", at.range, "random"));
            } else {
                names::check_register(out, "place", i, at.range, 0, "RANDOM_PLACES");
            }
        }
        Coordinate::At {
            x: written_x,
            y: written_y,
        } => {
            // lev_comp keeps a room coordinate in a signed byte, and the game reads a
            // negative one as random along its axis.
            let (x, y) = (i64::from(written_x as i8), i64::from(written_y as i8));
            if (x, y) != (written_x, written_y) {
                let random = match (x < 0, y < 0) {
                    (true, true) => ", which the game reads as a random spot in the room",
                    (true, false) => ", whose x the game reads as random",
                    (false, true) => ", whose y the game reads as random",
                    (false, false) => "",
                };
                let instead = if random.is_empty() {
                    format!("({x},{y})")
                } else {
                    format!("({x},{y}) or `random`")
                };
                out.push(Diagnostic::new(
                    Code::NH0435,
                    at.range,
                    format!("lev_comp keeps a room coordinate in one signed byte, so ({written_x},{written_y}) is stored as ({x},{y}){random}; write {instead} to say what you mean"),
                ));
            }
            // The game puts no room floor left of x=3 or above y=2.
            let (least_x, least_y) = (x + 3, y + 2);
            if least_x > 79 || least_y > 20 {
                out.push(Diagnostic::new(
                    Code::NH0432,
                    at.range,
                    format!("({x},{y}) from the room's corner lands at ({least_x},{least_y}) or further, outside the level (x up to 79, y up to 20) wherever the room is, and the game writes there outside its arrays; keep it inside the room"),
                ));
                return;
            }
            let Some((w, h)) = room.size.value else {
                return;
            };
            if x < w && y < h {
                return;
            }
            // TRAP, STAIR and ALTAR look for free floor at their spot (`get_free_room_loc`),
            // 100 times at a fixed one, and the game panics when there is none. The room's
            // own wall never is; beyond a subroom's wall may be its parent's floor.
            let seeks_floor = matches!(what, "trap" | "stairs" | "altar");
            let on_own_wall = x <= w && y <= h;
            let diagnostic = if seeks_floor && (on_own_wall || !room.is_subroom) {
                Diagnostic::new(
                    Code::NH0431,
                    at.range,
                    format!(
                        "({x},{y}) is outside the room's floor, which is {w}x{h}; the game looks there 100 times for floor to put the {what} on, then panics (\"get_free_room_loc: can't find a place!\"). Keep x within 0..{} and y within 0..{}",
                        w - 1,
                        h - 1
                    ),
                )
            } else if seeks_floor {
                Diagnostic::new(
                    Code::NH0406,
                    at.range,
                    format!(
                        "({x},{y}) is outside the subroom's floor, which is {w}x{h}, and beyond its wall: the game puts the {what} there only if the parent room has floor at that spot, and panics (\"get_free_room_loc: can't find a place!\") if not. Keep x within 0..{} and y within 0..{}",
                        w - 1,
                        h - 1
                    ),
                )
            } else {
                Diagnostic::new(
                    Code::NH0406,
                    at.range,
                    format!(
                        "({x},{y}) is outside the room's floor, which is {w}x{h}: x goes from 0 to {} and y from 0 to {}; the game puts the {what} there anyway, in the room's wall or beyond it",
                        w - 1,
                        h - 1
                    ),
                )
            };
            out.push(diagnostic.with_label(room.size.range, "the room's size"));
        }
        Coordinate::Random => {}
    }
}

fn check_room_names(out: &mut Vec<Diagnostic>, level: &Level) {
    let mut named: HashMap<&str, &Spanned<String>> = HashMap::new();
    for room in &level.rooms {
        if let Some(name) = room.name() {
            if let Some(first) = named.get(name.value.as_str()) {
                out.push(
                    Diagnostic::new(
                        Code::NH0422,
                        name.range,
                        format!("another room is already named \"{}\"; subrooms naming it as parent will attach to the first", name.value),
                    )
                    .with_label(first.range, "first room of that name"),
                );
            } else {
                named.insert(&name.value, name);
            }
        }
    }
    let mut children: HashMap<&str, usize> = HashMap::new();
    for room in &level.rooms {
        let Some(parent) = &room.parent else { continue };
        let Some(parent_room) = level
            .rooms
            .iter()
            .find(|r| r.name().is_some_and(|n| n.value == parent.value))
        else {
            let mut diagnostic = Diagnostic::new(
                Code::NH0132,
                parent.range,
                format!(
                    "no room of this level is named \"{}\"; give the parent room a `NAME: \"{}\"` line",
                    parent.value, parent.value
                ),
            );
            if let Some(s) = levkit_syntax::suggest::closest(&parent.value, named.keys().copied()) {
                diagnostic.message = format!(
                    "no room of this level is named \"{}\"; did you mean \"{s}\"?",
                    parent.value
                );
                diagnostic = diagnostic.with_replacement(
                    format!("Replace with \"{s}\""),
                    parent.range,
                    format!("\"{s}\""),
                );
            }
            out.push(diagnostic);
            continue;
        };
        let count = children.entry(&parent.value).or_default();
        *count += 1;
        if *count == MAX_SUBROOMS_PER_PARENT + 1 {
            out.push(Diagnostic::new(
                Code::NH0133,
                room.header,
                format!("room \"{}\" already has {MAX_SUBROOMS_PER_PARENT} subrooms, the most lev_comp allows", parent.value),
            ));
        }
        check_subroom_fits(out, room, parent_room);
    }
}

/// The game skips a subroom that cannot fit in its parent, with everything in it.
fn check_subroom_fits(out: &mut Vec<Diagnostic>, room: &Room, parent: &Room) {
    let Some((pw, ph)) = parent.size.value else {
        return;
    };
    if pw < 4 || ph < 4 {
        out.push(
            Diagnostic::new(
                Code::NH0419,
                room.header,
                format!("the parent room's floor is {pw}x{ph}, but a room needs at least 4x4 to hold a subroom; the game skips this subroom and its contents"),
            )
            .with_label(parent.size.range, "the parent's size"),
        );
        return;
    }
    // The game moves a subroom at offset 1 onto the parent's wall (0), and one that would end
    // one short of the far wall onto it; it does not check the rest.
    let place = |at: i64, size: i64, parent: i64| {
        let at = if at == 1 { 0 } else { at };
        if at + size + 1 == parent { at + 1 } else { at }
    };
    if let (Some((x, y)), Some((w, h))) = (room.position.value, room.size.value)
        && (place(x, w, pw) + w > pw || place(y, h, ph) + h > ph)
    {
        out.push(
            Diagnostic::new(
                Code::NH0419,
                room.size.range,
                format!("a {w}x{h} subroom at ({x},{y}) reaches past its parent's {pw}x{ph} floor; the game builds it anyway, through the parent's walls. Make it smaller or move it"),
            )
            .with_label(parent.size.range, "the parent's size"),
        );
    }
}

fn check_corridors(out: &mut Vec<Diagnostic>, level: &Level) {
    let rooms = &level.rooms;
    let check_end = |out: &mut Vec<Diagnostic>, end: &CorridorEnd, which: &str| {
        let n = end.room.value;
        if n < 0 || n as usize >= rooms.len() {
            out.push(Diagnostic::new(
                Code::NH0131,
                end.room.range,
                format!(
                    "there is no room number {n}: rooms are numbered from 0 in the order they are written, subrooms included, and this level has {}",
                    rooms.len()
                ),
            ));
        } else if rooms[n as usize].is_subroom {
            out.push(
                Diagnostic::new(
                    Code::NH0411,
                    end.room.range,
                    format!("room number {n} is a subroom; lev_comp counts subrooms but the game numbers top-level rooms only, so this corridor {which} elsewhere. Count top-level rooms only"),
                )
                .with_label(rooms[n as usize].header, format!("room number {n}")),
            );
        }
    };
    for (i, corridor) in level.corridors.explicit.iter().enumerate() {
        check_end(out, &corridor.from, "starts");
        match &corridor.to {
            CorridorTarget::Door(end) => check_end(out, end, "ends"),
            CorridorTarget::Number(n) => out.push(Diagnostic::new(
                Code::NH0412,
                n.range,
                "a corridor to a number does nothing in the game; give a destination (room, wall, door)",
            )),
        }
        if i + 1 == super::MAX_OF_TYPE {
            out.push(Diagnostic::new(
                Code::NH0134,
                corridor.range,
                "this is the 128th corridor of the level; lev_comp stores at most 127",
            ));
        }
    }
}
