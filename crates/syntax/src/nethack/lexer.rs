//! The lev_comp 3.4.3 lexer. Most tokens come from a logos automaton; what depends on the
//! line (comments only in column 0, `MAP` alone on its line, map rows) is decided per line,
//! by lev_comp's rules for the shared line machinery (`crate::lines`).

use levkit_diagnostics::{Code, Diagnostic, TextRange};
use logos::Logos;

use crate::SyntaxKind::{self, *};
use crate::lines::{self, BlockRules, Line, LineKeyword, OutsideLine, Placement};
use crate::parser::{Lexed, offset};

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
}

/// The keyword a word spells, if any. Case matters, as in lev_comp.
pub fn keyword(word: &str) -> Option<SyntaxKind> {
    Some(match word {
        "MAZE" => MAZE_KW,
        "LEVEL" => LEVEL_KW,
        "FLAGS" => FLAGS_KW,
        "INIT_MAP" => INIT_MAP_KW,
        "MESSAGE" => MESSAGE_KW,
        "GEOMETRY" => GEOMETRY_KW,
        "MAP" => MAP_KW,
        "ENDMAP" => ENDMAP_KW,
        "NOMAP" => NOMAP_KW,
        "RANDOM_OBJECTS" => RANDOM_OBJECTS_KW,
        "RANDOM_PLACES" => RANDOM_PLACES_KW,
        "RANDOM_MONSTERS" => RANDOM_MONSTERS_KW,
        "OBJECT" => OBJECT_KW,
        "CONTAINER" => CONTAINER_KW,
        "MONSTER" => MONSTER_KW,
        "TRAP" => TRAP_KW,
        "DOOR" => DOOR_KW,
        "DRAWBRIDGE" => DRAWBRIDGE_KW,
        "MAZEWALK" => MAZEWALK_KW,
        "WALLIFY" => WALLIFY_KW,
        "REGION" => REGION_KW,
        "ALTAR" => ALTAR_KW,
        "LADDER" => LADDER_KW,
        "STAIR" => STAIR_KW,
        "PORTAL" => PORTAL_KW,
        "TELEPORT_REGION" => TELEPORT_REGION_KW,
        "BRANCH" => BRANCH_KW,
        "FOUNTAIN" => FOUNTAIN_KW,
        "SINK" => SINK_KW,
        "POOL" => POOL_KW,
        "NON_DIGGABLE" => NON_DIGGABLE_KW,
        "NON_PASSWALL" => NON_PASSWALL_KW,
        "ROOM" => ROOM_KW,
        "SUBROOM" => SUBROOM_KW,
        "RANDOM_CORRIDORS" => RANDOM_CORRIDORS_KW,
        "CORRIDOR" => CORRIDOR_KW,
        "GOLD" => GOLD_KW,
        "ENGRAVING" => ENGRAVING_KW,
        "NAME" => NAME_KW,
        "CHANCE" => CHANCE_KW,
        "levregion" => LEVREGION_KW,
        "contained" => CONTAINED_KW,
        "random" => RANDOM_KW,
        "none" => NONE_KW,
        "object" => OBJECT_REG_KW,
        "monster" => MONSTER_REG_KW,
        "place" => PLACE_REG_KW,
        "align" => ALIGN_REG_KW,
        "open" | "closed" | "locked" | "nodoor" | "broken" => DOOR_STATE,
        "north" | "south" | "east" | "west" => DIRECTION,
        "left" | "half-left" | "half-right" | "right" => LEFT_OR_RIGHT,
        "center" => CENTER_KW,
        "top" | "bottom" => TOP_OR_BOT,
        "lit" | "unlit" => LIGHT_STATE,
        "filled" | "unfilled" => FILLING,
        "noalign" | "chaos" | "neutral" | "law" | "coaligned" | "noncoaligned" => ALIGNMENT,
        "peaceful" | "hostile" => MON_ATTITUDE,
        "asleep" | "awake" => MON_ALERTNESS,
        "m_feature" | "m_object" | "m_monster" => MON_APPEARANCE,
        "altar" | "shrine" | "sanctum" => ALTAR_TYPE,
        "up" | "down" => UP_OR_DOWN,
        "true" | "false" => BOOLEAN,
        "dust" | "engrave" | "burn" | "mark" => ENGRAVING_TYPE,
        "blessed" | "uncursed" | "cursed" => CURSE_TYPE,
        "noteleport" | "hardfloor" | "nommap" | "shortsighted" | "arboreal" => FLAG_TYPE,
        _ => return None,
    })
}

