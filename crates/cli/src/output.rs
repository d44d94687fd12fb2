//! The output formats of `levkit check`. Positions are 1-based lines and columns counted in
//! characters (Unicode scalar values).

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use codespan_reporting::diagnostic::{Diagnostic as Report, Label, Severity as ReportSeverity};
use codespan_reporting::files::{Error as FilesError, Files};
use codespan_reporting::term::{self, termcolor};
use levkit_diagnostics::{Code, Diagnostic, LineIndex, Severity, TextRange, TextSize};
use serde_json::json;

/// One analysed file and what to say about it.
pub struct FileReport {
    pub path: PathBuf,
    pub text: Arc<str>,
    /// Made when a position is first printed: most files of a large check have nothing to say.
    /// It indexes the [`FileReport::reported_text`] only.
    pub line_index: OnceLock<LineIndex>,
    pub diagnostics: Vec<Diagnostic>,
}

impl FileReport {
    /// The file and every diagnostic the analysis's options let through.
    pub fn of(
        analysis: &levkit_ide::Analysis,
        file: levkit_ide::FileId,
    ) -> levkit_ide::Cancellable<FileReport> {
        FileReport::new(analysis, file, analysis.diagnostics(file)?)
    }

    /// The file and its diagnostics.
    pub fn new(
        analysis: &levkit_ide::Analysis,
        file: levkit_ide::FileId,
        diagnostics: Vec<Diagnostic>,
    ) -> levkit_ide::Cancellable<FileReport> {
        Ok(FileReport {
            path: analysis.path(file)?,
            text: analysis.file_text(file)?,
            line_index: OnceLock::new(),
            diagnostics,
        })
    }
}

/// 1-based start and end positions of a range.
struct Span {
    line: u32,
    column: u32,
    end_line: u32,
    end_column: u32,
}

impl FileReport {
    fn display_path(&self) -> String {
        self.path.display().to_string()
    }

    fn line_index(&self) -> &LineIndex {
        self.line_index
            .get_or_init(|| LineIndex::new(self.reported_text()))
    }

    /// The text up to the end of the line after the last line a diagnostic reaches: every
    /// position printed and every line shown is in it, and the lines after it (a third of
    /// the DCSS corpus's lines in the files with something to say) need no index.
    fn reported_text(&self) -> &str {
        let last = self
            .diagnostics
            .iter()
            .flat_map(|d| std::iter::once(d.range).chain(d.labels.iter().map(|l| l.range)))
            .map(|range| usize::from(range.end()))
            .max()
            .unwrap_or(0);
        let bytes = self.text.as_bytes();
        let after_line = |from: usize| {
            let rest = bytes.get(from..)?;
            rest.iter()
                .position(|&b| b == b'\n')
                .map(|at| from + at + 1)
        };
        let end = after_line(last)
            .and_then(after_line)
            .unwrap_or(self.text.len());
        self.text.get(..end).unwrap_or(&self.text)
    }

    fn span(&self, range: TextRange) -> Span {
        let index = self.line_index();
        let start = index.line_col_chars(&self.text, range.start());
        let end = index.line_col_chars(&self.text, range.end());
        Span {
            line: start.line + 1,
            column: start.col + 1,
            end_line: end.line + 1,
            end_column: end.col + 1,
        }
    }
}

/// The file as codespan renders it, with lines as the rest of levkit counts them (`\r\n`, `\n`
/// or a lone `\r`, as LSP does) and the line index the report already has, so a report does
/// not scan its file again for line starts.
struct ReportFile<'a> {
    name: String,
    text: &'a str,
    index: &'a LineIndex,
}

impl ReportFile<'_> {
    fn line_start(&self, line: usize) -> Result<usize, FilesError> {
        let count = self.index.line_count();
        match u32::try_from(line)
            .ok()
            .and_then(|l| self.index.line_start(l))
        {
            Some(start) => Ok(usize::from(start)),
            None if line == count => Ok(self.text.len()),
            None => Err(FilesError::LineTooLarge {
                given: line,
                max: count - 1,
            }),
        }
    }
}

impl<'a> Files<'a> for ReportFile<'_> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, (): ()) -> Result<&'a str, FilesError> {
        Ok(&self.name)
    }

    fn source(&'a self, (): ()) -> Result<&'a str, FilesError> {
        Ok(self.text)
    }

    fn line_index(&'a self, (): (), byte_index: usize) -> Result<usize, FilesError> {
        let offset = TextSize::try_from(byte_index).unwrap_or(TextSize::of(self.text));
        Ok(self.index.line_col(offset).line as usize)
    }

    fn line_range(&'a self, (): (), line: usize) -> Result<std::ops::Range<usize>, FilesError> {
        Ok(self.line_start(line)?..self.line_start(line + 1)?)
    }
}

pub fn human(report: &FileReport, color: bool) -> String {
    if report.diagnostics.is_empty() {
        return String::new();
    }
    human_in(report, color, report.reported_text(), report.line_index())
}

