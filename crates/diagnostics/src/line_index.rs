use rowan::TextSize;

/// Maps byte offsets to lines and columns and back. Built once per text and shared.
///
/// Lines end as LSP says they do: at `\r\n`, `\n` or a lone `\r`, so that positions agree with
/// every editor. Columns in characters or UTF-16 units are found by binary search over the
/// characters outside ASCII, so a conversion costs `O(log n)` however long and however
/// non-ASCII the line is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineIndex {
    /// Offset of the first byte of every line; `line_starts[0] == 0`.
    line_starts: Vec<TextSize>,
    /// Offset of every line's end, before its line break; empty when no line break is a `\r`
    /// (most texts), where a line ends one byte before the next one starts.
    line_ends: Vec<TextSize>,
    text_len: TextSize,
    /// The characters outside ASCII, in text order.
    wide: Vec<WideChar>,
    /// For each line, the index in `wide` of its first wide character; empty when there are
    /// none.
    first_wide: Vec<u32>,
}

/// A character of more than one byte, with what the characters before it on its line add
/// up to, so that a column is one subtraction away.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct WideChar {
    /// Its byte offset in the text.
    start: u32,
    len_utf8: u8,
    len_utf16: u8,
    /// Bytes beyond one per character, over the wide characters before it on its line.
    extra_bytes_per_char: u32,
    /// Bytes beyond the UTF-16 units, over the wide characters before it on its line.
    extra_bytes_per_unit: u32,
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

/// Appends the characters of more than one byte in `line` (which starts at `offset`).
fn note_wide_chars(line: &str, offset: usize, wide: &mut Vec<WideChar>) {
    if line.is_ascii() {
        return;
    }
    let (mut per_char, mut per_unit) = (0, 0);
    for (at, c) in line.char_indices().filter(|(_, c)| !c.is_ascii()) {
        let (len_utf8, len_utf16) = (c.len_utf8() as u32, c.len_utf16() as u32);
        wide.push(WideChar {
            start: (offset + at) as u32,
            len_utf8: len_utf8 as u8,
            len_utf16: len_utf16 as u8,
            extra_bytes_per_char: per_char,
            extra_bytes_per_unit: per_unit,
        });
        per_char += len_utf8 - 1;
        per_unit += len_utf8 - len_utf16;
    }
}

/// Appends the offset after each `\n` of `bytes`, in order.
fn push_line_starts(bytes: &[u8], starts: &mut Vec<TextSize>) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is part of every x86_64 processor.
    unsafe {
        push_line_starts_sse2(bytes, starts)
    };
    #[cfg(not(target_arch = "x86_64"))]
    push_line_starts_memchr(bytes, starts);
}

#[cfg(any(not(target_arch = "x86_64"), test))]
fn push_line_starts_memchr(bytes: &[u8], starts: &mut Vec<TextSize>) {
    starts.extend(memchr::memchr_iter(b'\n', bytes).map(|end| TextSize::from(end as u32 + 1)));
}

/// [`push_line_starts`] 32 bytes at a time, each a mask of its breaks: a search per line
/// (`memchr_iter`) cost 90 instructions a line of DCSS vaults, most of the human report of
/// the DCSS corpus check's files.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
fn push_line_starts_sse2(bytes: &[u8], starts: &mut Vec<TextSize>) {
    use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_movemask_epi8, _mm_set_epi64x, _mm_set1_epi8};
    let newline = _mm_set1_epi8(b'\n' as i8);
    // Two words make a vector: the compiler loads it whole, with no unsafe pointer read.
    let word = |chunk: &[u8], at: usize| {
        let mut word = [0; 8];
        word.copy_from_slice(&chunk[at..at + 8]);
        i64::from_le_bytes(word)
    };
    let breaks = |chunk: &[u8], at: usize| {
        let vector = _mm_set_epi64x(word(chunk, at + 8), word(chunk, at));
        u64::from(_mm_movemask_epi8(_mm_cmpeq_epi8(vector, newline)) as u16)
    };
    let mut chunks = bytes.chunks_exact(32);
    let mut after = 1;
    for chunk in &mut chunks {
        let mut mask = breaks(chunk, 0) | breaks(chunk, 16) << 16;
        while mask != 0 {
            starts.push(TextSize::from(after + mask.trailing_zeros()));
            mask &= mask - 1;
        }
        after += 32;
    }
    let rest = chunks.remainder();
    starts.extend(memchr::memchr_iter(b'\n', rest).map(|end| TextSize::from(after + end as u32)));
}

