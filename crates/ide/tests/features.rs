//! Editor features on small fixtures: `$0` marks the cursor, and the expectation beside each
//! test is what the feature answers there (`UPDATE_EXPECT=1` rewrites them).

use expect_test::{Expect, expect};
use levkit_diagnostics::TextSize;
use levkit_ide::{RootDatabase, SourceFile};

fn fixture(text: &str) -> (RootDatabase, SourceFile, TextSize) {
    let offset = text.find("$0").expect("a $0 cursor marker");
    let text = text.replacen("$0", "", 1);
    let mut db = RootDatabase::default();
    let file = db.add_file("fixture.des", text.as_bytes(), None);
    (db, file, TextSize::from(offset as u32))
}

fn slice(db: &RootDatabase, file: SourceFile, range: levkit_diagnostics::TextRange) -> String {
    file.text(db)[range].to_string()
}

fn check_hover(text: &str, expected: Expect) {
    let (db, file, offset) = fixture(text);
    let hover = levkit_ide::hover::hover(&db, file, offset).expect("a hover");
    expected.assert_eq(&format!(
        "[{}]\n{}",
        slice(&db, file, hover.range),
        hover.markdown
    ));
}

fn check_completion(text: &str, expected: Expect) {
    let (db, file, offset) = fixture(text);
    let labels: Vec<String> = levkit_ide::completion::completions(&db, None, file, offset)
        .into_iter()
        .map(|c| c.label)
        .take(12)
        .collect();
    expected.assert_eq(&labels.join(" "));
}

fn check_definition(text: &str, expected: Expect) {
    let (db, file, offset) = fixture(text);
    let found: Vec<String> = levkit_ide::navigation::goto_definition(&db, None, file, offset)
        .into_iter()
        .map(|l| slice(&db, file, l.range))
        .collect();
    expected.assert_eq(&found.join(", "));
}

const MAZE: &str = "MAZE:\"fort\",' '\nGEOMETRY:center,center\nMAP\n-----\n|.{.|\n-----\nENDMAP\nRANDOM_PLACES:(1,1),(3,1)\n";

