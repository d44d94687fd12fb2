//! What a map glyph becomes in a vault: the header transforms it goes through (SUBST, NSUBST,
//! SHUFFLE, CLEAR, in source order), the glyphs it may end as with their odds, and what each
//! of those means when the vault is placed (KFEAT, KMONS, KITEM, the MONS and ITEM entries, or
//! crawl's own meaning of the glyph). Hover tells it; semantic highlighting colours each map
//! glyph by its likeliest outcome.
//!
//! Odds follow crawl's rules (weights, `=` and `:`, NSUBST counts against the cells the map
//! holds), but Lua is not run: a vault with Lua may do more.

use levkit_check::dcss::{has_default_meaning, slot_glyph};
use levkit_model::dcss::spec::{self, Transform};
use levkit_model::dcss::tables::GLYPHS;
use levkit_model::dcss::{Arg, Vault};
use levkit_syntax::dcss::Header;

use crate::features::HighlightKind;

/// A header argument that changed the glyph's cells.
#[derive(Debug, Clone)]
pub(crate) struct Step<'a> {
    pub header: Header,
    pub arg: &'a Arg,
}

/// A glyph's fate: the transforms that touched it and the glyphs it ends as, with their odds.
#[derive(Debug, Clone)]
pub(crate) struct Fate<'a> {
    pub steps: Vec<Step<'a>>,
    /// Final glyphs and their probabilities, likeliest first.
    pub outcomes: Vec<(u8, f64)>,
}

/// The odds of each glyph (ASCII only).
type Odds = [f64; 128];

/// Follows `glyph` through the vault's transforms.
pub(crate) fn fate(vault: &Vault, glyph: u8) -> Fate<'_> {
    let mut odds: Odds = [0.0; 128];
    if glyph < 128 {
        odds[glyph as usize] = 1.0;
    }
    let counts = map_counts(vault);
    let mut steps = Vec::new();
    for header in &vault.headers {
        for arg in &header.args {
            let Some(Ok(transform)) = spec::transform(header.header, &arg.text) else {
                continue;
            };
            let before = odds;
            apply(&transform, &mut odds, &counts);
            if before != odds {
                steps.push(Step {
                    header: header.header,
                    arg,
                });
            }
        }
    }
    let mut outcomes: Vec<(u8, f64)> = (0..128u8)
        .filter(|&g| odds[g as usize] > 1e-9)
        .map(|g| (g, odds[g as usize]))
        .collect();
    outcomes.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    Fate { steps, outcomes }
}

/// How many cells of the map hold each glyph (for NSUBST's counts).
fn map_counts(vault: &Vault) -> [usize; 128] {
    let mut counts = [0; 128];
    for row in vault.rows() {
        for b in row.text.bytes().filter(|&b| b < 128) {
            counts[b as usize] += 1;
        }
    }
    counts
}

fn weighted(options: &[spec::Weighted<char>]) -> Vec<(u8, f64)> {
    let total: f64 = options.iter().map(|o| f64::from(o.weight)).sum();
    options
        .iter()
        .filter(|o| o.value.is_ascii() && total > 0.0)
        .map(|o| (o.value as u8, f64::from(o.weight) / total))
        .collect()
}

