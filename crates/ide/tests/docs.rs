//! Every keyword and map glyph is documented.

use levkit_ide::docs;

#[test]
fn every_spelling_has_a_doc() {
    for word in levkit_syntax::nethack::lexer::KEYWORDS {
        assert!(
            docs::nethack_keyword(word).is_some_and(|d| !d.summary.is_empty()),
            "{word}"
        );
    }
    for word in levkit_syntax::dungeon::lexer::KEYWORDS {
        assert!(
            docs::dungeon_keyword(word).is_some_and(|d| !d.summary.is_empty()),
            "{word}"
        );
    }
    for c in
        (0u8..128).filter(|&b| levkit_syntax::nethack::lexer::is_map_char(b) && !b.is_ascii_digit())
    {
        assert!(docs::map_glyph(c as char).is_some(), "{}", c as char);
    }
    assert!(docs::render(docs::nethack_keyword("MONSTER").unwrap()).starts_with("**MONSTER**"));
}
