//! Editor latency, through the real server over an in-memory pipe: for the largest file of
//! each dialect with its whole corpus open (NetHack levels, dungeon.def, RLG327 descriptions,
//! DCSS vaults), from `didChange` to the `publishDiagnostics` of that version for
//! keystrokes that each leave a text not seen before (median and p99); the resident memory with each corpus open, and with
//! the DCSS corpus open after 10,000 edits; hover and completion round trips; and typing: 20
//! characters a second into castle.des with a preview open that asks again as the VS Code
//! panel does (one request at a time, the next 100 ms after the last answer drawn), measuring
//! keystroke to diagnostics and how often the preview is redrawn.
//! Goals: keystroke to diagnostics at most 2 ms median and 10 ms p99; at most 150 MB
//! resident with the DCSS corpus open after 10,000 edits; a redraw at most every 100 ms.
//!
//! Each figure is also printed as a `BENCH name key=value...` line, which `cargo xtask bench`
//! reads into its table. `LEVKIT_BENCH=typing` runs the typing alone, `LEVKIT_BENCH=quick`
//! makes fewer edits, and `LEVKIT_BENCH_DIALECT=rlg327` (dialect ids, separated by commas)
//! measures those corpora alone.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use levkit_lsp::test_client::Client;
use serde_json::json;

/// The allocator the `levkit` binary (which runs the server) is built with: measured here
/// as users run it.
#[global_allocator]
static ALLOCATOR: levkit_lsp::Allocator = levkit_lsp::Allocator;

/// A dialect's corpus: every file of it, and which one is edited.
struct Corpus {
    dialect: &'static str,
    files: Vec<(PathBuf, String)>,
    edited: usize,
}

fn files_under(dir: &Path, keep: &dyn Fn(&Path) -> bool, out: &mut Vec<(PathBuf, String)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(|e| e.ok()) {
        let path = entry.path();
        if path.is_dir() {
            files_under(&path, keep, out);
        } else if keep(&path)
            && let Ok(text) = std::fs::read_to_string(&path)
        {
            out.push((path, text));
        }
    }
}

fn has_extension(path: &Path, extensions: &[&str]) -> bool {
    path.extension()
        .is_some_and(|e| extensions.iter().any(|x| e == *x))
}

/// The corpora, each with its largest file of the dialect as the edited one.
fn corpora() -> Vec<Corpus> {
    let mut out = Vec::new();
    let corpus = |name: &str, what: &str| levkit_test_support::corpus(name, what);
    // DCSS first: its memory figure is then the server's, not what earlier corpora left.
    if let Some(dir) = corpus("dcss-0.28.0", "LSP latency benchmark (DCSS)") {
        let mut files = Vec::new();
        files_under(
            &dir.join("des"),
            &|p| has_extension(p, &["des"]),
            &mut files,
        );
        files.sort();
        if let Some(edited) = (0..files.len()).max_by_key(|&i| files[i].1.len()) {
            out.push(Corpus {
                dialect: "dcss-des",
                files,
                edited,
            });
        }
    }
    if let Some(dir) = corpus("nethack-3.4.3", "LSP latency benchmark (NetHack)") {
        let mut files = Vec::new();
        files_under(
            &dir,
            &|p| p.parent() == Some(&dir) && has_extension(p, &["des", "def"]),
            &mut files,
        );
        files.sort();
        let largest_des = (0..files.len())
            .filter(|&i| has_extension(&files[i].0, &["des"]))
            .max_by_key(|&i| files[i].1.len());
        let dungeon = files.iter().position(|(p, _)| has_extension(p, &["def"]));
        for (dialect, edited) in [("nethack-des", largest_des), ("nethack-dungeon", dungeon)] {
            if let Some(edited) = edited {
                out.push(Corpus {
                    dialect,
                    files: files.clone(),
                    edited,
                });
            }
        }
    }
    if let Some(dir) = corpus("rlg327", "LSP latency benchmark (RLG327)") {
        let mut files = Vec::new();
        for sub in ["monsters", "objects", "spec_examples"] {
            files_under(&dir.join(sub), &|p| has_extension(p, &["txt"]), &mut files);
        }
        files.sort();
        if let Some(edited) = (0..files.len()).max_by_key(|&i| files[i].1.len()) {
            out.push(Corpus {
                dialect: "rlg327",
                files,
                edited,
            });
        }
    }
    out
}

/// The median and 99th percentile, in milliseconds.
fn percentiles(mut samples: Vec<Duration>) -> (f64, f64) {
    samples.sort();
    let at = |q: f64| samples[((samples.len() as f64 - 1.0) * q).round() as usize];
    (at(0.5).as_secs_f64() * 1e3, at(0.99).as_secs_f64() * 1e3)
}

