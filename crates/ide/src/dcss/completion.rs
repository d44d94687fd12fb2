//! Completion in vault files: header keywords at the start of a line; and in a header's value,
//! what it takes at the cursor: monster names (MONS, KMONS), item names (ITEM, KITEM, a
//! monster's equipment), features, traps and shops (KFEAT), tags (crawl's and the
//! workspace's), branch names (DEPTH, PLACE, default-depth, the depths of CHANCE and WEIGHT),
//! ORIENT values, KMASK and KPROP words, colours and tiles, and the tags SUBVAULT can ask for.

use levkit_diagnostics::{TextRange, TextSize};
use levkit_model::dcss::tables::{
    BRANCHES, COLOURS, FEATURE_FORMS, FEATURES, ITEMS, MONSTERS, TILES, WORDS,
};
use levkit_syntax::SyntaxKind::*;
use levkit_syntax::dcss::Header;

use super::cursor::segment_at;
use super::segment_parse;
use crate::db::{SourceFile, Workspace};
use crate::features::{Completion, CompletionKind};

pub(crate) fn completions(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    offset: TextSize,
) -> Vec<Completion> {
    let Some((placed, rel)) = segment_at(db, file, offset) else {
        return Vec::new();
    };
    let text = &**placed.segment.text(db);
    let at = usize::from(rel).min(text.len());
    // Nothing to offer inside a map or Lua.
    let root = segment_parse(db, placed.segment).syntax();
    if let Some(token) = root.token_at_offset(rel).left_biased()
        && token.kind() != NEWLINE
        && token
            .parent_ancestors()
            .any(|n| matches!(n.kind(), DCSS_MAP | LUA_LINE | LUA_BLOCK))
    {
        return Vec::new();
    }
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..at];
    let previous_continues = line_start > 0
        && text[..line_start - 1]
            .trim_end_matches('\r')
            .trim_end_matches([' ', '\t'])
            .ends_with('\\');
    let shift = |start: usize| TextRange::new(TextSize::from(start as u32), rel) + placed.start;
    // A word at the start of a line: a header keyword.
    let word = before.trim_start_matches([' ', '\t']);
    if !previous_continues && word.bytes().all(|b| b.is_ascii_alphabetic() || b == b'-') {
        let replace = shift(at - word.len());
        let mut out: Vec<Completion> = Header::ALL
            .iter()
            .map(|h| h.keyword())
            .chain(["MAP", "ENDMAP"])
            .filter(|k| starts_with(k, word))
            .map(|k| completion(k, CompletionKind::Keyword, None, replace))
            .collect();
        out.sort_by(|a, b| a.label.cmp(&b.label));
        return out;
    }
    // The header of the line (or of the line it continues), and its value before the cursor.
    let (header, value_start) = match header_on(before) {
        Some((header, value)) => (header, line_start + value),
        None if previous_continues => {
            let mut start = line_start - 1;
            loop {
                let line = text[..start].rfind('\n').map_or(0, |i| i + 1);
                if let Some((header, _)) = header_on(&text[line..start]) {
                    break (header, line_start);
                }
                if line == 0 {
                    return Vec::new();
                }
                start = line - 1;
            }
        }
        None => return Vec::new(),
    };
    let value = &text[value_start..at];
    value_completions(db, workspace, header, value)
        .map(|(start_in_value, candidates)| {
            let typed = &value[start_in_value..];
            let replace = shift(value_start + start_in_value);
            candidates
                .into_iter()
                // (The word being typed is already a tag of the workspace.)
                .filter(|(label, _)| starts_with(label, typed) && label != typed)
                .map(|(label, kind)| completion(&label, kind, None, replace))
                .collect()
        })
        .unwrap_or_default()
}

fn completion(
    label: &str,
    kind: CompletionKind,
    detail: Option<String>,
    replace: TextRange,
) -> Completion {
    Completion {
        label: label.to_string(),
        kind,
        detail,
        replace,
    }
}

/// Whether `label` starts with what was typed (case and `_`/space aside).
fn starts_with(label: &str, typed: &str) -> bool {
    let norm = |s: &str| s.to_lowercase().replace('_', " ");
    norm(label).starts_with(&norm(typed))
}

/// The last header keyword of a line before the cursor, and where its value starts.
fn header_on(line: &str) -> Option<(Header, usize)> {
    let mut found = None;
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_alphabetic() && (i == 0 || !is_word(bytes[i - 1])) {
            let end = i + bytes[i..].iter().take_while(|&&b| is_word(b)).count();
            if bytes.get(end) == Some(&b':')
                && let Some(header) = Header::from_keyword(&line[i..end])
            {
                found = Some((header, end + 1));
            }
            i = end;
        } else {
            i += 1;
        }
    }
    found
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
}

type Candidates = Vec<(String, CompletionKind)>;

