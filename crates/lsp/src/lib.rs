//! `levkit lsp`: the language server. Documents live in `levkit-ide`'s [`AnalysisHost`];
//! every feature is asked of an [`Analysis`] snapshot, off the protocol loop, and given up
//! (cancelled) when an edit arrives. This crate only converts between LSP and `ide` data.

mod allocator;
mod convert;
mod handlers;
#[doc(hidden)]
pub mod test_client;
mod transport;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use levkit_diagnostics::PositionEncoding;
use levkit_ide::{Analysis, AnalysisHost, Cancelled, FileId};
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::Uri;
use tower_lsp_server::{Client, LspService, Server};

pub use allocator::Allocator;
use convert::Lines;

/// Serves the protocol on standard input and output until the client exits; the exit status
/// the specification asks for (0 after `shutdown` and `exit`, else 1, with the reason on
/// standard error).
pub async fn run_stdio() -> u8 {
    let (service, socket, session) = service();
    let input = transport::Input {
        inner: tokio::io::stdin(),
        session: session.clone(),
    };
    Server::new(input, tokio::io::stdout(), socket)
        .serve(service)
        .await;
    let (status, reason) = session.outcome();
    if let Some(reason) = reason {
        eprintln!("levkit lsp: stopping: {reason}");
    }
    status
}

/// Keeps the process on small memory pages from now on. A server runs all day, and the
/// allocator's huge pages (which make a batch `levkit check` a fifth faster, with fewer page
/// faults) kept a third more memory resident after a day of edits. Call it before the server
/// starts; on systems other than Linux it does nothing.
pub fn prefer_small_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE takes plain integers and touches no memory of ours.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

/// The language service as levkit serves it.
pub type Service = transport::Answering<LspService<Backend>>;

/// The service, for any transport (tests drive it over an in-memory pipe), and the record of
/// its session.
pub fn service() -> (
    Service,
    tower_lsp_server::ClientSocket,
    Arc<transport::Session>,
) {
    let (inner, socket) = LspService::build(Backend::new)
        .custom_method("levkit/preview", Backend::preview)
        .custom_method("levkit/dialect", Backend::dialect)
        .finish();
    let session = Arc::new(transport::Session::default());
    let service = transport::Answering {
        inner,
        session: session.clone(),
    };
    (service, socket, session)
}

/// Cheap to clone: every clone shares the client and the state.
#[derive(Clone)]
pub struct Backend {
    client: Client,
    state: Arc<Mutex<State>>,
    /// Counts the changes published: the documents an edit did not touch are published in
    /// the background, and a newer change supersedes that work.
    published_changes: Arc<AtomicU64>,
}

/// Everything the server knows; edits go through the lock, queries run on snapshots.
struct State {
    host: AnalysisHost,
    /// Every file the server knows (open documents and the workspace's level files); shared
    /// with the queries at work, so that handing it to one costs no copy.
    files: Arc<Documents>,
    /// Open documents and their versions.
    open: HashMap<Uri, i32>,
    encoding: PositionEncoding,
    roots: Vec<PathBuf>,
    /// The client pulls diagnostics (`textDocument/diagnostic`), so the server does not push
    /// them as well: an editor would show each one twice.
    pulls_diagnostics: bool,
    /// The client accepts `workspace/diagnostic/refresh`.
    refreshes_diagnostics: bool,
    /// What each open document's diagnostics were when last pushed.
    published: HashMap<Uri, Vec<tower_lsp_server::ls_types::Diagnostic>>,
    /// Documents the user was told are too large for some features (told once each).
    told_too_large: std::collections::HashSet<Uri>,
}

/// Documents by URI, both ways.
#[derive(Clone, Default)]
struct Documents {
    by_uri: HashMap<Uri, FileId>,
    by_file: HashMap<FileId, Uri>,
}

impl Documents {
    fn insert(&mut self, uri: Uri, file: FileId) {
        self.by_file.insert(file, uri.clone());
        self.by_uri.insert(uri, file);
    }

    fn remove(&mut self, uri: &Uri) -> Option<FileId> {
        let file = self.by_uri.remove(uri)?;
        self.by_file.remove(&file);
        Some(file)
    }
}

/// What a query needs besides the snapshot.
#[derive(Clone)]
struct Context {
    files: Arc<Documents>,
    encoding: PositionEncoding,
}

impl Context {
    fn file(&self, uri: &Uri) -> Result<FileId> {
        self.files
            .by_uri
            .get(uri)
            .copied()
            .ok_or_else(|| Error::invalid_params(format!("unknown document {}", uri.as_str())))
    }

    fn uri(&self, file: FileId) -> Option<Uri> {
        self.files.by_file.get(&file).cloned()
    }

