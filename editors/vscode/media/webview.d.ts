// What the webview gets from VS Code: absent when the page runs in a plain browser (tests).
declare const acquireVsCodeApi:
  | undefined
  | (() => {
      postMessage(message: unknown): void;
      getState(): unknown;
      setState(state: unknown): void;
    });

// When the page drew (performance.now()), for measuring the redraw rate end to end.
interface Window {
  levkitDraws?: number[];
}
