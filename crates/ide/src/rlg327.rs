//! Editor features for COM S 327 descriptions: hover (fields, values, dice statistics) and
//! completion (missing fields, enumerated values).

use levkit_diagnostics::{TextRange, TextSize};
use levkit_model::rlg327::{ABILITIES, COLORS, Dice, Kind, TYPES};
use levkit_syntax::SyntaxKind::*;
use levkit_syntax::{SyntaxNode, SyntaxToken};

use crate::completion::{Completion, CompletionKind};
use crate::hover::Hover;
use crate::{SourceFile, parse, rlg327_model};

fn field_doc(keyword: &str) -> Option<&'static str> {
    Some(match keyword {
        "NAME" => {
            "**NAME** — the name, the rest of the line (blanks at its end become part of it)."
        }
        "DESC" => {
            "**DESC** — the description: the lines after this one, up to a line holding only `.`; each line at most 77 characters."
        }
        "SYMB" => "**SYMB** — the one character that shows the monster on the map.",
        "COLOR" => {
            "**COLOR** — the colour to draw it in: RED, GREEN, BLUE, CYAN, YELLOW, MAGENTA, WHITE or BLACK (a monster may list several)."
        }
        "SPEED" => {
            "**SPEED** — dice: how fast it moves (monsters) or the speed bonus it gives (objects)."
        }
        "ABIL" => {
            "**ABIL** — abilities: SMART, TELE, TUNNEL, ERRATIC, PASS, PICKUP, DESTROY, UNIQ, BOSS."
        }
        "HP" => "**HP** — dice: the hit points it starts with.",
        "DAM" => "**DAM** — dice: the damage of one hit.",
        "RRTY" => "**RRTY** — rarity, 1 to 100: the chance it is created when picked.",
        "TYPE" => {
            "**TYPE** — the kind of item: WEAPON, OFFHAND, RANGED, ARMOR, HELMET, CLOAK, GLOVES, BOOTS, RING, AMULET, LIGHT, SCROLL, BOOK, FLASK, GOLD, AMMUNITION, FOOD, WAND or CONTAINER."
        }
        "HIT" => "**HIT** — dice: the bonus to hit.",
        "DODGE" => "**DODGE** — dice: the bonus to dodge.",
        "DEF" => "**DEF** — dice: the defence bonus.",
        "WEIGHT" => "**WEIGHT** — dice: how heavy it is.",
        "ATTR" => "**ATTR** — dice: a special attribute (light radius, food value...).",
        "VAL" => "**VAL** — dice: its value in gold.",
        "ART" => "**ART** — `TRUE` for an artifact (only one is ever made), `FALSE` otherwise.",
        "BEGIN" => "**BEGIN MONSTER** / **BEGIN OBJECT** — starts an entry, which ends at `END`.",
        "END" => "**END** — ends the entry; it must be alone on its line.",
        _ => return None,
    })
}

fn value_doc(word: &str) -> Option<String> {
    let ability = match word {
        "SMART" => "smart: it remembers where it last saw the player and moves straight there",
        "TELE" => "telepathic: it always knows where the player is",
        "TUNNEL" => "tunnels through rock",
        "ERRATIC" => "moves erratically half of the time",
        "PASS" => "passes through walls",
        "PICKUP" => "picks up objects it walks over",
        "DESTROY" => "destroys objects it walks over",
        "UNIQ" => "unique: only one exists, and it never comes back once killed",
        "BOSS" => "the final boss: killing it wins the game",
        _ => "",
    };
    if !ability.is_empty() {
        return Some(format!("**{word}** — {ability}"));
    }
    if COLORS.contains(&word) {
        return Some(format!("**{word}** — a colour"));
    }
    TYPES
        .contains(&word)
        .then(|| format!("**{word}** — an item type"))
}

/// The probability of each total of `count` dice with `sides` sides (small dice only).
fn distribution(dice: Dice) -> Option<Vec<(i64, f64)>> {
    if dice.count == 0 || dice.sides == 0 || dice.count * dice.sides > 400 {
        return None;
    }
    let mut ways = vec![1.0f64];
    for _ in 0..dice.count {
        let mut next = vec![0.0; ways.len() + dice.sides as usize];
        for (total, w) in ways.iter().enumerate() {
            for face in 1..=dice.sides as usize {
                next[total + face] += w / dice.sides as f64;
            }
        }
        ways = next;
    }
    Some(
        ways.into_iter()
            .enumerate()
            .filter(|(_, p)| *p > 0.0)
            .map(|(t, p)| (dice.base + t as i64, p))
            .collect(),
    )
}

