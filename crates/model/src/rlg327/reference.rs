//! A file as the course's reference parser (`descriptions.cpp`, 2018 onwards) reads it: the
//! entries it accepts, the CRs it reads differently from levkit, and whether it ever gets to
//! print. It reads a C++ stream word by word with one word of lookahead, so it disagrees with
//! levkit's line-based reading on purpose (see the research note on RLG327, section 2):
//!
//! - A field reader stops with the next word in the lookahead. An entry is read as exactly
//!   9 (monster) or 14 (object) fields, then `END` must be in the lookahead. Whatever made an
//!   entry fail stays in the lookahead, and the next entry starts there if it is `BEGIN`
//!   (an entry without `END` followed by another entry, a doubled `BEGIN MONSTER`);
//!   otherwise the reader skips words up to the next `BEGIN`.
//! - Where a field must end its line, the reader looks for `\n` after skipping spaces and
//!   tabs only, so a CR there is text; where it reads the rest of a line, a CR stays in it.
//!   Between words, a CR is a space like any other.
//! - An empty description makes the program abort, and a COLOR or ABIL list running into the
//!   end of a file without a final newline makes it read the last word forever: either way
//!   it prints nothing.

use crate::{TextRange, TextSize};

use super::{ABILITIES, COLORS, Kind, TYPES};

/// What the reference makes of a file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Reading {
    /// The entries it accepts, in file order.
    pub entries: Vec<Accepted>,
    /// The CRs that change what it reads (see [`CrEffect`]).
    pub crs: Vec<ReferenceCr>,
    /// Set when the program never prints.
    pub stop: Option<Stop>,
}

/// Why the reference program never gets to print.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// The DESC at this offset has no text: removing the last character of the empty text
    /// throws `std::out_of_range`, which aborts the program.
    EmptyDescription(TextSize),
    /// The COLOR or ABIL list at this offset runs into the end of a file that has no final
    /// newline: the reader reads its last word again and again, never finding the line end.
    EndlessList(TextSize),
}

/// A CR (byte 13) whose reading by the reference differs from levkit's, which takes CR LF for
/// a line end and a CR between words for a blank.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReferenceCr {
    pub at: TextRange,
    pub effect: CrEffect,
    /// The `BEGIN` of the entry the reference drops because of this CR.
    pub drops: Option<TextRange>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CrEffect {
    /// It ends the header line, which then is not the header: the file is rejected.
    Header,
    /// It follows the value of this field (or the `DESC` or `END` keyword), where only blanks
    /// may come before the line end.
    AfterValue(&'static str),
    /// It ends a line of this COLOR or ABIL list, which the reader then continues with the
    /// next line's first word.
    ListGoesOn(&'static str),
    /// It ends a `.` line, which then does not end the description.
    NotTerminator,
    /// It is the 78th character of a description line.
    LongLine,
    /// It stays in the value of this field: the end of the NAME, of a description line, or
    /// the SYMB character itself.
    Kept(&'static str),
}

impl CrEffect {
    /// Whether the reference rejects an entry because of it (the others change a value).
    pub fn rejects(self) -> bool {
        !matches!(self, CrEffect::Kept(_))
    }
}

/// Dice as the reference stores them: a signed base, unsigned count and sides (32 bits).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RefDice {
    pub base: i32,
    pub count: u32,
    pub sides: u32,
}

impl std::fmt::Display for RefDice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}+{}d{}", self.base, self.count, self.sides)
    }
}

/// An entry the reference accepts, with its values as it stores them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Accepted {
    pub begin: TextRange,
    pub name: String,
    /// The description lines joined by `\n`.
    pub description: String,
    /// Monsters only.
    pub symbol: u8,
    /// Colour keywords as written (one for an object).
    pub colors: Vec<&'static str>,
    /// Ability keywords, sorted and without repeats (monsters only).
    pub abilities: Vec<&'static str>,
    /// Object type keyword (objects only).
    pub item_type: &'static str,
    pub artifact: bool,
    /// RRTY, read as a C `int` into an unsigned variable.
    pub rarity: u32,
    /// Dice fields by keyword, in the order read.
    pub dice: Vec<(&'static str, RefDice)>,
}

