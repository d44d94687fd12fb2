//! An emulation of the course's reference parser (`descriptions.cpp`, 2018 onwards) and its
//! print-out, kept apart from levkit's own line-based analysis because the two disagree on
//! purpose: the reference reads whitespace-separated tokens, ignores blank lines inside entries,
//! accepts `RRTY 0`, rejects a CRLF header, and prints colours and abilities its own way
//! (see the research note on RLG327, sections 2 and 3).

use levkit_model::rlg327::{COLORS, Kind, TYPES};

/// Abilities in the order the reference prints them.
const ABILITIES: &[&str] = &[
    "BOSS", "DESTROY", "ERRATIC", "PASS", "PICKUP", "SMART", "TELE", "TUNNEL", "UNIQ",
];

struct Reader<'a> {
    text: &'a [u8],
    pos: usize,
}

fn blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

impl<'a> Reader<'a> {
    fn skip_whitespace(&mut self) {
        while self.pos < self.text.len() && self.text[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    fn token(&mut self) -> Option<&'a [u8]> {
        self.skip_whitespace();
        let start = self.pos;
        while self.pos < self.text.len() && !self.text[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        (self.pos > start).then(|| &self.text[start..self.pos])
    }

    /// The rest of the current line (without its `\n`), consumed with the `\n`.
    fn rest_of_line(&mut self) -> &'a [u8] {
        let start = self.pos;
        while self.pos < self.text.len() && self.text[self.pos] != b'\n' {
            self.pos += 1;
        }
        let line = &self.text[start..self.pos];
        if self.pos < self.text.len() {
            self.pos += 1;
        }
        line
    }

    fn skip_blanks(&mut self) {
        while self.pos < self.text.len() && blank(self.text[self.pos]) {
            self.pos += 1;
        }
    }

    /// The words of the rest of the line.
    fn line_words(&mut self) -> Vec<&'a [u8]> {
        self.rest_of_line()
            .split(|b| b.is_ascii_whitespace())
            .filter(|w| !w.is_empty())
            .collect()
    }

    fn skip_to_begin(&mut self) {
        while let Some(token) = self.token() {
            if token == b"BEGIN" {
                self.pos -= 5;
                return;
            }
        }
    }
}

/// `base+countdsides` read as the reference's scanf pattern does: a signed int, `+`, two
/// unsigned ints around `d`, anything after ignored.
fn dice(token: &[u8]) -> Option<(i64, u32, u32)> {
    let text = std::str::from_utf8(token).ok()?;
    let (base, rest) = signed_prefix(text)?;
    let rest = rest.strip_prefix('+')?;
    let (count, rest) = signed_prefix(rest)?;
    let rest = rest.strip_prefix('d')?;
    let (sides, _) = signed_prefix(rest)?;
    Some((base as i32 as i64, count as u32, sides as u32))
}

/// A scanf `%d`: optional sign, at least one digit; returns the value and the rest.
fn signed_prefix(text: &str) -> Option<(i64, &str)> {
    let digits_from = usize::from(text.starts_with(['+', '-']));
    let len = text[digits_from..]
        .bytes()
        .take_while(u8::is_ascii_digit)
        .count();
    if len == 0 {
        return None;
    }
    let end = digits_from + len;
    let value: i64 = text[digits_from..end].bytes().fold(0i64, |n, d| {
        n.wrapping_mul(10).wrapping_add(i64::from(d - b'0'))
    });
    Some((
        if text.starts_with('-') { -value } else { value },
        &text[end..],
    ))
}

fn show_dice((base, count, sides): (i64, u32, u32)) -> String {
    format!("{base}+{count}d{sides}")
}

#[derive(Default)]
struct Entry {
    name: Option<String>,
    desc: Option<Vec<String>>,
    symbol: Option<char>,
    colors: Option<Vec<usize>>,
    abilities: Option<u32>,
    rarity: Option<i64>,
    kind: Option<&'static str>,
    artifact: Option<bool>,
    dice: Vec<(&'static str, (i64, u32, u32))>,
}

fn dice_fields(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Monster => &["SPEED", "HP", "DAM"],
        Kind::Object => &[
            "HIT", "DAM", "DODGE", "DEF", "WEIGHT", "SPEED", "ATTR", "VAL",
        ],
    }
}