fn dice_hover(dice: Dice) -> String {
    let (low, high) = dice.range();
    let mut text = format!(
        "**{dice}** — from {low} to {high}, {:.1} on average",
        dice.mean()
    );
    if let Some(spread) = distribution(dice).filter(|d| d.len() > 1) {
        // Five bands of the range, each with its share of the rolls.
        let bands = 5.min(spread.len());
        let width = (high - low + 1) as f64 / bands as f64;
        text.push_str("\n\n```\n");
        for band in 0..bands {
            let from = low + (band as f64 * width).ceil() as i64;
            let to = (low + ((band + 1) as f64 * width).ceil() as i64 - 1).min(high);
            let share: f64 = spread
                .iter()
                .filter(|(v, _)| (from..=to).contains(v))
                .map(|(_, p)| p)
                .sum();
            text.push_str(&format!(
                "{from:>6}..{to:<6} {:>5.1}% {}\n",
                share * 100.0,
                "#".repeat((share * 40.0).round() as usize)
            ));
        }
        text.push_str("```");
    }
    text
}

pub fn hover(db: &dyn salsa::Database, file: SourceFile, token: &SyntaxToken) -> Option<Hover> {
    let kind = rlg327_model(db, file).as_ref()?.kind;
    let range = token.text_range();
    let markdown = match token.kind() {
        RLG_FIELD_KW | RLG_BEGIN_KW | RLG_END_KW => field_doc(token.text())?.to_string(),
        RLG_WORD => {
            let keyword = token
                .parent()
                .filter(|p| p.kind() == RLG_FIELD)
                .and_then(|p| p.first_token());
            match keyword {
                Some(k) if kind.dice_fields().contains(&k.text()) => {
                    dice_hover(Dice::parse(token.text())?)
                }
                _ => value_doc(token.text())?,
            }
        }
        _ => return None,
    };
    Some(Hover { range, markdown })
}

pub fn completions(
    db: &dyn salsa::Database,
    file: SourceFile,
    offset: TextSize,
) -> Vec<Completion> {
    let Some(model) = rlg327_model(db, file) else {
        return Vec::new();
    };
    let root = parse(db, file).syntax();
    let text = root.text().to_string();
    let offset_usize = usize::from(offset).min(text.len());
    let line_start = text[..offset_usize].rfind('\n').map_or(0, |i| i + 1);
    let prefix = &text[line_start..offset_usize];
    let typed = prefix.rsplit([' ', '\t']).next().unwrap_or("");
    let replace = TextRange::new(offset - TextSize::from(typed.len() as u32), offset);
    let item = |label: &str, kind| Completion {
        label: label.to_string(),
        kind,
        detail: None,
        replace,
    };
    let entry: Option<SyntaxNode> = root
        .token_at_offset(offset)
        .left_biased()
        .and_then(|t| t.parent_ancestors().find(|n| n.kind() == RLG_ENTRY));
    let words: Vec<&str> = prefix.split_whitespace().collect();
    let keyword = if prefix.ends_with([' ', '\t']) {
        words.first().copied()
    } else {
        words.first().copied().filter(|_| words.len() > 1)
    };
    match keyword {
        None => {
            // A field keyword: those the entry does not have yet, in the assignment's order.
            let present: Vec<String> = entry
                .iter()
                .flat_map(|e| {
                    e.children()
                        .filter(|n| n.kind() == RLG_FIELD)
                        .filter_map(|f| f.first_token())
                        .map(|t| t.text().to_string())
                        .collect::<Vec<_>>()
                })
                .collect();
            let mut out: Vec<Completion> = model
                .kind
                .fields()
                .iter()
                .filter(|f| !present.iter().any(|p| p == *f))
                .map(|f| item(f, CompletionKind::Keyword))
                .collect();
            out.push(item(
                if entry.is_some() { "END" } else { "BEGIN" },
                CompletionKind::Keyword,
            ));
            out
        }
        Some("COLOR") => COLORS
            .iter()
            .map(|c| item(c, CompletionKind::Value))
            .collect(),
        Some("ABIL") => ABILITIES
            .iter()
            .map(|a| item(a, CompletionKind::Value))
            .collect(),
        Some("TYPE") => TYPES
            .iter()
            .map(|t| item(t, CompletionKind::Value))
            .collect(),
        Some("ART") => ["TRUE", "FALSE"]
            .iter()
            .map(|t| item(t, CompletionKind::Value))
            .collect(),
        Some("BEGIN") => vec![item(
            if model.kind == Kind::Monster {
                "MONSTER"
            } else {
                "OBJECT"
            },
            CompletionKind::Value,
        )],
        _ => Vec::new(),
    }
}
