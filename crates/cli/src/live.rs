//! `levkit preview --watch` and `--serve`: the preview kept live outside an editor plugin.
//! Both poll the file (every save, by any editor, is a change of its bytes); `--watch` redraws
//! in the terminal, `--serve` serves the VS Code panel's page on a loopback port and tells the
//! browser of each change with server-sent events. The server is a few lines over
//! `std::net`: one thread per connection, nothing but GET.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use levkit_ide::{AnalysisHost, Preview, PreviewRequest};

use crate::{EXIT_OK, EXIT_TROUBLE};

/// How often the file is looked at.
const POLL: Duration = Duration::from_millis(100);

/// The page the VS Code extension shows, and what makes it work in a plain browser.
const PAGE: &str = include_str!("../../../editors/vscode/media/preview.html");
const PAGE_SCRIPT: &str = include_str!("../../../editors/vscode/media/preview.js");
const PAGE_STYLE: &str = include_str!("../../../editors/vscode/media/preview.css");
const SHIM: &str = include_str!("serve.js");

/// The most builds sampled heat is counted over.
const MAX_SAMPLE: u32 = 1000;

/// What every preview of the session shares: the file and the command line's choices.
#[derive(Clone)]
pub struct Session {
    pub file: PathBuf,
    pub request: PreviewRequest,
}

impl Session {
    /// The preview of the file as it is on disk now (`None` when it cannot be read).
    fn preview(&self, request: &PreviewRequest) -> Result<Preview, String> {
        let bytes = levkit_files::read_named(&self.file)
            .map_err(|e| format!("cannot read {}: {e}", self.file.display()))?;
        let mut host = AnalysisHost::new();
        let file = host.set_file_bytes(self.file.clone(), &bytes);
        crate::preview::add_preview_inputs(&mut host, file);
        host.analysis()
            .preview(file, request)
            .map_err(|_| "the analysis was cancelled".to_string())
    }
}

/// The file's bytes each time they change, from a polling thread; `version` counts changes.
struct Changes {
    version: Mutex<u64>,
    changed: Condvar,
}

fn watch_file(path: PathBuf) -> Arc<Changes> {
    let changes = Arc::new(Changes {
        version: Mutex::new(0),
        changed: Condvar::new(),
    });
    let shared = Arc::clone(&changes);
    // Saves are seen by the file's time and size, so the file is read only when it changed.
    let stamp = |path: &PathBuf| {
        std::fs::metadata(path)
            .ok()
            .map(|m| (m.modified().ok(), m.len()))
    };
    // Taken before the first picture is drawn, so that a save made while it is drawn is a
    // change.
    let mut last = stamp(&path);
    std::thread::spawn(move || {
        loop {
            std::thread::sleep(POLL);
            let now = stamp(&path);
            if now != last {
                last = now;
                let mut version = shared.version.lock().unwrap_or_else(|p| p.into_inner());
                *version += 1;
                shared.changed.notify_all();
            }
        }
    });
    changes
}