fn report(name: &str, samples: Vec<Duration>) {
    let count = samples.len();
    let (median, p99) = percentiles(samples);
    println!("{name:<48} median {median:>8.3} ms   p99 {p99:>8.3} ms   ({count} samples)");
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

fn uri_of(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// A server with every file of `corpus` open, each one's first diagnostics received.
async fn open(corpus: &Corpus) -> Client {
    let mut client = Client::start().await;
    client
        .request(
            "initialize",
            json!({ "processId": null, "capabilities": {} }),
        )
        .await;
    client.notify("initialized", json!({})).await;
    for (path, text) in &corpus.files {
        let uri = uri_of(path);
        client
            .notify("textDocument/didOpen", json!({ "textDocument": { "uri": uri, "languageId": "", "version": 1, "text": text } }))
            .await;
        client.diagnostics(&uri, 1).await;
    }
    client.notifications.clear();
    client
}

/// What a keystroke types: two of these after the end of the middle line, the first changing
/// every keystroke and the second every 62, so that 3,844 keystrokes give as many texts.
const TYPED: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/// `count` keystrokes in the edited file, each waited for until its diagnostics arrive: the
/// two characters after the end of the middle line typed over (the first keystroke of a
/// server, version 2, types them). Versions start at `first_version`; the times from each
/// edit to its diagnostics.
async fn keystrokes(
    client: &mut Client,
    corpus: &Corpus,
    first_version: i64,
    count: usize,
) -> Vec<Duration> {
    let (path, text) = &corpus.files[corpus.edited];
    let uri = uri_of(path);
    let lines: Vec<&str> = text.lines().collect();
    let line = lines.len() / 2;
    let end = lines.get(line).map_or(0, |l| l.encode_utf16().count());
    let mut samples = Vec::with_capacity(count);
    for version in first_version..first_version + count as i64 {
        // Each keystroke leaves a text the server has not seen: typing back a text of a
        // moment ago would be answered from memos, which someone typing new text never gets.
        let typed = (version - 2) as usize;
        let pair: String = [typed % TYPED.len(), typed / TYPED.len() % TYPED.len()]
            .iter()
            .map(|&i| TYPED[i] as char)
            .collect();
        let replaced = if version == 2 { end } else { end + 2 };
        let change = json!({ "range": { "start": { "line": line, "character": end }, "end": { "line": line, "character": replaced } }, "text": pair });
        let started = Instant::now();
        client
            .notify("textDocument/didChange", json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [change] }))
            .await;
        client.await_diagnostics(&uri, version).await;
        samples.push(started.elapsed());
        client.notifications.clear();
    }
    samples
}

fn main() {
    levkit_lsp::prefer_small_pages();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let mode = std::env::var("LEVKIT_BENCH").unwrap_or_default();
    let quick = mode == "quick";
    let mut corpora = corpora();
    if let Ok(only) = std::env::var("LEVKIT_BENCH_DIALECT") {
        corpora.retain(|c| only.split(',').any(|d| d == c.dialect));
    }
    if corpora.is_empty() {
        eprintln!("*** corpus not found: nothing measured ***");
        return;
    }
    if mode != "typing" {
        for corpus in &corpora {
            runtime.block_on(dialect_latency(corpus, quick));
        }
        if let Some(corpus) = corpora.iter().find(|c| c.dialect == "nethack-des") {
            runtime.block_on(hover_and_completion(corpus));
        }
    }
    if let Some(corpus) = corpora.iter().find(|c| c.dialect == "nethack-des")
        && let Some((path, text)) = corpus.files.iter().find(|(p, _)| p.ends_with("castle.des"))
    {
        runtime.block_on(typing(path, text));
    }
}

/// Keystroke latency in the largest file of a dialect with its corpus open; for DCSS, the
/// memory after 10,000 edits as well.
async fn dialect_latency(corpus: &Corpus, quick: bool) {
    let before = resident_kib();
    let mut client = open(corpus).await;
    let opened = resident_kib();
    let (path, text) = &corpus.files[corpus.edited];
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    if let (Some(before), Some(opened)) = (before, opened) {
        println!(
            "{}: {} files open: {} KiB more resident ({} KiB in all)",
            corpus.dialect,
            corpus.files.len(),
            opened.saturating_sub(before),
            opened
        );
    }
    let count = if quick { 100 } else { 1000 };
    let samples = keystrokes(&mut client, corpus, 2, count).await;
    let (median, p99) = percentiles(samples.clone());
    report(
        &format!(
            "{}: didChange -> diagnostics ({name}, {} KB)",
            corpus.dialect,
            text.len() / 1000
        ),
        samples,
    );
    println!(
        "BENCH lsp-keystroke dialect={} file={name} bytes={} open={} samples={count} median_ms={median:.3} p99_ms={p99:.3}",
        corpus.dialect,
        text.len(),
        corpus.files.len()
    );
    if corpus.dialect == "dcss-des" {
        let edits = if quick { 1000 } else { 10_000 };
        let more = edits - count;
        keystrokes(&mut client, corpus, 2 + count as i64, more).await;
        if let Some(now) = resident_kib() {
            println!(
                "{}: {} KiB resident after {edits} edits",
                corpus.dialect, now
            );
            println!(
                "BENCH lsp-memory dialect={} open={} edits={edits} rss_mib={:.1}",
                corpus.dialect,
                corpus.files.len(),
                now as f64 / 1024.0
            );
        }
    }
    // The server stops its background work, which would otherwise run on into the next
    // corpus's measurements.
    client.request("shutdown", serde_json::Value::Null).await;
}

/// Hover and completion round trips in the largest NetHack level.
async fn hover_and_completion(corpus: &Corpus) {
    let mut client = open(corpus).await;
    let (path, text) = &corpus.files[corpus.edited];
    let uri = uri_of(path);
    let line = text
        .lines()
        .position(|l| l.starts_with("MONSTER"))
        .unwrap_or(0);
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
