//! crawl's lexer, line by line: what a line is decides its tokens (section 2 of the research
//! note). Maps and Lua blocks are blocks of the shared line machinery; headers may take more
//! than one line (a trailing `\`), and after TAGS, CHANCE, WEIGHT and ORDER another keyword may
//! follow on the same line.

use levkit_diagnostics::{Code, Diagnostic, TextEdit, TextRange};

use crate::SyntaxKind::{self, *};
use crate::lines::{self, BlockRules, Line, OutsideLine};
use crate::parser::{Lexed, offset};

use super::{ArgMode, Header};

pub(crate) fn lex(text: &str) -> Lexed {
    // Vaults run to about one token in nine bytes, but one with a large map to one in four
    // (two a row): room for one in five up front, which 19 of 20 vaults of crawl's fit. With
    // one in eight, more than half the vaults grew their list, copying it.
    let mut out = Lexed::with_token_capacity(text.len() / 5 + 8);
    let mut rules = VaultLines {
        text,
        block: Block::Map,
        in_vault: false,
        row_tab: None,
    };
    lines::lex_lines(text, 0, &mut rules, &mut out);
    out
}

/// The line of a map that starts at `start`, and where its first tab is in it, if it has one.
#[inline(always)]
fn map_row_line(text: &str, start: usize) -> (Line<'_>, Option<usize>) {
    let bytes = &text.as_bytes()[start..];
    match find_newline_or_tab(bytes) {
        Some(i) if bytes[i] == b'\t' => (Line::at(text, start), Some(i)),
        newline => (Line::ending(text, start, newline), None),
    }
}

/// The first `\n` or tab of `bytes`: memchr's SSE2 searcher on x86_64, inlined (see
/// [`lines::find_byte`]).
#[inline(always)]
fn find_newline_or_tab(bytes: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if let Some(searcher) = memchr::arch::x86_64::sse2::memchr::Two::new(b'\n', b'\t') {
        return searcher.find(bytes);
    }
    memchr::memchr2(b'\n', b'\t', bytes)
}

/// A `NAME` or `default-depth` keyword crawl reads as such.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SegmentKeyword {
    /// The start of its line's indentation when it opens its line, else its own start.
    pub start: usize,
    pub is_name: bool,
    /// Whether the scan began a line there, outside any block: what follows is then scanned
    /// the same way whatever came before, so a scan may resume or stop there.
    pub line_start: bool,
}

/// The segment keywords from `from` on (a [`SegmentKeyword::line_start`], or 0): the lexer's
/// line rules, but blocks' bodies are only scanned for their closing line, and nothing else is
/// kept. The scan stops before the first line start past `from` that `stop_at` accepts, and
/// says where.
pub(crate) fn segment_keywords(
    text: &str,
    from: usize,
    mut stop_at: impl FnMut(usize) -> bool,
) -> (Vec<SegmentKeyword>, Option<usize>) {
    let mut rules = VaultLines {
        text,
        block: Block::Map,
        in_vault: false,
        row_tab: None,
    };
    let mut scratch = Lexed::default();
    let mut out = Vec::new();
    let mut in_block = false;
    let mut pos = from;
    // Made once: `memmem::find` makes its searcher anew at every call.
    let endmap = memchr::memmem::Finder::new("ENDMAP");
    let lua_close = memchr::memmem::Finder::new("}}");
    while pos < text.len() {
        if in_block {
            // Only a line holding the block's closing word can close it: skip to the next
            // such line instead of looking at every map row.
            let closing = match rules.block {
                Block::Map => &endmap,
                Block::Lua => &lua_close,
            };
            let Some(found) = closing.find(&text.as_bytes()[pos..]) else {
                break; // The block takes the rest of the file.
            };
            let at = pos + found;
            pos = memchr::memrchr(b'\n', &text.as_bytes()[pos..at])
                .map_or(pos, |newline| pos + newline + 1);
            let line = Line::at(text, pos);
            scratch.tokens.clear();
            scratch.errors.clear();
            in_block = !rules.close(line, &mut scratch);
            pos = line.end;
            continue;
        }
        if pos > from && stop_at(pos) {
            return (out, Some(pos));
        }
        let line = Line::at(text, pos);
        match scan_line(line.content()) {
            LineScan::Skip => {
                pos = line.end;
                continue;
            }
            LineScan::Opens { is_name } => {
                out.push(SegmentKeyword {
                    start: line.start,
                    is_name,
                    line_start: true,
                });
                pos = line.end;
                continue;
            }
            LineScan::Map => {
                rules.block = Block::Map;
                in_block = true;
                pos = line.end;
                continue;
            }
            LineScan::Continued => {
                pos = continued_value_end(text, line.end);
                continue;
            }
            LineScan::Lex => {}
        }
        scratch.tokens.clear();
        scratch.errors.clear();
        let lexed = rules.outside(line, &mut scratch);
        for (i, token) in scratch.tokens.iter().enumerate() {
            if token.kind != DCSS_HEADER_KW {
                continue;
            }
            let is_name = match token.header {
                Some(Header::Name) => true,
                Some(Header::DefaultDepth) => false,
                _ => continue,
            };
            let start = usize::from(token.range.start());
            let opens_line = i == 0 || (i == 1 && scratch.tokens[0].kind == WHITESPACE);
            out.push(SegmentKeyword {
                start: if opens_line { line.start } else { start },
                is_name,
                line_start: opens_line,
            });
        }
        in_block = lexed.opens_block;
        pos = lexed.next.max(line.end);
    }
    (out, None)
}