#[derive(Clone, Copy)]
enum Unit {
    Char,
    Utf16,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let text_len = TextSize::of(text);
        let mut line_starts = vec![TextSize::from(0)];
        let mut wide = Vec::new();
        let mut first_wide = Vec::new();
        // Most texts break lines with `\n` alone: one vectorised search finds the starts, and
        // the ends follow from them. This index is rebuilt on every keystroke in the editor.
        if memchr::memchr(b'\r', bytes).is_none() {
            push_line_starts(bytes, &mut line_starts);
            let mut index = LineIndex {
                line_starts,
                line_ends: Vec::new(),
                text_len,
                wide,
                first_wide,
            };
            // Most texts are ASCII too, checked a word at a time: only the lines of a text with
            // wide characters are walked by character.
            if !text.is_ascii() {
                let mut first_wide = Vec::with_capacity(index.line_count());
                for (line, &start) in index.line_starts.iter().enumerate() {
                    first_wide.push(index.wide.len() as u32);
                    let (start, end) = (start.into(), index.line_end(line).into());
                    note_wide_chars(&text[start..end], start, &mut index.wide);
                }
                index.first_wide = first_wide;
            }
            return index;
        }
        let mut line_ends = Vec::new();
        first_wide.push(0);
        let mut start = 0;
        let ascii = text.is_ascii();
        for end in memchr::memchr2_iter(b'\n', b'\r', bytes) {
            if end < start {
                // The `\n` of a `\r\n` already taken.
                continue;
            }
            if !ascii {
                note_wide_chars(&text[start..end], start, &mut wide);
            }
            let break_len = if bytes[end] == b'\r' && bytes.get(end + 1) == Some(&b'\n') {
                2
            } else {
                1
            };
            start = end + break_len;
            line_ends.push(TextSize::from(end as u32));
            line_starts.push(TextSize::from(start as u32));
            first_wide.push(wide.len() as u32);
        }
        note_wide_chars(&text[start..], start, &mut wide);
        line_ends.push(text_len);
        if wide.is_empty() {
            first_wide = Vec::new();
        }
        LineIndex {
            line_starts,
            line_ends,
            text_len,
            wide,
            first_wide,
        }
    }

    /// Where `line` ends, before its line break.
    fn line_end(&self, line: usize) -> TextSize {
        match self.line_ends.get(line) {
            Some(&end) => end,
            None => self
                .line_starts
                .get(line + 1)
                .map_or(self.text_len, |&next| next - TextSize::from(1)),
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

    /// Line and column counted in characters (what a person counts, and what CLI output
    /// shows). The text is that of the index; it is not read.
    pub fn line_col_chars(&self, _text: &str, offset: TextSize) -> LineCol {
        self.line_col_in(offset, Unit::Char)
    }

    /// Line and column counted in UTF-16 code units (the LSP default).
    pub fn line_col_utf16(&self, _text: &str, offset: TextSize) -> LineCol {
        self.line_col_in(offset, Unit::Utf16)
    }

    /// The wide characters of `line`.
    fn wide_of(&self, line: usize) -> &[WideChar] {
        if self.wide.is_empty() {
            return &[];
        }
        let from = self.first_wide[line] as usize;
        let to = self
            .first_wide
            .get(line + 1)
            .map_or(self.wide.len(), |&n| n as usize);
        &self.wide[from..to]
    }

    fn line_col_in(&self, offset: TextSize, unit: Unit) -> LineCol {
        let LineCol { line, col } = self.line_col(offset);
        let offset = u32::from(self.line_starts[line as usize]) + col;
        let wide = self.wide_of(line as usize);
        // The wide characters that start before the offset; an offset inside one counts as
        // its start.
        let before = wide.partition_point(|w| w.start < offset);
        let Some(last) = before.checked_sub(1).map(|i| wide[i]) else {
            return LineCol { line, col };
        };
        let last_end = last.start + u32::from(last.len_utf8);
        let (extra, last_units) = match unit {
            Unit::Char => (last.extra_bytes_per_char, 1),
            Unit::Utf16 => (last.extra_bytes_per_unit, u32::from(last.len_utf16)),
        };
        let line_start = u32::from(self.line_starts[line as usize]);
        // Units up to the end of the last wide character, then one per ASCII byte.
        let units_to_last_end = last.start - line_start - extra + last_units;
        let col = if offset >= last_end {
            units_to_last_end + (offset - last_end)
        } else {
            last.start - line_start - extra
        };
        LineCol { line, col }
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
                let end = self.line_end(pos.line as usize);
                // Saturating: a client may send any column, up to `u32::MAX`.
                let mut at = TextSize::from(u32::from(start).saturating_add(pos.col)).min(end);
                while !text.is_char_boundary(usize::from(at)) {
                    at -= TextSize::from(1);
                }
                at
            }),
        };
        found.unwrap_or(self.text_len)
    }

    /// The offset of a zero-based line and UTF-16 column; columns past the line end clamp to it,
    /// and a column inside a character to that character's start.
    pub fn offset_utf16(&self, _text: &str, pos: LineCol) -> Option<TextSize> {
        let line = pos.line as usize;
        let start = u32::from(*self.line_starts.get(line)?);
        let end = u32::from(self.line_end(line));
        let wide = self.wide_of(line);
        // The wide characters that start before the column, in UTF-16 units.
        let units_at = |w: &WideChar| w.start - start - w.extra_bytes_per_unit;
        let before = wide.partition_point(|w| units_at(w) < pos.col);
        // Saturating: a client may send any column, up to `u32::MAX`.
        let offset = match before.checked_sub(1).map(|i| wide[i]) {
            None => start.saturating_add(pos.col),
            Some(last) => {
                let last_units_end = units_at(&last) + u32::from(last.len_utf16);
                if pos.col < last_units_end {
                    last.start
                } else {
                    (last.start + u32::from(last.len_utf8)).saturating_add(pos.col - last_units_end)
                }
            }
        };
        Some(TextSize::from(offset.min(end)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Line starts and wide characters at every alignment of breaks and wide characters
    /// within the words that the break search and the ASCII check read at once.
    #[test]
    fn breaks_and_wide_characters_at_every_alignment() {
        let pieces = ["a", "bcdefgh", "\n", "\r", "\r\n", "é", "𝄞", "\u{7f}"];
        let mut texts = vec![String::new()];
        for _ in 0..4 {
            texts = texts
                .iter()
                .flat_map(|t| pieces.iter().map(move |p| format!("{t}{p}")))
                .collect();
        }
        for text in texts.iter().map(|t| format!("{t}0123456789{t}")) {
            let index = LineIndex::new(&text);
            let mut starts = vec![TextSize::from(0)];
            let mut chars = text.char_indices().peekable();
            while let Some((i, c)) = chars.next() {
                if c == '\r' && chars.peek().is_some_and(|&(_, next)| next == '\n') {
                    continue;
                }
                if c == '\n' || c == '\r' {
                    starts.push(TextSize::from(i as u32 + 1));
                }
            }
            assert_eq!(index.line_starts, starts, "{text:?}");
            assert_eq!(
                index.wide.len(),
                text.chars().filter(|c| !c.is_ascii()).count()
            );
        }
    }

    /// The search a vector at a time finds the breaks the search a line at a time finds, at
    /// every length and alignment around its 32-byte steps.
    #[test]
    fn line_starts_agree_with_memchr() {
        let mut seed = 11u64;
        let mut text = Vec::new();
        for _ in 0..600 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            text.push(match (seed >> 33) % 5 {
                0 => b'\n',
                1 => 0x8a, // `\n` with its high bit set
                2 => b'\r',
                _ => b'a' + (seed >> 40) as u8 % 26,
            });
        }
        for start in 0..40 {
            for end in (start..text.len()).step_by(7) {
                let bytes = &text[start..end];
                let (mut fast, mut slow) = (Vec::new(), Vec::new());
                push_line_starts(bytes, &mut fast);
                push_line_starts_memchr(bytes, &mut slow);
                assert_eq!(fast, slow, "{start}..{end}");
            }
        }
    }

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

    #[test]
    fn lines_end_at_crlf_lf_and_a_lone_cr() {
        let text = "a\r\nb\nc\rd";
        let index = LineIndex::new(text);
        assert_eq!(index.line_count(), 4);
        let d = TextSize::from(text.find('d').unwrap() as u32);
        assert_eq!(index.line_col(d), LineCol { line: 3, col: 0 });
        // A column past the end of `c`'s line stops before its `\r`.
        let past = index.offset(text, LineCol { line: 2, col: 9 }, PositionEncoding::Utf16);
        assert_eq!(past, TextSize::from(text.rfind('\r').unwrap() as u32));
        let past = index.offset(text, LineCol { line: 0, col: 9 }, PositionEncoding::Utf8);
        assert_eq!(past, TextSize::from(1));
    }

    /// The largest column a client can send clamps to the line's end in both units, on a
    /// line with and without wide characters (found by the `lsp_sync` fuzz target: the sum
    /// overflowed, and wrapped in release builds to an offset before the line).
    #[test]
    fn a_huge_column_clamps_to_the_line_end() {
        let text = "abc
dé𝄞f
last";
        let index = LineIndex::new(text);
        for encoding in [PositionEncoding::Utf8, PositionEncoding::Utf16] {
            for (line, end) in [(0, 3), (1, text.find("\nlast").unwrap()), (2, text.len())] {
                let at = index.offset(
                    text,
                    LineCol {
                        line,
                        col: u32::MAX,
                    },
                    encoding,
                );
                assert_eq!(at, TextSize::from(end as u32), "line {line}, {encoding:?}");
            }
        }
    }

    /// Every offset of texts mixing line breaks and characters of every width converts to a
    /// position and back, in each unit, as counting from the line start would.
    #[test]
    fn conversions_agree_with_counting() {
        let pieces = ["a", "é", "𝄞", "€", "\n", "\r\n", "\r", "x", "\u{a0}"];
        let mut seed = 7u64;
        for _ in 0..200 {
            let mut text = String::new();
            for _ in 0..30 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                text.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
            }
            let index = LineIndex::new(&text);
            let (mut line, mut chars, mut units) = (0u32, 0u32, 0u32);
            let mut chars_iter = text.char_indices().peekable();
            let mut at = 0;
            // The offset between a CRLF's two characters is no position at all.
            let mut inside_crlf = false;
            while at <= text.len() {
                let offset = TextSize::from(at as u32);
                if !inside_crlf {
                    let chars_at = LineCol { line, col: chars };
                    assert_eq!(
                        index.line_col_chars(&text, offset),
                        chars_at,
                        "{text:?} @{at}"
                    );
                    let utf16 = LineCol { line, col: units };
                    assert_eq!(index.line_col_utf16(&text, offset), utf16, "{text:?} @{at}");
                    assert_eq!(
                        index.offset_utf16(&text, utf16),
                        Some(offset),
                        "{text:?} @{at}"
                    );
                }
                let Some((_, c)) = chars_iter.next() else {
                    break;
                };
                let next = at + c.len_utf8();
                inside_crlf = c == '\r' && text[next..].starts_with('\n');
                if c == '\n' || (c == '\r' && !inside_crlf) {
                    (line, chars, units) = (line + 1, 0, 0);
                } else if !inside_crlf {
                    chars += 1;
                    units += c.len_utf16() as u32;
                }
                at = next;
            }
        }
    }
}
