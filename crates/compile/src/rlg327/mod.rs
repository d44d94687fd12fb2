//! COM S 327 monster and object descriptions: the course reference parser's print-out
//! (`--compat`), reproduced byte for byte.

mod reference;

pub use reference::print_compat;

use levkit_diagnostics::{Diagnostic, Severity};
use levkit_model::rlg327::{DescFile, Entry, FieldValue};

/// The entries with no error, which a reader following the assignment would load.
pub fn valid_entries<'a>(file: &'a DescFile, diagnostics: &[Diagnostic]) -> Vec<&'a Entry> {
    file.entries
        .iter()
        .filter(|e| {
            !diagnostics
                .iter()
                .any(|d| d.severity == Severity::Error && e.range.contains_range(d.range))
        })
        .collect()
}

/// A field's value as printed: the words joined by spaces, or the text.
pub fn field_text(entry: &Entry, keyword: &str) -> String {
    match entry.field(keyword).map(|f| &f.value) {
        Some(FieldValue::Text(text)) => text.value.clone(),
        Some(FieldValue::Words(words)) => words
            .iter()
            .map(|w| w.value.as_str())
            .collect::<Vec<_>>()
            .join(" "),
        _ => String::new(),
    }
}

/// The print-out the assignment asks for: each valid entry's fields one per line, in the
/// assignment's order (the description on its own lines), a blank line between entries.
pub fn print(file: &DescFile, diagnostics: &[Diagnostic]) -> String {
    let mut out = String::new();
    for (i, entry) in valid_entries(file, diagnostics).into_iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        for &keyword in file.kind.fields() {
            match entry.field(keyword).map(|f| &f.value) {
                Some(FieldValue::Desc { lines, .. }) => {
                    for line in lines {
                        out.push_str(&line.value);
                        out.push('\n');
                    }
                }
                // Legacy files have no RRTY or ART.
                None => continue,
                _ => {
                    out.push_str(&field_text(entry, keyword));
                    out.push('\n');
                }
            }
        }
    }
    out
}
