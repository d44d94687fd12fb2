//! COM S 327 monster and object descriptions: checks, hover (fields, values, dice
//! statistics), completion (missing fields, enumerated values), outline, cards as the
//! preview, and the print-outs `compile` emits.

use levkit_diagnostics::{Diagnostic, TextRange, TextSize};
use levkit_model::rlg327::{ABILITIES, COLORS, DescFile, Dice, FieldValue, Kind, TYPES};
use levkit_syntax::SyntaxKind::*;
use levkit_syntax::{Dialect, SyntaxKind, SyntaxNode, SyntaxToken};

use crate::compile::{Compiled, Emit};
use crate::db::{SourceFile, Workspace, dialect, line_index, parse};
use crate::features::{
    Completion, CompletionKind, Fold, Highlight, HighlightKind, Hover, Symbol, SymbolKind,
};
use crate::languages::Language;
use crate::preview::{Card, CardDetail, CardsPreview, Controls, Preview, PreviewRequest, Spans};

pub(crate) struct Rlg327;

/// The model of a description file (`None` for files of other dialects).
#[salsa::tracked]
pub(crate) fn rlg327_model(db: &dyn salsa::Database, file: SourceFile) -> Option<DescFile> {
    let kind = match dialect(db, file) {
        Dialect::Rlg327Monster => Kind::Monster,
        Dialect::Rlg327Object => Kind::Object,
        Dialect::NethackDes | Dialect::NethackDungeon | Dialect::DcssDes | Dialect::Unknown => {
            return None;
        }
    };
    // The compact tree, not the rowan one of `parse`: diagnostics need no rowan tree, which
    // only the editor's other features build.
    let text = file.text(db);
    let parse = levkit_syntax::rlg327::parse_compact(text);
    Some(levkit_model::rlg327::lower(text, &parse.tree, kind))
}

impl Language for Rlg327 {
    fn diagnostics(&self, db: &dyn salsa::Database, file: SourceFile) -> Vec<Diagnostic> {
        rlg327_model(db, file)
            .as_ref()
            .map(levkit_check::rlg327::check)
            .unwrap_or_default()
    }

    fn hover(&self, db: &dyn salsa::Database, file: SourceFile, offset: TextSize) -> Option<Hover> {
        let token = crate::tree::token_at(&parse(db, file).syntax(), offset)?;
        hover(db, file, &token)
    }

    fn completions(
        &self,
        db: &dyn salsa::Database,
        _workspace: Workspace,
        file: SourceFile,
        offset: TextSize,
    ) -> Vec<Completion> {
        completions(db, file, offset)
    }

    fn symbols(&self, db: &dyn salsa::Database, file: SourceFile) -> Vec<Symbol> {
        parse(db, file)
            .syntax()
            .children()
            .filter(|n| n.kind() == RLG_ENTRY)
            .map(|node| entry_symbol(&node))
            .collect()
    }

    fn folding_ranges(&self, db: &dyn salsa::Database, file: SourceFile) -> Vec<Fold> {
        crate::tree::folds(&parse(db, file).syntax(), |k| k == RLG_ENTRY)
    }

    fn highlights(&self, db: &dyn salsa::Database, file: SourceFile) -> Vec<Highlight> {
        parse(db, file)
            .syntax()
            .descendants_with_tokens()
            .filter_map(|e| e.into_token())
            .filter_map(|t| {
                Some(Highlight {
                    range: t.text_range(),
                    kind: token_class(t.kind())?,
                })
            })
            .collect()
    }

