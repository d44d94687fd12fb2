use rowan::TextSize;

/// Maps byte offsets to lines and columns. Built once per text and shared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineIndex {
    /// Offset of the first byte of every line; `line_starts[0] == 0`.
    line_starts: Vec<TextSize>,
    text_len: TextSize,
    /// Lines that contain a character outside ASCII, whose UTF-16 columns need counting.
    non_ascii_lines: Vec<bool>,
}

/// The unit columns are counted in at an edge (LSP negotiates UTF-16 or UTF-8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PositionEncoding {
    Utf8,
    #[default]
    Utf16,
}

/// A zero-based line and a zero-based column (in the unit the caller asked for).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LineCol {
    pub line: u32,
    pub col: u32,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut line_starts = vec![TextSize::from(0)];
        let mut non_ascii_lines = vec![false];
        for (offset, byte) in text.bytes().enumerate() {
            if byte == b'\n' {
                line_starts.push(TextSize::from(offset as u32 + 1));
                non_ascii_lines.push(false);
            } else if byte >= 0x80 {
                *non_ascii_lines.last_mut().expect("there is always a line") = true;
            }
        }
        LineIndex {
            line_starts,
            text_len: TextSize::of(text),
            non_ascii_lines,
        }
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// The offset where `line` (zero-based) starts, or `None` past the end.
    pub fn line_start(&self, line: u32) -> Option<TextSize> {
        self.line_starts.get(line as usize).copied()
    }

    /// Line and UTF-8 byte column of `offset` (clamped to the text).
    pub fn line_col(&self, offset: TextSize) -> LineCol {
        let offset = offset.min(self.text_len);
        let line = self.line_starts.partition_point(|&start| start <= offset) - 1;
        LineCol {
            line: line as u32,
            col: u32::from(offset - self.line_starts[line]),
        }
    }

    /// Line and column counted in characters (what a person counts, and what CLI output shows).
    pub fn line_col_chars(&self, text: &str, offset: TextSize) -> LineCol {
        self.line_col_in(text, offset, |c| c.len_utf8() as u32, |_| 1)
    }

    /// Line and column counted in UTF-16 code units (the LSP default).
    pub fn line_col_utf16(&self, text: &str, offset: TextSize) -> LineCol {
        self.line_col_in(
            text,
            offset,
            |c| c.len_utf8() as u32,
            |c| c.len_utf16() as u32,
        )
    }

    fn line_col_in(
        &self,
        text: &str,
        offset: TextSize,
        bytes: impl Fn(char) -> u32,
        units: impl Fn(char) -> u32,
    ) -> LineCol {
        let LineCol { line, col } = self.line_col(offset);
        if !self.non_ascii_lines[line as usize] {
            return LineCol { line, col };
        }
        let start = u32::from(self.line_starts[line as usize]) as usize;
        let mut seen_bytes = 0;
        let mut counted = 0;
        for c in text[start..].chars() {
            if seen_bytes >= col {
                break;
            }
            seen_bytes += bytes(c);
            counted += units(c);
        }
        LineCol { line, col: counted }
    }

    /// Line and column of `offset` in the given unit.
    pub fn position(&self, text: &str, offset: TextSize, encoding: PositionEncoding) -> LineCol {
        match encoding {
            PositionEncoding::Utf8 => self.line_col(offset),
            PositionEncoding::Utf16 => self.line_col_utf16(text, offset),
        }
    }

    /// The offset of a position in the given unit; columns past a line's end clamp to it,
    /// lines past the end of the text to the end of the text.
    pub fn offset(&self, text: &str, pos: LineCol, encoding: PositionEncoding) -> TextSize {
        let found = match encoding {
            PositionEncoding::Utf16 => self.offset_utf16(text, pos),
            PositionEncoding::Utf8 => self.line_start(pos.line).map(|start| {
                let rest = &text[usize::from(start)..];
                let line_len = rest.find('\n').unwrap_or(rest.len());
                let mut col = (pos.col as usize).min(line_len);
                while !rest.is_char_boundary(col) {
                    col -= 1;
                }
                start + TextSize::from(col as u32)
            }),
        };
        found.unwrap_or(self.text_len)
    }

    /// The offset of a zero-based line and UTF-16 column; columns past the line end clamp to it.
    pub fn offset_utf16(&self, text: &str, pos: LineCol) -> Option<TextSize> {
        let start = *self.line_starts.get(pos.line as usize)?;
        let end = self
            .line_starts
            .get(pos.line as usize + 1)
            .copied()
            .unwrap_or(self.text_len);
        let line = &text[usize::from(start)..usize::from(end)];
        let mut units = 0;
        for (byte, c) in line.char_indices() {
            if units >= pos.col || c == '\n' || c == '\r' {
                return Some(start + TextSize::from(byte as u32));
            }
            units += c.len_utf16() as u32;
        }
        Some(end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_in_each_unit() {
        let text = "ab\né𝄞x\n";
        let index = LineIndex::new(text);
        let x = TextSize::from(text.find('x').unwrap() as u32);
        assert_eq!(index.line_col(x), LineCol { line: 1, col: 6 });
        assert_eq!(index.line_col_chars(text, x), LineCol { line: 1, col: 2 });
        assert_eq!(index.line_col_utf16(text, x), LineCol { line: 1, col: 3 });
        assert_eq!(
            index.offset_utf16(text, LineCol { line: 1, col: 3 }),
            Some(x)
        );
        assert_eq!(
            index.line_col(TextSize::of(text)),
            LineCol { line: 2, col: 0 }
        );
    }
}
