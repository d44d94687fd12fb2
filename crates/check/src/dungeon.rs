//! Checks of dungeon.def: every dgn_comp message, at the statement at fault, and the rules of
//! the dgn_comp manual page that dgn_comp never enforces.

use std::collections::HashMap;

use levkit_diagnostics::{Code, Diagnostic, TextRange};
use levkit_model::Spanned;
use levkit_model::dungeon::{Couple, DungeonFile, MAX_DUNGEONS, Problem, StatementKind};

pub fn check(file: &DungeonFile) -> Vec<Diagnostic> {
    let tables = file.tables();
    let mut out: Vec<Diagnostic> = tables.problems.iter().map(problem).collect();
    check_names(&mut out, file);
    check_depths(&mut out, file);
    check_bones(&mut out, file);
    out
}

fn problem(problem: &Problem) -> Diagnostic {
    use Problem::*;
    match *problem {
        IllegalDescription(r) => Diagnostic::new(
            Code::DG0101,
            r,
            "a description is hellish, mazelike, roguelike or (for a level) town; alignments go in ALIGNMENT or LEVALIGN. dgn_comp ignores this line",
        ),
        IllegalAlignment(r) => Diagnostic::new(
            Code::DG0102,
            r,
            "an alignment is lawful, neutral, chaotic or unaligned; properties go in DESCRIPTION or LEVELDESC. dgn_comp ignores this line",
        ),
        BonesMarker(r) => Diagnostic::new(
            Code::DG0103,
            r,
            "a bones marker is a one-character string such as \"D\", or \"none\"; dgn_comp stores no marker",
        ),
        AbsBase(r) => Diagnostic::new(Code::DG0104, r, "the base level must lie between -32 and 32; dgn_comp replaces the couple with (0,0)"),
        AbsRange(r) => Diagnostic::new(
            Code::DG0105,
            r,
            "the range must be -1 or more and keep the level within 32; dgn_comp replaces the couple with (0,0)",
        ),
        RelBase(r) => Diagnostic::new(Code::DG0106, r, "the base must lie between -32 and 32; dgn_comp replaces the couple with (0,0)"),
        ChainNotFound { range, first_level: true } => Diagnostic::new(
            Code::DG0412,
            range,
            "dgn_comp's search skips the first level of a dungeon, so it cannot chain from it; place this level with LEVEL and an absolute couple instead",
        ),
        ChainNotFound { range, first_level: false } => Diagnostic::new(
            Code::DG0107,
            range,
            "no earlier level of this dungeon has this name; the level chained from must come first, in the same dungeon",
        ),
        LevelOutsideDungeon(r) => Diagnostic::new(Code::DG0108, r, "this level comes before any DUNGEON line; dgn_comp drops it"),
        DuplicateChainedLevel { range, first } => {
            Diagnostic::new(Code::DG0109, range, "another level already has this name; dgn_comp drops this one")
                .with_label(first, "first level of that name")
        }
        ChainFromProbabilistic { range, base } => Diagnostic::new(
            Code::DG0110,
            range,
            "this level may not exist (its chance is below 100), so nothing can be placed relative to it",
        )
        .with_label(base, "the level chained from"),
        ChainToItself(r) => Diagnostic::new(Code::DG0111, r, "a level cannot be placed relative to itself"),
        BranchOutsideDungeon(r) => Diagnostic::new(Code::DG0112, r, "this branch comes before any DUNGEON line; dgn_comp drops it"),
        ReverseBranch { range, dungeon } => Diagnostic::new(
            Code::DG0113,
            range,
            "branches lead only to dungeons defined later in the file; dgn_comp drops this one",
        )
        .with_label(dungeon, "that dungeon is defined here"),
        NothingToApplyTo(r) => Diagnostic::new(
            Code::DG0406,
            r,
            "this applies to the current dungeon or level, but none is defined yet; dgn_comp writes it outside its tables. Move it after a DUNGEON (or LEVEL) line",
        ),
        TooManyDungeons(r) => Diagnostic::new(
            Code::DG0114,
            r,
            format!("this is dungeon number {MAX_DUNGEONS}; the game panics with {MAX_DUNGEONS} or more (and dgn_comp crashes past 17)"),
        ),
        TooManyLevels(r) => Diagnostic::new(Code::DG0115, r, "dgn_comp holds at most 50 special levels and stops here"),
        TooManyBranches(r) => Diagnostic::new(Code::DG0115, r, "dgn_comp holds at most 32 branches and stops here"),
        NoDungeons => Diagnostic::new(
            Code::DG0116,
            TextRange::empty(0.into()),
            "the file defines no dungeon; start it with a line such as `DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)`",
        ),
    }
}