impl Accepted {
    pub fn dice(&self, keyword: &str) -> Option<RefDice> {
        self.dice
            .iter()
            .find(|(field, _)| *field == keyword)
            .map(|&(_, dice)| dice)
    }
}

/// Reads `bytes` as the reference reads a file of `kind`.
pub fn read(bytes: &[u8], kind: Kind) -> Reading {
    let mut reader = Reader {
        bytes,
        pos: 0,
        good: true,
        lookahead: Lookahead::default(),
        notes: Vec::new(),
        begin: None,
        reading: Reading::default(),
    };
    reader.read_file(kind);
    reader.reading
}

/// Why an entry failed (the details live in the lookahead and the notes).
struct Failed;

/// The stream stopped for good; nothing is printed.
enum Outcome {
    Failed,
    Stopped(Stop),
}

impl From<Failed> for Outcome {
    fn from(_: Failed) -> Outcome {
        Outcome::Failed
    }
}

/// The reader's last word, or (after a description line) a whole line with its `\n`, which
/// is never equal to a keyword.
#[derive(Default, Clone, Copy)]
struct Lookahead<'a> {
    text: &'a [u8],
    at: usize,
    is_line: bool,
}

impl Lookahead<'_> {
    fn is(&self, word: &str) -> bool {
        !self.is_line && self.text == word.as_bytes()
    }
}

/// `isspace` in the C locale (Rust's ASCII whitespace lacks the vertical tab).
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t')
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// The stream's state: once it has met the end of the bytes, every read fails.
    good: bool,
    lookahead: Lookahead<'a>,
    /// The CRs met while reading the current entry.
    notes: Vec<(usize, CrEffect)>,
    /// Where the `BEGIN` of the entry being read is, once it is found.
    begin: Option<usize>,
    reading: Reading,
}

impl<'a> Reader<'a> {
    // The stream operations the reference uses.

    fn peek(&mut self) -> Option<u8> {
        if !self.good {
            return None;
        }
        let byte = self.bytes.get(self.pos).copied();
        self.good = byte.is_some();
        byte
    }

    fn get(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.pos += 1;
        Some(byte)
    }

    fn skip_blanks(&mut self) {
        while self.peek().is_some_and(is_blank) {
            self.pos += 1;
        }
    }

    /// `stream >> word`: skips spaces, reads up to the next space; on failure the lookahead
    /// keeps its old value.
    fn read_word(&mut self) -> bool {
        while self.peek().is_some_and(is_space) {
            self.pos += 1;
        }
        if self.peek().is_none() {
            return false;
        }
        let start = self.pos;
        while self.peek().is_some_and(|b| !is_space(b)) {
            self.pos += 1;
        }
        self.lookahead = Lookahead {
            text: &self.bytes[start..self.pos],
            at: start,
            is_line: false,
        };
        true
    }

