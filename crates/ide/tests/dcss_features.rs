//! Editor features on DCSS vault files: `$0` marks the cursor, and the expectation beside
//! each test is what the feature answers there (`UPDATE_EXPECT=1` rewrites them).

use expect_test::{Expect, expect};
use levkit_diagnostics::{TextRange, TextSize};
use levkit_ide::{Analysis, AnalysisHost, FileId};

/// `text` as `vaults.des` (with other files beside it), and the offset of its `$0` marker.
fn fixture_with(text: &str, others: &[(&str, &str)]) -> (Analysis, FileId, TextSize) {
    let offset = text.find("$0").expect("a $0 cursor marker");
    let text = text.replacen("$0", "", 1);
    let mut host = AnalysisHost::new();
    let file = host.set_file_bytes("vaults.des", text.as_bytes());
    for (name, other) in others {
        host.set_file_bytes(*name, other.as_bytes());
    }
    (host.analysis(), file, TextSize::from(offset as u32))
}

fn fixture(text: &str) -> (Analysis, FileId, TextSize) {
    fixture_with(text, &[])
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

const VAULT: &str = "NAME: garden\nTAGS: transparent garden_room\nDEPTH: D:4-9, Lair\nMONS: goblin / kobold w:5\nITEM: potion of curing\nKMONS: P = plant\nKFEAT: _ = altar_zin\nSUBST: ? = P:60 .\nNSUBST: a = 2=_ / *=.\nMAP\nxxxxxxx\nx?.1.dx\nx.aaa.@\nxxxxxxx\nENDMAP\n";

fn at(marker: &str, text: &str) -> String {
    text.replacen(marker, &format!("$0{marker}"), 1)
}

#[test]
fn hover_on_headers() {
    check_hover(
        &at("NSUBST", VAULT),
        expect![[r#"
            [NSUBST]
            **NSUBST** — Replaces given numbers of cells of some glyphs.

            ```
            NSUBST: glyphs = count=choices / count:choices / * = choices, ...
            ```

            The cells holding the glyphs are shuffled and handed out segment by segment: a count of cells, or `*` for the rest. A segment without a count means 1, except the last, which means the rest. Cells beyond the counts keep their glyph."#]],
    );
}

#[test]
fn hover_on_map_glyphs() {
    // A glyph through a SUBST, then KMONS on one of its outcomes.
    check_hover(
        &at("?.1", VAULT),
        expect![[r#"
        [?]
        **Map glyph `?`**

        SUBST `? = P:60 .` (line 8)

        - `P` 86%: floor; the monster `plant` (line 6)

        - `.` 14%: floor"#]],
    );
    // A glyph through an NSUBST onto a KFEAT.
    check_hover(
        &at("aaa", VAULT),
        expect![[r#"
        [a]
        **Map glyph `a`**

        NSUBST `a = 2=_ / *=.` (line 9)

        - `_` 67%: the feature `altar_zin` (line 7)

        - `.` 33%: floor"#]],
    );
    // A MONS slot and an ITEM slot.
    check_hover(
        &at("1.dx", VAULT),
        expect![[r#"
        [1]
        **Map glyph `1`** — the monster of MONS entry 1: `goblin / kobold w:5` (line 4)"#]],
    );
    check_hover(
        &at("dx\n", VAULT),
        expect![[r#"
        [d]
        **Map glyph `d`** — the item of ITEM entry 1: `potion of curing` (line 5)"#]],
    );
    // A glyph with crawl's own meaning.
    check_hover(
        &at("@\nxxxxxxx\nEND", VAULT),
        expect![[r#"
        [@]
        **Map glyph `@`** — floor; preferred entry/exit point when on the map edge"#]],
    );
}

#[test]
fn hover_on_values() {
    check_hover(
        &at("Lair", VAULT),
        expect![[r#"
        [D:4-9, Lair]
        **D:4-9, Lair** — Dungeon 4–9, every Lair level"#]],
    );
    check_hover(
        &at("transparent", VAULT),
        expect![[r#"
        [transparent]
        **transparent** — vault area counts as connected to the surrounding level (others may path through it) (flag tag)"#]],
    );
    check_hover(
        &at("garden_room", VAULT),
        expect![[r#"
        [garden_room]
        **garden_room** — a tag of this vault: crawl does not act on it, but SUBVAULTs, Lua and crawl's builders may pick vaults by it"#]],
    );
    check_hover(
        &at("kobold", VAULT),
        expect![[r#"
        [kobold w:5]
        **kobold** — monster `K` (brown)

        Also as a zombie, skeleton, simulacrum, spectral thing (`kobold zombie`...). Leaves a corpse."#]],
    );
    check_hover(
        &at("curing", VAULT),
        expect![[r#"
        [potion of curing]
        **potion of curing** — item (potions)"#]],
    );
    check_hover(
        &at("altar_zin", VAULT),
        expect![[r#"
        [altar_zin]
        **altar_zin** — dungeon feature: glowing silver altar of Zin (lightgrey)"#]],
    );
    // The key of a glyph-keyed header: the glyph's story.
    check_hover(
        &at("P = plant", VAULT),
        expect![[r#"
        [P]
        **Map glyph `P`** — floor; the monster `plant` (line 6)"#]],
    );
    check_hover(
        "default-depth: Elf:2-, !Zot:$$0\n",
        expect![[r#"
            [Elf:2-, !Zot:$]
            **Elf:2-, !Zot:$** — Elven Halls 2–3, except the last level of Zot (Zot 5)"#]],
    );
    check_hover(
        "NAME: w\nWEIGHT: 5 (D:$03), 10\n",
        expect![[r#"
            [D:3]
            **D:3** — Dungeon 3"#]],
    );
}

#[test]
fn map_glyphs_are_highlighted_by_what_they_become() {
    let (analysis, file, _) = fixture(&format!("$0{VAULT}"));
    let text = analysis.file_text(file).unwrap();
    let map = text.find("MAP\n").unwrap() as u32;
    let shown: Vec<String> = analysis
        .highlights(file)
        .unwrap()
        .into_iter()
        .filter(|h| u32::from(h.range.start()) > map + 3)
        .filter(|h| h.kind != levkit_ide::HighlightKind::Keyword)
        .map(|h| format!("{} {}", &text[h.range], h.kind.name()))
        .collect();
    expect![[r#"
        xxxxxxx mapWall
        x mapWall
        ? mapMonster
        . mapFloor
        1 mapMonster
        . mapFloor
        d mapItem
        x mapWall
        x mapWall
        . mapFloor
        aaa mapFeature
        .@ mapFloor
        xxxxxxx mapWall"#]]
    .assert_eq(&shown.join("\n"));
}

fn check_completion(text: &str, expected: Expect) {
    let (analysis, file, offset) = fixture_with(
        text,
        &[(
            "other.des",
            "NAME: other\nTAGS: garden_corner\nMAP\n.\nENDMAP\n",
        )],
    );
    let completions = analysis.completions(file, offset).unwrap();
    let replaced = completions
        .first()
        .map(|c| slice(&analysis, file, c.replace))
        .unwrap_or_default();
    let labels: Vec<String> = completions.into_iter().take(10).map(|c| c.label).collect();
    expected.assert_eq(&format!("[{replaced}] {}", labels.join(" | ")));
}

#[test]
fn completion_of_headers_and_values() {
    check_completion(
        "NAME: v\nK$0\n",
        expect!["[K] KFEAT | KITEM | KMASK | KMONS | KPROP"],
    );
    check_completion("NAME: v\nMONS: orc, gobl$0\n", expect!["[gobl] goblin"]);
    check_completion(
        "NAME: v\nMONS: orc priest ; potion of c$0\n",
        expect!["[potion of c] potion of curing | potion of cancellation"],
    );
    check_completion(
        "NAME: v\nKMONS: P = orc wa$0\n",
        expect!["[orc wa] orc warrior | orc warlord"],
    );
    check_completion(
        "NAME: v\nITEM: potion of he$0\n",
        expect!["[potion of he] potion of heal wounds"],
    );
    check_completion(
        "NAME: v\nKFEAT: _ = altar_z$0\n",
        expect!["[altar_z] altar_zin"],
    );
    check_completion(
        "NAME: v\nKFEAT: ^ = tele$0\n",
        expect!["[tele] teleporter | teleport trap"],
    );
    check_completion(
        "NAME: v\nTAGS: transparent no_mon$0\n",
        expect!["[no_mon] no_monster_gen"],
    );
    check_completion("NAME: v\nTAGS: gard$0\n", expect!["[gard] garden_corner"]);
    check_completion("NAME: v\nDEPTH: D:2-5, !La$0\n", expect!["[La] Lair | Lab"]);
    check_completion("NAME: v\nWEIGHT: 5 (Sn$0\n", expect!["[Sn] Snake"]);
    check_completion(
        "NAME: v\nORIENT: no$0\n",
        expect!["[no] north | northwest | northeast"],
    );
    check_completion(
        "NAME: v\nCOLOUR: x = red, y = lightb$0\n",
        expect!["[lightb] lightblue"],
    );
    check_completion(
        "NAME: v\nSUBVAULT: A : ga$0\n",
        expect!["[ga] garden_corner"],
    );
    check_completion(
        "NAME: v\nMONS: orc, \\\n    gobl$0\n",
        expect!["[gobl] goblin"],
    );
    // Nothing in a map or in Lua.
    check_completion("NAME: v\nMAP\nx$0x\nENDMAP\n", expect!["[] "]);
    check_completion("NAME: v\n: crawl.co$0\n", expect!["[] "]);
}

const LUA_FILE: &str = "{{\nfunction garden_setup(e)\n  e.tags(\"garden_room\")\nend\nlocal function helper() return 1 end\n}}\n\nNAME: garden_a\nTAGS: garden_room\n: garden_setup(_G)\nMAP\n.\nENDMAP\n\nNAME: garden_b\nTAGS: garden_room\n: garden_setup(_G)\n: dgn.map_by_name(\"garden_a\")\nMAP\n.\nENDMAP\n\nNAME: parent\nSUBVAULT: A : garden_room\nMAP\nA\nENDMAP\n";

fn check_navigation(text: &str, expected: Expect) {
    let (analysis, file, offset) = fixture_with(
        text,
        &[(
            "other.des",
            "NAME: elsewhere\nTAGS: garden_room\n: garden_setup(_G)\nMAP\n.\nENDMAP\n",
        )],
    );
    let show = |locations: Vec<levkit_ide::Location>| -> String {
        locations
            .into_iter()
            .map(|l| {
                let text = analysis.file_text(l.file).unwrap();
                let line = text[..usize::from(l.range.start())].matches('\n').count() + 1;
                let name = analysis.path(l.file).unwrap().display().to_string();
                format!(
                    "{name}:{line} {}",
                    &text[l.range].lines().next().unwrap_or("")
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let definitions = show(analysis.goto_definition(file, offset).unwrap());
    let references = show(analysis.references(file, offset).unwrap());
    expected.assert_eq(&format!(
        "definitions: {definitions}\nreferences: {references}"
    ));
}

#[test]
fn navigation_of_lua_functions_vault_names_and_tags() {
    // A Lua function of the file-level Lua, from a call.
    check_navigation(
        &at("garden_setup(_G)\nMAP", LUA_FILE),
        expect![[r#"
        definitions: vaults.des:2 garden_setup
        references: vaults.des:2 garden_setup, vaults.des:10 garden_setup, vaults.des:17 garden_setup, other.des:3 garden_setup"#]],
    );
    // A vault named in a Lua string, and its NAME.
    check_navigation(
        &at("garden_a\")", LUA_FILE),
        expect![[r#"
        definitions: vaults.des:8 garden_a
        references: vaults.des:8 garden_a, vaults.des:18 garden_a"#]],
    );
    check_navigation(
        &at("garden_a\nTAGS", LUA_FILE),
        expect![[r#"
        definitions: vaults.des:8 garden_a
        references: vaults.des:8 garden_a, vaults.des:18 garden_a"#]],
    );
    // A tag a SUBVAULT asks for, and the vaults that carry it.
    check_navigation(
        &at("garden_room\nMAP\nA", LUA_FILE),
        expect![[r#"
            definitions: vaults.des:9 garden_room, vaults.des:16 garden_room, other.des:2 garden_room
            references: vaults.des:3 garden_room, vaults.des:9 garden_room, vaults.des:16 garden_room, vaults.des:24 garden_room, other.des:2 garden_room"#]],
    );
}

fn outline(text: &str) -> String {
    let (analysis, file, _) = fixture(text);
    analysis
        .symbols(file)
        .unwrap()
        .into_iter()
        .map(|s| format!("{:?} {} [{}]", s.kind, s.name, s.detail.unwrap_or_default()))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn outline_by_vault_and_file_level_lua_function() {
    expect![[r#"
        Function garden_setup [Lua function]
        Function helper [Lua function]
        Vault garden_a []
        Vault garden_b []
        Vault parent []"#]]
    .assert_eq(&outline(&format!("$0{LUA_FILE}")));
}

#[test]
fn a_backtick_in_lua_leaves_the_outline_standing() {
    // full_moon 3.0 stops at `unreachable!` on a backtick; Lua 5.1 rejects it anyway.
    expect![[r#"
        Function shout [Lua function]
        Vault ticks []"#]]
    .assert_eq(&outline(
        "$0: function shout()\n:   return `no`\n: end\nNAME: ticks\nMAP\n.\nENDMAP\n",
    ));
}

#[test]
fn a_function_without_its_end_leaves_the_outline_standing() {
    // full_moon recovers a declaration cut short with an end before its start.
    expect!["Function c [Lua function]"].assert_eq(&outline("$0\n{{\n function c"));
}

/// The heat layers of `VAULT`'s preview: kind, mode, seeds, top of the scale, squares and note.
fn heat_layers(request: &levkit_ide::PreviewRequest) -> String {
    let mut host = AnalysisHost::new();
    let file = host.set_file_bytes("vaults.des", VAULT.as_bytes());
    let levkit_ide::Preview::Level(preview) = host.analysis().preview(file, request).unwrap()
    else {
        panic!("a vault preview");
    };
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
}

#[test]
fn a_vaults_heat_is_sampled_things_first_and_expected_heat_says_to_sample() {
    expect!["all expected None max 0.00 on 0 squares: a vault's heat is only known by building it (its random choices and Lua): sample over seeds"]
    .assert_eq(&heat_layers(&levkit_ide::PreviewRequest::default()));
    expect![[r#"
        all sampled Some([1, 40]) max 1.00 on 3 squares
        wall sampled Some([1, 40]) max 1.00 on 17 squares
        floor sampled Some([1, 40]) max 1.00 on 11 squares
        water sampled Some([1, 40]) max 0.00 on 0 squares: none of the 40 builds had water here
        lava sampled Some([1, 40]) max 0.00 on 0 squares: none of the 40 builds had lava here
        door sampled Some([1, 40]) max 0.00 on 0 squares: none of the 40 builds had a door here
        feature sampled Some([1, 40]) max 0.75 on 3 squares
        monster sampled Some([1, 40]) max 1.00 on 2 squares
        item sampled Some([1, 40]) max 1.00 on 1 squares"#]]
    .assert_eq(&heat_layers(&levkit_ide::PreviewRequest {
        sample: Some((1, 40)),
        ..levkit_ide::PreviewRequest::default()
    }));
}

/// The reviewers' header order (DC0417) is an `-W` warning: a host without `-W` does not
/// check it, and turning `-W` on or off re-checks the open files.
#[test]
fn header_order_follows_extra_warnings() {
    use levkit_ide::AnalysisOptions;
    let mut host = AnalysisHost::new();
    let file = host.set_file_bytes(
        "vaults.des",
        b"NAME: out_of_order\nMONS: goblin\nTAGS: transparent\nDEPTH: D:4\nMAP\nx1x\nx.@\nENDMAP\n",
    );
    let codes = |host: &AnalysisHost| -> Vec<String> {
        let analysis = host.analysis();
        analysis
            .diagnostics(file)
            .unwrap()
            .iter()
            .map(|d| format!("{:?}", d.code))
            .collect()
    };
    let with = |extra_warnings| AnalysisOptions {
        extra_warnings,
        reachability: false,
    };
    assert_eq!(codes(&host), Vec::<String>::new());
    host.set_options(with(true));
    assert_eq!(codes(&host), ["DC0417"]);
    host.set_options(with(false));
    assert_eq!(codes(&host), Vec::<String>::new());
}
