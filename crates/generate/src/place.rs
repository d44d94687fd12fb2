//! Where a level sits in the dungeon: its dungeon, level number, depth, difficulty, alignments
//! and the hero. The game decides this at the start of each game with random draws; levkit
//! needs one reproducible answer per level name.
//!
//! - For the game's own levels the answer is the dungeon the reference loads were made in
//!   (the golden-levels corpus): Doom has 27 levels, Gehennom 20, the Mines 8, and so on.
//! - For other levels, the answer is computed from the dungeon.def beside the file: every
//!   random range is read at its middle.

use levkit_model::dungeon::{BranchKind, Tables};

use crate::level::{Alignment, Place};

const CHAOTIC: i32 = -1;
const NEUTRAL: i32 = 0;
const LAWFUL: i32 = 1;

/// A dungeon of the reference game: name, levels, depth of level 1, alignment, hellish.
struct StockDungeon {
    name: &'static str,
    levels: i32,
    depth_start: i32,
    align: Alignment,
    hellish: bool,
}

const STOCK_DUNGEONS: [StockDungeon; 8] = [
    StockDungeon {
        name: "The Dungeons of Doom",
        levels: 27,
        depth_start: 1,
        align: None,
        hellish: false,
    },
    StockDungeon {
        name: "Gehennom",
        levels: 20,
        depth_start: 28,
        align: None,
        hellish: true,
    },
    StockDungeon {
        name: "The Gnomish Mines",
        levels: 8,
        depth_start: 4,
        align: Some(LAWFUL),
        hellish: false,
    },
    StockDungeon {
        name: "The Quest",
        levels: 5,
        depth_start: 13,
        align: None,
        hellish: false,
    },
    StockDungeon {
        name: "Sokoban",
        levels: 4,
        depth_start: 4,
        align: Some(NEUTRAL),
        hellish: false,
    },
    StockDungeon {
        name: "Fort Ludios",
        levels: 1,
        depth_start: 19,
        align: None,
        hellish: false,
    },
    StockDungeon {
        name: "Vlad's Tower",
        levels: 3,
        depth_start: 33,
        align: Some(CHAOTIC),
        hellish: false,
    },
    StockDungeon {
        name: "The Elemental Planes",
        levels: 6,
        depth_start: -5,
        align: None,
        hellish: false,
    },
];

/// The reference game's levels: base name (variants `-N` stripped), dungeon, level, own
/// alignment.
const STOCK_LEVELS: &[(&str, i32, i32, Alignment)] = &[
    ("oracle", 0, 7, Some(NEUTRAL)),
    ("bigrm", 0, 11, None),
    ("medusa", 0, 24, Some(CHAOTIC)),
    ("castle", 0, 27, None),
    ("valley", 1, 1, None),
    ("asmodeus", 1, 3, None),
    ("juiblex", 1, 5, None),
    ("baalz", 1, 7, None),
    ("orcus", 1, 10, None),
    ("wizard1", 1, 12, None),
    ("wizard2", 1, 13, None),
    ("wizard3", 1, 14, None),
    ("fakewiz1", 1, 16, None),
    ("fakewiz2", 1, 17, None),
    ("sanctum", 1, 20, None),
    ("minefill", 2, 2, None),
    ("minetn", 2, 3, None),
    ("minend", 2, 8, None),
    ("strt", 3, 1, None),
    ("fila", 3, 2, None),
    ("loca", 3, 3, None),
    ("filb", 3, 4, None),
    ("goal", 3, 5, None),
    ("soko1", 4, 1, None),
    ("soko2", 4, 2, None),
    ("soko3", 4, 3, None),
    ("soko4", 4, 4, None),
    ("knox", 5, 1, None),
    ("tower1", 6, 1, None),
    ("tower2", 6, 2, None),
    ("tower3", 6, 3, None),
    ("astral", 7, 1, None),
    ("water", 7, 2, None),
    ("fire", 7, 3, None),
    ("air", 7, 4, None),
    ("earth", 7, 5, None),
];

/// Quest roles by file prefix, with the hero's alignment.
const ROLES: [(&str, i32); 13] = [
    ("Arc", LAWFUL),
    ("Bar", NEUTRAL),
    ("Cav", LAWFUL),
    ("Hea", NEUTRAL),
    ("Kni", LAWFUL),
    ("Mon", NEUTRAL),
    ("Pri", NEUTRAL),
    ("Ran", NEUTRAL),
    ("Rog", CHAOTIC),
    ("Sam", LAWFUL),
    ("Tou", NEUTRAL),
    ("Val", NEUTRAL),
    ("Wiz", NEUTRAL),
];

