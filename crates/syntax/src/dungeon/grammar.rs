//! The dgn_comp grammar (research note §1.5): statements grouped under the DUNGEON line
//! they follow, recovery at the next statement keyword.

use levkit_diagnostics::{Code, Diagnostic};

use super::lexer::{KEYWORDS, keyword};
use crate::SyntaxKind::{self, *};
use crate::parser::{Parsed, Parser};

pub(crate) fn source_file(p: &mut Parser<'_>) {
    p.start_root(SOURCE_FILE);
    while !p.at(EOF) {
        if p.at(DUNGEON_KW) {
            dungeon(p);
        } else {
            statement(p);
        }
    }
}

fn dungeon(p: &mut Parser<'_>) {
    p.start(DUNGEON);
    statement(p);
    while !p.at(EOF) && !p.at(DUNGEON_KW) {
        statement(p);
    }
    p.finish();
}

fn at_boundary(p: &Parser<'_>) -> bool {
    p.current().is_dungeon_statement_start() || (p.at(IDENT) && p.at_line_start())
}

fn statement(p: &mut Parser<'_>) {
    let node = match p.current() {
        DUNGEON_KW => DUNGEON_STMT,
        ENTRY_KW => ENTRY_STMT,
        PROTOFILE_KW => PROTOFILE_STMT,
        DESCRIPTION_KW => DESCRIPTION_STMT,
        DGN_ALIGNMENT_KW => DGN_ALIGNMENT_STMT,
        LEVEL_KW | RNDLEVEL_KW => DGN_LEVEL_STMT,
        CHAINLEVEL_KW | RNDCHLEVEL_KW => CHAIN_LEVEL_STMT,
        LEVELDESC_KW => LEVELDESC_STMT,
        LEVALIGN_KW => LEVALIGN_STMT,
        BRANCH_KW => DGN_BRANCH_STMT,
        CHAINBRANCH_KW => CHAIN_BRANCH_STMT,
        IDENT => {
            let word = p.current_text().to_string();
            let range = p.current_range();
            let mut diagnostic = Diagnostic::new(
                Code::DG0002,
                range,
                format!("`{word}` is not a dungeon.def keyword"),
            );
            let suggestion = if word == "RNDCHAINLEVEL" {
                Some("RNDCHLEVEL")
            } else {
                crate::suggest::closest(&word, statement_keywords())
            };
            if let Some(s) = suggestion {
                diagnostic.message =
                    format!("`{word}` is not a dungeon.def keyword; did you mean `{s}`?");
                if word == "RNDCHAINLEVEL" {
                    diagnostic
                        .message
                        .push_str(" (the dgn_comp manual page misspells it)");
                }
                diagnostic = diagnostic.with_replacement(format!("Replace with `{s}`"), range, s);
            }
            p.push_diagnostic(diagnostic);
            p.bump_error();
            p.skip_until(at_boundary);
            return;
        }
        _ => {
            p.expected("a statement keyword such as DUNGEON, LEVEL or BRANCH");
            p.bump_error();
            p.skip_until(at_boundary);
            return;
        }
    };
    let keyword = p.current();
    let keyword_text = p.current_text();
    p.start(node);
    p.bump();
    let parsed = body(p, node, keyword);
    if parsed.is_some() && !at_boundary(p) && !p.at(EOF) {
        let found = p.describe_current();
        let range = p.current_range();
        p.error(
            Code::DG0001,
            range,
            format!("{found} follows a complete {keyword_text} statement, which takes nothing more; remove it"),
        );
    }
    p.recover_at_statement_end(None, at_boundary, "");
    p.finish();
}

fn couple(p: &mut Parser<'_>) -> Parsed {
    p.start(COORD);
    let parsed = (|| {
        p.expect(L_PAREN, "`(` starting a couple `(base, range)`")?;
        p.expect(INT, "the base level")?;
        p.comma()?;
        p.expect(INT, "the random range")?;
        p.expect(R_PAREN, "`)`")
    })();
    p.finish();
    parsed
}

