//! An in-memory LSP client for tests and benchmarks: it drives the real server over a pipe.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{
    AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, DuplexStream, ReadHalf, WriteHalf,
};

pub struct Client {
    reader: BufReader<ReadHalf<DuplexStream>>,
    writer: WriteHalf<DuplexStream>,
    next_id: i64,
    /// Notifications received while waiting for responses.
    pub notifications: Vec<Value>,
    /// The server's state, only for [`Client::server_text`].
    state: Arc<Mutex<crate::State>>,
}

impl Client {
    pub async fn start() -> Client {
        let (client_side, server_side) = tokio::io::duplex(1 << 20);
        let (server_read, server_write) = tokio::io::split(server_side);
        let (service, socket, _) = crate::service();
        let state = service.inner.inner().state.clone();
        tokio::spawn(
            tower_lsp_server::Server::new(server_read, server_write, socket).serve(service),
        );
        let (reader, writer) = tokio::io::split(client_side);
        Client {
            reader: BufReader::new(reader),
            writer,
            next_id: 0,
            notifications: Vec::new(),
            state,
        }
    }

    /// The text the server holds for `uri`, what its edits made of it (no request answers
    /// with a document's text; the document-sync fuzz target compares it with its own).
    pub fn server_text(&self, uri: &str) -> Option<String> {
        let uri: tower_lsp_server::ls_types::Uri = uri.parse().ok()?;
        let state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let file = state.files.by_uri.get(&uri).copied()?;
        let text = state.host.analysis().file_text(file).ok()?;
        Some(text.to_string())
    }

    pub async fn send(&mut self, message: Value) {
        let body = message.to_string();
        let framed = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        self.writer
            .write_all(framed.as_bytes())
            .await
            .expect("the in-memory pipe works");
    }

    pub async fn receive(&mut self) -> Value {
        let mut length = 0;
        loop {
            let mut line = String::new();
            self.reader
                .read_line(&mut line)
                .await
                .expect("the in-memory pipe works");
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                length = n.parse().expect("the in-memory pipe works");
            }
        }
        let mut body = vec![0; length];
        self.reader
            .read_exact(&mut body)
            .await
            .expect("the in-memory pipe works");
        serde_json::from_slice(&body).expect("the in-memory pipe works")
    }

    /// Sends a request and returns its result; "content modified" answers (a newer edit
    /// cancelled the query) are retried, as editors do.
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        for _ in 0..50 {
            let message = self.request_once(method, params.clone()).await;
            match message.get("error") {
                Some(error) if error["code"] == -32801 => {
                    tokio::time::sleep(Duration::from_millis(20)).await
                }
                Some(_) => panic!("{method} failed: {message}"),
                None => return message["result"].clone(),
            }
        }
        panic!("{method} was cancelled 50 times")
    }

    pub async fn request_once(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
            .await;
        loop {
            let message = tokio::time::timeout(Duration::from_secs(20), self.receive())
                .await
                .expect("a response in time");
            if message.get("id") == Some(&json!(id)) && message.get("method").is_none() {
                return message;
            }
            self.notifications.push(message);
        }
    }

    pub async fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }))
            .await;
    }

    /// Reads whatever the server sent until it has been quiet for `quiet`, keeping the
    /// notifications (so that a client sending many messages never fills the pipe).
    pub async fn drain(&mut self, quiet: Duration) {
        while let Ok(message) = tokio::time::timeout(quiet, self.receive()).await {
            self.notifications.push(message);
        }
    }

    /// Waits for diagnostics of `uri` published without a version (a file that is not open).
    pub async fn diagnostics_unversioned(&mut self, uri: &str) -> Vec<Value> {
        loop {
            if let Some(found) = self.notifications.iter().rev().find(|n| {
                n["method"] == "textDocument/publishDiagnostics"
                    && n["params"]["uri"] == uri
                    && n["params"].get("version").is_none_or(Value::is_null)
            }) {
                return found["params"]["diagnostics"]
                    .as_array()
                    .expect("the in-memory pipe works")
                    .clone();
            }
            let message = tokio::time::timeout(Duration::from_secs(20), self.receive())
                .await
                .expect("diagnostics in time");
            self.notifications.push(message);
        }
    }

    /// Waits for the diagnostics of `uri` at `version`, as an editor does, and answers how
    /// many there are (without copying them, which an editor does not do either: what the
    /// latency benchmark measures).
    pub async fn await_diagnostics(&mut self, uri: &str, version: i64) -> usize {
        loop {
            if let Some(found) = self.notifications.iter().rev().find(|n| {
                n["method"] == "textDocument/publishDiagnostics"
                    && n["params"]["uri"] == uri
                    && n["params"]["version"] == version
            }) {
                return found["params"]["diagnostics"]
                    .as_array()
                    .map_or(0, Vec::len);
            }
            let message = tokio::time::timeout(Duration::from_secs(20), self.receive())
                .await
                .expect("diagnostics in time");
            self.notifications.push(message);
        }
    }

    /// Waits for the diagnostics of `uri` at `version` (the latest received, if several).
    pub async fn diagnostics(&mut self, uri: &str, version: i64) -> Vec<Value> {
        self.diagnostics_such_that(uri, version, |_| true).await
    }

    /// Waits for diagnostics of `uri` at `version` that `wanted` accepts (the latest
    /// received, if several): a version is published again when its slow checks are done.
    pub async fn diagnostics_such_that(
        &mut self,
        uri: &str,
        version: i64,
        wanted: impl Fn(&[Value]) -> bool,
    ) -> Vec<Value> {
        loop {
            if let Some(found) = self.notifications.iter().rev().find(|n| {
                n["method"] == "textDocument/publishDiagnostics"
                    && n["params"]["uri"] == uri
                    && n["params"]["version"] == version
                    && n["params"]["diagnostics"]
                        .as_array()
                        .is_some_and(|d| wanted(d))
            }) {
                return found["params"]["diagnostics"]
                    .as_array()
                    .expect("the in-memory pipe works")
                    .clone();
            }
            let message = tokio::time::timeout(Duration::from_secs(20), self.receive())
                .await
                .expect("diagnostics in time");
            self.notifications.push(message);
        }
    }
}
