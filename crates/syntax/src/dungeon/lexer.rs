//! The dgn_comp lexer, with makedefs' line conditions: a line starting with `%REINCARNATION`
//! is kept without the prefix (the option is on in the default build); `#` in column 0 starts
//! a comment line.

use levkit_diagnostics::Code;
use logos::Logos;

use crate::SyntaxKind::{self, *};
use crate::parser::Lexed;
use crate::{atoi, beyond_int};

#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq)]
enum RawToken {
    #[regex(r"[ \t]+")]
    Whitespace,
    #[regex(r"\r?\n")]
    Newline,
    #[regex(r"[A-Za-z_][A-Za-z0-9_]*")]
    Word,
    // dgn_comp's integers are any run of digits and minus signs, read with atoi.
    #[regex(r"[-0-9]+")]
    Int,
    #[regex(r#""[^"]*""#)]
    String,
    #[regex(r#""[^"\n]*"#, allow_greedy = true)]
    UnterminatedString,
    #[token(":")]
    Colon,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token(",")]
    Comma,
    #[token("@")]
    At,
    #[token("+")]
    Plus,
}

pub fn keyword(word: &str) -> Option<SyntaxKind> {
    Some(match word {
        "DUNGEON" => DUNGEON_KW,
        "ENTRY" => ENTRY_KW,
        "PROTOFILE" => PROTOFILE_KW,
        "DESCRIPTION" => DESCRIPTION_KW,
        "LEVELDESC" => LEVELDESC_KW,
        "ALIGNMENT" => DGN_ALIGNMENT_KW,
        "LEVALIGN" => LEVALIGN_KW,
        "BRANCH" => BRANCH_KW,
        "CHAINBRANCH" => CHAINBRANCH_KW,
        "LEVEL" => LEVEL_KW,
        "RNDLEVEL" => RNDLEVEL_KW,
        "CHAINLEVEL" => CHAINLEVEL_KW,
        "RNDCHLEVEL" => RNDCHLEVEL_KW,
        "up" | "down" => UP_OR_DOWN,
        "stair" | "no_up" | "no_down" | "portal" => BRANCH_TYPE,
        "town" | "hellish" | "mazelike" | "roguelike" | "unaligned" | "noalign" | "lawful"
        | "neutral" | "chaotic" => DESCRIPTOR,
        _ => return None,
    })
}

pub const KEYWORDS: &[&str] = &[
    "DUNGEON",
    "ENTRY",
    "PROTOFILE",
    "DESCRIPTION",
    "LEVELDESC",
    "ALIGNMENT",
    "LEVALIGN",
    "BRANCH",
    "CHAINBRANCH",
    "LEVEL",
    "RNDLEVEL",
    "CHAINLEVEL",
    "RNDCHLEVEL",
    "up",
    "down",
    "stair",
    "no_up",
    "no_down",
    "portal",
    "town",
    "hellish",
    "mazelike",
    "roguelike",
    "unaligned",
    "noalign",
    "lawful",
    "neutral",
    "chaotic",
];

/// The makedefs conditions the default build turns on.
const CONDITIONS_ON: &[&str] = &["REINCARNATION"];

pub fn lex(text: &str) -> Lexed {
    let mut out = Lexed::default();
    let mut pos = 0;
    let mut line_start = true;
    while pos < text.len() {
        let rest = &text[pos..];
        if line_start && rest.starts_with('#') {
            let end = pos + rest.find('\n').map_or(rest.len(), |i| i);
            let end = if text[..end].ends_with('\r') && end > pos {
                end - 1
            } else {
                end
            };
            out.push(COMMENT, pos, end);
            pos = end;
            line_start = false;
            continue;
        }
        if line_start && rest.starts_with('%') {
            let name_len = rest[1..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(rest.len() - 1, |i| i);
            let end = pos + 1 + name_len;
            let name = &text[pos + 1..end];
            out.push(PREPROCESSOR, pos, end);
            if !CONDITIONS_ON.contains(&name) {
                out.error(
                    Code::DG0005,
                    pos,
                    end,
                    format!(
                        "makedefs knows no condition `%{name}` and stops; the only one is `%REINCARNATION`"
                    ),
                );
            }
            pos = end;
            line_start = false;
            continue;
        }
        let mut raw = RawToken::lexer(rest);
        let token = raw.next();
        let span = raw.span();
        let (start, mut end) = (pos + span.start, pos + span.end);
        if end <= start {
            end = start + rest.chars().next().map_or(1, char::len_utf8);
        }
        let slice = &text[start..end];
        let kind = match token {
            Some(Ok(RawToken::Whitespace)) => WHITESPACE,
            Some(Ok(RawToken::Newline)) => NEWLINE,
            Some(Ok(RawToken::Word)) => keyword(slice).unwrap_or(IDENT),
            Some(Ok(RawToken::Int)) => {
                let clean = slice.strip_prefix('-').unwrap_or(slice);
                if clean.is_empty() || !clean.bytes().all(|b| b.is_ascii_digit()) {
                    out.error(
                        Code::DG0006,
                        start,
                        end,
                        format!(
                            "dgn_comp reads `{slice}` as the single number {}; write one number",
                            atoi(slice)
                        ),
                    );
                } else if let Some(message) = beyond_int(slice, "dgn_comp") {
                    out.error(Code::DG0008, start, end, message);
                }
                INT
            }
            Some(Ok(RawToken::String)) => {
                if slice.contains('\n') {
                    out.error(
                        Code::DG0007,
                        start,
                        end,
                        "this string spans several lines, swallowing what follows its first line; close it on its first line",
                    );
                }
                STRING
            }
            Some(Ok(RawToken::UnterminatedString)) => {
                out.error(Code::DG0003, start, end, "this string has no closing `\"`");
                UNTERMINATED_STRING
            }
            Some(Ok(RawToken::Colon)) => COLON,
            Some(Ok(RawToken::LParen)) => L_PAREN,
            Some(Ok(RawToken::RParen)) => R_PAREN,
            Some(Ok(RawToken::Comma)) => COMMA,
            Some(Ok(RawToken::At)) => AT,
            Some(Ok(RawToken::Plus)) => PLUS,
            Some(Err(())) | None => {
                let message = if slice == "%" {
                    "`%` is a chance in the dgn_comp manual page, but dgn_comp wants a bare number: remove the `%`".to_string()
                } else if slice == "#" {
                    "`#` starts a comment only in column 0".to_string()
                } else {
                    format!(
                        "`{}` is not part of the dungeon.def language",
                        slice.escape_debug()
                    )
                };
                out.error(Code::DG0004, start, end, message);
                ERROR_CHAR
            }
        };
        out.push(kind, start, end);
        line_start = kind == NEWLINE;
        pos = end;
    }
    out
}
