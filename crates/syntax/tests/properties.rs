//! Properties that hold for every input: parsing never panics and the tree's text is the input.

use levkit_syntax::nethack::lexer::KEYWORDS;
use levkit_syntax::{Dialect, parse};
use proptest::prelude::*;

fn round_trips(text: &str) -> Result<(), TestCaseError> {
    let parse = parse(text, Dialect::NethackDes);
    prop_assert_eq!(parse.syntax().to_string(), text);
    for error in parse.errors() {
        prop_assert!(usize::from(error.range.end()) <= text.len());
    }
    Ok(())
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
        round_trips(&text)?;
    }

    #[test]
    fn lev_comp_like_text_round_trips(text in lev_comp_soup()) {
        round_trips(&text)?;
    }
}