    fn preview(
        &self,
        db: &dyn salsa::Database,
        _workspace: Workspace,
        file: SourceFile,
        request: &PreviewRequest,
    ) -> Preview {
        let Some(model) = rlg327_model(db, file) else {
            return Preview::nothing("this file holds no descriptions".into());
        };
        let spans = Spans {
            text: file.text(db),
            index: line_index(db, file),
            encoding: request.encoding,
        };
        let diagnostics = crate::db::file_diagnostics(db, file);
        let valid = levkit_compile::rlg327::valid_entries(model, diagnostics);
        // An entry with an error has no card; a note names it, and the file's first error
        // comes with the cards, as a broken level's does.
        let left_out = left_out(db, file, model, &valid);
        let error = spans.first_error(diagnostics);
        // A card per valid monster or object: its symbol in its colour, name, every field
        // (dice with their range) and its description.
        let cards: Vec<Card> = valid
            .into_iter()
            .map(|entry| {
                let text = |keyword: &str| levkit_compile::rlg327::field_text(entry, keyword);
                let glyph = match model.kind {
                    Kind::Monster => text("SYMB"),
                    Kind::Object => object_symbol(&text("TYPE")).to_string(),
                };
                let details = model
                    .kind
                    .fields()
                    .iter()
                    .filter(|k| !matches!(**k, "NAME" | "DESC"))
                    .filter(|k| entry.field(k).is_some())
                    .map(|k| {
                        let value = text(k);
                        let value = match Dice::parse(&value) {
                            Some(dice) if model.kind.dice_fields().contains(k) => {
                                let (low, high) = dice.range();
                                if low == high {
                                    format!("{value} (always {low})")
                                } else {
                                    format!("{value} ({low}–{high})")
                                }
                            }
                            _ => value,
                        };
                        CardDetail {
                            label: k.to_lowercase(),
                            value,
                        }
                    })
                    .collect();
                let description = match entry.field("DESC").map(|f| &f.value) {
                    Some(FieldValue::Desc { lines, .. }) => Some(
                        lines
                            .iter()
                            .map(|l| l.value.as_str())
                            .collect::<Vec<_>>()
                            .join("\n"),
                    ),
                    _ => None,
                };
                Card {
                    range: spans.range(entry.range),
                    source: spans.source(entry.range),
                    fields: model
                        .kind
                        .fields()
                        .iter()
                        .filter(|k| **k != "DESC")
                        .map(|k| (k.to_lowercase(), serde_json::json!(text(k))))
                        .collect(),
                    name: Some(text("NAME")),
                    color: text("COLOR")
                        .split_whitespace()
                        .next()
                        .and_then(css_color)
                        .map(str::to_string),
                    glyph: Some(glyph).filter(|g| !g.is_empty()),
                    details,
                    text: description.filter(|d| !d.is_empty()),
                }
            })
            .collect();
        let kind = model.kind.word().to_lowercase();
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        let mut title = format!("{} {kind}{}", cards.len(), plural(cards.len()));
        match left_out.len() {
            0 if error.is_some() => title.push_str(" (the file has errors)"),
            0 => {}
            1 => title.push_str(" (1 more not shown: it has errors)"),
            n => title.push_str(&format!(" ({n} more not shown: they have errors)")),
        }
        Preview::Cards(CardsPreview {
            title: Some(title),
            controls: Some(Controls::default()),
            kind,
            cards,
            notes: left_out
                .iter()
                .map(|entry| format!("{entry} has errors: it has no card until they are fixed"))
                .collect(),
            error,
        })
    }

    fn compile(
        &self,
        db: &dyn salsa::Database,
        file: SourceFile,
        emit: Emit,
        diagnostics: &[Diagnostic],
    ) -> Compiled {
        let Some(model) = rlg327_model(db, file) else {
            return Compiled::refused("this file holds no descriptions".into());
        };
        let text = match emit {
            Emit::Files | Emit::Lua => {
                return Compiled::refused(format!(
                    "{} is an RLG327 description file, which the game reads as it is; use --emit print or --emit json",
                    crate::tree::display_name(file.path(db))
                ));
            }
            Emit::PrintCompat => {
                levkit_compile::rlg327::print_compat(file.text(db).as_bytes(), model.kind)
            }
            Emit::Print => levkit_compile::rlg327::print(model, diagnostics),
            Emit::Json => {
                let mut line = json(file.path(db), model, diagnostics).to_string();
                line.push('\n');
                line
            }
        };
        // The course's reference parser drops entries its own way, which --compat reproduces.
        let dropped = match emit {
            Emit::Print | Emit::Json => left_out(
                db,
                file,
                model,
                &levkit_compile::rlg327::valid_entries(model, diagnostics),
            ),
            _ => Vec::new(),
        };
        Compiled {
            text: Some(text),
            dropped,
            ..Compiled::default()
        }
    }
}

/// The entries that are not among `valid` (a subsequence of the file's entries, in order), in
/// words (`the MONSTER entry "Rat" at line 3`): what a print-out drops and the preview has no
/// card for.
fn left_out(
    db: &dyn salsa::Database,
    file: SourceFile,
    model: &DescFile,
    valid: &[&levkit_model::rlg327::Entry],
) -> Vec<String> {
    let lines = line_index(db, file);
    // One walk over both, in file order: the preview asks this on every keystroke.
    let mut valid = valid.iter().peekable();
    model
        .entries
        .iter()
        .filter(|e| valid.next_if(|v| std::ptr::eq(**v, *e)).is_none())
        .map(|entry| {
            let name = levkit_compile::rlg327::field_text(entry, "NAME");
            let line = lines.line_col(entry.range.start()).line + 1;
            if name.is_empty() {
                format!("the {} entry at line {line}", model.kind.word())
            } else {
                format!("the {} entry \"{name}\" at line {line}", model.kind.word())
            }
        })
        .collect()
}

