// `levkit preview --serve`: the preview page in a plain browser. This stands in for the
// editor the page usually talks to: it asks the server for the preview with the level, seed
// and sampling the page chose, and asks again whenever the server says the file changed
// (server-sent events on /events). A click on a square shows the line and column in the page.
(function () {
  /** @type {{level?: string, seed?: number, sample?: number}} */
  const chosen = {};
  /** @type {Promise<void> | null} */
  let asking = null;
  let again = false;

  function ask() {
    if (asking) {
      again = true;
      return;
    }
    const query = new URLSearchParams();
    if (chosen.level) query.set("level", chosen.level);
    if (chosen.seed) query.set("seed", String(chosen.seed));
    if (chosen.sample) query.set("sample", String(chosen.sample));
    asking = fetch("/preview.json?" + query.toString())
      .then((response) => response.json())
      .then((preview) => window.postMessage({ type: "render", preview }, "*"))
      .catch((error) => window.postMessage({ type: "error", message: `levkit stopped serving the preview (${error})` }, "*"))
      .finally(() => {
        asking = null;
        if (again) {
          again = false;
          ask();
        }
      });
  }

  window.acquireVsCodeApi = () => ({
    postMessage(message) {
      switch (message.type) {
        case "level":
          chosen.level = message.level;
          return ask();
        case "seed":
          chosen.seed = message.seed;
          return ask();
        case "sample":
          chosen.sample = message.count;
          return ask();
        case "ready":
          chosen.sample = message.sample;
          return ask();
        case "reveal": {
          const start = message.range.start;
          window.postMessage({ type: "status", message: `line ${start.line + 1}, column ${start.character + 1}` }, "*");
          return undefined;
        }
      }
      return undefined;
    },
    getState() {
      try {
        return JSON.parse(localStorage.getItem("levkit-preview") || "null") ?? undefined;
      } catch {
        return undefined;
      }
    },
    setState(state) {
      try {
        localStorage.setItem("levkit-preview", JSON.stringify(state));
      } catch {
        // A browser that keeps nothing: the page starts afresh next time.
      }
    },
  });

  new EventSource("/events").addEventListener("changed", () => ask());
})();
