//! Editor features on small fixtures: `$0` marks the cursor, and the expectation beside each
//! test is what the feature answers there (`UPDATE_EXPECT=1` rewrites them).

use expect_test::{Expect, expect};
use levkit_diagnostics::{TextRange, TextSize};
use levkit_ide::{Analysis, AnalysisHost, FileId, Preview, PreviewRequest};

/// A file named `name` holding `text`, with the offset of its `$0` cursor marker.
fn fixture_named(name: &str, text: &str) -> (Analysis, FileId, TextSize) {
    let offset = text.find("$0").expect("a $0 cursor marker");
    let text = text.replacen("$0", "", 1);
    let mut host = AnalysisHost::new();
    let file = host.set_file_bytes(name, text.as_bytes());
    (host.analysis(), file, TextSize::from(offset as u32))
}

fn fixture(text: &str) -> (Analysis, FileId, TextSize) {
    fixture_named("fixture.des", text)
}

fn slice(analysis: &Analysis, file: FileId, range: TextRange) -> String {
    analysis.file_text(file).unwrap()[range].to_string()
}

fn check_hover(text: &str, expected: Expect) {
    let (analysis, file, offset) = fixture(text);
    let hover = analysis.hover(file, offset).unwrap().expect("a hover");
    expected.assert_eq(&format!(
        "[{}]\n{}",
        slice(&analysis, file, hover.range),
        hover.markdown
    ));
}

fn labels(analysis: &Analysis, file: FileId, offset: TextSize) -> Vec<String> {
    analysis
        .completions(file, offset)
        .unwrap()
        .into_iter()
        .map(|c| c.label)
        .collect()
}

fn check_completion(text: &str, expected: Expect) {
    let (analysis, file, offset) = fixture(text);
    let labels: Vec<String> = labels(&analysis, file, offset)
        .into_iter()
        .take(12)
        .collect();
    expected.assert_eq(&labels.join(" "));
}

