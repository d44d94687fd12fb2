//! Tags across the vaults of a run, which crawl never checks: a SUBVAULT asks for a tag that
//! no vault carries (crawl fails when it places the vault: "No vault found for tag"), and a
//! TAGS word that crawl does not know, that no other vault carries and that nothing asks for
//! (a likely typo: `no_monster_gne` quietly does nothing). And the Lua names a vault calls
//! when crawl compiles it, which must be crawl's own or defined before it in its file
//! ([`check_lua_calls`]).
//!
//! Each segment is summed up on its own ([`TagFacts`], from its model), the run's facts are
//! gathered in a [`TagIndex`] without positions, and each segment is checked against it
//! ([`check_tags`]): an edit re-checks its own vault, and the others only when the index
//! changes.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::sync::LazyLock;

use levkit_diagnostics::{Code, Diagnostic, TextRange};
use levkit_model::dcss::tables::{LUA_GLOBALS, LUA_MODULES, WORDS};
use levkit_model::dcss::{Segment, spec};
use levkit_syntax::dcss::Header;

use super::lua_syntax::is_name_byte;

/// What one segment says about tags.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct TagFacts {
    /// Per vault: its TAGS words (and the tags its Lua sets with literal `tags("...")`).
    pub vaults: Vec<Vec<Tag>>,
    /// The tags its SUBVAULTs ask for: each option, one or more tags a vault must all carry.
    pub wanted: Vec<Wanted>,
    /// The words of its Lua's string literals (a tag Lua looks up or sets is in use), each
    /// followed by a space: one text rather than a string each, as few of them are tags.
    pub lua_words: String,
    /// The last words of string literals Lua extends with `..` (`"room_" .. n`): tags that
    /// start with one may be made by Lua.
    pub lua_prefixes: Vec<String>,
    /// Its vaults' names (Lua may tag a vault with its own name, `e.tags(e.name())`).
    pub names: Vec<String>,
    /// Whether it is Lua outside vaults, whose names the vaults after it in its file see.
    pub global: bool,
    /// The names its Lua defines, sorted and without repeats. A vault's are only those of
    /// its `lua_calls` it defines itself (and `*` for a module levkit does not know): no
    /// other name of a vault is ever looked up.
    pub lua_defined: Vec<String>,
    /// The names its vault's main chunk calls outside its functions that crawl's own Lua does
    /// not define, each where it is called.
    pub lua_calls: Vec<super::lua::LuaCall>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Tag {
    pub word: String,
    /// `None` for a tag set from Lua.
    pub range: Option<TextRange>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Wanted {
    pub tags: Vec<String>,
    pub range: TextRange,
}

/// The tag facts of a segment (ranges in the segment's model).
pub fn tag_facts(segment: &Segment) -> TagFacts {
    let mut facts = TagFacts::default();
    // Every Lua text of the segment: lines, and the expressions of `lua:` markers.
    let mut lua_texts: Vec<&str> = Vec::new();
    let lua = match segment {
        Segment::Global(global) => {
            facts.global = true;
            &global.lua
        }
        Segment::Vault(vault) => {
            // A segment is one vault: its lists hold one item, allocated exactly (they are
            // kept to the end of a run; a push would make room for four).
            facts.names = vec![vault.name.value.clone()];
            let (builtin, _) = lua_globals();
            facts.lua_calls = super::lua::top_level_calls(vault, |name| !builtin.contains(name));
            lua_texts.extend(
                vault
                    .headers_of(Header::Marker)
                    .flat_map(|h| &h.args)
                    .filter_map(|a| spec::lua_marker(&a.text).map(|(_, lua)| lua)),
            );
            let mut tags: Vec<Tag> = vault
                .tags()
                .map(|a| Tag {
                    word: a.text.as_str().to_owned(),
                    range: Some(a.range),
                })
                .collect();
            for line in vault.lua.iter().flat_map(|l| &l.lines) {
                for literal in tags_calls(&line.text) {
                    tags.extend(literal.split_whitespace().map(|word| Tag {
                        word: word.to_string(),
                        range: None,
                    }));
                }
            }
            facts.vaults = vec![tags];
            for arg in vault.headers_of(Header::Subvault).flat_map(|h| &h.args) {
                let Ok(overlay) = spec::subvault(&arg.text) else {
                    continue;
                };
                for (option, span) in overlay.options.iter().zip(&overlay.spans) {
                    let tags: Vec<String> = option
                        .value
                        .split_whitespace()
                        .map(str::to_string)
                        .collect();
                    if !tags.is_empty() {
                        facts.wanted.push(Wanted {
                            tags,
                            range: super::range_in(arg, span.clone()),
                        });
                    }
                }
            }
            &vault.lua
        }
    };
    // A vault's own names matter only to its calls of names crawl does not define (most
    // vaults make none): reading every line of Lua for them was a tenth of the facts' cost.
    // And only the names it calls are kept, as nothing else of them is looked up.
    if facts.global || !facts.lua_calls.is_empty() {
        let global = facts.global;
        let calls = &facts.lua_calls;
        let keep = |name: &str| global || calls.iter().any(|c| c.name == name);
        for line in lua.iter().flat_map(|l| &l.lines) {
            super::lua::defined_names(&line.text, keep, &mut facts.lua_defined);
        }
    }
    facts.lua_defined.sort_unstable();
    facts.lua_defined.dedup();
    lua_texts.extend(lua.iter().flat_map(|l| &l.lines).map(|l| l.text.as_str()));
    for text in lua_texts {
        for literal in string_literals(text) {
            let last = tag_words(literal.text, |word| {
                facts.lua_words.push_str(word);
                facts.lua_words.push(' ');
            });
            // A stem such as `room_` or `serial_pan` (a short one, `x` or `no_`, says nothing).
            if literal.concatenated && last.len() >= 5 && last.contains('_') {
                facts.lua_prefixes.push(last.to_string());
            }
        }
    }
    facts
}

/// Calls `on_word` with each run of tag characters in `text`, in order, and answers the text
/// after the last character that cannot be in a tag. Every tag character is ASCII: a byte
/// beyond it is never one, so the text is read byte by byte rather than decoded.
fn tag_words<'a>(text: &'a str, mut on_word: impl FnMut(&'a str)) -> &'a str {
    let is_tag_byte = |b: u8| is_name_byte(b) || b == b'-';
    let mut start = 0;
    for (i, &b) in text.as_bytes().iter().enumerate() {
        if !is_tag_byte(b) {
            if i > start {
                on_word(&text[start..i]);
            }
            start = i + 1;
        }
    }
    let last = &text[start..];
    if !last.is_empty() {
        on_word(last);
    }
    last
}

/// A string literal of a line of Lua, and whether `..` extends it.
struct Literal<'a> {
    text: &'a str,
    concatenated: bool,
}

/// The string literals of a line of Lua (quoted with `"` or `'`; long strings are rare in
/// vaults and left out), read as they are asked for.
fn string_literals(line: &str) -> StringLiterals<'_> {
    StringLiterals { line, at: 0 }
}

