//! One preview pipeline: `levkit preview --format json` and the language server's
//! `levkit/preview` give the same rows, cells and notes for every level of the NetHack corpus.

use std::path::{Path, PathBuf};
use std::process::Command;

use levkit_lsp::test_client::Client;
use serde_json::{Value, json};

fn cli_preview(file: &Path, level: Option<&str>) -> Value {
    let mut args = vec![
        "preview".to_string(),
        file.display().to_string(),
        "--format".into(),
        "json".into(),
        "--seed".into(),
        "1".into(),
    ];
    if let Some(level) = level {
        args.extend(["--level".into(), level.to_string()]);
    }
    let output = Command::new(env!("CARGO_BIN_EXE_levkit"))
        .args(&args)
        .output()
        .expect("levkit runs");
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("JSON")
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

#[tokio::test(flavor = "multi_thread")]
async fn the_cli_and_the_server_preview_every_corpus_level_alike() {
    let Some(dir) = levkit_test_support::corpus("nethack-3.4.3", "preview parity CLI/LSP") else {
        return;
    };
    let dir = dir.canonicalize().unwrap();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "des"))
        .collect();
    files.sort();
    let mut client = Client::start().await;
    client
        .request(
            "initialize",
            json!({ "processId": null, "rootUri": uri(&dir), "capabilities": {} }),
        )
        .await;
    client.notify("initialized", json!({})).await;
    let mut compared = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        client
            .notify(
                "textDocument/didOpen",
                json!({ "textDocument": { "uri": uri(file), "languageId": "nethack-des", "version": 1, "text": text } }),
            )
            .await;
        let first = cli_preview(file, None);
        let levels: Vec<String> = first["levels"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap().to_string())
            .collect();
        for level in &levels {
            let cli = cli_preview(file, Some(level));
            let lsp = client
                .request(
                    "levkit/preview",
                    json!({ "textDocument": { "uri": uri(file) }, "level": level, "seed": 1 }),
                )
                .await;
            assert_eq!(cli["generated"], json!(true), "{level}");
            for field in [
                "level", "rows", "cells", "notes", "legend", "regions", "heat",
            ] {
                assert_eq!(cli[field], lsp[field], "{level}: {field} differ");
            }
            compared += 1;
        }
    }
    assert_eq!(compared, 113, "the corpus has 113 levels");
}
