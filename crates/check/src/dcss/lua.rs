//! The vault's Lua compiled as crawl compiles it: each chunk built as crawl builds it (so a
//! chunk line is a source line) and loaded, not run, by a Lua 5.1 interpreter. A syntax error
//! is reported at the statement of its line, on the token Lua names.
//!
//! Why mlua rather than full_moon: on the 10,479 chunks of the corpus's dump, loading each
//! with mlua (Lua 5.1, vendored) took 90-106 ms, parsing each with full_moon 3.0 (Lua 5.1
//! mode) 247-290 ms, on this project's 2-core machine (release builds, three runs each).
//!
//! Also reported: an `error(...)` called at the top level of a chunk, which fails every
//! validation.

use std::borrow::Cow;
use std::cell::RefCell;

use levkit_diagnostics::{Code, Diagnostic, TextRange, TextSize};
use levkit_model::dcss::lua::{ChunkStatement, authored_statements, chunk_body};
use levkit_model::dcss::strings::find;
use levkit_model::dcss::tables::LUA_MODULES;
use levkit_model::dcss::{Global, Vault};
use levkit_syntax::dcss::Chunk;

use super::lua_syntax::{is_name_byte, is_name_start};

thread_local! {
    static LUA: RefCell<Option<mlua::Lua>> = const { RefCell::new(None) };
}

/// How much memory the loading interpreter may hold before its garbage is collected.
const GARBAGE_LIMIT: usize = 4 << 20;

/// Loads `text` as a Lua 5.1 chunk without running it: crawl's message on a syntax error,
/// with the chunk's line. Most chunks are answered by the quick check of `lua_syntax`, and
/// only those it is unsure of are loaded by Lua.
fn compile(text: &str) -> Result<(), (u32, String)> {
    if super::lua_syntax::surely_valid(text) {
        return Ok(());
    }
    load(text)
}

/// Loads `text` with Lua itself.
fn load(text: &str) -> Result<(), (u32, String)> {
    LUA.with(|cell| {
        let mut cell = cell.borrow_mut();
        let lua = cell.get_or_insert_with(|| {
            let lua = mlua::Lua::new();
            // Only compiled functions become garbage here: collecting them in steps during
            // every load cost a tenth of the loading; they are freed in bulk below instead.
            lua.gc_stop();
            lua
        });
        if lua.used_memory() > GARBAGE_LIMIT {
            let _ = lua.gc_collect();
        }
        match lua.load(text).set_name("=chunk").into_function() {
            Ok(_) => Ok(()),
            Err(error) => {
                let message = match error {
                    mlua::Error::SyntaxError { message, .. } => message,
                    other => other.to_string(),
                };
                // "chunk:LINE: message"
                let rest = message.strip_prefix("chunk:").unwrap_or(&message);
                let (line, text) = rest.split_once(": ").unwrap_or(("1", rest));
                Err((line.parse().unwrap_or(1), text.to_string()))
            }
        }
    })
}

pub(super) fn check(vault: &Vault, out: &mut Vec<Diagnostic>) {
    for statements in vault_chunks(vault) {
        check_chunk(&statements, out);
    }
}

/// The chunks of a vault that crawl loads with its author's Lua in them (the main chunk also
/// when a MARKER holds Lua), each as its statements.
fn vault_chunks(vault: &Vault) -> Vec<Vec<ChunkStatement<'_>>> {
    let has_markers = vault
        .headers_of(levkit_syntax::dcss::Header::Marker)
        .any(|h| {
            h.args
                .iter()
                .any(|a| levkit_model::dcss::spec::is_lua_marker(&a.text))
        });
    Chunk::ALL
        .into_iter()
        .filter(|&chunk| {
            let authored = vault
                .lua
                .iter()
                .any(|l| l.chunk == chunk && !l.lines.is_empty());
            chunk != Chunk::Mapchunk && (authored || (chunk == Chunk::Main && has_markers))
        })
        .map(|chunk| authored_statements(vault, chunk))
        .collect()
}