fn check_definition(text: &str, expected: Expect) {
    let (analysis, file, offset) = fixture(text);
    let found: Vec<String> = analysis
        .goto_definition(file, offset)
        .unwrap()
        .into_iter()
        .map(|l| slice(&analysis, file, l.range))
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
            **jackal** — monster of class `'d'` (dog or other canine, one of 15), index 12 in the game's monster table

            | level | speed | AC | magic resistance | alignment |
            | --- | --- | --- | --- | --- |
            | 0 | 12 | 7 | 0% | 0 (neutral) |

            **attacks** bite physical 1d2

            **resists** none

            small, weight 300, comes in small groups, genocidable"#]],
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

fn outline(text: &str) -> String {
    fn walk(symbols: &[levkit_ide::Symbol], depth: usize, out: &mut Vec<String>) {
        for s in symbols {
            let detail = s
                .detail
                .as_ref()
                .map_or(String::new(), |d| format!("  [{d}]"));
            out.push(format!("{}{}{detail}", "  ".repeat(depth), s.name));
            walk(&s.children, depth + 1, out);
        }
    }
    let (analysis, file, _) = fixture(text);
    let mut out = Vec::new();
    walk(&analysis.symbols(file).unwrap(), 0, &mut out);
    out.join("\n")
}

#[test]
fn outline_of_a_maze() {
    expect![[r#"
        fort  [MAZE]
          GEOMETRY:center,center  [5x3]
            registers  [1]
              RANDOM_PLACES  [(1,1),(3,1)]"#]]
    .assert_eq(&outline(&format!("$0{MAZE}")));
}

#[test]
fn the_outline_groups_what_a_map_part_places() {
    let text = format!(
        "$0{MAZE}RANDOM_MONSTERS:'L','D'\nREGION:(0,0,4,2),lit,\"ordinary\"\nNON_DIGGABLE:(0,0,4,2)\nMONSTER:'@',\"soldier\",(1,1)\nMONSTER:'@',\"soldier\",(3,1)\nMONSTER:'L',\"master lich\",place[0]\nMONSTER:'D',random,random\nOBJECT:'(',\"chest\",(1,1)\nTRAP:\"pit\",(3,1)\nDOOR:locked,(2,0)\nFOUNTAIN:(2,1)\nMONSTER:'@',\"soldier\",(2,1)\n"
    );
    expect![[r#"
        fort  [MAZE]
          GEOMETRY:center,center  [5x3]
            registers  [2]
              RANDOM_PLACES  [(1,1),(3,1)]
              RANDOM_MONSTERS  ['L','D']
            regions  [2]
              REGION:(0,0,4,2),lit,"ordinary"
              NON_DIGGABLE:(0,0,4,2)
            monsters  [5]
              soldier  [×3]
                soldier  [(1,1)]
                soldier  [(3,1)]
                soldier  [(2,1)]
              master lich  [place[0]]
              random 'D'  [random]
            objects  [1]
              chest  [(1,1)]
            traps  [1]
              pit  [(3,1)]
            doors  [1]
              locked door  [(2,0)]
            features  [1]
              FOUNTAIN:(2,1)"#]]
    .assert_eq(&outline(&text));
}

fn rlg_fixture(text: &str) -> (Analysis, FileId, TextSize) {
    fixture_named("monster_desc.txt", text)
}

const RAT: &str = "RLG327 MONSTER DESCRIPTION 1\n\nBEGIN MONSTER\nNAME Rat\nSPEED 10+2d4\n";

#[test]
fn rlg327_hover_on_dice_shows_range_mean_and_spread() {
    let (analysis, file, offset) = rlg_fixture(&RAT.replace("10+2d4", "10+2$0d4"));
    let hover = analysis.hover(file, offset).unwrap().unwrap();
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
    let (analysis, file, offset) = rlg_fixture(&format!("{RAT}$0"));
    expect!["DESC SYMB COLOR ABIL HP DAM RRTY END"]
        .assert_eq(&labels(&analysis, file, offset).join(" "));
    let (analysis, file, offset) = rlg_fixture(&format!("{RAT}ABIL SMART $0"));
    expect!["SMART TELE TUNNEL ERRATIC PASS PICKUP DESTROY UNIQ BOSS"]
        .assert_eq(&labels(&analysis, file, offset).join(" "));
}

/// The preview's overlays drawn over the map part: region outlines listed, and the expected
/// number of placed things per cell in tenths (`.` for none).
fn check_preview_overlays(text: &str, expected: Expect) {
    let mut host = AnalysisHost::new();
    let file = host.set_file_bytes("fixture.des", text.as_bytes());
    let Preview::Level(preview) = host
        .analysis()
        .preview(file, &PreviewRequest::default())
        .unwrap()
    else {
        panic!("a level preview");
    };
    let mut out = String::new();
    for r in &preview.regions {
        out += &format!("({},{})-({},{}) {}\n", r.x1, r.y1, r.x2, r.y2, r.what);
    }
    let span = |coord: fn(&levkit_ide::Heat) -> usize| {
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

const KEEP: &str = r#"MAZE:"keep",' '
GEOMETRY:center,center
MAP
------
|....|
------
ENDMAP
MONSTER:'L',"master lich",(1,1)
MONSTER:'D',random,(2,1)
OBJECT:random,random,(3,1)
TRAP:"pit",random
"#;

fn level_preview(text: &str, request: &PreviewRequest) -> levkit_ide::LevelPreview {
    let mut host = AnalysisHost::new();
    let file = host.set_file_bytes("keep.des", text.as_bytes());
    match host.analysis().preview(file, request).unwrap() {
        Preview::Level(level) => *level,
        _ => panic!("a level preview"),
    }
}

/// The panel may ask for a level by a name the file no longer has (renamed since): it gets
/// the first level, and a note that says so.
#[test]
fn a_level_asked_for_by_a_stale_name_is_the_first_with_a_note() {
    let request = PreviewRequest {
        level: Some("renamed".into()),
        ..PreviewRequest::default()
    };
    let preview = level_preview(KEEP, &request);
    assert_eq!(preview.level, "keep");
    assert_eq!(
        preview.notes.first().map(String::as_str),
        Some("this file has no level \"renamed\": showing \"keep\", its first")
    );
    let asked = PreviewRequest {
        level: Some("keep".into()),
        ..PreviewRequest::default()
    };
    assert!(
        !level_preview(KEEP, &asked)
            .notes
            .iter()
            .any(|n| n.contains("no level"))
    );
}

#[test]
fn a_built_square_links_to_its_map_character_and_a_thing_to_its_statement() {
    let preview = level_preview(KEEP, &PreviewRequest::default());
    assert!(preview.generated);
    let text_of = |cell: &levkit_ide::Cell| {
        let source = cell.source.expect("a source");
        KEEP[source.start as usize..source.end as usize].to_string()
    };
    // The map is drawn at (37, 9): its top-left wall and a floor square.
    let at = |x, y| {
        preview
            .cells
            .iter()
            .find(|c| (c.x, c.y) == (x, y))
            .expect("a cell")
    };
    let corner = at(37, 9);
    assert_eq!(
        (corner.glyph.as_str(), text_of(corner).as_str()),
        ("-", "-")
    );
    assert_eq!(corner.source.unwrap().line, 3);
    let floor = at(41, 10);
    assert_eq!(text_of(floor), ".");
    assert_eq!(
        (floor.source.unwrap().line, floor.source.unwrap().column),
        (4, 4)
    );
    let lich = at(38, 10);
    assert_eq!(lich.glyph, "L");
    assert_eq!(text_of(lich), "MONSTER:'L',\"master lich\",(1,1)");
    assert!(lich.color.is_some());
}

#[test]
fn the_legend_names_what_the_picture_shows_by_glyph_and_colour() {
    let preview = level_preview(KEEP, &PreviewRequest::default());
    let legend: Vec<String> = preview
        .legend
        .iter()
        .map(|l| {
            format!(
                "{} {} {}",
                l.glyph,
                l.color.as_deref().unwrap_or("-"),
                l.meaning
            )
        })
        .collect();
    expect![[r#"
        - #aaa wall
        | #aaa wall
        L #a3a master lich
        D #f6f random dragon
        O #6ff random object
        . #aaa floor"#]]
    .assert_eq(&legend.join("\n"));
}

#[test]
fn heat_comes_per_kind_expected_or_sampled_and_says_why_it_is_empty() {
    let layers = |preview: &levkit_ide::LevelPreview| {
        preview
            .heatmaps
            .iter()
            .map(|h| {
                format!(
                    "{} {} {:?} max {:.2} on {} squares{}",
                    h.kind,
                    h.mode,
                    h.seeds,
                    h.max,
                    h.cells.len(),
                    h.note.as_ref().map_or(String::new(), |n| format!(": {n}"))
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let no_traps = KEEP.replace("TRAP:\"pit\",random\n", "");
    expect![[r#"
        all expected None max 1.00 on 3 squares
        monsters expected None max 1.00 on 2 squares
        objects expected None max 1.00 on 1 squares
        traps expected None max 0.00 on 0 squares: no statement of this level places traps"#]]
    .assert_eq(&layers(&level_preview(
        &no_traps,
        &PreviewRequest::default(),
    )));
    let sampled = PreviewRequest {
        sample: Some((1, 40)),
        ..PreviewRequest::default()
    };
    expect![[r#"
        all sampled Some([1, 40]) max 1.00 on 3 squares
        monsters sampled Some([1, 40]) max 1.00 on 2 squares
        objects sampled Some([1, 40]) max 1.00 on 1 squares
        traps sampled Some([1, 40]) max 0.00 on 0 squares: none of the 40 builds placed traps"#]]
    .assert_eq(&layers(&level_preview(&no_traps, &sampled)));
    let rooms = "LEVEL:\"hall\"\nROOM:\"ordinary\",lit,random,random,random\nMONSTER:'d',\"jackal\",random\n";
    let preview = level_preview(rooms, &PreviewRequest::default());
    assert!(
        preview.heatmaps[1]
            .note
            .as_deref()
            .is_some_and(|n| n.contains("sample over seeds")),
        "{:?}",
        preview.heatmaps[1]
    );
}

#[test]
fn the_preview_says_where_each_level_begins() {
    let two = format!(
        "# two levels\n{KEEP}{}",
        KEEP.replace("\"keep\"", "\"tower\"")
    );
    let preview = level_preview(&two, &PreviewRequest::default());
    assert_eq!(preview.levels, ["keep", "tower"]);
    assert_eq!(preview.level_lines, [1, 12]);
}

#[test]
fn a_broken_level_carries_its_first_error_and_a_sketch() {
    let broken = KEEP.replace("MONSTER:'D',random,(2,1)", "MONSTER:'D',ran(");
    let preview = level_preview(&broken, &PreviewRequest::default());
    assert!(!preview.generated);
    let error = preview.error.expect("the error");
    assert_eq!(error.source.line, 8);
    assert_eq!(preview.rows[9].trim(), "------");
    assert!(preview.title.unwrap().contains("not built"));
}

/// The preview of `text` as the file `name`.
fn preview_named(name: &str, text: &str) -> Preview {
    let mut host = AnalysisHost::new();
    let file = host.set_file_bytes(name, text.as_bytes());
    host.analysis()
        .preview(file, &PreviewRequest::default())
        .unwrap()
}

#[test]
fn broken_cards_and_overviews_carry_their_first_error_as_a_broken_level_does() {
    let rats = "RLG327 MONSTER DESCRIPTION 1\n\nBEGIN MONSTER\nNAME Rat\nSYMB r\nCOLOR RED\nDESC\nA rat.\n.\nSPEED 10+2d4\nDAM 0+1d3\nHP 5+1d4\nABIL SMART\nRRTY 50\nEND\n\nBEGIN MONSTER\nNAME Bear\nSYMB B\nCOLOR RED\nDESC\nA bear.\n.\nSPEED 10+2d4\nDAM 0+1d3\nHP 5+1d4\nABIL SMART\nRRTY 20\nEND\n";
    let dungeon = "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nBRANCH: \"The Gnomish Mines\" @ (2, 3)\nLEVEL: \"oracle\" \"O\" @ (5, 5)\nDUNGEON: \"The Gnomish Mines\" \"M\" (8, 2)\nLEVEL: \"minetn\" \"T\" @ (3, 2)\n";
    for (name, good, broken, line) in [
        (
            "monster_desc.txt",
            rats.to_string(),
            rats.replace(
                "DAM 0+1d3\nHP 5+1d4\nABIL SMART\nRRTY 50",
                "DAM 0+1d\nHP 5+1d4\nABIL SMART\nRRTY 50",
            ),
            10,
        ),
        (
            "dungeon.def",
            dungeon.to_string(),
            dungeon.replace("@ (5, 5)", "@ (5,"),
            2,
        ),
    ] {
        let whole = preview_named(name, &good);
        assert!(whole.is_whole() && whole.error().is_none(), "{name}");
        // The wire has the field as a level's has it: `null` when there is no error.
        let json = serde_json::to_value(&whole).unwrap();
        assert_eq!(json["error"], serde_json::Value::Null, "{name}");
        let preview = preview_named(name, &broken);
        assert!(!preview.is_whole(), "{name}");
        let error = preview.error().expect("the first error");
        assert_eq!(error.source.line, line, "{name}: {}", error.message);
        assert_eq!(error.range.start.line, line, "{name}");
        assert!(
            preview.title().unwrap().contains("has errors"),
            "{name}: {:?}",
            preview.title()
        );
        let json = serde_json::to_value(&preview).unwrap();
        assert_eq!(json["error"]["source"]["line"], line, "{name}");
    }
    // The entry with the error has no card, and a note says so, naming it.
    let Preview::Cards(cards) = preview_named(
        "monster_desc.txt",
        &rats.replace(
            "DAM 0+1d3\nHP 5+1d4\nABIL SMART\nRRTY 50",
            "DAM 0+1d\nHP 5+1d4\nABIL SMART\nRRTY 50",
        ),
    ) else {
        panic!("cards")
    };
    assert_eq!(cards.cards.len(), 1);
    assert_eq!(
        cards.notes,
        ["the MONSTER entry \"Rat\" at line 3 has errors: it has no card until they are fixed"]
    );
}

#[test]
fn a_blank_line_after_a_level_completes_that_level_s_statements() {
    // The line break after the level's last statement belongs to the file, not the level.
    check_completion(
        &format!("{MAZE}$0\n"),
        expect![
            "MAZE LEVEL FLAGS INIT_MAP MESSAGE GEOMETRY MAP ENDMAP NOMAP RANDOM_OBJECTS RANDOM_PLACES RANDOM_MONSTERS"
        ],
    );
    check_completion(
        "LEVEL:\"r\"\nROOM:\"ordinary\",lit,(3,3),(center,center),(9,9)\n\n$0",
        expect![
            "MAZE LEVEL FLAGS INIT_MAP MESSAGE RANDOM_OBJECTS RANDOM_MONSTERS OBJECT CONTAINER MONSTER TRAP DOOR"
        ],
    );
}

/// Words only one dialect's features may answer with (in completions, or as the subject of a
/// hover): another dialect's answer in a file is a fallback bug. Each word is one that a
/// dialect owning it answers with somewhere in [`MIXED`] (the test checks that too), so that
/// another dialect offering it would be caught. `unknown` answers nothing, so owns nothing.
const OWN_WORDS: &[(&str, &[&str])] = &[
    ("nethack", &["MAZE", "GEOMETRY", "MAZEWALK", "jackal"]),
    ("nethack-dungeon", &["DUNGEON", "RNDLEVEL", "CHAINBRANCH"]),
    ("rlg327-monster", &["SYMB", "ABIL", "RRTY"]),
    ("rlg327-object", &["SYMB", "ABIL", "RRTY"]),
    ("dcss", &["SUBST", "NSUBST", "KFEAT", "KMONS", "SHUFFLE"]),
    ("unknown", &[]),
];

/// A text that holds a bit of every dialect, so that a feature tempted to answer for another
/// dialect finds something to answer about.
const MIXED: &str = "MAZE:\"fort\",' '\nGEOMETRY:center,center\nMAP\n.\nENDMAP\nMONSTER:'d',\"jackal\",(0,0)\nDUNGEON: \"Main\" \"M\" (20, 5)\nRNDLEVEL: \"big\" \"B\" @ (8, 2) 2\nBEGIN MONSTER\nNAME Rat\nSYMB r\nABIL SMART\nEND\nNAME: vault\nSUBST: x = .\nKFEAT: x = altar_zin\nMAP\n...\nENDMAP\n";

#[test]
fn every_dialect_answers_every_feature_without_another_dialect_s_answers() {
    use levkit_syntax::Dialect;
    // The words of OWN_WORDS each dialect answered with.
    let mut answered: Vec<(&str, String)> = Vec::new();
    for dialect in Dialect::ALL {
        let mut host = AnalysisHost::new();
        let file = host.set_file_bytes("mixed.des", MIXED.as_bytes());
        host.set_dialect_override(file, Some(dialect));
        let analysis = host.analysis();
        let foreign: Vec<&str> = OWN_WORDS
            .iter()
            .filter(|(name, _)| *name != dialect.name())
            .flat_map(|(_, words)| words.iter().copied())
            .filter(|w| {
                !OWN_WORDS
                    .iter()
                    .any(|(name, own)| *name == dialect.name() && own.contains(w))
            })
            .collect();
        for offset in 0..=MIXED.len() {
            let offset = TextSize::from(offset as u32);
            for label in labels(&analysis, file, offset) {
                assert!(
                    !foreign.contains(&label.as_str()),
                    "{}: completion offers {label}",
                    dialect.name()
                );
                answered.push((dialect.name(), label));
            }
            if let Some(hover) = analysis.hover(file, offset).unwrap() {
                for word in &foreign {
                    assert!(
                        !hover.markdown.starts_with(&format!("**{word}")),
                        "{}: hover explains {word}",
                        dialect.name()
                    );
                }
                let subject = hover.markdown.trim_start_matches('*');
                let mut subject = subject.split(|c: char| c == '*' || c.is_whitespace());
                answered.push((dialect.name(), subject.next().unwrap_or("").to_string()));
            }
            analysis.goto_definition(file, offset).unwrap();
            analysis.references(file, offset).unwrap();
            analysis.selection_ranges(file, offset).unwrap();
        }
        analysis.symbols(file).unwrap();
        analysis.folding_ranges(file).unwrap();
        analysis.highlights(file).unwrap();
        analysis.inlay_hints(file, None).unwrap();
        analysis.preview(file, &PreviewRequest::default()).unwrap();
        analysis.compile(file, levkit_ide::Emit::Files).unwrap();
        assert!(!analysis.diagnostics(file).unwrap().is_empty() || dialect == Dialect::NethackDes);
    }
    // A word no owner answers with would check nothing.
    for (_, words) in OWN_WORDS {
        for word in *words {
            assert!(
                answered.iter().any(|(name, answer)| answer == word
                    && OWN_WORDS
                        .iter()
                        .any(|(owner, own)| owner == name && own.contains(word))),
                "no dialect that owns {word} answers with it in MIXED"
            );
        }
    }
}

#[test]
fn a_vault_gets_its_own_completion_and_hover_and_an_unknown_file_none() {
    for (name, text, outline) in [
        (
            "vault.des",
            "NAME: my_vault\nTAGS: transparent\nMAP\nxxx\nx.x\nENDMAP\n$0",
            &["my_vault"][..],
        ),
        ("notes.des", "some notes about MAZE levels\n$0", &[][..]),
    ] {
        let (analysis, file, offset) = fixture_named(name, text);
        let maze = TextSize::from(text.find("MAZE").or(text.find("MAP")).unwrap() as u32);
        let hover = analysis.hover(file, maze).unwrap();
        if name == "vault.des" {
            // The vault's own: crawl's headers, crawl's MAP.
            let labels = labels(&analysis, file, offset);
            assert!(labels.contains(&"NAME".to_string()) && !labels.contains(&"MAZE".to_string()));
            assert!(
                hover
                    .unwrap()
                    .markdown
                    .contains("Each byte of a row is one cell")
            );
        } else {
            assert!(labels(&analysis, file, offset).is_empty(), "{name}");
            assert_eq!(hover, None, "{name}");
        }
        let symbols: Vec<String> = analysis
            .symbols(file)
            .unwrap()
            .into_iter()
            .map(|s| s.name)
            .collect();
        assert_eq!(symbols, outline, "{name}");
        match analysis.preview(file, &PreviewRequest::default()).unwrap() {
            // The vault as crawl places it; the notes, nothing.
            Preview::Level(level) if name == "vault.des" => {
                assert_eq!(level.levels, ["my_vault"]);
                // Two rows of three, perhaps turned.
                let cells: usize = level.rows.iter().map(|r| r.chars().count()).sum();
                assert_eq!(cells, 6, "{name}: {:?}", level.rows);
            }
            Preview::Nothing(nothing) if name != "vault.des" => {
                assert!(!nothing.notes.is_empty(), "{name}: a nothing says why");
            }
            _ => panic!("{name}: previewed as something else"),
        }
    }
}
