//! A dungeon description and the level files beside it, checked together.

use levkit_ide::{AnalysisHost, Preview, PreviewRequest};

#[test]
fn missing_and_unreachable_levels_are_reported_on_their_own_files() {
    let mut host = AnalysisHost::new();
    let dungeon = host.set_file_bytes(
        "game/dat/dungeon.def",
        b"DUNGEON: \"Main\" \"M\" (20, 5)\nLEVEL: \"fort\" \"F\" @ (5, 2)\nRNDLEVEL: \"big\" \"B\" @ (8, 2) 2\nRNDLEVEL: \"hall\" \"H\" @ (9, 2) 3\nLEVEL: \"rogue\" \"R\" @ (15, 4)\nDUNGEON: \"The Quest\" \"Q\" (5, 2)\nLEVEL: \"x-strt\" \"none\" @ (1, 1)\n",
    );
    let fort = host.set_file_bytes("game/dat/fort.des", b"MAZE:\"fort\",' '\nNOMAP\n");
    let big = host.set_file_bytes(
        "game/dat/big.des",
        b"MAZE:\"big-1\",' '\nNOMAP\nMAZE:\"big-3\",' '\nNOMAP\n",
    );
    let quest = host.set_file_bytes(
        "game/dat/Arc.des",
        b"MAZE:\"Arc-strt\",' '\nNOMAP\nMAZE:\"Arc-fila\",' '\nNOMAP\n",
    );
    let elsewhere = host.set_file_bytes("other/lost.des", b"MAZE:\"lost\",' '\nNOMAP\n");
    let analysis = host.analysis();
    let found: Vec<(String, String)> = [dungeon, fort, big, quest, elsewhere]
        .into_iter()
        .flat_map(|file| {
            let path = analysis.path(file).unwrap().display().to_string();
            analysis
                .diagnostics(file)
                .unwrap()
                .into_iter()
                .filter(|d| d.code.as_str().starts_with("DG05"))
                .map(move |d| (path.clone(), format!("{} {}", d.code, d.message)))
        })
        .collect();
    expect_test::expect![[r#"
        [
            (
                "game/dat/dungeon.def",
                "DG0501 no `.des` file here defines the level \"big-2\", which the game loads as big-2.lev",
            ),
            (
                "game/dat/dungeon.def",
                "DG0501 no `.des` file here defines the levels \"hall-1\", \"hall-2\", \"hall-3\", which the game loads from hall-1.lev, hall-2.lev, hall-3.lev",
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
fn a_dungeon_def_among_none_of_its_levels_gets_one_note() {
    let mut host = AnalysisHost::new();
    let dungeon = host.set_file_bytes(
        "examples/dungeon.def",
        b"DUNGEON: \"Main\" \"M\" (20, 5)\nLEVEL: \"fort\" \"F\" @ (5, 2)\nRNDLEVEL: \"big\" \"B\" @ (8, 2) 5\n",
    );
    let other = host.set_file_bytes("examples/keep.des", b"MAZE:\"keep\",' '\nNOMAP\n");
    let analysis = host.analysis();
    let links = |file| {
        analysis
            .diagnostics(file)
            .unwrap()
            .into_iter()
            .filter(|d| d.code.as_str().starts_with("DG05"))
            .map(|d| format!("{} {:?} {}", d.code, d.severity, d.message))
            .collect::<Vec<_>>()
    };
    expect_test::expect![[r#"
        [
            "DG0503 Info none of the 6 special levels this dungeon description loads is defined by the 1 level in this folder, so the links between them are not checked; keep the dungeon's `.des` files beside it to check them",
        ]
    "#]]
    .assert_debug_eq(&links(dungeon));
    assert!(links(other).is_empty());
}

#[test]
fn a_level_is_previewed_at_its_place_in_the_dungeon_def_beside_it() {
    let mut host = AnalysisHost::new();
    host.set_file_bytes(
        "game/dat/dungeon.def",
        b"DUNGEON: \"Main\" \"M\" (20, 5)\nLEVEL: \"hall\" \"none\" @ (5, 5)\n",
    );
    let level = b"MAZE:\"hall\",' '\nGEOMETRY:center,center\nMAP\n---\n|.|\n---\nENDMAP\n";
    let hall = host.set_file_bytes("game/dat/hall.des", level);
    let elsewhere = host.set_file_bytes("other/hall.des", level);
    let analysis = host.analysis();
    let depth = |file| match analysis.preview(file, &PreviewRequest::default()).unwrap() {
        Preview::Level(level) => level.depth,
        _ => None,
    };
    // (5, 5) read at its middle: level 7, so depth 7 in the first dungeon.
    assert_eq!(depth(hall), Some(7));
    // Without a dungeon.def beside it, a level is previewed 10 deep.
    assert_eq!(depth(elsewhere), Some(10));
}

#[test]
fn a_level_s_preview_reads_the_dungeon_def_beside_it_and_no_other_file_does() {
    let mut host = AnalysisHost::new();
    let files = [
        ("game/dat/hall.des", "MAZE:\"hall\",' '\nNOMAP\n"),
        ("hall.des", "MAZE:\"hall\",' '\nNOMAP\n"),
        ("game/dat/dungeon.def", "DUNGEON: \"Main\" \"M\" (20, 5)\n"),
        ("game/vaults.des", "NAME: v\nMAP\n.\nENDMAP\n"),
        ("game/monster_desc.txt", "RLG327 MONSTER DESCRIPTION 1\n"),
        ("game/notes.des", "hello\n"),
    ]
    .map(|(path, text)| host.set_file_bytes(path, text.as_bytes()));
    let analysis = host.analysis();
    let inputs: Vec<(String, Vec<String>)> = files
        .into_iter()
        .map(|file| {
            let path = analysis.path(file).unwrap().display().to_string();
            let inputs = analysis.preview_inputs(file).unwrap();
            (
                path,
                inputs.iter().map(|p| p.display().to_string()).collect(),
            )
        })
        .collect();
    expect_test::expect![[r#"
        [
            (
                "game/dat/hall.des",
                [
                    "game/dat/dungeon.def",
                ],
            ),
            (
                "hall.des",
                [
                    "dungeon.def",
                ],
            ),
            (
                "game/dat/dungeon.def",
                [],
            ),
            (
                "game/vaults.des",
                [],
            ),
            (
                "game/monster_desc.txt",
                [],
            ),
            (
                "game/notes.des",
                [],
            ),
        ]
    "#]]
    .assert_debug_eq(&inputs);
}
