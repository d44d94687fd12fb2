//! Checks of COM S 327 descriptions: the assignment's rules, at the line and word at fault,
//! with the legacy (2015-2017) field set recognised rather than reported entry by entry.

use std::collections::HashMap;

use levkit_diagnostics::{Code, Diagnostic, TextRange, TextSize};
use levkit_model::rlg327::reference::{CrEffect, ReferenceCr};
use levkit_model::rlg327::{
    ABILITIES, COLORS, DescFile, Dice, Entry, Field, FieldValue, Kind, TYPES,
};
use levkit_syntax::suggest::closest;

/// The longest description line, in bytes ("the newline must appear at or before byte 78").
const DESC_WIDTH: usize = 77;

/// The "did you mean" answers of one file, by word and list of candidates: a file repeats
/// its unknown words (a legacy field in every entry), and the language server checks the
/// file on every keystroke.
#[derive(Default)]
struct Suggestions<'a> {
    found: HashMap<(&'a str, *const &'static str), Option<&'static str>>,
}

impl<'a> Suggestions<'a> {
    fn closest(
        &mut self,
        word: &'a str,
        candidates: &'static [&'static str],
    ) -> Option<&'static str> {
        *self
            .found
            .entry((word, candidates.as_ptr()))
            .or_insert_with(|| closest(word, candidates.iter().copied()))
    }
}

pub fn check(file: &DescFile) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let kind = file.kind;
    check_header(&mut out, file);
    for cr in &file.reference_crs {
        out.push(reference_cr(file, cr));
    }
    if let Some(end) = file.no_final_newline {
        out.push(Diagnostic::new(
            Code::RL0003,
            TextRange::empty(end),
            "the file does not end with a line end",
        ));
    }
    for stray in &file.strays {
        out.push(Diagnostic::new(
            Code::RL0004,
            stray.range,
            "this line is outside any BEGIN ... END entry; readers skip it. Remove it or put it in an entry",
        ));
    }
    // A file where no entry has RRTY (or ART) follows the 2015-2017 assignment.
    let legacy = !file.entries.is_empty()
        && !file
            .entries
            .iter()
            .any(|e| e.field("RRTY").is_some() || e.field("ART").is_some());
    if legacy {
        let at = file
            .header
            .as_ref()
            .map_or(TextRange::empty(0.into()), |h| h.range);
        out.push(Diagnostic::new(
            Code::RL0005,
            at,
            "no entry has RRTY or ART: checked as a 2015-2017 file, which had no such fields",
        ));
    }
    let mut valid = 0;
    let mut names: HashMap<&str, TextRange> = HashMap::new();
    let mut bosses = Vec::new();
    let mut suggestions = Suggestions::default();
    for entry in &file.entries {
        let before = out.len();
        check_entry(&mut out, &mut suggestions, entry, kind, legacy);
        if !out[before..]
            .iter()
            .any(|d| d.severity == levkit_diagnostics::Severity::Error)
        {
            valid += 1;
        }
        if let Some(FieldValue::Text(name)) = entry.field("NAME").map(|f| &f.value) {
            match names.get(name.value.as_str()) {
                Some(&first) => out.push(
                    Diagnostic::new(
                        Code::RL0301,
                        name.range,
                        "another entry already has this name",
                    )
                    .with_label(first, "the other entry"),
                ),
                None => {
                    names.insert(&name.value, name.range);
                }
            }
        }
        if let Some(abilities) = entry.field("ABIL")
            && let Some(boss) = abilities.words().iter().find(|w| w.value == "BOSS")
        {
            if !abilities.words().iter().any(|w| w.value == "UNIQ") {
                out.push(Diagnostic::new(
                    Code::RL0302,
                    boss.range,
                    "a BOSS should also be UNIQ: the game ends when it dies, so there must be only one",
                ));
            }
            bosses.push(boss.range);
        }
    }
    if bosses.len() > 1 {
        out.push(
            Diagnostic::new(
                Code::RL0302,
                bosses[1],
                "there is already a BOSS monster; killing any of them ends the game",
            )
            .with_label(bosses[0], "the first BOSS"),
        );
    }
    if valid == 0 && file.header.is_some() {
        let at = file
            .header
            .as_ref()
            .map_or(TextRange::empty(0.into()), |h| h.range);
        out.push(Diagnostic::new(
            Code::RL0304,
            at,
            format!(
                "no {} of this file is valid, so a reader would load none",
                kind.word().to_lowercase()
            ),
        ));
    }
    out
}

