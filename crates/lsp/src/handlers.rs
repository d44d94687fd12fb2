//! The protocol handlers: each converts its parameters, asks the `levkit-ide` analysis,
//! converts back.

use std::collections::HashMap;
use std::sync::Arc;

use levkit_diagnostics::{PositionEncoding, Severity, TextRange};
use levkit_ide::{
    Analysis, CompletionKind as LevCompletionKind, FileId, FoldKind, HighlightKind, PreviewRequest,
    Symbol, SymbolKind as LevSymbolKind,
};
use levkit_syntax::Dialect;
use tower_lsp_server::LanguageServer;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use crate::{Backend, Changed, Context, Depth, modified, path_of};

/// How many level files of the workspace are read at start (a sanity bound for a folder
/// that holds a whole game's tree several times over).
const MAX_WORKSPACE_FILES: usize = 5000;

pub(crate) fn diagnostics(
    analysis: &Analysis,
    cx: &Context,
    file: FileId,
    depth: Depth,
) -> Result<Vec<Diagnostic>> {
    let all = match depth {
        Depth::Quick => analysis.diagnostics_without_new_surveys(file),
        Depth::Full => analysis.diagnostics(file),
    }
    .map_err(modified)?;
    let lines = cx.lines(analysis, file)?;
    let uri = cx.uri(file);
    Ok(all
        .iter()
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
            // Left out rather than empty when the diagnostic points nowhere else: most have no
            // label, and every key costs a keystroke's message time on both ends.
            related_information: uri.as_ref().filter(|_| !d.labels.is_empty()).map(|uri| {
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
        .collect())
}

fn symbol(lines: &crate::Lines, symbol: &Symbol) -> DocumentSymbol {
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
            LevSymbolKind::Vault => SymbolKind::MODULE,
            LevSymbolKind::Group => SymbolKind::PACKAGE,
            LevSymbolKind::Region => SymbolKind::STRUCT,
            LevSymbolKind::Register => SymbolKind::ARRAY,
            LevSymbolKind::Thing => SymbolKind::FIELD,
            LevSymbolKind::Function => SymbolKind::FUNCTION,
        },
        tags: None,
        deprecated: None,
        range: lines.range(symbol.range),
        selection_range: lines.range(symbol.focus),
        children: Some(
            symbol
                .children
                .iter()
                .map(|c| self::symbol(lines, c))
                .collect(),
        ),
    }
}

fn location(
    analysis: &Analysis,
    cx: &Context,
    target: levkit_ide::Location,
) -> Result<Option<Location>> {
    let Some(uri) = cx.uri(target.file) else {
        return Ok(None);
    };
    Ok(Some(Location {
        uri,
        range: cx.lines(analysis, target.file)?.range(target.range),
    }))
}

/// Documents larger than this get no full semantic tokens (only ranges of them): for a 50 MB
/// file the full answer would be hundreds of megabytes of JSON.
pub(crate) const LARGE_DOCUMENT_BYTES: usize = 4 << 20;

