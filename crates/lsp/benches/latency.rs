//! Editor latency, through the real server over an in-memory pipe: from `didChange` to the
//! `publishDiagnostics` of that version for one-character edits of the largest corpus file
//! (median and p99 over 1,000 edits), hover and completion round trips, the resident
//! memory with every corpus file open, and typing: 20 characters a second into castle.des
//! with a preview open that asks again as the VS Code panel does (one request at a time, the
//! next 100 ms after the last answer drawn), measuring keystroke to diagnostics and how often the preview is redrawn.
//! Goals: at most 5 ms median per edit, 2 ms while typing; a redraw at most every 100 ms.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use levkit_lsp::test_client::Client;
use serde_json::json;

fn corpus() -> Vec<(PathBuf, String)> {
    let Some(dir) = levkit_test_support::corpus("nethack-3.4.3", "LSP latency benchmark") else {
        return Vec::new();
    };
    let mut files: Vec<(PathBuf, String)> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "des" || e == "def"))
                .filter_map(|p| std::fs::read_to_string(&p).ok().map(|t| (p, t)))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

fn report(name: &str, mut samples: Vec<Duration>) {
    samples.sort();
    let at = |q: f64| samples[((samples.len() as f64 - 1.0) * q).round() as usize];
    println!(
        "{name:<32} median {:>8.3} ms   p99 {:>8.3} ms   ({} samples)",
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        samples.len()
    );
}

fn resident_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status.lines().find_map(|l| {
        l.strip_prefix("VmRSS:")?
            .trim()
            .strip_suffix(" kB")?
            .parse()
            .ok()
    })
}

fn main() {
    let files = corpus();
    if files.is_empty() {
        eprintln!("*** corpus not found: nothing measured ***");
        return;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    // `LEVKIT_BENCH=typing` measures typing alone.
    let only_typing = std::env::var("LEVKIT_BENCH").is_ok_and(|b| b == "typing");
    runtime.block_on(async {
        if only_typing {
            return;
        }
        let before = resident_kib();
        let mut client = Client::start().await;
        client.request("initialize", json!({ "processId": null, "capabilities": {} })).await;
        client.notify("initialized", json!({})).await;
        for (path, text) in &files {
            let uri = format!("file://{}", path.display());
            client
                .notify("textDocument/didOpen", json!({ "textDocument": { "uri": uri, "languageId": "", "version": 1, "text": text } }))
                .await;
            client.diagnostics(&uri, 1).await;
        }
        let after = resident_kib();
        if let (Some(before), Some(after)) = (before, after) {
            println!("memory with {} corpus files open: {} KiB more resident ({} KiB in all)", files.len(), after - before, after);
        }

        let (path, text) = files.iter().max_by_key(|(_, t)| t.len()).expect("a file");
        let uri = format!("file://{}", path.display());
        // Edit inside the first comment line so the file stays valid: insert, then delete.
        let mut samples = Vec::new();
        for version in 2..1002 {
            let change = if version % 2 == 0 {
                json!({ "range": { "start": { "line": 0, "character": 1 }, "end": { "line": 0, "character": 1 } }, "text": "x" })
            } else {
                json!({ "range": { "start": { "line": 0, "character": 1 }, "end": { "line": 0, "character": 2 } }, "text": "" })
            };
            let started = Instant::now();
            client
                .notify("textDocument/didChange", json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [change] }))
                .await;
            client.diagnostics(&uri, version).await;
            samples.push(started.elapsed());
            client.notifications.clear();
        }
        report(&format!("didChange -> diagnostics ({} KB)", text.len() / 1000), samples);
        if let Some(now) = resident_kib() {
            println!("memory after 1,000 edits: {now} KiB resident");
        }

        let line = text.lines().position(|l| l.starts_with("MONSTER")).unwrap_or(0);
        let mut hovers = Vec::new();
        let mut completions = Vec::new();
        for _ in 0..200 {
            let started = Instant::now();
            client
                .request("textDocument/hover", json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": 2 } }))
                .await;
            hovers.push(started.elapsed());
            let started = Instant::now();
            client
                .request("textDocument/completion", json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": 0 } }))
                .await;
            completions.push(started.elapsed());
        }
        report("hover", hovers);
        report("completion (statement keywords)", completions);
    });
    if let Some((path, text)) = files.iter().find(|(p, _)| p.ends_with("castle.des")) {
        runtime.block_on(typing(path, text));
    }
}

/// Framed JSON-RPC over an in-memory pipe, read by its own task so that keystrokes, answers
/// and notifications interleave as they do with an editor.
struct Wire {
    writer: tokio::io::WriteHalf<tokio::io::DuplexStream>,
    incoming: tokio::sync::mpsc::UnboundedReceiver<(Instant, serde_json::Value)>,
}

impl Wire {
    fn start() -> Wire {
        use tokio::io::{AsyncBufReadExt, AsyncReadExt};
        let (client_side, server_side) = tokio::io::duplex(1 << 22);
        let (server_read, server_write) = tokio::io::split(server_side);
        let (service, socket, _) = levkit_lsp::service();
        tokio::spawn(
            tower_lsp_server::Server::new(server_read, server_write, socket).serve(service),
        );
        let (reader, writer) = tokio::io::split(client_side);
        let (send, incoming) = tokio::sync::mpsc::unbounded_channel();
        tokio::spawn(async move {
            let mut reader = tokio::io::BufReader::new(reader);
            loop {
                let mut length = 0;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).await.unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        length = n.parse().unwrap_or(0);
                    }
                }
                let mut body = vec![0; length];
                if reader.read_exact(&mut body).await.is_err() {
                    return;
                }
                let Ok(message) = serde_json::from_slice(&body) else {
                    return;
                };
                if send.send((Instant::now(), message)).is_err() {
                    return;
                }
            }
        });
        Wire { writer, incoming }
    }

    async fn send(&mut self, message: serde_json::Value) {
        use tokio::io::AsyncWriteExt;
        let body = message.to_string();
        let framed = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        self.writer
            .write_all(framed.as_bytes())
            .await
            .expect("the pipe works");
    }
}

