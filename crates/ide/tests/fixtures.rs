//! Diagnostic fixtures: each file under a `test-data/<language>/check/` folder is analysed as
//! `levkit check -W` would (its dialect recognised by content) and its diagnostics compared
//! with the `.diag` file beside it: code, severity, 1-based line:column range, message,
//! labels and fixes. `UPDATE_EXPECT=1 cargo test` rewrites them.

use std::collections::BTreeSet;

use levkit_ide::{AnalysisHost, AnalysisOptions};
use levkit_syntax::Dialect;

#[test]
fn diagnostic_fixtures() {
    let fixtures = levkit_test_support::fixture_files("check");
    let mut failed = Vec::new();
    let mut covered = BTreeSet::new();
    for fixture in &fixtures {
        let bytes = std::fs::read(&fixture.path).unwrap();
        let mut host = AnalysisHost::new();
        host.set_options(AnalysisOptions {
            extra_warnings: true,
            reachability: true,
        });
        let file = host.set_file_bytes(fixture.path.clone(), &bytes);
        let analysis = host.analysis();
        covered.insert(analysis.dialect(file).unwrap());
        let actual = levkit_diagnostics::render_plain(
            &analysis.file_text(file).unwrap(),
            &analysis.diagnostics(file).unwrap(),
        );
        let expected = fixture.path.with_extension("diag");
        let result =
            std::panic::catch_unwind(|| expect_test::expect_file![expected].assert_eq(&actual));
        if result.is_err() {
            failed.push(fixture.path.display().to_string());
        }
    }
    assert!(
        failed.is_empty(),
        "fixtures that differ:\n{}",
        failed.join("\n")
    );
    // A dialect is added with its fixtures.
    let missing: Vec<&str> = Dialect::choosable()
        .filter(|d| !covered.contains(d))
        .map(Dialect::name)
        .collect();
    assert!(
        missing.is_empty(),
        "no check fixture of these dialects under test-data/<language>/check: {missing:?}"
    );
}

/// Compile fixtures: each file under a `compile/` folder is compiled, the outcome is compared
/// with the `.out` file beside it, and every file written must be byte-identical to the one
/// the game's compiler (lev_comp or dgn_comp 3.4.3) wrote, kept in the folder of the same name
/// (see the folder's README).
/// The file, beside a compile fixture's reference outputs, that holds the reference compiler's
/// exit status when it is not 0.
const EXIT_STATUS: &str = "exit-status";

#[test]
fn compile_fixtures() {
    let fixtures = levkit_test_support::fixture_files("compile");
    assert!(!fixtures.is_empty(), "no compile fixtures");
    let mut failed = Vec::new();
    for fixture in &fixtures {
        let bytes = std::fs::read(&fixture.path).unwrap();
        let mut host = AnalysisHost::new();
        let file = host.set_file_bytes(fixture.path.clone(), &bytes);
        let compiled = host
            .analysis()
            .compile(file, levkit_ide::Emit::Files)
            .unwrap();
        let compiler = match fixture.dialect {
            Dialect::NethackDungeon => "dgn_comp",
            _ => "lev_comp",
        };
        let reference = fixture.path.with_extension("");
        // The reference compiler's exit status, where it was not 0: it stops at the first level
        // with an error, and levkit still writes the error-free levels after it (README).
        let reference_failed = std::fs::read_to_string(reference.join(EXIT_STATUS))
            .is_ok_and(|status| status.trim() != "0");
        let mut actual = String::new();
        let mut written = BTreeSet::new();
        for output in &compiled.files {
            match &output.bytes {
                Some(bytes) => {
                    written.insert(output.name.clone());
                    let expected = std::fs::read(reference.join(&output.name)).ok();
                    let verdict = match expected {
                        Some(expected) if &expected == bytes => {
                            format!("identical to {compiler}'s")
                        }
                        Some(_) => format!("DIFFERENT from {compiler}'s"),
                        None if reference_failed => {
                            format!("{compiler} stopped at an error before it")
                        }
                        None => format!("{compiler} writes no such file"),
                    };
                    actual.push_str(&format!(
                        "{}: {} bytes, {verdict}\n",
                        output.name,
                        bytes.len()
                    ));
                }
                None => actual.push_str(&format!("{}: not written\n", output.name)),
            }
        }
        for entry in std::fs::read_dir(&reference)
            .into_iter()
            .flatten()
            .flatten()
        {
            let name = entry.file_name().to_string_lossy().into_owned();
            if !written.contains(&name) && name != EXIT_STATUS {
                actual.push_str(&format!("{name}: written by {compiler}, not by levkit\n"));
            }
        }
        if let Some(refusal) = &compiled.refusal {
            actual.push_str(&format!("refused: {refusal}\n"));
        }
        let expected = fixture.path.with_extension("out");
        let result =
            std::panic::catch_unwind(|| expect_test::expect_file![expected].assert_eq(&actual));
        if result.is_err() || actual.contains("DIFFERENT") || actual.contains("writes no such file")
        {
            failed.push(fixture.path.display().to_string());
        }
    }
    assert!(
        failed.is_empty(),
        "compile fixtures that differ:\n{}",
        failed.join("\n")
    );
}