/// What the segment scan needs of a line outside blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LineScan {
    /// Nothing: it opens no block, starts no segment and does not go on over the next line
    /// (comments, Lua lines, most headers).
    Skip,
    /// A `NAME:` or `default-depth:` header of one line that starts the line: its segment
    /// keyword, known without lexing it.
    Opens { is_name: bool },
    /// A `MAP` line crawl reads (the lexer's first rule outside blocks): a map opens.
    Map,
    /// A header whose value of a whole line or of items goes on over the line end: its
    /// value takes the next lines while they end with `\`, and nothing else is on them.
    Continued,
    /// Anything else: the lexer decides.
    Lex,
}

fn scan_line(content: &str) -> LineScan {
    if quirk_keyword(content, "MAP").is_some() {
        return LineScan::Map;
    }
    let rest = trim_start_blanks(content);
    match rest.as_bytes().first() {
        None | Some(b'#') | Some(b':') => LineScan::Skip,
        Some(b'{') => LineScan::Lex,
        Some(&first) => {
            let word_len = word_len(rest);
            if !first.is_ascii_alphabetic() || !rest[word_len..].starts_with(':') {
                // Lua block openers, numbers, junk: let the lexer decide.
                return LineScan::Lex;
            }
            // A word of letters with its colon is a header, or junk crawl rejects up to the
            // line's end (a chunk word opens a block only before `{{`): what the scan needs
            // to know of it is in its word, found without telling the 33 keywords apart.
            if ends_continued(rest) {
                // A continued value takes the next line: a value of a whole line or of
                // items then goes on as long as its lines end with `\`, and holds nothing
                // else; what else continues, the lexer decides.
                let word = &rest[..word_len];
                return match Header::from_keyword(word) {
                    Some(header)
                        if !matches!(header, Header::Name | Header::DefaultDepth)
                            && !matches!(header.mode(), ArgMode::Words | ArgMode::Numbers) =>
                    {
                        LineScan::Continued
                    }
                    _ => LineScan::Lex,
                };
            }
            match &rest[..word_len] {
                // A whole-line value: nothing else starts on its line.
                "NAME" => LineScan::Opens { is_name: true },
                "default-depth" => LineScan::Opens { is_name: false },
                // Read as a misplaced MAP, which opens a map.
                "MAP" => LineScan::Lex,
                // TAGS, CHANCE and the like end where another keyword starts, which needs a
                // colon further on.
                "TAGS" | "CHANCE" | "WEIGHT" | "ORDER" if rest[word_len + 1..].contains(':') => {
                    LineScan::Lex
                }
                _ => LineScan::Skip,
            }
        }
    }
}

/// Where a header's value continued past the line that ends at `from` ends: after the first
/// of its next lines that does not end with `\` (or at the end of the text).
fn continued_value_end(text: &str, mut from: usize) -> usize {
    while from < text.len() {
        let continuation = Line::at(text, from);
        from = continuation.end;
        if !ends_continued(continuation.content()) {
            break;
        }
    }
    from
}

/// Whether a line of a header's value goes on over its line end: its last byte other than
/// blanks is a `\` (the lexer's rule in [`VaultLines::continued`]).
fn ends_continued(content: &str) -> bool {
    trim_end_blanks(content).ends_with('\\')
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    Map,
    Lua,
}

struct VaultLines<'t> {
    text: &'t str,
    /// The kind of the open block (meaningful while one is open).
    block: Block,
    /// Whether a `NAME:` was seen: crawl says "syntax error" for junk before the first vault
    /// and "Unexpected character sequence." inside one.
    in_vault: bool,
    /// Where the first tab is in the map row [`BlockRules::block_line`] last found: one
    /// search finds a row's end or its first tab (rows seldom have one), where a line's end
    /// and then a tab took two.
    row_tab: Option<usize>,
}

const BLANKS: [char; 2] = [' ', '\t'];

/// crawl's rules for `MAP` and `ENDMAP` are written `^\s*MAP[ \t\r]*$`, and flex reads `\s`
/// as the letter `s`: the keyword may follow any number of `s`, and nothing else. Answers the
/// length of that prefix.
#[inline(always)]
fn quirk_keyword(content: &str, word: &str) -> Option<usize> {
    // Most lines start with neither: one look at their first byte says so.
    let first = *content.as_bytes().first()?;
    if first != b's' && Some(&first) != word.as_bytes().first() {
        return None;
    }
    quirk_keyword_line(content, word)
}

