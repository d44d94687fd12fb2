//! The lev_comp 3.4.3 lexer. Most tokens come from a logos automaton; what depends on the
//! line (comments only in column 0, `MAP` alone on its line, map rows) is decided per line,
//! by lev_comp's rules for the shared line machinery (`crate::lines`).

use levkit_diagnostics::{Code, Diagnostic, TextRange};
use logos::Logos;

use crate::SyntaxKind::{self, *};
use crate::lines::{self, BlockRules, Line, LineKeyword, OutsideLine, Placement};
use crate::parser::{Lexed, offset};

/// lev_comp's keywords: each kind with the words that spell it. Case matters, as in lev_comp.
/// One table makes the automaton's keyword tokens, [`keyword`] and [`KEYWORDS`].
macro_rules! keywords {
    ($($kind:ident: $($word:tt)|+;)*) => {
        #[derive(Logos, Debug, Clone, Copy, PartialEq, Eq)]
        enum RawToken {
            #[regex(r"[ \t]+")]
            Whitespace,
            #[regex(r"\r?\n")]
            Newline,
            // No word boundaries in lev_comp: a keyword glued to other letters is not a keyword, and
            // reading the whole word lets the parser say so ("unknown word `MAZEX`").
            #[regex(r"[A-Za-z_][A-Za-z0-9_-]*")]
            Word,
            #[regex(r"[+-]?[0-9]+")]
            Int,
            #[regex(r#""[^"]*""#)]
            String,
            #[regex(r#""[^"\n]*"#, allow_greedy = true)]
            UnterminatedString,
            #[regex(r"'[^\n]'|'\\[^\n]'")]
            Char,
            #[regex(r"\[ *[0-9]+% *\]")]
            Percent,
            #[regex(r"#[^\n]*", allow_greedy = true)]
            MisplacedComment,
            #[token(":")]
            Colon,
            #[token(",")]
            Comma,
            #[token("(")]
            LParen,
            #[token(")")]
            RParen,
            #[token("[")]
            LBrack,
            #[token("]")]
            RBrack,
            // A whole word that is a keyword: the automaton recognises it as it reads the
            // word (a longer word is a `Word`), so no word is looked up twice.
            $($(#[token($word, |_| $kind)])+)*
            Keyword(SyntaxKind),
        }

        /// The keyword a word spells, if any. Case matters, as in lev_comp.
        pub fn keyword(word: &str) -> Option<SyntaxKind> {
            Some(match word {
                $($($word)|+ => $kind,)*
                _ => return None,
            })
        }

        /// Every spelling [`keyword`] accepts, for "did you mean" suggestions and completion.
        pub const KEYWORDS: &[&str] = &[$($($word),+),*];
    };
}

keywords! {
    MAZE_KW: "MAZE";
    LEVEL_KW: "LEVEL";
    FLAGS_KW: "FLAGS";
    INIT_MAP_KW: "INIT_MAP";
    MESSAGE_KW: "MESSAGE";
    GEOMETRY_KW: "GEOMETRY";
    MAP_KW: "MAP";
    ENDMAP_KW: "ENDMAP";
    NOMAP_KW: "NOMAP";
    RANDOM_OBJECTS_KW: "RANDOM_OBJECTS";
    RANDOM_PLACES_KW: "RANDOM_PLACES";
    RANDOM_MONSTERS_KW: "RANDOM_MONSTERS";
    OBJECT_KW: "OBJECT";
    CONTAINER_KW: "CONTAINER";
    MONSTER_KW: "MONSTER";
    TRAP_KW: "TRAP";
    DOOR_KW: "DOOR";
    DRAWBRIDGE_KW: "DRAWBRIDGE";
    MAZEWALK_KW: "MAZEWALK";
    WALLIFY_KW: "WALLIFY";
    REGION_KW: "REGION";
    ALTAR_KW: "ALTAR";
    LADDER_KW: "LADDER";
    STAIR_KW: "STAIR";
    PORTAL_KW: "PORTAL";
    TELEPORT_REGION_KW: "TELEPORT_REGION";
    BRANCH_KW: "BRANCH";
    FOUNTAIN_KW: "FOUNTAIN";
    SINK_KW: "SINK";
    POOL_KW: "POOL";
    NON_DIGGABLE_KW: "NON_DIGGABLE";
    NON_PASSWALL_KW: "NON_PASSWALL";
    ROOM_KW: "ROOM";
    SUBROOM_KW: "SUBROOM";
    RANDOM_CORRIDORS_KW: "RANDOM_CORRIDORS";
    CORRIDOR_KW: "CORRIDOR";
    GOLD_KW: "GOLD";
    ENGRAVING_KW: "ENGRAVING";
    NAME_KW: "NAME";
    CHANCE_KW: "CHANCE";
    LEVREGION_KW: "levregion";
    CONTAINED_KW: "contained";
    RANDOM_KW: "random";
    NONE_KW: "none";
    OBJECT_REG_KW: "object";
    MONSTER_REG_KW: "monster";
    PLACE_REG_KW: "place";
    ALIGN_REG_KW: "align";
    DOOR_STATE: "open" | "closed" | "locked" | "nodoor" | "broken";
    DIRECTION: "north" | "south" | "east" | "west";
    LEFT_OR_RIGHT: "left" | "half-left" | "half-right" | "right";
    CENTER_KW: "center";
    TOP_OR_BOT: "top" | "bottom";
    LIGHT_STATE: "lit" | "unlit";
    FILLING: "filled" | "unfilled";
    ALIGNMENT: "noalign" | "chaos" | "neutral" | "law" | "coaligned" | "noncoaligned";
    MON_ATTITUDE: "peaceful" | "hostile";
    MON_ALERTNESS: "asleep" | "awake";
    MON_APPEARANCE: "m_feature" | "m_object" | "m_monster";
    ALTAR_TYPE: "altar" | "shrine" | "sanctum";
    UP_OR_DOWN: "up" | "down";
    BOOLEAN: "true" | "false";
    ENGRAVING_TYPE: "dust" | "engrave" | "burn" | "mark";
    CURSE_TYPE: "blessed" | "uncursed" | "cursed";
    FLAG_TYPE: "noteleport" | "hardfloor" | "nommap" | "shortsighted" | "arboreal";
}

/// The characters a MAP row may hold (digits are column rulers, removed by lev_comp).
pub fn is_map_char(c: u8) -> bool {
    MAP_CHARS[usize::from(c)]
}

/// [`is_map_char`] as a table: the lexer asks it for every byte of every map row.
const MAP_CHARS: [bool; 256] = {
    let mut table = [false; 256];
    let listed = b"-|}{+ABCISHKPLWTF\\#. 0123456789";
    let mut i = 0;
    while i < listed.len() {
        table[listed[i] as usize] = true;
        i += 1;
    }
    table
};

/// `MAP` opens a map block only alone on its line, from column 0; lev_comp allows nothing
/// after it, not even blanks.
const MAP: LineKeyword = LineKeyword {
    word: "MAP",
    kind: MAP_KW,
    trailing: &[],
};

pub fn lex(text: &str) -> Lexed {
    // Level files run to about one token in three bytes: room for them up front, not grown.
    let mut out = Lexed::with_token_capacity(text.len() / 3 + 8);
    let mut start = 0;
    if text.starts_with('\u{feff}') {
        start = '\u{feff}'.len_utf8();
        out.push(WHITESPACE, 0, start);
        out.error(
            Code::NH0004,
            0,
            start,
            "the file starts with a byte-order mark, which lev_comp rejects; save it as UTF-8 without BOM",
        );
    }
    lines::lex_lines(text, start, &mut LevCompLines { text }, &mut out);
    out
}

/// lev_comp's line rules: comments only in column 0, `MAP` alone on its line, map rows until
/// `ENDMAP` or, when it is missing, until the next statement.
struct LevCompLines<'t> {
    text: &'t str,
}

const ENDMAP: LineKeyword = LineKeyword {
    word: "ENDMAP",
    kind: ENDMAP_KW,
    trailing: &[],
};

impl BlockRules for LevCompLines<'_> {
    fn close(&mut self, line: Line<'_>, out: &mut Lexed) -> bool {
        ENDMAP.close(line, out)
    }

    fn outside(&mut self, line: Line<'_>, out: &mut Lexed) -> OutsideLine {
        if line.content().starts_with('#') {
            line.push_content(out, COMMENT);
            if line.end == line.content_end {
                // lev_comp's comment rule ends at the newline: without one, `#` is a stray
                // character.
                let end = offset(line.end);
                out.errors.push(
                    Diagnostic::new(
                        Code::NH0019,
                        TextRange::new(offset(line.start), end),
                        "a comment on the last line needs a line end after it: lev_comp reads `#` without one as a stray character; end the file with a newline",
                    )
                    .with_replacement("End the file with a newline", TextRange::empty(end), "\n"),
                );
            }
            return OutsideLine {
                next: line.push_end(out),
                opens_block: false,
            };
        }
        // Only a line whose first word is `MAP` can be one (the test costs less than the lex).
        let maybe_map = line
            .content()
            .trim_start_matches([' ', '\t'])
            .starts_with(MAP.word);
        match maybe_map.then(|| MAP.lex(line, out)).flatten() {
            Some(placement) => {
                if let Placement::Misplaced(range) = placement {
                    out.errors
                        .push(Diagnostic::new(Code::NH0007, range, MISPLACED_MAP));
                }
                OutsideLine {
                    next: line.end,
                    opens_block: true,
                }
            }
            None => OutsideLine {
                next: self.tokens(line.start, out),
                opens_block: false,
            },
        }
    }

    /// ENDMAP (indented or followed by more text), a statement keyword, or an upper-case word
    /// that is no keyword (`ENDMPA`: a misspelt one, not a map row).
    fn ends_block(&self, content: &str) -> bool {
        if content == "MAP" {
            // lev_comp's `MAP` rule only enters map mode again: the map goes on.
            return false;
        }
        let (_, word) = lines::first_word(content);
        let shouting = word.len() >= 4
            && word.chars().all(|c| c.is_ascii_uppercase() || c == '_')
            && !word.bytes().all(is_map_char);
        shouting || keyword(word).is_some_and(|k| k == ENDMAP_KW || k.is_nethack_statement_start())
    }

    /// A map row, or a comment line (`#` followed by what no map holds).
    fn body(&mut self, line: Line<'_>, out: &mut Lexed) {
        let content = line.content();
        if content == "MAP" {
            // Trivia, as lev_comp reads it: no row, and the map goes on.
            line.push_content(out, COMMENT);
            out.errors.push(Diagnostic::new(
                Code::NH0020,
                TextRange::new(offset(line.start), offset(line.content_end)),
                "a second `MAP` line inside a map: lev_comp skips it and the map goes on, so it adds no row; remove it",
            ).with_replacement(
                "Remove the line",
                TextRange::new(offset(line.start), offset(line.end)),
                "",
            ));
        } else if content.bytes().all(is_map_char) {
            line.push_content(out, MAP_ROW);
        } else if content.starts_with('#') {
            line.push_content(out, COMMENT);
        } else {
            line.push_content(out, MAP_ROW);
            if let Some((i, c)) = content
                .char_indices()
                .find(|&(_, c)| !c.is_ascii() || !is_map_char(c as u8))
            {
                let what = if c == '\t' {
                    "a tab".to_string()
                } else {
                    format!("`{}`", c.escape_debug())
                };
                out.error(
                    Code::NH0009,
                    line.start + i,
                    line.start + i + c.len_utf8(),
                    format!("{what} is not a map character; map rows hold only - | {{ }} + . # \\ A B C F H I K L P S T W, spaces and digits"),
                );
            }
        }
    }
}

