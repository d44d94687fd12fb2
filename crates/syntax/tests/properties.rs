//! Properties that hold for every input and every dialect: parsing never panics and the
//! tree's text is the input.

use std::sync::LazyLock;

use levkit_syntax::nethack::lexer::KEYWORDS;
use levkit_syntax::{Dialect, dcss, parse};
use proptest::prelude::*;

fn round_trips(text: &str, dialect: Dialect) -> Result<(), TestCaseError> {
    let parse = parse(text, dialect);
    prop_assert_eq!(parse.syntax().to_string(), text);
    for error in parse.errors() {
        prop_assert!(usize::from(error.range.end()) <= text.len());
    }
    Ok(())
}

fn compact_is_rowan(text: &str) -> Result<(), TestCaseError> {
    let compact = levkit_syntax::nethack::parse_compact(text);
    prop_assert_eq!(compact.to_parse(text), levkit_syntax::nethack::parse(text));
    Ok(())
}

fn rlg327_compact_is_rowan(text: &str) -> Result<(), TestCaseError> {
    let compact = levkit_syntax::rlg327::parse_compact(text);
    prop_assert_eq!(compact.to_parse(text), levkit_syntax::rlg327::parse(text));
    Ok(())
}

/// Lines shaped like RLG327 descriptions and dungeon.def statements, in any order.
fn description_like_lines() -> impl Strategy<Value = String> {
    let line = proptest::sample::select(vec![
        "RLG327 MONSTER DESCRIPTION 1",
        "BEGIN MONSTER",
        "  BEGIN OBJECT x",
        "END",
        " END ",
        "NAME  a b ",
        "DESC",
        "DES",
        ".",
        ". ",
        "SPEED 5+2d4\t",
        "",
        "  ",
        "\u{a0}",
        "DUNGEON: \"d\" \"D\" (1, 0)",
        "%REINCARNATION LEVEL: \"r\" \"R\" @ (1, 2)",
        "# comment",
    ]);
    let end = proptest::sample::select(vec!["\n", "\r\n", "\r", ""]);
    proptest::collection::vec((line, end), 0..30)
        .prop_map(|lines| lines.into_iter().map(|(l, e)| format!("{l}{e}")).collect())
}

/// Text made of the language's own pieces, which reaches deeper into the grammar than noise.
fn lev_comp_soup() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        proptest::sample::select(KEYWORDS).prop_map(str::to_string),
        proptest::sample::select(vec![
            ":",
            ",",
            "(",
            ")",
            "[",
            "]",
            "\n",
            "\r\n",
            " ",
            "\t",
            "'d'",
            "'\\\\'",
            "\"jackal\"",
            "\"",
            "12",
            "-3",
            "[50%]",
            "#",
            "MAP\n",
            "ENDMAP",
            "..|--",
            "\u{feff}",
            "\0",
            "é",
        ])
        .prop_map(str::to_string),
    ];
    proptest::collection::vec(piece, 0..80).prop_map(|pieces| pieces.concat())
}

/// Every fixture of every dialect, with its dialect: mutations of real files of each dialect
/// reach deep into its grammar.
static FIXTURES: LazyLock<Vec<(String, Dialect)>> = LazyLock::new(|| {
    ["parser", "check"]
        .iter()
        .flat_map(|kind| levkit_test_support::fixture_files(kind))
        .filter_map(|f| Some((std::fs::read_to_string(&f.path).ok()?, f.dialect)))
        .collect()
});