#[inline(never)]
fn quirk_keyword_line(content: &str, word: &str) -> Option<usize> {
    let prefix = content.len() - content.trim_start_matches('s').len();
    let rest = content[prefix..].strip_prefix(word)?;
    rest.chars()
        .all(|c| BLANKS.contains(&c) || c == '\r')
        .then_some(prefix)
}

/// Whether a line of a Lua block closes it: it ends with `}}`, then blanks. Answers where the
/// `}}` starts.
pub fn is_lua_close(content: &str) -> Option<usize> {
    let trimmed = content.trim_end_matches([' ', '\t', '\r']);
    trimmed.strip_suffix("}}").map(|before| before.len())
}

/// Whether a byte may stand in a header keyword or a TAGS word: an ASCII letter or digit, `_`
/// or `-`. A table: words are scanned on every header line and every tag.
const WORD_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        table[b] = byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'-';
        b += 1;
    }
    table
};

fn is_word_byte(b: u8) -> bool {
    WORD_BYTES[usize::from(b)]
}

/// The length of the word that starts `s`.
fn word_len(s: &str) -> usize {
    word_bytes_len(s.as_bytes())
}

/// The length of the word that starts `bytes`.
fn word_bytes_len(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|&b| !is_word_byte(b))
        .unwrap_or(bytes.len())
}

/// `s` without its trailing spaces.
fn trim_end_spaces(s: &str) -> &str {
    let trail = s.bytes().rev().take_while(|&b| b == b' ').count();
    &s[..s.len() - trail]
}

/// The length of the blanks at the start of `s`.
fn blanks(s: &str) -> usize {
    leading_blanks(s.as_bytes())
}

/// The length of the blanks at the start of `bytes`.
fn leading_blanks(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count()
}

/// The length of `bytes` without the blanks at its end.
fn without_trailing_blanks(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .rposition(|&b| b != b' ' && b != b'\t')
        .map_or(0, |i| i + 1)
}

// Byte scans rather than `trim_*_matches(BLANKS)`, which decode characters: these run on every
// header line. A blank is one byte, never part of a wider character.
fn trim_start_blanks(s: &str) -> &str {
    let lead = s.bytes().take_while(|&b| b == b' ' || b == b'\t').count();
    &s[lead..]
}

fn trim_end_blanks(s: &str) -> &str {
    let trail = s
        .bytes()
        .rev()
        .take_while(|&b| b == b' ' || b == b'\t')
        .count();
    &s[..s.len() - trail]
}

/// The length of the word at `at` in `text` (ending by `end`), and the header it names when a
/// colon follows it (`WORD:` with a known WORD). Over bytes until the word is known: a byte
/// slice needs no check that it falls between characters.
fn word_and_keyword(text: &str, at: usize, end: usize) -> (usize, Option<Header>) {
    let Some(rest) = text.as_bytes().get(at..end) else {
        return (0, None);
    };
    let len = word_bytes_len(rest);
    let header = if rest.get(len) == Some(&b':') {
        text.get(at..at + len).and_then(Header::from_keyword)
    } else {
        None
    };
    (len, header)
}

impl<'t> VaultLines<'t> {
    /// A keyword with its colon starting at `at` on the line: `WORD:` with a known WORD.
    fn keyword_at(&self, line: Line<'_>, at: usize) -> Option<(Header, usize)> {
        let (len, header) = word_and_keyword(self.text, at, line.content_end);
        Some((header?, len))
    }

    /// Lexes a header from its keyword at `at`; answers where the next line starts.
    fn header(&mut self, line: Line<'_>, at: usize, header: Header, out: &mut Lexed) -> usize {
        let line = line.in_text(self.text);
        let word_end = at + header.keyword().len();
        out.push_header(header, at, word_end);
        out.push(COLON, word_end, word_end + 1);
        if header == Header::Name {
            self.in_vault = true;
        }
        let pos = word_end + 1;
        match header.mode() {
            ArgMode::WholeLine => self.continued(line, pos, header, DCSS_VALUE, out),
            ArgMode::Items | ArgMode::Monsters => self.continued(line, pos, header, DCSS_ITEM, out),
            ArgMode::Words | ArgMode::Numbers => self.tokens(line, pos, header.mode(), out),
        }
    }

