// levkit for VS Code: starts `levkit lsp`, gives files the dialect their content says (the
// server's answer to `levkit/dialect`, or the generated fallback before it runs), and shows a
// live preview of the level being edited.
import * as fs from "fs";
import * as path from "path";
import * as vscode from "vscode";
import { LanguageClient, LanguageClientOptions, ServerOptions } from "vscode-languageclient/node";
import { detectDialect, isCandidatePath, languageIdOf, usesExtensionOf } from "./detect";
import { LANGUAGE_IDS } from "./generated/dialects";
import type { NothingPreview, Preview } from "./generated/preview";
import { Redraw } from "./redraw";

let client: LanguageClient | undefined;
let preview: PreviewPanel | undefined;

/** The server: the `levkit.server.path` setting, then the bundled binary, then PATH. */
function findServer(context: vscode.ExtensionContext): string | undefined {
  const configured = vscode.workspace.getConfiguration("levkit").get<string>("server.path");
  if (configured) {
    return fs.existsSync(configured) ? configured : undefined;
  }
  const bundled = context.asAbsolutePath(path.join("server", process.platform === "win32" ? "levkit.exe" : "levkit"));
  if (fs.existsSync(bundled)) {
    return bundled;
  }
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const candidate = path.join(dir, process.platform === "win32" ? "levkit.exe" : "levkit");
    if (dir && fs.existsSync(candidate)) {
      return candidate;
    }
  }
  return undefined;
}

/** The language a `levkit.dialectOverrides` glob gives this file, if any. */
function overriddenLanguage(document: vscode.TextDocument): string | undefined {
  const overrides = vscode.workspace.getConfiguration("levkit").get<Record<string, string>>("dialectOverrides") ?? {};
  for (const [pattern, language] of Object.entries(overrides)) {
    if (vscode.languages.match({ pattern }, document) > 0) return language;
  }
  return undefined;
}

/** The language the content says: the server's `levkit/dialect` when it has the document,
 * else the fallback generated from the same rules (`detect.ts`). */
async function detectedLanguage(document: vscode.TextDocument, askServer: boolean): Promise<string | null> {
  if (askServer && client) {
    try {
      const answer = await client.sendRequest<{ dialect: string; languageId: string | null }>("levkit/dialect", {
        textDocument: { uri: document.uri.toString() },
      });
      return answer.languageId;
    } catch {
      // Stopped, or the document is not open there after all: the fallback decides.
    }
  }
  return languageIdOf(detectDialect(document.fileName, document.getText()));
}

/** Gives a document the language its override, else its content, says. A document in
 * another language is only taken when the dialect its content says uses its extension (a
 * `.txt` file becomes RLG327 when it is one, and stays text otherwise). */
async function assignDialect(document: vscode.TextDocument, askServer = false) {
  const override = overriddenLanguage(document);
  if (override) {
    if (override !== document.languageId) await vscode.languages.setTextDocumentLanguage(document, override);
    return;
  }
  let language: string | null;
  if (LANGUAGE_IDS.includes(document.languageId)) {
    language = await detectedLanguage(document, askServer);
  } else if (isCandidatePath(document.fileName)) {
    const dialect = detectDialect(document.fileName, document.getText());
    language = usesExtensionOf(dialect, document.fileName) ? languageIdOf(dialect) : null;
  } else {
    return;
  }
  if (language && language !== document.languageId && !document.isClosed) {
    await vscode.languages.setTextDocumentLanguage(document, language);
  }
}

