//! The golden-levels text format: a level as the reference loads print it (the map, one
//! glyph per terrain type; a header; everything placed, in creation order; then the final
//! stairs, rooms, regions, altars, doors, flags and light). `levkit preview --format terrain`
//! prints exactly this.

use std::fmt::Write;

use crate::level::{COLNO, Event, Level, Place, ROWNO, Terrain, What, door};

/// The 3.4.3 trap names, by trap number.
pub const TRAP_NAMES: [&str; 23] = [
    "no trap",
    "arrow trap",
    "dart trap",
    "falling rock trap",
    "squeaky board",
    "bear trap",
    "land mine",
    "rolling boulder trap",
    "sleeping gas trap",
    "rust trap",
    "fire trap",
    "pit",
    "spiked pit",
    "hole",
    "trap door",
    "teleportation trap",
    "level teleporter",
    "magic portal",
    "web",
    "statue trap",
    "magic trap",
    "anti-magic field",
    "polymorph trap",
];

pub fn trap_name(kind: i32) -> &'static str {
    usize::try_from(kind)
        .ok()
        .and_then(|k| TRAP_NAMES.get(k))
        .copied()
        .unwrap_or("trap")
}

/// One square's glyph in this format.
pub fn glyph(level: &Level, x: i32, y: i32) -> char {
    let cell = level.at(x, y);
    match cell.typ {
        Terrain::Stone => ' ',
        Terrain::VWall | Terrain::TLWall | Terrain::TRWall => '|',
        Terrain::HWall
        | Terrain::TLCorner
        | Terrain::TRCorner
        | Terrain::BLCorner
        | Terrain::BRCorner
        | Terrain::CrossWall
        | Terrain::TUWall
        | Terrain::TDWall => '-',
        Terrain::DbWall => '=',
        Terrain::SDoor => 'S',
        Terrain::SCorr => 'C',
        Terrain::Corr => '#',
        Terrain::Room => '.',
        Terrain::Door => {
            if cell.flags & (door::CLOSED | door::LOCKED) != 0 {
                '+'
            } else if cell.flags & door::ISOPEN != 0 {
                if cell.horizontal { '|' } else { '-' }
            } else {
                '.'
            }
        }
        Terrain::Stairs => {
            let up = [level.upstair, level.branch_stair]
                .iter()
                .flatten()
                .any(|s| s.up && (s.at.x, s.at.y) == (x, y));
            if up { '<' } else { '>' }
        }
        Terrain::Ladder => 'H',
        Terrain::Fountain => '{',
        Terrain::Throne => '\\',
        Terrain::Sink => 'K',
        Terrain::Grave => 'G',
        Terrain::Altar => '_',
        Terrain::Pool => 'P',
        Terrain::Moat => '}',
        Terrain::Water => 'W',
        Terrain::LavaPool => 'L',
        Terrain::Ice => 'I',
        Terrain::Tree => 'T',
        Terrain::IronBars => 'F',
        Terrain::Air => 'A',
        Terrain::Cloud => '%',
        Terrain::DrawbridgeUp => 'D',
        Terrain::DrawbridgeDown => 'd',
    }
}

/// How an event's subject is written (`random`, `class C`, `274 soldier`...).
pub fn what_text(what: &What, monster: bool) -> String {
    use levkit_model::nethack::tables::{MONSTERS, OBJECTS};
    match what {
        What::Random => "random".to_string(),
        What::Class(b' ') => "class space".to_string(),
        What::Class(c) => format!("class {}", *c as char),
        What::Chooser(c) => format!("chooser {c}"),
        What::Gold(n) => format!("gold {n}"),
        What::ShopItem(k) => format!("shop-item {k}"),
        What::Index(i) => {
            let name = if monster {
                MONSTERS.get(*i as usize).map(|m| m.name)
            } else {
                OBJECTS.get(*i as usize).map(|o| o.name)
            };
            format!("{i} {}", name.map_or("?", |n| n.as_str()))
        }
    }
}