    /// A value that goes on while its line ends with `\`: on each line, its text (a
    /// `DCSS_VALUE` or comma-separated `DCSS_ITEM`s) from the first non-blank; before a `\`
    /// the blanks belong to the text, at the end of the value they do not.
    fn continued(
        &mut self,
        mut line: Line<'t>,
        mut pos: usize,
        header: Header,
        kind: SyntaxKind,
        out: &mut Lexed,
    ) -> usize {
        // Over bytes: every place this cuts at is an ASCII blank, comma or backslash.
        let bytes = self.text.as_bytes();
        // Where the `\` of the line before is, on a continuation line.
        let mut backslash: Option<usize> = None;
        loop {
            let lead = leading_blanks(&bytes[pos..line.content_end]);
            if lead > 0 {
                out.push(WHITESPACE, pos, pos + lead);
                pos += lead;
            }
            if kind == DCSS_ITEM
                && let Some(backslash) = backslash
                && pos < line.content_end
                && bytes[pos] == b','
            {
                self.comma_first(header, backslash, pos, out);
            }
            let trimmed_end = pos + without_trailing_blanks(&bytes[pos..line.content_end]);
            let continues = trimmed_end > pos && bytes[trimmed_end - 1] == b'\\';
            let text_end = if continues {
                trimmed_end - 1
            } else {
                trimmed_end
            };
            self.value_text(pos, text_end, kind, continues, out);
            if continues {
                backslash = Some(text_end);
                out.push(DCSS_CONTINUATION, text_end, text_end + 1);
                if text_end + 1 < line.content_end {
                    out.push(WHITESPACE, text_end + 1, line.content_end);
                }
            } else if text_end < line.content_end {
                out.push(WHITESPACE, text_end, line.content_end);
            }
            let next = line.push_end(out);
            if !continues || next >= self.text.len() {
                return next;
            }
            line = Line::at(self.text, next);
            pos = line.start;
        }
    }

    /// A continuation line of a comma list that starts with a comma (at `comma`): crawl's
    /// lexer cannot take one there; the comma belongs before the `\\` of the line above.
    fn comma_first(&self, header: Header, backslash: usize, comma: usize, out: &mut Lexed) {
        let range = TextRange::at(offset(comma), offset(1));
        out.errors.push(
            Diagnostic::new(
                Code::DC0015,
                range,
                format!(
                    "a continued {}: line cannot start with a comma: crawl stops here with a syntax error; end the line above with the comma instead (`,\\`)",
                    header.keyword()
                ),
            )
            .with_fix(
                "Move the comma to the end of the line above",
                vec![
                    TextEdit {
                        range: TextRange::empty(offset(backslash)),
                        new_text: ",".into(),
                    },
                    TextEdit {
                        range,
                        new_text: String::new(),
                    },
                ],
            ),
        );
    }

    /// One line's piece of a value: a whole-line piece, or items between commas (each item's
    /// blanks outside its text, except those before a continuation).
    fn value_text(
        &self,
        start: usize,
        end: usize,
        kind: SyntaxKind,
        continues: bool,
        out: &mut Lexed,
    ) {
        if kind == DCSS_VALUE {
            if end > start {
                out.push(DCSS_VALUE, start, end);
            }
            return;
        }
        let bytes = self.text.as_bytes();
        let mut pos = start;
        loop {
            let piece_end = lines::find_byte(b',', &bytes[pos..end]).map_or(end, |i| pos + i);
            let last = piece_end == end;
            let lead = leading_blanks(&bytes[pos..piece_end]);
            let body = &bytes[pos + lead..piece_end];
            let body_len = if last && continues {
                body.len()
            } else {
                without_trailing_blanks(body)
            };
            if lead > 0 {
                out.push(WHITESPACE, pos, pos + lead);
            }
            if body_len > 0 {
                out.push(DCSS_ITEM, pos + lead, pos + lead + body_len);
            }
            if pos + lead + body_len < piece_end {
                out.push(WHITESPACE, pos + lead + body_len, piece_end);
            }
            if last {
                return;
            }
            out.push(COMMA, piece_end, piece_end + 1);
            pos = piece_end + 1;
        }
    }