/// The level's name without a variant suffix (`bigrm-3` → `bigrm`) and, for Quest levels
/// (`Arc-strt`), the role prefix.
fn split_name(name: &str) -> (Option<&'static str>, &str) {
    if let Some((prefix, rest)) = name.split_once('-') {
        if let Some((role, _)) = ROLES.iter().find(|(r, _)| *r == prefix) {
            return (Some(role), rest);
        }
        if rest.chars().all(|c| c.is_ascii_digit()) && !rest.is_empty() {
            return (None, prefix);
        }
    }
    (None, name)
}

/// The hero of the reference loads: the Quest's role on Quest levels, else a Valkyrie.
fn hero(role: Option<&'static str>) -> (String, i32) {
    let role = role.unwrap_or("Val");
    let align = ROLES
        .iter()
        .find(|(r, _)| *r == role)
        .map_or(NEUTRAL, |(_, a)| *a);
    (role.to_string(), align)
}

/// The place of one of the game's own levels in the reference dungeon (see the module docs).
pub fn stock_place(level_name: &str) -> Option<Place> {
    let (role, base) = split_name(level_name);
    let &(_, dnum, dlevel, level_align) = STOCK_LEVELS.iter().find(|(n, ..)| *n == base)?;
    // Quest levels need their role prefix; other names must not have one.
    if (dnum == 3) != role.is_some() {
        return None;
    }
    let dungeon = &STOCK_DUNGEONS[dnum as usize];
    let depth = dungeon.depth_start + dlevel - 1;
    let (role, hero_align) = hero(role);
    // On the Planes the difficulty is the Sanctum's depth plus half the hero's level (30).
    let difficulty = if dnum == 7 { 47 + 15 } else { depth };
    Some(Place {
        dnum,
        dlevel,
        depth,
        difficulty,
        endgame: dnum == 7,
        // A level without its own alignment takes its dungeon's.
        level_align: level_align.or(dungeon.align),
        dungeon_align: dungeon.align,
        in_hell: dungeon.hellish,
        dungeon_levels: dungeon.levels,
        role,
        hero_align,
    })
}

/// The name of a dungeon of the reference game, by number.
pub fn stock_dungeon_name(dnum: i32) -> Option<&'static str> {
    usize::try_from(dnum)
        .ok()
        .and_then(|i| STOCK_DUNGEONS.get(i))
        .map(|d| d.name)
}

/// The middle of a dungeon.def range `(base, rand)`: `base .. base + rand - 1`.
fn middle(base: i64, rand: i64) -> i64 {
    base + (rand.max(1) - 1) / 2
}

fn alignment_of(flags: i64) -> Alignment {
    match flags & 0x70 {
        16 => Some(CHAOTIC),
        32 => Some(NEUTRAL),
        64 => Some(LAWFUL),
        _ => None,
    }
}

/// The place of a level named in a dungeon.def, reading every random range at its middle.
/// `None` when the file does not name the level.
pub fn place_in(tables: &Tables, level_name: &str) -> Option<Place> {
    let mut place = place_in_dungeon(tables, level_name)?;
    // The game's endgame is the dungeon of the level named "astral"; there the difficulty is
    // the Sanctum's depth plus half the hero's level (30), as on the stock Planes.
    let endgame = place_in_dungeon(tables, "astral").map(|astral| astral.dnum);
    if endgame == Some(place.dnum) {
        place.endgame = true;
        if let Some(sanctum) = place_in_dungeon(tables, "sanctum") {
            place.difficulty = sanctum.depth + 15;
        }
    }
    Some(place)
}

