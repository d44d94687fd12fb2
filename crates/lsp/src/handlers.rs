//! The protocol handlers: each converts its parameters, asks `levkit-ide`, converts back.

use std::collections::HashMap;

use levkit_diagnostics::{Diagnostic as LevDiagnostic, Severity, TextRange};
use levkit_ide::completion::CompletionKind as LevCompletionKind;
use levkit_ide::structure::{FoldKind, HighlightKind, Symbol, SymbolKind as LevSymbolKind};
use levkit_ide::{RootDatabase, SourceFile};
use tower_lsp_server::LanguageServer;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use crate::convert::Encoding;
use crate::{Backend, Context, dialect_of_language, lines};

pub(crate) fn diagnostics(db: &RootDatabase, cx: &Context, file: SourceFile) -> Vec<Diagnostic> {
    let mut all: Vec<LevDiagnostic> = levkit_ide::diagnostics(db, file).clone();
    if let Some(workspace) = cx.workspace {
        all.extend(
            levkit_ide::link_diagnostics(db, workspace)
                .iter()
                .filter(|(f, _)| *f == file)
                .map(|(_, d)| d.clone()),
        );
    }
    let options = levkit_ide::CheckOptions {
        extra_warnings: cx.extra_warnings,
    };
    let lines = lines(db, file, cx.encoding);
    let uri = cx.uri(file);
    all.iter()
        .filter(|d| options.wants(d))
        .map(|d| Diagnostic {
            range: lines.range(d.range),
            severity: Some(match d.severity {
                Severity::Error => DiagnosticSeverity::ERROR,
                Severity::Warning => DiagnosticSeverity::WARNING,
                Severity::Info => DiagnosticSeverity::INFORMATION,
                Severity::Hint => DiagnosticSeverity::HINT,
            }),
            code: Some(NumberOrString::String(d.code.as_str().to_string())),
            source: Some("levkit".into()),
            message: d.message.clone(),
            related_information: uri.as_ref().map(|uri| {
                d.labels
                    .iter()
                    .map(|l| DiagnosticRelatedInformation {
                        location: Location {
                            uri: uri.clone(),
                            range: lines.range(l.range),
                        },
                        message: l.message.clone(),
                    })
                    .collect()
            }),
            ..Diagnostic::default()
        })
        .collect()
}

fn symbol(
    db: &RootDatabase,
    file: SourceFile,
    encoding: Encoding,
    symbol: &Symbol,
) -> DocumentSymbol {
    let lines = lines(db, file, encoding);
    #[allow(deprecated)]
    DocumentSymbol {
        name: symbol.name.clone(),
        detail: symbol.detail.clone(),
        kind: match symbol.kind {
            LevSymbolKind::Level | LevSymbolKind::DungeonLevel => SymbolKind::MODULE,
            LevSymbolKind::MapPart => SymbolKind::ARRAY,
            LevSymbolKind::Room | LevSymbolKind::Subroom => SymbolKind::STRUCT,
            LevSymbolKind::Dungeon => SymbolKind::NAMESPACE,
            LevSymbolKind::Branch => SymbolKind::EVENT,
            LevSymbolKind::Description => SymbolKind::OBJECT,
        },
        tags: None,
        deprecated: None,
        range: lines.range(symbol.range),
        selection_range: lines.range(symbol.focus),
        children: Some(
            symbol
                .children
                .iter()
                .map(|c| self::symbol(db, file, encoding, c))
                .collect(),
        ),
    }
}

fn location(
    db: &RootDatabase,
    cx: &Context,
    target: levkit_ide::navigation::Location,
) -> Option<Location> {
    let uri = cx.uri(target.file)?;
    Some(Location {
        uri,
        range: lines(db, target.file, cx.encoding).range(target.range),
    })
}

