// The real server (`levkit lsp`) as the extension's client meets it, over stdio: a DCSS vault
// gets its diagnostics, hover on a header, header completion, and semantic tokens whose types
// the extension declares and colours.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { root, skipped } from "./support.mjs";

const levkit = process.env.LEVKIT ?? join(root, "target", "debug", "levkit");
const missing = !existsSync(levkit) && `no levkit at ${levkit} (cargo build first)`;
if (missing) skipped("the server with a DCSS vault (VS Code test)", missing);

/** A minimal JSON-RPC client over the server's stdio. */
function start() {
  const server = spawn(levkit, ["lsp"], { stdio: ["pipe", "pipe", "ignore"] });
  let buffer = Buffer.alloc(0);
  let next = 1;
  const pending = new Map();
  const notifications = [];
  const waiters = [];
  server.stdout.on("data", (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const end = buffer.indexOf("\r\n\r\n");
      if (end < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, end).toString())[1]);
      if (buffer.length < end + 4 + length) return;
      const message = JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString());
      buffer = buffer.subarray(end + 4 + length);
      if (message.id !== undefined && pending.has(message.id)) {
        pending.get(message.id)(message);
        pending.delete(message.id);
      } else if (message.id !== undefined) {
        // A request from the server (configuration, registration...): answered empty.
        send({ jsonrpc: "2.0", id: message.id, result: null });
      } else {
        notifications.push(message);
        for (const waiter of waiters.splice(0)) waiter();
      }
    }
  });
  const send = (message) => {
    const body = JSON.stringify(message);
    server.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  };
  return {
    request(method, params) {
      const id = next++;
      send({ jsonrpc: "2.0", id, method, params });
      return new Promise((resolve) => pending.set(id, resolve));
    },
    notify(method, params) {
      send({ jsonrpc: "2.0", method, params });
    },
    async notification(predicate, timeout = 10000) {
      const deadline = Date.now() + timeout;
      for (;;) {
        const found = notifications.find(predicate);
        if (found) return found;
        if (Date.now() > deadline) throw new Error("no such notification");
        await new Promise((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    stop() {
      server.kill();
    },
  };
}

const vault = "NAME: garden\nTAGS: transparent\nDEPTH: D:4-9, Lair\nMONS: gobln\nMAP\nxx1xx\nx...@\nxxxxx\nENDMAP\n";

test("a DCSS vault: diagnostics, hover and completion on a header, coloured map tokens", { skip: missing }, async () => {
  const client = start();
  try {
    const uri = pathToFileURL(join(root, "target", "vscode-test-vault.des")).href;
    const initialized = await client.request("initialize", { processId: null, rootUri: null, capabilities: {} });
    client.notify("initialized", {});
    client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "dcss-des", version: 1, text: vault } });

    const published = await client.notification(
      (m) => m.method === "textDocument/publishDiagnostics" && m.params.uri === uri && m.params.diagnostics.length > 0,
    );
    const codes = published.params.diagnostics.map((d) => d.code);
    assert.ok(codes.includes("DC0119"), JSON.stringify(codes));

    const hover = await client.request("textDocument/hover", { textDocument: { uri }, position: { line: 2, character: 2 } });
    assert.match(hover.result.contents.value, /^\*\*DEPTH\*\* — The levels where the vault may be picked at random/);

    const depths = await client.request("textDocument/hover", { textDocument: { uri }, position: { line: 2, character: 10 } });
    assert.match(depths.result.contents.value, /Dungeon 4–9, every Lair level/);

    const completion = await client.request("textDocument/completion", { textDocument: { uri }, position: { line: 3, character: 1 } });
    const items = Array.isArray(completion.result) ? completion.result : completion.result.items;
    assert.ok(items.some((i) => i.label === "MONS"), JSON.stringify(items.map((i) => i.label)));

    // The server's token types are all declared and coloured by the extension.
    const manifest = JSON.parse(readFileSync(join(root, "editors/vscode/package.json"), "utf8"));
    const declared = manifest.contributes.semanticTokenTypes.map((t) => t.id);
    const legend = initialized.result.capabilities.semanticTokensProvider.legend.tokenTypes;
    for (const type of legend.filter((t) => t.startsWith("map"))) assert.ok(declared.includes(type), `${type} is not declared`);
    const tokens = await client.request("textDocument/semanticTokens/full", { textDocument: { uri } });
    const used = new Set();
    for (let i = 3; i < tokens.result.data.length; i += 5) used.add(legend[tokens.result.data[i]]);
    for (const type of ["mapWall", "mapFloor", "mapMonster"]) assert.ok(used.has(type), `${type} is not used: ${[...used]}`);
  } finally {
    client.stop();
  }
});