struct StringLiterals<'a> {
    line: &'a str,
    /// Where the text not yet read starts.
    at: usize,
}

impl<'a> Iterator for StringLiterals<'a> {
    type Item = Literal<'a>;

    fn next(&mut self) -> Option<Literal<'a>> {
        let line = self.line;
        let bytes = line.as_bytes();
        let mut i = self.at;
        // Only a quote or a `-` (of a comment) matters: a vectorised search goes from one to
        // the next.
        while let Some(found) = memchr::memchr3(b'"', b'\'', b'-', &bytes[i.min(bytes.len())..]) {
            i += found;
            match bytes[i] {
                b'-' if bytes.get(i + 1) == Some(&b'-') => break,
                quote @ (b'"' | b'\'') => {
                    let start = i + 1;
                    i = start;
                    while i < bytes.len() && bytes[i] != quote {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                    let end = i.min(line.len());
                    i += 1;
                    self.at = i;
                    return Some(Literal {
                        text: &line[start..end],
                        concatenated: line
                            .get(i.min(line.len())..)
                            .is_some_and(|rest| rest.trim_start().starts_with("..")),
                    });
                }
                _ => i += 1,
            }
        }
        self.at = bytes.len();
        None
    }
}

/// The literal arguments of `tags("...")` calls in a line of Lua.
fn tags_calls(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = line;
    // One searcher for every line: `t`, where a search by first byte stops, is common in Lua.
    static TAGS: LazyLock<memchr::memmem::Finder<'static>> =
        LazyLock::new(|| memchr::memmem::Finder::new("tags"));
    while let Some(at) = TAGS.find(rest.as_bytes()) {
        let before = rest[..at].chars().next_back();
        let after = rest[at + 4..].trim_start();
        rest = &rest[at + 4..];
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let Some(after) = after.strip_prefix('(') else {
            continue;
        };
        if let Some(literal) = string_literals(after).next()
            && after.trim_start().starts_with(['"', '\''])
        {
            out.push(literal.text);
        }
    }
    out
}

