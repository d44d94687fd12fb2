// @ts-check
// The preview page. It draws what `levkit/preview` answers, sent by the extension as
// {type: "render", preview}, and knows nothing of any file format: rows and cells (each with
// its colour and the source range a click selects), the legend, regions, heat layers, cards,
// notes, the title, an error and which controls apply all come from the preview. It works in a
// plain browser too (`levkit preview --serve`, and the tests post the same messages).
// Type-checked (`tsc -p media`) against the protocol's declarations, generated from the Rust
// types (docs/preview-protocol.md).

/** @typedef {import("../src/generated/preview").Preview} Preview */
/** @typedef {import("../src/generated/preview").LevelPreview} LevelPreview */
/** @typedef {import("../src/generated/preview").NothingPreview} NothingPreview */
/** @typedef {import("../src/generated/preview").Card} Card */
/** @typedef {import("../src/generated/preview").Cell} Cell */
/** @typedef {import("../src/generated/preview").Region} Region */
/** @typedef {import("../src/generated/preview").HeatLayer} HeatLayer */
/** @typedef {import("../src/generated/preview").Controls} Controls */
/** @typedef {import("../src/generated/preview").PreviewError} PreviewError */
/** @typedef {import("../src/generated/preview").WireRange} WireRange */
/** @typedef {Preview & {uri?: string}} Shown */
/** @typedef {{type: "render", preview: Shown} | {type: "error", message: string} | {type: "status", message: string}} FromEditor */
/** @typedef {{regions?: boolean, heat?: boolean, kind?: string, mode?: string, zoom?: number, solo?: string | null}} Saved */

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
  const title = element("title", HTMLElement);
  const status = element("status", HTMLElement);
  const viewport = element("viewport", HTMLElement);
  const board = element("board", HTMLElement);
  const grid = element("grid", HTMLElement);
  const overlay = element("overlay", HTMLElement);
  const cardsBox = element("cards", HTMLElement);
  const empty = element("empty", HTMLElement);
  const legend = element("legend", HTMLElement);
  const legendPanel = element("legend-panel", HTMLDetailsElement);
  const notes = element("notes", HTMLElement);
  const regionsPanel = element("regions-panel", HTMLDetailsElement);
  const regionList = element("region-list", HTMLElement);
  const errorBox = element("error", HTMLElement);
  const errorLine = element("error-line", HTMLAnchorElement);
  const errorMessage = element("error-message", HTMLElement);
  const levelPicker = element("level", HTMLSelectElement);
  const seedControls = element("seed-controls", HTMLElement);
  const seedInput = element("seed", HTMLInputElement);
  const zoomControls = element("zoom-controls", HTMLElement);
  const regionsControl = element("regions-control", HTMLElement);
  const showRegions = element("show-regions", HTMLInputElement);
  const heatControls = element("heat-controls", HTMLElement);
  const showHeat = element("show-heat", HTMLInputElement);
  const heatKind = element("heat-kind", HTMLSelectElement);
  const heatMode = element("heat-mode", HTMLSelectElement);
  const heatScale = element("heat-scale", HTMLElement);
  const heatHigh = element("heat-high", HTMLElement);
  const heatUnit = element("heat-unit", HTMLElement);
  const heatNote = element("heat-note", HTMLElement);

  /** How many builds sampled heat counts over. */
  const SAMPLE = 100;
  const saved = /** @type {Saved} */ (vscode.getState() || {});
  showRegions.checked = !!saved.regions;
  showHeat.checked = !!saved.heat;
  heatMode.value = saved.mode === "sampled" ? "sampled" : "expected";
  let zoom = typeof saved.zoom === "number" ? saved.zoom : 1;
  /** @type {string | null} */
  let solo = saved.solo ?? null;
  /** The preview drawn now (and whether it is a kept picture, out of date), and the last whole picture (kept while the text is broken). */
  /** @type {Shown | null} */
  let shown = null;
  let drawnStale = false;
  /** @type {{key: string, preview: Shown} | null} */
  let lastGood = null;
  /** The cells of the drawn picture, by the index their span carries. */
  /** @type {Cell[]} */
  let drawnCells = [];

  function save() {
    vscode.setState({ regions: showRegions.checked, heat: showHeat.checked, kind: heatKind.value || saved.kind, mode: heatMode.value, zoom, solo });
  }

  /** @param {WireRange | null | undefined} range */
  const lineOf = (range) => (range ? ` — line ${range.start.line + 1}` : "");
  /** @param {WireRange} range */
  const reveal = (range) => vscode.postMessage({ type: "reveal", range });

  /**
   * What a kept picture is kept for: the document, and the level, the cards or the overview.
   * @param {Shown} preview
   */
  const keyOf = (preview) => `${preview.uri ?? ""}\u0000${"level" in preview ? `level ${preview.level}` : "dungeons" in preview ? "overview" : "cards" in preview ? "cards" : ""}`;

  /**
   * The first error of the text, which every preview but "nothing" carries (`null` or, from
   * an older server, absent when there is none).
   * @param {Shown} preview
   * @returns {PreviewError | null}
   */
  const errorOf = (preview) => ("error" in preview && preview.error) || null;

  /**
   * Whether the preview is a whole picture of its text, to keep while the text is broken:
   * a built level, or cards or an overview of a text without errors.
   * @param {Shown} preview
   */
  const whole = (preview) => ("generated" in preview ? preview.generated : ("cards" in preview || "dungeons" in preview) && !errorOf(preview));

  /**
   * A preview arrives. One of broken text (it has `error`: a level that cannot be built,
   * cards that leave an entry out, an overview dgn_comp would not compile) does not replace
   * the last whole picture of the same level, cards or overview: that stays, marked out of
   * date, under the error.
   * @param {Shown} preview
   */
  function receive(preview) {
    status.textContent = "";
    const error = errorOf(preview);
    if (!error || whole(preview)) {
      if (whole(preview)) lastGood = { key: keyOf(preview), preview };
      draw(preview, false);
      showError(null);
      return;
    }
    if (lastGood && lastGood.key === keyOf(preview)) {
      draw(lastGood.preview, true);
    } else {
      draw(preview, false);
    }
    showError(error);
  }

  /** @param {PreviewError | null} error */
  function showError(error) {
    errorBox.hidden = !error;
    if (!error) return;
    errorLine.textContent = `line ${error.range.start.line + 1}`;
    errorMessage.textContent = `${error.message} (${error.code})`;
    errorLine.onclick = (event) => {
      event.preventDefault();
      reveal(error.range);
    };
  }

  /** Which controls mean something: what the preview says, else what it holds. */
  /** @param {Shown} preview */
  function controlsOf(preview) {
    if ("controls" in preview && preview.controls) return preview.controls;
    const level = "cells" in preview;
    return {
      levels: "levels" in preview && preview.levels.length > 1,
      seed: level,
      regions: level && "regions" in preview && preview.regions.length > 0,
      heat: level,
    };
  }

  /**
   * @param {Shown} preview
   * @param {boolean} stale whether it is the last good picture behind an error
   */
  function draw(preview, stale) {
    shown = preview;
    drawnStale = stale;
    (window.levkitDraws ??= []).push(performance.now());
    const controls = controlsOf(preview);
    const heading = `${preview.title ?? "levkit preview"}${stale ? " (out of date)" : ""}`;
    title.textContent = heading;
    document.title = heading;
    const levels = "levels" in preview ? preview.levels : [];
    if (levelPicker.options.length !== levels.length || [...levelPicker.options].some((o, i) => o.value !== levels[i])) {
      levelPicker.replaceChildren(...levels.map((name) => new Option(name, name)));
    }
    if ("level" in preview && preview.level) levelPicker.value = preview.level;
    if ("seed" in preview && document.activeElement !== seedInput) seedInput.value = String(preview.seed);
    levelPicker.hidden = !controls.levels;
    seedControls.hidden = !controls.seed;
    regionsControl.hidden = !controls.regions;
    heatControls.hidden = !controls.heat;
    const rows = "rows" in preview ? preview.rows : [];
    zoomControls.hidden = rows.length === 0;
    board.hidden = rows.length === 0;
    if (rows.length) drawMap(/** @type {LevelPreview | NothingPreview} */ (preview), stale, controls);
    else {
      grid.replaceChildren();
      grid.classList.remove("stale");
      overlay.replaceChildren();
      drawnCells = [];
      hover = { regions: [], layer: null, heat: new Map() };
    }
    const cards = ("cards" in preview ? preview.cards : undefined) ?? [];
    cardsBox.replaceChildren(...cards.map(card));
    cardsBox.classList.toggle("stale", stale);
    // Nothing to draw: the notes say why, in large.
    const nothing = rows.length === 0 && cards.length === 0;
    empty.hidden = !nothing;
    empty.textContent = nothing ? preview.notes.join(" ") || "Nothing to preview in this file." : "";
    const noteList = nothing ? [] : [...preview.notes];
    if (stale) noteList.unshift("out of date: the text has an error, so this is the last picture built; fix the error to see your changes");
    notes.replaceChildren(...noteList.map((n) => item(n)));
    const entries = "legend" in preview ? preview.legend : [];
    legendPanel.hidden = entries.length === 0;
    legend.replaceChildren(
      ...entries.map((l) => {
        const li = document.createElement("li");
        const glyph = document.createElement("span");
        glyph.className = "glyph";
        glyph.textContent = l.glyph;
        if (l.color) glyph.style.color = l.color;
        li.append(glyph, l.meaning);
        li.title = `${l.glyph}  ${l.meaning}`;
        return li;
      }),
    );
  }

  /**
   * The map: a cell per square in an 80-column grid, each coloured as the preview says and
   * selecting its source when clicked; the regions outlined over it; the heat as shading.
   * @param {LevelPreview | NothingPreview} preview
   * @param {boolean} stale
   * @param {Controls} controls
   */
  function drawMap(preview, stale, controls) {
    const level = "cells" in preview ? preview : undefined;
    drawnCells = level?.cells ?? [];
    const byPlace = new Map(drawnCells.map((c, i) => [c.y * 80 + c.x, i]));
    const regions = controls.regions ? level?.regions ?? [] : [];
    const layer = controls.heat && showHeat.checked ? heatLayer(level) : null;
    const heat = new Map((layer?.cells ?? []).map((h) => [h.y * 80 + h.x, h.value]));
    const top = layer && layer.max > 0 ? layer.max : 1;
    hover = { regions: showRegions.checked ? regions.filter(visible) : [], layer, heat };
    // The squares' spans are made once and updated in place: a redraw while typing only
    // touches what changed.
    const count = preview.rows.length * 80;
    while (grid.children.length < count) grid.appendChild(document.createElement("span"));
    while (grid.children.length > count) grid.lastChild?.remove();
    for (let y = 0; y < preview.rows.length; y++) {
      const row = [...preview.rows[y]];
      for (let x = 0; x < 80; x++) {
        const span = /** @type {HTMLElement} */ (grid.children[y * 80 + x]);
        const glyph = row[x] ?? " ";
        if (span.textContent !== glyph) span.textContent = glyph;
        const index = byPlace.get(y * 80 + x);
        const cell = index === undefined ? undefined : drawnCells[index];
        const value = heat.get(y * 80 + x);
        const classes = [cell?.range ? "src" : "", cell?.lit ? "lit" : "", layer && value ? "heat" : ""].filter(Boolean).join(" ");
        if (span.className !== classes) span.className = classes;
        const cellIndex = index === undefined ? "" : String(index);
        if ((span.dataset.cell ?? "") !== cellIndex) {
          if (cellIndex) span.dataset.cell = cellIndex;
          else delete span.dataset.cell;
        }
        span.style.color = cell?.color ?? "";
        span.style.backgroundColor = layer && value ? `rgba(255, 110, 0, ${(0.12 + (0.73 * value) / top).toFixed(3)})` : "";
        span.removeAttribute("title");
      }
    }
    grid.classList.toggle("stale", stale);
    overlay.replaceChildren(
      ...(showRegions.checked ? regions : []).filter(visible).map((r, i) => {
        const box = document.createElement("div");
        box.className = "region";
        box.style.gridColumn = `${r.x1 + 1} / ${r.x2 + 2}`;
        box.style.gridRow = `${r.y1 + 1} / ${r.y2 + 2}`;
        box.style.setProperty("--region", r.color ?? "#4aa3ff");
        box.dataset.region = r.id ?? String(i);
        return box;
      }),
    );
    drawRegionList(regions);
    drawHeatScale(layer, controls.heat && showHeat.checked);
    fit();
  }

  /** @param {Region} region */
  const visible = (region) => solo === null || region.id === solo;

  /** What the hover title of a square lists besides its cell: the regions and heat drawn. */
  /** @type {{regions: Region[], layer: HeatLayer | null, heat: Map<number, number>}} */
  let hover = { regions: [], layer: null, heat: new Map() };

  /**
   * A square's hover title: where it is, what made it (with its line), what stands there,
   * the regions over it and its heat. Made when the pointer comes, not at every redraw.
   * @param {number} x
   * @param {number} y
   * @param {Cell | undefined} cell
   */
  function titleOf(x, y, cell) {
    const lines = [`(${x},${y}) ${cell ? cell.what : ""}${lineOf(cell?.range)}`.trimEnd()];
    if (cell) {
      for (const thing of cell.things.slice(cell.things[0]?.text === cell.what ? 1 : 0)) lines.push(`${thing.text}${lineOf(thing.range)}`);
      if (cell.terrain && cell.things.length) lines.push(`on ${cell.terrain}`);
    }
    for (const r of hover.regions) if (r.x1 <= x && x <= r.x2 && r.y1 <= y && y <= r.y2) lines.push(`${r.what}${lineOf(r.range)}`);
    const value = hover.heat.get(y * 80 + x);
    if (hover.layer && value) lines.push(heatText(hover.layer, value));
    return lines.join("\n");
  }

  /** @param {Region[]} regions */
  function drawRegionList(regions) {
    regionsPanel.hidden = regions.length === 0 || !showRegions.checked;
    if (solo !== null && !regions.some((r) => r.id === solo)) solo = null;
    regionList.replaceChildren(
      ...regions.map((r) => {
        const li = document.createElement("li");
        if (solo !== null && r.id === solo) li.classList.add("solo");
        const swatch = document.createElement("span");
        swatch.className = "swatch";
        swatch.style.borderColor = r.color ?? "#4aa3ff";
        const only = document.createElement("button");
        only.textContent = r.what;
        only.title = solo === r.id ? "Show every region again" : "Show this region alone";
        only.addEventListener("click", () => {
          solo = solo === r.id ? null : r.id ?? null;
          save();
          if (shown) draw(shown, drawnStale);
        });
        const link = document.createElement("a");
        link.href = "#";
        link.textContent = `line ${r.range.start.line + 1}`;
        link.addEventListener("click", (event) => {
          event.preventDefault();
          reveal(r.range);
        });
        li.append(swatch, only, link);
        return li;
      }),
    );
  }

  /**
   * The heat layer chosen in the picker (its kinds come from the preview).
   * @param {LevelPreview | undefined} level
   * @returns {HeatLayer | null}
   */
  function heatLayer(level) {
    /** @type {HeatLayer[]} */
    let layers = level?.heatmaps ?? [];
    if (layers.length === 0 && level) {
      // A server from before heat layers: its one layer of expected things.
      const cells = level.heat.map((h) => ({ x: h.x, y: h.y, value: h.expected }));
      layers = [{ kind: "all", mode: "expected", seeds: null, unit: "things expected", max: Math.max(0, ...cells.map((c) => c.value)), cells, note: null }];
    }
    const kinds = layers.map((l) => l.kind);
    if (heatKind.options.length !== kinds.length || [...heatKind.options].some((o, i) => o.value !== kinds[i])) {
      heatKind.replaceChildren(...kinds.map((k) => new Option(k, k)));
      if (saved.kind && kinds.includes(saved.kind)) heatKind.value = saved.kind;
    }
    return layers.find((l) => l.kind === heatKind.value) ?? layers[0] ?? null;
  }

  /**
   * @param {HeatLayer} layer
   * @param {number} value
   */
  function heatText(layer, value) {
    return layer.mode === "sampled" ? `${layer.kind}: here in ${Math.round(value * 100)}% of the builds` : `${layer.kind}: ${value.toFixed(2)} expected here`;
  }

  /**
   * The scale under the map: what the shading's ends mean, and why the layer is empty or
   * even when it is.
   * @param {HeatLayer | null} layer
   * @param {boolean} on
   */
  function drawHeatScale(layer, on) {
    heatScale.hidden = !on;
    if (!on) return;
    if (!layer) {
      heatHigh.textContent = "";
      heatUnit.textContent = "";
      heatNote.textContent = "this preview has no heat";
      return;
    }
    const sampled = layer.mode === "sampled";
    heatHigh.textContent = sampled ? `${Math.round(layer.max * 100)}%` : layer.max.toFixed(2);
    heatUnit.textContent = sampled && layer.seeds ? `${layer.unit}, ${layer.seeds[1] - layer.seeds[0] + 1} builds (seeds ${layer.seeds[0]}–${layer.seeds[1]})` : layer.unit;
    const waiting = heatMode.value === "sampled" && !sampled;
    heatNote.textContent = waiting ? `sampling ${SAMPLE} builds…` : layer.note ?? "";
  }

  /** @param {Card} entry */
  function card(entry) {
    const div = document.createElement("div");
    div.className = "card";
    const heading = document.createElement("h3");
    if (entry.glyph) {
      const glyph = document.createElement("span");
      glyph.className = "glyph";
      glyph.textContent = entry.glyph;
      if (entry.color) glyph.style.color = entry.color;
      heading.append(glyph);
    }
    const f = entry.fields;
    heading.append(entry.name ?? String(f.name ?? ""));
    div.append(heading);
    // A server from before card details: the fields as they are.
    const details = entry.details ?? Object.entries(f).map(([label, value]) => ({ label, value: String(value) }));
    const list = document.createElement("dl");
    for (const d of details) {
      const dt = document.createElement("dt");
      dt.textContent = d.label;
      const dd = document.createElement("dd");
      dd.textContent = d.value;
      list.append(dt, dd);
    }
    div.append(list);
    if (entry.text) {
      const p = document.createElement("p");
      p.textContent = entry.text;
      div.append(p);
    }
    div.title = `line ${entry.range.start.line + 1}`;
    div.addEventListener("click", () => reveal(entry.range));
    return div;
  }

  /** @param {string} text */
  function item(text) {
    const li = document.createElement("li");
    li.textContent = text;
    return li;
  }

  /**
   * Fits the map's 80 columns to the panel's width, times the zoom (the map scrolls inside
   * its viewport when zoomed in; the controls stay put).
   */
  function fit() {
    const style = getComputedStyle(viewport);
    const width = viewport.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const cell = Math.max(3, Math.floor(((width > 0 ? width : 640) / 80) * zoom * 100) / 100);
    document.documentElement.style.setProperty("--cw", `${cell}px`);
    document.documentElement.style.setProperty("--fs", `${(cell / 0.6).toFixed(2)}px`);
    document.documentElement.style.setProperty("--ch", `${Math.round((cell / 0.6) * 1.2)}px`);
  }

  /** @param {number} next */
  function setZoom(next) {
    zoom = Math.min(8, Math.max(0.25, next));
    save();
    fit();
  }

  grid.addEventListener("mouseover", (event) => {
    const span = event.target instanceof HTMLElement && event.target.parentElement === grid ? event.target : null;
    if (!span || span.title) return;
    const at = Array.prototype.indexOf.call(grid.children, span);
    const index = span.dataset.cell;
    span.title = titleOf(at % 80, Math.floor(at / 80), index === undefined ? undefined : drawnCells[Number(index)]);
  });
  grid.addEventListener("click", (event) => {
    const target = event.target instanceof HTMLElement ? event.target.closest("span") : null;
    const index = target?.dataset.cell;
    const range = index === undefined ? null : drawnCells[Number(index)]?.range;
    // A square nothing of this file made has no source to reveal.
    if (range) reveal(range);
  });
  window.addEventListener("message", (/** @type {MessageEvent<FromEditor>} */ event) => {
    const message = event.data;
    if (message.type === "render") receive(message.preview);
    // The request failed (the server restarted, or it is busy): the picture stays.
    if (message.type === "error" || message.type === "status") status.textContent = message.message;
  });
  window.addEventListener("resize", fit);
  for (const toggle of [showRegions, showHeat]) {
    toggle.addEventListener("change", () => {
      save();
      if (shown) draw(shown, drawnStale);
    });
  }
  heatKind.addEventListener("change", () => {
    saved.kind = heatKind.value;
    save();
    if (shown) draw(shown, drawnStale);
  });
  heatMode.addEventListener("change", () => {
    save();
    vscode.postMessage({ type: "sample", count: heatMode.value === "sampled" ? SAMPLE : 0 });
    if (shown) draw(shown, drawnStale);
  });
  element("zoom-in", HTMLButtonElement).addEventListener("click", () => setZoom(zoom * 1.25));
  element("zoom-out", HTMLButtonElement).addEventListener("click", () => setZoom(zoom / 1.25));
  element("zoom-fit", HTMLButtonElement).addEventListener("click", () => setZoom(1));
  levelPicker.addEventListener("change", () => vscode.postMessage({ type: "level", level: levelPicker.value }));
  seedInput.addEventListener("change", () => vscode.postMessage({ type: "seed", seed: Number(seedInput.value) }));
  element("reroll", HTMLButtonElement).addEventListener("click", () => {
    seedInput.value = String(Number(seedInput.value) + 1);
    vscode.postMessage({ type: "seed", seed: Number(seedInput.value) });
  });
  fit();
  // The editor learns what the page wants (sampled heat survives a reload of the panel).
  vscode.postMessage({ type: "ready", sample: heatMode.value === "sampled" ? SAMPLE : 0 });
})();