const MISPLACED_MAP: &str =
    "MAP must start in column 0 and be alone on its line (no spaces after it)";

impl LevCompLines<'_> {
    /// Ordinary tokens from `start`; stops after the first line end outside a string.
    fn tokens(&self, start: usize, out: &mut Lexed) -> usize {
        let text = self.text;
        let mut pos = start;
        // One automaton over the rest of the text, which goes on where its last token ended;
        // it starts again only where a token is cut shorter than it matched.
        let mut base = start;
        let mut raw = RawToken::lexer(&text[start..]);
        while pos < text.len() {
            let token = raw.next();
            let span = raw.span();
            let (tok_start, matched_end) = (base + span.start, base + span.end);
            // Where the token ends when it is cut shorter than the automaton matched (a stray
            // character, a word glued to `ENDMAP`): the automaton then starts again there.
            let mut tok_end = matched_end;
            let kind = match token {
                Some(Ok(RawToken::Keyword(MAP_KW))) => {
                    // Not the line's first word (that is a map line, see `outside`).
                    out.error(Code::NH0007, tok_start, tok_end, MISPLACED_MAP);
                    MAP_KW
                }
                Some(Ok(RawToken::Keyword(kind))) => kind,
                Some(Ok(RawToken::Whitespace)) => WHITESPACE,
                Some(Ok(RawToken::Newline)) => {
                    out.push(NEWLINE, tok_start, tok_end);
                    return tok_end;
                }
                Some(Ok(RawToken::Word)) => {
                    // lev_comp's keywords need no word boundary: `ENDMAPMONSTER` closes the
                    // map and starts a MONSTER statement.
                    if raw.slice().starts_with("ENDMAP") {
                        tok_end = tok_start + "ENDMAP".len();
                        ENDMAP_KW
                    } else {
                        IDENT
                    }
                }
                Some(Ok(RawToken::Int)) => {
                    // Nine characters hold at most nine digits, which always fit an int.
                    let slice = raw.slice();
                    if slice.len() > 9
                        && let Some(message) = crate::beyond_int(slice, "lev_comp")
                    {
                        out.error(Code::NH0018, tok_start, tok_end, message);
                    }
                    INT
                }
                Some(Ok(RawToken::String)) => {
                    if raw.slice().contains('\n') {
                        out.error(
                            Code::NH0014,
                            tok_start,
                            tok_end,
                            "this string spans several lines; lev_comp accepts it but reports wrong line numbers after it. Close it on its first line",
                        );
                    }
                    STRING
                }
                Some(Ok(RawToken::UnterminatedString)) => {
                    out.error(
                        Code::NH0003,
                        tok_start,
                        tok_end,
                        "this string has no closing `\"`; add one at the end of the text",
                    );
                    UNTERMINATED_STRING
                }
                Some(Ok(RawToken::Char)) => CHAR,
                Some(Ok(RawToken::Percent)) => PERCENT,
                Some(Ok(RawToken::MisplacedComment)) => {
                    out.error(
                        Code::NH0010,
                        tok_start,
                        tok_start + 1,
                        "`#` starts a comment only in column 0; lev_comp reads it here as a stray character. Put the comment on its own line, starting at column 0",
                    );
                    COMMENT
                }
                Some(Ok(RawToken::Colon)) => COLON,
                Some(Ok(RawToken::Comma)) => COMMA,
                Some(Ok(RawToken::LParen)) => L_PAREN,
                Some(Ok(RawToken::RParen)) => R_PAREN,
                Some(Ok(RawToken::LBrack)) => L_BRACK,
                Some(Ok(RawToken::RBrack)) => R_BRACK,
                Some(Err(())) | None => {
                    if tok_end <= tok_start {
                        tok_end =
                            tok_start + text[tok_start..].chars().next().map_or(1, char::len_utf8);
                    }
                    if text[tok_start..].starts_with('\'') {
                        // A quote that starts no character literal is one stray character.
                        tok_end = tok_start + 1;
                    }
                    match &text[tok_start..tok_end] {
                        "\r" => out.error(Code::NH0004, tok_start, tok_end, "a carriage return not followed by a line feed, which lev_comp does not accept; save the file with LF or CRLF line endings"),
                        "'" => out.error(Code::NH0004, tok_start, tok_end, "a `'` that does not start a character: write one character between quotes, like 'x'"),
                        _ => out.unknown_character(Code::NH0004, text, tok_start, tok_end, |run| {
                            format!("`{}` is not part of the lev_comp language; remove it", run.escape_debug())
                        }),
                    }
                    ERROR_CHAR
                }
            };
            if tok_end != matched_end {
                base = tok_end;
                raw = RawToken::lexer(&text[tok_end..]);
            }
            out.push(kind, tok_start, tok_end);
            pos = tok_end;
        }
        pos
    }
}
