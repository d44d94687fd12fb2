//! The dgn_comp lexer, over a `dungeon.def` as `makedefs -e` passes it on to dgn_comp.
//!
//! makedefs reads the file with `fgets` into a 256-byte buffer, so a line comes in pieces of at
//! most 255 bytes, and it judges each piece by its first byte: `#` drops the piece; `%` starts
//! a condition, which it compares with `strncmp` against the only one, `REINCARNATION` (on in
//! the default build), so a piece that merely starts with `%REINCARNATION` is kept without
//! those 14 bytes, whatever follows them; any other `%` stops makedefs. What it keeps reaches
//! dgn_comp, for which `#` at the start of a line starts a comment that its line break ends.
//! The tokens are those of dgn_comp; what makedefs removes is trivia (`COMMENT`,
//! `PREPROCESSOR`).

use levkit_diagnostics::{Code, Diagnostic, TextRange};
use logos::Logos;

use crate::SyntaxKind::{self, *};
use crate::parser::{Lexed, offset};
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

/// The most bytes makedefs reads of a line at a time (`fgets` into `char in_line[256]`).
const PIECE: usize = 255;
/// The one condition makedefs knows, without its `%`; the default build turns it on.
const CONDITION: &str = "REINCARNATION";

pub fn lex(text: &str) -> Lexed {
    let mut out = Lexed::default();
    let bytes = text.as_bytes();
    let mut pos = 0;
    // Where the line being read starts in the file.
    let mut line_start = 0;
    // Whether what makedefs has passed on so far ends with a line break (its header does).
    let mut pdf_line_start = true;
    // The end of the last piece makedefs dropped: tokens up to it never reach dgn_comp.
    let mut dropped_until = 0;
    // Just past the line break of the line `pos` is on: searched once a line, not once a
    // token, so a long line lexes in linear time.
    let mut line_end = 0;
    while pos < text.len() {
        if pos >= line_end {
            line_end = memchr::memchr(b'\n', &bytes[pos..]).map_or(text.len(), |i| pos + i + 1);
        }
        let into_line = pos - line_start;
        if into_line % PIECE == 0 && matches!(bytes[pos], b'#' | b'%') {
            // A piece can end inside a character (the text is decoded, makedefs reads bytes):
            // levkit's cut moves to the character's end.
            let mut piece_end = (pos + PIECE).min(line_end);
            while !text.is_char_boundary(piece_end) {
                piece_end += 1;
            }
            // A piece after a dropped one continues a long comment line.
            let cut_from_its_line = into_line > 0 && dropped_until != pos;
            if bytes[pos] == b'#' {
                let end = comment_end(text, pos, piece_end);
                if cut_from_its_line {
                    out.error(Code::DG0010, pos, end, format!(
                        "makedefs reads a line at most 255 bytes at a time and drops a piece that starts with `#`: dgn_comp never sees {}; shorten the line",
                        if piece_end == line_end { "the rest of this line, line break included" } else { "these 255 bytes" }
                    ));
                }
                out.push(COMMENT, pos, end);
                dropped_until = piece_end;
                let tail_end = content_end(text, line_end);
                if piece_end < line_end
                    && bytes[piece_end] != b'#'
                    && !text
                        .get(end..tail_end)
                        .unwrap_or("")
                        .trim_matches([' ', '\t'])
                        .is_empty()
                {
                    out.error(
                        Code::DG0010,
                        end,
                        tail_end,
                        "makedefs reads a line at most 255 bytes at a time and drops only the pieces that start with `#`: the rest of this comment line reaches dgn_comp; keep comment lines shorter than 255 bytes",
                    );
                }
                pos = end;
            } else {
                if cut_from_its_line {
                    out.error(
                        Code::DG0010,
                        pos,
                        pos + 1,
                        "makedefs reads a line at most 255 bytes at a time and reads a piece that starts with `%` as a condition; shorten the line",
                    );
                }
                pos = condition(text, pos, piece_end, pdf_line_start, &mut out);
            }
            continue;
        }
        let rest = &text[pos..];
        if rest.starts_with('#') && pdf_line_start {
            // Only after a `%REINCARNATION` removed (makedefs drops the other `#` lines).
            if text[..line_end].ends_with('\n') {
                let end = comment_end(
                    text,
                    pos,
                    next_special_piece(text, line_start, pos, line_end).min(line_end),
                );
                out.push(COMMENT, pos, end);
                pos = end;
                continue;
            }
            out.error(
                Code::DG0004,
                pos,
                pos + 1,
                "dgn_comp reads `#` as a comment only when a line break ends its line, and this is the file's last line; end it with a line break",
            );
            out.push(ERROR_CHAR, pos, pos + 1);
            pos += 1;
            pdf_line_start = false;
            continue;
        }
        let limit = next_special_piece(text, line_start, pos, line_end);
        let mut raw = RawToken::lexer(&text[pos..limit]);
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
                let message = match slice {
                    "%" if text[end..].starts_with(|c: char| c.is_ascii_alphabetic()) => {
                        "`%` starts a makedefs condition only in column 0, and makedefs removes one condition a line: dgn_comp gets this `%`, which it does not accept"
                    }
                    "%" => {
                        "`%` is a chance in the dgn_comp manual page, but dgn_comp wants a bare number: remove the `%`"
                    }
                    "#" => "`#` starts a comment only in column 0",
                    "'" => {
                        "`'` is not part of the dungeon.def language: dgn_comp's strings are in double quotes, like \"R\""
                    }
                    _ => "",
                };
                if message.is_empty() {
                    out.unknown_character(Code::DG0004, text, start, end, |run| {
                        format!("`{}` is not part of the dungeon.def language", shown(run))
                    });
                } else {
                    out.error(Code::DG0004, start, end, message);
                }
                ERROR_CHAR
            }
        };
        out.push(kind, start, end);
        if end > dropped_until {
            pdf_line_start = text[..end].ends_with('\n');
        }
        if let Some(i) = slice.rfind('\n') {
            line_start = start + i + 1;
        }
        pos = end;
    }
    out
}