fn body(p: &mut Parser<'_>, node: SyntaxKind, keyword: SyntaxKind) -> Parsed {
    p.colon()?;
    match node {
        DUNGEON_STMT => {
            p.string("the dungeon's name as a string")?;
            p.string("its bones marker, a one-character string or \"none\"")?;
            couple(p)?;
            p.eat(INT);
            Some(())
        }
        ENTRY_STMT => p.expect(INT, "the entry level number"),
        PROTOFILE_STMT => p.string("the prototype file name as a string"),
        DESCRIPTION_STMT | DGN_ALIGNMENT_STMT | LEVELDESC_STMT | LEVALIGN_STMT => {
            descriptor(p, keyword)
        }
        DGN_LEVEL_STMT => {
            p.string("the level's name as a string")?;
            p.string("its bones marker, a one-character string or \"none\"")?;
            p.expect(AT, "`@`")?;
            couple(p)?;
            if keyword == RNDLEVEL_KW {
                p.expect(INT, "the number of alternative levels")?;
                p.eat(INT);
            } else {
                p.eat(INT);
            }
            Some(())
        }
        CHAIN_LEVEL_STMT => {
            p.string("the level's name as a string")?;
            p.string("its bones marker, a one-character string or \"none\"")?;
            p.string("the name of the level it is placed from")?;
            p.expect(PLUS, "`+`")?;
            couple(p)?;
            if keyword == RNDCHLEVEL_KW {
                p.expect(INT, "the number of alternative levels")?;
                p.eat(INT);
            } else {
                p.eat(INT);
            }
            Some(())
        }
        DGN_BRANCH_STMT | CHAIN_BRANCH_STMT => {
            p.string("the destination dungeon's name as a string")?;
            if node == CHAIN_BRANCH_STMT {
                p.string("the name of the level it is placed from")?;
                p.expect(PLUS, "`+`")?;
            } else {
                p.expect(AT, "`@`")?;
            }
            couple(p)?;
            if !p.eat(BRANCH_TYPE) {
                misspelt_word(
                    p,
                    words_of(&[BRANCH_TYPE, UP_OR_DOWN]),
                    "a branch type or a direction",
                )?;
            }
            if !p.eat(UP_OR_DOWN) {
                misspelt_word(p, words_of(&[UP_OR_DOWN]), "a direction")?;
            }
            Some(())
        }
        _ => Some(()),
    }
}

/// The keywords that start a statement, the only words worth suggesting for an unknown word
/// where a statement starts.
fn statement_keywords() -> impl Iterator<Item = &'static str> {
    KEYWORDS
        .iter()
        .copied()
        .filter(|w| keyword(w).is_some_and(SyntaxKind::is_dungeon_statement_start))
}

/// The keywords lexed as one of `kinds`.
fn words_of(kinds: &'static [SyntaxKind]) -> impl Iterator<Item = &'static str> {
    KEYWORDS
        .iter()
        .copied()
        .filter(|w| keyword(w).is_some_and(|k| kinds.contains(&k)))
}

/// The descriptors that describe a level; a dungeon can be all but a town.
const DESCRIPTIONS: &[&str] = &["town", "hellish", "mazelike", "roguelike"];

/// The descriptor of a DESCRIPTION, ALIGNMENT, LEVELDESC or LEVALIGN statement. dgn_comp's
/// grammar takes any descriptor (the checks judge it: DG0101, DG0102), but only the ones the
/// statement applies are suggested for a misspelt one.
fn descriptor(p: &mut Parser<'_>, statement: SyntaxKind) -> Parsed {
    if p.eat(DESCRIPTOR) {
        return Some(());
    }
    let (what, valid): (&str, &[&str]) = match statement {
        DESCRIPTION_KW => (
            "a description (hellish, mazelike or roguelike)",
            &DESCRIPTIONS[1..],
        ),
        LEVELDESC_KW => (
            "a level description (town, hellish, mazelike or roguelike)",
            DESCRIPTIONS,
        ),
        _ => (
            "an alignment (lawful, neutral, chaotic or unaligned)",
            &["lawful", "neutral", "chaotic", "unaligned", "noalign"],
        ),
    };
    if misspelt_word(p, valid.iter().copied(), what).is_some() {
        p.expected(what);
    }
    None
}

/// Reports a word on the statement's line that is close to one of `candidates` (the words
/// valid here, such as `stair` for `STAIR` after a branch's levels), with a fix; `None` then,
/// as a syntax error. `Some` when there is no such word, leaving the token to the caller.
fn misspelt_word<'w>(
    p: &mut Parser<'_>,
    candidates: impl IntoIterator<Item = &'w str>,
    what: &str,
) -> Parsed {
    if !p.at(IDENT) || p.at_line_start() {
        return Some(());
    }
    let word = p.current_text();
    let Some(suggestion) = crate::suggest::closest(word, candidates) else {
        return Some(());
    };
    let range = p.current_range();
    let case_only = word.eq_ignore_ascii_case(suggestion);
    let mut message = format!("expected {what}, found `{word}`; did you mean `{suggestion}`?");
    if case_only {
        message.push_str(" (dgn_comp's words are case-sensitive");
        if DESCRIPTIONS[1..].contains(&suggestion) {
            message.push_str(", though its manual page writes HELLISH, MAZELIKE and ROGUELIKE");
        }
        message.push(')');
    }
    p.push_diagnostic(
        Diagnostic::new(Code::DG0001, range, message).with_replacement(
            format!("Replace with `{suggestion}`"),
            range,
            suggestion,
        ),
    );
    None
}
