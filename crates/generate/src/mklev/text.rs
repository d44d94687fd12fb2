//! The reference maps' text format (`nethack-mklev/maps`): 21 rows of 80 glyphs, then a
//! summary line and one line per room.

use std::fmt::Write;

use super::Generated;
use crate::level::{COLNO, Cell, ROWNO, Terrain, door, room_type};

/// The map as the reference files print it. `reveal` shows secret doors as `S` and secret
/// corridors as `C` (the reference files do); otherwise they look like the wall or stone they
/// pretend to be.
pub fn map_text(generated: &Generated, reveal: bool) -> String {
    let level = &generated.level;
    let mut out = String::with_capacity(ROWNO * (COLNO + 1) + 512);
    for y in 0..ROWNO {
        for x in 0..COLNO {
            let up = level
                .upstair
                .is_some_and(|s| (s.at.x, s.at.y) == (x as i32, y as i32));
            out.push(if up {
                '<'
            } else {
                glyph(&level.cells[x][y], reveal)
            });
        }
        out.push('\n');
    }
    let has_vault = level.rooms.iter().any(|r| r.rtype == room_type::VAULT);
    let _ = writeln!(
        out,
        "nroom={} doors={} vault={} object_calls_skipped={}",
        level.rooms.len(),
        level.doors.len(),
        if has_vault { "yes" } else { "no" },
        generated.objects_skipped
    );
    for (i, r) in level.rooms.iter().enumerate() {
        let _ = writeln!(
            out,
            "room {i}: lx={} ly={} hx={} hy={} lit={} type={}",
            r.lx,
            r.ly,
            r.hx,
            r.hy,
            u8::from(r.rlit),
            r.rtype
        );
    }
    out
}

fn glyph(cell: &Cell, reveal: bool) -> char {
    let wall = if cell.horizontal { '-' } else { '|' };
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
        Terrain::SDoor if reveal => 'S',
        Terrain::SDoor => wall,
        Terrain::SCorr if reveal => 'C',
        Terrain::SCorr => ' ',
        Terrain::Room => '.',
        Terrain::Corr => '#',
        Terrain::Stairs => '>',
        Terrain::Fountain => '{',
        Terrain::Door => {
            if cell.flags & (door::CLOSED | door::LOCKED) != 0 {
                '+'
            } else if cell.flags & door::ISOPEN != 0 {
                // An open door stands across the wall: `|` in a horizontal wall.
                if cell.horizontal { '|' } else { '-' }
            } else {
                '.'
            }
        }
        _ => '?',
    }
}
