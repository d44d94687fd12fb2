//! Positions between levkit (byte offsets) and LSP (line + UTF-16 or UTF-8 column).

use std::sync::Arc;

use levkit_diagnostics::{LineCol, LineIndex, PositionEncoding, TextRange, TextSize};
use tower_lsp_server::ls_types::{Position, Range};

/// A file's text and line index, for converting positions.
pub struct Lines {
    pub text: Arc<str>,
    pub index: Arc<LineIndex>,
    pub encoding: PositionEncoding,
}

impl Lines {
    pub fn position(&self, offset: TextSize) -> Position {
        let LineCol { line, col } = self.index.position(&self.text, offset, self.encoding);
        Position::new(line, col)
    }

    pub fn range(&self, range: TextRange) -> Range {
        Range::new(self.position(range.start()), self.position(range.end()))
    }

    /// The offset of a position; positions past a line's end clamp to it, past the file's end
    /// to the end of the file.
    pub fn offset(&self, position: Position) -> TextSize {
        let at = LineCol {
            line: position.line,
            col: position.character,
        };
        self.index.offset(&self.text, at, self.encoding)
    }

    pub fn text_range(&self, range: Range) -> TextRange {
        let (start, end) = (self.offset(range.start), self.offset(range.end));
        TextRange::new(start.min(end), end.max(start))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str, encoding: PositionEncoding) -> Lines {
        Lines {
            text: text.into(),
            index: Arc::new(LineIndex::new(text)),
            encoding,
        }
    }

    #[test]
    fn both_encodings_round_trip() {
        let text = "é𝄞x\nabc";
        let x = TextSize::from(text.find('x').unwrap() as u32);
        for (encoding, col) in [(PositionEncoding::Utf16, 3), (PositionEncoding::Utf8, 6)] {
            let lines = lines(text, encoding);
            assert_eq!(lines.position(x), Position::new(0, col));
            assert_eq!(lines.offset(Position::new(0, col)), x);
        }
        let lines = lines(text, PositionEncoding::Utf16);
        assert_eq!(lines.offset(Position::new(9, 9)), TextSize::of(text));
        assert_eq!(lines.offset(Position::new(1, 99)), TextSize::of(text));
    }
}
