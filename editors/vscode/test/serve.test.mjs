// `levkit preview --serve` in headless Chromium: the same page as the VS Code panel, in a plain
// browser (its own content policy, no test bypass); an edit of the file on disk redraws it,
// a broken edit keeps the last picture (or the last cards) under the error, and a click says
// where the source is.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { root, skipped } from "./support.mjs";

const executablePath = process.env.CHROMIUM ?? "/usr/bin/chromium";
const levkit = process.env.LEVKIT ?? join(root, "target", "debug", "levkit");

const missing = (!existsSync(executablePath) && `no Chromium at ${executablePath}`) || (!existsSync(levkit) && `no levkit at ${levkit} (cargo build first)`);
if (missing) skipped("levkit preview --serve in Chromium", missing);

/** Starts `levkit preview FILE --serve --port 0`; resolves to its URL and the process. */
function serve(file) {
  const server = spawn(levkit, ["preview", file, "--serve", "--port", "0"], { stdio: ["ignore", "ignore", "pipe"] });
  return new Promise((resolve, reject) => {
    let said = "";
    server.stderr.on("data", (chunk) => {
      said += chunk;
      const url = said.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (url) resolve({ url: url[0], server });
    });
    server.on("exit", (code) => reject(new Error(`levkit exited (${code}): ${said}`)));
  });
}

/**
 * Writes `text` as `name` in a new folder, serves it and opens its page in headless Chromium;
 * `body` gets the file's path, the page, the page's URL and its uncaught errors. Everything is
 * closed and removed after, whatever `body` does.
 */
async function withServedPage(name, text, body) {
  const dir = mkdtempSync(join(tmpdir(), "levkit-serve-"));
  const file = join(dir, name);
  writeFileSync(file, text);
  const { url, server } = await serve(file);
  const browser = await chromium.launch({ executablePath, args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"] });
  try {
    const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    const problems = [];
    page.on("pageerror", (error) => problems.push(String(error)));
    await body({ file, page, url, problems });
  } finally {
    await browser.close();
    server.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

test("the served page redraws when the file is saved, in a plain browser", { skip: missing }, async () => {
  const fortress = readFileSync(join(root, "test-data", "examples", "fortress.des"), "utf8");
  await withServedPage("fortress.des", fortress, async ({ file, page, url, problems }) => {
    page.on("console", (message) => message.type() === "error" && problems.push(message.text()));
    await page.goto(url);
    const row = (y) => page.evaluate((y) => [...document.querySelectorAll("#grid > span")].slice(y * 80, y * 80 + 80).map((s) => s.textContent).join(""), y);
    await page.waitForFunction(() => document.querySelectorAll("#grid > span").length === 80 * 21);
    assert.match(await page.locator("#title").textContent(), /^fortress\.des — fortress, seed 1/);
    // The fortress's top wall (nothing stands on walls).
    const rows = await Promise.all(Array.from({ length: 21 }, (_, y) => row(y)));
    const y = rows.findIndex((r) => r.includes("}-------------}"));
    assert.ok(y > 0, rows.join("\n"));
    const before = rows[y];

    // Saved with a tree in the wall: the page redraws by itself.
    const text = readFileSync(file, "utf8");
    writeFileSync(file, text.replace("}-------------}", "}------T------}"));
    await page.waitForFunction(([y, old]) => [...document.querySelectorAll("#grid > span")].slice(y * 80, y * 80 + 80).map((s) => s.textContent).join("") !== old, [y, before], { timeout: 10000 });
    assert.match(await row(y), /\}------#------\}/);

    // Saved broken: the last picture stays, out of date, under the error.
    writeFileSync(file, text.replace("}-------------}", "}------T------}").replace("DOOR:locked,(7,3)", "DOOR:locked,(7,"));
    await page.waitForSelector("#error:not([hidden])", { timeout: 10000 });
    assert.match(await row(y), /\}------#------\}/);
    assert.equal(await page.locator("#grid.stale").count(), 1);

    // Fixed again; a click on a square says where its character is.
    writeFileSync(file, text);
    await page.waitForSelector("#error[hidden]", { state: "attached", timeout: 10000 });
    assert.equal(await row(y), before);
    const x = before.indexOf("}-") + 1;
    await page.locator(`#grid > span:nth-child(${y * 80 + x + 1})`).click();
    // The page hears back from the stand-in editor by a message, after the click returns.
    await page.waitForFunction(() => document.querySelector("#status")?.textContent !== "", null, { timeout: 5000 });
    assert.match(await page.locator("#status").textContent(), /^line 8, column 2$/);
    assert.deepEqual(problems, []);
  });
});

test("a served RLG327 file keeps its last good cards under a half-typed field's error", { skip: missing }, async () => {
  const text = readFileSync(join(root, "test-data", "rlg327", "preview", "two_monsters_monster_desc.txt"), "utf8");
  await withServedPage("monster_desc.txt", text, async ({ file, page, url, problems }) => {
    await page.goto(url);
    await page.waitForFunction(() => document.querySelectorAll(".card").length === 2);
    const headings = () => page.locator(".card h3").allTextContents();
    assert.deepEqual(await headings(), ["rSample Rat", "BCave Bear"]);
    // Saved with `DAM 0+1d` half typed: the rat's card stays, out of date, under the error.
    writeFileSync(file, text.replace("DAM 0+1d3", "DAM 0+1d"));
    await page.waitForSelector("#error:not([hidden])", { timeout: 10000 });
    assert.deepEqual(await headings(), ["rSample Rat", "BCave Bear"]);
    assert.equal(await page.locator("#cards.stale").count(), 1);
    assert.equal(await page.locator("#error-line").textContent(), "line 11");
    assert.match(await page.locator("#error-message").textContent(), /^DAM takes dice .* \(RL0205\)$/);
    // Fixed again.
    writeFileSync(file, text);
    await page.waitForSelector("#error[hidden]", { state: "attached", timeout: 10000 });
    assert.equal(await page.locator("#cards.stale").count(), 0);
    assert.deepEqual(await headings(), ["rSample Rat", "BCave Bear"]);
    assert.deepEqual(problems, []);
  });
});
