//! The server's document sync: a document opened, then edit scripts sent as `didChange`
//! (ranges anywhere, past line ends and past the end, backwards, full replacements, any line
//! breaks and characters outside the BMP, in UTF-16 or UTF-8 columns) through the in-process
//! client, and the same edits applied here to a `String` as LSP defines them. The server's
//! text must be the client's.
//!
//! Input: the document's first text, then a 0xFF byte (never in UTF-8), then the script,
//! read with `arbitrary`; a seed file without 0xFF is a document with no edits.

use std::sync::LazyLock;

use levkit_lsp::test_client::Client;
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use serde_json::{Value, json};

/// Position units, as the client offers them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    Utf8,
    Utf16,
}

/// One `contentChanges` entry.
#[derive(Debug, Clone)]
enum Change {
    Whole(String),
    Range {
        start: (u32, u32),
        end: (u32, u32),
        text: String,
    },
}

impl Change {
    fn json(&self) -> Value {
        match self {
            Change::Whole(text) => json!({ "text": text }),
            Change::Range { start, end, text } => json!({
                "range": {
                    "start": { "line": start.0, "character": start.1 },
                    "end": { "line": end.0, "character": end.1 },
                },
                "text": text,
            }),
        }
    }
}

/// Each line's start and the end of its content (before its line break), with LSP's line
/// breaks: `\r\n`, `\n` and `\r`.
fn lines(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let (mut start, mut i) = (0, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                out.push((start, i));
                i += 1;
                start = i;
            }
            b'\r' => {
                out.push((start, i));
                i += if bytes.get(i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                start = i;
            }
            _ => i += 1,
        }
    }
    out.push((start, bytes.len()));
    out
}

/// The offset of a position as LSP defines it: a column past the line's content is its end,
/// a line past the last is the end of the text; a column inside a character (which LSP
/// leaves open) is taken as that character's start, as levkit documents.
fn offset(text: &str, (line, column): (u32, u32), unit: Unit) -> usize {
    let lines = lines(text);
    let Some(&(start, end)) = lines.get(line as usize) else {
        return text.len();
    };
    let mut units = 0u32;
    for (i, c) in text[start..end].char_indices() {
        let width = match unit {
            Unit::Utf8 => c.len_utf8(),
            Unit::Utf16 => c.len_utf16(),
        } as u32;
        if column < units + width {
            return start + i;
        }
        units += width;
    }
    end
}

fn apply(text: &mut String, change: &Change, unit: Unit) {
    match change {
        Change::Whole(new) => *text = new.clone(),
        Change::Range {
            start,
            end,
            text: new,
        } => {
            let (a, b) = (offset(text, *start, unit), offset(text, *end, unit));
            text.replace_range(a.min(b)..a.max(b), new);
        }
    }
}

/// Pieces edits are made of: what a user types, line breaks of every kind, wide characters.
const PIECES: &[&str] = &[
    "a",
    "x",
    " ",
    "\t",
    ":",
    ",",
    "'",
    "\"",
    "(",
    ")",
    "1",
    "\n",
    "\r",
    "\r\n",
    "é",
    "𝄞",
    "\u{feff}",
    "MONSTER:'d',\"jackal\",(1,1)",
    "MAP",
    "ENDMAP",
    "NAME: v",
    "BEGIN MONSTER",
    "END",
    "--",
    "..",
    "|",
];

fn piece_text(u: &mut Unstructured) -> Result<String> {
    let mut text = String::new();
    for _ in 0..u.int_in_range(0..=4)? {
        text.push_str(u.choose(PIECES)?);
    }
    Ok(text)
}

fn position(u: &mut Unstructured, text: &str) -> Result<(u32, u32)> {
    let lines = lines(text);
    let line = u.int_in_range(0..=lines.len() as u32)?;
    let width = lines
        .get(line as usize)
        .map_or(0, |&(s, e)| text[s..e].encode_utf16().count() as u32);
    // Mostly on the line, sometimes past its end, rarely anywhere.
    let column = match u.int_in_range(0..=7)? {
        0 => u.arbitrary::<u32>()?,
        1 => width + u.int_in_range(1..=3)?,
        _ => u.int_in_range(0..=width)?,
    };
    Ok((line, column))
}