    /// TAGS words, or CHANCE/WEIGHT/ORDER numbers, up to the end of the line (TAGS goes on
    /// after a trailing `\`). A keyword on the way starts another header.
    fn tokens(
        &mut self,
        mut line: Line<'t>,
        mut pos: usize,
        mode: ArgMode,
        out: &mut Lexed,
    ) -> usize {
        'lines: loop {
            let end = line.content_end;
            let bytes = self.text.as_bytes();
            while pos < end {
                let start = pos;
                let b = bytes[pos];
                if b == b' ' || b == b'\t' {
                    pos += blanks(&self.text[pos..end]);
                    out.push(WHITESPACE, start, pos);
                    continue;
                }
                if is_word_byte(b) {
                    // The word is measured once: a keyword's, or a tag.
                    let (len, keyword) = word_and_keyword(self.text, pos, end);
                    if let Some(header) = keyword {
                        if mode == ArgMode::Words && header.mode() == ArgMode::Numbers {
                            // crawl's TAGS state knows these keywords but does not leave for
                            // them: the rest of the line is still read as tags, which the
                            // grammar then refuses as the keyword's numbers.
                            out.push_header(header, pos, pos + len);
                            out.push(COLON, pos + len, pos + len + 1);
                            pos += len + 1;
                            continue;
                        }
                        return self.header(line, pos, header, out);
                    }
                    if mode == ArgMode::Words {
                        pos += len;
                        out.push(DCSS_WORD, start, pos);
                        continue;
                    }
                }
                // A string in parentheses is one token in both modes: a tag of its own
                // (blanks and all), or the depths of a CHANCE or WEIGHT.
                if b == b'('
                    && let Some(len) = self.text[pos..end].find(')')
                {
                    let close = pos + len;
                    out.push(L_PAREN, pos, pos + 1);
                    if close > pos + 1 {
                        out.push(DCSS_VALUE, pos + 1, close);
                    }
                    out.push(R_PAREN, close, close + 1);
                    pos = close + 1;
                    continue;
                }
                if mode == ArgMode::Words {
                    if b == b'\\' && trim_start_blanks(&self.text[pos + 1..end]).is_empty() {
                        out.push(DCSS_CONTINUATION, pos, pos + 1);
                        if pos + 1 < end {
                            out.push(WHITESPACE, pos + 1, end);
                        }
                        let next = line.push_end(out);
                        if next >= self.text.len() {
                            return next;
                        }
                        line = Line::at(self.text, next);
                        pos = line.start;
                        continue 'lines;
                    }
                    pos = self.junk(pos, end);
                    out.push(ERROR_CHAR, start, pos);
                    out.error(
                        Code::DC0005,
                        start,
                        pos,
                        format!(
                            "`{}` cannot stand in TAGS: tags are words of letters, digits, `_` and `-`, or any text in parentheses (there are no trailing comments)",
                            &self.text[start..pos]
                        ),
                    );
                    continue;
                }
                // CHANCE, WEIGHT, ORDER
                if let Some(len) = number_len(&self.text[pos..end]) {
                    pos += len;
                    out.push(DCSS_NUMBER, start, pos);
                } else if b == b'%' {
                    pos += 1;
                    out.push(DCSS_PERCENT, start, pos);
                } else if b == b',' {
                    pos += 1;
                    out.push(COMMA, start, pos);
                } else {
                    pos = self.junk(pos, end);
                    out.push(ERROR_CHAR, start, pos);
                    out.error(
                        Code::DC0006,
                        start,
                        pos,
                        format!(
                            "`{}` cannot stand here: CHANCE, WEIGHT and ORDER take numbers, `%`, commas and depths in parentheses",
                            &self.text[start..pos]
                        ),
                    );
                }
            }
            return line.push_end(out);
        }
    }

    /// The end of a run of junk: up to the next blank.
    fn junk(&self, pos: usize, end: usize) -> usize {
        let len = self.text[pos..end]
            .char_indices()
            .skip(1)
            .find(|(_, c)| BLANKS.contains(c))
            .map_or(end - pos, |(i, _)| i);
        pos + len
    }

    /// A Lua block opener at `at` (`{{`, or a chunk word, blanks, `{{`): its tokens, and the
    /// Lua after `{{` on the same line. Answers whether the block stays open.
    fn lua_open(&mut self, line: Line<'_>, at: usize, out: &mut Lexed) -> Option<bool> {
        let rest = &self.text[at..line.content_end];
        // An opener starts with `{{` or a chunk word: one look at the first byte tells most
        // other lines (headers) apart.
        if !matches!(rest.as_bytes().first(), Some(b'{' | b'a'..=b'z')) {
            return None;
        }
        let word_len = rest.bytes().take_while(|b| b.is_ascii_lowercase()).count();
        let word = &rest[..word_len];
        Chunk::from_block_word(word)?;
        let gap = blanks(&rest[word_len..]);
        if !rest[word_len + gap..].starts_with("{{") {
            return None;
        }
        if word_len > 0 {
            out.push(LUA_CHUNK_KW, at, at + word_len);
        }
        if gap > 0 {
            out.push(WHITESPACE, at + word_len, at + word_len + gap);
        }
        let open = at + word_len + gap;
        out.push(LUA_OPEN, open, open + 2);
        let after = open + 2;
        let tail = &self.text[after..line.content_end];
        match is_lua_close(tail) {
            Some(close) => {
                if close > 0 {
                    out.push(LUA_TEXT, after, after + close);
                }
                out.push(LUA_CLOSE, after + close, after + close + 2);
                if after + close + 2 < line.content_end {
                    out.push(WHITESPACE, after + close + 2, line.content_end);
                }
                Some(false)
            }
            None => {
                if !tail.is_empty() {
                    out.push(LUA_TEXT, after, line.content_end);
                }
                Some(true)
            }
        }
    }
}

use super::Chunk;