/// The whole reference text of a loaded level.
pub fn golden_text(level: &Level, name: &str, seed: u32, place: &Place) -> String {
    let mut out = String::with_capacity(8192);
    for y in 0..ROWNO as i32 {
        for x in 0..COLNO as i32 {
            out.push(glyph(level, x, y));
        }
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "\nlevel {name} seed {seed} depth {} difficulty {} dungeon {} dlevel {}",
        place.depth, place.difficulty, place.dnum, place.dlevel
    );
    for placed in &level.events {
        let (x, y) = (placed.at.x, placed.at.y);
        let _ = match &placed.event {
            Event::Monster(w) => writeln!(out, "monster {x} {y} {}", what_text(w, true)),
            Event::Object(w) => writeln!(out, "object {x} {y} {}", what_text(w, false)),
            Event::Content(w) => writeln!(out, "content {x} {y} {}", what_text(w, false)),
            Event::Named(text) => writeln!(out, "named {x} {y} {text}"),
            Event::Trap(k) => writeln!(out, "trap {x} {y} {k} {}", trap_name(*k)),
            Event::TrapRemoved(k) => writeln!(out, "trap-removed {x} {y} {k} {}", trap_name(*k)),
            Event::Engraving { kind, text } => writeln!(out, "engraving {x} {y} {kind} {text}"),
            Event::EngravingRemoved => writeln!(out, "engraving-removed {x} {y}"),
        };
    }
    for (label, stair) in [("stairs up", level.upstair), ("stairs down", level.dnstair)] {
        if let Some(s) = stair {
            let _ = writeln!(out, "{label} {} {}", s.at.x, s.at.y);
        }
    }
    if let Some(s) = level.branch_stair {
        let _ = writeln!(
            out,
            "branch-stairs {} {} {}",
            if s.up { "up" } else { "down" },
            s.at.x,
            s.at.y
        );
    }
    for (label, ladder) in [
        ("ladder up", level.upladder),
        ("ladder down", level.dnladder),
    ] {
        if let Some(s) = ladder {
            let _ = writeln!(out, "{label} {} {}", s.at.x, s.at.y);
        }
    }
    for (i, r) in level.rooms.iter().enumerate() {
        let _ = writeln!(
            out,
            "room {i} {} {} {} {} type {} lit {} irregular {} subrooms {}",
            r.lx,
            r.ly,
            r.hx,
            r.hy,
            r.rtype,
            u8::from(r.rlit),
            u8::from(r.irregular),
            r.subrooms.len()
        );
    }
    for (i, r) in level.subrooms.iter().enumerate() {
        let _ = writeln!(
            out,
            "subroom {i} {} {} {} {} type {} lit {} parent {}",
            r.lx,
            r.ly,
            r.hx,
            r.hy,
            r.rtype,
            u8::from(r.rlit),
            r.parent.unwrap_or(0)
        );
    }
    for (label, t) in [("up", level.updest), ("down", level.dndest)] {
        if (t.lx, t.ly, t.hx, t.hy) != (0, 0, 0, 0) {
            let _ = writeln!(
                out,
                "teleport-region {label} {} {} {} {} {} {} {} {}",
                t.lx, t.ly, t.hx, t.hy, t.nlx, t.nly, t.nhx, t.nhy
            );
        }
    }
    for y in 0..ROWNO as i32 {
        for x in 0..COLNO as i32 {
            let cell = level.at(x, y);
            if cell.typ == Terrain::Altar {
                let _ = writeln!(
                    out,
                    "altar {x} {y} align {} shrine {}",
                    cell.flags & 7,
                    u8::from(cell.flags & crate::level::altar::SHRINE != 0)
                );
            }
        }
    }
    for y in 0..ROWNO as i32 {
        for x in 0..COLNO as i32 {
            let cell = level.at(x, y);
            if matches!(cell.typ, Terrain::Door | Terrain::SDoor) {
                let _ = writeln!(out, "door {x} {y} mask {}", cell.flags & 0x1f);
            }
        }
    }
    let f = &level.flags;
    let names = [
        (f.is_maze_lev, "maze"),
        (f.is_cavernous_lev, "cavernous"),
        (f.noteleport, "noteleport"),
        (f.hardfloor, "hardfloor"),
        (f.nommap, "nommap"),
        (f.shortsighted, "shortsighted"),
        (f.arboreal, "arboreal"),
        (f.has_shop, "shop"),
        (f.has_vault, "vault"),
        (f.has_zoo, "zoo"),
        (f.has_court, "court"),
        (f.has_morgue, "morgue"),
        (f.has_beehive, "beehive"),
        (f.has_barracks, "barracks"),
        (f.has_temple, "temple"),
        (f.graveyard, "graveyard"),
    ];
    out.push_str("flags");
    for (on, name) in names {
        if on {
            out.push(' ');
            out.push_str(name);
        }
    }
    out.push('\n');
    for y in 0..ROWNO {
        let _ = write!(out, "lit {y} ");
        for x in 0..COLNO {
            out.push(if level.cells[x][y].lit { '1' } else { '0' });
        }
        out.push('\n');
    }
    out
}
