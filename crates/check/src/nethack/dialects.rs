//! Files lev_comp 3.4.3 cannot read at all: NetHack 3.6's level language (variables, `IF`,
//! `LOOP`, `FUNCTION`, selections...) and NetHack 3.7's Lua files are recognised and said so
//! once, and runs of lines that all fail are summarised rather than reported line by line.

use levkit_diagnostics::{Code, Diagnostic, Severity, TextRange, TextSize};

/// Words of NetHack 3.6's level language that lev_comp 3.4.3 does not have.
const NEWER_KEYWORDS: &[&str] = &[
    "BREAK",
    "CASE",
    "ELSE",
    "EXIT",
    "FOR",
    "FUNCTION",
    "GRAVE",
    "IF",
    "LOOP",
    "MON_GENERATION",
    "REPLACE_TERRAIN",
    "ROOMDOOR",
    "SHUFFLE",
    "SOUNDS",
    "SPILL",
    "SWITCH",
    "TERRAIN",
    "WALLWALK",
];

/// Values of NetHack 3.6 in places where lev_comp 3.4.3 has its own (FLAGS, INIT_MAP).
const NEWER_VALUES: &[&str] = &[
    "mazelevel",
    "premapped",
    "solidfill",
    "mines",
    "inaccessibles",
];

/// How many lines of a run of failing lines are reported one by one.
const RUN_REPORTED: usize = 10;

/// An error for the whole file when its syntax errors show NetHack 3.6's level language (or
/// 3.7's Lua): then nothing else about it is worth reporting.
pub fn newer_language(text: &str, syntax_errors: &[Diagnostic]) -> Option<Diagnostic> {
    let mut markers: Vec<(TextRange, String, &str)> = Vec::new();
    for error in syntax_errors {
        let Some(word) = text.get(std::ops::Range::<usize>::from(error.range)) else {
            continue;
        };
        let after = text
            .get(usize::from(error.range.end())..)
            .unwrap_or_default();
        let before = text
            .get(..usize::from(error.range.start()))
            .unwrap_or_default();
        let marker = match error.code {
            Code::NH0002 if word == "des" && after.starts_with('.') => Some("3.7"),
            Code::NH0002 if NEWER_KEYWORDS.contains(&word) => Some("3.6"),
            Code::NH0001 if NEWER_VALUES.contains(&word) => Some("3.6"),
            // Blocks of IF, LOOP, FUNCTION and of statements with contents.
            Code::NH0004 if word == "{" || word == "}" => Some("3.6"),
            // `MONSTER: ('d', "jackal"), ...`: a class and name in parentheses.
            Code::NH0001 if word == "(" && before.trim_end().ends_with(':') => Some("3.6"),
            Code::NH0004
                if word == "$"
                    && after.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') =>
            {
                Some("3.6")
            }
            _ => None,
        };
        if let Some(version) = marker {
            let shown = if word == "$" {
                let name: String = after
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                format!("${name}")
            } else {
                word.to_string()
            };
            markers.push((error.range, shown, version));
        }
    }
    if markers.len() < 2 {
        return None;
    }
    let lua = markers.iter().any(|m| m.2 == "3.7");
    let (first, word, _) = &markers[0];
    let (second, second_word, _) = &markers[1];
    let language = if lua {
        "NetHack 3.7's Lua level files"
    } else {
        "NetHack 3.6's level language"
    };
    Some(
        Diagnostic::new(
            Code::NH0015,
            *first,
            format!(
                "this file looks written in {language} (`{word}` here, and {} more of its words), which levkit does not read yet and lev_comp 3.4.3 rejects; levkit checks and compiles NetHack 3.4.3 level files",
                markers.len() - 1
            ),
        )
        .with_label(*second, format!("`{second_word}` is another")),
    )
}