pub(super) fn check_global(global: &Global, out: &mut Vec<Diagnostic>) {
    let statements = global_chunk(global);
    if !statements.is_empty() {
        check_chunk(&statements, out);
    }
}

/// The Lua outside vaults, as one chunk.
fn global_chunk(global: &Global) -> Vec<ChunkStatement<'_>> {
    global
        .lua
        .iter()
        .flat_map(|lua| {
            lua.lines.iter().map(|line| ChunkStatement {
                line: line.line,
                text: Cow::Borrowed(line.text.as_str()),
                range: line.range,
                authored: true,
            })
        })
        .collect()
}

/// The Lua chunks of a segment that the quick syntax check accepts but Lua refuses: always
/// none. For the `lua_syntax` fuzz target, which feeds it mutated vaults.
pub fn quick_check_misses(segment: &levkit_model::dcss::Segment) -> Vec<String> {
    chunk_texts(segment)
        .into_iter()
        .filter(|body| super::lua_syntax::surely_valid(body) && load(body).is_err())
        .collect()
}

/// The text of each Lua chunk crawl loads for a segment.
fn chunk_texts(segment: &levkit_model::dcss::Segment) -> Vec<String> {
    let chunks = match segment {
        levkit_model::dcss::Segment::Vault(vault) => vault_chunks(vault),
        levkit_model::dcss::Segment::Global(global) => vec![global_chunk(global)],
    };
    chunks
        .iter()
        .filter_map(|statements| chunk_body(statements.iter()).map(|(_, body)| body))
        .collect()
}

fn check_chunk(statements: &[ChunkStatement], out: &mut Vec<Diagnostic>) {
    let Some((first, body)) = chunk_body(statements) else {
        return;
    };
    let at_line = |chunk_line: u32| {
        let line = first + chunk_line.saturating_sub(1);
        statements
            .iter()
            .rev()
            .find(|s| s.line == line)
            .or_else(|| statements.iter().rev().find(|s| s.line <= line))
    };
    match compile(&body) {
        Err((chunk_line, message)) => {
            let Some(statement) = at_line(chunk_line) else {
                return;
            };
            let mut range = statement.range;
            if statement.authored
                && let Some(near) = near_token(&message)
            {
                if near == "<eof>" {
                    range = TextRange::empty(statement.range.end());
                } else if let Some(i) =
                    stop_offset(statements, statement, near, (chunk_line, &message))
                {
                    let start = statement.range.start() + TextSize::from(i as u32);
                    range = TextRange::at(start, TextSize::of(near));
                }
            }
            // Lua's own line numbers count from the chunk's start: the label says where.
            let shown = match message.find(" at line ") {
                Some(at) => {
                    let digits = message[at + " at line ".len()..]
                        .bytes()
                        .take_while(u8::is_ascii_digit)
                        .count();
                    format!(
                        "{}{}",
                        &message[..at],
                        &message[at + " at line ".len() + digits..]
                    )
                }
                None => message.clone(),
            };
            let mut diagnostic =
                Diagnostic::new(Code::DC0011, range, format!("Lua syntax error: {shown}"));
            if let Some(opened) = opened_at(&message).and_then(at_line) {
                diagnostic = diagnostic.with_label(opened.range, "the block opened here");
            }
            out.push(diagnostic);
        }
        Ok(()) => {
            for statement in top_level_errors(statements, &body) {
                out.push(Diagnostic::new(
                    Code::DC0013,
                    statement.range,
                    "this error() runs whenever the vault is built, so crawl can never compile the vault",
                ));
            }
        }
    }
}

/// Where in `statement` Lua stopped with `error`, which names the token `near`. Lua says no
/// column, and the token may occur more than once on the line: it stopped at the first
/// occurrence after which the chunk, cut right there, fails the same way (Lua reads no token
/// past the one it stops at). The first occurrence if none does.
fn stop_offset(
    statements: &[ChunkStatement],
    statement: &ChunkStatement,
    near: &str,
    error: (u32, &str),
) -> Option<usize> {
    let index = statements.iter().position(|s| std::ptr::eq(s, statement))?;
    let occurrences: Vec<usize> = statement.text.match_indices(near).map(|(i, _)| i).collect();
    if occurrences.len() > 1 {
        for &at in &occurrences {
            let cut = ChunkStatement {
                text: Cow::Borrowed(&statement.text[..at + near.len()]),
                ..statement.clone()
            };
            let prefix = statements[..index].iter().chain([&cut]);
            if let Some((_, body)) = chunk_body(prefix)
                && let Err((line, message)) = load(&body)
                && (line, message.as_str()) == error
            {
                return Some(at);
            }
        }
    }
    occurrences.first().copied()
}

