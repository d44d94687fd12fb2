//! Properties that hold for every input: parsing never panics and the tree's text is the input.

use levkit_syntax::nethack::lexer::KEYWORDS;
use levkit_syntax::{Dialect, parse};
use proptest::prelude::*;

const DIALECTS: [Dialect; 3] = [
    Dialect::NethackDes,
    Dialect::NethackDungeon,
    Dialect::Rlg327Monster,
];

fn round_trips(text: &str, dialect: Dialect) -> Result<(), TestCaseError> {
    let parse = parse(text, dialect);
    prop_assert_eq!(parse.syntax().to_string(), text);
    for error in parse.errors() {
        prop_assert!(usize::from(error.range.end()) <= text.len());
    }
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn any_string_round_trips(text in any::<String>()) {
        for dialect in DIALECTS {
            round_trips(&text, dialect)?;
        }
    }

    #[test]
    fn lev_comp_like_text_round_trips(text in lev_comp_soup()) {
        round_trips(&text, Dialect::NethackDes)?;
    }

    #[test]
    fn line_based_text_round_trips(text in description_like_lines()) {
        for dialect in DIALECTS {
            round_trips(&text, dialect)?;
        }
    }
}
