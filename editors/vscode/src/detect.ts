// The content-based fallback for a file's dialect, used until the server answers
// `levkit/dialect`. It is `Dialect::detect` (crates/syntax/src/dialect.rs) over the same rules,
// generated into ./generated/dialects.ts; test/dialects.test.mjs checks that it agrees with
// the Rust detector on every case of test-data/dialects/detection-cases.json. Keep the two in
// step: Rust's idea of a line, of whitespace and of a path is spelled out below, because
// JavaScript's differs (trim() strips U+FEFF and keeps U+0085).
import { DETECTION, DIALECTS, type DialectName } from "./generated/dialects";

/** `Dialect::detect`: the file's dialect by its content, the name only breaking ties. */
export function detectDialect(path: string, text: string): DialectName {
  if (hasExtension(path, DETECTION.dungeonExtensions)) return "nethack-dungeon";
  const rlg327 = rlg327Kind(path, text);
  if (rlg327) return rlg327;
  for (const raw of lines(text).slice(0, DETECTION.linesScanned)) {
    let line = raw.replace(/\r+$/, "");
    while (line !== "" && DETECTION.indentation.includes(line[0])) line = line.slice(1);
    if (line === "" || line.startsWith("#")) continue;
    const word = /^[A-Za-z0-9_-]*/.exec(line)![0];
    const opening = DETECTION.openingWords.find(([w]) => asciiLower(w) === asciiLower(word));
    if (opening) return opening[1];
    if (trimStart(line.slice(word.length)).startsWith(":")) {
      const header = DETECTION.headerWords.find(([w]) => w === word);
      if (header) return header[1];
    }
    const prefix = DETECTION.linePrefixes.find(([p]) => line.startsWith(p));
    if (prefix) return prefix[1];
  }
  const [extension, dialect] = DETECTION.emptyFile;
  const empty = lines(text).every((l) => trim(l) === "" || l.startsWith("#"));
  return empty && hasExtension(path, [extension]) ? dialect : "unknown";
}

/** The editor language of a dialect (`Dialect::language_id`); `null` for `unknown`. */
export function languageIdOf(dialect: DialectName): string | null {
  return DIALECTS.find((d) => d.name === dialect)?.languageId ?? null;
}

/** Whether a dialect's files usually have this path's extension: a `.txt` file is only
 * ours when an RLG327 dialect recognised it (`Dialect::claims_found_file`, generalised). */
export function usesExtensionOf(dialect: DialectName, path: string): boolean {
  const extension = extensionOf(path);
  return extension !== null && (DIALECTS.find((d) => d.name === dialect)?.extensions ?? []).some((e) => asciiLower(e) === asciiLower(extension));
}

/** Whether any dialect's files have this path's extension (`Dialect::is_candidate_path`). */
export function isCandidatePath(path: string): boolean {
  return DIALECTS.some((d) => usesExtensionOf(d.name, path));
}

/** RLG327 files: by their header (any course prefix), their first entry, or their name. */
function rlg327Kind(path: string, text: string): DialectName | null {
  const first = lines(text)
    .map(trim)
    .find((l) => l !== "");
  if (first === undefined) return null;
  const words = splitWhitespace(first);
  const byWord = (w: string) => DETECTION.rlg327Kinds.find(([kind]) => kind === w)?.[1] ?? null;
  if (words.length >= 3 && words[2] === "DESCRIPTION") return byWord(words[1]);
  if (words[0] === "BEGIN") return words.length > 1 ? byWord(words[1]) : null;
  const name = fileName(path);
  return DETECTION.rlg327FileNames.find(([n]) => n === name)?.[1] ?? null;
}

/** Rust's `str::lines`: split at `\n`, dropping one `\r` before it; no last empty line. */
function lines(text: string): string[] {
  if (text === "") return [];
  const pieces = text.split("\n");
  if (pieces[pieces.length - 1] === "") pieces.pop();
  return pieces.map((piece, i) => (i < pieces.length - 1 || text.endsWith("\n") ? piece.replace(/\r$/, "") : piece));
}

/** Rust's `char::is_whitespace` (Unicode White_Space). */
const WHITESPACE = "[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const LEADING = new RegExp(`^${WHITESPACE}+`);
const TRAILING = new RegExp(`${WHITESPACE}+$`);
const RUNS = new RegExp(`${WHITESPACE}+`);

function trimStart(text: string): string {
  return text.replace(LEADING, "");
}

function trim(text: string): string {
  return trimStart(text).replace(TRAILING, "");
}

function splitWhitespace(text: string): string[] {
  return text.split(RUNS).filter((w) => w !== "");
}

function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** `Path::file_name`: the last component (either separator, as on Windows). */
function fileName(path: string): string | null {
  const name = path.replace(/[\\/]+$/, "").split(/[\\/]/).pop() ?? "";
  return name === "" || name === "." || name === ".." ? null : name;
}

/** `Path::extension`: after the last dot of the file name, unless that dot starts it. */
function extensionOf(path: string): string | null {
  const name = fileName(path);
  const dot = name === null ? -1 : name.lastIndexOf(".");
  return name !== null && dot > 0 ? name.slice(dot + 1) : null;
}

function hasExtension(path: string, extensions: readonly string[]): boolean {
  const extension = extensionOf(path);
  return extension !== null && extensions.some((e) => asciiLower(e) === asciiLower(extension));
}