impl Changes {
    fn current(&self) -> u64 {
        *self.version.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Waits for a version after `seen`, up to `timeout`; the version then.
    fn after(&self, seen: u64, timeout: Duration) -> u64 {
        let guard = self.version.lock().unwrap_or_else(|p| p.into_inner());
        let (guard, _) = self
            .changed
            .wait_timeout_while(guard, timeout, |v| *v == seen)
            .unwrap_or_else(|p| p.into_inner());
        *guard
    }
}

/// `--watch`: the picture in the terminal, redrawn after every save. A level that stops
/// building, or cards or an overview whose text has an error, keeps its last whole picture,
/// under the error.
pub fn watch(session: &Session, colour: bool) -> u8 {
    let changes = watch_file(session.file.clone());
    let mut last_good: Option<String> = None;
    let mut seen = u64::MAX;
    loop {
        let version = if seen == u64::MAX {
            changes.current()
        } else {
            changes.after(seen, Duration::from_secs(3600))
        };
        if version == seen {
            continue;
        }
        seen = version;
        let mut screen = String::from("\x1b[2J\x1b[H");
        match session.preview(&session.request) {
            Err(problem) => screen.push_str(&format!("levkit: {problem}\n")),
            Ok(preview) => {
                screen.push_str(&format!("{}\n", preview.title().unwrap_or_default()));
                let error = preview.error().map(ToString::to_string);
                let drawn = drawing(&preview, colour);
                let notes: String = preview
                    .notes()
                    .iter()
                    .map(|note| format!("note: {note}\n"))
                    .collect();
                match (&error, &last_good) {
                    (Some(error), Some(old)) => {
                        screen.push_str(&format!(
                            "{error}\nout of date: the last picture built, until the error is fixed\n{old}"
                        ));
                    }
                    (Some(error), None) => screen.push_str(&format!("{error}\n{drawn}{notes}")),
                    (None, _) => {
                        let picture = format!("{drawn}{notes}");
                        if preview.is_whole() {
                            last_good = Some(picture.clone());
                        }
                        screen.push_str(&picture);
                    }
                }
            }
        }
        screen.push_str(&format!(
            "\nwatching {} (Ctrl-C to stop)\n",
            session.file.display()
        ));
        let mut out = std::io::stdout().lock();
        if out
            .write_all(screen.as_bytes())
            .and_then(|()| out.flush())
            .is_err()
        {
            return EXIT_OK;
        }
    }
}

/// A preview as text for the terminal: the picture (in colour), the cards, or the overview.
fn drawing(preview: &Preview, colour: bool) -> String {
    match preview {
        Preview::Level(level) => match &level.picture {
            Some(picture) if colour => picture.ansi(),
            Some(picture) => picture.text(),
            None => level
                .rows
                .iter()
                .map(|r| format!("{}\n", r.trim_end()))
                .collect(),
        },
        Preview::Cards(cards) => cards
            .cards
            .iter()
            .map(|card| {
                let details: Vec<String> = card
                    .details
                    .iter()
                    .map(|d| format!("{} {}", d.label, d.value))
                    .collect();
                format!(
                    "{} {}: {}\n",
                    card.glyph.as_deref().unwrap_or(" "),
                    card.name.as_deref().unwrap_or(""),
                    details.join(", ")
                )
            })
            .collect(),
        Preview::Dungeon(dungeon) => dungeon.overview.text(),
        Preview::Nothing(_) => String::new(),
    }
}

/// `--serve`: the preview page on `127.0.0.1:port` (0: any free port), live.
pub fn serve(session: Session, port: u16) -> u8 {
    let listener = match TcpListener::bind(("127.0.0.1", port)) {
        Ok(listener) => listener,
        Err(error) => {
            eprintln!("levkit: cannot listen on 127.0.0.1:{port}: {error}");
            return EXIT_TROUBLE;
        }
    };
    let Ok(address) = listener.local_addr() else {
        return EXIT_TROUBLE;
    };
    eprintln!(
        "levkit: serving the preview of {} at http://{address}/ (Ctrl-C to stop)",
        session.file.display()
    );
    let changes = watch_file(session.file.clone());
    let session = Arc::new(session);
    for stream in listener.incoming().flatten() {
        let (session, changes) = (Arc::clone(&session), Arc::clone(&changes));
        std::thread::spawn(move || {
            let _ = respond(stream, &session, &changes, address.port());
        });
    }
    EXIT_OK
}

fn respond(
    mut stream: TcpStream,
    session: &Session,
    changes: &Changes,
    port: u16,
) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    let mut host = None;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.eq_ignore_ascii_case("host")
        {
            host = Some(value.trim().to_string());
        }
    }
    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    // Only pages asked for by this machine's own name: another site's script that resolves
    // its name to 127.0.0.1 (DNS rebinding) gets nothing.
    let local = host.as_deref().is_some_and(|h| {
        [format!("127.0.0.1:{port}"), format!("localhost:{port}")].contains(&h.to_string())
    });
    if !local {
        return send(
            &mut stream,
            "403 Forbidden",
            "text/plain",
            b"levkit serves 127.0.0.1 only\n",
        );
    }
    if method != "GET" {
        return send(
            &mut stream,
            "405 Method Not Allowed",
            "text/plain",
            b"GET only\n",
        );
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    match path {
        "/" | "/index.html" => send(
            &mut stream,
            "200 OK",
            "text/html; charset=utf-8",
            page().as_bytes(),
        ),
        "/preview.js" => send(
            &mut stream,
            "200 OK",
            "text/javascript; charset=utf-8",
            PAGE_SCRIPT.as_bytes(),
        ),
        "/preview.css" => send(
            &mut stream,
            "200 OK",
            "text/css; charset=utf-8",
            PAGE_STYLE.as_bytes(),
        ),
        "/serve.js" => send(
            &mut stream,
            "200 OK",
            "text/javascript; charset=utf-8",
            SHIM.as_bytes(),
        ),
        "/preview.json" => {
            let request = request_for(session, query);
            match session.preview(&request) {
                Ok(preview) => {
                    let mut value = serde_json::to_value(&preview).unwrap_or_default();
                    if let Some(object) = value.as_object_mut() {
                        object.insert("uri".into(), file_uri(&session.file).into());
                    }
                    send(
                        &mut stream,
                        "200 OK",
                        "application/json",
                        value.to_string().as_bytes(),
                    )
                }
                Err(problem) => send(
                    &mut stream,
                    "500 Internal Server Error",
                    "text/plain",
                    problem.as_bytes(),
                ),
            }
        }
        "/events" => events(stream, changes),
        _ => send(&mut stream, "404 Not Found", "text/plain", b"not found\n"),
    }
}