/// A line inside `MAP` ... `ENDMAP`: a row, which loses its trailing blanks and ends at its
/// first tab. crawl prints what follows the tab and drops it; a line that starts with a tab
/// is no row at all, blanks then a tab an empty row (but a lone blank before a tab, or a `#`
/// or a blank followed by more text after it, are errors).
/// `first_tab` is where the line's first tab is in its content, if it has one.
fn map_line(line: Line<'_>, first_tab: Option<usize>, out: &mut Lexed) {
    let content = line.content();
    let Some(tab) = first_tab else {
        let row = trim_end_spaces(content);
        if row.is_empty() {
            out.error(
                Code::DC0004,
                line.start,
                line.content_end.max(line.start),
                "a blank line cannot stand inside MAP ... ENDMAP; remove it, or end the map before it",
            );
        } else {
            out.push(MAP_ROW, line.start, line.start + row.len());
        }
        if row.len() < content.len() {
            out.push(WHITESPACE, line.start + row.len(), line.content_end);
        }
        return;
    };
    let row = trim_end_spaces(&content[..tab]);
    let blanks_only = row.is_empty() && tab > 0;
    if !row.is_empty() || tab > 1 {
        out.push(MAP_ROW, line.start, line.start + row.len());
    }
    if row.len() < tab {
        out.push(WHITESPACE, line.start + row.len(), line.start + tab);
    }
    out.push(DCSS_DROPPED, line.start + tab, line.content_end);
    let dropped = &content[tab..];
    let after = dropped[1..].trim_end_matches(' ');
    let unreadable = after
        .char_indices()
        .find(|&(i, c)| c == '#' || c == ' ' && !after[i + 1..].starts_with(' '))
        .map(|(i, _)| tab + 1 + i);
    if tab == 1 && blanks_only {
        out.error(
            Code::DC0016,
            line.start,
            line.start + 2,
            "crawl cannot read a map line of one blank then a tab; remove the tab (and write the row's cells)",
        );
    } else if let Some(at) = unreadable {
        let what = if content[at..].starts_with('#') {
            "a `#`"
        } else {
            "a blank followed by more text"
        };
        out.error(
            Code::DC0016,
            line.start + at,
            line.content_end,
            format!(
                "crawl drops what follows a tab in a map line, but cannot read {what} there; remove the tab and what follows it"
            ),
        );
    } else if row.is_empty() {
        let message = if blanks_only {
            "crawl ends this row at the tab: the row is empty (blanks before a tab) and the rest is dropped, printed on crawl's output; write blank cells as spaces"
        } else {
            "this map line starts with a tab: crawl drops the whole line (printing it on its output), so it is no row of the map; write blank cells as spaces"
        };
        out.error(Code::DC0419, line.start, line.content_end, message);
    } else {
        out.error(
            Code::DC0419,
            line.start + tab,
            line.content_end,
            format!(
                "crawl ends this row at the tab and drops `{}` (printing it on its output); write blank cells as spaces",
                dropped.escape_debug()
            ),
        );
    }
}

/// Whether `s` starts with a token of a CHANCE, WEIGHT or ORDER list.
fn starts_numbers(s: &str) -> bool {
    number_len(s).is_some() || s.starts_with(['%', ',']) || s.starts_with('(') && s.contains(')')
}

/// crawl's numbers: an optional sign, digits with an optional fraction, or a bare fraction.
fn number_len(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    let digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
    i += digits;
    if i < b.len() && b[i] == b'.' {
        let fraction = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 && fraction == 0 {
            return None;
        }
        i += 1 + fraction;
    } else if digits == 0 {
        return None;
    }
    Some(i)
}

impl BlockRules for VaultLines<'_> {
    #[inline]
    fn close(&mut self, line: Line<'_>, out: &mut Lexed) -> bool {
        let content = line.content();
        match self.block {
            Block::Map => {
                let Some(prefix) = quirk_keyword(content, "ENDMAP") else {
                    return false;
                };
                if prefix > 0 {
                    out.push(DCSS_QUIRK, line.start, line.start + prefix);
                }
                let end = line.start + prefix + "ENDMAP".len();
                out.push(ENDMAP_KW, line.start + prefix, end);
                if end < line.content_end {
                    out.push(WHITESPACE, end, line.content_end);
                }
            }
            Block::Lua => {
                let Some(close) = is_lua_close(content) else {
                    return false;
                };
                if close > 0 {
                    out.push(LUA_TEXT, line.start, line.start + close);
                }
                let end = line.start + close + 2;
                out.push(LUA_CLOSE, line.start + close, end);
                if end < line.content_end {
                    out.push(WHITESPACE, end, line.content_end);
                }
            }
        }
        line.push_end(out);
        true
    }

    fn ends_block(&self, _content: &str) -> bool {
        // A missing ENDMAP or `}}` is not an error to crawl: the block takes the rest of the
        // file.
        false
    }

    fn body(&mut self, line: Line<'_>, out: &mut Lexed) {
        let content = line.content();
        match self.block {
            Block::Lua => {
                if !content.is_empty() {
                    line.push_content(out, LUA_TEXT);
                }
            }
            Block::Map => map_line(line, self.row_tab, out),
        }
    }

    #[inline(always)]
    fn block_line<'t>(&mut self, text: &'t str, pos: usize) -> Line<'t> {
        match self.block {
            Block::Lua => Line::at(text, pos),
            Block::Map => {
                let (line, tab) = map_row_line(text, pos);
                self.row_tab = tab;
                line
            }
        }
    }

    fn outside(&mut self, line: Line<'_>, out: &mut Lexed) -> OutsideLine {
        let content = line.content();
        if let Some(prefix) = quirk_keyword(content, "MAP") {
            if prefix > 0 {
                out.push(DCSS_QUIRK, line.start, line.start + prefix);
            }
            let end = line.start + prefix + 3;
            out.push(MAP_KW, line.start + prefix, end);
            if end < line.content_end {
                out.push(WHITESPACE, end, line.content_end);
            }
            self.block = Block::Map;
            return OutsideLine {
                next: line.push_end(out),
                opens_block: true,
            };
        }
        self.construct(line, line.start, out)
    }
}

