//! Positions between levkit (byte offsets) and LSP (line + UTF-16 or UTF-8 column).

use levkit_diagnostics::{LineCol, LineIndex, TextRange, TextSize};
use tower_lsp_server::ls_types::{Position, Range};

/// The column unit agreed with the client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16,
}

/// A file's text and line index, for converting positions.
pub struct Lines<'a> {
    pub text: &'a str,
    pub index: &'a LineIndex,
    pub encoding: Encoding,
}

impl Lines<'_> {
    pub fn position(&self, offset: TextSize) -> Position {
        let LineCol { line, col } = match self.encoding {
            Encoding::Utf8 => self.index.line_col(offset),
            Encoding::Utf16 => self.index.line_col_utf16(self.text, offset),
        };
        Position::new(line, col)
    }

    pub fn range(&self, range: TextRange) -> Range {
        Range::new(self.position(range.start()), self.position(range.end()))
    }

    /// The offset of a position; positions past a line's end clamp to it, past the file's end
    /// to the end of the file.
    pub fn offset(&self, position: Position) -> TextSize {
        let line = LineCol {
            line: position.line,
            col: position.character,
        };
        let found = match self.encoding {
            Encoding::Utf16 => self.index.offset_utf16(self.text, line),
            Encoding::Utf8 => self.index.line_start(position.line).map(|start| {
                let rest = &self.text[usize::from(start)..];
                let line_len = rest.find('\n').unwrap_or(rest.len());
                let mut col = (position.character as usize).min(line_len);
                while !rest.is_char_boundary(col) {
                    col -= 1;
                }
                start + TextSize::from(col as u32)
            }),
        };
        found.unwrap_or_else(|| TextSize::of(self.text))
    }

    pub fn text_range(&self, range: Range) -> TextRange {
        let (start, end) = (self.offset(range.start), self.offset(range.end));
        TextRange::new(start.min(end), end.max(start))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_encodings_round_trip() {
        let text = "é𝄞x\nabc";
        let index = LineIndex::new(text);
        let x = TextSize::from(text.find('x').unwrap() as u32);
        for (encoding, col) in [(Encoding::Utf16, 3), (Encoding::Utf8, 6)] {
            let lines = Lines {
                text,
                index: &index,
                encoding,
            };
            assert_eq!(lines.position(x), Position::new(0, col));
            assert_eq!(lines.offset(Position::new(0, col)), x);
        }
        let lines = Lines {
            text,
            index: &index,
            encoding: Encoding::Utf16,
        };
        assert_eq!(lines.offset(Position::new(9, 9)), TextSize::of(text));
        assert_eq!(lines.offset(Position::new(1, 99)), TextSize::of(text));
    }
}
