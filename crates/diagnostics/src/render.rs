//! A plain, stable text form of diagnostics, used by the data-driven tests: one line per
//! diagnostic with 1-based `line:column` positions (columns in characters), then its labels
//! and fix, indented.

use std::fmt::Write;

use crate::{Diagnostic, LineIndex, TextRange};

pub fn render_plain(text: &str, diagnostics: &[Diagnostic]) -> String {
    let index = LineIndex::new(text);
    let at = |range: TextRange| {
        let start = index.line_col_chars(text, range.start());
        let end = index.line_col_chars(text, range.end());
        format!(
            "{}:{}..{}:{}",
            start.line + 1,
            start.col + 1,
            end.line + 1,
            end.col + 1
        )
    };
    let mut out = String::new();
    for d in diagnostics {
        let _ = writeln!(
            out,
            "{} {} {}: {}",
            d.code,
            d.severity,
            at(d.range),
            d.message
        );
        for label in &d.labels {
            let _ = writeln!(out, "    label {}: {}", at(label.range), label.message);
        }
        if let Some(fix) = &d.fix {
            let _ = writeln!(out, "    fix {:?}", fix.title);
            for edit in &fix.edits {
                let _ = writeln!(out, "        {} => {:?}", at(edit.range), edit.new_text);
            }
        }
    }
    out
}
