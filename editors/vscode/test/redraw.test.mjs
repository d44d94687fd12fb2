// The preview's redraw pacing: while the user types 20 characters a second, the preview is
// asked again at most every 100 ms, one request at a time, and the last change is drawn.
import { test } from "node:test";
import assert from "node:assert/strict";
import { bundle } from "./bundle.mjs";

const { Redraw } = await bundle("src/redraw.ts");
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

test("typing 20 characters a second redraws at most every 100 ms, and draws the last change", async () => {
  const starts = [];
  const ends = [];
  let running = 0;
  let overlapping = false;
  let drawn = -1;
  let typed = 0;
  const redraw = new Redraw(async () => {
    starts.push(performance.now());
    overlapping ||= running > 0;
    running++;
    const seen = typed;
    await sleep(30); // the server's answer and the page's drawing
    drawn = seen;
    running--;
    ends.push(performance.now());
  });
  for (typed = 1; typed <= 40; typed++) {
    redraw.request();
    await sleep(50);
  }
  typed = 40;
  await sleep(250);
  const gaps = ends.slice(1).map((t, i) => t - ends[i]);
  assert.ok(Math.min(...gaps) >= 99.9, `redraws ${Math.min(...gaps).toFixed(0)} ms apart`);
  assert.ok(ends.length >= 12 && ends.length <= 21, `${ends.length} redraws for 40 keystrokes in 2 s`);
  assert.equal(overlapping, false, "one request at a time");
  assert.equal(drawn, 40, "the last keystroke is drawn");
  console.log(`# 40 keystrokes at 20/s: ${ends.length} redraws, ${Math.min(...gaps).toFixed(0)}–${Math.max(...gaps).toFixed(0)} ms apart`);
});

test("after a pause, a change is drawn at once", async () => {
  const starts = [];
  const redraw = new Redraw(async () => {
    starts.push(performance.now());
  });
  await sleep(120);
  const asked = performance.now();
  redraw.request();
  assert.ok(starts.length === 1 && starts[0] - asked < 5);
  redraw.dispose();
});