/// Keeps the syntax errors of the first lines of each run of consecutive failing lines, and
/// replaces those of the rest of the run by one error that says how far it goes. Blank lines
/// and comments neither break a run nor count in it.
pub fn cap_runs(text: &str, mut errors: Vec<Diagnostic>) -> Vec<Diagnostic> {
    errors.sort_by_key(|d| (d.range.start(), d.range.end()));
    // A run longer than the cap needs more errors than the cap (one per line at least).
    if errors.len() <= RUN_REPORTED {
        return errors;
    }
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let line_of = |offset: TextSize| {
        line_starts
            .partition_point(|&s| s <= usize::from(offset))
            .saturating_sub(1)
    };
    let line_text = |line: usize| {
        let end = line_starts.get(line + 1).copied().unwrap_or(text.len());
        &text[line_starts[line]..end]
    };
    let neutral = |line: usize| {
        let t = line_text(line);
        t.trim().is_empty() || t.starts_with('#')
    };
    // The failing lines, in order, with the indexes of their errors.
    let mut lines: Vec<(usize, Vec<usize>)> = Vec::new();
    for (i, error) in errors.iter().enumerate() {
        let line = line_of(error.range.start());
        match lines.last_mut() {
            Some((last, indexes)) if *last == line => indexes.push(i),
            _ => lines.push((line, vec![i])),
        }
    }
    let mut dropped = vec![false; errors.len()];
    let mut summaries = Vec::new();
    let mut run_start = 0;
    while run_start < lines.len() {
        // Extend the run while the lines between two failing lines are all neutral.
        let mut run_end = run_start + 1;
        while run_end < lines.len() && (lines[run_end - 1].0 + 1..lines[run_end].0).all(neutral) {
            run_end += 1;
        }
        let run = &lines[run_start..run_end];
        if run.len() > RUN_REPORTED {
            let rest = &run[RUN_REPORTED..];
            let hidden: Vec<usize> = rest.iter().flat_map(|(_, e)| e.iter().copied()).collect();
            for &i in &hidden {
                dropped[i] = true;
            }
            let first = &errors[rest[0].1[0]];
            let last = &errors[*hidden.last().unwrap_or(&rest[0].1[0])];
            let (lines_after, last_line) = (rest.len() - 1, rest[rest.len() - 1].0 + 1);
            let message = if hidden.iter().all(|&i| errors[i].code == Code::NH0009) {
                let mut glyphs: Vec<&str> = hidden
                    .iter()
                    .filter_map(|&i| text.get(std::ops::Range::<usize>::from(errors[i].range)))
                    .collect();
                glyphs.sort_unstable();
                glyphs.dedup();
                format!(
                    "this map row and the {lines_after} after it, up to line {last_line}, hold more characters that are not lev_comp 3.4.3 map glyphs ({}: {} more errors, not listed); a variant's lev_comp with more terrain may draw them, lev_comp 3.4.3 does not",
                    glyphs
                        .iter()
                        .map(|g| format!("`{g}`"))
                        .collect::<Vec<_>>()
                        .join(" "),
                    hidden.len()
                )
            } else {
                format!(
                    "this line and the {lines_after} failing lines after it, up to line {last_line}, do not follow lev_comp 3.4.3's grammar either ({} more errors, not listed after the first {RUN_REPORTED} lines of the run); is the file written for another version of the level language?",
                    hidden.len()
                )
            };
            summaries.push(
                Diagnostic::new(Code::NH0016, first.range, message)
                    .with_label(last.range, "the run ends here"),
            );
        }
        run_start = run_end;
    }
    let mut out: Vec<Diagnostic> = errors
        .into_iter()
        .zip(dropped)
        .filter(|(d, dropped)| !dropped || d.severity != Severity::Error)
        .map(|(d, _)| d)
        .collect();
    out.extend(summaries);
    out
}

/// For a file no dialect recognises: whether it looks like a newer NetHack's level file, by
/// the way its lines start (3.7's Lua `des.` calls, 3.6's `FUNCTION` files).
pub fn newer_level_file(text: &str) -> Option<&'static str> {
    let starts = |prefix: &str| text.lines().any(|l| l.trim_start().starts_with(prefix));
    if starts("des.") {
        Some("a NetHack 3.7 Lua level file (`des.` calls)")
    } else if starts("FUNCTION ") || starts("$") {
        Some("a file in NetHack 3.6's level language (`FUNCTION`s or `$` variables)")
    } else {
        None
    }
}