/// The ranges of the statements (header calls and Lua lines) that stand inside a Lua block of
/// the main chunk (an `if`, a loop, a function).
pub(super) fn conditional_ranges(vault: &Vault) -> Vec<TextRange> {
    if !vault
        .lua
        .iter()
        .any(|l| l.chunk == Chunk::Main && l.has_code())
    {
        return Vec::new();
    }
    // Headers and main-chunk Lua lines in source order; only the order matters here.
    let mut items: Vec<(TextRange, Option<&str>)> =
        vault.headers.iter().map(|h| (h.range, None)).collect();
    for lua in vault.lua.iter().filter(|l| l.chunk == Chunk::Main) {
        items.extend(lua.lines.iter().map(|l| (l.range, Some(l.text.as_str()))));
    }
    items.sort_by_key(|(range, _)| range.start());
    let mut depth = 0;
    let mut in_long = false;
    let mut out = Vec::new();
    for (range, lua) in items {
        if depth > 0 {
            out.push(range);
        }
        if let Some(text) = lua {
            depth += nesting(text, &mut in_long);
        }
    }
    out
}

/// `near 'x'` in a Lua message.
fn near_token(message: &str) -> Option<&str> {
    let start = message.rfind("near '")? + "near '".len();
    let end = message[start..].rfind('\'')? + start;
    Some(&message[start..end])
}