fn change(u: &mut Unstructured, text: &str) -> Result<Change> {
    if u.ratio(1, 16)? {
        return Ok(Change::Whole(piece_text(u)?));
    }
    let start = position(u, text)?;
    let end = if u.ratio(1, 3)? {
        start
    } else {
        position(u, text)?
    };
    Ok(Change::Range {
        start,
        end,
        text: piece_text(u)?,
    })
}

static RUNTIME: LazyLock<tokio::runtime::Runtime> = LazyLock::new(|| {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
});

const LANGUAGES: &[&str] = &["nethack-des", "nethack-dungeon", "rlg327", "dcss-des", ""];

pub fn run(data: &[u8]) {
    let (document, script) = match data.iter().position(|&b| b == 0xff) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, &[][..]),
    };
    let first = String::from_utf8_lossy(document).into_owned();
    let mut u = Unstructured::new(script);
    let unit = if u.arbitrary::<bool>().unwrap_or(false) {
        Unit::Utf8
    } else {
        Unit::Utf16
    };
    let language = u.choose(LANGUAGES).copied().unwrap_or("");
    let mut expected = first.clone();
    let mut batches: Vec<Vec<Change>> = Vec::new();
    while !u.is_empty() && batches.len() < 48 {
        let mut batch = Vec::new();
        for _ in 0..u.int_in_range(1..=3).unwrap_or(1) {
            let Ok(change) = change(&mut u, &expected) else {
                break;
            };
            apply(&mut expected, &change, unit);
            batch.push(change);
        }
        batches.push(batch);
    }

    let uri = "file:///fuzz/sync.des";
    let server = RUNTIME.block_on(async {
        let mut client = Client::start().await;
        let encoding = if unit == Unit::Utf8 { "utf-8" } else { "utf-16" };
        client
            .request(
                "initialize",
                json!({ "processId": null, "capabilities": { "general": { "positionEncodings": [encoding] } } }),
            )
            .await;
        client.notify("initialized", json!({})).await;
        client
            .notify(
                "textDocument/didOpen",
                json!({ "textDocument": { "uri": uri, "languageId": language, "version": 1, "text": first } }),
            )
            .await;
        for (version, batch) in (2..).zip(&batches) {
            let changes: Vec<Value> = batch.iter().map(Change::json).collect();
            client
                .notify(
                    "textDocument/didChange",
                    json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": changes }),
                )
                .await;
        }
        // Answered after every edit before it was applied (edits apply before any await).
        client
            .request("levkit/dialect", json!({ "textDocument": { "uri": uri } }))
            .await;
        client.server_text(uri)
    });
    let server = server.expect("the server knows the open document");
    assert!(
        server == expected,
        "the server's text differs from the client's after {:?}\nfirst: {first:?}\nserver: {server:?}\nclient: {expected:?}",
        batches
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_follow_lsp() {
        let text = "ab\r\né𝄞x\rz\n";
        assert_eq!(offset(text, (0, 9), Unit::Utf16), 2);
        assert_eq!(offset(text, (1, 1), Unit::Utf16), 6);
        assert_eq!(offset(text, (1, 2), Unit::Utf16), 6, "inside 𝄞: its start");
        assert_eq!(offset(text, (1, 3), Unit::Utf16), 10);
        assert_eq!(offset(text, (2, 0), Unit::Utf16), 12);
        assert_eq!(offset(text, (3, 0), Unit::Utf16), text.len());
        assert_eq!(offset(text, (9, 0), Unit::Utf16), text.len());
        assert_eq!(offset(text, (1, 3), Unit::Utf8), 6, "inside 𝄞: its start");
    }
}
