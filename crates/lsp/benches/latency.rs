//! Editor latency, through the real server over an in-memory pipe: from `didChange` to the
//! `publishDiagnostics` of that version for one-character edits of the largest corpus file
//! (median and p99 over 1,000 edits), hover and completion round trips, and the resident
//! memory with every corpus file open. Goal: at most 5 ms median per edit.

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
    runtime.block_on(async {
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
}