/// 20 characters a second typed into castle.des (a statement, character by character, so
/// that most states are broken), with a preview open that asks again after each
/// `levkit/previewChanged`, one request at a time and at most every 100 ms.
async fn typing(path: &std::path::Path, text: &str) {
    const KEYSTROKES: usize = 200;
    const TYPED: &str = "MONSTER:'L',\"master lich\",(20,10)\n";
    let uri = format!("file://{}", path.display());
    let mut wire = Wire::start();
    wire.send(json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "processId": null, "capabilities": {} } })).await;
    // Nothing before the server has answered `initialize` (it drops notifications before).
    while let Some((_, message)) = wire.incoming.recv().await {
        if message["id"] == 1 {
            break;
        }
    }
    wire.send(json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }))
        .await;
    wire.send(json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": { "textDocument": { "uri": uri, "languageId": "nethack-des", "version": 1, "text": text } } })).await;
    // Where the typing goes: a new line before the first DOOR statement (made first, as a
    // user presses Enter before typing).
    let line = text
        .lines()
        .position(|l| l.starts_with("DOOR"))
        .unwrap_or(0);
    wire.send(json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": { "textDocument": { "uri": uri, "version": 1 }, "contentChanges": [{ "range": { "start": { "line": line, "character": 0 }, "end": { "line": line, "character": 0 } }, "text": "\n" }] } })).await;
    let typed: Vec<char> = TYPED.chars().cycle().take(KEYSTROKES).collect();
    let (mut row, mut column) = (line, 0);
    let mut sent_at: Vec<Instant> = Vec::new();
    let mut latencies: Vec<Duration> = Vec::new();
    let mut last_seen = 0i64;
    let mut preview_asked: Option<(i64, Instant)> = None;
    let mut preview_wanted = false;
    let mut last_preview = Instant::now() - Duration::from_secs(1);
    let mut redraws: Vec<Instant> = Vec::new();
    let mut next_id = 100;
    let mut ticker = tokio::time::interval(Duration::from_millis(50));
    let started = Instant::now();
    loop {
        tokio::select! {
            _ = ticker.tick(), if sent_at.len() < KEYSTROKES => {
                let c = typed[sent_at.len()];
                let version = sent_at.len() as i64 + 2;
                let change = json!({ "range": { "start": { "line": row, "character": column }, "end": { "line": row, "character": column } }, "text": c.to_string() });
                if c == '\n' { row += 1; column = 0; } else { column += 1; }
                sent_at.push(Instant::now());
                wire.send(json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": { "textDocument": { "uri": uri, "version": version }, "contentChanges": [change] } })).await;
            }
            Some((at, message)) = wire.incoming.recv() => {
                if std::env::var_os("LEVKIT_BENCH_TRACE").is_some() {
                    eprintln!("{}", message.to_string().chars().take(200).collect::<String>());
                }
                if message["method"] == "textDocument/publishDiagnostics" {
                    if let Some(version) = message["params"]["version"].as_i64().filter(|v| *v >= 2) {
                        latencies.push(at - sent_at[(version - 2) as usize]);
                        last_seen = last_seen.max(version);
                    }
                } else if message["method"] == "levkit/previewChanged" {
                    preview_wanted = true;
                } else if preview_asked.is_some_and(|(id, _)| message["id"] == id) {
                    if message.get("result").is_some() {
                        redraws.push(at);
                    }
                    // The panel's pacing counts from the last answer drawn.
                    last_preview = at;
                    preview_asked = None;
                }
                if last_seen == KEYSTROKES as i64 + 1 && preview_asked.is_none() && !preview_wanted {
                    break;
                }
            }
            _ = tokio::time::sleep(Duration::from_millis(5)) => {}
        }
        // The panel's pacing: one preview request at a time, 100 ms after the last drawn.
        if preview_wanted
            && preview_asked.is_none()
            && last_preview.elapsed() >= Duration::from_millis(100)
        {
            preview_wanted = false;
            next_id += 1;
            last_preview = Instant::now();
            preview_asked = Some((next_id, last_preview));
            wire.send(json!({ "jsonrpc": "2.0", "id": next_id, "method": "levkit/preview", "params": { "textDocument": { "uri": uri }, "seed": 1 } })).await;
        }
        if started.elapsed() > Duration::from_secs(60) {
            eprintln!("typing: gave up after 60 s");
            break;
        }
    }
    // A keystroke whose analysis a newer one cancelled is published by the newer one.
    println!(
        "typing 20/s, preview open: {} of {KEYSTROKES} keystrokes got their own diagnostics",
        latencies.len()
    );
    if !latencies.is_empty() {
        report(
            "typing 20/s, preview open: keystroke -> diagnostics",
            latencies,
        );
    }
    let gaps: Vec<Duration> = redraws.windows(2).map(|w| w[1] - w[0]).collect();
    let seconds = (sent_at.last().copied().unwrap_or(started) - started).as_secs_f64();
    println!(
        "typing 20/s, preview open: {} redraws in {seconds:.1} s ({:.1} a second), at least {:.0} ms apart",
        redraws.len(),
        redraws.len() as f64 / seconds.max(0.001),
        gaps.iter().min().map_or(0.0, |d| d.as_secs_f64() * 1e3)
    );
}
