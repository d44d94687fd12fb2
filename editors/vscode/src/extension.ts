// levkit for VS Code: starts `levkit lsp`, gives `.des` files their dialect by content, and
// shows a live preview of the level being edited.
import * as fs from "fs";
import * as path from "path";
import * as vscode from "vscode";
import { LanguageClient, LanguageClientOptions, ServerOptions } from "vscode-languageclient/node";

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

/** A `.des` file is NetHack unless its first statements are a DCSS vault's. */
function dialectOfDes(document: vscode.TextDocument): string | undefined {
  for (let i = 0; i < Math.min(document.lineCount, 200); i++) {
    const line = document.lineAt(i).text;
    if (line.startsWith("#") || line.trim() === "") continue;
    if (/^\s*(MAZE|LEVEL|INIT_MAP|GEOMETRY)\b/i.test(line)) return "nethack-des";
    if (/^(NAME|default-depth|TAGS|ORIENT|DEPTH):/.test(line) || line.startsWith("{{") || line.startsWith(": ")) return "dcss-des";
  }
  return undefined;
}

/** The dialect a `levkit.dialectOverrides` glob gives this file, if any. */
function overriddenDialect(document: vscode.TextDocument): string | undefined {
  const overrides = vscode.workspace.getConfiguration("levkit").get<Record<string, string>>("dialectOverrides") ?? {};
  for (const [pattern, dialect] of Object.entries(overrides)) {
    if (vscode.languages.match({ pattern }, document) > 0) return dialect;
  }
  return undefined;
}

async function assignDialect(document: vscode.TextDocument) {
  const override = overriddenDialect(document);
  if (override) {
    if (override !== document.languageId) await vscode.languages.setTextDocumentLanguage(document, override);
    return;
  }
  if (document.fileName.endsWith(".des")) {
    const dialect = dialectOfDes(document);
    if (dialect && dialect !== document.languageId) {
      await vscode.languages.setTextDocumentLanguage(document, dialect);
    }
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
    documentSelector: ["nethack-des", "nethack-dungeon", "dcss-des", "rlg327"].map((language) => ({ language })),
    initializationOptions: { extraWarnings: vscode.workspace.getConfiguration("levkit").get("extraWarnings") },
    synchronize: { configurationSection: "levkit", fileEvents: vscode.workspace.createFileSystemWatcher("**/*.{des,def,txt}") },
  };
  client = new LanguageClient("levkit", "levkit", serverOptions, clientOptions);
  await client.start();
  client.onNotification("levkit/previewChanged", (params: { textDocument: { uri: string } }) => {
    preview?.refreshIfShowing(params.textDocument.uri);
  });
}

export async function activate(context: vscode.ExtensionContext) {
  context.subscriptions.push(
    vscode.workspace.onDidOpenTextDocument(assignDialect),
    vscode.commands.registerCommand("levkit.openPreview", () => {
      preview ??= new PreviewPanel(context, () => {
        preview = undefined;
      });
      preview.show(vscode.window.activeTextEditor?.document);
    }),
    vscode.commands.registerCommand("levkit.restartServer", async () => {
      await client?.stop();
      await startClient(context);
    }),
    vscode.window.onDidChangeActiveTextEditor((editor) => {
      if (editor && preview) preview.follow(editor.document);
    }),
    vscode.window.onDidChangeTextEditorSelection((event) => preview?.cursorMoved(event.textEditor)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("levkit.dialectOverrides")) vscode.workspace.textDocuments.forEach(assignDialect);
    }),
  );
  vscode.workspace.textDocuments.forEach(assignDialect);
  await startClient(context);
}

export async function deactivate() {
  await client?.stop();
}

/** The preview: a webview fed by `levkit/preview`, redrawn whenever the server says so. */
class PreviewPanel {
  private panel: vscode.WebviewPanel;
  private document: vscode.TextDocument | undefined;
  private level: string | undefined;
  private seed = 1;

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
    this.panel.onDidDispose(onDispose);
    this.panel.webview.onDidReceiveMessage((message) => this.received(message));
  }

  show(document: vscode.TextDocument | undefined) {
    this.panel.reveal(vscode.ViewColumn.Beside, true);
    if (document) this.follow(document);
  }

  follow(document: vscode.TextDocument) {
    if (!["nethack-des", "rlg327"].includes(document.languageId)) return;
    this.document = document;
    this.level = undefined;
    this.refresh();
  }

  refreshIfShowing(uri: string) {
    if (this.document && this.document.uri.toString() === uri) this.refresh();
  }

  /** Shows the level the cursor is in, for files with several levels. */
  cursorMoved(editor: vscode.TextEditor) {
    if (editor.document !== this.document) return;
    const above = editor.document.getText(new vscode.Range(new vscode.Position(0, 0), editor.selection.active));
    const names = [...above.matchAll(/^\s*(?:MAZE|LEVEL)\s*:\s*"([^"]*)"/gm)];
    const level = names.length ? names[names.length - 1][1] : undefined;
    if (level && level !== this.level) {
      this.level = level;
      this.refresh();
    }
  }

  private async refresh() {
    if (!client || !this.document) return;
    try {
      const result = await client.sendRequest("levkit/preview", {
        textDocument: { uri: this.document.uri.toString() },
        level: this.level,
        seed: this.seed,
      });
      this.panel.webview.postMessage({ type: "render", preview: result });
    } catch (error) {
      // Cancelled by a newer edit, or the text is broken: keep the last good picture.
      this.panel.webview.postMessage({ type: "error", message: String(error) });
    }
  }

  private received(message: { type: string; range?: vscode.Range; level?: string; seed?: number }) {
    if (message.type === "reveal" && message.range && this.document) {
      const { start, end } = message.range;
      const range = new vscode.Range(start.line, start.character, end.line, end.character);
      vscode.window.showTextDocument(this.document, { viewColumn: vscode.ViewColumn.One, selection: range });
    } else if (message.type === "level") {
      this.level = message.level;
      this.refresh();
    } else if (message.type === "seed" && message.seed !== undefined) {
      this.seed = message.seed;
      this.refresh();
    }
  }
}