/// `place_in` without the endgame's difficulty rule.
fn place_in_dungeon(tables: &Tables, level_name: &str) -> Option<Place> {
    let (role, base_name) = split_name(level_name);
    let index = tables
        .levels
        .iter()
        .position(|l| l.name == level_name || l.name == base_name)?;
    // Which dungeon: levels are stored dungeon after dungeon.
    let mut first = 0;
    let mut dnum = 0;
    for (i, dungeon) in tables.dungeons.iter().enumerate() {
        if index < first + dungeon.levels {
            dnum = i;
            break;
        }
        first += dungeon.levels;
    }
    let dungeon = tables.dungeons.get(dnum)?;
    let size = |d: &levkit_model::dungeon::TmpDungeon| middle(d.depth.base, d.depth.rand).max(1);
    let levels = size(dungeon);
    let dlevel = level_number(tables, index, levels);
    let depth_start = depth_start(tables, dnum, &size);
    let depth = (depth_start + dlevel - 1) as i32;
    let dungeon_align = alignment_of(dungeon.flags);
    let (role, hero_align) = hero(role);
    Some(Place {
        dnum: dnum as i32,
        dlevel: dlevel as i32,
        depth,
        difficulty: depth,
        endgame: false,
        level_align: alignment_of(tables.levels[index].flags).or(dungeon_align),
        dungeon_align,
        in_hell: dungeon.flags & 2 != 0,
        dungeon_levels: levels as i32,
        role,
        hero_align,
    })
}

/// A level's number inside its dungeon of `levels` levels (chains followed).
fn level_number(tables: &Tables, index: usize, levels: i64) -> i64 {
    let level = &tables.levels[index];
    let at = if level.chain >= 0 && (level.chain as usize) != index {
        level_number(tables, level.chain as usize, levels) + level.at.base
    } else if level.at.base < 0 {
        levels + level.at.base + 1 + (level.at.rand.max(1) - 1) / 2
    } else {
        middle(level.at.base, level.at.rand)
    };
    at.clamp(1, levels)
}

/// The depth of a dungeon's first level: one below (or above, for branches going up) the
/// level its branch leaves from, adjusted by the dungeon's entry level.
fn depth_start(
    tables: &Tables,
    dnum: usize,
    size: &dyn Fn(&levkit_model::dungeon::TmpDungeon) -> i64,
) -> i64 {
    if dnum == 0 {
        return 1;
    }
    let dungeon = &tables.dungeons[dnum];
    let Some(branch) = tables.branches.iter().find(|b| b.name == dungeon.name) else {
        return 1;
    };
    // The branch statement belongs to the parent dungeon: the one it is declared in.
    let parent = tables
        .dungeons
        .iter()
        .position(|d| d.range.start() > branch.range.start())
        .map_or(tables.dungeons.len() - 1, |next| next.saturating_sub(1));
    if parent == dnum {
        return 1;
    }
    let parent_levels = size(&tables.dungeons[parent]);
    let from = if branch.chain >= 0 {
        level_number(tables, branch.chain as usize, parent_levels) + branch.at.base
    } else {
        middle(branch.at.base, branch.at.rand)
    };
    let from_depth = depth_start(tables, parent, size) + from - 1;
    let levels = size(dungeon);
    let entry = match dungeon.entry {
        e if e < 0 => levels + e + 1,
        0 => 1,
        e => e,
    };
    let going_up = branch.up || branch.kind == BranchKind::Portal && dungeon.entry < 0;
    let entry_depth = if going_up {
        from_depth - 1
    } else {
        from_depth + 1
    };
    entry_depth - entry + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(place: &Place) -> String {
        format!(
            "dungeon {} dlevel {} depth {} difficulty {} align {:?}/{:?} hell {} role {}",
            place.dnum,
            place.dlevel,
            place.depth,
            place.difficulty,
            place.level_align,
            place.dungeon_align,
            place.in_hell,
            place.role
        )
    }

    #[test]
    fn stock_levels_sit_where_the_reference_loads_put_them() {
        let cases = [
            (
                "oracle",
                "dungeon 0 dlevel 7 depth 7 difficulty 7 align Some(0)/None hell false role Val",
            ),
            (
                "bigrm-3",
                "dungeon 0 dlevel 11 depth 11 difficulty 11 align None/None hell false role Val",
            ),
            (
                "medusa-2",
                "dungeon 0 dlevel 24 depth 24 difficulty 24 align Some(-1)/None hell false role Val",
            ),
            (
                "wizard3",
                "dungeon 1 dlevel 14 depth 41 difficulty 41 align None/None hell true role Val",
            ),
            (
                "minetn-5",
                "dungeon 2 dlevel 3 depth 6 difficulty 6 align Some(1)/Some(1) hell false role Val",
            ),
            (
                "Arc-filb",
                "dungeon 3 dlevel 4 depth 16 difficulty 16 align None/None hell false role Arc",
            ),
            (
                "soko4-1",
                "dungeon 4 dlevel 4 depth 7 difficulty 7 align Some(0)/Some(0) hell false role Val",
            ),
            (
                "tower3",
                "dungeon 6 dlevel 3 depth 35 difficulty 35 align Some(-1)/Some(-1) hell false role Val",
            ),
            (
                "astral",
                "dungeon 7 dlevel 1 depth -5 difficulty 62 align None/None hell false role Val",
            ),
        ];
        for (name, expected) in cases {
            assert_eq!(summary(&stock_place(name).unwrap()), expected, "{name}");
        }
        assert!(
            stock_place("strt").is_none(),
            "a Quest level needs its role"
        );
        assert!(stock_place("my-level").is_none());
        assert_eq!(stock_dungeon_name(4), Some("Sokoban"));
    }
}

