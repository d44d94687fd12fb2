//! The hostile-client battery: the server driven as a buggy editor, a half-typed file and a
//! careless user would drive it. After each ordeal the server is alive, and what it says of
//! the final text equals what a fresh analysis of that text says (`levkit check`'s answer).
//! The framing and exit ordeals, which need the real process, are in the CLI's
//! `tests/lsp_stdio.rs`.

use std::time::Duration;

use levkit_ide::{AnalysisHost, AnalysisOptions};
use levkit_lsp::test_client::Client;
use serde_json::{Value, json};

async fn started() -> Client {
    let mut client = Client::start().await;
    client
        .request(
            "initialize",
            json!({ "processId": null, "rootUri": null, "capabilities": { "general": { "positionEncodings": ["utf-16"] } } }),
        )
        .await;
    client.notify("initialized", json!({})).await;
    client
}

/// A deterministic stream of numbers (no dependency, the same every run).
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// The client's own copy of a document, edited as LSP says: lines end at `\r\n`, `\n` or
/// `\r`, columns count UTF-16 units, positions past a line's end mean its end, positions past
/// the last line the end of the text, and a column inside a character its start.
fn offset_of(text: &str, line: u32, character: u32) -> usize {
    let mut current = 0;
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while current < line {
        if i >= bytes.len() {
            return text.len();
        }
        if bytes[i] == b'\n' || bytes[i] == b'\r' {
            let width = if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                2
            } else {
                1
            };
            i += width;
            current += 1;
            start = i;
        } else {
            i += 1;
        }
    }
    let mut units = 0;
    for (at, c) in text[start..].char_indices() {
        if c == '\n' || c == '\r' || units + c.len_utf16() as u32 > character {
            return start + at;
        }
        units += c.len_utf16() as u32;
    }
    text.len()
}

fn apply(text: &mut String, change: &Value) {
    let at = |p: &Value| {
        offset_of(
            text,
            p["line"].as_u64().unwrap() as u32,
            p["character"].as_u64().unwrap() as u32,
        )
    };
    let (a, b) = (at(&change["range"]["start"]), at(&change["range"]["end"]));
    let (start, end) = (a.min(b), a.max(b));
    text.replace_range(start..end, change["text"].as_str().unwrap());
}

/// What a fresh analysis says of `text` (as `levkit check --dialect` would, with the dialect
/// the editor's language id gives): each diagnostic's code and its UTF-16 range, sorted.
fn fresh_diagnostics(path: &str, language: &str, text: &str) -> Vec<String> {
    let mut host = AnalysisHost::new();
    host.set_options(AnalysisOptions::default());
    let file = host.set_file_bytes(path, text.as_bytes());
    let dialect =
        levkit_syntax::Dialect::from_language_id(language, std::path::Path::new(path), text);
    host.set_dialect_override(file, dialect);
    let analysis = host.analysis();
    let index = analysis.line_index(file).unwrap();
    let mut out: Vec<String> = analysis
        .diagnostics(file)
        .unwrap()
        .iter()
        .map(|d| {
            let s = index.line_col_utf16(text, d.range.start());
            let e = index.line_col_utf16(text, d.range.end());
            format!("{} {}:{}-{}:{}", d.code, s.line, s.col, e.line, e.col)
        })
        .collect();
    out.sort();
    out
}

fn published(diagnostics: &[Value]) -> Vec<String> {
    let mut out: Vec<String> = diagnostics
        .iter()
        .map(|d| {
            let r = &d["range"];
            format!(
                "{} {}:{}-{}:{}",
                d["code"].as_str().unwrap_or(""),
                r["start"]["line"],
                r["start"]["character"],
                r["end"]["line"],
                r["end"]["character"]
            )
        })
        .collect();
    out.sort();
    out
}