/// Reads one field; `None` is a parse error (the entry is discarded).
fn field(r: &mut Reader<'_>, kind: Kind, keyword: &[u8], entry: &mut Entry) -> Option<()> {
    let fresh = |present: bool| (!present).then_some(());
    match keyword {
        b"NAME" => {
            fresh(entry.name.is_some())?;
            r.skip_blanks();
            let line = r.rest_of_line();
            (!line.is_empty()).then_some(())?;
            entry.name = Some(String::from_utf8_lossy(line).into_owned());
        }
        b"DESC" => {
            fresh(entry.desc.is_some())?;
            r.rest_of_line().iter().all(|&b| blank(b)).then_some(())?;
            let mut lines = Vec::new();
            loop {
                if r.pos >= r.text.len() {
                    return None;
                }
                let line = r.rest_of_line();
                if line == b"." {
                    break;
                }
                (line.len() <= 77).then_some(())?;
                lines.push(String::from_utf8_lossy(line).into_owned());
            }
            (!lines.is_empty()).then_some(())?;
            entry.desc = Some(lines);
        }
        b"SYMB" if kind == Kind::Monster => {
            fresh(entry.symbol.is_some())?;
            r.skip_blanks();
            let line = r.rest_of_line();
            let (&first, rest) = line.split_first()?;
            (!blank(first) && rest.iter().all(|&b| blank(b))).then_some(())?;
            entry.symbol = Some(first as char);
        }
        b"COLOR" => {
            fresh(entry.colors.is_some())?;
            let words = r.line_words();
            let colors: Option<Vec<usize>> = words
                .iter()
                .map(|w| COLORS.iter().position(|c| c.as_bytes() == *w))
                .collect();
            let colors = colors?;
            let allowed = match kind {
                Kind::Monster => !colors.is_empty(),
                Kind::Object => colors.len() == 1,
            };
            allowed.then_some(())?;
            entry.colors = Some(colors);
        }
        b"ABIL" if kind == Kind::Monster => {
            fresh(entry.abilities.is_some())?;
            let words = r.line_words();
            (!words.is_empty()).then_some(())?;
            let mut bits = 0u32;
            for word in words {
                if word == b"RRTY" {
                    continue;
                }
                let i = ABILITIES.iter().position(|a| a.as_bytes() == word)?;
                bits |= 1 << i;
            }
            entry.abilities = Some(bits);
        }
        b"RRTY" => {
            fresh(entry.rarity.is_some())?;
            let token = std::str::from_utf8(r.token()?).ok()?;
            entry.rarity = Some(signed_prefix(token)?.0 as i32 as i64);
        }
        b"TYPE" if kind == Kind::Object => {
            fresh(entry.kind.is_some())?;
            let words = r.line_words();
            let [word] = words.as_slice() else {
                return None;
            };
            entry.kind = Some(TYPES.iter().find(|t| t.as_bytes() == *word)?);
        }
        b"ART" if kind == Kind::Object => {
            fresh(entry.artifact.is_some())?;
            r.skip_blanks();
            entry.artifact = Some(match r.rest_of_line() {
                b"TRUE" => true,
                b"FALSE" => false,
                _ => return None,
            });
        }
        other => {
            let name = dice_fields(kind).iter().find(|f| f.as_bytes() == other)?;
            fresh(entry.dice.iter().any(|(f, _)| f == name))?;
            let value = dice(r.token()?)?;
            entry.dice.push((name, value));
        }
    }
    Some(())
}

fn entry(r: &mut Reader<'_>, kind: Kind) -> Option<Entry> {
    (r.token()? == kind.word().as_bytes()).then_some(())?;
    let mut entry = Entry::default();
    let fields = match kind {
        Kind::Monster => 9,
        Kind::Object => 14,
    };
    for _ in 0..fields {
        let keyword = r.token()?;
        field(r, kind, keyword, &mut entry)?;
    }
    (r.token()? == b"END").then_some(())?;
    r.rest_of_line().iter().all(|&b| blank(b)).then_some(())?;
    Some(entry)
}

fn color_name(index: usize) -> &'static str {
    // The reference stores BLACK as white (black is invisible on a terminal) and prints by
    // value, so both print as BLACK.
    if COLORS[index] == "WHITE" {
        "BLACK"
    } else {
        COLORS[index]
    }
}

fn print(entry: &Entry, kind: Kind, out: &mut String) {
    let dice = |name: &str| {
        entry
            .dice
            .iter()
            .find(|(f, _)| *f == name)
            .map_or_else(String::new, |(_, d)| show_dice(*d))
    };
    out.push_str(entry.name.as_deref().unwrap_or(""));
    out.push('\n');
    for line in entry.desc.iter().flatten() {
        out.push_str(line);
        out.push('\n');
    }
    let colors = entry.colors.clone().unwrap_or_default();
    match kind {
        Kind::Monster => {
            out.push(entry.symbol.unwrap_or(' '));
            out.push('\n');
            for &c in &colors {
                out.push_str(color_name(c));
                out.push(' ');
            }
            out.push('\n');
            out.push_str(&dice("SPEED"));
            out.push('\n');
            let abilities = entry.abilities.unwrap_or(0);
            if abilities == 0 {
                out.push_str("Monster failing to live up to full potential");
            }
            for (i, name) in ABILITIES.iter().enumerate() {
                if abilities & (1 << i) != 0 {
                    out.push_str(name);
                    out.push(' ');
                }
            }
            out.push('\n');
            for name in ["HP", "DAM"] {
                out.push_str(&dice(name));
                out.push('\n');
            }
        }
        Kind::Object => {
            out.push_str(entry.kind.unwrap_or(""));
            out.push('\n');
            out.push_str(colors.first().map_or("", |&c| color_name(c)));
            out.push('\n');
            for name in [
                "HIT", "DAM", "DODGE", "DEF", "WEIGHT", "SPEED", "ATTR", "VAL",
            ] {
                out.push_str(&dice(name));
                out.push('\n');
            }
            out.push_str(if entry.artifact == Some(true) {
                "1"
            } else {
                "0"
            });
            out.push('\n');
        }
    }
    out.push_str(&entry.rarity.unwrap_or(0).to_string());
    out.push_str("\n\n");
}

/// What the reference program prints for a file of `kind`: nothing when its header is not
/// exactly right, otherwise every entry it accepts.
pub fn print_compat(bytes: &[u8], kind: Kind) -> String {
    let mut r = Reader {
        text: bytes,
        pos: 0,
    };
    r.skip_whitespace();
    if r.rest_of_line() != kind.header().as_bytes() {
        return String::new();
    }
    let mut out = String::new();
    loop {
        match r.token() {
            None => break,
            Some(b"BEGIN") => match entry(&mut r, kind) {
                Some(entry) => print(&entry, kind, &mut out),
                None => r.skip_to_begin(),
            },
            Some(_) => r.skip_to_begin(),
        }
    }
    out
}