fn semantic_tokens(
    analysis: &Analysis,
    cx: &Context,
    file: FileId,
    range: Option<TextRange>,
) -> Result<Vec<SemanticToken>> {
    let lines = cx.lines(analysis, file)?;
    let mut out = Vec::new();
    let (mut previous_line, mut previous_start) = (0, 0);
    let highlights = analysis.highlights(file).map_err(modified)?;
    let wanted = highlights
        .iter()
        .filter(|h| range.is_none_or(|r| r.intersect(h.range).is_some()));
    for highlight in wanted {
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
            token_type: highlight.kind.index(),
            token_modifiers_bitset: 0,
        });
        (previous_line, previous_start) = (start.line, start.character);
    }
    Ok(out)
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
            PositionEncoding::Utf8
        } else {
            PositionEncoding::Utf16
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
                let mut options = state.host.options();
                options.extra_warnings = extra;
                state.host.set_options(options);
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
                    PositionEncoding::Utf8 => PositionEncodingKind::UTF8,
                    PositionEncoding::Utf16 => PositionEncodingKind::UTF16,
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
                            range: Some(true),
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
        let (found, skipped) = tokio::task::spawn_blocking(move || {
            let (mut found, mut skipped) = (Vec::new(), Vec::new());
            for root in roots {
                for path in levkit_files::walk(&root).0 {
                    if found.len() >= MAX_WORKSPACE_FILES {
                        break;
                    }
                    match levkit_files::read_found(&path, None) {
                        Ok(bytes) => found.push((path, bytes)),
                        Err(skip) if skip.is_worth_saying() => skipped.push((path, skip)),
                        Err(_) => {}
                    }
                }
            }
            (found, skipped)
        })
        .await
        .unwrap_or_default();
        {
            let mut state = self.state();
            for (path, bytes) in found {
                let Some(uri) = Uri::from_file_path(&path) else {
                    continue;
                };
                if !state.files.by_uri.contains_key(&uri) {
                    let file = state.host.set_file_bytes(path, &bytes);
                    Arc::make_mut(&mut state.files).insert(uri, file);
                }
            }
        }
        // A file left out is said once, on the file itself.
        for (path, skip) in skipped {
            if let Some(uri) = Uri::from_file_path(&path) {
                let diagnostic = Diagnostic {
                    range: Range::default(),
                    severity: Some(DiagnosticSeverity::WARNING),
                    code: Some(NumberOrString::String("LK0004".into())),
                    source: Some("levkit".into()),
                    message: format!("levkit did not read this file: {skip}"),
                    ..Diagnostic::default()
                };
                self.client
                    .publish_diagnostics(uri, vec![diagnostic], None)
                    .await;
            }
        }
        self.publish(Changed::Everything).await;
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        if let Some(extra) = crate::extra_warnings_setting(&params.settings) {
            {
                let mut state = self.state();
                let mut options = state.host.options();
                options.extra_warnings = extra;
                state.host.set_options(options);
            }
            self.publish(Changed::Everything).await;
        }
    }

    async fn shutdown(&self) -> Result<()> {
        // Background diagnostics stop: after the current document (a newer generation), and
        // inside it (cancelled), so that a server asked to stop does not run on for minutes
        // surveying vaults nobody will see.
        self.published_changes
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        self.state().host.cancel_pending();
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let document = params.text_document;
        {
            let mut state = self.state();
            let path = path_of(&document.uri);
            let dialect = Dialect::from_language_id(&document.language_id, &path, &document.text);
            let file = match state.files.by_uri.get(&document.uri).copied() {
                Some(file) => {
                    state.host.set_file_text(file, document.text);
                    file
                }
                None => {
                    let file = state.host.set_file_bytes(path, document.text.as_bytes());
                    Arc::make_mut(&mut state.files).insert(document.uri.clone(), file);
                    file
                }
            };
            state.host.set_dialect_override(file, dialect);
            state.open.insert(document.uri.clone(), document.version);
        }
        self.publish(Changed::Files(vec![document.uri])).await;
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        // Applied synchronously, before any await, so edits keep their order.
        {
            let mut state = self.state();
            let encoding = state.encoding;
            let Some(file) = state.files.by_uri.get(&params.text_document.uri).copied() else {
                return;
            };
            let analysis = state.host.analysis();
            let (Ok(current), Ok(index)) = (analysis.file_text(file), analysis.line_index(file))
            else {
                return;
            };
            drop(analysis);
            // The first change is placed by the index the analysis has; each further one by
            // an index of the text the changes before it made.
            let mut lines = crate::Lines {
                text: current,
                index,
                encoding,
            };
            let mut text: Option<String> = None;
            for change in params.content_changes {
                if let Some(text) = &text {
                    lines = crate::Lines {
                        text: text.as_str().into(),
                        index: Arc::new(levkit_diagnostics::LineIndex::new(text)),
                        encoding,
                    };
                }
                let replaced = match change.range {
                    Some(range) => {
                        let span = lines.text_range(range);
                        let mut edited = text.take().unwrap_or_else(|| lines.text.to_string());
                        edited.replace_range(
                            usize::from(span.start())..usize::from(span.end()),
                            &change.text,
                        );
                        edited
                    }
                    None => change.text,
                };
                text = Some(replaced);
            }
            if let Some(text) = text {
                state.host.set_file_text(file, text);
            }
            state.open.insert(
                params.text_document.uri.clone(),
                params.text_document.version,
            );
        }
        self.publish(Changed::Files(vec![params.text_document.uri]))
            .await;
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        {
            let mut state = self.state();
            state.open.remove(&uri);
            // Back to what is on disk (its decoding errors included); a file that is gone, or
            // was never on disk, or is not a level file after all, is forgotten.
            let on_disk = uri
                .to_file_path()
                .and_then(|p| levkit_files::read_found(&p, None).ok());
            if let Some(file) = state.files.by_uri.get(&uri).copied() {
                match on_disk {
                    Some(bytes) => {
                        state.host.set_file_bytes(path_of(&uri), &bytes);
                        state.host.set_dialect_override(file, None);
                    }
                    None => {
                        Arc::make_mut(&mut state.files).remove(&uri);
                        state.host.remove_file(file);
                    }
                }
            }
        }
        self.state().published.remove(&uri);
        self.client
            .publish_diagnostics(uri.clone(), Vec::new(), None)
            .await;
        self.publish(Changed::Files(vec![uri])).await;
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        let changed: Vec<Uri> = params.changes.iter().map(|c| c.uri.clone()).collect();
        {
            let mut state = self.state();
            for change in params.changes {
                if state.open.contains_key(&change.uri) {
                    continue;
                }
                let Some(path) = change.uri.to_file_path().map(|p| p.into_owned()) else {
                    continue;
                };
                let known = state.files.by_uri.get(&change.uri).copied();
                let candidate = Dialect::is_candidate_path(&path);
                let read = if known.is_some() || candidate {
                    levkit_files::read_found(&path, None)
                } else {
                    Err(levkit_files::Skip::NotLevelText)
                };
                match (read, known) {
                    (Ok(bytes), Some(_)) => {
                        state.host.set_file_bytes(path, &bytes);
                    }
                    (Ok(bytes), None) => {
                        let file = state.host.set_file_bytes(path, &bytes);
                        Arc::make_mut(&mut state.files).insert(change.uri, file);
                    }
                    (Err(_), Some(file)) => {
                        Arc::make_mut(&mut state.files).remove(&change.uri);
                        state.host.remove_file(file);
                    }
                    _ => {}
                }
            }
        }
        self.publish(Changed::Files(changed)).await;
    }

    async fn diagnostic(
        &self,
        params: DocumentDiagnosticParams,
    ) -> Result<DocumentDiagnosticReportResult> {
        let uri = params.text_document.uri;
        let items = self
            .query(move |analysis, cx| diagnostics(analysis, cx, cx.file(&uri)?, Depth::Full))
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
        self.query(move |analysis, cx| {
            let file = cx.file(&at.text_document.uri)?;
            let lines = cx.lines(analysis, file)?;
            let hover = analysis
                .hover(file, lines.offset(at.position))
                .map_err(modified)?;
            Ok(hover.map(|h| Hover {
                contents: HoverContents::Markup(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value: h.markdown,
                }),
                range: Some(lines.range(h.range)),
            }))
        })
        .await
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let at = params.text_document_position;
        self.query(move |analysis, cx| {
            let file = cx.file(&at.text_document.uri)?;
            let lines = cx.lines(analysis, file)?;
            let items = analysis
                .completions(file, lines.offset(at.position))
                .map_err(modified)?
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
        self.query(move |analysis, cx| {
            let file = cx.file(&at.text_document.uri)?;
            let offset = cx.lines(analysis, file)?.offset(at.position);
            let mut targets = Vec::new();
            for target in analysis.goto_definition(file, offset).map_err(modified)? {
                targets.extend(location(analysis, cx, target)?);
            }
            Ok((!targets.is_empty()).then_some(GotoDefinitionResponse::Array(targets)))
        })
        .await
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let at = params.text_document_position;
        self.query(move |analysis, cx| {
            let file = cx.file(&at.text_document.uri)?;
            let offset = cx.lines(analysis, file)?.offset(at.position);
            let mut found = Vec::new();
            for target in analysis.references(file, offset).map_err(modified)? {
                found.extend(location(analysis, cx, target)?);
            }
            Ok(Some(found))
        })
        .await
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        let uri = params.text_document.uri;
        self.query(move |analysis, cx| {
            let file = cx.file(&uri)?;
            let lines = cx.lines(analysis, file)?;
            let symbols = analysis
                .symbols(file)
                .map_err(modified)?
                .iter()
                .map(|s| symbol(&lines, s))
                .collect();
            Ok(Some(DocumentSymbolResponse::Nested(symbols)))
        })
        .await
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        let uri = params.text_document.uri;
        self.query(move |analysis, cx| {
            let file = cx.file(&uri)?;
            let lines = cx.lines(analysis, file)?;
            Ok(Some(
                analysis
                    .folding_ranges(file)
                    .map_err(modified)?
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
        self.query(move |analysis, cx| {
            let file = cx.file(&uri)?;
            let lines = cx.lines(analysis, file)?;
            let mut ranges = Vec::new();
            for p in positions {
                let nested = analysis
                    .selection_ranges(file, lines.offset(p))
                    .map_err(modified)?;
                let mut selection: Option<SelectionRange> = None;
                for range in nested.iter().rev() {
                    selection = Some(SelectionRange {
                        range: lines.range(*range),
                        parent: selection.map(Box::new),
                    });
                }
                ranges.push(selection.unwrap_or(SelectionRange {
                    range: Range::new(p, p),
                    parent: None,
                }));
            }
            Ok(Some(ranges))
        })
        .await
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        let uri = params.text_document.uri;
        let target = uri.clone();
        let (data, large) = self
            .query(move |analysis, cx| {
                let file = cx.file(&target)?;
                if analysis.file_text(file).map_err(modified)?.len() > LARGE_DOCUMENT_BYTES {
                    return Ok((Vec::new(), true));
                }
                Ok((semantic_tokens(analysis, cx, file, None)?, false))
            })
            .await?;
        if large && self.state().told_too_large.insert(uri.clone()) {
            self.client
                .show_message(
                    MessageType::INFO,
                    format!(
                        "levkit: {} is larger than {} MB, so it is highlighted only where you look (semantic token ranges), not all at once",
                        uri.as_str(),
                        LARGE_DOCUMENT_BYTES >> 20
                    ),
                )
                .await;
        }
        Ok(Some(SemanticTokensResult::Tokens(SemanticTokens {
            result_id: None,
            data,
        })))
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> Result<Option<SemanticTokensRangeResult>> {
        let uri = params.text_document.uri;
        let range = params.range;
        self.query(move |analysis, cx| {
            let file = cx.file(&uri)?;
            let wanted = cx.lines(analysis, file)?.text_range(range);
            Ok(Some(SemanticTokensRangeResult::Tokens(SemanticTokens {
                result_id: None,
                data: semantic_tokens(analysis, cx, file, Some(wanted))?,
            })))
        })
        .await
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let uri = params.text_document.uri;
        let range = params.range;
        self.query(move |analysis, cx| {
            let file = cx.file(&uri)?;
            let lines = cx.lines(analysis, file)?;
            let published = diagnostics(analysis, cx, file, Depth::Full)?;
            let actions = analysis
                .code_actions(file, lines.text_range(range))
                .map_err(modified)?
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
                    let fixed = published
                        .iter()
                        .filter(|d| {
                            d.range == lines.range(action.diagnostic.range)
                                && d.message == action.diagnostic.message
                        })
                        .cloned()
                        .collect();
                    CodeActionOrCommand::CodeAction(CodeAction {
                        title: action.title,
                        kind: Some(CodeActionKind::QUICKFIX),
                        diagnostics: Some(fixed),
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
        self.query(move |analysis, cx| {
            let file = cx.file(&uri)?;
            let lines = cx.lines(analysis, file)?;
            let wanted: TextRange = lines.text_range(range);
            Ok(Some(
                analysis
                    .inlay_hints(file, Some(wanted))
                    .map_err(modified)?
                    .into_iter()
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
    pub seed: Option<u32>,
    /// Sample the heat over this many builds from `seed` on (at most [`MAX_SAMPLE`]).
    pub sample: Option<u32>,
    /// The player's place (`D:5`), for levels that depend on it (DCSS vaults).
    pub place: Option<String>,
}

/// The most builds a preview's sampled heat is counted over.
pub const MAX_SAMPLE: u32 = 1000;

/// `levkit/dialect` parameters.
#[derive(Debug, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DialectParams {
    pub text_document: TextDocumentIdentifier,
}

impl Backend {
    /// `levkit/preview`: what the file looks like in the game (see `levkit_ide::Preview`),
    /// with the document's `uri`.
    pub async fn preview(&self, params: PreviewParams) -> Result<serde_json::Value> {
        let uri = params.text_document.uri;
        let seed = params.seed.unwrap_or(1);
        let request = PreviewRequest {
            level: params.level,
            place: params.place.filter(|p| !p.trim().is_empty()),
            seed,
            sample: params
                .sample
                .filter(|n| *n > 0)
                .map(|n| (seed, seed.saturating_add(n.min(MAX_SAMPLE) - 1))),
            ..PreviewRequest::default()
        };
        self.query(move |analysis, cx| {
            let file = cx.file(&uri)?;
            let request = PreviewRequest {
                encoding: cx.encoding,
                ..request
            };
            let preview = analysis.preview(file, &request).map_err(modified)?;
            let mut value = serde_json::to_value(&preview)
                .map_err(|_| tower_lsp_server::jsonrpc::Error::internal_error())?;
            if let Some(object) = value.as_object_mut() {
                object.insert("uri".into(), uri.as_str().into());
            }
            Ok(value)
        })
        .await
    }

    /// `levkit/dialect`: what the document's content says it is (whatever its language id),
    /// so that an editor can give a `.des` file the right language.
    pub async fn dialect(&self, params: DialectParams) -> Result<serde_json::Value> {
        let uri = params.text_document.uri;
        self.query(move |analysis, cx| {
            let file = cx.file(&uri)?;
            let text = analysis.file_text(file).map_err(modified)?;
            let detected = Dialect::detect(&path_of(&uri), &text);
            Ok(serde_json::json!({
                "dialect": detected.name(),
                "languageId": detected.language_id(),
            }))
        })
        .await
    }
}
