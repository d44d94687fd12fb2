// The extension's fallback detector against the Rust one: test-data/dialects/detection-cases.json
// holds what `Dialect::detect` says of every file under test-data/ and of targeted snippets
// (written by `cargo xtask codegen`); src/detect.ts must say the same of each.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { bundle, root } from "./bundle.mjs";

const cases = JSON.parse(readFileSync(join(root, "test-data/dialects/detection-cases.json"), "utf8"));
const { detectDialect, languageIdOf } = await bundle("src/detect.ts");

test("the fallback detector agrees with Dialect::detect on every case", () => {
  assert.ok(cases.cases.length > 100, "the cases file lists test-data/ and the snippets");
  const disagreements = [];
  for (const c of cases.cases) {
    const text = c.text ?? readFileSync(join(root, c.path), "utf8");
    const dialect = detectDialect(c.path, text);
    const languageId = languageIdOf(dialect);
    if (dialect !== c.dialect || languageId !== c.languageId) {
      disagreements.push(`${c.what ?? c.path}: Rust says ${c.dialect} (${c.languageId}), detect.ts ${dialect} (${languageId})`);
    }
  }
  assert.deepEqual(disagreements, []);
});
