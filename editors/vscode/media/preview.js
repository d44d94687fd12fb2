// The level preview page. It draws what `levkit/preview` answers, sent by the extension as
// {type: "render", preview}; it works in a plain browser too (tests post the same messages).
(function () {
  const vscode = typeof acquireVsCodeApi === "function" ? acquireVsCodeApi() : { postMessage: () => {} };
  const grid = document.getElementById("grid");
  const legend = document.getElementById("legend");
  const notes = document.getElementById("notes");
  const levelPicker = document.getElementById("level");
  const seedInput = document.getElementById("seed");
  const status = document.getElementById("status");
  const showRegions = document.getElementById("show-regions");
  const showHeat = document.getElementById("show-heat");
  const saved = (vscode.getState && vscode.getState()) || {};
  showRegions.checked = !!saved.regions;
  showHeat.checked = !!saved.heat;
  let last = null;

  const classes = {
    "-": "wall", "|": "wall", S: "wall", B: "wall",
    ".": "floor", I: "floor", "+": "door", "#": "corridor", H: "corridor",
    "}": "water", P: "water", W: "water", L: "lava", T: "tree",
    "{": "feature", "\\": "feature", K: "feature", F: "feature", A: "air", C: "air",
  };

  function render(preview) {
    last = preview;
    status.textContent = "";
    status.className = "";
    if (preview.cards) {
      grid.replaceChildren(...preview.cards.map(card));
    } else {
      const sources = new Map((preview.cells || []).map((c) => [`${c.x},${c.y}`, c]));
      const heat = new Map((preview.heat || []).map((h) => [`${h.x},${h.y}`, h.expected]));
      const hottest = Math.max(0, ...heat.values());
      const regions = preview.regions || [];
      const rows = (preview.rows || []).map((row, y) => {
        const line = document.createElement("div");
        [...row].forEach((glyph, x) => {
          const span = document.createElement("span");
          span.textContent = glyph;
          span.dataset.x = x;
          span.dataset.y = y;
          if (classes[glyph]) span.classList.add(`cell-${classes[glyph]}`);
          const source = sources.get(`${x},${y}`);
          const lines = [source ? `(${x},${y}) ${source.what} — line ${source.range.start.line + 1}` : `(${x},${y})`];
          if (showRegions.checked) {
            const inside = regions.filter((r) => r.x1 <= x && x <= r.x2 && r.y1 <= y && y <= r.y2);
            if (inside.length) span.classList.add("in-region");
            for (const r of inside) lines.push(`${r.what} — line ${r.range.start.line + 1}`);
          }
          const expected = heat.get(`${x},${y}`);
          if (showHeat.checked && expected) {
            span.classList.add("heat");
            span.style.setProperty("--heat", String(0.15 + (0.65 * expected) / hottest));
            lines.push(`${expected.toFixed(2)} things expected here`);
          }
          span.title = lines.join("\n");
          if (source) span.addEventListener("click", () => vscode.postMessage({ type: "reveal", range: source.range }));
          line.appendChild(span);
        });
        return line;
      });
      grid.replaceChildren(...rows);
    }
    legend.replaceChildren(...(preview.legend || []).map((l) => item(`${l.glyph}  ${l.meaning}`)));
    notes.replaceChildren(...(preview.notes || []).map((n) => item(n)));
    const levels = preview.levels || [];
    if (levelPicker.options.length !== levels.length || [...levelPicker.options].some((o, i) => o.value !== levels[i])) {
      levelPicker.replaceChildren(...levels.map((name) => new Option(name, name)));
    }
    if (preview.level) levelPicker.value = preview.level;
    levelPicker.hidden = levels.length < 2;
  }

  function card(entry) {
    const div = document.createElement("div");
    div.className = "card";
    const f = entry.fields || {};
    div.textContent = [`${f.symb || ""} ${f.name || ""}`, f.color, f.speed && `speed ${f.speed}`, f.hp && `hp ${f.hp}`, f.dam && `dam ${f.dam}`]
      .filter(Boolean)
      .join("  ·  ");
    div.addEventListener("click", () => vscode.postMessage({ type: "reveal", range: entry.range }));
    return div;
  }

  function item(text) {
    const li = document.createElement("li");
    li.textContent = text;
    return li;
  }

  window.addEventListener("message", (event) => {
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
      if (vscode.setState) vscode.setState({ regions: showRegions.checked, heat: showHeat.checked });
      if (last) render(last);
    });
  }
  levelPicker.addEventListener("change", () => vscode.postMessage({ type: "level", level: levelPicker.value }));
  seedInput.addEventListener("change", () => vscode.postMessage({ type: "seed", seed: Number(seedInput.value) }));
  document.getElementById("reroll").addEventListener("click", () => {
    seedInput.value = String(Number(seedInput.value) + 1);
    vscode.postMessage({ type: "seed", seed: Number(seedInput.value) });
  });
})();
