//! Checks of NetHack 3.4.3 `.des` models: every error and warning of lev_comp 3.4.3, reported
//! at the construct at fault, and the problems lev_comp lets through (see `docs/diagnostics.md`).

mod dialects;
mod maze;
mod names;
mod rooms;

use std::collections::HashMap;

pub use dialects::{cap_runs, newer_language, newer_level_file};

use levkit_diagnostics::{Code, Diagnostic, TextRange};
use levkit_model::Spanned;
use levkit_model::nethack::{DesFile, Fill, Level, LevelKind, terrain_of};

pub fn check(file: &DesFile) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut names: HashMap<&str, TextRange> = HashMap::new();
    // lev_comp's map rows outlive their level, so a level's checks see the earlier ones'.
    let mut memory = maze::MapMemory::default();
    for (index, level) in file.levels.iter().enumerate() {
        if let Some(name) = &level.name {
            if let Some(&first) = names.get(name.value.as_str()) {
                out.push(
                    Diagnostic::new(
                        Code::NH0421,
                        name.range,
                        format!(
                            "another level of this file is already named \"{}\"; both compile to {}.lev, and the later one overwrites the start of the earlier (lev_comp does not truncate the file, and levkit writes the same bytes). Rename one",
                            name.value, name.value
                        ),
                    )
                    .with_label(first, "first level of that name"),
                );
            } else {
                names.insert(&name.value, name.range);
            }
        }
        check_level(&mut out, level, index, &mut memory);
    }
    out
}

fn check_level<'a>(
    out: &mut Vec<Diagnostic>,
    level: &'a Level,
    index: usize,
    memory: &mut maze::MapMemory<'a>,
) {
    if let Some(name) = &level.name {
        check_level_name(out, name);
    }
    if let Some(Spanned {
        value: Fill::Char(c),
        range,
    }) = level.fill
        && terrain_of(c).is_none()
    {
        out.push(Diagnostic::new(
                Code::NH0201,
                range,
                format!(
                    "'{}' is not a map character, so lev_comp fills the level at random (a maze lattice); use ' ' for solid rock or another map character",
                    c.escape_debug()
                ),
            ));
    }
    let mut seen_flags = Vec::new();
    for (i, flag) in level.flags.iter().enumerate() {
        let previous_end = i
            .checked_sub(1)
            .map_or(flag.range.start(), |p| level.flags[p].range.end());
        if let Some(first) = seen_flags
            .iter()
            .find(|f: &&Spanned<_>| f.value == flag.value)
        {
            out.push(
                Diagnostic::new(
                    Code::NH0423,
                    flag.range,
                    "this flag is already given; remove the repetition",
                )
                .with_label(first.range, "first given here")
                .with_replacement(
                    "Remove the repeated flag",
                    // With the comma before it, so the list stays well formed.
                    TextRange::new(previous_end, flag.range.end()),
                    "",
                ),
            );
        } else {
            seen_flags.push(*flag);
        }
    }
    if let Some(init) = &level.init_map {
        for (c, code, which) in [
            (init.foreground, Code::NH0103, "foreground"),
            (init.background, Code::NH0104, "background"),
        ] {
            if terrain_of(c.value).is_none() {
                out.push(Diagnostic::new(
                    code,
                    c.range,
                    format!(
                        "'{}' is not a map character; the INIT_MAP {which} must be one, such as '.' for floor or ' ' for rock",
                        c.value.escape_debug()
                    ),
                ));
            }
        }
        if init.joined.value && !matches!(init.foreground.value, '.' | '#') {
            out.push(
                Diagnostic::new(
                    Code::NH0105,
                    init.foreground.range,
                    "a joined INIT_MAP connects its foreground areas, which must be floor '.' or corridor '#'",
                )
                .with_label(init.joined.range, "joined here"),
            );
        }
    }
    // lev_comp joins the messages with newlines (none before the first non-empty text) and
    // refuses one when the text so far, the new message and its terminator would pass 255
    // bytes: 254 for a message that starts the text, 255 in all after a newline.
    let mut joined = 0usize;
    for message in &level.messages {
        let len = message.value.len();
        if joined + len + 1 > 255 {
            let (total, limit) = if joined > 0 {
                (joined + 1 + len, 255)
            } else {
                (len, 254)
            };
            out.push(Diagnostic::new(
                Code::NH0106,
                message.range,
                format!(
                    "with this one the level's messages come to {total} bytes (newlines between them included), but lev_comp keeps at most {limit} here; shorten them"
                ),
            ));
        } else {
            joined += usize::from(joined > 0) + len;
        }
    }
    match level.kind {
        LevelKind::Maze => maze::check_maze(out, level, index, memory),
        LevelKind::Rooms => rooms::check_room_level(out, level),
    }
    check_stairs(out, level);
}