#[cfg(test)]
mod dungeon_def_tests {
    use super::*;

    fn tables(text: &str) -> Tables {
        let parse = levkit_syntax::dungeon::parse(text);
        levkit_model::dungeon::lower(&parse.syntax()).tables()
    }

    #[test]
    fn ranges_are_read_at_their_middle_and_branches_set_depths() {
        let def = "\
DUNGEON: \"Main\" \"M\" (20, 5)
ALIGNMENT: unaligned
BRANCH: \"Caves\" @ (3, 3)
LEVEL: \"hall\" \"none\" @ (5, 5)
LEVALIGN: lawful
LEVEL: \"pit\" \"none\" @ (-2, 0)
CHAINLEVEL: \"annex\" \"none\" \"pit\" + (1, 0)

DUNGEON: \"Caves\" \"C\" (6, 2)
ALIGNMENT: chaotic
DESCRIPTION: hellish
LEVEL: \"deep\" \"none\" @ (-1, 0)
";
        let t = tables(def);
        let place = |name| summary(&place_in(&t, name).unwrap());
        // Main has 20 + (5-1)/2 = 22 levels; hall is at 5 + 2 = 7.
        assert_eq!(
            place("hall"),
            "dungeon 0 dlevel 7 depth 7 difficulty 7 align Some(1)/None hell false role Val"
        );
        assert_eq!(
            place("pit"),
            "dungeon 0 dlevel 21 depth 21 difficulty 21 align None/None hell false role Val"
        );
        assert_eq!(
            place("annex"),
            "dungeon 0 dlevel 22 depth 22 difficulty 22 align None/None hell false role Val"
        );
        // Caves branch from Main 3 + 1 = 4, so Caves 1 is depth 5; 6 levels, deep is the last.
        assert_eq!(
            place("deep"),
            "dungeon 1 dlevel 6 depth 10 difficulty 10 align Some(-1)/Some(-1) hell true role Val"
        );
        assert!(place_in(&t, "elsewhere").is_none());
    }

    #[test]
    fn the_endgame_keeps_its_difficulty_rule_at_any_depth() {
        // On the stock Planes: the Sanctum's depth (47) plus half the hero's level (15).
        let earth = stock_place("earth").unwrap().at_depth(-1);
        assert_eq!(
            (earth.depth, earth.difficulty, earth.endgame),
            (-1, 62, true)
        );
        let oracle = stock_place("oracle").unwrap().at_depth(12);
        assert_eq!((oracle.depth, oracle.difficulty), (12, 12));
        // In a dungeon.def, the endgame is the dungeon of the level named "astral".
        let def = "\
DUNGEON: \"Main\" \"M\" (10, 0)
BRANCH: \"Hell\" @ (10, 0)
DUNGEON: \"Hell\" \"H\" (5, 0)
BRANCH: \"Planes\" @ (1, 0) portal
LEVEL: \"sanctum\" \"none\" @ (-1, 0)
DUNGEON: \"Planes\" \"P\" (2, 0)
LEVEL: \"earth\" \"none\" @ (1, 0)
LEVEL: \"astral\" \"none\" @ (2, 0)
";
        let t = tables(def);
        let sanctum = place_in(&t, "sanctum").unwrap();
        let earth = place_in(&t, "earth").unwrap();
        assert!(earth.endgame && !sanctum.endgame);
        assert_eq!(earth.difficulty, sanctum.depth + 15);
        assert_eq!(earth.at_depth(-3).difficulty, sanctum.depth + 15);
    }

    fn summary(place: &Place) -> String {
        format!(
            "dungeon {} dlevel {} depth {} difficulty {} align {:?}/{:?} hell {} role {}",
            place.dnum,
            place.dlevel,
            place.depth,
            place.difficulty,
            place.level_align,
            place.dungeon_align,
            place.in_hell,
            place.role
        )
    }
}