/// Every spelling [`keyword`] accepts, for "did you mean" suggestions and completion.
pub const KEYWORDS: &[&str] = &[
    "MAZE",
    "LEVEL",
    "FLAGS",
    "INIT_MAP",
    "MESSAGE",
    "GEOMETRY",
    "MAP",
    "ENDMAP",
    "NOMAP",
    "RANDOM_OBJECTS",
    "RANDOM_PLACES",
    "RANDOM_MONSTERS",
    "OBJECT",
    "CONTAINER",
    "MONSTER",
    "TRAP",
    "DOOR",
    "DRAWBRIDGE",
    "MAZEWALK",
    "WALLIFY",
    "REGION",
    "ALTAR",
    "LADDER",
    "STAIR",
    "PORTAL",
    "TELEPORT_REGION",
    "BRANCH",
    "FOUNTAIN",
    "SINK",
    "POOL",
    "NON_DIGGABLE",
    "NON_PASSWALL",
    "ROOM",
    "SUBROOM",
    "RANDOM_CORRIDORS",
    "CORRIDOR",
    "GOLD",
    "ENGRAVING",
    "NAME",
    "CHANCE",
    "levregion",
    "contained",
    "random",
    "none",
    "object",
    "monster",
    "place",
    "align",
    "open",
    "closed",
    "locked",
    "nodoor",
    "broken",
    "north",
    "south",
    "east",
    "west",
    "left",
    "half-left",
    "half-right",
    "right",
    "center",
    "top",
    "bottom",
    "lit",
    "unlit",
    "filled",
    "unfilled",
    "noalign",
    "chaos",
    "neutral",
    "law",
    "coaligned",
    "noncoaligned",
    "peaceful",
    "hostile",
    "asleep",
    "awake",
    "m_feature",
    "m_object",
    "m_monster",
    "altar",
    "shrine",
    "sanctum",
    "up",
    "down",
    "true",
    "false",
    "dust",
    "engrave",
    "burn",
    "mark",
    "blessed",
    "uncursed",
    "cursed",
    "noteleport",
    "hardfloor",
    "nommap",
    "shortsighted",
    "arboreal",
];

/// The characters a MAP row may hold (digits are column rulers, removed by lev_comp).
pub fn is_map_char(c: u8) -> bool {
    matches!(
        c,
        b'-' | b'|'
            | b'}'
            | b'{'
            | b'+'
            | b'A'
            | b'B'
            | b'C'
            | b'I'
            | b'S'
            | b'H'
            | b'K'
            | b'P'
            | b'L'
            | b'W'
            | b'T'
            | b'F'
            | b'\\'
            | b'#'
            | b'.'
            | b' '
            | b'0'..=b'9'
    )
}

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
            let mut tok_end = matched_end;
            if tok_end <= tok_start {
                tok_end = tok_start + text[tok_start..].chars().next().map_or(1, char::len_utf8);
            }
            if matches!(token, Some(Err(()))) && text[tok_start..].starts_with('\'') {
                // A quote that starts no character literal is one stray character.
                tok_end = tok_start + 1;
            }
            if matches!(token, Some(Ok(RawToken::Word)))
                && text[tok_start..tok_end].starts_with("ENDMAP")
            {
                // lev_comp's keywords need no word boundary: `ENDMAPMONSTER` closes the map
                // and starts a MONSTER statement.
                tok_end = tok_start + "ENDMAP".len();
            }
            if tok_end != matched_end {
                base = tok_end;
                raw = RawToken::lexer(&text[tok_end..]);
            }
            let slice = &text[tok_start..tok_end];
            let kind = match token {
                Some(Ok(RawToken::Whitespace)) => WHITESPACE,
                Some(Ok(RawToken::Newline)) => {
                    out.push(NEWLINE, tok_start, tok_end);
                    return tok_end;
                }
                Some(Ok(RawToken::Word)) => keyword(slice).unwrap_or(IDENT),
                Some(Ok(RawToken::Int)) => {
                    // Nine characters hold at most nine digits, which always fit an int.
                    if slice.len() > 9
                        && let Some(message) = crate::beyond_int(slice, "lev_comp")
                    {
                        out.error(Code::NH0018, tok_start, tok_end, message);
                    }
                    INT
                }
                Some(Ok(RawToken::String)) => {
                    if slice.contains('\n') {
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
                    match slice {
                        "\r" => out.error(Code::NH0004, tok_start, tok_end, "a carriage return not followed by a line feed, which lev_comp does not accept; save the file with LF or CRLF line endings"),
                        "'" => out.error(Code::NH0004, tok_start, tok_end, "a `'` that does not start a character: write one character between quotes, like 'x'"),
                        _ => out.unknown_character(Code::NH0004, text, tok_start, tok_end, |run| {
                            format!("`{}` is not part of the lev_comp language; remove it", run.escape_debug())
                        }),
                    }
                    ERROR_CHAR
                }
            };
            if kind == MAP_KW {
                // Not the line's first word (that is a map line, see `outside`).
                out.error(Code::NH0007, tok_start, tok_end, MISPLACED_MAP);
            }
            out.push(kind, tok_start, tok_end);
            pos = tok_end;
        }
        pos
    }
}
