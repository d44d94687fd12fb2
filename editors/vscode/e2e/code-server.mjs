// Opt-in end-to-end run in a real VS Code (code-server, on loopback): opens a level with
// mistakes, waits for levkit's diagnostics, opens the live preview beside it and saves a
// screenshot. Run by `cargo xtask e2e-vscode` (see the README for the set-up it needs).
import { chromium } from "playwright-core";

const url = process.env.CODE_SERVER_URL ?? "http://127.0.0.1:8089";
const folder = process.env.LEVKIT_EXAMPLES;
const file = `${folder}/mistakes.des`;
const screenshot = process.env.SCREENSHOT ?? "docs/images/vscode-preview.png";

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1600, height: 900 } });
  const payload = encodeURIComponent(JSON.stringify([["openFile", `vscode-remote://${new URL(url).host}${file}`]]));
  await page.goto(`${url}/?folder=${encodeURIComponent(folder)}&payload=${payload}`);
  // Diagnostics: the Problems count in the status bar becomes non-zero.
  await page.waitForSelector(".monaco-editor .view-line", { timeout: 60000 });
  await page.waitForFunction(() => document.querySelectorAll(".squiggly-error, .squiggly-warning").length > 0, null, { timeout: 60000 });
  await page.keyboard.press("F1");
  await page.keyboard.type("levkit: Open Preview");
  await page.waitForTimeout(500);
  await page.keyboard.press("Enter");
  // The preview is a webview in nested iframes; wait until it draws the map.
  let found = false;
  for (let i = 0; i < 60 && !found; i++) {
    for (const frame of page.frames()) {
      const text = await frame.evaluate(() => document.getElementById("grid")?.textContent ?? "").catch(() => "");
      if (text.includes("|.....+")) found = true;
    }
    if (!found) await page.waitForTimeout(500);
  }
  if (!found) throw new Error("the preview did not show the level");
  await page.screenshot({ path: screenshot });
  console.log(`e2e: 1 passed, 0 failed (screenshot in ${screenshot})`);
} finally {
  await browser.close();
}