fn check_names(out: &mut Vec<Diagnostic>, file: &DungeonFile) {
    let mut dungeons: HashMap<&str, TextRange> = HashMap::new();
    let mut levels: HashMap<&str, TextRange> = HashMap::new();
    let mut reached: Vec<&str> = Vec::new();
    let mut first_dungeon = true;
    let mut dungeon_statements = Vec::new();
    for statement in &file.statements {
        match &statement.kind {
            StatementKind::Dungeon { name, .. } => {
                too_long(out, name, 23, "a dungeon name");
                if let Some(&first) = dungeons.get(name.value.as_str()) {
                    out.push(
                        Diagnostic::new(
                            Code::DG0404,
                            name.range,
                            "another dungeon already has this name; branches can reach only one",
                        )
                        .with_label(first, "first dungeon of that name"),
                    );
                } else {
                    dungeons.insert(&name.value, name.range);
                }
                if !first_dungeon {
                    dungeon_statements.push(name);
                }
                first_dungeon = false;
            }
            StatementKind::Protofile(name) => too_long(
                out,
                name,
                6,
                "a prototype name (the game appends the level number)",
            ),
            StatementKind::Level {
                name,
                chained_from,
                alternatives,
                chance,
                ..
            } => {
                too_long(out, name, 23, "a level name");
                let file_name_room = match alternatives {
                    Some(_) => 6,
                    None => 8,
                };
                if name.value.len() <= 23 && name.value.len() > file_name_room {
                    out.push(Diagnostic::new(
                        Code::DG0407,
                        name.range,
                        format!(
                            "the game loads this level from `{}.lev`, but lev_comp limits level names to 8 characters{}",
                            if alternatives.is_some() { format!("{}-N", name.value) } else { name.value.clone() },
                            if alternatives.is_some() { " (including the `-N` of each alternative)" } else { "" }
                        ),
                    ));
                }
                if chained_from.is_none()
                    && let Some(&first) = levels.get(name.value.as_str())
                {
                    out.push(
                        Diagnostic::new(
                            Code::DG0403,
                            name.range,
                            "another level already has this name; the game finds only the first",
                        )
                        .with_label(first, "first level of that name"),
                    );
                }
                levels.entry(&name.value).or_insert(name.range);
                if let Some(n) = alternatives
                    && n.value <= 0
                {
                    out.push(Diagnostic::new(
                        Code::DG0410,
                        n.range,
                        "an RNDLEVEL picks one of `name-1` to `name-N`, so N must be at least 1",
                    ));
                }
                if let Some(c) = chance
                    && !(1..=100).contains(&c.value)
                {
                    out.push(Diagnostic::new(
                        Code::DG0409,
                        c.range,
                        format!("a chance is a percentage from 1 to 100, not {}", c.value),
                    ));
                }
            }
            StatementKind::Branch { dungeon, .. } => {
                too_long(out, dungeon, 23, "a dungeon name");
                reached.push(&dungeon.value);
            }
            _ => {}
        }
    }
    for name in dungeon_statements {
        if !reached.contains(&name.value.as_str()) {
            out.push(Diagnostic::new(
                Code::DG0405,
                name.range,
                "no BRANCH or CHAINBRANCH leads to this dungeon, so the player can never reach it",
            ));
        }
    }
}

