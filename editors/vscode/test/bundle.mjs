// Helpers for tests of the extension's TypeScript: esbuild bundles a module (Node runs no
// TypeScript), with `vscode` and the language client left to fakes the test provides.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

export const extensionDir = join(dirname(fileURLToPath(import.meta.url)), "..");
export const root = join(extensionDir, "..", "..");

/**
 * Loads `entry` (relative to the extension's folder) as CommonJS. `fakes` maps a module the
 * code imports (such as `vscode`) to the object it gets instead.
 */
export async function bundle(entry, fakes = {}) {
  const result = await build({
    entryPoints: [join(extensionDir, entry)],
    bundle: true,
    platform: "node",
    format: "cjs",
    write: false,
    logLevel: "silent",
    external: Object.keys(fakes),
  });
  const dir = mkdtempSync(join(tmpdir(), "levkit-test-"));
  globalThis.levkitFakes = fakes;
  for (const name of Object.keys(fakes)) {
    const file = join(dir, "node_modules", ...name.split("/")) + ".js";
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `module.exports = globalThis.levkitFakes[${JSON.stringify(name)}];\n`);
  }
  const file = join(dir, "bundle.js");
  writeFileSync(file, result.outputFiles[0].text);
  try {
    // Imports run when the bundle loads, so the folder can go right after.
    return createRequire(import.meta.url)(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
