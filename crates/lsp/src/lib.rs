//! `levkit lsp`: the language server. Documents live in the salsa database of `levkit-ide`;
//! every feature is an `ide` query run on a snapshot of it, off the protocol loop, and given up
//! (cancelled) when an edit arrives. This crate only converts between LSP and `ide` data.

mod convert;
mod handlers;
#[doc(hidden)]
pub mod test_client;

use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use levkit_ide::{RootDatabase, SourceFile, Workspace};
use levkit_syntax::Dialect;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::Uri;
use tower_lsp_server::{Client, LspService, Server};

pub use convert::Encoding;
use convert::Lines;

/// Serves the protocol on standard input and output until the client exits.
pub async fn run_stdio() {
    let (service, socket) = service();
    Server::new(tokio::io::stdin(), tokio::io::stdout(), socket)
        .serve(service)
        .await;
}

/// The service, for any transport (tests drive it over an in-memory pipe).
pub fn service() -> (LspService<Backend>, tower_lsp_server::ClientSocket) {
    LspService::build(Backend::new)
        .custom_method("levkit/preview", Backend::preview)
        .finish()
}

pub struct Backend {
    client: Client,
    state: Arc<Mutex<State>>,
}

/// Everything the server knows; edits go through the lock, queries run on snapshots.
struct State {
    db: RootDatabase,
    files: HashMap<Uri, SourceFile>,
    /// Open documents and their versions.
    open: HashMap<Uri, i32>,
    workspace: Option<Workspace>,
    encoding: Encoding,
    roots: Vec<PathBuf>,
    /// lev_comp's `-w` warnings, from the client's `extraWarnings` setting.
    extra_warnings: bool,
    /// The client pulls diagnostics (`textDocument/diagnostic`), so the server does not push
    /// them as well: an editor would show each one twice.
    pulls_diagnostics: bool,
    /// The client accepts `workspace/diagnostic/refresh`.
    refreshes_diagnostics: bool,
}

/// What a query needs besides the database.
#[derive(Clone)]
struct Context {
    files: HashMap<Uri, SourceFile>,
    workspace: Option<Workspace>,
    encoding: Encoding,
    extra_warnings: bool,
}

impl Context {
    fn file(&self, uri: &Uri) -> Result<SourceFile> {
        self.files
            .get(uri)
            .copied()
            .ok_or_else(|| Error::invalid_params(format!("unknown document {}", uri.as_str())))
    }

    fn uri(&self, file: SourceFile) -> Option<Uri> {
        self.files
            .iter()
            .find(|(_, f)| **f == file)
            .map(|(u, _)| u.clone())
    }
}

fn lines<'a>(db: &'a RootDatabase, file: SourceFile, encoding: Encoding) -> Lines<'a> {
    Lines {
        text: file.text(db),
        index: levkit_ide::line_index(db, file),
        encoding,
    }
}

/// `extraWarnings` in a settings object, alone or under `levkit`.
fn extra_warnings_setting(settings: &serde_json::Value) -> Option<bool> {
    settings
        .get("extraWarnings")
        .or_else(|| settings.get("levkit").and_then(|l| l.get("extraWarnings")))
        .and_then(serde_json::Value::as_bool)
}

/// The dialect an editor's language id names, if any.
fn dialect_of_language(language: &str) -> Option<Dialect> {
    match language {
        "nethack-des" => Some(Dialect::NethackDes),
        "nethack-dungeon" => Some(Dialect::NethackDungeon),
        "dcss-des" => Some(Dialect::DcssDes),
        _ => None,
    }
}

impl Backend {
    fn new(client: Client) -> Backend {
        Backend {
            client,
            state: Arc::new(Mutex::new(State {
                db: RootDatabase::default(),
                files: HashMap::new(),
                open: HashMap::new(),
                workspace: None,
                encoding: Encoding::Utf16,
                roots: Vec::new(),
                extra_warnings: false,
                pulls_diagnostics: false,
                refreshes_diagnostics: false,
            })),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock leaves data that is still consistent (salsa inputs are
        // set atomically), so a poisoned lock is taken over rather than propagated.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Runs `f` on a snapshot of the database, off the protocol loop. A query cancelled by a
    /// newer edit answers "content modified", as LSP expects.
    async fn query<T, F>(&self, f: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&RootDatabase, &Context) -> Result<T> + Send + 'static,
    {
        let (db, context) = {
            let state = self.state();
            (
                state.db.clone(),
                Context {
                    files: state.files.clone(),
                    workspace: state.workspace,
                    encoding: state.encoding,
                    extra_warnings: state.extra_warnings,
                },
            )
        };
        let joined = tokio::task::spawn_blocking(move || {
            salsa::Cancelled::catch(AssertUnwindSafe(|| f(&db, &context)))
        })
        .await;
        match joined {
            Ok(Ok(result)) => result,
            Ok(Err(_cancelled)) => Err(Error {
                code: ErrorCode::ServerError(-32801),
                message: "content modified".into(),
                data: None,
            }),
            Err(_panic) => Err(Error::internal_error()),
        }
    }

    /// Publishes the diagnostics of every open document (a change to one file can change the
    /// links reported in another), and tells clients that previews may have changed.
    async fn publish_all(&self) {
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
        for (uri, version) in open {
            if !pull {
                let target = uri.clone();
                let computed = self
                    .query(move |db, cx| {
                        let file = cx.file(&target)?;
                        Ok(handlers::diagnostics(db, cx, file))
                    })
                    .await;
                // Cancelled by a newer edit: that edit publishes.
                let Ok(diagnostics) = computed else { continue };
                self.client
                    .publish_diagnostics(uri.clone(), diagnostics, Some(version))
                    .await;
            }
            self.client
                .send_notification::<PreviewChanged>(PreviewChangedParams {
                    text_document: tower_lsp_server::ls_types::TextDocumentIdentifier { uri },
                    version,
                })
                .await;
        }
    }

    fn refresh_workspace(state: &mut State) {
        use salsa::Setter;
        let files: Vec<SourceFile> = state.files.values().copied().collect();
        match state.workspace {
            Some(workspace) => {
                workspace.set_files(&mut state.db).to(files);
            }
            None => state.workspace = Some(Workspace::new(&state.db, files)),
        }
    }
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