/// What the course's reference parser does because of a CR where levkit sees a line end.
fn reference_cr(file: &DescFile, cr: &ReferenceCr) -> Diagnostic {
    const WHY: &str =
        "the course's reference parser does not take this CR for part of a line end as levkit does";
    const FIX: &str = "save the file with LF line ends, or delete this CR";
    let consequence = match cr.effect {
        CrEffect::Header => {
            return Diagnostic::new(
                Code::RL0002,
                cr.at,
                format!("{WHY}, so the header line does not match and it rejects the whole file; save the file with LF line ends"),
            );
        }
        CrEffect::AfterValue("END") => "END is not alone on its line".to_string(),
        CrEffect::AfterValue("DESC") => "text follows DESC on its line".to_string(),
        CrEffect::AfterValue(field) => format!("more than blanks follows the {field} value on its line"),
        CrEffect::ListGoesOn(field) => format!("the {field} list goes on with the first word of the next line"),
        CrEffect::NotTerminator if cr.drops.is_none() => {
            "this line is not `.` and the description goes on to the next line that is, taking in every line before it".to_string()
        }
        CrEffect::NotTerminator => "this line is not `.` and the description goes on".to_string(),
        CrEffect::LongLine => format!("this description line is {} characters long, one too many", DESC_WIDTH + 1),
        CrEffect::Kept("SYMB") => "the CR is the symbol".to_string(),
        CrEffect::Kept("NAME") => "the CR is the last character of the name".to_string(),
        CrEffect::Kept(_) => "the CR is the last character of this description line".to_string(),
    };
    let Some(begin) = cr.drops else {
        return Diagnostic::new(
            Code::RL0002,
            cr.at,
            format!("{WHY}, so {consequence}; {FIX}"),
        );
    };
    let kind = file.kind.word().to_lowercase();
    let name = file
        .entries
        .iter()
        .find(|e| e.begin == begin)
        .and_then(|e| match e.field("NAME").map(|f| &f.value) {
            Some(FieldValue::Text(name)) if !name.value.is_empty() => {
                Some(format!(" \"{}\"", name.value))
            }
            _ => None,
        })
        .unwrap_or_default();
    Diagnostic::new(
        Code::RL0002,
        cr.at,
        format!("{WHY}, so {consequence}: it drops the {kind}{name}; {FIX}"),
    )
    .with_label(begin, format!("the {kind} it drops"))
}

fn check_header(out: &mut Vec<Diagnostic>, file: &DescFile) {
    let expected = file.kind.header();
    let Some(header) = &file.header else {
        out.push(
            Diagnostic::new(
                Code::RL0001,
                TextRange::empty(0.into()),
                format!("the file has no header line; its first line must be `{expected}`"),
            )
            .with_replacement(
                format!("Insert `{expected}`"),
                TextRange::empty(0.into()),
                format!("{expected}\n"),
            ),
        );
        return;
    };
    if header.value == expected {
        return;
    }
    let text = header.value.trim_end_matches('\r');
    let why = if text.trim_end() == expected {
        "it has blanks after it".to_string()
    } else if text.starts_with("RLG229") {
        "`RLG229` is the ComS 229 course's header".to_string()
    } else if text.contains(if file.kind == Kind::Monster {
        "OBJECT"
    } else {
        "MONSTER"
    }) {
        "it names the other kind of file".to_string()
    } else {
        format!("it reads `{text}`")
    };
    if text == expected {
        return; // Only the CR of a CRLF line end, reported once for the file.
    }
    out.push(
        Diagnostic::new(
            Code::RL0001,
            header.range,
            format!("the header must be exactly `{expected}`; {why}"),
        )
        .with_replacement(format!("Replace with `{expected}`"), header.range, expected),
    );
}