/// Whether crawl itself gives the tag a meaning (a flag, a word its code looks for, or one of
/// its prefixes and suffixes).
pub fn is_crawl_tag(tag: &str) -> bool {
    let (words, patterns) = crawl_tags();
    words.contains(tag)
        || patterns.iter().any(|(prefix, suffix)| {
            tag.len() > prefix.len() + suffix.len()
                && tag.starts_with(prefix)
                && tag.ends_with(suffix)
        })
}

/// Words crawl knows whole, and (prefix, suffix) pairs of those it knows by pattern.
type CrawlTags = (HashSet<&'static str>, Vec<(&'static str, &'static str)>);

/// Crawl's TAGS words: those it knows whole, and the prefix and suffix around the `<...>` of
/// those it knows by pattern (every vault's tags are looked up here).
fn crawl_tags() -> &'static CrawlTags {
    static TAGS: std::sync::OnceLock<CrawlTags> = std::sync::OnceLock::new();
    TAGS.get_or_init(|| {
        let mut words = HashSet::default();
        let mut patterns = Vec::new();
        for w in WORDS.iter().filter(|w| w.header == "TAGS") {
            match (w.word.find('<'), w.word.rfind('>')) {
                (Some(open), Some(close)) => patterns.push((&w.word[..open], &w.word[close + 1..])),
                _ => {
                    words.insert(w.word.as_str());
                }
            }
        }
        (words, patterns)
    })
}

/// The tags crawl knows by name (for suggestions and completion).
pub fn crawl_tag_words() -> impl Iterator<Item = &'static str> {
    WORDS
        .iter()
        .filter(|w| w.header == "TAGS" && !w.word.contains('<'))
        .map(|w| w.word.as_str())
}

/// Short strings kept one after another in one text (one allocation for them all, rather than
/// one each): each ends at its `ends` offset.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Strings {
    text: String,
    ends: Vec<usize>,
}

impl Strings {
    fn push(&mut self, s: &str) {
        self.text.push_str(s);
        self.ends.push(self.text.len());
    }

    fn iter(&self) -> impl Iterator<Item = &str> {
        let mut start = 0;
        self.ends.iter().map(move |&end| {
            let s = self.text.get(start..end).unwrap_or("");
            start = end;
            s
        })
    }
}

/// A quick test of whether a set of strings may hold a string, by its first byte and length:
/// most strings that it lacks fail it.
#[derive(Default)]
struct Sieve([u64; 32]);

impl Sieve {
    fn add(&mut self, s: &str) {
        let (row, bit) = Sieve::place(s);
        self.0[row] |= bit;
    }

    fn may_hold(&self, s: &str) -> bool {
        let (row, bit) = Sieve::place(s);
        self.0[row] & bit != 0
    }

    fn place(s: &str) -> (usize, u64) {
        let first = s.as_bytes().first().map_or(0, |&b| usize::from(b & 31));
        (first, 1 << s.len().min(63))
    }
}

/// What the vaults of one file do with tags, without positions: its part of the run's
/// [`TagIndex`], rebuilt only when the file's facts change.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TagPart {
    /// How many of its vaults carry each tag.
    carriers: HashMap<String, usize>,
    /// The words of its Lua strings, each followed by a space: only a few are tags, which
    /// only the run's index knows.
    lua_words: String,
    lua_prefixes: HashSet<String>,
    /// Its vaults' names.
    names: Strings,
    wanted: HashSet<String>,
    lua_globals: HashSet<String>,
}

/// What the vaults of a run do with tags, without positions (so that it stays the same while
/// a vault is edited in ways that touch no tag).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TagIndex {
    /// How many vaults carry each tag.
    carriers: HashMap<String, usize>,
    /// The words of Lua strings that are tags of the run (a vault carries them or a SUBVAULT
    /// asks for them), and stems Lua extends: tags Lua may set. Only tags of the run are
    /// looked up, and few words of Lua strings are tags (90 of 3,118 in the DCSS corpus).
    lua_words: HashSet<String>,
    lua_prefixes: HashSet<String>,
    /// The vault names that SUBVAULTs ask for as tags (`e.tags(e.name())`): only those are
    /// looked up.
    names: HashSet<String>,
    /// The tags SUBVAULTs ask for.
    wanted: HashSet<String>,
    /// The names the run's Lua outside vaults defines.
    lua_globals: HashSet<String>,
}

