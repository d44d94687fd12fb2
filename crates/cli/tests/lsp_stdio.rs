//! `levkit lsp` over its real standard input and output, driven as a careless or hostile
//! client would: every request gets an answer, and the process exits as the specification
//! says, with the reason on standard error.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_levkit"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut server = Server {
            child,
            stdin,
            stdout,
        };
        server.send(&json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": { "processId": null, "capabilities": {} } }));
        assert_eq!(server.receive()["id"], 0);
        server.send(&json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }));
        server
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    fn send(&mut self, message: &Value) {
        let body = message.to_string();
        self.send_raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    /// The next message the server sends.
    fn receive(&mut self) -> Value {
        let mut length = 0;
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "the server stopped"
            );
            if line.trim().is_empty() {
                break;
            }
            if let Some(n) = line.trim().strip_prefix("Content-Length: ") {
                length = n.parse().unwrap();
            }
        }
        let mut body = vec![0; length];
        self.stdout.read_exact(&mut body).unwrap();
        serde_json::from_slice(&body).unwrap()
    }

    /// The answer to request `id`, skipping notifications.
    fn answer(&mut self, id: i64) -> Value {
        loop {
            let message = self.receive();
            if message["id"] == id && message.get("method").is_none() {
                return message;
            }
        }
    }

    /// Waits (at most 10 s) for the process to end: its status and what it said on stderr.
    fn finish(mut self) -> (i32, String) {
        drop(self.stdin.take());
        for _ in 0..1000 {
            if let Some(status) = self.child.try_wait().unwrap() {
                let mut stderr = String::new();
                self.child
                    .stderr
                    .take()
                    .unwrap()
                    .read_to_string(&mut stderr)
                    .unwrap();
                return (status.code().unwrap_or(-1), stderr);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        panic!("the server did not exit");
    }
}

#[test]
fn an_unknown_dollar_request_is_answered_method_not_found() {
    let mut server = Server::start();
    server.send(&json!({ "jsonrpc": "2.0", "id": 7, "method": "$/levkit/nothing", "params": {} }));
    let answer = server.answer(7);
    assert_eq!(answer["error"]["code"], -32601, "{answer}");
    // An unknown `$/` notification is ignored, as the specification allows.
    server.send(&json!({ "jsonrpc": "2.0", "method": "$/levkit/nothing", "params": {} }));
    server.send(&json!({ "jsonrpc": "2.0", "id": 8, "method": "shutdown" }));
    assert_eq!(server.answer(8)["result"], Value::Null);
    server.send(&json!({ "jsonrpc": "2.0", "method": "exit" }));
    assert_eq!(server.finish(), (0, String::new()));
}

#[test]
fn exit_without_shutdown_exits_1_and_says_why() {
    let mut server = Server::start();
    server.send(&json!({ "jsonrpc": "2.0", "method": "exit" }));
    let (status, stderr) = server.finish();
    assert_eq!(status, 1);
    assert!(stderr.contains("without `shutdown`"), "{stderr}");
}

#[test]
fn a_corrupt_frame_exits_1_and_says_why() {
    let mut server = Server::start();
    server.send_raw(b"Content-Type: nonsense\r\n\r\n{}");
    let (status, stderr) = server.finish();
    assert_eq!(status, 1);
    assert!(stderr.contains("not framed as LSP expects"), "{stderr}");
}

#[test]
fn a_closed_connection_exits_1_and_says_why() {
    let server = Server::start();
    let (status, stderr) = server.finish();
    assert_eq!(status, 1);
    assert!(stderr.contains("closed the connection"), "{stderr}");
}