#[test]
fn hover_on_a_statement_keyword() {
    check_hover(
        &format!("{MAZE}MONS$0TER:'d',\"jackal\",(1,1)\n"),
        expect![[r#"
        [MONSTER]
        **MONSTER** — Places a monster.

        ```
        MONSTER[chance%]: class, name, coordinate [, "name"] [, peaceful|hostile] [, asleep|awake] [, alignment] [, m_feature|m_object "what"]
        ```

        The class is a monster class character, `monster[i]` or `random`. The name is looked up only within a class character: with `random` or a register the monster is random. A chance `[n%]` makes it appear with that probability. Only priests and Angels accept an alignment; appearances work on mimics only."#]],
    );
}

#[test]
fn hover_on_a_monster_name() {
    check_hover(
        &format!("{MAZE}MONSTER:'d',\"jac$0kal\",(1,1)\n"),
        expect![[r#"
        ["jackal"]
        **jackal** — monster of class `'d'` (one of 15), index 12 in the game's monster table"#]],
    );
}

#[test]
fn hover_on_a_map_cell() {
    check_hover(
        "MAZE:\"fort\",' '\nGEOMETRY:center,center\nMAP\n-----\n|.$0{.|\n-----\nENDMAP\n",
        expect![[r#"
        [{]
        **`{`** — a fountain

        Map cell (2, 1); on the level at (39, 10)"#]],
    );
}

#[test]
fn hover_on_a_coordinate_and_a_register() {
    check_hover(
        &format!("{MAZE}FOUNTAIN:(2,$01)\n"),
        expect![[r#"
        [(2,1)]
        **(2, 1)** — the map has `{` (a fountain) here; on the level at (39, 10)"#]],
    );
    check_hover(
        &format!("{MAZE}MONSTER:'d',\"jackal\",pla$0ce[1]\n"),
        expect![[r#"
        [place[1]]
        **place[1]** — entry 1 of the list, `(3,1)`; the game shuffles the list each time the level is made, so this is one of its entries picked at random"#]],
    );
}

#[test]
fn completion_of_statement_keywords_in_a_map_part() {
    check_completion(&format!("{MAZE}$0\n"), expect!["MAZE LEVEL"]);
}

#[test]
fn completion_of_values_and_names() {
    check_completion(
        &format!("{MAZE}DOOR:$0\n"),
        expect!["random open closed locked nodoor broken"],
    );
    check_completion(
        &format!("{MAZE}MONSTER:'d',\"$0\n"),
        expect![
            "jackal fox coyote werejackal little dog dog large dog dingo wolf werewolf warg winter wolf cub"
        ],
    );
    check_completion(
        &format!("{MAZE}TRAP:\"$0\n"),
        expect![
            "arrow dart falling rock board bear land mine rolling boulder sleep gas rust fire pit spiked pit"
        ],
    );
}

#[test]
fn definition_of_registers_and_room_parents() {
    check_definition(
        &format!("{MAZE}MONSTER:'d',\"jackal\",place[$01]\n"),
        expect!["(3,1)"],
    );
    check_definition(
        "LEVEL:\"r\"\nROOM:\"ordinary\",lit,(3,3),(center,center),(9,9)\nNAME:\"hall\"\nSUBROOM:\"shop\",lit,(1,1),(3,3),\"ha$0ll\"\n",
        expect![[r#""hall""#]],
    );
}

#[test]
fn outline_of_a_maze() {
    let (db, file, _) = fixture(&format!("$0{MAZE}"));
    let symbols = levkit_ide::structure::document_symbols(&db, file);
    let outline: Vec<String> = symbols
        .iter()
        .flat_map(|s| {
            std::iter::once(format!("{} {:?}", s.name, s.detail)).chain(
                s.children
                    .iter()
                    .map(|c| format!("  {} {:?}", c.name, c.detail)),
            )
        })
        .collect();
    expect![[r#"
        fort Some("MAZE")
          GEOMETRY:center,center Some("5x3")"#]]
    .assert_eq(&outline.join("\n"));
}

fn rlg_fixture(text: &str) -> (RootDatabase, SourceFile, TextSize) {
    let offset = text.find("$0").expect("a $0 cursor marker");
    let text = text.replacen("$0", "", 1);
    let mut db = RootDatabase::default();
    let file = db.add_file("monster_desc.txt", text.as_bytes(), None);
    (db, file, TextSize::from(offset as u32))
}

const RAT: &str = "RLG327 MONSTER DESCRIPTION 1\n\nBEGIN MONSTER\nNAME Rat\nSPEED 10+2d4\n";

#[test]
fn rlg327_hover_on_dice_shows_range_mean_and_spread() {
    let (db, file, offset) = rlg_fixture(&RAT.replace("10+2d4", "10+2$0d4"));
    let hover = levkit_ide::hover::hover(&db, file, offset).unwrap();
    expect![[r#"
        **10+2d4** — from 12 to 18, 15.0 on average

        ```
            12..13      18.8% ########
            14..14      18.8% ########
            15..16      43.8% ##################
            17..17      12.5% #####
            18..18       6.2% ###
        ```"#]]
    .assert_eq(&hover.markdown);
}

#[test]
fn rlg327_completion_offers_missing_fields_and_values() {
    let (db, file, offset) = rlg_fixture(&format!("{RAT}$0"));
    let labels: Vec<String> = levkit_ide::completion::completions(&db, None, file, offset)
        .into_iter()
        .map(|c| c.label)
        .collect();
    expect!["DESC SYMB COLOR ABIL HP DAM RRTY END"].assert_eq(&labels.join(" "));
    let (db, file, offset) = rlg_fixture(&format!("{RAT}ABIL SMART $0"));
    let labels: Vec<String> = levkit_ide::completion::completions(&db, None, file, offset)
        .into_iter()
        .map(|c| c.label)
        .collect();
    expect!["SMART TELE TUNNEL ERRATIC PASS PICKUP DESTROY UNIQ BOSS"].assert_eq(&labels.join(" "));
}

/// The preview's overlays drawn over the map part: region outlines listed, and the expected
/// number of placed things per cell in tenths (`.` for none).
fn check_preview_overlays(text: &str, expected: Expect) {
    let mut db = RootDatabase::default();
    let file = db.add_file("fixture.des", text.as_bytes(), None);
    let preview = levkit_ide::preview::preview(&db, file, None).expect("a preview");
    let mut out = String::new();
    for r in &preview.regions {
        out += &format!("({},{})-({},{}) {}\n", r.x1, r.y1, r.x2, r.y2, r.what);
    }
    let span = |coord: fn(&levkit_ide::preview::PreviewHeat) -> usize| {
        let min = preview.heat.iter().map(coord).min().unwrap_or(0);
        let max = preview.heat.iter().map(coord).max().map_or(0, |m| m + 1);
        min..max
    };
    let (xs, ys) = (span(|h| h.x), span(|h| h.y));
    for y in ys {
        out += &format!("{y:2} ");
        for x in xs.clone() {
            let expected = preview
                .heat
                .iter()
                .find(|h| (h.x, h.y) == (x, y))
                .map_or(0.0, |h| h.expected);
            out += &if expected == 0.0 {
                " .".to_string()
            } else {
                format!("{:2}", (expected * 10.0).round())
            };
        }
        out += "\n";
    }
    expected.assert_eq(&out);
}

#[test]
fn preview_overlays_show_regions_and_where_things_land() {
    check_preview_overlays(
        r#"MAZE:"overlay",' '
GEOMETRY:center,center
MAP
------
|....|
|.--.|
|....|
------
ENDMAP
RANDOM_PLACES:(1,1),(4,3)
REGION:(1,1,4,3),lit,"ordinary"
NON_DIGGABLE:(0,0,5,4)
MONSTER:'d',"jackal",(1,1)
MONSTER:'d',"jackal",random
OBJECT:'(',random,place[0]
TRAP[50%]:"pit",(4,1)
"#,
        expect![[r#"
            (38,10)-(41,12) lit region (ordinary)
            (37,9)-(42,13) walls that cannot be dug
            10 16 1 1 6
            11  1 . . 1
            12  1 1 1 6
        "#]],
    );
}