impl VaultLines<'_> {
    /// What a line outside blocks holds from `from` on (its start, or just past a byte order
    /// mark): blanks, then a comment, Lua, a block opener, a header, or what crawl rejects.
    fn construct(&mut self, line: Line<'_>, from: usize, out: &mut Lexed) -> OutsideLine {
        // (Cut from the line's content, which is cut already: only `from` needs a check.)
        let content = &line.content()[from - line.start..];
        let indent = blanks(content);
        if indent > 0 {
            out.push(WHITESPACE, from, from + indent);
        }
        let at = from + indent;
        let rest = &content[indent..];
        let done = |out: &mut Lexed| OutsideLine {
            next: line.push_end(out),
            opens_block: false,
        };
        if rest.is_empty() {
            return done(out);
        }
        if let Some(after) = rest.strip_prefix('\u{feff}') {
            let end = at + (rest.len() - after.len());
            out.push(ERROR_CHAR, at, end);
            let (code, place) = if self.in_vault {
                (Code::DC0002, "")
            } else {
                (Code::DC0014, " (a syntax error before the first NAME:)")
            };
            let range = TextRange::new(offset(at), offset(end));
            out.errors.push(
                Diagnostic::new(
                    code,
                    range,
                    format!(
                        "an invisible byte order mark (U+FEFF) starts this line, and crawl cannot read it{place}; save the file as UTF-8 without BOM"
                    ),
                )
                .with_fix(
                    "Remove the byte order mark",
                    vec![TextEdit {
                        range,
                        new_text: String::new(),
                    }],
                ),
            );
            return self.construct(line, end, out);
        }
        if rest.starts_with('#') {
            out.push(COMMENT, at, line.content_end);
            return done(out);
        }
        if rest.starts_with(':') {
            out.push(LUA_MARK, at, at + 1);
            if at + 1 < line.content_end {
                out.push(LUA_TEXT, at + 1, line.content_end);
            }
            return done(out);
        }
        if let Some(open) = self.lua_open(line, at, out) {
            self.block = Block::Lua;
            return OutsideLine {
                next: line.push_end(out),
                opens_block: open,
            };
        }
        if let Some((header, _)) = self.keyword_at(line, at) {
            return OutsideLine {
                next: self.header(line, at, header, out),
                opens_block: false,
            };
        }
        if starts_numbers(rest) {
            // Outside TAGS crawl's lexer reads numbers anywhere: a line of them goes on with
            // the CHANCE, WEIGHT or ORDER list above it (the grammar decides whether one is
            // open).
            return OutsideLine {
                next: self.tokens(line.in_text(self.text), at, ArgMode::Numbers, out),
                opens_block: false,
            };
        }
        let word_len = word_len(rest);
        let word = &rest[..word_len];
        if word == "MAP" {
            // Indented, or followed by text: crawl rejects the line; read it as a MAP anyway
            // so that the rows after it stay rows.
            out.push(MAP_KW, at, at + 3);
            if at + 3 < line.content_end {
                out.push(WHITESPACE, at + 3, line.content_end);
            }
            out.error(
                Code::DC0003,
                at,
                at + 3,
                "MAP must start in column 0 and stand alone on its line",
            );
            self.block = Block::Map;
            return OutsideLine {
                next: line.push_end(out),
                opens_block: true,
            };
        }
        out.push(ERROR_CHAR, at, line.content_end);
        if word_len > 0 && rest[word_len..].starts_with(':') {
            let hint = Header::ALL
                .iter()
                .find(|h| h.keyword().eq_ignore_ascii_case(word))
                .map(|h| {
                    format!(
                        "; did you mean `{}:`? (keywords are case-sensitive)",
                        h.keyword()
                    )
                })
                .unwrap_or_else(|| "; the headers are NAME, TAGS, DEPTH, MAP, SUBST...".into());
            out.error(
                Code::DC0001,
                at,
                at + word_len,
                format!("`{word}:` is not a header crawl knows{hint}"),
            );
        } else if self.in_vault {
            out.error(
                Code::DC0002,
                at,
                line.content_end,
                "crawl cannot read this line: it is not a header, a comment (`#` first), Lua (`:` or `{{`) nor a map",
            );
        } else {
            out.error(
                Code::DC0014,
                at,
                line.content_end,
                "crawl cannot read this line before the first NAME:; make it a comment with `#`",
            );
        }
        done(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the segment scan takes from `scan_line` without lexing a line is what lexing it
    /// says: its segment keyword, whether it opens a map, and that it ends on its own line.
    fn check_scan(content: &str) {
        // A second line that goes on too: a continued value takes both.
        let text = format!("{content}\nnext line \\\nlast\n");
        let line = Line::at(&text, 0);
        let mut rules = VaultLines {
            text: &text,
            block: Block::Lua,
            in_vault: false,
            row_tab: None,
        };
        let mut out = Lexed::default();
        let lexed = rules.outside(line, &mut out);
        let keywords: Vec<(usize, &str)> = out
            .tokens
            .iter()
            .enumerate()
            .filter(|(_, t)| t.kind == DCSS_HEADER_KW)
            .map(|(i, t)| (i, &text[t.range]))
            .filter(|(_, word)| matches!(*word, "NAME" | "default-depth"))
            .collect();
        let scan = scan_line(line.content());
        let one_line = lexed.next == line.end;
        match scan {
            LineScan::Skip => {
                assert!(
                    keywords.is_empty() && !lexed.opens_block && one_line,
                    "{content:?}"
                )
            }
            LineScan::Opens { is_name } => {
                let word = if is_name { "NAME" } else { "default-depth" };
                let opens_line = |i: usize| i == 0 || i == 1 && out.tokens[0].kind == WHITESPACE;
                assert!(
                    matches!(keywords[..], [(i, w)] if w == word && opens_line(i))
                        && !lexed.opens_block
                        && one_line,
                    "{content:?}"
                );
            }
            LineScan::Map => assert!(
                keywords.is_empty() && lexed.opens_block && rules.block == Block::Map && one_line,
                "{content:?}"
            ),
            LineScan::Continued => {
                let end = continued_value_end(&text, line.end);
                assert!(
                    keywords.is_empty() && !lexed.opens_block && lexed.next == end,
                    "{content:?}"
                );
            }
            LineScan::Lex => {}
        }
    }

    #[test]
    fn a_map_row_is_found_with_its_tab_as_a_line_then_a_tab() {
        let text = "ab\tc\r\n\t\n..\r\nx\r\t\n\n \t\t\nend\tx";
        let mut start = 0;
        while start < text.len() {
            let (line, tab) = map_row_line(text, start);
            let expected = Line::at(text, start);
            assert_eq!(
                (line.content(), line.start, line.content_end, line.end),
                (
                    expected.content(),
                    expected.start,
                    expected.content_end,
                    expected.end
                )
            );
            assert_eq!(tab, expected.content().find('\t'));
            start = line.end;
        }
    }

    #[test]
    fn the_segment_scan_skips_only_what_lexing_would_tell_it() {
        let mut lines: Vec<String> = [
            "",
            " ",
            "# NAME: x",
            ": NAME = 1",
            "NAME: a",
            "  NAME: a",
            "\tNAME:a b c",
            "NAME:",
            "NAME: a \\",
            "NAME: a\\  ",
            "NAME: a NAME: b",
            "default-depth: D:1",
            " default-depth:",
            "default-depth: D:1 \\",
            "TAGS: a NAME: b",
            "TAGS: a b",
            "TAGS: a \\",
            "CHANCE: 5 WEIGHT: 3",
            "CHANCE: 5",
            "WEIGHT: 10 NAME: x",
            "ORDER: 3",
            "KFEAT: x = \\",
            "KFEAT: Z = altar",
            "DEPTH: D:2-5, Lair:1",
            "MAP",
            "MAP  ",
            "sMAP",
            "ssMAP\t",
            "MAP x",
            "  MAP",
            "MAP:",
            "MAPS",
            "{{",
            "lua {{ x }}",
            "prelude {{",
            "NAMES: x",
            "name: x",
            "12: NAME: x",
            "\u{feff}NAME: x",
            "ENDMAP",
            "MONS: orc, goblin",
            "SUBST: x = \\",
            "Name: x",
            "Foo: x",
            "lua: x",
            "prelude: {{",
            "MAP: x",
            "abc: NAME: x",
            "Tags: a NAME: b",
            "_X: NAME: y",
            "CHANCE: 5 NAME: x \\",
            "KFEAT: x = \\",
            "SUBST: a = b, \\  ",
            "DESC:\\",
            "MONS: orc \\\t",
            "TAGS: a \\",
            "WEIGHT: 5 \\",
            "Foo: x \\",
        ]
        .map(String::from)
        .to_vec();
        // Every line of the test data's vault files.
        let dir = levkit_test_support::test_data().join("dcss-des");
        for path in levkit_test_support::files_with_extension(&dir, "des") {
            if let Ok(text) = std::fs::read_to_string(&path) {
                lines.extend(text.lines().map(String::from));
            }
        }
        assert!(lines.len() > 1000, "the test data's vaults were not found");
        for line in &lines {
            check_scan(line);
        }
    }
}
