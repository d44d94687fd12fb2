//! The diagnostics vocabulary shared by every stage of levkit: a [`Diagnostic`] has a stable
//! [`Code`], a severity, a primary range, secondary labels and an optional [`Fix`].
//!
//! Ranges are byte offsets into the analysed text ([`TextRange`], re-exported from rowan);
//! [`LineIndex`] turns them into line/column pairs (UTF-8 or UTF-16) at the edges.

mod codes;
mod line_index;
mod render;

pub use codes::{Code, CodeGroup, CodeInfo};
pub use line_index::{LineCol, LineIndex, PositionEncoding};
pub use render::render_plain;
pub use rowan::{TextRange, TextSize};

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
    Hint,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
            Severity::Hint => "hint",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A secondary location that explains the primary one ("first defined here").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub range: TextRange,
    pub message: String,
}

/// One replacement of a range of the analysed text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextEdit {
    pub range: TextRange,
    pub new_text: String,
}

/// A machine-applicable repair, offered as a quick fix by the language server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    pub title: String,
    pub edits: Vec<TextEdit>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    pub range: TextRange,
    pub message: String,
    pub labels: Vec<Label>,
    pub fix: Option<Fix>,
}

impl Diagnostic {
    /// A diagnostic with the default severity of its code.
    pub fn new(code: Code, range: TextRange, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            severity: code.info().severity,
            range,
            message: message.into(),
            labels: Vec::new(),
            fix: None,
        }
    }

    pub fn with_label(mut self, range: TextRange, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            range,
            message: message.into(),
        });
        self
    }

    pub fn with_fix(mut self, title: impl Into<String>, edits: Vec<TextEdit>) -> Diagnostic {
        self.fix = Some(Fix {
            title: title.into(),
            edits,
        });
        self
    }

    /// Shorthand for a fix that replaces one range.
    pub fn with_replacement(
        self,
        title: impl Into<String>,
        range: TextRange,
        new_text: impl Into<String>,
    ) -> Diagnostic {
        self.with_fix(
            title,
            vec![TextEdit {
                range,
                new_text: new_text.into(),
            }],
        )
    }
}

/// Sorts diagnostics by position, then code, so every consumer sees one stable order.
pub fn sort(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| {
        (a.range.start(), a.range.end(), a.code).cmp(&(b.range.start(), b.range.end(), b.code))
    });
}