/// The human report of a file whose `text` (the whole of it, or the part up to its problems)
/// `index` indexes.
fn human_in(report: &FileReport, color: bool, text: &str, index: &LineIndex) -> String {
    let file = ReportFile {
        name: report.display_path(),
        text,
        index,
    };
    let config = term::Config::default();
    let mut buffer = if color {
        termcolor::Buffer::ansi()
    } else {
        termcolor::Buffer::no_color()
    };
    for diagnostic in &report.diagnostics {
        let severity = match diagnostic.severity {
            Severity::Error => ReportSeverity::Error,
            Severity::Warning => ReportSeverity::Warning,
            Severity::Info => ReportSeverity::Note,
            Severity::Hint => ReportSeverity::Help,
        };
        let mut labels = vec![Label::primary((), diagnostic.range)];
        labels.extend(
            diagnostic
                .labels
                .iter()
                .map(|l| Label::secondary((), l.range).with_message(&l.message)),
        );
        let mut notes = Vec::new();
        if let Some(fix) = &diagnostic.fix {
            notes.push(format!("help: {}", fix.title));
        }
        let rendered = Report::new(severity)
            .with_code(diagnostic.code.as_str())
            .with_message(&diagnostic.message)
            .with_labels(labels)
            .with_notes(notes);
        // Rendering only fails for ranges outside the file, which analysis never produces.
        let _ = term::emit_to_write_style(&mut buffer, &config, &file, &rendered);
    }
    // The report is made of UTF-8 texts, so the check passes and the buffer becomes the
    // string as it is (a lossy conversion walked it by chunks, then copied it).
    String::from_utf8(buffer.into_inner())
        .unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned())
}

pub fn json_lines(report: &FileReport) -> String {
    let mut out = String::new();
    for diagnostic in &report.diagnostics {
        let span = report.span(diagnostic.range);
        let line = json!({
            "file": report.display_path(),
            "line": span.line,
            "column": span.column,
            "end_line": span.end_line,
            "end_column": span.end_column,
            "severity": diagnostic.severity.as_str(),
            "code": diagnostic.code.as_str(),
            "message": diagnostic.message,
        });
        out.push_str(&line.to_string());
        out.push('\n');
    }
    out
}

pub fn github(report: &FileReport) -> String {
    fn escape_data(s: &str) -> String {
        s.replace('%', "%25")
            .replace('\r', "%0D")
            .replace('\n', "%0A")
    }
    fn escape_property(s: &str) -> String {
        escape_data(s).replace(':', "%3A").replace(',', "%2C")
    }
    let mut out = String::new();
    for diagnostic in &report.diagnostics {
        let span = report.span(diagnostic.range);
        let command = match diagnostic.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info | Severity::Hint => "notice",
        };
        out.push_str(&format!(
            "::{command} file={},line={},col={},endLine={},endColumn={},title={}::{}\n",
            escape_property(&report.display_path()),
            span.line,
            span.column,
            span.end_line,
            span.end_column,
            escape_property(&format!("levkit {}", diagnostic.code)),
            escape_data(&diagnostic.message),
        ));
    }
    out
}

fn sarif_level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info | Severity::Hint => "note",
    }
}

pub fn sarif(reports: &[FileReport]) -> String {
    let rules: Vec<_> = Code::ALL
        .iter()
        .map(|code| {
            let info = code.info();
            json!({
                "id": info.code,
                "name": info.name,
                "shortDescription": { "text": info.summary },
                "defaultConfiguration": { "level": sarif_level(info.severity) },
            })
        })
        .collect();
    let results: Vec<_> = reports
        .iter()
        .flat_map(|report| {
            report.diagnostics.iter().map(move |diagnostic| {
                let span = report.span(diagnostic.range);
                json!({
                    "ruleId": diagnostic.code.as_str(),
                    "ruleIndex": Code::ALL.iter().position(|c| *c == diagnostic.code),
                    "level": sarif_level(diagnostic.severity),
                    "message": { "text": diagnostic.message },
                    "locations": [{
                        "physicalLocation": {
                            "artifactLocation": { "uri": uri(&report.path) },
                            "region": {
                                "startLine": span.line,
                                "startColumn": span.column,
                                "endLine": span.end_line,
                                "endColumn": span.end_column,
                            }
                        }
                    }],
                })
            })
        })
        .collect();
    let log = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "levkit",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    });
    let mut text = serde_json::to_string_pretty(&log).unwrap_or_default();
    text.push('\n');
    text
}

/// A relative URI reference for a path (forward slashes, spaces and `%` escaped).
fn uri(path: &std::path::Path) -> String {
    path.to_string_lossy()
        .replace('\\', "/")
        .replace('%', "%25")
        .replace(' ', "%20")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_indexed_up_to_its_problems_prints_as_one_indexed_whole() {
        let texts = [
            "a\nbb\r\nccc\rdé\n\nee",
            "x",
            "",
            "one\ntwo\nthree\n",
            "é\r\n\r\nz\r",
            "l1\nl2\nl3\nl4\nl5\n",
        ];
        for text in texts {
            let boundaries: Vec<TextSize> = (0..=text.len())
                .filter(|&i| text.is_char_boundary(i))
                .map(|i| TextSize::from(i as u32))
                .collect();
            let whole = LineIndex::new(text);
            for (i, &start) in boundaries.iter().enumerate() {
                for &end in &boundaries[i..] {
                    let range = TextRange::new(start, end);
                    let label = TextRange::new(TextSize::from(0), start);
                    let report = FileReport {
                        path: "f.des".into(),
                        text: Arc::from(text),
                        line_index: OnceLock::new(),
                        diagnostics: vec![
                            Diagnostic::new(Code::DC0201, range, "here")
                                .with_label(label, "and here"),
                        ],
                    };
                    assert_eq!(
                        human(&report, false),
                        human_in(&report, false, text, &whole),
                        "{text:?} {range:?}"
                    );
                    let span = report.span(range);
                    let (from, to) = (
                        whole.line_col_chars(text, start),
                        whole.line_col_chars(text, end),
                    );
                    assert_eq!(
                        (span.line, span.column, span.end_line, span.end_column),
                        (from.line + 1, from.col + 1, to.line + 1, to.col + 1),
                        "{text:?} {range:?}"
                    );
                }
            }
        }
    }
}