/// After `%` at `pos`, at the start of a piece ending at `piece_end`: the condition makedefs
/// removes, or the one it does not know and stops at. Returns where dgn_comp's text resumes.
fn condition(
    text: &str,
    pos: usize,
    piece_end: usize,
    pdf_line_start: bool,
    out: &mut Lexed,
) -> usize {
    let word_len = |from: usize| {
        text[from..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(text.len() - from)
    };
    let after = pos + 1 + CONDITION.len();
    if text[pos + 1..].starts_with(CONDITION) && after <= piece_end {
        out.push(PREPROCESSOR, pos, after);
        let glued = word_len(after);
        if glued > 0 {
            let rest = &text[after..after + glued];
            let range = TextRange::new(offset(pos), offset(after + glued));
            let mut diagnostic = Diagnostic::new(
                Code::DG0009,
                range,
                format!(
                    "makedefs matches `%{CONDITION}` as a prefix and keeps the rest of the word: dgn_comp reads `{rest}` at the start of this line"
                ),
            );
            // A space helps when the rest is a keyword, as in `%REINCARNATIONLEVEL:`.
            if keyword(rest).is_some() {
                diagnostic
                    .message
                    .push_str(&format!("; put a space after `%{CONDITION}`"));
                diagnostic = diagnostic.with_replacement(
                    format!("Put a space after `%{CONDITION}`"),
                    TextRange::empty(offset(after)),
                    " ",
                );
            }
            out.errors.push(diagnostic);
        } else if pdf_line_start && text[after..].starts_with('#') {
            out.error(
                Code::DG0009,
                pos,
                after + 1,
                format!(
                    "makedefs removes `%{CONDITION}` and keeps the `#`, which makes the line a dgn_comp comment: the line has no effect; to comment the line out, start it with `#`"
                ),
            );
        }
        return after;
    }
    let end = pos + 1 + word_len(pos + 1);
    let name = &text[pos + 1..end];
    out.push(PREPROCESSOR, pos, end);
    let mut diagnostic = Diagnostic::new(
        Code::DG0005,
        TextRange::new(offset(pos), offset(end)),
        format!(
            "makedefs knows no condition `%{name}` and stops; the only one is `%{CONDITION}`, which a line must start with"
        ),
    );
    if !name.is_empty() && crate::suggest::closest(name, [CONDITION]).is_some() {
        diagnostic.message = format!(
            "makedefs knows no condition `%{name}` and stops; did you mean `%{CONDITION}`? (makedefs compares it with the start of the line, case included)"
        );
        diagnostic = diagnostic.with_replacement(
            format!("Replace with `%{CONDITION}`"),
            TextRange::new(offset(pos), offset(end)),
            format!("%{CONDITION}"),
        );
    }
    out.errors.push(diagnostic);
    end
}

/// The end of a comment (one makedefs drops, or one of dgn_comp's) that may run to `limit`:
/// the line break stays a token of its own, and the end is never inside a character.
fn comment_end(text: &str, pos: usize, limit: usize) -> usize {
    let mut end = limit;
    if text[..end].ends_with('\n') {
        end -= 1;
    }
    if end > pos && text[..end].ends_with('\r') && text[end..].starts_with('\n') {
        end -= 1;
    }
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    end
}

/// The end of a line's text, before its line break.
fn content_end(text: &str, line_end: usize) -> usize {
    let line = &text[..line_end];
    let line = line.strip_suffix('\n').unwrap_or(line);
    line.strip_suffix('\r').unwrap_or(line).len()
}

/// The next piece makedefs reads after `pos` that starts with `#` or `%` (so that it drops
/// or changes it): no token of dgn_comp's runs across its start. The end of the text if none.
fn next_special_piece(text: &str, line_start: usize, pos: usize, line_end: usize) -> usize {
    let mut at = line_start + ((pos - line_start) / PIECE + 1) * PIECE;
    while at < line_end {
        if matches!(text.as_bytes()[at], b'#' | b'%') {
            return at;
        }
        at += PIECE;
    }
    text.len()
}

/// A stray character as typed, escaping only what would not show.
fn shown(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\'' | '"' | '\\' => c.to_string(),
            _ => c.escape_debug().to_string(),
        })
        .collect()
}