async function startClient(context: vscode.ExtensionContext) {
  const server = findServer(context);
  if (!server) {
    const choice = await vscode.window.showErrorMessage(
      "levkit: the levkit language server was not found. Install it (`cargo install --path crates/cli`) or set `levkit.server.path`.",
      "Open Settings",
    );
    if (choice) vscode.commands.executeCommand("workbench.action.openSettings", "levkit.server.path");
    return;
  }
  const serverOptions: ServerOptions = { command: server, args: ["lsp"] };
  const clientOptions: LanguageClientOptions = {
    documentSelector: LANGUAGE_IDS.map((language) => ({ language })),
    initializationOptions: { extraWarnings: vscode.workspace.getConfiguration("levkit").get("extraWarnings") },
    synchronize: { configurationSection: "levkit", fileEvents: vscode.workspace.createFileSystemWatcher("**/*.{des,def,txt}") },
    middleware: {
      // Once the server has a document, it says what the content is.
      didOpen: async (document, next) => {
        await next(document);
        void assignDialect(document, true);
      },
    },
  };
  client = new LanguageClient("levkit", "levkit", serverOptions, clientOptions);
  await client.start();
  client.onNotification("levkit/previewChanged", (params: { textDocument: { uri: string } }) => {
    preview?.refreshIfShowing(params.textDocument.uri);
  });
}

export async function activate(context: vscode.ExtensionContext) {
  context.subscriptions.push(
    vscode.workspace.onDidOpenTextDocument((document) => assignDialect(document)),
    vscode.workspace.onDidSaveTextDocument((document) => assignDialect(document, client?.isRunning() ?? false)),
    vscode.commands.registerCommand("levkit.openPreview", () => {
      preview ??= new PreviewPanel(context, () => {
        preview = undefined;
      });
      preview.show(vscode.window.activeTextEditor?.document);
    }),
    vscode.commands.registerCommand("levkit.restartServer", async () => {
      // Disposed, not only stopped: a stopped client keeps its diagnostic collection, and a
      // new client of the same name could not create its own.
      const old = client;
      client = undefined;
      await old?.dispose();
      await startClient(context);
      preview?.refreshNow();
    }),
    vscode.window.onDidChangeActiveTextEditor((editor) => {
      if (editor && preview) preview.follow(editor.document);
    }),
    vscode.window.onDidChangeTextEditorSelection((event) => preview?.cursorMoved(event.textEditor)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("levkit.dialectOverrides")) {
        vscode.workspace.textDocuments.forEach((document) => assignDialect(document, client?.isRunning() ?? false));
      }
    }),
  );
  vscode.workspace.textDocuments.forEach((document) => assignDialect(document));
  await startClient(context);
}

export async function deactivate() {
  await client?.stop();
}

/** The messages the preview page sends. */
type FromPage =
  | { type: "reveal"; range: vscode.Range }
  | { type: "level"; level: string }
  | { type: "seed"; seed: number }
  | { type: "sample"; count: number }
  | { type: "ready"; sample: number };

/** Whether a request failed because a newer edit cancelled it (a newer request follows). */
function cancelled(error: unknown): boolean {
  const code = (error as { code?: number } | undefined)?.code;
  return code === -32801 || code === -32800 || /content modified|cancel/i.test(String(error));
}

/**
 * The preview: a webview fed by `levkit/preview`, asked again when the server says the
 * document changed, at most every 100 ms (`Redraw`). It shows any document of levkit's
 * languages (the server says what there is to see); for another file it says why it shows
 * nothing.
 */
class PreviewPanel {
  private panel: vscode.WebviewPanel;
  private document: vscode.TextDocument | undefined;
  private level: string | undefined;
  private seed = 1;
  /** Builds to sample the heat over (0: expected heat). */
  private sample = 0;
  /** The levels of the document shown and the lines they begin on, from its last preview. */
  private levels: { names: string[]; lines: number[] } | undefined;
  private redraw = new Redraw(() => this.refresh());

  constructor(context: vscode.ExtensionContext, onDispose: () => void) {
    this.panel = vscode.window.createWebviewPanel("levkit.preview", "levkit preview", vscode.ViewColumn.Beside, {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [vscode.Uri.joinPath(context.extensionUri, "media")],
    });
    const media = (file: string) => this.panel.webview.asWebviewUri(vscode.Uri.joinPath(context.extensionUri, "media", file));
    const html = fs.readFileSync(context.asAbsolutePath(path.join("media", "preview.html")), "utf8");
    this.panel.webview.html = html
      .replace("preview.css", media("preview.css").toString())
      .replace("preview.js", media("preview.js").toString())
      .replace("default-src 'none'", `default-src 'none'; script-src ${this.panel.webview.cspSource}; style-src ${this.panel.webview.cspSource}`);
    this.panel.onDidDispose(() => {
      this.redraw.dispose();
      onDispose();
    });
    this.panel.webview.onDidReceiveMessage((message: FromPage) => this.received(message));
  }

