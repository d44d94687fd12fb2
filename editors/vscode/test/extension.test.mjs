// The extension against fakes of `vscode` and of the language client: its document selector is
// Dialect::language_ids(), the fallback gives documents their dialect before the server runs,
// and once it runs the server's `levkit/dialect` answer decides.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { bundle, root } from "./bundle.mjs";

const { languageIds } = JSON.parse(readFileSync(join(root, "test-data/dialects/detection-cases.json"), "utf8"));

/** A fake editor: records what the extension asks of it. */
function fakeEditor({ overrides = {}, serverAnswers = {} } = {}) {
  const listeners = {};
  const on = (name) => (listener) => {
    (listeners[name] ??= []).push(listener);
    return { dispose() {} };
  };
  const editor = { listeners, clients: [], languageChanges: [], requests: [], documents: [], commands: {}, collections: new Set() };
  const settings = { "server.path": process.execPath, dialectOverrides: overrides, extraWarnings: false };
  editor.vscode = {
    workspace: {
      getConfiguration: () => ({ get: (key) => settings[key] }),
      onDidOpenTextDocument: on("open"),
      onDidSaveTextDocument: on("save"),
      onDidChangeConfiguration: on("configuration"),
      get textDocuments() {
        return editor.documents;
      },
      createFileSystemWatcher: () => ({ dispose() {} }),
    },
    languages: {
      // Globs are matched by their last extension, enough for these tests.
      match: ({ pattern }, document) => (document.fileName.endsWith(pattern.slice(pattern.lastIndexOf(".")).replace("*", "")) ? 10 : 0),
      setTextDocumentLanguage: async (document, language) => {
        editor.languageChanges.push([document.fileName, language]);
        document.languageId = language;
        return document;
      },
    },
    commands: {
      registerCommand: (name, handler) => {
        editor.commands[name] = handler;
        return { dispose() {} };
      },
      executeCommand: () => {},
    },
    window: {
      onDidChangeActiveTextEditor: on("activeEditor"),
      onDidChangeTextEditorSelection: on("selection"),
      showErrorMessage: async () => undefined,
    },
  };
  class LanguageClient {
    constructor(id, name, serverOptions, clientOptions) {
      this.options = clientOptions;
      editor.clients.push(this);
    }
    async start() {
      // Like the real client: its diagnostic collection is named after it, and a second
      // collection of the same name is an error until the first is disposed.
      if (editor.collections.has("levkit")) throw new Error("DiagnosticCollection with name 'levkit' already exists");
      editor.collections.add("levkit");
      this.running = true;
    }
    async dispose() {
      editor.collections.delete("levkit");
      this.running = false;
    }
    isRunning() {
      return !!this.running;
    }
    onNotification() {}
    async sendRequest(method, params) {
      editor.requests.push([method, params.textDocument.uri]);
      return serverAnswers[params.textDocument.uri];
    }
    async stop() {}
  }
  editor.client = { LanguageClient };
  return editor;
}

function document(fileName, languageId, text) {
  return { fileName, languageId, uri: { toString: () => `file://${fileName}` }, isClosed: false, getText: () => text };
}

const context = { subscriptions: [], asAbsolutePath: (p) => p, extensionUri: {} };
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

async function activate(editor) {
  const extension = await bundle("src/extension.ts", { vscode: editor.vscode, "vscode-languageclient/node": editor.client });
  await extension.activate(context);
  await settle();
  return editor.clients[0];
}

test("the client's document selector is Dialect::language_ids()", async () => {
  const client = await activate(fakeEditor());
  assert.deepEqual(
    client.options.documentSelector.map((s) => s.language),
    languageIds,
  );
});

test("before the server runs, the generated fallback gives documents their dialect", async () => {
  const editor = fakeEditor();
  editor.documents = [
    document("/w/vault.des", "nethack-des", "MONS: orc\nMAP\n.\nENDMAP\n"),
    document("/w/castle.des", "nethack-des", "MAZE:\"castle\",random\n"),
    document("/w/monsters.txt", "plaintext", "RLG327 MONSTER DESCRIPTION 1\n"),
    document("/w/notes.txt", "plaintext", "NAME: not a vault, a note\n"),
  ];
  await activate(editor);
  assert.deepEqual(editor.languageChanges.sort(), [
    ["/w/monsters.txt", "rlg327"],
    ["/w/vault.des", "dcss-des"],
  ]);
});

test("once the server runs, its levkit/dialect answer decides", async () => {
  const uri = "file:///w/new.des";
  const editor = fakeEditor({ serverAnswers: { [uri]: { dialect: "dcss", languageId: "dcss-des" } } });
  const client = await activate(editor);
  // Opened as NetHack (its text says so to the fallback), then the server says otherwise.
  const opened = document("/w/new.des", "nethack-des", "MAZE:\"x\"\n");
  const sent = [];
  await client.options.middleware.didOpen(opened, async (d) => sent.push(d.fileName));
  await settle();
  assert.deepEqual(sent, ["/w/new.des"], "the document reaches the server first");
  assert.deepEqual(editor.requests, [["levkit/dialect", uri]]);
  assert.deepEqual(editor.languageChanges, [["/w/new.des", "dcss-des"]]);
});

test("an override wins over the content", async () => {
  const editor = fakeEditor({ overrides: { "**/*.des": "nethack-des" } });
  editor.documents = [document("/w/vault.des", "nethack-des", "NAME: x\n")];
  const client = await activate(editor);
  await client.options.middleware.didOpen(editor.documents[0], async () => {});
  await settle();
  assert.deepEqual(editor.languageChanges, []);
  assert.deepEqual(editor.requests, []);
});

test("restarting the server disposes the old client first (no 'DiagnosticCollection already exists')", async () => {
  const editor = fakeEditor();
  const first = await activate(editor);
  await editor.commands["levkit.restartServer"]();
  assert.equal(editor.clients.length, 2);
  assert.equal(first.isRunning(), false);
  assert.equal(editor.clients[1].isRunning(), true);
});

test("every map token type has a colour, and only DCSS vaults pair {{ with }}", async () => {
  const manifest = JSON.parse(readFileSync(join(root, "editors/vscode/package.json"), "utf8"));
  const scoped = Object.keys(manifest.contributes.semanticTokenScopes[0].scopes);
  for (const { id } of manifest.contributes.semanticTokenTypes) assert.ok(scoped.includes(id), `${id} has no scope`);
  for (const language of manifest.contributes.languages) {
    const configuration = JSON.parse(readFileSync(join(root, "editors/vscode", language.configuration), "utf8"));
    const pairsBraces = configuration.brackets.some(([open]) => open === "{{");
    // NetHack maps draw moats as `}}`: a bracket pair there paints them as unmatched.
    assert.equal(pairsBraces, language.id === "dcss-des", language.id);
  }
});