/// `text` with up to `len` bytes from the position `at` picks replaced by `insert`, both ends
/// moved back onto character boundaries.
fn replaced(text: &str, at: prop::sample::Index, len: usize, insert: &str) -> String {
    // `str::floor_char_boundary`, which is newer than the workspace's rust-version.
    let floor = |mut i: usize| {
        i = i.min(text.len());
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let start = floor(at.index(text.len() + 1));
    let end = floor(start + len);
    let mut out = text.to_string();
    out.replace_range(start..end, insert);
    out
}

fn mutated_fixture() -> impl Strategy<Value = (String, Dialect)> {
    (
        any::<prop::sample::Index>(),
        any::<prop::sample::Index>(),
        0usize..40,
        "(?s).{0,12}",
    )
        .prop_map(|(which, at, len, insert)| {
            let (text, dialect) = &FIXTURES[which.index(FIXTURES.len())];
            (replaced(text, at, len, &insert), *dialect)
        })
}

/// A DCSS file made of the lines that decide where segments start and blocks end, and an
/// edit of it: a range replaced by more such lines or by a few characters.
fn edited_vault_file() -> impl Strategy<Value = (String, String)> {
    let line = proptest::sample::select(vec![
        "NAME: a",
        "  NAME:   b",
        "NAME: c \\",
        "default-depth: D:2-4",
        "TAGS: x NAME: d",
        "WEIGHT: 5 NAME: e",
        "MONS: orc \\",
        "MAP",
        "ENDMAP",
        "sENDMAP",
        "..NAME: f",
        "{{",
        "lua {{",
        "validate {{",
        "  x = 1 }}",
        "}}",
        ": crawl_require('x')",
        "# NAME: g",
        "",
        "xx.x",
    ]);
    let end = proptest::sample::select(vec!["\n", "\r\n", ""]);
    let lines = || {
        proptest::collection::vec((line.clone(), end.clone()), 0..40).prop_map(|lines| {
            lines
                .into_iter()
                .map(|(l, e)| format!("{l}{e}"))
                .collect::<String>()
        })
    };
    (
        lines(),
        any::<prop::sample::Index>(),
        0usize..30,
        prop_oneof![lines(), "(?s).{0,6}"],
    )
        .prop_map(|(old, at, len, insert)| {
            let new = replaced(&old, at, len, &insert);
            (old, new)
        })
}

fn any_dialect() -> impl Strategy<Value = Dialect> {
    proptest::sample::select(Dialect::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn any_string_round_trips(text in any::<String>(), dialect in any_dialect()) {
        round_trips(&text, dialect)?;
    }

    #[test]
    fn lev_comp_like_text_round_trips(text in lev_comp_soup(), dialect in any_dialect()) {
        round_trips(&text, dialect)?;
    }

    #[test]
    fn line_based_text_round_trips(text in description_like_lines(), dialect in any_dialect()) {
        round_trips(&text, dialect)?;
    }

    #[test]
    fn mutated_fixtures_round_trip((text, dialect) in mutated_fixture()) {
        round_trips(&text, dialect)?;
    }

    /// The compact parse is the same parse as the rowan one, tree and errors.
    #[test]
    fn nethack_compact_parse_is_the_rowan_parse(text in lev_comp_soup()) {
        compact_is_rowan(&text)?;
    }

    #[test]
    fn compact_parses_of_mutated_fixtures((text, _) in mutated_fixture()) {
        compact_is_rowan(&text)?;
        rlg327_compact_is_rowan(&text)?;
    }

    #[test]
    fn rlg327_compact_parse_is_the_rowan_parse(text in description_like_lines()) {
        rlg327_compact_is_rowan(&text)?;
    }

    /// What the editor's incremental segmentation finds is what a fresh one finds.
    #[test]
    fn dcss_segments_after_an_edit_are_a_fresh_scans((old, new) in edited_vault_file()) {
        let before = dcss::Segmentation::new(&old);
        prop_assert_eq!(before.edited(&old, &new), dcss::Segmentation::new(&new));
    }
}

#[test]
fn every_dialect_has_fixtures_to_mutate() {
    for dialect in Dialect::choosable() {
        assert!(
            FIXTURES.iter().any(|(_, d)| *d == dialect),
            "no parser or check fixture of {}",
            dialect.name()
        );
    }
}