/// Adds `n` to the count of `tag` (a tag is copied only the first time it is counted).
fn count(counts: &mut HashMap<String, usize>, tag: &str, n: usize) {
    match counts.get_mut(tag) {
        Some(count) => *count += n,
        None => {
            counts.insert(tag.to_string(), n);
        }
    }
}

/// Adds `words` to `set`, copying only the words it lacks (most repeat across segments).
fn add_all<'a>(set: &mut HashSet<String>, words: impl IntoIterator<Item = &'a str>) {
    for word in words {
        if !set.contains(word) {
            set.insert(word.to_string());
        }
    }
}

impl TagPart {
    /// The part of some segments' facts (a file's).
    pub fn new<'a>(facts: impl IntoIterator<Item = &'a TagFacts>) -> TagPart {
        let mut part = TagPart::default();
        // A vault's tags, borrowed, each counted once.
        let mut set: Vec<&str> = Vec::new();
        for facts in facts {
            for tags in &facts.vaults {
                set.clear();
                set.extend(tags.iter().map(|t| t.word.as_str()));
                set.sort_unstable();
                set.dedup();
                for tag in &set {
                    count(&mut part.carriers, tag, 1);
                }
            }
            part.lua_words.push_str(&facts.lua_words);
            add_all(
                &mut part.lua_prefixes,
                facts.lua_prefixes.iter().map(String::as_str),
            );
            for name in &facts.names {
                part.names.push(name);
            }
            for w in &facts.wanted {
                add_all(&mut part.wanted, w.tags.iter().map(String::as_str));
            }
            if facts.global {
                add_all(
                    &mut part.lua_globals,
                    facts.lua_defined.iter().map(String::as_str),
                );
            }
        }
        part
    }
}

impl TagIndex {
    /// The index of some segments' facts.
    pub fn new<'a>(facts: impl IntoIterator<Item = &'a TagFacts>) -> TagIndex {
        TagIndex::merge(&[&TagPart::new(facts)])
    }

    /// The index of several parts together (a run's files').
    pub fn merge(parts: &[&TagPart]) -> TagIndex {
        let mut index = TagIndex::default();
        for part in parts {
            for (tag, n) in &part.carriers {
                count(&mut index.carriers, tag, *n);
            }
            add_all(
                &mut index.lua_prefixes,
                part.lua_prefixes.iter().map(String::as_str),
            );
            add_all(&mut index.wanted, part.wanted.iter().map(String::as_str));
            add_all(
                &mut index.lua_globals,
                part.lua_globals.iter().map(String::as_str),
            );
        }
        // Only now are the run's tags known: the words and names that are none are dropped.
        // Few are tags, and most are passed over by their first byte and length alone.
        let mut tags: HashSet<&str> = HashSet::default();
        let mut tag_sieve = Sieve::default();
        let mut wanted_sieve = Sieve::default();
        for tag in index.carriers.keys() {
            tags.insert(tag);
            tag_sieve.add(tag);
        }
        for tag in &index.wanted {
            tags.insert(tag);
            tag_sieve.add(tag);
            wanted_sieve.add(tag);
        }
        let mut lua_words = HashSet::default();
        let mut names = HashSet::default();
        for part in parts {
            // Each word ends at a space (words are short: a plain loop finds them for less
            // than `str::split` or a vectorised search).
            let mut start = 0;
            for (end, _) in (part.lua_words.bytes().enumerate()).filter(|&(_, b)| b == b' ') {
                let word = part.lua_words.get(start..end).unwrap_or("");
                start = end + 1;
                if !word.is_empty()
                    && tag_sieve.may_hold(word)
                    && tags.contains(word)
                    && !lua_words.contains(word)
                {
                    lua_words.insert(word.to_string());
                }
            }
            for name in part.names.iter() {
                if wanted_sieve.may_hold(name)
                    && index.wanted.contains(name)
                    && !names.contains(name)
                {
                    names.insert(name.to_string());
                }
            }
        }
        index.lua_words = lua_words;
        index.names = names;
        index
    }

    /// Whether Lua of the run may give a vault `tag` (one a SUBVAULT asks for): written in a
    /// Lua string, made by extending one, or a vault's name (`e.tags(e.name())`).
    fn lua_may_make(&self, tag: &str) -> bool {
        self.lua_words.contains(tag)
            || self.names.contains(tag)
            || self
                .lua_prefixes
                .iter()
                .any(|p| tag.len() > p.len() && tag.starts_with(p.as_str()))
    }

    fn carried(&self, tag: &str) -> bool {
        self.carriers.contains_key(tag)
    }

    /// Whether each of `tags` is carried by a vault or may be set by Lua. (Whether one vault
    /// carries them all needs no asking: each is then carried.)
    fn provides(&self, tags: &[String]) -> bool {
        tags.iter().all(|t| self.carried(t) || self.lua_may_make(t))
    }

    /// Every tag some vault of the run carries.
    pub fn tags(&self) -> impl Iterator<Item = &str> {
        self.carriers.keys().map(String::as_str)
    }

    /// The tags of the run that vaults are picked by (the suggestions for a SUBVAULT).
    pub fn selection_tags(&self) -> impl Iterator<Item = &str> {
        self.carriers
            .keys()
            .map(String::as_str)
            .filter(|t| !is_flag(t))
    }
}