fn check_level_name(out: &mut Vec<Diagnostic>, name: &Spanned<String>) {
    let text = &name.value;
    if text.contains('.') {
        out.push(Diagnostic::new(
            Code::NH0101,
            name.range,
            "a level name cannot contain '.', because lev_comp appends \".lev\" to it; remove the dot",
        ));
    }
    if text.contains('/') {
        out.push(Diagnostic::new(
            Code::NH0408,
            name.range,
            "lev_comp uses the level name as a file name, so '/' writes into another directory; remove it",
        ));
    }
    // lev_comp counts bytes, so a name with accents is longer than it looks.
    if text.len() > 8 {
        out.push(Diagnostic::new(
            Code::NH0102,
            name.range,
            format!(
                "level names have at most 8 bytes (this one has {}), since they become file names; shorten it",
                text.len()
            ),
        ));
    }
}

/// Several up (or down) stairs in one level: the game keeps only one of each.
fn check_stairs(out: &mut Vec<Diagnostic>, level: &Level) {
    use levkit_model::nethack::{DetailKind, LevRegionKind};
    let details = level
        .parts
        .iter()
        .flat_map(|p| &p.details)
        .chain(level.rooms.iter().flat_map(|r| &r.details));
    let mut first: [Option<TextRange>; 2] = [None, None];
    for detail in details {
        let up = match &detail.kind {
            DetailKind::Stair { up, .. } => *up,
            DetailKind::LevRegion(region) => match region.kind {
                LevRegionKind::Stair { up } => up,
                _ => continue,
            },
            _ => continue,
        };
        let slot = &mut first[usize::from(up)];
        match slot {
            Some(earlier) => out.push(
                Diagnostic::new(
                    Code::NH0420,
                    detail.range,
                    format!(
                        "this level already has a{} stair; the game keeps one stair of each kind per level",
                        if up { "n up" } else { " down" }
                    ),
                )
                .with_label(*earlier, "the first one"),
            ),
            None => *slot = Some(detail.range),
        }
    }
}

/// The lev_comp 3.4.3 limit on items of one kind in a part or a room (counts are signed bytes).
const MAX_OF_TYPE: usize = 128;

/// Reports the 128th and later items of each kind of `details`.
fn check_item_counts(
    out: &mut Vec<Diagnostic>,
    details: &[levkit_model::nethack::Detail],
    place: &str,
) {
    let mut counts = [0usize; Counted::KINDS];
    for detail in details {
        let Some(kind) = Counted::of(&detail.kind) else {
            continue;
        };
        let count = &mut counts[kind as usize];
        *count += 1;
        if *count == MAX_OF_TYPE {
            let kind = kind.name();
            out.push(Diagnostic::new(
                Code::NH0134,
                detail.range,
                format!("this is the 128th {kind} in this {place}; lev_comp stores at most 127. Split them over another {place}"),
            ));
        }
    }
}

/// The kinds of statement lev_comp counts, each a slot of [`check_item_counts`]'s tally.
#[derive(Debug, Clone, Copy)]
enum Counted {
    Monster,
    Object,
    Trap,
    Door,
    Drawbridge,
    Mazewalk,
    Ladder,
    Stair,
    LevelRegion,
    Altar,
    Fountain,
    Sink,
    Pool,
    Gold,
    Engraving,
    NonDiggable,
    Region,
}

impl Counted {
    const KINDS: usize = Counted::Region as usize + 1;

    fn of(kind: &levkit_model::nethack::DetailKind) -> Option<Counted> {
        use levkit_model::nethack::DetailKind::*;
        Some(match kind {
            Monster(_) => Counted::Monster,
            Object(_) => Counted::Object,
            Trap(_) => Counted::Trap,
            Door { .. } | RoomDoor(_) => Counted::Door,
            Drawbridge { .. } => Counted::Drawbridge,
            Mazewalk { .. } => Counted::Mazewalk,
            Ladder { .. } => Counted::Ladder,
            Stair { .. } => Counted::Stair,
            LevRegion(_) => Counted::LevelRegion,
            Altar { .. } => Counted::Altar,
            Fountain(_) => Counted::Fountain,
            Sink(_) => Counted::Sink,
            Pool(_) => Counted::Pool,
            Gold { .. } => Counted::Gold,
            Engraving { .. } => Counted::Engraving,
            NonDiggable(_) => Counted::NonDiggable,
            Region(_) => Counted::Region,
            _ => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Counted::Monster => "monster",
            Counted::Object => "object",
            Counted::Trap => "trap",
            Counted::Door => "door",
            Counted::Drawbridge => "drawbridge",
            Counted::Mazewalk => "mazewalk",
            Counted::Ladder => "ladder",
            Counted::Stair => "stair",
            Counted::LevelRegion => "level region",
            Counted::Altar => "altar",
            Counted::Fountain => "fountain",
            Counted::Sink => "sink",
            Counted::Pool => "pool",
            Counted::Gold => "gold pile",
            Counted::Engraving => "engraving",
            Counted::NonDiggable => "non-diggable region",
            Counted::Region => "region",
        }
    }
}
