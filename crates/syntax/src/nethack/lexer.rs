//! The lev_comp 3.4.3 lexer. Most tokens come from a logos automaton; what depends on the
//! line (comments only in column 0, `MAP` alone on its line, map rows) is decided per line.

use levkit_diagnostics::{Code, Diagnostic, TextRange};
use logos::Logos;

use crate::SyntaxKind::{self, *};
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

pub fn lex(text: &str) -> Lexed {
    let mut lexer = LineLexer {
        text,
        out: Lexed::default(),
        in_map: false,
    };
    lexer.run();
    lexer.out
}

struct LineLexer<'t> {
    text: &'t str,
    out: Lexed,
    in_map: bool,
}

impl LineLexer<'_> {
    fn error(&mut self, code: Code, start: usize, end: usize, message: impl Into<String>) {
        let range = TextRange::new(offset(start), offset(end));
        self.out.errors.push(Diagnostic::new(code, range, message));
    }

    fn run(&mut self) {
        let text = self.text;
        let mut pos = 0;
        if text.starts_with('\u{feff}') {
            let end = '\u{feff}'.len_utf8();
            self.out.push(WHITESPACE, 0, end);
            self.error(
                Code::NH0004,
                0,
                end,
                "the file starts with a byte-order mark, which lev_comp rejects; save it as UTF-8 without BOM",
            );
            pos = end;
        }
        while pos < text.len() {
            pos = self.line(pos);
        }
    }

    /// Lexes the line starting at `start`, up to and including its line end.
    fn line(&mut self, start: usize) -> usize {
        let text = self.text;
        let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let content_end = if end > start && text.as_bytes()[end - 1] == b'\r' && end < text.len() {
            end - 1
        } else {
            end
        };
        let content = &text[start..content_end];

        if self.in_map {
            if content.bytes().all(is_map_char) {
                self.out.push(MAP_ROW, start, content_end);
                return self.line_end(content_end);
            }
            if !content.starts_with('#') && !self.map_block_ends_at(content) {
                self.out.push(MAP_ROW, start, content_end);
                if let Some((i, c)) = content
                    .char_indices()
                    .find(|&(_, c)| !c.is_ascii() || !is_map_char(c as u8))
                {
                    let what = if c == '\t' {
                        "a tab".to_string()
                    } else {
                        format!("`{}`", c.escape_debug())
                    };
                    self.error(
                        Code::NH0009,
                        start + i,
                        start + i + c.len_utf8(),
                        format!("{what} is not a map character; map rows hold only - | {{ }} + . # \\ A B C F H I K L P S T W, spaces and digits"),
                    );
                }
                return self.line_end(content_end);
            }
            if !self.map_block_ends_at(content) {
                // A comment line inside the map.
                self.out.push(COMMENT, start, content_end);
                return self.line_end(content_end);
            }
            // ENDMAP, or a statement after a map that was never closed (the parser reports it).
            self.in_map = false;
            if content == "MAP" {
                self.out.push(MAP_KW, start, content_end);
                self.in_map = true;
                return self.line_end(content_end);
            }
        } else if content.starts_with('#') {
            self.out.push(COMMENT, start, content_end);
            return self.line_end(content_end);
        } else if content == "MAP" {
            self.out.push(MAP_KW, start, content_end);
            self.in_map = true;
            return self.line_end(content_end);
        }
        self.tokens(start, end)
    }

    /// Whether a line inside a MAP block closes it: ENDMAP, or a statement keyword.
    fn map_block_ends_at(&self, content: &str) -> bool {
        let word: String = content
            .trim_start_matches([' ', '\t'])
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
            .collect();
        // An upper-case word that is no keyword (`ENDMPA`) is a misspelt one, not a map row.
        let shouting = word.len() >= 4
            && word.chars().all(|c| c.is_ascii_uppercase() || c == '_')
            && !word.bytes().all(is_map_char);
        shouting || keyword(&word).is_some_and(|k| k == ENDMAP_KW || k.is_nethack_statement_start())
    }

    fn line_end(&mut self, content_end: usize) -> usize {
        let rest = &self.text[content_end..];
        let len = if rest.starts_with("\r\n") {
            2
        } else if rest.starts_with('\n') {
            1
        } else {
            0
        };
        if len > 0 {
            self.out.push(NEWLINE, content_end, content_end + len);
        }
        content_end + len
    }

    /// Ordinary tokens from `start`; stops after the first line end outside a string.
    fn tokens(&mut self, start: usize, _line_end: usize) -> usize {
        let text = self.text;
        let mut pos = start;
        let mut first_on_line = true;
        while pos < text.len() {
            let mut raw = RawToken::lexer(&text[pos..]);
            let token = raw.next();
            let span = raw.span();
            let (tok_start, mut tok_end) = (pos + span.start, pos + span.end);
            if tok_end <= tok_start {
                tok_end = tok_start + text[tok_start..].chars().next().map_or(1, char::len_utf8);
            }
            if matches!(token, Some(Err(()))) && text[tok_start..].starts_with('\'') {
                // A quote that starts no character literal is one stray character.
                tok_end = tok_start + 1;
            }
            let slice = &text[tok_start..tok_end];
            let kind = match token {
                Some(Ok(RawToken::Whitespace)) => WHITESPACE,
                Some(Ok(RawToken::Newline)) => {
                    self.out.push(NEWLINE, tok_start, tok_end);
                    return tok_end;
                }
                Some(Ok(RawToken::Word)) => keyword(slice).unwrap_or(IDENT),
                Some(Ok(RawToken::Int)) => INT,
                Some(Ok(RawToken::String)) => {
                    if slice.contains('\n') {
                        self.error(
                            Code::NH0014,
                            tok_start,
                            tok_end,
                            "this string spans several lines; lev_comp accepts it but reports wrong line numbers after it. Close it on its first line",
                        );
                    }
                    STRING
                }
                Some(Ok(RawToken::UnterminatedString)) => {
                    self.error(
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
                    self.error(
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
                    let shown = slice.escape_debug().to_string();
                    let message = match slice {
                        "\r" => "a carriage return not followed by a line feed".to_string(),
                        "'" => "a `'` that does not start a character like 'x'".to_string(),
                        _ => format!("`{shown}` is not part of the lev_comp language; remove it"),
                    };
                    self.error(Code::NH0004, tok_start, tok_end, message);
                    ERROR_CHAR
                }
            };
            if kind == MAP_KW {
                self.error(
                    Code::NH0007,
                    tok_start,
                    tok_end,
                    "MAP must start in column 0 and be alone on its line (no spaces after it)",
                );
                if first_on_line {
                    self.out.push(kind, tok_start, tok_end);
                    self.in_map = true;
                    let rest_end = text[tok_end..]
                        .find('\n')
                        .map_or(text.len(), |i| tok_end + i);
                    let rest_end = if text[..rest_end].ends_with('\r') && rest_end < text.len() {
                        rest_end - 1
                    } else {
                        rest_end
                    };
                    if rest_end > tok_end {
                        self.out.push(WHITESPACE, tok_end, rest_end);
                    }
                    return self.line_end(rest_end);
                }
            }
            if kind == ENDMAP_KW {
                self.in_map = false;
            }
            if kind != WHITESPACE {
                first_on_line = false;
            }
            self.out.push(kind, tok_start, tok_end);
            pos = tok_end;
        }
        pos
    }
}