/// The page as the extension serves it, with the browser's stand-in for the editor, and a
/// policy that lets it load its own files.
fn page() -> String {
    PAGE.replace(
        "default-src 'none'",
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'",
    )
    .replace(
        "<script src=\"preview.js\"></script>",
        "<script src=\"serve.js\"></script>\n<script src=\"preview.js\"></script>",
    )
}

/// The command line's request, with what the page chose (`level`, `seed`, `sample`: how many
/// builds, from the seed shown).
fn request_for(session: &Session, query: &str) -> PreviewRequest {
    let mut request = session.request.clone();
    let mut sample = None;
    for pair in query.split('&') {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let value = percent_decoded(value);
        match key {
            "level" if !value.is_empty() => request.level = Some(value),
            "seed" => request.seed = value.parse().unwrap_or(request.seed),
            "sample" => sample = value.parse::<u32>().ok().filter(|n| *n > 0),
            _ => {}
        }
    }
    if let Some(count) = sample {
        let last = request.seed.saturating_add(count.min(MAX_SAMPLE) - 1);
        request.sample = Some((request.seed, last));
    }
    request
}

fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let hex = |b: u8| char::from(b).to_digit(16).map(|d| d as u8);
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%')
            .then(|| Some(hex(*bytes.get(i + 1)?)? * 16 + hex(*bytes.get(i + 2)?)?))
            .flatten();
        match (bytes[i], escaped) {
            (_, Some(byte)) => {
                out.push(byte);
                i += 2;
            }
            (b'+', None) => out.push(b' '),
            (byte, None) => out.push(byte),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn file_uri(path: &Path) -> String {
    let absolute = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    format!("file://{}", absolute.display())
}

/// Server-sent events: `changed` after every change of the file, a comment now and then to
/// notice a browser that went away.
fn events(mut stream: TcpStream, changes: &Changes) -> std::io::Result<()> {
    stream.write_all(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: keep-alive\r\n\r\nretry: 1000\n\n",
    )?;
    stream.flush()?;
    let mut seen = changes.current();
    loop {
        let now = changes.after(seen, Duration::from_secs(15));
        if now == seen {
            stream.write_all(b": still here\n\n")?;
        } else {
            seen = now;
            stream.write_all(format!("event: changed\ndata: {now}\n\n").as_bytes())?;
        }
        stream.flush()?;
    }
}

fn send(
    stream: &mut TcpStream,
    status: &str,
    content_type: &str,
    body: &[u8],
) -> std::io::Result<()> {
    write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    stream.write_all(body)?;
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_are_decoded() {
        assert_eq!(percent_decoded("soko1-1"), "soko1-1");
        assert_eq!(percent_decoded("a%20b+c%2"), "a b c%2");
        assert_eq!(percent_decoded("%é%4"), "%é%4");
        assert_eq!(percent_decoded("%E2%80%94"), "—");
    }

    #[test]
    fn the_page_loads_its_stand_in_for_the_editor_first() {
        let page = page();
        let shim = page.find("serve.js").expect("the stand-in");
        assert!(
            shim < page
                .find("<script src=\"preview.js\"")
                .expect("the page's script")
        );
        assert!(page.contains("script-src 'self'"));
    }
}