fn semantic_tokens(db: &RootDatabase, file: SourceFile, encoding: Encoding) -> Vec<SemanticToken> {
    let lines = lines(db, file, encoding);
    let mut out = Vec::new();
    let (mut previous_line, mut previous_start) = (0, 0);
    for highlight in levkit_ide::structure::highlights(db, file) {
        let start = lines.position(highlight.range.start());
        let end = lines.position(highlight.range.end());
        if start.line != end.line {
            continue;
        }
        let delta_line = start.line - previous_line;
        let delta_start = if delta_line == 0 {
            start.character - previous_start
        } else {
            start.character
        };
        out.push(SemanticToken {
            delta_line,
            delta_start,
            length: end.character - start.character,
            token_type: HighlightKind::ALL
                .iter()
                .position(|k| *k == highlight.kind)
                .unwrap_or(0) as u32,
            token_modifiers_bitset: 0,
        });
        (previous_line, previous_start) = (start.line, start.character);
    }
    out
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let offered = params
            .capabilities
            .general
            .as_ref()
            .and_then(|g| g.position_encodings.clone())
            .unwrap_or_default();
        let encoding = if offered.contains(&PositionEncodingKind::UTF8) {
            Encoding::Utf8
        } else {
            Encoding::Utf16
        };
        {
            let mut state = self.state();
            state.encoding = encoding;
            #[allow(deprecated)]
            let roots: Vec<_> = params
                .workspace_folders
                .iter()
                .flatten()
                .map(|f| f.uri.clone())
                .chain(params.root_uri.clone())
                .filter_map(|u| u.to_file_path().map(|p| p.into_owned()))
                .collect();
            state.roots = roots;
            state.pulls_diagnostics = params
                .capabilities
                .text_document
                .as_ref()
                .and_then(|t| t.diagnostic.as_ref())
                .is_some();
            state.refreshes_diagnostics = params
                .capabilities
                .workspace
                .as_ref()
                .and_then(|w| w.diagnostics.as_ref())
                .and_then(|d| d.refresh_support)
                .unwrap_or(false);
            if let Some(extra) = params
                .initialization_options
                .as_ref()
                .and_then(crate::extra_warnings_setting)
            {
                state.extra_warnings = extra;
            }
        }
        let legend = SemanticTokensLegend {
            token_types: HighlightKind::ALL
                .iter()
                .map(|k| SemanticTokenType::new(k.name()))
                .collect(),
            token_modifiers: Vec::new(),
        };
        Ok(InitializeResult {
            server_info: Some(ServerInfo {
                name: "levkit".into(),
                version: Some(env!("CARGO_PKG_VERSION").into()),
            }),
            capabilities: ServerCapabilities {
                position_encoding: Some(match encoding {
                    Encoding::Utf8 => PositionEncodingKind::UTF8,
                    Encoding::Utf16 => PositionEncodingKind::UTF16,
                }),
                text_document_sync: Some(TextDocumentSyncCapability::Options(
                    TextDocumentSyncOptions {
                        open_close: Some(true),
                        change: Some(TextDocumentSyncKind::INCREMENTAL),
                        save: None,
                        ..TextDocumentSyncOptions::default()
                    },
                )),
                hover_provider: Some(HoverProviderCapability::Simple(true)),
                completion_provider: Some(CompletionOptions {
                    trigger_characters: Some(vec!["\"".into(), ",".into(), ":".into(), " ".into()]),
                    ..CompletionOptions::default()
                }),
                definition_provider: Some(OneOf::Left(true)),
                references_provider: Some(OneOf::Left(true)),
                document_symbol_provider: Some(OneOf::Left(true)),
                folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
                selection_range_provider: Some(SelectionRangeProviderCapability::Simple(true)),
                code_action_provider: Some(CodeActionProviderCapability::Options(
                    CodeActionOptions {
                        code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
                        ..CodeActionOptions::default()
                    },
                )),
                inlay_hint_provider: Some(OneOf::Left(true)),
                semantic_tokens_provider: Some(
                    SemanticTokensServerCapabilities::SemanticTokensOptions(
                        SemanticTokensOptions {
                            legend,
                            full: Some(SemanticTokensFullOptions::Bool(true)),
                            range: None,
                            ..SemanticTokensOptions::default()
                        },
                    ),
                ),
                diagnostic_provider: Some(DiagnosticServerCapabilities::Options(
                    DiagnosticOptions {
                        identifier: Some("levkit".into()),
                        inter_file_dependencies: true,
                        workspace_diagnostics: false,
                        ..DiagnosticOptions::default()
                    },
                )),
                ..ServerCapabilities::default()
            },
            ..InitializeResult::default()
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        // Level files of the workspace, so that cross-file features see them before they open.
        let roots = self.state().roots.clone();
        let found = tokio::task::spawn_blocking(move || {
            let mut found = Vec::new();
            for root in roots {
                for entry in ignore::WalkBuilder::new(root)
                    .require_git(false)
                    .build()
                    .flatten()
                {
                    let path = entry.path();
                    if found.len() < 5000
                        && levkit_syntax::Dialect::is_candidate_path(path)
                        && let Ok(bytes) = std::fs::read(path)
                    {
                        found.push((path.to_path_buf(), bytes));
                    }
                }
            }
            found
        })
        .await
        .unwrap_or_default();
        {
            let mut state = self.state();
            for (path, bytes) in found {
                let Some(uri) = Uri::from_file_path(&path) else {
                    continue;
                };
                if !state.files.contains_key(&uri) {
                    let file = state.db.add_file(path, &bytes, None);
                    state.files.insert(uri, file);
                }
            }
            Backend::refresh_workspace(&mut state);
        }
        self.publish_all().await;
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        if let Some(extra) = crate::extra_warnings_setting(&params.settings) {
            self.state().extra_warnings = extra;
            self.publish_all().await;
        }
    }

    async fn shutdown(&self) -> Result<()> {
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let document = params.text_document;
        {
            let mut state = self.state();
            let dialect = dialect_of_language(&document.language_id);
            match state.files.get(&document.uri).copied() {
                Some(file) => {
                    use salsa::Setter;
                    state.db.set_text(file, document.text);
                    if file.dialect_override(&state.db) != dialect {
                        file.set_dialect_override(&mut state.db).to(dialect);
                    }
                }
                None => {
                    let path = document
                        .uri
                        .to_file_path()
                        .map_or_else(|| document.uri.as_str().into(), |p| p.into_owned());
                    let file = state.db.add_file(path, document.text.as_bytes(), dialect);
                    state.files.insert(document.uri.clone(), file);
                    Backend::refresh_workspace(&mut state);
                }
            }
            state.open.insert(document.uri, document.version);
        }
        self.publish_all().await;
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        // Applied synchronously, before any await, so edits keep their order.
        {
            let mut state = self.state();
            let encoding = state.encoding;
            let Some(file) = state.files.get(&params.text_document.uri).copied() else {
                return;
            };
            let mut text = file.text(&state.db).to_string();
            for change in params.content_changes {
                match change.range {
                    Some(range) => {
                        let index = levkit_diagnostics::LineIndex::new(&text);
                        let lines = crate::Lines {
                            text: &text,
                            index: &index,
                            encoding,
                        };
                        let span = lines.text_range(range);
                        text.replace_range(
                            usize::from(span.start())..usize::from(span.end()),
                            &change.text,
                        );
                    }
                    None => text = change.text,
                }
            }
            state.db.set_text(file, text);
            state
                .open
                .insert(params.text_document.uri, params.text_document.version);
        }
        self.publish_all().await;
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        {
            let mut state = self.state();
            state.open.remove(&uri);
            // Back to what is on disk; a file that is gone is forgotten.
            let on_disk = uri.to_file_path().and_then(|p| std::fs::read(p).ok());
            if let Some(file) = state.files.get(&uri).copied() {
                match on_disk {
                    Some(bytes) => {
                        let (text, _) = levkit_syntax::decode(&bytes);
                        state.db.set_text(file, text);
                    }
                    None => {
                        state.files.remove(&uri);
                        Backend::refresh_workspace(&mut state);
                    }
                }
            }
        }
        self.client.publish_diagnostics(uri, Vec::new(), None).await;
        self.publish_all().await;
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        {
            let mut state = self.state();
            for change in params.changes {
                if state.open.contains_key(&change.uri) {
                    continue;
                }
                let Some(path) = change.uri.to_file_path().map(|p| p.into_owned()) else {
                    continue;
                };
                match (std::fs::read(&path), state.files.get(&change.uri).copied()) {
                    (Ok(bytes), Some(file)) => {
                        let (text, _) = levkit_syntax::decode(&bytes);
                        state.db.set_text(file, text);
                    }
                    (Ok(bytes), None) if levkit_syntax::Dialect::is_candidate_path(&path) => {
                        let file = state.db.add_file(path, &bytes, None);
                        state.files.insert(change.uri, file);
                    }
                    (Err(_), Some(_)) => {
                        state.files.remove(&change.uri);
                    }
                    _ => {}
                }
            }
            Backend::refresh_workspace(&mut state);
        }
        self.publish_all().await;
    }

    async fn diagnostic(
        &self,
        params: DocumentDiagnosticParams,
    ) -> Result<DocumentDiagnosticReportResult> {
        let uri = params.text_document.uri;
        let items = self
            .query(move |db, cx| Ok(diagnostics(db, cx, cx.file(&uri)?)))
            .await?;
        Ok(DocumentDiagnosticReportResult::Report(
            DocumentDiagnosticReport::Full(RelatedFullDocumentDiagnosticReport {
                related_documents: None,
                full_document_diagnostic_report: FullDocumentDiagnosticReport {
                    result_id: None,
                    items,
                },
            }),
        ))
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let at = params.text_document_position_params;
        self.query(move |db, cx| {
            let file = cx.file(&at.text_document.uri)?;
            let lines = lines(db, file, cx.encoding);
            Ok(
                levkit_ide::hover::hover(db, file, lines.offset(at.position)).map(|h| Hover {
                    contents: HoverContents::Markup(MarkupContent {
                        kind: MarkupKind::Markdown,
                        value: h.markdown,
                    }),
                    range: Some(lines.range(h.range)),
                }),
            )
        })
        .await
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let at = params.text_document_position;
        self.query(move |db, cx| {
            let file = cx.file(&at.text_document.uri)?;
            let lines = lines(db, file, cx.encoding);
            let items = levkit_ide::completion::completions(
                db,
                cx.workspace,
                file,
                lines.offset(at.position),
            )
            .into_iter()
            .map(|c| CompletionItem {
                label: c.label.clone(),
                kind: Some(match c.kind {
                    LevCompletionKind::Keyword => CompletionItemKind::KEYWORD,
                    LevCompletionKind::Value => CompletionItemKind::ENUM_MEMBER,
                    LevCompletionKind::Monster | LevCompletionKind::Object => {
                        CompletionItemKind::VALUE
                    }
                    LevCompletionKind::Trap
                    | LevCompletionKind::RoomType
                    | LevCompletionKind::Feature => CompletionItemKind::CONSTANT,
                    LevCompletionKind::Name => CompletionItemKind::REFERENCE,
                }),
                detail: c.detail,
                text_edit: Some(CompletionTextEdit::Edit(TextEdit {
                    range: lines.range(c.replace),
                    new_text: c.label,
                })),
                ..CompletionItem::default()
            })
            .collect();
            Ok(Some(CompletionResponse::Array(items)))
        })
        .await
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        let at = params.text_document_position_params;
        self.query(move |db, cx| {
            let file = cx.file(&at.text_document.uri)?;
            let offset = lines(db, file, cx.encoding).offset(at.position);
            let targets: Vec<Location> =
                levkit_ide::navigation::goto_definition(db, cx.workspace, file, offset)
                    .into_iter()
                    .filter_map(|t| location(db, cx, t))
                    .collect();
            Ok((!targets.is_empty()).then_some(GotoDefinitionResponse::Array(targets)))
        })
        .await
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let at = params.text_document_position;
        self.query(move |db, cx| {
            let file = cx.file(&at.text_document.uri)?;
            let offset = lines(db, file, cx.encoding).offset(at.position);
            Ok(Some(
                levkit_ide::navigation::references(db, cx.workspace, file, offset)
                    .into_iter()
                    .filter_map(|t| location(db, cx, t))
                    .collect(),
            ))
        })
        .await
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        let uri = params.text_document.uri;
        self.query(move |db, cx| {
            let file = cx.file(&uri)?;
            let symbols = levkit_ide::structure::document_symbols(db, file)
                .iter()
                .map(|s| symbol(db, file, cx.encoding, s))
                .collect();
            Ok(Some(DocumentSymbolResponse::Nested(symbols)))
        })
        .await
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        let uri = params.text_document.uri;
        self.query(move |db, cx| {
            let file = cx.file(&uri)?;
            let lines = lines(db, file, cx.encoding);
            Ok(Some(
                levkit_ide::structure::folding_ranges(db, file)
                    .into_iter()
                    .map(|f| {
                        let range = lines.range(f.range);
                        FoldingRange {
                            start_line: range.start.line,
                            end_line: range.end.line,
                            kind: Some(match f.kind {
                                FoldKind::Region => FoldingRangeKind::Region,
                                FoldKind::Comment => FoldingRangeKind::Comment,
                            }),
                            ..FoldingRange::default()
                        }
                    })
                    .filter(|f| f.end_line > f.start_line)
                    .collect(),
            ))
        })
        .await
    }

    async fn selection_range(
        &self,
        params: SelectionRangeParams,
    ) -> Result<Option<Vec<SelectionRange>>> {
        let uri = params.text_document.uri;
        let positions = params.positions;
        self.query(move |db, cx| {
            let file = cx.file(&uri)?;
            let lines = lines(db, file, cx.encoding);
            let ranges = positions
                .iter()
                .map(|&p| {
                    let nested = levkit_ide::structure::selection_ranges(db, file, lines.offset(p));
                    let mut selection: Option<SelectionRange> = None;
                    for range in nested.iter().rev() {
                        selection = Some(SelectionRange {
                            range: lines.range(*range),
                            parent: selection.map(Box::new),
                        });
                    }
                    selection.unwrap_or(SelectionRange {
                        range: Range::new(p, p),
                        parent: None,
                    })
                })
                .collect();
            Ok(Some(ranges))
        })
        .await
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        let uri = params.text_document.uri;
        self.query(move |db, cx| {
            let file = cx.file(&uri)?;
            Ok(Some(SemanticTokensResult::Tokens(SemanticTokens {
                result_id: None,
                data: semantic_tokens(db, file, cx.encoding),
            })))
        })
        .await
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let uri = params.text_document.uri;
        let range = params.range;
        self.query(move |db, cx| {
            let file = cx.file(&uri)?;
            let lines = lines(db, file, cx.encoding);
            let actions = levkit_ide::actions::code_actions(db, file, lines.text_range(range))
                .into_iter()
                .map(|action| {
                    let edits = action
                        .edits
                        .iter()
                        .map(|e| TextEdit {
                            range: lines.range(e.range),
                            new_text: e.new_text.clone(),
                        })
                        .collect();
                    let diagnostic = diagnostics(db, cx, file)
                        .into_iter()
                        .filter(|d| {
                            d.range == lines.range(action.diagnostic.range)
                                && d.message == action.diagnostic.message
                        })
                        .collect();
                    CodeActionOrCommand::CodeAction(CodeAction {
                        title: action.title,
                        kind: Some(CodeActionKind::QUICKFIX),
                        diagnostics: Some(diagnostic),
                        edit: Some(WorkspaceEdit {
                            changes: Some(HashMap::from([(uri.clone(), edits)])),
                            ..WorkspaceEdit::default()
                        }),
                        is_preferred: Some(true),
                        ..CodeAction::default()
                    })
                })
                .collect();
            Ok(Some(actions))
        })
        .await
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        let uri = params.text_document.uri;
        let range = params.range;
        self.query(move |db, cx| {
            let file = cx.file(&uri)?;
            let lines = lines(db, file, cx.encoding);
            let wanted: TextRange = lines.text_range(range);
            Ok(Some(
                levkit_ide::actions::inlay_hints(db, file)
                    .into_iter()
                    .filter(|h| wanted.contains_inclusive(h.offset))
                    .map(|h| InlayHint {
                        position: lines.position(h.offset),
                        label: InlayHintLabel::String(h.label),
                        kind: None,
                        text_edits: None,
                        tooltip: Some(InlayHintTooltip::String(h.tooltip)),
                        padding_left: Some(false),
                        padding_right: Some(false),
                        data: None,
                    })
                    .collect(),
            ))
        })
        .await
    }
}

/// `levkit/preview` parameters.
#[derive(Debug, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PreviewParams {
    pub text_document: TextDocumentIdentifier,
    pub level: Option<String>,
    pub seed: Option<u64>,
}

