//! A dungeon description and the level files beside it, checked together.

use levkit_ide::{RootDatabase, Workspace, link_diagnostics};

#[test]
fn missing_and_unreachable_levels_are_reported_on_their_own_files() {
    let mut db = RootDatabase::default();
    let dungeon = db.add_file(
        "game/dat/dungeon.def",
        b"DUNGEON: \"Main\" \"M\" (20, 5)\nLEVEL: \"fort\" \"F\" @ (5, 2)\nRNDLEVEL: \"big\" \"B\" @ (8, 2) 2\nLEVEL: \"rogue\" \"R\" @ (15, 4)\nDUNGEON: \"The Quest\" \"Q\" (5, 2)\nLEVEL: \"x-strt\" \"none\" @ (1, 1)\n",
        None,
    );
    let fort = db.add_file("game/dat/fort.des", b"MAZE:\"fort\",' '\nNOMAP\n", None);
    let big = db.add_file(
        "game/dat/big.des",
        b"MAZE:\"big-1\",' '\nNOMAP\nMAZE:\"big-3\",' '\nNOMAP\n",
        None,
    );
    let quest = db.add_file(
        "game/dat/Arc.des",
        b"MAZE:\"Arc-strt\",' '\nNOMAP\nMAZE:\"Arc-fila\",' '\nNOMAP\n",
        None,
    );
    let elsewhere = db.add_file("other/lost.des", b"MAZE:\"lost\",' '\nNOMAP\n", None);
    let workspace = Workspace::new(&db, vec![dungeon, fort, big, quest, elsewhere]);
    let found: Vec<(String, String)> = link_diagnostics(&db, workspace)
        .iter()
        .map(|(file, d)| {
            (
                file.path(&db).display().to_string(),
                format!("{} {}", d.code, d.message),
            )
        })
        .collect();
    expect_test::expect![[r#"
        [
            (
                "game/dat/dungeon.def",
                "DG0501 no `.des` file here defines the level \"big-2\", which the game loads as big-2.lev",
            ),
            (
                "game/dat/big.des",
                "DG0502 the dungeon description dungeon.def never loads the level \"big-3\"; add it there or remove it",
            ),
        ]
    "#]]
    .assert_debug_eq(&found);
}

#[test]
fn a_level_is_previewed_at_its_place_in_the_dungeon_def_beside_it() {
    let mut db = RootDatabase::default();
    let dungeon = db.add_file(
        "game/dat/dungeon.def",
        b"DUNGEON: \"Main\" \"M\" (20, 5)\nLEVEL: \"hall\" \"none\" @ (5, 5)\n",
        None,
    );
    let hall = db.add_file(
        "game/dat/hall.des",
        b"MAZE:\"hall\",' '\nGEOMETRY:center,center\nMAP\n---\n|.|\n---\nENDMAP\n",
        None,
    );
    let elsewhere = db.add_file(
        "other/hall.des",
        b"MAZE:\"hall\",' '\nGEOMETRY:center,center\nMAP\n---\n|.|\n---\nENDMAP\n",
        None,
    );
    let workspace = Workspace::new(&db, vec![dungeon, hall, elsewhere]);
    // (5, 5) read at its middle: level 7, so depth 7 in the first dungeon.
    let beside = levkit_ide::preview::generated(&db, hall, None, 1, Some(workspace)).unwrap();
    assert_eq!(beside.depth, 7);
    // Without a dungeon.def beside it, a level is previewed 10 deep.
    let alone = levkit_ide::preview::generated(&db, elsewhere, None, 1, Some(workspace)).unwrap();
    assert_eq!(alone.depth, 10);
}