fn apply(transform: &Transform, odds: &mut Odds, counts: &[usize; 128]) {
    match transform {
        Transform::Subst(subst) => {
            let choices = weighted(&subst.options);
            let moved: f64 = subst
                .keys
                .bytes()
                .filter(|&k| k < 128)
                .map(|k| std::mem::take(&mut odds[k as usize]))
                .sum();
            for (glyph, p) in choices {
                odds[glyph as usize] += moved * p;
            }
        }
        Transform::NSubst(nsubst) => {
            let cells: usize = nsubst
                .keys
                .bytes()
                .filter(|&k| k < 128)
                .map(|k| counts[k as usize])
                .sum::<usize>()
                .max(1);
            let moved: f64 = nsubst
                .keys
                .bytes()
                .filter(|&k| k < 128)
                .map(|k| odds[k as usize])
                .sum();
            if moved == 0.0 {
                return;
            }
            let mut left = cells;
            let mut staying = 1.0;
            let mut gains: Vec<(u8, f64)> = Vec::new();
            for segment in &nsubst.segments {
                let taken = segment.count.map_or(left, |c| (c as usize).min(left));
                left -= taken;
                let share = taken as f64 / cells as f64;
                staying -= share;
                gains.extend(
                    weighted(&segment.options)
                        .into_iter()
                        .map(|(g, p)| (g, p * share)),
                );
            }
            for k in nsubst.keys.bytes().filter(|&k| k < 128) {
                odds[k as usize] *= staying.max(0.0);
            }
            for (glyph, p) in gains {
                odds[glyph as usize] += moved * p;
            }
        }
        Transform::Shuffle(shuffle) => {
            let blocks: Vec<&[u8]> = shuffle.blocks.iter().map(|b| b.as_bytes()).collect();
            let before = *odds;
            let mut moved: Vec<(u8, u8, f64)> = Vec::new();
            if blocks.len() == 1 {
                let block = blocks[0];
                let share = 1.0 / block.len() as f64;
                for &from in block.iter().filter(|&&g| g < 128) {
                    for &to in block.iter().filter(|&&g| g < 128) {
                        moved.push((from, to, share));
                    }
                }
            } else {
                let share = 1.0 / blocks.len() as f64;
                for i in 0..blocks[0].len() {
                    for from in blocks.iter().filter_map(|b| b.get(i)) {
                        for to in blocks.iter().filter_map(|b| b.get(i)) {
                            if *from < 128 && *to < 128 {
                                moved.push((*from, *to, share));
                            }
                        }
                    }
                }
            }
            for &(from, _, _) in &moved {
                odds[from as usize] = 0.0;
            }
            for (from, to, share) in moved {
                odds[to as usize] += before[from as usize] * share;
            }
        }
        Transform::Clear(glyphs) => {
            let moved: f64 = glyphs
                .bytes()
                .filter(|&k| k < 128)
                .map(|k| std::mem::take(&mut odds[k as usize]))
                .sum();
            odds[b' ' as usize] += moved;
        }
    }
}

/// What a final glyph means when the vault is placed.
#[derive(Debug, Clone)]
pub(crate) struct Meaning<'a> {
    /// In words, with the spec that gives it.
    pub words: String,
    /// The header argument that gives it, if one does.
    pub source: Option<&'a Arg>,
    pub kind: Option<HighlightKind>,
}

/// The last argument of `header` whose key holds `glyph`, and its value.
fn keyed(vault: &Vault, header: Header, glyph: u8) -> Option<(&Arg, &str)> {
    vault
        .headers_of(header)
        .flat_map(|h| &h.args)
        .filter_map(|arg| {
            let keyed = spec::split(&arg.text).ok()?;
            keyed
                .key
                .bytes()
                .any(|b| b == glyph)
                .then(|| (arg, &arg.text[keyed.value_range]))
        })
        .last()
}

/// What `glyph` is on the placed map: its feature, and the monsters and items on it.
pub(crate) fn meaning(vault: &Vault, glyph: u8) -> Vec<Meaning<'_>> {
    if glyph == b' ' {
        return vec![Meaning {
            words: "nothing: not part of the vault (the level around it shows through)".into(),
            source: None,
            kind: None,
        }];
    }
    let mut out = Vec::new();
    let feature = keyed(vault, Header::KFeat, glyph);
    let monsters = keyed(vault, Header::KMons, glyph);
    let items = keyed(vault, Header::KItem, glyph);
    match feature {
        Some((arg, value)) => out.push(Meaning {
            words: format!("the feature `{value}`"),
            source: Some(arg),
            kind: Some(feature_kind(value)),
        }),
        None if monsters.is_some() || items.is_some() => out.push(Meaning {
            words: "floor".into(),
            source: None,
            kind: Some(HighlightKind::Floor),
        }),
        None => out.push(default_meaning(vault, glyph)),
    }
    if let Some((arg, value)) = monsters {
        out.push(Meaning {
            words: format!("the monster `{value}`"),
            source: Some(arg),
            kind: Some(HighlightKind::Monster),
        });
    }
    if let Some((arg, value)) = items {
        out.push(Meaning {
            words: format!("the items `{value}`"),
            source: Some(arg),
            kind: Some(HighlightKind::Item),
        });
    }
    out
}

