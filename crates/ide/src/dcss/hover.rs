//! Hover in vault files: every header (what it does, its syntax), the map and Lua block words,
//! a map glyph (what it becomes, through which SUBST/NSUBST/SHUFFLE and K* of the vault), the
//! glyphs of a header's key, monster, item and feature names, tags, depth lists in words.

use std::fmt::Write;

use levkit_diagnostics::{TextRange, TextSize};
use levkit_model::dcss::tables::{FEATURES, ITEMS, MONSTERS, WORDS};
use levkit_model::dcss::{Arg, HeaderLine, Segment, Vault, spec};
use levkit_syntax::SyntaxKind::*;
use levkit_syntax::dcss::Header;

use super::cursor::{Spot, piece_around, segment_at, spot};
use super::glyphs::{fate, meaning};
use super::{docs, segment_model, segment_parse};
use crate::db::{SourceFile, line_index};
use crate::features::Hover;

pub(crate) fn hover(db: &dyn salsa::Database, file: SourceFile, offset: TextSize) -> Option<Hover> {
    let (placed, rel) = segment_at(db, file, offset)?;
    let shift = |range: TextRange| range + placed.start;
    let line_of = |range: TextRange| {
        line_index(db, file)
            .line_col(range.start() + placed.start)
            .line
            + 1
    };
    let root = segment_parse(db, placed.segment).syntax();
    if let Some(token) = crate::tree::token_at(&root, rel) {
        let word = match token.kind() {
            MAP_KW => Some("MAP"),
            ENDMAP_KW => Some("ENDMAP"),
            LUA_CHUNK_KW => Some(token.text()),
            LUA_OPEN if token.prev_token().is_none_or(|t| t.kind() != LUA_CHUNK_KW) => Some("lua"),
            _ => None,
        };
        if let Some(doc) = word.and_then(docs::keyword) {
            return Some(Hover {
                range: shift(token.text_range()),
                markdown: crate::docs::render(doc),
            });
        }
    }
    let (range, markdown) = match segment_model(db, placed.segment) {
        Segment::Global(global) => {
            let header = global.default_depth.as_ref()?;
            header_hover(None, header, rel, &line_of)?
        }
        Segment::Vault(vault) => match spot(vault, rel) {
            Spot::Keyword(header) => header_hover(Some(vault), header, rel, &line_of)?,
            Spot::Argument(header) => header_hover(Some(vault), header, rel, &line_of)?,
            Spot::Cell(row, column) => {
                let glyph = *row.text.as_bytes().get(column)?;
                let range =
                    TextRange::at(row.range.start() + TextSize::from(column as u32), 1.into());
                (range, glyph_story(vault, glyph, &line_of))
            }
            Spot::Elsewhere => return None,
        },
    };
    Some(Hover {
        range: shift(range),
        markdown,
    })
}

/// The hover of a header: its documentation on the keyword; on an argument, what the word
/// under the cursor is.
fn header_hover(
    vault: Option<&Vault>,
    header: &HeaderLine,
    offset: TextSize,
    line_of: &dyn Fn(TextRange) -> u32,
) -> Option<(TextRange, String)> {
    if header.keyword.contains(offset) || header.keyword.end() == offset {
        let doc = docs::keyword(header.header.keyword())?;
        return Some((header.keyword, crate::docs::render(doc)));
    }
    if matches!(header.header, Header::Chance | Header::Weight) {
        let item = header.numbers.iter().find(|n| n.range.contains(offset))?;
        let depths = item.depths.as_ref()?;
        return Some((
            depths.range,
            format!(
                "**{}** — {}",
                depths.value,
                docs::depths_in_words(&depths.value)
            ),
        ));
    }
    let arg = header
        .args
        .iter()
        .find(|a| a.range.contains(offset) || a.range.end() == offset)?;
    let at = usize::from(offset - arg.range.start());
    let exact = u32::from(arg.range.len()) as usize == arg.text.len();
    let sub = |span: std::ops::Range<usize>| {
        if exact {
            TextRange::new(
                arg.range.start() + TextSize::from(span.start as u32),
                arg.range.start() + TextSize::from(span.end as u32),
            )
        } else {
            arg.range
        }
    };
    match header.header {
        Header::Depth | Header::Place | Header::DefaultDepth => Some((
            arg.range,
            format!("**{}** — {}", arg.text, docs::depths_in_words(&arg.text)),
        )),
        Header::Tags => Some((arg.range, tag_words(&arg.text))),
        Header::Orient | Header::KMask | Header::KProp => {
            let span = piece_around(&arg.text, at, &[' ', '/', '=', ':', '!']);
            let word = &arg.text[span.clone()];
            let meaning = WORDS
                .iter()
                .find(|w| w.header == header.header.keyword() && w.word == word)?;
            Some((sub(span), format!("**{word}** — {}", meaning.meaning)))
        }
        _ => {
            let vault = vault?;
            // On the key of a glyph-keyed header: the glyph's story.
            let key = match header.header {
                Header::Shuffle | Header::Clear => Some(0..arg.text.len()),
                Header::Mons | Header::Item => None,
                _ => spec::split(&arg.text).ok().map(|k| k.key_range),
            };
            if key.is_some_and(|k| k.contains(&at) && exact)
                && let Some(&glyph) = arg.text.as_bytes().get(at)
                && !matches!(glyph, b' ' | b'/' | b',')
            {
                return Some((sub(at..at + 1), glyph_story(vault, glyph, line_of)));
            }
            let value_start = match header.header {
                Header::Mons | Header::Item => 0,
                _ => spec::split(&arg.text).ok()?.value_range.start,
            };
            if at < value_start {
                return None;
            }
            let span = piece_around(
                &arg.text[value_start..],
                at - value_start,
                &['/', ',', ';', '|'],
            );
            let span = span.start + value_start..span.end + value_start;
            let piece = &arg.text[span.clone()];
            let markdown = match header.header {
                Header::Mons | Header::KMons => monster(piece)?,
                Header::Item | Header::KItem => item(piece)?,
                Header::KFeat => feature(piece)?,
                _ => return None,
            };
            Some((sub(span), markdown))
        }
    }
}