/// Pieces of text a clumsy typist produces, line breaks of every kind and wide characters
/// included.
const TYPING: &[&str] = &[
    "",
    "x",
    "M",
    "MONSTER:",
    "'d',",
    "\"jackal\"",
    "(3,4)",
    ",",
    ":",
    "\n",
    "\r\n",
    "\r",
    "é",
    "𝄞",
    "\t",
    "  ",
    "ENDMAP",
    "MAP\n",
    "[50%]",
    "#",
    "NAME: v\n",
    "BEGIN MONSTER\n",
    "\u{feff}",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_clumsy_edits_leave_the_server_agreeing_with_a_fresh_check() {
    let mut client = started().await;
    let mut dice = Dice(2026);
    let sources = [
        (
            "file:///battery/fortress.des",
            "fortress.des",
            include_str!("../../../test-data/examples/fortress.des"),
        ),
        (
            "file:///battery/mistakes.des",
            "mistakes.des",
            include_str!("../../../test-data/examples/mistakes.des"),
        ),
    ];
    for (uri, path, original) in sources {
        let mut text = original.to_string();
        client
            .notify("textDocument/didOpen", json!({ "textDocument": { "uri": uri, "languageId": "nethack-des", "version": 1, "text": text } }))
            .await;
        let lines = text.lines().count() as u64 + 3;
        for version in 2..5002 {
            // Positions anywhere, some past the end of their line or of the file.
            let mut position =
                || json!({ "line": dice.below(lines as usize), "character": dice.below(90) });
            let (start, end) = (position(), position());
            let change =
                json!({ "range": { "start": start, "end": end }, "text": dice.pick(TYPING) });
            apply(&mut text, &change);
            client
                .notify("textDocument/didChange", json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [change] }))
                .await;
            if version % 50 == 0 {
                client.drain(Duration::from_millis(1)).await;
            }
        }
        let last = client.diagnostics(uri, 5001).await;
        assert_eq!(
            published(&last),
            fresh_diagnostics(path, "nethack-des", &text),
            "{path}"
        );
        // The semantic tokens too: they cover every token of the text.
        let tokens = client
            .request(
                "textDocument/semanticTokens/full",
                json!({ "textDocument": { "uri": uri } }),
            )
            .await;
        assert!(tokens["data"].is_array());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn positions_and_documents_that_do_not_exist_get_answers_not_crashes() {
    let mut client = started().await;
    let uri = "file:///battery/small.des";
    client
        .notify("textDocument/didOpen", json!({ "textDocument": { "uri": uri, "languageId": "nethack-des", "version": 1, "text": "MAZE:\"s\",' '\n" } }))
        .await;
    // Edits to a document that was never opened are ignored.
    client
        .notify("textDocument/didChange", json!({ "textDocument": { "uri": "file:///battery/never.des", "version": 2 }, "contentChanges": [{ "text": "x" }] }))
        .await;
    for (line, character) in [(0, 0), (0, 9999), (9999, 0), (u32::MAX, u32::MAX)] {
        let at = json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } });
        for method in [
            "textDocument/hover",
            "textDocument/completion",
            "textDocument/definition",
            "textDocument/references",
        ] {
            let mut params = at.clone();
            if method == "textDocument/references" {
                params["context"] = json!({ "includeDeclaration": true });
            }
            let answer = client.request_once(method, params).await;
            assert!(
                answer.get("error").is_none(),
                "{method} at {line}:{character}: {answer}"
            );
        }
        let range = json!({ "start": { "line": line, "character": character }, "end": { "line": u32::MAX, "character": 0 } });
        for method in [
            "textDocument/codeAction",
            "textDocument/inlayHint",
            "textDocument/semanticTokens/range",
        ] {
            let mut params = json!({ "textDocument": { "uri": uri }, "range": range });
            if method == "textDocument/codeAction" {
                params["context"] = json!({ "diagnostics": [] });
            }
            let answer = client.request_once(method, params).await;
            assert!(answer.get("error").is_none(), "{method}: {answer}");
        }
    }
    // A document the server does not know is an error, not a crash.
    let answer = client
        .request_once("textDocument/hover", json!({ "textDocument": { "uri": "file:///battery/never.des" }, "position": { "line": 0, "character": 0 } }))
        .await;
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    // Unknown methods, `$/` ones included, are answered.
    for method in ["levkit/nothing", "$/levkit/nothing", "textDocument/nothing"] {
        let answer = client.request_once(method, json!({})).await;
        assert_eq!(answer["error"]["code"], -32601, "{method}: {answer}");
    }
    // Malformed parameters are an error answer.
    let answer = client
        .request_once("textDocument/hover", json!({ "textDocument": 42 }))
        .await;
    assert!(answer.get("error").is_some(), "{answer}");
    // And the server still works.
    let symbols = client
        .request(
            "textDocument/documentSymbol",
            json!({ "textDocument": { "uri": uri } }),
        )
        .await;
    assert_eq!(symbols[0]["name"], "s");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_during_edits_are_each_answered_or_told_content_modified() {
    let mut client = started().await;
    let uri = "file:///battery/busy.des";
    let mut text = include_str!("../../../test-data/examples/fortress.des").to_string();
    client
        .notify("textDocument/didOpen", json!({ "textDocument": { "uri": uri, "languageId": "nethack-des", "version": 1, "text": text } }))
        .await;
    let mut dice = Dice(7);
    let mut asked = Vec::new();
    for version in 2..202 {
        let position = json!({ "line": dice.below(30), "character": dice.below(30) });
        for method in [
            "textDocument/hover",
            "textDocument/completion",
            "textDocument/semanticTokens/full",
            "levkit/preview",
        ] {
            let params = match method {
                "textDocument/semanticTokens/full" | "levkit/preview" => {
                    json!({ "textDocument": { "uri": uri } })
                }
                _ => json!({ "textDocument": { "uri": uri }, "position": position }),
            };
            let id = 10_000 + asked.len() as i64;
            client
                .send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
                .await;
            asked.push(id);
        }
        let change =
            json!({ "range": { "start": position, "end": position }, "text": dice.pick(TYPING) });
        apply(&mut text, &change);
        client
            .notify("textDocument/didChange", json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [change] }))
            .await;
    }
    // Every request gets its answer: a result, or "content modified".
    let mut answered = std::collections::HashSet::new();
    while answered.len() < asked.len() {
        let message = tokio::time::timeout(Duration::from_secs(60), client.receive())
            .await
            .expect("every request is answered");
        let id = message.get("id").and_then(Value::as_i64);
        if message.get("method").is_some() || id.is_none_or(|id| id < 10_000) {
            client.notifications.push(message);
            continue;
        }
        let id = id.unwrap_or_default();
        if let Some(error) = message.get("error") {
            assert_eq!(error["code"], -32801, "{message}");
        }
        answered.insert(id);
    }
    let last = client.diagnostics(uri, 201).await;
    assert_eq!(
        published(&last),
        fresh_diagnostics("busy.des", "nethack-des", &text)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_dialect_survives_clumsy_typing() {
    let mut client = started().await;
    let mut dice = Dice(11);
    for (uri, language, text) in [
        (
            "file:///battery/vault.des",
            "dcss-des",
            "NAME: battery_vault\nTAGS: transparent\nDEPTH: D:2-5\nMONS: orc\nMAP\nxxxxx\nx.1.+\nxxxxx\nENDMAP\n",
        ),
        (
            "file:///battery/monster_desc.txt",
            "rlg327",
            "RLG327 MONSTER DESCRIPTION 1\n\nBEGIN MONSTER\nNAME Rat\nSYMB r\nCOLOR RED\nDESC\nA rat.\n.\nSPEED 10+2d4\nDAM 0+1d4\nHP 5+1d6\nABIL ERRATIC\nRRTY 50\nEND\n",
        ),
        (
            "file:///battery/dungeon.def",
            "nethack-dungeon",
            "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nALIGNMENT: unaligned\nLEVEL: \"rogue\" \"R\" @ (15, 4)\n",
        ),
    ] {
        let mut text = text.to_string();
        client
            .notify("textDocument/didOpen", json!({ "textDocument": { "uri": uri, "languageId": language, "version": 1, "text": text } }))
            .await;
        for version in 2..402 {
            let position = json!({ "line": dice.below(18), "character": dice.below(40) });
            let change = json!({ "range": { "start": position, "end": position }, "text": dice.pick(TYPING) });
            apply(&mut text, &change);
            client
                .notify("textDocument/didChange", json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [change] }))
                .await;
            if version % 50 == 0 {
                client.drain(Duration::from_millis(1)).await;
            }
        }
        let last = client.diagnostics(uri, 401).await;
        let path = uri.rsplit('/').next().unwrap();
        let fresh = fresh_diagnostics(path, language, &text);
        assert_eq!(published(&last), fresh, "{uri}");
        for method in [
            "textDocument/documentSymbol",
            "textDocument/foldingRange",
            "levkit/preview",
        ] {
            let answer = client
                .request_once(method, json!({ "textDocument": { "uri": uri } }))
                .await;
            assert!(
                answer.get("error").is_none_or(|e| e["code"] == -32801),
                "{method}: {answer}"
            );
        }
    }
}