/// Preview fixtures: each file under a `preview/` folder is previewed level by level (vault
/// by vault) for seeds 1 to 4, and the renderings compared with the `.preview` file beside
/// it: the map as the source's glyphs (when the dialect has it), the picture as drawn, and
/// the notes. Descriptions and dungeon descriptions, which have no levels, give their title,
/// first error, every card with all it holds, and notes.
#[test]
fn preview_fixtures() {
    use levkit_ide::{Preview, PreviewRequest};
    let fixtures = levkit_test_support::fixture_files("preview");
    assert!(!fixtures.is_empty(), "no preview fixtures");
    let mut failed = Vec::new();
    for fixture in &fixtures {
        let bytes = std::fs::read(&fixture.path).unwrap();
        let mut host = AnalysisHost::new();
        let file = host.set_file_bytes(fixture.path.clone(), &bytes);
        let analysis = host.analysis();
        let preview = analysis.preview(file, &PreviewRequest::default()).unwrap();
        let levels = match &preview {
            Preview::Level(level) => level.levels.clone(),
            _ => Vec::new(),
        };
        let mut actual = String::new();
        let cards = match &preview {
            Preview::Cards(cards) => Some(&cards.cards),
            Preview::Dungeon(dungeon) => Some(&dungeon.cards),
            Preview::Level(_) | Preview::Nothing(_) => None,
        };
        if let Some(cards) = cards {
            actual.push_str(&cards_text(&preview, cards));
        }
        for name in &levels {
            for seed in 1..=4 {
                let request = PreviewRequest {
                    level: Some(name.clone()),
                    seed,
                    map: true,
                    ..PreviewRequest::default()
                };
                let Preview::Level(level) = analysis.preview(file, &request).unwrap() else {
                    continue;
                };
                actual.push_str(&format!("== {name}, seed {seed}\n"));
                if let Some(map) = &level.map {
                    actual.push_str(&format!("map:\n{map}"));
                }
                actual.push_str("picture:\n");
                for row in &level.rows {
                    actual.push_str(row.trim_end());
                    actual.push('\n');
                }
                for note in &level.notes {
                    actual.push_str(&format!("note: {note}\n"));
                }
            }
        }
        let expected = fixture.path.with_extension("preview");
        let result =
            std::panic::catch_unwind(|| expect_test::expect_file![expected].assert_eq(&actual));
        if result.is_err() {
            failed.push(fixture.path.display().to_string());
        }
    }
    assert!(
        failed.is_empty(),
        "preview fixtures that differ:\n{}",
        failed.join("\n")
    );
}

/// Cards as text: the title, then each card's heading, symbol, colour, fields (as written),
/// details (dice with their range) and description.
fn cards_text(preview: &levkit_ide::Preview, cards: &[levkit_ide::Card]) -> String {
    let mut out = format!("title: {}\n", preview.title().unwrap_or(""));
    match preview.error() {
        Some(e) => out.push_str(&format!(
            "error: line {}: {} ({})\n",
            e.range.start.line + 1,
            e.message,
            e.code
        )),
        None => out.push_str("error: none\n"),
    }
    for card in cards {
        out.push_str(&format!(
            "== {}, line {}\nglyph {:?} color {:?}\n",
            card.name.as_deref().unwrap_or("(unnamed)"),
            card.source.line + 1,
            card.glyph.as_deref().unwrap_or(""),
            card.color.as_deref().unwrap_or(""),
        ));
        out.push_str("fields:\n");
        for (key, value) in &card.fields {
            out.push_str(&format!("  {key} = {}\n", value.as_str().unwrap_or("?")));
        }
        out.push_str("details:\n");
        for detail in &card.details {
            out.push_str(&format!("  {}: {}\n", detail.label, detail.value));
        }
        if let Some(text) = &card.text {
            out.push_str("text:\n");
            for line in text.lines() {
                out.push_str(&format!("  {line}\n"));
            }
        }
    }
    for note in preview.notes() {
        out.push_str(&format!("note: {note}\n"));
    }
    out
}