/// Where the word being completed starts in `value` (the header's value up to the cursor),
/// and what may stand there.
fn value_completions(
    db: &dyn salsa::Database,
    workspace: Workspace,
    header: Header,
    value: &str,
) -> Option<(usize, Candidates)> {
    // The start of the piece after the last of `separators`, past blanks (and `!`).
    let piece = |from: usize, separators: &[char]| {
        let rest = &value[from..];
        let start = from + rest.rfind(|c| separators.contains(&c)).map_or(0, |i| i + 1);
        start + value[start..].len() - value[start..].trim_start_matches([' ', '\t', '!']).len()
    };
    // Where a glyph-keyed value starts: after the first `=` or `:` from the key's second byte
    // (the key of the comma item at the cursor, for the headers that take comma lists).
    let after_key = || {
        let item = match header {
            Header::Colour | Header::FTile | Header::RTile | Header::Tile => {
                value.rfind(',').map_or(0, |i| i + 1)
            }
            _ => 0,
        };
        let trimmed = item + value[item..].len() - value[item..].trim_start().len();
        value[trimmed..]
            .char_indices()
            .skip(1)
            .find(|(_, c)| *c == '=' || *c == ':')
            .map(|(i, c)| trimmed + i + c.len_utf8())
    };
    let words = |header: &str| -> Candidates {
        WORDS
            .iter()
            .filter(|w| w.header == header && !w.word.contains('<'))
            .map(|w| (w.word.to_string(), CompletionKind::Value))
            .collect()
    };
    let branches = || -> Candidates {
        BRANCHES
            .iter()
            .map(|b| (b.abbrev.to_string(), CompletionKind::Value))
            .collect()
    };
    let monsters = || -> Candidates {
        MONSTERS
            .iter()
            .map(|m| (m.name.to_string(), CompletionKind::Monster))
            .collect()
    };
    let items = || -> Candidates {
        ITEMS
            .iter()
            .map(|i| (i.name.to_string(), CompletionKind::Object))
            .collect()
    };
    let tiles = |accepts: fn(&levkit_model::dcss::tables::Tile) -> bool| -> Candidates {
        TILES
            .iter()
            .filter(|t| accepts(t))
            .map(|t| (t.name.to_string(), CompletionKind::Value))
            .collect()
    };
    let colours = |accepts: fn(&levkit_model::dcss::tables::Colour) -> bool| -> Candidates {
        COLOURS
            .iter()
            .filter(|c| accepts(c))
            .map(|c| (c.name.to_string(), CompletionKind::Value))
            .collect()
    };
    let index = super::tags::tag_index(db, workspace);
    Some(match header {
        Header::Tags => {
            let start = value.rfind([' ', '\t']).map_or(0, |i| i + 1);
            let mut tags: Vec<String> = levkit_check::dcss::crawl_tag_words()
                .map(str::to_string)
                .chain(index.tags().map(str::to_string))
                .collect();
            tags.sort();
            tags.dedup();
            (
                start,
                tags.into_iter()
                    .map(|t| (t, CompletionKind::Value))
                    .collect(),
            )
        }
        Header::Depth | Header::Place | Header::DefaultDepth => {
            let start = piece(0, &[',']);
            if value[start..].contains(':') {
                return None;
            }
            (start, branches())
        }
        Header::Chance | Header::Weight => {
            let open = value.rfind('(')?;
            if value[open..].contains(')') {
                return None;
            }
            let start = piece(open + 1, &[',', '(']);
            if value[start..].contains(':') {
                return None;
            }
            (start, branches())
        }
        Header::Orient => (piece(0, &[]), words("ORIENT")),
        Header::Mons => {
            let start = piece(0, &[',', '/', ';', '|']);
            let in_equipment = value[value.rfind([',', '/']).map_or(0, |i| i + 1)..].contains(';');
            (start, if in_equipment { items() } else { monsters() })
        }
        Header::Item => (piece(0, &[',', '/']), items()),
        Header::LFloorCol => (piece(0, &[]), colours(|c| c.lfloorcol)),
        Header::LRockCol => (piece(0, &[]), colours(|c| c.lrockcol)),
        Header::LFloorTile | Header::LRockTile => (piece(0, &[]), tiles(|_| true)),
        Header::KMons => {
            let start = piece(after_key()?, &[',', '/', ';', '|']);
            let slot = value.rfind([',', '/']).map_or(0, |i| i + 1);
            let in_equipment = value[slot.max(after_key()?)..].contains(';');
            (start, if in_equipment { items() } else { monsters() })
        }
        Header::KItem => (piece(after_key()?, &[',', '/']), items()),
        Header::KFeat => {
            let mut candidates: Candidates = FEATURES
                .iter()
                .filter(|f| f.accepted)
                .map(|f| (f.name.to_string(), CompletionKind::Feature))
                .collect();
            candidates.extend(
                FEATURE_FORMS
                    .iter()
                    .filter(|f| f.accepted && f.kind != "probe")
                    .map(|f| (f.spec.to_string(), CompletionKind::Feature)),
            );
            (piece(after_key()?, &['/']), candidates)
        }
        Header::KMask => (piece(after_key()?, &['/', ' ']), words("KMASK")),
        Header::KProp => (piece(after_key()?, &['/']), words("KPROP")),
        Header::Colour => (piece(after_key()?, &['/']), colours(|c| c.colour)),
        Header::FTile => (piece(after_key()?, &['/']), tiles(|t| t.ftile)),
        Header::RTile => (piece(after_key()?, &['/']), tiles(|t| t.rtile)),
        Header::Tile => (piece(after_key()?, &['/']), tiles(|t| t.tile)),
        Header::Subvault => {
            let mut tags: Vec<String> = index.selection_tags().map(str::to_string).collect();
            tags.sort();
            (
                piece(after_key()?, &['/']),
                tags.into_iter()
                    .map(|t| (t, CompletionKind::Name))
                    .collect(),
            )
        }
        Header::Name
        | Header::Desc
        | Header::Welcome
        | Header::Marker
        | Header::Clear
        | Header::Subst
        | Header::NSubst
        | Header::Shuffle
        | Header::FHeight
        | Header::Order => return None,
    })
}