/// `(to close 'if' at line N)` in a Lua message: the chunk line N.
fn opened_at(message: &str) -> Option<u32> {
    let start = message.find("at line ")? + "at line ".len();
    let digits: String = message[start..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// The authored statements that call `error` outside any block of the chunk (`body`, built
/// from them: one search of it says whether any of them holds the word).
fn top_level_errors<'s, 'a>(
    statements: &'s [ChunkStatement<'a>],
    body: &str,
) -> Vec<&'s ChunkStatement<'a>> {
    if memchr::memmem::find(body.as_bytes(), b"error").is_none() {
        return Vec::new();
    }
    let mut depth: i32 = 0;
    let mut in_long = false;
    let mut out = Vec::new();
    for statement in statements {
        if !statement.authored {
            continue;
        }
        let text = statement.text.trim_start();
        if depth == 0
            && !in_long
            && (text.starts_with("error(")
                || text.starts_with("error (")
                || text.starts_with("error \""))
        {
            out.push(statement);
        }
        depth += nesting(&statement.text, &mut in_long);
    }
    out
}

/// How much a line of Lua opens minus closes blocks (`function`, `do`, `if`, `repeat` against
/// `end`, `until`), outside strings and comments; `in_long` carries a `[[ ]]` string or comment
/// over lines.
fn nesting(line: &str, in_long: &mut bool) -> i32 {
    let mut delta = 0;
    block_words(line, in_long, |word| match word {
        "end" | "until" => delta -= 1,
        _ => delta += 1,
    });
    delta
}

/// Calls `on` with each word of a line of Lua that opens (`function`, `do`, `if`, `repeat`)
/// or closes (`end`, `until`) a block, in order, outside strings and comments; `in_long`
/// carries a `[[ ]]` string or comment over lines.
fn block_words(line: &str, in_long: &mut bool, mut on: impl FnMut(&str)) {
    let bytes = line.as_bytes();
    // Most lines of Lua hold no block word and no `[[` (where a long string or comment
    // starts), not even their first two letters: a pass over the byte pairs says so, cheaper
    // than reading the line's words and strings.
    let may_matter =
        |pair: &[u8]| matches!(pair, b"[[" | b"fu" | b"do" | b"if" | b"re" | b"en" | b"un");
    if !*in_long && !bytes.windows(2).any(may_matter) {
        return;
    }
    let mut i = 0;
    while i < bytes.len() {
        if *in_long {
            match bytes[i..].windows(2).position(|w| w == b"]]") {
                Some(j) => {
                    i += j + 2;
                    *in_long = false;
                    continue;
                }
                None => return,
            }
        }
        // One look at the byte picks the case: this runs on every line of Lua.
        match bytes[i] {
            b'-' if bytes.get(i + 1) == Some(&b'-') => {
                if !bytes[i + 2..].starts_with(b"[[") {
                    return;
                }
                *in_long = true;
                i += 4;
            }
            b'[' if bytes.get(i + 1) == Some(&b'[') => {
                *in_long = true;
                i += 2;
            }
            quote @ (b'"' | b'\'') => {
                i += 1;
                while i < bytes.len() && bytes[i] != quote {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                i += 1;
            }
            b if b.is_ascii_alphabetic() || b == b'_' => {
                let start = i;
                while i < bytes.len() && is_name_byte(bytes[i]) {
                    i += 1;
                }
                let word = &line[start..i];
                if matches!(word, "function" | "do" | "if" | "repeat" | "end" | "until") {
                    on(word);
                }
            }
            _ => i += 1,
        }
    }
}

/// Lua 5.1's reserved words.
fn is_keyword(word: &str) -> bool {
    matches!(
        word,
        "and"
            | "break"
            | "do"
            | "else"
            | "elseif"
            | "end"
            | "false"
            | "for"
            | "function"
            | "if"
            | "in"
            | "local"
            | "nil"
            | "not"
            | "or"
            | "repeat"
            | "return"
            | "then"
            | "true"
            | "until"
            | "while"
    )
}

/// The length of the identifier at `at` in `bytes` (0 if none starts there).
fn identifier_len(bytes: &[u8], at: usize) -> usize {
    match bytes.get(at) {
        Some(&b) if is_name_start(b) => {
            1 + bytes[at + 1..]
                .iter()
                .take_while(|&&b| is_name_byte(b))
                .count()
        }
        _ => 0,
    }
}

/// The names a line of Lua may define (leniently: a function's name, a local's, any name
/// assigned to), so that a call of one is never taken for a call of an undefined name.
/// (`crawl_require("dlua/x.lua")` defines the names of that module; one levkit does not know
/// may define any name: `*`.) Only the names `keep` wants are copied into `out`, and `*`.
pub(super) fn defined_names(line: &str, keep: impl Fn(&str) -> bool, out: &mut Vec<String>) {
    // Byte scans: this runs on every line of Lua in the workspace.
    let code = &line[..find(line.as_bytes(), b"--", 0).unwrap_or(line.len())];
    // Only an `=`, a `,` list, `function`, `local` or `crawl_require` (its `q`) defines a name,
    // and most lines hold none of them: vectorised searches pass those over.
    if memchr::memchr3(b'=', b',', b'q', code.as_bytes()).is_none()
        && !holds_function_or_local(code.as_bytes())
    {
        return;
    }
    // A `q` is rare in Lua lines: the word is looked for only where there is one.
    if code.as_bytes().contains(&b'q')
        && let Some(at) = find(code.as_bytes(), b"crawl_require", 0)
    {
        let argument = code[at + "crawl_require".len()..]
            .trim_start()
            .trim_start_matches('(')
            .trim_start();
        let module = argument
            .strip_prefix(['"', '\''])
            .and_then(|m| m.split(['"', '\'']).next());
        match module.and_then(|m| LUA_MODULES.iter().find(|l| l.module == m)) {
            Some(found) => out.extend(
                found
                    .names
                    .split(' ')
                    .filter(|n| !n.is_empty() && keep(n))
                    .map(str::to_string),
            ),
            None => out.push("*".to_string()),
        }
    }
    let bytes = code.as_bytes();
    let mut previous = "";
    // Where the text not yet read starts: the end of the previous word.
    let mut from = 0;
    let mut i = 0;
    while i < bytes.len() {
        if !is_name_start(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && is_name_byte(bytes[i]) {
            i += 1;
        }
        let word = &code[start..i];
        let next = after_space(code, i);
        let assigned = bytes.get(next) == Some(&b'=') && bytes.get(next + 1) != Some(&b'=');
        let listed = bytes.get(next) == Some(&b',');
        // Asked in order of cost: most words define nothing.
        if assigned
            || listed
            || (matches!(previous, "function" | "local") && code[from..start].trim().is_empty())
        {
            // `x.name` and `x:name` are fields, not names.
            let field = start > 0 && matches!(bytes[start - 1], b'.' | b':');
            if !field && !is_keyword(word) && keep(word) {
                out.push(word.to_string());
            }
        }
        previous = word;
        from = i;
    }
}

/// Whether `code` holds `function` or `local`, looked for at their `c`, rarer in Lua lines than
/// their first letters.
fn holds_function_or_local(code: &[u8]) -> bool {
    memchr::memchr_iter(b'c', code).any(|at| {
        (code[..at].ends_with(b"fun") && code[at..].starts_with(b"ction"))
            || (code[..at].ends_with(b"lo") && code[at..].starts_with(b"cal"))
    })
}

/// Where `text` goes on after the whitespace at `at` (as `str::trim_start` sees it).
fn after_space(text: &str, at: usize) -> usize {
    let bytes = text.as_bytes();
    let mut i = at;
    while i < bytes.len() {
        match bytes[i] {
            b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r' => i += 1,
            b if b < 0x80 => return i,
            _ => return text.len() - text[i..].trim_start().len(),
        }
    }
    i
}

/// A call of a plain name by the vault's main chunk, outside any function it defines, so run
/// when crawl builds the vault.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LuaCall {
    pub name: String,
    /// The range of the name.
    pub range: TextRange,
    /// Inside an `if`, a loop or a `repeat`: run only on some builds.
    pub conditional: bool,
}

/// The names the vault's main chunk calls outside the functions it defines, of those `wanted`:
/// statements that start a line with a call of a plain name (`name(...)`, `name "..."`,
/// `name {...}`), or assign one's result (`local x = name(...)`).
pub(super) fn top_level_calls(vault: &Vault, wanted: impl Fn(&str) -> bool) -> Vec<LuaCall> {
    let lines = || {
        vault
            .lua
            .iter()
            .filter(|l| l.chunk == Chunk::Main)
            .flat_map(|l| &l.lines)
    };
    // Most vaults call only names that are not wanted (crawl's own): one look at each line's
    // call, whatever blocks it is in, tells whether following the blocks is worth it, and
    // from which line on.
    let Some(first) =
        lines().position(|line| line_call(&line.text).is_some_and(|(_, name)| wanted(name)))
    else {
        return Vec::new();
    };
    // The blocks open at the start of the line: `true` for a function's body.
    let mut open: Vec<bool> = Vec::new();
    let mut in_long = false;
    let mut out = Vec::new();
    for (n, line) in lines().enumerate() {
        if n >= first
            && !in_long
            && !open.contains(&true)
            && let Some((start, name)) = line_call(&line.text)
            && wanted(name)
        {
            let at = line.range.start() + TextSize::from(start as u32);
            out.push(LuaCall {
                name: name.to_string(),
                range: TextRange::at(at, TextSize::of(name)),
                conditional: !open.is_empty(),
            });
        }
        block_words(&line.text, &mut in_long, |word| match word {
            "end" | "until" => {
                open.pop();
            }
            // `for ... do` and `while ... do` open one block, at their `do`.
            word => open.push(word == "function"),
        });
    }
    out
}

/// The plain name a line of Lua starts by calling, directly or as the value it assigns, and
/// where the name starts. Read by offsets into the line: this runs on every line of a vault's
/// main chunk.
fn line_call(line: &str) -> Option<(usize, &str)> {
    let bytes = line.as_bytes();
    let mut start = after_space(line, 0);
    // `[local] x = name(...)`
    let target = if bytes[start..].starts_with(b"local ") {
        after_space(line, start + "local ".len())
    } else {
        start
    };
    let target_len = identifier_len(bytes, target);
    if target_len > 0 {
        let after = after_space(line, target + target_len);
        if bytes.get(after) == Some(&b'=') && bytes.get(after + 1) != Some(&b'=') {
            start = after_space(line, after + 1);
        }
    }
    let len = identifier_len(bytes, start);
    let name = &line[start..start + len];
    if len == 0 || is_keyword(name) {
        return None;
    }
    let after = &bytes[after_space(line, start + len)..];
    (matches!(after.first(), Some(b'(' | b'"' | b'\'' | b'{')) || after.starts_with(b"[["))
        .then_some((start, name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dcss::lua_syntax::surely_valid;

    /// Every Lua chunk of the corpus's vaults and files, as crawl loads them.
    fn corpus_chunks() -> Vec<String> {
        let Some(dir) = levkit_test_support::corpus("dcss-0.28.0", "Lua quick check against Lua")
        else {
            return Vec::new();
        };
        let mut files = Vec::new();
        let mut pending = vec![dir.join("des")];
        while let Some(dir) = pending.pop() {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    pending.push(path);
                } else if path.extension().is_some_and(|e| e == "des") {
                    files.push(path);
                }
            }
        }
        let mut chunks = Vec::new();
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap();
            for segment in levkit_syntax::dcss::segments(&text) {
                let piece = &text[segment.range];
                let flat = levkit_syntax::dcss::parse_segment_flat(piece);
                chunks.extend(chunk_texts(&levkit_model::dcss::lower_flat(
                    &piece.into(),
                    &flat,
                )));
            }
        }
        chunks
    }

    #[test]
    fn line_calls_are_read_at_the_start_or_after_an_assignment() {
        for (line, call) in [
            ("  setup(\"x\")", Some((2, "setup"))),
            ("local x = make {a = 1}", Some((10, "make"))),
            ("x=f'a'", Some((2, "f"))),
            ("local  y  =  g [[s]]", Some((13, "g"))),
            ("x == f(1)", None),
            ("if f(1) then", None),
            ("end", None),
            ("a.b(1)", None),
            ("x = y", None),
            ("local", None),
            ("", None),
            ("\u{a0}f(1)", Some((2, "f"))),
            ("f (1) -- comment", Some((0, "f"))),
        ] {
            assert_eq!(line_call(line), call, "{line:?}");
        }
    }

    /// A small deterministic generator (xorshift), so that a failure can be replayed.
    struct Draws(u64);

    impl Draws {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n.max(1) as u64) as usize
        }
    }

    /// One small edit of the kind a typo or a half-typed line makes.
    fn mutate(text: &str, draws: &mut Draws) -> String {
        const PIECES: &[&str] = &[
            "(", ")", "{", "}", "[", "]", "end", "then", "do", "local", "function", ",", "=", "==",
            ".", "..", "...", ":", ";", "\"", "'", "[[", "]]", "--", "\n", "break", "return", "x",
            "1", "1e", "0x", "not", "and", "if", "else", "until", "for", "in", "#", "~=", "\\",
        ];
        let bytes = text.as_bytes();
        let cut = |at: usize| {
            let mut at = at.min(text.len());
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            at
        };
        let at = cut(draws.below(text.len() + 1));
        match draws.below(3) {
            0 => {
                let piece = PIECES[draws.below(PIECES.len())];
                format!("{}{piece}{}", &text[..at], &text[at..])
            }
            1 => {
                let end = cut(at + 1 + draws.below(8));
                format!("{}{}", &text[..at], &text[end..])
            }
            _ => {
                // A whole line repeated or dropped.
                let line_start = bytes[..at]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |i| i + 1);
                let line_end = bytes[at..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(text.len(), |i| at + i + 1);
                if draws.below(2) == 0 {
                    format!("{}{}", &text[..line_start], &text[line_end..])
                } else {
                    format!("{}{}", &text[..line_end], &text[line_start..])
                }
            }
        }
    }

    /// Chunks near each of Lua's limits, at sizes on both sides of it: whatever the quick check
    /// accepts, Lua loads.
    #[test]
    fn the_quick_check_stays_inside_luas_limits() {
        let repeat = |piece: &str, n: usize, sep: &str| vec![piece; n].join(sep);
        type Shape = Box<dyn Fn(usize) -> String>;
        let shapes: Vec<(&str, Shape)> = vec![
            (
                "locals",
                Box::new(|n| (0..n).map(|i| format!("local v{i} = {i}\n")).collect()),
            ),
            (
                "upvalues",
                Box::new(|n| {
                    let locals: String = (0..n).map(|i| format!("local v{i} = {i}\n")).collect();
                    let uses: String = (0..n).map(|i| format!(" x = v{i}")).collect();
                    format!("{locals}return function(){uses} end")
                }),
            ),
            (
                "parentheses",
                Box::new(move |n| format!("x = {}1{}", repeat("(", n, ""), repeat(")", n, ""))),
            ),
            (
                "concatenation",
                Box::new(move |n| format!("x = {}", repeat("a", n, " .. "))),
            ),
            (
                "unary",
                Box::new(move |n| format!("x = {}1", repeat("- ", n, ""))),
            ),
            (
                "arguments",
                Box::new(move |n| format!("f({})", repeat("a", n, ", "))),
            ),
            (
                "nested calls",
                Box::new(move |n| format!("x = {}1{}", repeat("f(a, ", n, ""), repeat(")", n, ""))),
            ),
            (
                "tables",
                Box::new(move |n| format!("x = {}1{}", repeat("{a, ", n, ""), repeat("}", n, ""))),
            ),
            (
                "blocks",
                Box::new(move |n| {
                    format!(
                        "{} x = 1 {}",
                        repeat("if a then", n, " "),
                        repeat("end", n, " ")
                    )
                }),
            ),
            (
                "functions",
                Box::new(move |n| {
                    format!(
                        "{} {}",
                        repeat("f = function()", n, " "),
                        repeat("end", n, " ")
                    )
                }),
            ),
            (
                "assignment",
                Box::new(move |n| format!("{} = 1", repeat("a.b", n, ", "))),
            ),
        ];
        for (shape, chunk) in &shapes {
            for n in (1..=320).step_by(7) {
                let text = chunk(n);
                if surely_valid(&text) {
                    assert!(
                        load(&text).is_ok(),
                        "{shape} x{n}: accepted what Lua refuses"
                    );
                }
            }
        }
    }

    #[test]
    fn the_quick_check_never_accepts_what_lua_refuses() {
        let chunks = corpus_chunks();
        if chunks.is_empty() {
            return;
        }
        let mut accepted = 0;
        for chunk in &chunks {
            let quick = surely_valid(chunk);
            assert!(
                !quick || load(chunk).is_ok(),
                "accepted what Lua refuses:\n{chunk}"
            );
            accepted += usize::from(quick);
        }
        // It must also be worth having: it answers nearly every chunk Lua loads.
        assert!(
            accepted * 100 >= chunks.len() * 95,
            "the quick check accepted only {accepted} of {} chunks",
            chunks.len()
        );
        // LEVKIT_LUA_ROUNDS=N tries more (N rounds of mutations of every chunk).
        let rounds = std::env::var("LEVKIT_LUA_ROUNDS")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(8);
        let mut draws = Draws(0x9e37_79b9_7f4a_7c15);
        let (mut tried, mut refused) = (0, 0);
        for round in 0..rounds {
            for chunk in &chunks {
                let mut text = mutate(chunk, &mut draws);
                if round % 2 == 1 {
                    text = mutate(&text, &mut draws);
                }
                tried += 1;
                if surely_valid(&text) {
                    assert!(
                        load(&text).is_ok(),
                        "accepted what Lua refuses:\n{text}\n(mutated from)\n{chunk}"
                    );
                } else {
                    refused += 1;
                }
            }
        }
        eprintln!(
            "Lua quick check: {accepted} of {} corpus chunks accepted; {tried} mutations, {refused} left to Lua",
            chunks.len()
        );
    }
}
