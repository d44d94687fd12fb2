// The TextMate grammars, tested offline with the engine VS Code uses: scope snapshots of
// fixtures (`UPDATE_EXPECT=1` rewrites them), and every corpus file tokenized without the
// grammar losing track of map and description blocks.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, readdirSync, existsSync } from "node:fs";
import { join, extname } from "node:path";
import { createRequire } from "node:module";
import vsctm from "vscode-textmate";
import oniguruma from "vscode-oniguruma";

import { corpus, root } from "./support.mjs";

const require = createRequire(import.meta.url);
const syntaxes = join(root, "syntaxes");

const wasm = readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm")).buffer;
const onigLib = oniguruma.loadWASM(wasm).then(() => ({
  createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
  createOnigString: (s) => new oniguruma.OnigString(s),
}));
const files = {
  "source.nethack-des": "nethack-des.tmLanguage.json",
  "source.nethack-dungeon": "nethack-dungeon.tmLanguage.json",
  "source.rlg327": "rlg327.tmLanguage.json",
  "source.dcss-des": "dcss-des.tmLanguage.json",
};
const registry = new vsctm.Registry({
  onigLib,
  loadGrammar: async (scope) => {
    const file = files[scope];
    if (!file) return null; // source.lua is not bundled; embedded Lua keeps its own scope.
    return vsctm.parseRawGrammar(readFileSync(join(syntaxes, file), "utf8"), join(syntaxes, file));
  },
});

async function tokenize(scope, text) {
  const grammar = await registry.loadGrammar(scope);
  let stack = vsctm.INITIAL;
  const lines = [];
  for (const line of text.split("\n")) {
    const result = grammar.tokenizeLine(line, stack);
    lines.push({ line, tokens: result.tokens });
    stack = result.ruleStack;
  }
  return lines;
}

function scopeOf(name) {
  if (name.endsWith(".des")) return "source.nethack-des";
  if (name.endsWith(".def")) return "source.nethack-dungeon";
  if (name.includes("dcss")) return "source.dcss-des";
  return "source.rlg327";
}

test("scope snapshots of the fixtures", async () => {
  const dir = join(root, "test-data", "grammars");
  for (const name of readdirSync(dir).filter((n) => extname(n) !== ".scopes")) {
    const text = readFileSync(join(dir, name), "utf8");
    let actual = "";
    for (const { line, tokens } of await tokenize(scopeOf(name), text)) {
      if (line.length === 0) continue;
      actual += `${line}\n`;
      for (const t of tokens) {
        const piece = line.slice(t.startIndex, t.endIndex);
        if (piece.trim() === "") continue;
        actual += `  ${JSON.stringify(piece)} ${t.scopes.slice(1).join(" ")}\n`;
      }
    }
    const expectedPath = join(dir, `${name}.scopes`);
    if (process.env.UPDATE_EXPECT || !existsSync(expectedPath)) writeFileSync(expectedPath, actual);
    assert.equal(actual, readFileSync(expectedPath, "utf8"), `${name}: scopes differ (UPDATE_EXPECT=1 rewrites)`);
  }
});

/// Checks that a grammar's block scope is on exactly the lines the language puts in blocks.
async function checkBlocks(scope, text, blockScope, opens, closes, file) {
  let inside = false;
  for (const { line, tokens } of await tokenize(scope, text)) {
    const clean = line.replace(/\r$/, "");
    const insideNow = tokens.some((t) => t.scopes.some((s) => s.startsWith(blockScope)));
    if (!inside && opens(clean)) {
      inside = true;
      continue;
    }
    if (inside && closes(clean)) {
      inside = false;
      continue;
    }
    if (clean.trim() !== "") assert.equal(insideNow, inside, `${file}: "${clean}" ${inside ? "should" : "should not"} be in ${blockScope}`);
  }
  assert.equal(inside, false, `${file}: a block is left open`);
}

test("every NetHack map closes at its ENDMAP", async (t) => {
  const dir = corpus("nethack-3.4.3", "NetHack maps in the TextMate grammar (VS Code test)");
  if (!dir) return t.skip("no corpus");
  const names = readdirSync(dir).filter((n) => n.endsWith(".des"));
  assert.equal(names.length, 24);
  for (const name of names) {
    const text = readFileSync(join(dir, name), "utf8");
    await checkBlocks("source.nethack-des", text, "meta.map", (l) => l === "MAP", (l) => /^\s*ENDMAP\b/.test(l), name);
  }
  await tokenize("source.nethack-dungeon", readFileSync(join(dir, "dungeon.def"), "utf8"));
});

test("every RLG327 description closes at its dot", async (t) => {
  const dir = corpus("rlg327", "RLG327 descriptions in the TextMate grammar (VS Code test)");
  if (!dir) return t.skip("no corpus");
  for (const folder of ["monsters", "objects"]) {
    for (const name of readdirSync(join(dir, folder))) {
      const text = readFileSync(join(dir, folder, name), "utf8");
      const opensDesc = (l) => /^\s*DESC\s*$/.test(l);
      // Files whose descriptions never end (a corpus malformation) only need to tokenize.
      const lines = text.split("\n").map((l) => l.replace(/\r$/, ""));
      const balanced = lines.filter(opensDesc).length === lines.filter((l) => l === ".").length;
      if (balanced) await checkBlocks("source.rlg327", text, "string.unquoted.desc", opensDesc, (l) => l === ".", name);
      else await tokenize("source.rlg327", text);
    }
  }
});