    /// `getline`: the rest of the line without its `\n`; `None` when the stream has failed.
    fn read_line(&mut self) -> Option<&'a [u8]> {
        if !self.good {
            return None;
        }
        let start = self.pos;
        match self.bytes[start..].iter().position(|&b| b == b'\n') {
            Some(len) => {
                self.pos = start + len + 1;
                Some(&self.bytes[start..start + len])
            }
            None => {
                self.pos = self.bytes.len();
                self.good = false;
                Some(&self.bytes[start..])
            }
        }
    }

    /// After blanks, is the next byte the line end? A CR there is noted with `effect`.
    fn at_line_end(&mut self, effect: CrEffect) -> bool {
        self.skip_blanks();
        match self.peek() {
            Some(b'\n') => true,
            Some(b'\r') => {
                self.notes.push((self.pos, effect));
                false
            }
            _ => false,
        }
    }

    /// The reference's first test of most fields: nothing at all after the keyword.
    fn empty_value(&mut self) -> bool {
        self.skip_blanks();
        self.peek() == Some(b'\n')
    }

    fn word_is_one_of(&self, words: &[&'static str]) -> Option<&'static str> {
        words.iter().copied().find(|w| self.lookahead.is(w))
    }

    // The file, entry by entry.

    fn read_file(&mut self, kind: Kind) {
        while self.peek().is_some_and(is_space) {
            self.pos += 1;
        }
        let start = self.pos;
        let header = self.read_line().unwrap_or_default();
        if header.last() == Some(&b'\r') {
            self.reading.crs.push(ReferenceCr {
                at: range(start + header.len() - 1),
                effect: CrEffect::Header,
                drops: None,
            });
        }
        if header != kind.header().as_bytes() {
            return;
        }
        self.read_word();
        loop {
            let before = (self.pos, self.good);
            self.begin = None;
            match self.entry(kind) {
                Ok(entry) => {
                    self.keep_notes(None);
                    self.reading.entries.push(entry);
                }
                Err(Outcome::Failed) => match self.begin {
                    Some(at) => self.keep_notes(Some(range_of(at, 5))),
                    None => self.notes.clear(),
                },
                Err(Outcome::Stopped(stop)) => {
                    self.reading.stop = Some(stop);
                    return;
                }
            }
            // Every entry reads a word or meets the end; the comparison only makes sure
            // that no input can keep this loop going.
            if self.peek().is_none() || (self.pos, self.good) == before {
                return;
            }
        }
    }

    /// Records the CRs of the entry just read: for an accepted entry every one that changes
    /// a value; for a dropped one the first that made it fail, if a CR did.
    fn keep_notes(&mut self, dropped: Option<TextRange>) {
        let notes = std::mem::take(&mut self.notes);
        let notes = notes
            .into_iter()
            .filter(|(_, effect)| dropped.is_none() || effect.rejects())
            .take(if dropped.is_some() { 1 } else { usize::MAX });
        self.reading
            .crs
            .extend(notes.map(|(at, effect)| ReferenceCr {
                at: range(at),
                effect,
                drops: dropped,
            }));
    }

    fn entry(&mut self, kind: Kind) -> Result<Accepted, Outcome> {
        if !self.lookahead.is("BEGIN") {
            loop {
                self.read_word();
                if self.lookahead.is("BEGIN") || self.peek().is_none() {
                    break;
                }
            }
        }
        if self.lookahead.is("BEGIN") {
            self.begin = Some(self.lookahead.at);
        }
        if self.peek().is_none() {
            return Err(Outcome::Failed);
        }
        let begin = range_of(self.lookahead.at, 5);
        self.read_word();
        if !self.lookahead.is(kind.word()) {
            return Err(Outcome::Failed);
        }
        self.read_word();
        let mut entry = Accepted {
            begin,
            ..Accepted::default()
        };
        let fields = kind.fields();
        let mut seen = Vec::with_capacity(fields.len());
        for _ in fields {
            let keyword = self.word_is_one_of(fields).ok_or(Failed)?;
            if seen.contains(&keyword) {
                return Err(Outcome::Failed);
            }
            seen.push(keyword);
            self.field(kind, keyword, &mut entry)?;
        }
        if !self.lookahead.is("END") {
            return Err(Outcome::Failed);
        }
        self.skip_blanks();
        match self.peek() {
            None | Some(b'\n') => {}
            Some(b'\r') => {
                self.notes.push((self.pos, CrEffect::AfterValue("END")));
                return Err(Outcome::Failed);
            }
            Some(_) => return Err(Outcome::Failed),
        }
        self.read_word();
        entry.abilities.retain(|a| *a != "RRTY");
        entry.abilities.sort_unstable();
        entry.abilities.dedup();
        Ok(entry)
    }

    /// Reads the field whose keyword is in the lookahead; on success the next word is.
    fn field(
        &mut self,
        kind: Kind,
        keyword: &'static str,
        entry: &mut Accepted,
    ) -> Result<(), Outcome> {
        let keyword_at = self.lookahead.at;
        match keyword {
            "NAME" => {
                let (start, line) = self.rest_of_line()?;
                if line.last() == Some(&b'\r') {
                    self.notes
                        .push((start + line.len() - 1, CrEffect::Kept("NAME")));
                }
                entry.name = String::from_utf8_lossy(line).into_owned();
            }
            "ART" => {
                let (start, line) = self.rest_of_line()?;
                entry.artifact = match line {
                    b"TRUE" => true,
                    b"FALSE" => false,
                    b"TRUE\r" | b"FALSE\r" => {
                        self.notes
                            .push((start + line.len() - 1, CrEffect::AfterValue("ART")));
                        return Err(Outcome::Failed);
                    }
                    _ => return Err(Outcome::Failed),
                };
            }
            "DESC" => entry.description = self.description(keyword_at)?,
            "SYMB" => {
                if self.empty_value() {
                    return Err(Outcome::Failed);
                }
                let at = self.pos;
                let symbol = self.get();
                if symbol == Some(b'\r') {
                    self.notes.push((at, CrEffect::Kept("SYMB")));
                }
                if !self.at_line_end(CrEffect::AfterValue("SYMB")) {
                    return Err(Outcome::Failed);
                }
                self.read_word();
                // A failed `get` stores EOF (-1) in the char.
                entry.symbol = symbol.unwrap_or(0xff);
            }
            "COLOR" if kind == Kind::Monster => {
                entry.colors = self.word_list(keyword_at, "COLOR", |l| {
                    COLORS.iter().copied().find(|c| l.is(c))
                })?;
            }
            "ABIL" => {
                // The reference's ability table has RRTY in it, with no ability bit.
                entry.abilities = self.word_list(keyword_at, "ABIL", |l| {
                    ABILITIES.iter().copied().chain(["RRTY"]).find(|a| l.is(a))
                })?;
            }
            "COLOR" => entry.colors = vec![self.one_word("COLOR", COLORS)?],
            "TYPE" => entry.item_type = self.one_word("TYPE", TYPES)?,
            "RRTY" => {
                self.number_word()?;
                let (rarity, _) = scan_int(self.lookahead.text).ok_or(Failed)?;
                self.read_word();
                entry.rarity = rarity as u32;
            }
            dice_field => {
                self.number_word()?;
                let dice = scan_dice(self.lookahead.text).ok_or(Failed)?;
                self.read_word();
                entry.dice.push((dice_field, dice));
            }
        }
        Ok(())
    }

    /// NAME and ART: blanks, then the rest of the line as it is (with its offset).
    fn rest_of_line(&mut self) -> Result<(usize, &'a [u8]), Failed> {
        if self.empty_value() {
            return Err(Failed);
        }
        let start = self.pos;
        // A failed read leaves the value as it was: empty.
        let line = self.read_line().unwrap_or_default();
        self.read_word();
        Ok((start, line))
    }

    /// The word after a dice or RRTY keyword (the lookahead keeps the keyword at the end).
    fn number_word(&mut self) -> Result<(), Failed> {
        if self.empty_value() {
            return Err(Failed);
        }
        self.read_word();
        Ok(())
    }

    /// An object's COLOR or TYPE: one word, alone on its line.
    fn one_word(
        &mut self,
        keyword: &'static str,
        words: &[&'static str],
    ) -> Result<&'static str, Failed> {
        if self.empty_value() {
            return Err(Failed);
        }
        self.read_word();
        let word = self.word_is_one_of(words).ok_or(Failed)?;
        if !self.at_line_end(CrEffect::AfterValue(keyword)) {
            return Err(Failed);
        }
        self.read_word();
        Ok(word)
    }

    /// A monster's COLOR or ABIL: words up to the line end, each known to `lookup`.
    fn word_list(
        &mut self,
        keyword_at: usize,
        keyword: &'static str,
        lookup: impl Fn(&Lookahead<'_>) -> Option<&'static str>,
    ) -> Result<Vec<&'static str>, Outcome> {
        if self.empty_value() {
            return Err(Outcome::Failed);
        }
        let mut words = Vec::new();
        loop {
            let read = self.read_word();
            let word = lookup(&self.lookahead).ok_or(Failed)?;
            if !read {
                // The failed read left the last word in the lookahead, which is read again
                // and again: the line end never comes.
                return Err(Outcome::Stopped(Stop::EndlessList(size(keyword_at))));
            }
            words.push(word);
            if self.at_line_end(CrEffect::ListGoesOn(keyword)) {
                break;
            }
        }
        self.read_word();
        Ok(words)
    }

    /// DESC: nothing after the keyword, then lines up to one holding only `.`.
    fn description(&mut self, keyword_at: usize) -> Result<String, Outcome> {
        if !self.at_line_end(CrEffect::AfterValue("DESC")) {
            return Err(Outcome::Failed);
        }
        self.get();
        let mut text = Vec::new();
        let mut ended = false;
        while self.peek().is_some() {
            let start = self.pos;
            let line = self.read_line().unwrap_or_default();
            self.lookahead = Lookahead {
                text: line,
                at: start,
                is_line: true,
            };
            let cr = (line.last() == Some(&b'\r')).then(|| start + line.len() - 1);
            if line.len() > DESC_WIDTH {
                if let Some(cr) = cr
                    && line.len() == DESC_WIDTH + 1
                {
                    self.notes.push((cr, CrEffect::LongLine));
                }
                return Err(Outcome::Failed);
            }
            if line == b"." {
                ended = true;
                break;
            }
            if let Some(cr) = cr {
                let effect = if line == b".\r" {
                    CrEffect::NotTerminator
                } else {
                    CrEffect::Kept("DESC")
                };
                self.notes.push((cr, effect));
            }
            text.extend_from_slice(line);
            text.push(b'\n');
        }
        // The reference removes the last character, the `\n`, even of an empty text.
        if text.pop().is_none() {
            return Err(Outcome::Stopped(Stop::EmptyDescription(size(keyword_at))));
        }
        if !ended {
            return Err(Outcome::Failed);
        }
        self.read_word();
        Ok(String::from_utf8_lossy(&text).into_owned())
    }
}

/// The longest description line the reference takes, in bytes.
const DESC_WIDTH: usize = 77;

/// A number as `strtol` and `strtoul` (which scanf uses) read its start: an optional sign,
/// at least one digit. Returns the sign, the magnitude (`None` past 64 bits) and the rest.
fn number_prefix(text: &[u8]) -> Option<(bool, Option<u64>, &[u8])> {
    let (negative, digits) = match text.first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let len = digits.iter().take_while(|b| b.is_ascii_digit()).count();
    if len == 0 {
        return None;
    }
    let magnitude = digits[..len].iter().try_fold(0u64, |n, &d| {
        n.checked_mul(10)?.checked_add(u64::from(d - b'0'))
    });
    Some((negative, magnitude, &digits[len..]))
}

/// scanf `%d`: `strtol`'s value (clamped to 64 bits), cut to an `int`.
fn scan_int(text: &[u8]) -> Option<(i32, &[u8])> {
    let (negative, magnitude, rest) = number_prefix(text)?;
    let value = match (negative, magnitude) {
        (false, Some(m)) => i64::try_from(m).unwrap_or(i64::MAX),
        // 2^63 itself is i64::MIN, which wrapping_neg leaves as it is.
        (true, Some(m)) if m <= 1 << 63 => (m as i64).wrapping_neg(),
        (false, None) => i64::MAX,
        (true, _) => i64::MIN,
    };
    Some((value as i32, rest))
}

/// scanf `%u`: `strtoul`'s value (a minus sign negates it modulo 2^64), cut to 32 bits.
fn scan_unsigned(text: &[u8]) -> Option<(u32, &[u8])> {
    let (negative, magnitude, rest) = number_prefix(text)?;
    let value = match magnitude {
        Some(m) if negative => m.wrapping_neg(),
        Some(m) => m,
        None => u64::MAX,
    };
    Some((value as u32, rest))
}

/// The reference's dice pattern `%d+%ud%u`; anything after the sides is ignored.
fn scan_dice(text: &[u8]) -> Option<RefDice> {
    let (base, rest) = scan_int(text)?;
    let (count, rest) = scan_unsigned(rest.strip_prefix(b"+")?)?;
    let (sides, _) = scan_unsigned(rest.strip_prefix(b"d")?)?;
    Some(RefDice { base, count, sides })
}

fn size(at: usize) -> TextSize {
    TextSize::from(at as u32)
}

fn range(at: usize) -> TextRange {
    range_of(at, 1)
}

fn range_of(at: usize, len: u32) -> TextRange {
    TextRange::at(size(at), TextSize::from(len))
}