  /** Open Preview: the document, or why there is nothing to show. */
  show(document: vscode.TextDocument | undefined) {
    this.panel.reveal(vscode.ViewColumn.Beside, true);
    if (document && LANGUAGE_IDS.includes(document.languageId)) {
      this.follow(document);
    } else {
      this.document = undefined;
      const name = document ? path.basename(document.fileName) : "no file";
      const nothing: NothingPreview = {
        title: `${name} — nothing to preview`,
        controls: { levels: false, seed: false, regions: false, heat: false },
        rows: [],
        levels: [],
        notes: [
          document
            ? `levkit previews level files (NetHack .des levels, dungeon.def, DCSS vaults, RLG327 descriptions); ${name} is ${document.languageId}. Open a level file and run levkit: Open Preview again.`
            : "Open a level file (NetHack .des, dungeon.def, a DCSS vault, RLG327 descriptions) and run levkit: Open Preview again.",
        ],
      };
      this.panel.title = nothing.title ?? "levkit preview";
      this.panel.webview.postMessage({ type: "render", preview: nothing });
    }
  }

  /** The active editor changed: a level file is shown; other files leave the preview as it is. */
  follow(document: vscode.TextDocument) {
    if (!LANGUAGE_IDS.includes(document.languageId)) return;
    if (document === this.document) return;
    this.document = document;
    this.level = undefined;
    this.levels = undefined;
    this.redraw.request();
  }

  refreshIfShowing(uri: string) {
    if (this.document && this.document.uri.toString() === uri) this.redraw.request();
  }

  refreshNow() {
    this.redraw.request();
  }

  /** Shows the level the cursor is in, for files with several levels: the last whose first
   * line (the preview's `level_lines`) is at or above the cursor. */
  cursorMoved(editor: vscode.TextEditor) {
    if (editor.document !== this.document || !this.levels) return;
    const line = editor.selection.active.line;
    let level: string | undefined;
    this.levels.lines.forEach((start, i) => {
      if (start <= line) level = this.levels?.names[i];
    });
    if (level !== undefined && level !== this.level) {
      this.level = level;
      this.redraw.request();
    }
  }

  private async refresh() {
    const document = this.document;
    if (!client || !document) return;
    try {
      const result = await client.sendRequest<Preview & { uri: string }>("levkit/preview", {
        textDocument: { uri: document.uri.toString() },
        level: this.level,
        seed: this.seed,
        sample: this.sample || undefined,
      });
      if (document !== this.document) return;
      if (result.title) this.panel.title = result.title;
      this.levels = "level_lines" in result && result.level_lines ? { names: result.levels, lines: result.level_lines } : undefined;
      await this.panel.webview.postMessage({ type: "render", preview: result });
    } catch (error) {
      // Cancelled by a newer edit: the newer request draws. Anything else: the last
      // picture stays, and the page says why it is not redrawn.
      if (!cancelled(error)) {
        this.panel.webview.postMessage({ type: "error", message: `the preview could not be updated: ${String(error)}` });
      }
    }
  }

  private received(message: FromPage) {
    if (message.type === "reveal" && this.document) {
      const { start, end } = message.range;
      const range = new vscode.Range(start.line, start.character, end.line, end.character);
      const column = vscode.window.visibleTextEditors.find((e) => e.document === this.document)?.viewColumn ?? vscode.ViewColumn.One;
      vscode.window.showTextDocument(this.document, { viewColumn: column, selection: range });
    } else if (message.type === "level") {
      this.level = message.level;
      this.redraw.request();
    } else if (message.type === "seed" && Number.isFinite(message.seed)) {
      this.seed = message.seed;
      this.redraw.request();
    } else if (message.type === "sample") {
      this.sample = message.count;
      this.redraw.request();
    } else if (message.type === "ready") {
      // The page (re)loaded: what it drew before is gone, and it may want sampled heat.
      this.sample = message.sample;
      this.redraw.request();
    }
  }
}