fn check_entry<'a>(
    out: &mut Vec<Diagnostic>,
    suggestions: &mut Suggestions<'a>,
    entry: &'a Entry,
    kind: Kind,
    legacy: bool,
) {
    match entry.kind_words.as_slice() {
        [word] if word.value == kind.word() => {}
        words => {
            let range = words.iter().fold(entry.begin, |r, w| r.cover(w.range));
            out.push(Diagnostic::new(
                Code::RL0101,
                range,
                format!("an entry of this file starts with `BEGIN {}`", kind.word()),
            ));
        }
    }
    match &entry.end {
        None => out.push(Diagnostic::new(
            Code::RL0102,
            entry.begin,
            "this entry has no END line; add `END` after its last field",
        )),
        Some((_, after)) if !after.is_empty() => {
            let range = after.iter().fold(after[0].range, |r, w| r.cover(w.range));
            out.push(
                Diagnostic::new(Code::RL0103, range, "END must be alone on its line")
                    .with_replacement("Remove it", range, ""),
            );
        }
        Some(_) => {}
    }
    let fields = kind.fields();
    // Where each of the kind's fields was first given, by its place in `fields`.
    let mut seen: Vec<Option<TextRange>> = vec![None; fields.len()];
    for field in &entry.fields {
        let keyword = field.keyword.value.as_str();
        let Some(index) = fields.iter().position(|f| *f == keyword) else {
            let mut diagnostic = Diagnostic::new(
                Code::RL0104,
                field.keyword.range,
                format!(
                    "`{keyword}` is not a field of a {}",
                    kind.word().to_lowercase()
                ),
            );
            let suggestion = suggestions.closest(keyword, fields).or(match keyword {
                "RARITY" => Some("RRTY"),
                "DES" | "DESCRIPTION" => Some("DESC"),
                _ => None,
            });
            if let Some(s) = suggestion {
                diagnostic
                    .message
                    .push_str(&format!("; did you mean `{s}`?"));
                diagnostic = diagnostic.with_replacement(
                    format!("Replace with `{s}`"),
                    field.keyword.range,
                    s,
                );
            }
            out.push(diagnostic);
            continue;
        };
        if let Some(first) = seen[index] {
            out.push(
                Diagnostic::new(
                    Code::RL0106,
                    field.keyword.range,
                    format!("{keyword} is given twice in this entry; keep one"),
                )
                .with_label(first, "first given here"),
            );
            continue;
        }
        seen[index] = Some(field.keyword.range);
        check_field(out, suggestions, field, kind);
    }
    let missing: Vec<&str> = fields
        .iter()
        .zip(&seen)
        .filter(|(_, seen)| seen.is_none())
        .map(|(f, _)| *f)
        .filter(|f| !(legacy && matches!(*f, "RRTY" | "ART")))
        .collect();
    if !missing.is_empty() {
        out.push(Diagnostic::new(
            Code::RL0105,
            entry.begin,
            format!(
                "this {} lacks {}",
                kind.word().to_lowercase(),
                missing.join(", ")
            ),
        ));
    }
}

fn words_range(field: &Field) -> TextRange {
    let words = field.words();
    words.first().map_or(field.keyword.range, |first| {
        words.iter().fold(first.range, |r, w| r.cover(w.range))
    })
}

