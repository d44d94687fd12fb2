// What the node tests share, as `levkit-test-support` is for the Rust tests: where the
// workspace and the corpus are, and a record of the test groups that could not run.
//
// The corpus is `$LEVKIT_CORPUS`, else `../shared/corpus` beside the workspace. A test that
// needs it and cannot find it says so loudly and is recorded as skipped; with
// `LEVKIT_REQUIRE_CORPUS=1` (as CI sets) it fails instead.
import { appendFileSync, mkdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The workspace's root folder. */
export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/**
 * Says loudly that a test group did not run, and records it in `target/skipped-tests.txt`
 * for `cargo xtask ci` to list (and, under `CI=true`, to fail on).
 */
export function skipped(group, reason) {
  console.error(`\n*** SKIPPED ${group}: ${reason} ***\n`);
  const record = join(root, "target", "skipped-tests.txt");
  mkdirSync(dirname(record), { recursive: true });
  appendFileSync(record, `${group}: ${reason}\n`);
}

/**
 * The corpus folder `name` (such as `nethack-3.4.3`), or `null` when the corpus is absent,
 * after saying so and recording `group` as skipped. Throws when the corpus is required.
 */
export function corpus(name, group) {
  const base = process.env.LEVKIT_CORPUS || join(root, "..", "shared", "corpus");
  const dir = join(base, name);
  if (statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return dir;
  const reason = `the corpus folder ${dir} is missing`;
  if (process.env.LEVKIT_REQUIRE_CORPUS === "1") {
    throw new Error(`${group}: ${reason}, and LEVKIT_REQUIRE_CORPUS=1 requires it`);
  }
  skipped(group, reason);
  return null;
}