fn too_long(out: &mut Vec<Diagnostic>, name: &Spanned<String>, max: usize, what: &str) {
    if name.value.len() > max {
        out.push(Diagnostic::new(
            Code::DG0407,
            name.range,
            format!(
                "{what} has at most {max} characters in the dungeon file; this one has {}",
                name.value.len()
            ),
        ));
    }
}

/// Positions against the depth of their dungeon.
fn check_depths(out: &mut Vec<Diagnostic>, file: &DungeonFile) {
    let mut depth: Option<(Couple, TextRange)> = None;
    let mut fixed: HashMap<i64, TextRange> = HashMap::new();
    for statement in &file.statements {
        match &statement.kind {
            StatementKind::Dungeon { depth: d, .. } => {
                depth = Some((d.value, d.range));
                fixed.clear();
            }
            StatementKind::Entry(entry) => {
                if let Some((d, range)) = depth
                    && entry.value.abs() > d.base.max(1)
                {
                    out.push(
                            Diagnostic::new(
                                Code::DG0408,
                                entry.range,
                                format!("the dungeon may have only {} levels, so entry level {} may not exist", d.base, entry.value),
                            )
                            .with_label(range, "the dungeon's depth"),
                        );
                }
            }
            StatementKind::Level {
                at,
                chained_from: None,
                chance,
                ..
            } => {
                let Some((d, range)) = depth else { continue };
                let Couple { base, rand } = at.value;
                // dgn_comp already zeroed couples out of its own range (DG0104, DG0105).
                let overflows = if base < 0 {
                    32 + base + rand + 1
                } else {
                    base + rand
                } > 32;
                if !(-32..=32).contains(&base) || rand < -1 || overflows {
                    continue;
                }
                let (lowest, highest) = if base < 0 {
                    (-base, -base)
                } else {
                    (base, base + rand.max(0))
                };
                if lowest > d.base || highest > d.base {
                    out.push(
                        Diagnostic::new(
                            Code::DG0402,
                            at.range,
                            format!(
                                "this level can be placed on level {highest} {}, but the dungeon may have only {} levels",
                                if base < 0 { "from the bottom" } else { "from the top" },
                                d.base
                            ),
                        )
                        .with_label(range, "the dungeon's depth"),
                    );
                }
                if rand == 0 && chance.is_none_or(|c| c.value == 100) {
                    let key = if base < 0 { -base + 1000 } else { base };
                    if let Some(&first) = fixed.get(&key) {
                        out.push(
                            Diagnostic::new(Code::DG0411, at.range, "another special level is always placed on this same level; only one can be")
                                .with_label(first, "the other level"),
                        );
                    } else {
                        fixed.insert(key, at.range);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Bones markers name bones files: level markers must be unique within their dungeon, and
/// dungeon markers among dungeons.
fn check_bones(out: &mut Vec<Diagnostic>, file: &DungeonFile) {
    let mut dungeon_markers: HashMap<String, TextRange> = HashMap::new();
    let mut level_markers: HashMap<String, TextRange> = HashMap::new();
    for statement in &file.statements {
        let (marker, markers) = match &statement.kind {
            StatementKind::Dungeon { bones, .. } => {
                level_markers.clear();
                (bones, &mut dungeon_markers)
            }
            StatementKind::Level { bones, .. } => (bones, &mut level_markers),
            _ => continue,
        };
        if marker.value == "none" || marker.value.len() != 1 {
            continue;
        }
        if let Some(&first) = markers.get(&marker.value) {
            out.push(
                Diagnostic::new(
                    Code::DG0401,
                    marker.range,
                    format!("the bones marker \"{}\" is already used: the game names bones files by these markers, so bones left on one of the two are loaded as the other. Give each its own marker", marker.value),
                )
                .with_label(first, "first used here"),
            );
        } else {
            markers.insert(marker.value.clone(), marker.range);
        }
    }
}