/// The tag problems of one segment against the run's index (ranges in the segment's model).
pub fn check_tags(index: &TagIndex, facts: &TagFacts) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for want in &facts.wanted {
        if index.provides(&want.tags) {
            continue;
        }
        let missing = want.tags.join(" ");
        let mut diagnostic = Diagnostic::new(
            Code::DC0414,
            want.range,
            format!(
                "no vault of this run carries the tag{} '{missing}', and no Lua of the run sets it: crawl fails to place this SUBVAULT (No vault found for tag)",
                if want.tags.len() > 1 { "s" } else { "" }
            ),
        );
        if want.tags.len() == 1 {
            let suggestion = typo_of(&missing, index.selection_tags());
            diagnostic = did_you_mean(diagnostic, want.range, suggestion);
        }
        out.push(diagnostic);
    }
    // The tags in use a misspelt tag may stand for, gathered once asked for.
    let mut candidates: Option<Vec<&str>> = None;
    for tags in &facts.vaults {
        for tag in tags {
            let Some(range) = tag.range else { continue };
            let word = tag.word.as_str();
            let used = is_crawl_tag(word)
                || index.carriers.get(word).is_some_and(|&n| n > 1)
                || index.wanted.contains(word)
                || index.lua_words.contains(word)
                || index
                    .lua_prefixes
                    .iter()
                    .any(|p| word.len() > p.len() && word.starts_with(p.as_str()));
            if used {
                continue;
            }
            // crawl's code and its Lua libraries look up tags this run cannot see: only a
            // tag that reads like a misspelling of one in use is reported.
            let candidates = candidates.get_or_insert_with(|| {
                let mut candidates: Vec<&str> = crawl_tag_words().collect();
                candidates.extend(
                    index
                        .carriers
                        .iter()
                        .filter(|(_, n)| **n > 1)
                        .map(|(t, _)| t.as_str()),
                );
                candidates.extend(index.wanted.iter().map(String::as_str));
                candidates
            });
            let Some(suggestion) = typo_of(word, candidates.iter().copied()) else {
                continue;
            };
            let diagnostic = Diagnostic::new(
                Code::DC0416,
                range,
                format!(
                    "'{word}' is none of crawl's tags, no other vault carries it and nothing asks for it (no SUBVAULT, no Lua)"
                ),
            );
            out.push(did_you_mean(diagnostic, range, Some(suggestion)));
        }
    }
    out
}