/// The words of a spec that are not tags (`w:5`, `generate_awake`...).
fn spec_name(piece: &str) -> String {
    const FLAGS: &[&str] = &[
        "generate_awake",
        "patrolling",
        "band",
        "seen",
        "always_corpse",
        "never_corpse",
        "good_item",
        "randart",
        "mimic",
        "no_mimic",
        "no_pickup",
        "mundane",
        "damaged",
        "cursed",
        "star_item",
        "useful",
        "unobtainable",
    ];
    piece
        .split_whitespace()
        .filter(|w| !w.contains(':') && !FLAGS.contains(w))
        .collect::<Vec<_>>()
        .join(" ")
        .replace('_', " ")
}

fn monster(piece: &str) -> Option<String> {
    let name = spec_name(piece);
    let lower = name.to_lowercase();
    let m = MONSTERS.iter().find(|m| m.name.to_lowercase() == lower)?;
    let forms: Vec<&str> = [
        (m.zombie, "zombie"),
        (m.skeleton, "skeleton"),
        (m.simulacrum, "simulacrum"),
        (m.spectral, "spectral thing"),
    ]
    .iter()
    .filter(|(ok, _)| *ok)
    .map(|(_, f)| *f)
    .collect();
    let mut out = format!(
        "**{}** — monster `{}` ({})",
        m.name,
        m.glyph,
        m.colour.to_lowercase()
    );
    if !forms.is_empty() {
        let _ = write!(
            out,
            "\n\nAlso as a {} (`{} zombie`...).",
            forms.join(", "),
            m.name
        );
    }
    if m.corpse {
        out.push_str(" Leaves a corpse.");
    }
    Some(out)
}

fn item(piece: &str) -> Option<String> {
    let name = spec_name(piece).to_lowercase();
    let i = ITEMS
        .iter()
        .find(|i| i.key == name || i.name.to_lowercase() == name)?;
    let class = i
        .class
        .strip_prefix("OBJ_")
        .unwrap_or(i.class.as_str())
        .to_lowercase()
        .replace('_', " ");
    Some(format!("**{}** — item ({class})", i.name))
}

fn feature(piece: &str) -> Option<String> {
    let name = spec_name(piece).replace(' ', "_");
    let f = FEATURES.iter().find(|f| f.name == name)?;
    let glyph = if f.glyph.is_empty() {
        String::new()
    } else {
        format!(", shown as `{}`", f.glyph)
    };
    Some(format!(
        "**{}** — dungeon feature: {}{glyph} ({})",
        f.name,
        if f.description.is_empty() {
            f.name
        } else {
            f.description
        },
        f.colour.to_lowercase()
    ))
}

/// The meaning of each word of a TAGS argument (one word: the argument is the word).
fn tag_words(word: &str) -> String {
    let meaning = WORDS.iter().filter(|w| w.header == "TAGS").find(|w| {
        match (w.word.find('<'), w.word.rfind('>')) {
            (Some(open), Some(close)) => {
                word.len() > open + w.word.len() - close - 1
                    && word.starts_with(&w.word[..open])
                    && word.ends_with(&w.word[close + 1..])
            }
            _ => w.word == word,
        }
    });
    match meaning {
        Some(w) => format!("**{word}** — {} ({})", w.meaning, w.kind),
        None => format!(
            "**{word}** — a tag of this vault: crawl does not act on it, but SUBVAULTs, Lua and crawl's builders may pick vaults by it"
        ),
    }
}

/// What a glyph becomes in the vault, through which headers.
fn glyph_story(vault: &Vault, glyph: u8, line_of: &dyn Fn(TextRange) -> u32) -> String {
    let shown = |g: u8| {
        if g == b' ' {
            "` ` (blank)".to_string()
        } else if g == b'`' {
            "`` ` ``".to_string()
        } else {
            format!("`{}`", g as char)
        }
    };
    if glyph >= 128 {
        return "**a byte beyond ASCII** — crawl reads each byte of a character as a glyph of no meaning: floor".into();
    }
    let fate = fate(vault, glyph);
    let mut out = format!("**Map glyph {}**", shown(glyph));
    let at_line = |arg: &Arg| format!(" (line {})", line_of(arg.range));
    for step in &fate.steps {
        let _ = write!(
            out,
            "\n\n{} `{}`{}",
            step.header.keyword(),
            step.arg.text,
            at_line(step.arg)
        );
    }
    let several = fate.outcomes.len() > 1 || fate.outcomes.first().is_some_and(|o| o.0 != glyph);
    for (final_glyph, odds) in &fate.outcomes {
        let meanings = meaning(vault, *final_glyph);
        let words: Vec<String> = meanings
            .iter()
            .map(|m| match m.source {
                Some(arg) => format!("{}{}", m.words, at_line(arg)),
                None => m.words.clone(),
            })
            .collect();
        if several {
            let _ = write!(
                out,
                "\n\n- {} {:.0}%: {}",
                shown(*final_glyph),
                odds * 100.0,
                words.join("; ")
            );
        } else {
            let _ = write!(out, " — {}", words.join("; "));
        }
    }
    if vault.lua.iter().any(|l| l.has_code()) {
        out.push_str("\n\n(The vault's Lua may change this.)");
    }
    out
}
