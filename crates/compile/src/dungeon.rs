//! The `dungeon` file the game loads, byte for byte what dgn_comp 3.4.3 writes (x86_64).

use levkit_model::dungeon::{BranchKind, DungeonFile, TmpBranch, TmpDungeon, TmpLevel};

use crate::nethack::VERSION_INFO;

/// Compiles a dungeon description: the version words, the dungeon count, then each dungeon
/// followed by its levels and its branches.
pub fn compile(file: &DungeonFile) -> Vec<u8> {
    let tables = file.tables();
    let mut out = Vec::new();
    for word in VERSION_INFO {
        out.extend_from_slice(&word.to_le_bytes());
    }
    out.extend_from_slice(&(tables.dungeons.len() as i32).to_le_bytes());
    let (mut levels, mut branches) = (tables.levels.iter(), tables.branches.iter());
    for dungeon in &tables.dungeons {
        write_dungeon(&mut out, dungeon);
        for level in levels.by_ref().take(dungeon.levels) {
            write_level(&mut out, level);
        }
        for branch in branches.by_ref().take(dungeon.branches) {
            write_branch(&mut out, branch);
        }
    }
    out
}

/// A `char name[24]` field: the bytes, then NUL padding.
fn name(out: &mut Vec<u8>, name: &str) {
    let mut field = [0u8; 24];
    let bytes = name.as_bytes();
    let n = bytes.len().min(23);
    field[..n].copy_from_slice(&bytes[..n]);
    out.extend_from_slice(&field);
}

fn i16(out: &mut Vec<u8>, v: i64) {
    out.extend_from_slice(&(v as i16).to_le_bytes());
}

fn i32(out: &mut Vec<u8>, v: i64) {
    out.extend_from_slice(&(v as i32).to_le_bytes());
}

fn write_dungeon(out: &mut Vec<u8>, d: &TmpDungeon) {
    name(out, &d.name);
    name(out, &d.protoname);
    i16(out, d.depth.base);
    i16(out, d.depth.rand);
    for v in [
        d.flags,
        d.chance,
        d.levels as i64,
        d.branches as i64,
        d.entry,
    ] {
        i32(out, v);
    }
    out.extend_from_slice(&[d.bones, 0, 0, 0]);
}

fn write_level(out: &mut Vec<u8>, l: &TmpLevel) {
    name(out, &l.name);
    i16(out, l.at.base);
    i16(out, l.at.rand);
    for v in [l.chance, l.rndlevs, l.chain, l.flags] {
        i32(out, v);
    }
    out.extend_from_slice(&[l.bones, 0, 0, 0]);
}

fn write_branch(out: &mut Vec<u8>, b: &TmpBranch) {
    name(out, &b.name);
    i16(out, b.at.base);
    i16(out, b.at.rand);
    i32(out, b.chain);
    i32(
        out,
        match b.kind {
            BranchKind::Stair => 0,
            BranchKind::NoUp => 1,
            BranchKind::NoDown => 2,
            BranchKind::Portal => 3,
        },
    );
    i32(out, i64::from(b.up));
}