/// The candidate `word` reads like a misspelling of: close in spelling, its `_`-separated
/// parts each close to the candidate's, and not differing only in numbers (`room_1`,
/// `room_2` are distinct on purpose).
fn typo_of<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let parts = |w: &str| -> Vec<String> { w.split('_').map(str::to_lowercase).collect() };
    // Compared without copies: most candidates get this far.
    fn letters(w: &str) -> impl Iterator<Item = u8> + '_ {
        w.bytes().filter(|c| !c.is_ascii_digit())
    }
    let digits_only = |a: &str, b: &str| letters(a).eq(letters(b));
    let word_parts = parts(word);
    let word_letters: Vec<Letters> = word_parts.iter().map(|p| Letters::of(p)).collect();
    let limit = (word.len() / 3).max(1);
    let underscores = |w: &str| w.bytes().filter(|&b| b == b'_').count();
    let word_underscores = underscores(word);
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        // Part by part, the distance is at least the difference in length (for ASCII words,
        // whose lowercase keeps their length); and the parts must pair up.
        if word.is_ascii()
            && candidate.is_ascii()
            && (candidate.len().abs_diff(word.len()) > limit
                || underscores(candidate) != word_underscores)
        {
            continue;
        }
        if candidate == word || digits_only(candidate, word) {
            continue;
        }
        // The parts pair up, each close enough (read one by one: most differ in the first).
        let mut candidate_parts = candidate.split('_');
        let mut distance = 0;
        let close = word_parts.iter().zip(&word_letters).all(|(a, letters)| {
            let Some(b) = candidate_parts.next() else {
                return false;
            };
            let b = b.to_lowercase();
            // The distance is at least the difference in length, and the letters one part has
            // and the other lacks (for ASCII parts): a part surely too far for the part's
            // limit or the word's fails without measuring.
            if a.is_ascii() && b.is_ascii() {
                let longest = a.len().max(b.len());
                if 2 * a.len().abs_diff(b.len()) >= longest {
                    return false;
                }
                let least = letters.fewest_edits_to(b.as_bytes());
                if 2 * least >= longest || distance + least > limit {
                    return false;
                }
            }
            let d = levkit_syntax::suggest::edit_distance(a, &b);
            distance += d;
            2 * d < a.len().max(b.len()) && distance <= limit
        }) && candidate_parts.next().is_none();
        if close && distance <= limit && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// How many of each letter an ASCII text has (a few bytes share a count, which only lowers
/// the bound below).
struct Letters([i32; 32]);

impl Letters {
    fn of(text: &str) -> Letters {
        let mut counts = [0; 32];
        for byte in text.bytes() {
            counts[usize::from(byte & 31)] += 1;
        }
        Letters(counts)
    }

    /// A lower bound of the edit distance from the text to `other`: the letters one has and
    /// the other lacks, on the side that has more (an insertion, deletion or substitution
    /// changes either side by at most one; a swap changes neither).
    fn fewest_edits_to(&self, other: &[u8]) -> usize {
        let mut counts = self.0;
        for &byte in other {
            counts[usize::from(byte & 31)] -= 1;
        }
        let (mut missing, mut extra) = (0, 0);
        for count in counts {
            if count > 0 {
                missing += count.unsigned_abs() as usize;
            } else {
                extra += count.unsigned_abs() as usize;
            }
        }
        missing.max(extra)
    }
}

/// A tag that only flags a vault (no vault is chosen by it).
fn is_flag(tag: &str) -> bool {
    WORDS
        .iter()
        .any(|w| w.header == "TAGS" && w.kind == "flag tag" && w.word == tag)
}

fn did_you_mean(diagnostic: Diagnostic, range: TextRange, suggestion: Option<&str>) -> Diagnostic {
    let Some(suggestion) = suggestion else {
        return diagnostic;
    };
    let mut diagnostic = diagnostic;
    diagnostic
        .message
        .push_str(&format!("; did you mean '{suggestion}'?"));
    diagnostic.with_replacement(format!("Replace with '{suggestion}'"), range, suggestion)
}

/// The names crawl's own Lua gives every vault, and those its vault files' Lua defines.
fn lua_globals() -> &'static (HashSet<&'static str>, HashSet<&'static str>) {
    static GLOBALS: std::sync::OnceLock<(HashSet<&'static str>, HashSet<&'static str>)> =
        std::sync::OnceLock::new();
    GLOBALS.get_or_init(|| {
        let of = |by: &str| {
            LUA_GLOBALS
                .iter()
                .filter(|g| g.defined_by == by)
                .map(|g| g.name.as_str())
                .collect()
        };
        (of("dlua"), of("des"))
    })
}

