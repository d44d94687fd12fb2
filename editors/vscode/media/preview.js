// @ts-check
// The level preview page. It draws what `levkit/preview` answers, sent by the extension as
// {type: "render", preview}; it works in a plain browser too (tests post the same messages).
// Type-checked (`tsc -p media`) against the protocol's declarations, generated from the Rust
// types (docs/preview-protocol.md).

/** @typedef {import("../src/generated/preview").Preview} Preview */
/** @typedef {import("../src/generated/preview").LevelPreview} LevelPreview */
/** @typedef {import("../src/generated/preview").NothingPreview} NothingPreview */
/** @typedef {import("../src/generated/preview").Card} Card */
/** @typedef {import("../src/generated/preview").WireRange} WireRange */
/** @typedef {{type: "render", preview: Preview} | {type: "error", message: string}} FromEditor */
/** @typedef {{regions?: boolean, heat?: boolean}} Saved */

(function () {
  const vscode = typeof acquireVsCodeApi === "function" ? acquireVsCodeApi() : { postMessage: () => {}, getState: () => undefined, setState: () => {} };
  /**
   * The page's element with this id, of the type the page declares it with.
   * @template {HTMLElement} T
   * @param {string} id
   * @param {new () => T} type
   * @returns {T}
   */
  function element(id, type) {
    const found = document.getElementById(id);
    if (!(found instanceof type)) throw new Error(`preview.html has no ${type.name} #${id}`);
    return found;
  }
  const grid = element("grid", HTMLElement);
  const legend = element("legend", HTMLElement);
  const notes = element("notes", HTMLElement);
  const levelPicker = element("level", HTMLSelectElement);
  const seedInput = element("seed", HTMLInputElement);
  const status = element("status", HTMLElement);
  const showRegions = element("show-regions", HTMLInputElement);
  const showHeat = element("show-heat", HTMLInputElement);
  const saved = /** @type {Saved} */ (vscode.getState() || {});
  showRegions.checked = !!saved.regions;
  showHeat.checked = !!saved.heat;
  /** @type {Preview | null} */
  let last = null;

  /** @type {Record<string, string>} */
  const classes = {
    "-": "wall", "|": "wall", S: "wall", B: "wall",
    ".": "floor", I: "floor", "+": "door", "#": "corridor", H: "corridor",
    "}": "water", P: "water", W: "water", L: "lava", T: "tree",
    "{": "feature", "\\": "feature", K: "feature", F: "feature", A: "air", C: "air",
  };

  /** @param {WireRange | null} range */
  const lineOf = (range) => (range ? ` — line ${range.start.line + 1}` : "");

  /** @param {Preview} preview */
  function render(preview) {
    last = preview;
    status.textContent = "";
    status.className = "";
    if ("cards" in preview) {
      grid.replaceChildren(...preview.cards.map(card));
    } else if ("rows" in preview) {
      grid.replaceChildren(...map(preview));
    } else {
      // A dungeon overview: nothing to draw on the grid (the extension previews levels).
      grid.replaceChildren();
    }
    legend.replaceChildren(...("legend" in preview ? preview.legend : []).map((l) => item(`${l.glyph}  ${l.meaning}`)));
    notes.replaceChildren(...preview.notes.map((n) => item(n)));
    const levels = "levels" in preview ? preview.levels : [];
    if (levelPicker.options.length !== levels.length || [...levelPicker.options].some((o, i) => o.value !== levels[i])) {
      levelPicker.replaceChildren(...levels.map((name) => new Option(name, name)));
    }
    if ("level" in preview && preview.level) levelPicker.value = preview.level;
    levelPicker.hidden = levels.length < 2;
  }

  /**
   * The rows of a level, a span per square, with what made it, its regions and heat.
   * @param {LevelPreview | NothingPreview} preview
   */
  function map(preview) {
    const level = "cells" in preview ? preview : undefined;
    const sources = new Map((level?.cells ?? []).map((c) => [`${c.x},${c.y}`, c]));
    const heat = new Map((level?.heat ?? []).map((h) => [`${h.x},${h.y}`, h.expected]));
    const hottest = Math.max(0, ...heat.values());
    const regions = level?.regions ?? [];
    return preview.rows.map((row, y) => {
      const line = document.createElement("div");
      [...row].forEach((glyph, x) => {
        const span = document.createElement("span");
        span.textContent = glyph;
        span.dataset.x = String(x);
        span.dataset.y = String(y);
        if (classes[glyph]) span.classList.add(`cell-${classes[glyph]}`);
        const source = sources.get(`${x},${y}`);
        const lines = [source ? `(${x},${y}) ${source.what}${lineOf(source.range)}` : `(${x},${y})`];
        if (showRegions.checked) {
          const inside = regions.filter((r) => r.x1 <= x && x <= r.x2 && r.y1 <= y && y <= r.y2);
          if (inside.length) span.classList.add("in-region");
          for (const r of inside) lines.push(`${r.what}${lineOf(r.range)}`);
        }
        const expected = heat.get(`${x},${y}`);
        if (showHeat.checked && expected) {
          span.classList.add("heat");
          span.style.setProperty("--heat", String(0.15 + (0.65 * expected) / hottest));
          lines.push(`${expected.toFixed(2)} things expected here`);
        }
        span.title = lines.join("\n");
        // A square nothing of this file made has no source to reveal.
        const range = source?.range;
        if (range) span.addEventListener("click", () => vscode.postMessage({ type: "reveal", range }));
        line.appendChild(span);
      });
      return line;
    });
  }

  /** @param {Card} entry */
  function card(entry) {
    const div = document.createElement("div");
    div.className = "card";
    const f = entry.fields;
    div.textContent = [`${f.symb || ""} ${f.name || ""}`, f.color, f.speed && `speed ${f.speed}`, f.hp && `hp ${f.hp}`, f.dam && `dam ${f.dam}`]
      .filter(Boolean)
      .join("  ·  ");
    div.addEventListener("click", () => vscode.postMessage({ type: "reveal", range: entry.range }));
    return div;
  }

  /** @param {string} text */
  function item(text) {
    const li = document.createElement("li");
    li.textContent = text;
    return li;
  }

  window.addEventListener("message", (/** @type {MessageEvent<FromEditor>} */ event) => {
    const message = event.data;
    if (message.type === "render") render(message.preview);
    // Invalid intermediate text: the last good picture stays, with the error beside it.
    if (message.type === "error") {
      status.textContent = message.message;
      status.className = "error";
    }
  });
  for (const toggle of [showRegions, showHeat]) {
    toggle.addEventListener("change", () => {
      vscode.setState({ regions: showRegions.checked, heat: showHeat.checked });
      if (last) render(last);
    });
  }
  levelPicker.addEventListener("change", () => vscode.postMessage({ type: "level", level: levelPicker.value }));
  seedInput.addEventListener("change", () => vscode.postMessage({ type: "seed", seed: Number(seedInput.value) }));
  element("reroll", HTMLButtonElement).addEventListener("click", () => {
    seedInput.value = String(Number(seedInput.value) + 1);
    vscode.postMessage({ type: "seed", seed: Number(seedInput.value) });
  });
})();