/// The kind that colours a glyph: a monster or an item on it first, then its feature.
pub(crate) fn kind_of(meanings: &[Meaning]) -> Option<HighlightKind> {
    let kinds: Vec<HighlightKind> = meanings.iter().filter_map(|m| m.kind).collect();
    [HighlightKind::Monster, HighlightKind::Item]
        .into_iter()
        .find(|k| kinds.contains(k))
        .or_else(|| kinds.first().copied())
}

/// crawl's own meaning of a glyph (and the MONS or ITEM entry of a slot glyph).
fn default_meaning(vault: &Vault, glyph: u8) -> Meaning<'_> {
    for header in [Header::Mons, Header::Item] {
        let index = match glyph {
            b'1'..=b'7' if header == Header::Mons => (glyph - b'1') as usize,
            b'd'..=b'k' if header == Header::Item => (glyph - b'd') as usize,
            _ => continue,
        };
        debug_assert_eq!(slot_glyph(header, index), Some(glyph));
        let what = if header == Header::Mons {
            "monster"
        } else {
            "item"
        };
        let entry = vault.headers_of(header).flat_map(|h| &h.args).nth(index);
        return Meaning {
            words: match entry {
                Some(arg) => format!(
                    "the {what} of {} entry {}: `{}`",
                    header.keyword(),
                    index + 1,
                    arg.text
                ),
                None => format!(
                    "a random {what} (the vault has no {} entry {})",
                    header.keyword(),
                    index + 1
                ),
            },
            source: entry,
            kind: Some(if header == Header::Mons {
                HighlightKind::Monster
            } else {
                HighlightKind::Item
            }),
        };
    }
    let words = GLYPHS
        .iter()
        .find(|g| g.glyph.len() == 1 && g.glyph.as_bytes()[0] == glyph)
        .map(|g| g.meaning.to_string())
        .unwrap_or_else(|| "floor (the glyph has no meaning of its own)".into());
    Meaning {
        words,
        source: None,
        kind: glyph_kind(glyph),
    }
}

/// The kind of crawl's own meaning of a glyph.
pub(crate) fn glyph_kind(glyph: u8) -> Option<HighlightKind> {
    Some(match glyph {
        b' ' => return None,
        b'x' | b'X' | b'c' | b'v' | b'b' | b'm' | b'n' | b'o' => HighlightKind::Wall,
        b't' => HighlightKind::Tree,
        b'+' | b'=' => HighlightKind::Door,
        b'w' | b'W' => HighlightKind::Water,
        b'l' => HighlightKind::Lava,
        b'0'..=b'9' => HighlightKind::Monster,
        b'$' | b'%' | b'*' | b'|' | b'd'..=b'k' => HighlightKind::Item,
        b'.' | b'@' => HighlightKind::Floor,
        g if has_default_meaning(g) => HighlightKind::Feature,
        _ => HighlightKind::Floor,
    })
}

/// The kind of a KFEAT spec, from its likeliest alternative's name.
fn feature_kind(value: &str) -> HighlightKind {
    let first = value.split('/').next().unwrap_or("").trim();
    let name = first
        .split_whitespace()
        .find(|w| !w.contains(':') && *w != "mimic" && *w != "no_mimic")
        .unwrap_or("");
    if name.len() == 1 {
        return glyph_kind(name.as_bytes()[0]).unwrap_or(HighlightKind::Floor);
    }
    if first.contains("trap") || first.contains("shop") || first == "web" {
        return HighlightKind::Feature;
    }
    match name {
        _ if name.contains("wall") || name.contains("rock") && !name.contains("arch") => {
            HighlightKind::Wall
        }
        _ if name.contains("water") => HighlightKind::Water,
        _ if name.contains("lava") => HighlightKind::Lava,
        _ if name.contains("tree") || name == "mangrove" => HighlightKind::Tree,
        _ if name.contains("door") || name.contains("gate") => HighlightKind::Door,
        "floor" => HighlightKind::Floor,
        _ => HighlightKind::Feature,
    }
}