fn check_field<'a>(
    out: &mut Vec<Diagnostic>,
    suggestions: &mut Suggestions<'a>,
    field: &'a Field,
    kind: Kind,
) {
    let keyword = field.keyword.value.as_str();
    let words = field.words();
    let error = |out: &mut Vec<Diagnostic>, code, range, message: String| {
        out.push(Diagnostic::new(code, range, message))
    };
    match (keyword, &field.value) {
        ("NAME", FieldValue::Text(name)) => {
            if name.value.trim().is_empty() {
                error(
                    out,
                    Code::RL0201,
                    field.keyword.range,
                    "NAME needs text after it".into(),
                );
            } else if name.value.ends_with([' ', '\t']) {
                let trimmed = name.value.trim_end().len() as u32;
                let blanks = TextRange::new(
                    name.range.start() + TextSize::from(trimmed),
                    name.range.end(),
                );
                out.push(
                    Diagnostic::new(
                        Code::RL0202,
                        blanks,
                        "these trailing blanks become part of the name",
                    )
                    .with_replacement("Remove the trailing blanks", blanks, ""),
                );
            }
        }
        ("DESC", FieldValue::Desc { inline, lines, end }) => {
            if let Some(first) = inline.first() {
                error(
                    out,
                    Code::RL0211,
                    first.range,
                    "the description starts on the line after DESC; move this text there".into(),
                );
            }
            for line in lines {
                let text = line.value.trim_end_matches('\r');
                if text.len() > DESC_WIDTH {
                    let at = line.range.start() + TextSize::from(DESC_WIDTH as u32);
                    let range =
                        TextRange::new(at, line.range.start() + TextSize::from(text.len() as u32));
                    error(
                        out,
                        Code::RL0212,
                        range,
                        format!(
                            "description lines hold at most {DESC_WIDTH} characters; this one has {}: break it here",
                            text.len()
                        ),
                    );
                }
                if text.trim() == "." && text != "." {
                    error(out, Code::RL0215, line.range, "this line does not end the description: the `.` must be alone, without blanks".into());
                }
            }
            if end.is_none() {
                error(
                    out,
                    Code::RL0213,
                    field.keyword.range,
                    "this description never ends; add a line holding only `.` after its text"
                        .into(),
                );
            } else if lines.is_empty() {
                error(
                    out,
                    Code::RL0214,
                    field.keyword.range,
                    "the description is empty; write at least one line before the `.`".into(),
                );
            }
        }
        ("SYMB", _) => match words {
            [symbol] if symbol.value.chars().count() == 1 => {}
            _ => error(
                out,
                Code::RL0203,
                words_range(field),
                "SYMB takes exactly one character, such as `d`".into(),
            ),
        },
        ("COLOR", _) => {
            if words.is_empty() {
                error(
                    out,
                    Code::RL0204,
                    field.keyword.range,
                    format!("COLOR needs a colour: one of {}", COLORS.join(", ")),
                );
            }
            for word in words {
                if !COLORS.contains(&word.value.as_str()) {
                    let mut diagnostic = Diagnostic::new(
                        Code::RL0204,
                        word.range,
                        format!(
                            "`{}` is not a colour; colours are {}",
                            word.value,
                            COLORS.join(", ")
                        ),
                    );
                    if let Some(s) = suggestions.closest(&word.value, COLORS) {
                        diagnostic = diagnostic.with_replacement(
                            format!("Replace with `{s}`"),
                            word.range,
                            s,
                        );
                    }
                    out.push(diagnostic);
                }
            }
            if kind == Kind::Object && words.len() > 1 {
                error(
                    out,
                    Code::RL0204,
                    words_range(field),
                    "an object has exactly one colour".into(),
                );
            }
        }
        ("ABIL", _) => {
            if words.is_empty() {
                error(
                    out,
                    Code::RL0207,
                    field.keyword.range,
                    format!("ABIL needs at least one ability: {}", ABILITIES.join(", ")),
                );
            }
            for word in words {
                if !ABILITIES.contains(&word.value.as_str()) {
                    let mut diagnostic = Diagnostic::new(
                        Code::RL0207,
                        word.range,
                        format!(
                            "`{}` is not an ability; abilities are {}",
                            word.value,
                            ABILITIES.join(", ")
                        ),
                    );
                    if let Some(s) = suggestions.closest(&word.value, ABILITIES) {
                        diagnostic = diagnostic.with_replacement(
                            format!("Replace with `{s}`"),
                            word.range,
                            s,
                        );
                    }
                    out.push(diagnostic);
                }
            }
        }
        ("RRTY", _) => match words {
            [value]
                if value
                    .value
                    .parse::<i64>()
                    .is_ok_and(|n| (1..=100).contains(&n)) => {}
            _ => error(
                out,
                Code::RL0208,
                words_range(field),
                "RRTY is a whole number from 1 to 100".into(),
            ),
        },
        ("ART", _) => match words {
            [value] if matches!(value.value.as_str(), "TRUE" | "FALSE") => {}
            _ => error(
                out,
                Code::RL0209,
                words_range(field),
                "ART is exactly `TRUE` or `FALSE`".into(),
            ),
        },
        ("TYPE", _) => match words {
            [value] if TYPES.contains(&value.value.as_str()) => {}
            [value] => {
                let mut diagnostic = Diagnostic::new(
                    Code::RL0210,
                    value.range,
                    format!(
                        "`{}` is not an item type; types are {}",
                        value.value,
                        TYPES.join(", ")
                    ),
                );
                if let Some(s) = suggestions.closest(&value.value, TYPES) {
                    diagnostic =
                        diagnostic.with_replacement(format!("Replace with `{s}`"), value.range, s);
                }
                out.push(diagnostic);
            }
            _ => error(
                out,
                Code::RL0210,
                words_range(field),
                "TYPE takes exactly one item type, such as WEAPON".into(),
            ),
        },
        (dice_field, _) if kind.dice_fields().contains(&dice_field) => {
            let dice = match words {
                [value] => Dice::parse(&value.value),
                _ => None,
            };
            let Some(dice) = dice else {
                error(
                    out,
                    Code::RL0205,
                    words_range(field),
                    format!(
                        "{dice_field} takes dice written `base+countdsides` without spaces, such as `7+1d4` (a constant is `12+0d1`)"
                    ),
                );
                return;
            };
            if dice.count > 0 && dice.sides <= 1 {
                error(
                    out,
                    Code::RL0206,
                    words_range(field),
                    format!(
                        "{}d{} always rolls the same; `{}+0d1` says so plainly",
                        dice.count,
                        dice.sides,
                        dice.range().0
                    ),
                );
            }
            let (low, _) = dice.range();
            let impossible = match dice_field {
                "HP" | "SPEED" if kind == Kind::Monster => low <= 0,
                "WEIGHT" => low < 0,
                _ => false,
            };
            if impossible {
                error(
                    out,
                    Code::RL0303,
                    words_range(field),
                    format!("{dice_field} can roll {low}, which the game cannot use"),
                );
            }
        }
        _ => {}
    }
}