/// The calls of segment `at` of a file (its segments' facts, in order) that crawl cannot make
/// when it compiles the vault: a name neither crawl's Lua, the vault's own, nor the file's
/// Lua before the vault defines is nil then (an error; crawl has not run the file's Lua after
/// the vault yet). A name another file's Lua defines, or one of crawl's Lua modules the file
/// does not load, is there only when crawl compiles that file in the same run, not when it
/// reads it from its cache (a warning).
pub fn check_lua_calls(index: &TagIndex, file: &[&TagFacts], at: usize) -> Vec<Diagnostic> {
    let Some(facts) = file.get(at) else {
        return Vec::new();
    };
    if facts.lua_calls.is_empty() {
        return Vec::new();
    }
    let (_, crawl_files) = lua_globals();
    // Looked up in each sorted list rather than gathered into one set per vault: a file's
    // global Lua may define hundreds of names, and dozens of vaults may follow it.
    let defines = |f: &TagFacts, name: &str| {
        f.lua_defined
            .binary_search_by(|d| d.as_str().cmp(name))
            .is_ok()
    };
    let defined_before = |name: &str| {
        file[..at]
            .iter()
            .filter(|f| f.global)
            .chain([facts])
            .any(|f| defines(f, name))
    };
    // A module levkit does not know may define anything.
    if defined_before("*") {
        return Vec::new();
    }
    let later_here = |name: &str| file[at + 1..].iter().any(|f| f.global && defines(f, name));
    let mut out = Vec::new();
    for call in &facts.lua_calls {
        let (name, range) = (call.name.as_str(), &call.range);
        // Calls of crawl's own names are not in the facts (see `tag_facts`).
        if defined_before(name) {
            continue;
        }
        // A call inside an `if` or a loop fails only on the builds that run it.
        let (code, when) = if call.conditional {
            (Code::DC0422, "so the vault fails whenever this branch runs")
        } else {
            (Code::DC0017, "so the vault never compiles")
        };
        if later_here(name) {
            out.push(Diagnostic::new(
                code,
                *range,
                format!(
                    "attempt to call global '{name}' (a nil value): this file defines `{name}` only after the vault, and crawl runs a file's Lua in order; define it before the vault"
                ),
            ));
            continue;
        }
        if let Some(module) = LUA_MODULES
            .iter()
            .find(|m| m.names.split(' ').any(|n| n == name))
        {
            out.push(Diagnostic::new(
                Code::DC0421,
                *range,
                format!(
                    "`{name}` comes from crawl's {}, which this file does not load: unless crawl compiles another file that loads it in the same run, `{name}` is nil and the vault fails (attempt to call global '{name}' (a nil value)); write `crawl_require(\"{}\")` before the vault",
                    module.module, module.module
                ),
            ));
            continue;
        }
        if index.lua_globals.contains(name) || crawl_files.contains(name) {
            out.push(Diagnostic::new(
                Code::DC0421,
                *range,
                format!(
                    "`{name}` is defined by another file's Lua, which crawl runs only when it compiles that file in the same run: read from crawl's cache, `{name}` is nil and the vault fails (attempt to call global '{name}' (a nil value)); define it in this file, before the vault"
                ),
            ));
            continue;
        }
        let diagnostic = Diagnostic::new(
            code,
            *range,
            format!(
                "attempt to call global '{name}' (a nil value): crawl 0.28.0's Lua has no `{name}`, {when}"
            ),
        );
        out.push(super::did_you_mean(
            diagnostic,
            name,
            Some(*range),
            LUA_GLOBALS
                .iter()
                .filter(|g| g.defined_by == "dlua" && g.kind == "function")
                .map(|g| g.name.as_str()),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crawl_tags_include_its_prefixes_and_suffixes() {
        assert!(is_crawl_tag("no_monster_gen"));
        assert!(is_crawl_tag("uniq_orc_temple"));
        assert!(is_crawl_tag("lair_entry"));
        assert!(!is_crawl_tag("uniq_"));
        assert!(!is_crawl_tag("no_monster_gne"));
    }

    #[test]
    fn typos_are_close_part_by_part_and_not_only_in_numbers() {
        let tags = [
            "no_monster_gen",
            "room_2",
            "aquarium_subvault_bridge",
            "no_species_op",
        ];
        assert_eq!(typo_of("no_mons_gen", tags), Some("no_monster_gen"));
        assert_eq!(typo_of("no_monstr_gen", tags), Some("no_monster_gen"));
        assert_eq!(typo_of("room_1", tags), None);
        assert_eq!(typo_of("aquarium_subvault_wall", tags), None);
        assert_eq!(typo_of("no_species_mu", tags), None);
    }

    /// `typo_of` as it was before it skipped parts by their letters: every part measured.
    fn typo_of_measuring_all<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
        let parts = |w: &str| -> Vec<String> { w.split('_').map(str::to_lowercase).collect() };
        let letters = |w: &str| -> Vec<u8> { w.bytes().filter(|c| !c.is_ascii_digit()).collect() };
        let limit = (word.len() / 3).max(1);
        let mut best: Option<(usize, &'a str)> = None;
        for &candidate in candidates {
            if candidate == word || letters(candidate) == letters(word) {
                continue;
            }
            let (a, b) = (parts(word), parts(candidate));
            if a.len() != b.len() {
                continue;
            }
            let mut distance = 0;
            let mut close = true;
            for (a, b) in a.iter().zip(&b) {
                let d = levkit_syntax::suggest::edit_distance(a, b);
                distance += d;
                close &= 2 * d < a.len().max(b.len());
            }
            if close && distance <= limit && best.is_none_or(|(d, _)| distance < d) {
                best = Some((distance, candidate));
            }
        }
        best.map(|(_, c)| c)
    }

    #[test]
    fn typos_found_by_pruning_are_those_found_by_measuring() {
        let pieces = ["a", "b", "ab", "ba", "bc", "_", "1", "É", "é", "ca"];
        let mut words: Vec<String> = vec![String::new()];
        for _ in 0..3 {
            let longer: Vec<String> = (words.iter())
                .flat_map(|w| pieces.iter().map(move |p| format!("{w}{p}")))
                .collect();
            words.extend(longer);
        }
        words.sort();
        words.dedup();
        let candidates: Vec<&str> = words.iter().map(String::as_str).step_by(5).collect();
        for word in words.iter().step_by(3) {
            assert_eq!(
                typo_of(word, candidates.iter().copied()),
                typo_of_measuring_all(word, &candidates),
                "{word:?}"
            );
        }
    }

    #[test]
    fn tag_words_split_as_characters_do() {
        fn by_chars(text: &str) -> (Vec<&str>, &str) {
            let is_tag_char = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
            let pieces: Vec<&str> = text.split(|c: char| !is_tag_char(c)).collect();
            let words: Vec<&str> = pieces.iter().copied().filter(|w| !w.is_empty()).collect();
            (words, pieces[pieces.len() - 1])
        }
        for text in [
            "",
            "a",
            "room_",
            "no_x  b-c.d",
            "é",
            "aé",
            "éa",
            "x é b_",
            "a..b",
            "ü_v",
        ] {
            let mut words = Vec::new();
            let last = tag_words(text, |w| words.push(w));
            assert_eq!((words, last), by_chars(text), "{text:?}");
        }
    }

    #[test]
    fn the_index_keeps_the_lua_words_and_names_that_are_tags() {
        let tag = |word: &str| Tag {
            word: word.to_string(),
            range: None,
        };
        let wanted = |tag: &str| Wanted {
            tags: vec![tag.to_string()],
            range: TextRange::default(),
        };
        let vault = TagFacts {
            vaults: vec![vec![tag("carried"), tag("")]],
            wanted: vec![wanted("from_lua"), wanted("vault_name"), wanted("nowhere")],
            lua_words: "from_lua carried x ".to_string(),
            names: vec!["vault_name".to_string(), "other name".to_string()],
            ..TagFacts::default()
        };
        let global = TagFacts {
            lua_words: "y from_lua ".to_string(),
            global: true,
            ..TagFacts::default()
        };
        let index = TagIndex::merge(&[&TagPart::new([&vault]), &TagPart::new([&global])]);
        let words: HashSet<&str> = index.lua_words.iter().map(String::as_str).collect();
        assert_eq!(words, HashSet::from_iter(["from_lua", "carried"]));
        assert!(index.names.contains("vault_name") && index.names.len() == 1);
        for (tags, provided) in [
            (&["from_lua"][..], true),
            (&["vault_name"], true),
            (&["carried", "from_lua"], true),
            (&["nowhere"], false),
            (&["x"], false),
            (&[""], true),
        ] {
            let tags: Vec<String> = tags.iter().map(|t| t.to_string()).collect();
            assert_eq!(index.provides(&tags), provided, "{tags:?}");
        }
        assert!(!index.lua_may_make(""));
    }

    #[test]
    fn lua_strings_and_tags_calls() {
        let literals = string_literals(r#"x = "a\"b" .. 'c' -- "d""#);
        let texts: Vec<(&str, bool)> = literals.map(|l| (l.text, l.concatenated)).collect();
        assert_eq!(texts, [(r#"a\"b"#, true), ("c", false)]);
        assert_eq!(
            tags_calls(r#"tags("a b") dgn.tags('c') mytags("d")"#),
            ["a b", "c"]
        );
    }
}