    fn lines(&self, analysis: &Analysis, file: FileId) -> Result<Lines> {
        Ok(Lines {
            text: analysis.file_text(file).map_err(modified)?,
            index: analysis.line_index(file).map_err(modified)?,
            encoding: self.encoding,
        })
    }
}

/// A query cancelled by a newer edit answers "content modified", as LSP expects.
fn modified(_: Cancelled) -> Error {
    Error {
        code: ErrorCode::ServerError(-32801),
        message: "content modified".into(),
        data: None,
    }
}

/// The path levkit knows a document by: its file path, or the URI itself (`untitled:`).
fn path_of(uri: &Uri) -> PathBuf {
    uri.to_file_path()
        .map_or_else(|| uri.as_str().into(), |p| p.into_owned())
}

/// `extraWarnings` in a settings object, alone or under `levkit`.
fn extra_warnings_setting(settings: &serde_json::Value) -> Option<bool> {
    settings
        .get("extraWarnings")
        .or_else(|| settings.get("levkit").and_then(|l| l.get("extraWarnings")))
        .and_then(serde_json::Value::as_bool)
}

impl Backend {
    fn new(client: Client) -> Backend {
        Backend {
            client,
            state: Arc::new(Mutex::new(State {
                // Open vaults are surveyed for walled-off pockets as they are edited.
                host: {
                    let mut host = AnalysisHost::new();
                    host.set_options(levkit_ide::AnalysisOptions {
                        reachability: true,
                        ..levkit_ide::AnalysisOptions::default()
                    });
                    host
                },
                files: Arc::default(),
                open: HashMap::new(),
                encoding: PositionEncoding::Utf16,
                roots: Vec::new(),
                pulls_diagnostics: false,
                refreshes_diagnostics: false,
                published: HashMap::new(),
                told_too_large: std::collections::HashSet::new(),
            })),
            published_changes: Arc::default(),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock leaves data that is still consistent (inputs are
        // set atomically), so a poisoned lock is taken over rather than propagated.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Runs `f` on a snapshot of the analysis, off the protocol loop.
    async fn query<T, F>(&self, f: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&Analysis, &Context) -> Result<T> + Send + 'static,
    {
        let (analysis, context) = {
            let state = self.state();
            (
                state.host.analysis(),
                Context {
                    files: state.files.clone(),
                    encoding: state.encoding,
                },
            )
        };
        match tokio::task::spawn_blocking(move || f(&analysis, &context)).await {
            Ok(result) => result,
            Err(_panic) => Err(Error::internal_error()),
        }
    }

    /// Tells the client what `changed` changed: the diagnostics of open documents that differ
    /// from what it was last sent (always those of an edited document, for its new version),
    /// and `levkit/previewChanged` for the open documents whose preview may depend on it.
    /// The edited documents are answered before this returns, without the surveys the edit
    /// made new ([`Depth::Quick`]); after a pause, a task that the next change supersedes
    /// computes every open document's full diagnostics, and sends those that differ (an
    /// edited vault's DC0501 among them), so that typing never waits for them.
    async fn publish(&self, changed: Changed) {
        let generation = self.published_changes.fetch_add(1, Ordering::SeqCst) + 1;
        let (open, pull, refresh): (Vec<(Uri, i32)>, bool, bool) = {
            let state = self.state();
            (
                state.open.iter().map(|(u, v)| (u.clone(), *v)).collect(),
                state.pulls_diagnostics,
                state.refreshes_diagnostics,
            )
        };
        if pull && refresh {
            // A client that pulls asks again when told to; not awaited inside the handler, so
            // that a busy client cannot hold the server's handler slots.
            let client = self.client.clone();
            tokio::spawn(async move {
                let _ = client.workspace_diagnostic_refresh().await;
            });
        }
        let edited: Vec<Uri> = match &changed {
            Changed::Everything => Vec::new(),
            Changed::Files(uris) => uris.clone(),
        };
        let (first, rest): (Vec<_>, Vec<_>) =
            open.into_iter().partition(|(uri, _)| edited.contains(uri));
        // The documents that depend on the edited ones are asked for only by the background
        // pass, which tells their previews: the edited documents, told in the quick pass, are
        // always among them, and a keystroke's diagnostics need not wait for the question.
        let mut plan = Publication {
            generation,
            edited,
            affected: None,
            pull,
        };
        self.publish_to(first.clone(), &plan, Depth::Quick).await;
        // A client that pulls asks for diagnostics itself: only the previews of the other
        // documents are left to tell.
        if plan.pull && rest.is_empty() {
            return;
        }
        // The edited documents first: their surveys are what the user waits for.
        let all: Vec<(Uri, i32)> = first.into_iter().chain(rest).collect();
        if all.is_empty() {
            return;
        }
        let backend = self.clone();
        tokio::spawn(async move {
            // After a pause in typing: each keystroke would supersede the work, and take the
            // cores from its own document's diagnostics meanwhile.
            tokio::time::sleep(BACKGROUND_DELAY).await;
            if backend.published_changes.load(Ordering::SeqCst) != plan.generation {
                return;
            }
            if let Changed::Files(uris) = changed {
                let computed = backend
                    .query(move |analysis, cx| {
                        let mut out = Vec::new();
                        for uri in &uris {
                            let Ok(file) = cx.file(uri) else {
                                out.push(uri.clone());
                                continue;
                            };
                            for affected in analysis.affected_by(file).map_err(modified)? {
                                out.extend(cx.uri(affected));
                            }
                        }
                        Ok(out)
                    })
                    .await;
                // Cancelled by a newer edit: that edit publishes.
                let Ok(affected) = computed else { return };
                plan.affected = Some(affected);
            }
            backend.publish_to(all, &plan, Depth::Full).await
        });
    }

    /// Publishes to `documents` what `plan` says, until a newer change starts its own. Their
    /// diagnostics are computed in one query, on one snapshot, to `depth`. The quick pass
    /// sends an edited document's diagnostics even if unchanged (for its new version) and
    /// tells the previews of edited documents; the full pass sends only what changed, and
    /// tells the previews of the others.
    async fn publish_to(&self, documents: Vec<(Uri, i32)>, plan: &Publication, depth: Depth) {
        if documents.is_empty() {
            return;
        }
        let mut computed: Vec<Option<Vec<tower_lsp_server::ls_types::Diagnostic>>> = Vec::new();
        if !plan.pull {
            let uris: Vec<Uri> = documents.iter().map(|(uri, _)| uri.clone()).collect();
            let (published_changes, generation) = (self.published_changes.clone(), plan.generation);
            computed = self
                .query(move |analysis, cx| {
                    let mut out = Vec::with_capacity(uris.len());
                    for uri in &uris {
                        if published_changes.load(Ordering::SeqCst) != generation {
                            break;
                        }
                        let file = cx.file(uri);
                        out.push(
                            file.and_then(|f| handlers::diagnostics(analysis, cx, f, depth))
                                .ok(),
                        );
                    }
                    Ok(out)
                })
                .await
                .unwrap_or_default();
        }
        let mut computed = computed.into_iter();
        for (uri, version) in documents {
            if self.published_changes.load(Ordering::SeqCst) != plan.generation {
                return;
            }
            let edited = plan.edited.contains(&uri);
            if !plan.pull {
                // Not computed: cancelled by a newer edit, which publishes.
                let Some(diagnostics) = computed.next().flatten() else {
                    continue;
                };
                let fresh = {
                    let mut state = self.state();
                    let unchanged = state.published.get(&uri) == Some(&diagnostics);
                    if !unchanged {
                        state.published.insert(uri.clone(), diagnostics.clone());
                    }
                    (edited && depth == Depth::Quick) || !unchanged
                };
                if fresh {
                    self.client
                        .publish_diagnostics(uri.clone(), diagnostics, Some(version))
                        .await;
                }
            }
            let previews_told = edited == (depth == Depth::Quick);
            if previews_told && plan.affected.as_ref().is_none_or(|a| a.contains(&uri)) {
                self.client
                    .send_notification::<PreviewChanged>(PreviewChangedParams {
                        text_document: tower_lsp_server::ls_types::TextDocumentIdentifier { uri },
                        version,
                    })
                    .await;
            }
        }
    }
}

/// How long the documents an edit did not touch wait before their diagnostics are computed.
const BACKGROUND_DELAY: std::time::Duration = std::time::Duration::from_millis(50);

/// How much of the analysis a document's published diagnostics wait for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Depth {
    /// Everything but the reachability surveys an edit made new: what a keystroke waits for.
    Quick,
    /// Everything: what the client has once edits stop.
    Full,
}

/// What one change publishes, and to whom.
struct Publication {
    generation: u64,
    edited: Vec<Uri>,
    /// The documents whose previews to tell, `None` for all of them (a change of everything,
    /// or the quick pass, which tells only the edited documents').
    affected: Option<Vec<Uri>>,
    pull: bool,
}

/// What a notification changed, for [`Backend::publish`].
enum Changed {
    /// Options or the whole workspace.
    Everything,
    /// These documents' text.
    Files(Vec<Uri>),
}

/// Sent after a document's analysis changed: a client showing its preview asks again.
pub enum PreviewChanged {}

#[derive(Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PreviewChangedParams {
    pub text_document: tower_lsp_server::ls_types::TextDocumentIdentifier,
    pub version: i32,
}

impl tower_lsp_server::ls_types::notification::Notification for PreviewChanged {
    type Params = PreviewChangedParams;
    const METHOD: &'static str = "levkit/previewChanged";
}