fn entry_symbol(node: &SyntaxNode) -> Symbol {
    let name = node
        .children()
        .filter(|f| f.kind() == RLG_FIELD && f.first_token().is_some_and(|t| t.text() == "NAME"))
        .find_map(|f| {
            f.children_with_tokens()
                .filter_map(|e| e.into_token())
                .find(|t| t.kind() == RLG_TEXT)
        });
    let kind = node
        .children_with_tokens()
        .filter_map(|e| e.into_token())
        .find(|t| t.kind() == RLG_WORD);
    Symbol {
        name: name
            .as_ref()
            .map_or_else(|| "(unnamed)".into(), |t| t.text().trim_end().to_string()),
        detail: kind.map(|t| t.text().to_string()),
        kind: SymbolKind::Description,
        range: node.text_range(),
        focus: name.map_or(node.text_range(), |t| t.text_range()),
        children: Vec::new(),
    }
}

fn token_class(kind: SyntaxKind) -> Option<HighlightKind> {
    Some(match kind {
        COMMENT => HighlightKind::Comment,
        RLG_BEGIN_KW | RLG_END_KW | RLG_FIELD_KW | RLG_HEADER_TEXT => HighlightKind::Keyword,
        RLG_TEXT | RLG_DESC_LINE => HighlightKind::String,
        RLG_WORD => HighlightKind::Value,
        _ => return None,
    })
}

/// `--emit json`: the valid entries with typed values (dice as their parts).
fn json(path: &std::path::Path, model: &DescFile, diagnostics: &[Diagnostic]) -> serde_json::Value {
    let entries: Vec<serde_json::Value> = levkit_compile::rlg327::valid_entries(model, diagnostics)
        .into_iter()
        .map(|entry| {
            let mut object = serde_json::Map::new();
            for &keyword in model.kind.fields() {
                let Some(field) = entry.field(keyword) else { continue };
                let value = match &field.value {
                    FieldValue::Desc { lines, .. } => serde_json::json!(lines.iter().map(|l| l.value.as_str()).collect::<Vec<_>>().join("\n")),
                    FieldValue::Text(text) => serde_json::json!(text.value),
                    FieldValue::Words(words) => match (keyword, words.as_slice()) {
                        (k, [w]) if model.kind.dice_fields().contains(&k) => match Dice::parse(&w.value) {
                            Some(d) => serde_json::json!({ "base": d.base, "count": d.count, "sides": d.sides }),
                            None => serde_json::json!(w.value),
                        },
                        ("COLOR" | "ABIL", _) => serde_json::json!(words.iter().map(|w| w.value.as_str()).collect::<Vec<_>>()),
                        ("RRTY", [w]) => serde_json::json!(w.value.parse::<i64>().ok()),
                        ("ART", [w]) => serde_json::json!(w.value == "TRUE"),
                        (_, [w]) => serde_json::json!(w.value),
                        _ => serde_json::Value::Null,
                    },
                };
                object.insert(keyword.to_lowercase(), value);
            }
            serde_json::Value::Object(object)
        })
        .collect();
    serde_json::json!({ "file": path.display().to_string(), "kind": model.kind.word().to_lowercase(), "entries": entries })
}

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

fn hover(db: &dyn salsa::Database, file: SourceFile, token: &SyntaxToken) -> Option<Hover> {
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

fn completions(db: &dyn salsa::Database, file: SourceFile, offset: TextSize) -> Vec<Completion> {
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

/// The symbol the course's game draws an object of a type with.
fn object_symbol(object_type: &str) -> &'static str {
    match object_type.split_whitespace().next().unwrap_or("") {
        "WEAPON" => "|",
        "OFFHAND" => ")",
        "RANGED" => "}",
        "LIGHT" => "~",
        "ARMOR" => "[",
        "HELMET" => "]",
        "CLOAK" => "(",
        "GLOVES" => "{",
        "BOOTS" => "\\",
        "AMULET" => "\"",
        "RING" => "=",
        "SCROLL" => "`",
        "BOOK" => "?",
        "FLASK" => "!",
        "GOLD" => "$",
        "AMMUNITION" => "/",
        "FOOD" => ",",
        "WAND" => "-",
        "CONTAINER" => "%",
        _ => "*",
    }
}

/// The CSS colour of a description's COLOR word (the curses colours).
fn css_color(word: &str) -> Option<&'static str> {
    Some(match word {
        "RED" => "#e05050",
        "GREEN" => "#50c050",
        "BLUE" => "#5080ff",
        "CYAN" => "#40c8c8",
        "YELLOW" => "#e8d040",
        "MAGENTA" => "#d060d0",
        "WHITE" => "#f0f0f0",
        "BLACK" => "#707070",
        _ => return None,
    })
}
