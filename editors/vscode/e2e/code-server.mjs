// Opt-in end-to-end run in a real VS Code (code-server, on loopback), as a level designer
// works: a level with mistakes (each diagnostic shown once), castle.des with the preview and
// its overlays, typing into it at 20 characters a second (a broken state keeps the last good
// picture under the error; the panel's redraws are counted), an RLG327 file's cards, a DCSS
// vault file (a vault picked in the panel, its heat sampled over 100 builds), and a server
// restart. Saves docs/images/vscode-{castle,broken,rlg327,dcss-heatmap}.png. Run by
// `cargo xtask e2e-vscode` (see e2e/run.sh for the set-up).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { chromium } from "playwright-core";

const url = process.env.CODE_SERVER_URL ?? "http://127.0.0.1:8089";
const folder = process.env.WORKSPACE;
const images = process.env.IMAGES ?? "docs/images";
const levkit = process.env.LEVKIT ?? "levkit";

const results = [];
function check(name, ok, detail = "") {
  results.push([name, ok, detail]);
  console.log(`e2e: ${ok ? "ok  " : "FAIL"} ${name}${detail ? ` — ${detail}` : ""}`);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const page = await browser.newPage({ viewport: { width: 1600, height: 900 } });
const sleep = (ms) => page.waitForTimeout(ms);

async function command(name) {
  await page.keyboard.press("F1");
  await sleep(300);
  await page.keyboard.type(name);
  await sleep(600);
  await page.keyboard.press("Enter");
}

/** Go to Line: the cursor on a 1-based line, shown in the middle of the editor. */
async function goToLine(line) {
  await page.keyboard.press("Control+G");
  await sleep(400);
  await page.keyboard.type(String(line));
  await page.keyboard.press("Enter");
  await sleep(400);
}

async function quickOpen(file) {
  await page.keyboard.press("Control+P");
  await sleep(300);
  await page.keyboard.type(file);
  await sleep(800);
  await page.keyboard.press("Enter");
  await page.waitForFunction((f) => document.querySelector(".tab.active")?.textContent?.includes(f), file, { timeout: 20000 });
}

/** The preview's frame (a webview is nested iframes), once it holds the page. */
async function previewFrame(timeout = 30000) {
  const until = Date.now() + timeout;
  while (Date.now() < until) {
    for (const frame of page.frames()) {
      const found = await frame.evaluate(() => !!document.getElementById("grid")).catch(() => false);
      if (found) return frame;
    }
    await sleep(250);
  }
  throw new Error("the preview panel did not open");
}

/** Counts of the Problems status bar item: [errors, warnings]. */
async function problemCounts() {
  return page.evaluate(() => {
    const item = document.getElementById("status.problems");
    const label = item?.getAttribute("aria-label") ?? item?.textContent ?? "";
    // "Errors: 5, Warnings: 3, Infos: 1" (or "No Problems").
    const count = (word) => Number((label.match(new RegExp(`${word}s?:?\\s*(\\d+)`, "i")) ?? [0, 0])[1]);
    return { label, errors: count("error"), warnings: count("warning") };
  });
}

try {
  const payload = encodeURIComponent(JSON.stringify([["openFile", `vscode-remote://${new URL(url).host}${folder}/mistakes.des`]]));
  await page.goto(`${url}/?folder=${encodeURIComponent(folder)}&payload=${payload}`);
  await page.waitForSelector(".monaco-editor .view-line", { timeout: 60000 });
  await page.waitForFunction(() => document.querySelectorAll(".squiggly-error, .squiggly-warning").length > 0, null, { timeout: 60000 });
  await sleep(1500);

  // 1. Each diagnostic once: the Problems counts are what `levkit check` finds.
  let expected;
  try {
    expected = execFileSync(levkit, ["check", "--format", "json", `${folder}/mistakes.des`], { encoding: "utf8" });
  } catch (failure) {
    // Exit status 1: the file has errors, as it should; the report is on standard output.
    expected = failure.stdout ?? "";
  }
  const lines = expected.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
  const want = { errors: lines.filter((d) => d.severity === "error").length, warnings: lines.filter((d) => d.severity === "warning").length };
  const shown = await problemCounts();
  check("each diagnostic is shown once", shown.errors === want.errors && shown.warnings === want.warnings, `Problems: ${shown.errors} errors, ${shown.warnings} warnings (${shown.label}); levkit check: ${want.errors}, ${want.warnings}`);

  // 2. castle.des with the preview and its overlays.
  await quickOpen("castle.des");
  await page.waitForSelector(".monaco-editor .view-line", { timeout: 20000 });
  await command("levkit: Open Preview");
  let frame = await previewFrame();
  await frame.waitForFunction(() => document.getElementById("grid")?.textContent?.includes("}}}}}}}}}"), null, { timeout: 30000 });
  await frame.locator("#show-regions").check();
  await frame.locator("#show-heat").check();
  await sleep(500);
  const castle = await frame.evaluate(() => ({
    title: document.getElementById("title")?.textContent,
    regions: document.querySelectorAll("#overlay .region").length,
    heat: document.querySelectorAll("#grid span.heat").length,
    legend: [...document.querySelectorAll("#legend li")].map((li) => li.textContent),
    fits: document.getElementById("grid").getBoundingClientRect().width <= document.getElementById("viewport").clientWidth,
  }));
  check("castle's preview: title, regions, heat, legend, fitted", castle.title?.startsWith("castle.des — castle, seed 1") && castle.regions > 20 && castle.heat > 50 && castle.legend.some((l) => l.includes("random dragon")) && castle.fits, JSON.stringify({ ...castle, legend: castle.legend.length }));
  await page.screenshot({ path: `${images}/vscode-castle.png` });

  // 3. Typing into castle.des at 20 characters a second, with the preview open: a
  // statement (broken while half typed), then a comment line (the level builds throughout),
  // counting the panel's redraws.
  await page.locator(".monaco-editor .view-line").first().click();
  await goToLine(61);
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await sleep(1500);
  await page.keyboard.type("MONSTER:'L',\"mas", { delay: 50 });
  await sleep(700);
  const broken = await frame.evaluate(() => ({
    stale: !!document.querySelector("#grid.stale"),
    error: !document.getElementById("error").hidden ? document.getElementById("error").textContent : null,
    castle: document.getElementById("grid").textContent.includes("}}}}}}}}}"),
  }));
  check("a broken edit keeps the last good picture under the error", broken.stale && !!broken.error && broken.castle, JSON.stringify(broken));
  await page.screenshot({ path: `${images}/vscode-broken.png` });
  await page.keyboard.type("ter lich\",(13,08)", { delay: 50 });
  await sleep(1500);
  const fixed = await frame.evaluate(() => ({
    stale: !!document.querySelector("#grid.stale"),
    error: !document.getElementById("error").hidden,
    lich: [...document.querySelectorAll("#legend li")].some((li) => li.textContent.includes("master lich")),
  }));
  check("the finished statement is drawn", !fixed.stale && !fixed.error && fixed.lich, JSON.stringify(fixed));
  await page.keyboard.press("Enter");
  const comment = "# a comment typed at twenty characters a second, the level builds";
  const from = await frame.evaluate(() => performance.now());
  await page.keyboard.type(comment, { delay: 50 });
  const to = await frame.evaluate(() => performance.now());
  await sleep(1000);
  const typing = await frame.evaluate(([from, to]) => {
    const draws = (window.levkitDraws ?? []).filter((t) => t > from && t <= to + 1000);
    const during = draws.filter((t) => t <= to).length;
    const gaps = draws.slice(1).map((t, i) => t - draws[i]).sort((a, b) => a - b);
    return {
      seconds: Number(((to - from) / 1000).toFixed(2)),
      drawsWhileTyping: during,
      perSecond: Number((during / ((to - from) / 1000)).toFixed(1)),
      drawsAfter: draws.length - during,
      minGap: gaps.length ? Math.round(gaps[0]) : null,
      medianGap: gaps.length ? Math.round(gaps[Math.floor(gaps.length / 2)]) : null,
    };
  }, [from, to]);
  check(`typing ${comment.length} characters at 20 a second: the panel redraws at most every 100 ms`, typing.minGap !== null && typing.minGap >= 100 && typing.drawsWhileTyping > 0, JSON.stringify(typing));

  // 4. An RLG327 file: the preview follows the editor and shows cards.
  await quickOpen("monster_desc.txt");
  frame = await previewFrame();
  await frame.waitForSelector(".card", { timeout: 30000 });
  const cards = await frame.evaluate(() => ({
    cards: document.querySelectorAll(".card").length,
    seedHidden: document.getElementById("seed-controls").hidden,
    heatHidden: document.getElementById("heat-controls").hidden,
    abil: [...document.querySelectorAll(".card dt")].some((dt) => dt.textContent === "abil"),
    rrty: [...document.querySelectorAll(".card dt")].some((dt) => dt.textContent === "rrty"),
  }));
  check("an RLG327 file shows its cards with every field, without level controls", cards.cards > 5 && cards.seedHidden && cards.heatHidden && cards.abil && cards.rrty, JSON.stringify(cards));
  await page.screenshot({ path: `${images}/vscode-rlg327.png` });

  // 5. A DCSS vault file: the panel follows the cursor into a vault, its picker chooses
  // another, and the heat, which a vault only has sampled, is counted over 100 builds.
  const vaults = readFileSync(`${folder}/large_themed.des`, "utf8").split("\n");
  const nameLine = (name) => vaults.findIndex((line) => new RegExp(`^NAME:\\s*${name}\\s*$`).test(line)) + 1;
  const titleOf = () => frame.evaluate(() => document.getElementById("title")?.textContent ?? "");
  const titled = (name) => frame.waitForFunction((name) => document.getElementById("title")?.textContent?.includes(`— ${name},`), name, { timeout: 60000 });
  const castleVault = "minmay_goblin_kobold_castle";
  await quickOpen("large_themed.des");
  frame = await previewFrame();
  await titled(castleVault);
  await goToLine(nameLine("dragon1_lemuel") + 2);
  await titled("dragon1_lemuel");
  const followed = await titleOf();
  await frame.locator("#level").selectOption(castleVault);
  await titled(castleVault);
  await frame.locator("#show-heat").check();
  await frame.locator("#heat-mode").selectOption("expected");
  await frame.waitForFunction(() => /sample over seeds/.test(document.getElementById("heat-note")?.textContent ?? ""), null, { timeout: 30000 });
  const expectedNote = await frame.evaluate(() => document.getElementById("heat-note").textContent);
  await frame.locator("#heat-mode").selectOption("sampled");
  await frame.waitForFunction(() => /100 builds/.test(document.getElementById("heat-unit")?.textContent ?? ""), null, { timeout: 60000 });
  // The editor shows the vault's source (its headers and map) beside its picture.
  const end = vaults.findIndex((line, i) => i >= nameLine(castleVault) && line.trim() === "ENDMAP") + 1;
  await goToLine(Math.round((nameLine(castleVault) + end) / 2));
  await sleep(1000);
  const vault = await frame.evaluate(() => ({
    title: document.getElementById("title")?.textContent,
    picked: /** @type {HTMLSelectElement} */ (document.getElementById("level")).value,
    vaults: document.querySelectorAll("#level option").length,
    kind: /** @type {HTMLSelectElement} */ (document.getElementById("heat-kind")).value,
    kinds: [...document.querySelectorAll("#heat-kind option")].map((o) => o.textContent),
    heat: document.querySelectorAll("#grid span.heat").length,
    scale: document.getElementById("heat-scale").hidden ? null : `${document.getElementById("heat-high").textContent} ${document.getElementById("heat-unit").textContent}`,
    legend: [...document.querySelectorAll("#legend li")].map((li) => li.textContent),
    error: document.getElementById("error").hidden ? null : document.getElementById("error").textContent,
    status: document.getElementById("status").textContent,
    fits: document.getElementById("grid").getBoundingClientRect().width <= document.getElementById("viewport").clientWidth,
  }));
  check(
    "a DCSS vault: the panel follows the cursor, the picker chooses the vault, expected heat says to sample",
    followed.includes("— dragon1_lemuel,") && vault.picked === castleVault && vault.vaults > 40 && /only known by building it/.test(expectedNote),
    JSON.stringify({ followed, picked: vault.picked, vaults: vault.vaults, expectedNote }),
  );
  check(
    "the vault's sampled heat: title, things per square over 100 builds with its scale, legend, no error, fitted",
    vault.title?.startsWith(`large_themed.des — ${castleVault}, seed 1`) &&
      vault.kind === "all" &&
      vault.kinds.includes("monster") &&
      vault.heat > 50 &&
      /share of builds, 100 builds \(seeds 1–100\)/.test(vault.scale ?? "") &&
      vault.legend.some((l) => l.includes("goblin")) &&
      vault.error === null &&
      vault.status === "" &&
      vault.fits,
    JSON.stringify({ ...vault, legend: vault.legend.length }),
  );
  await page.screenshot({ path: `${images}/vscode-dcss-heatmap.png` });

  // 6. Restarting the server: no "DiagnosticCollection ... already exists", and the same
  // problems as before.
  await quickOpen("mistakes.des");
  await sleep(1000);
  const before = await problemCounts();
  await command("levkit: Restart Server");
  await sleep(5000);
  const notices = await page.evaluate(() => document.querySelector(".notifications-toasts")?.textContent ?? "");
  const after = await problemCounts();
  check("a restarted server comes back without complaint", !/already exists/i.test(notices) && after.label === before.label, `before: ${before.label}; after: ${after.label}; ${notices}`);
} catch (error) {
  check("the run finished", false, String(error));
  await page.screenshot({ path: `${images}/../../target/e2e-vscode-failure.png` }).catch(() => {});
} finally {
  await browser.close();
}
const failed = results.filter(([, ok]) => !ok).length;
console.log(`e2e: ${results.length - failed} passed, ${failed} failed (screenshots in ${images})`);
process.exit(failed ? 1 : 0);
