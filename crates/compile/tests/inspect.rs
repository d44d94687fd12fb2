//! `levkit inspect`: a compiled level as one record per line, and what was decoded before a
//! problem when the file is damaged.

mod common;

use common::analysed;
use expect_test::expect;
use levkit_compile::nethack::lev::{self, Body};
use levkit_compile::nethack::{compile_file, inspect};

fn compile(source: &str) -> Vec<u8> {
    let (model, diagnostics) = analysed(source.as_bytes());
    let compiled = compile_file(&model, &diagnostics);
    compiled[0].bytes.clone().expect("the level compiles")
}

const MAZE: &str = "MAZE:\"test\",' '\nFLAGS:noteleport\nGEOMETRY:center,center\nMAP\n---\n|.|\n---\nENDMAP\n\
RANDOM_PLACES:(1,1)\nMONSTER:'d',\"jackal\",(1,1),\"Rex\"\nMONSTER:'m',\"giant mimic\",place[0],m_object \"boulder\"\n\
OBJECT:'(',\"chest\",(1,1)\nTRAP:\"pit\",random\nENGRAVING:(1,1),burn,\"Elbereth\"\n";

#[test]
fn a_level_reads_back_one_record_per_line() {
    let text = inspect(&compile(MAZE)).unwrap();
    expect![[r#"
        version 3.4.3.0 features 0x001e0cc6 checksums 0x211b117e 0xb8d24950
        kind maze (MAZE)
        flags 0x1 noteleport
        filling STONE
        parts 1
        part 0: halign 3 valign 3 size 3x3
          |---|
          ||.||
          |---|
          place registers (1,1)
          trap random 100% pit
          monster 'd' jackal (id 12) at (1,1) 100% align -12 peaceful -1 asleep -1 named "Rex"
          monster 'm' giant mimic (id 65) at place[0] 100% align -12 peaceful -1 asleep -1 appears (2) as "boulder"
          object '(' chest (id 190) at (1,1) 100% spe -127 curse -1 corpse -1
          engraving (1,1) type 3 "Elbereth"
    "#]]
    .assert_eq(&text);
}

#[test]
fn a_damaged_level_gives_the_offset_and_what_was_decoded_before() {
    let bytes = compile(MAZE);
    let Body::Maze(maze) = lev::decode(&bytes).unwrap().body else {
        panic!("a maze")
    };
    // Cut inside the second monster: the first is printed, the second is not.
    let second_monster = maze.parts[0].things.monsters[1].origin as usize;
    let error = inspect(&bytes[..second_monster + 10]).unwrap_err();
    expect!["at byte 0x82: the file ends inside a monster's appearance"]
        .assert_eq(&error.to_string());
    expect![[r#"
        version 3.4.3.0 features 0x001e0cc6 checksums 0x211b117e 0xb8d24950
        kind maze (MAZE)
        flags 0x1 noteleport
        filling STONE
        parts 1
        part 0: halign 3 valign 3 size 3x3
          |---|
          ||.||
          |---|
          place registers (1,1)
          trap random 100% pit
          monster 'd' jackal (id 12) at (1,1) 100% align -12 peaceful -1 asleep -1 named "Rex"
    "#]]
    .assert_eq(&error.partial);

    let mut extra = bytes.clone();
    extra.push(0);
    let error = inspect(&extra).unwrap_err();
    assert_eq!(error.offset, bytes.len());
    assert_eq!(error.message, "1 bytes follow the end of the level");
    assert_eq!(error.partial, inspect(&bytes).unwrap());
}

#[test]
fn a_damaged_header_is_reported_with_nothing_decoded() {
    let mut bytes = compile(MAZE);
    bytes[0x20] = 7;
    let error = inspect(&bytes).unwrap_err();
    expect!["at byte 0x20: unknown level kind 7"].assert_eq(&error.to_string());
    assert_eq!(error.partial, "");
}