impl Backend {
    /// `levkit/preview`: the level as a grid of 21 rows, with each map cell's source range.
    pub async fn preview(&self, params: PreviewParams) -> Result<serde_json::Value> {
        let uri = params.text_document.uri;
        let level = params.level;
        let seed = params.seed;
        self.query(move |db, cx| {
            let file = cx.file(&uri)?;
            let lines = lines(db, file, cx.encoding);
            if let Some(model) = levkit_ide::rlg327_model(db, file) {
                // A card per valid monster or object: its symbol in its colour, name and stats.
                let diagnostics = levkit_ide::diagnostics(db, file);
                let cards: Vec<serde_json::Value> = levkit_compile::rlg327::valid_entries(model, diagnostics)
                    .into_iter()
                    .map(|entry| {
                        let fields: serde_json::Map<String, serde_json::Value> = model
                            .kind
                            .fields()
                            .iter()
                            .filter(|k| **k != "DESC")
                            .map(|k| (k.to_lowercase(), serde_json::json!(levkit_compile::rlg327::field_text(entry, k))))
                            .collect();
                        serde_json::json!({ "range": lines.range(entry.range), "fields": fields })
                    })
                    .collect();
                return Ok(serde_json::json!({ "uri": uri.as_str(), "kind": model.kind.word().to_lowercase(), "cards": cards }));
            }
            let Some(preview) = levkit_ide::preview::preview(db, file, level.as_deref()) else {
                return Ok(serde_json::json!({ "uri": uri.as_str(), "rows": [], "levels": [], "notes": ["this file has no level to preview"] }));
            };
            // The level as the game builds it for the seed; without one (a level with errors),
            // the map parts where the game puts them.
            let generated = levkit_ide::preview::generated(db, file, level.as_deref(), seed.unwrap_or(1) as u32, cx.workspace);
            let (rows, cells, legend, mut notes) = match &generated {
                Some(g) => (
                    g.rows.clone(),
                    g.cells
                        .iter()
                        .map(|c| serde_json::json!({ "x": c.x, "y": c.y, "glyph": c.glyph.to_string(), "what": c.what, "range": lines.range(c.source) }))
                        .collect::<Vec<_>>(),
                    g.legend.iter().map(|(g, m)| serde_json::json!({ "glyph": g.to_string(), "meaning": m })).collect::<Vec<_>>(),
                    g.notes.clone(),
                ),
                None => (
                    preview.rows.clone(),
                    preview
                        .cells
                        .iter()
                        .map(|c| serde_json::json!({ "x": c.x, "y": c.y, "glyph": c.glyph.to_string(), "what": c.what, "range": lines.range(c.source) }))
                        .collect(),
                    preview.legend.iter().map(|(g, m)| serde_json::json!({ "glyph": g.to_string(), "meaning": m })).collect(),
                    preview.notes.clone(),
                ),
            };
            if generated.is_none() {
                notes.push("the level has errors: showing its map parts only".into());
            }
            let regions: Vec<serde_json::Value> = preview
                .regions
                .iter()
                .map(|r| serde_json::json!({ "x1": r.x1, "y1": r.y1, "x2": r.x2, "y2": r.y2, "what": r.what, "range": lines.range(r.source) }))
                .collect();
            let heat: Vec<serde_json::Value> = preview
                .heat
                .iter()
                .map(|h| serde_json::json!({ "x": h.x, "y": h.y, "expected": h.expected }))
                .collect();
            Ok(serde_json::json!({
                "uri": uri.as_str(),
                "level": preview.level,
                "levels": preview.levels,
                "seed": seed,
                "generated": generated.is_some(),
                "depth": generated.as_ref().map(|g| g.depth),
                "rows": rows,
                "cells": cells,
                "legend": legend,
                "notes": notes,
                "regions": regions,
                "heat": heat,
            }))
        })
        .await
    }
}
