// How often the preview asks the server again while the user types: one request at a time,
// and the next one `interval` milliseconds after the last was drawn, so that the panel redraws
// at most that often. The first change after a pause is asked at once; changes that come
// meanwhile collapse into one request, sent as soon as both limits allow, so the last change
// is always drawn.

export class Redraw {
  private inFlight = false;
  private pending = false;
  private last = -Infinity;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly run: () => Promise<void>,
    private readonly interval = 100,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Something changed: draw it when allowed. */
  request() {
    this.pending = true;
    this.pump();
  }

  dispose() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = false;
  }

  private pump() {
    if (!this.pending || this.inFlight || this.timer) return;
    const wait = this.last + this.interval - this.now();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.pump();
      }, wait);
      return;
    }
    this.pending = false;
    this.inFlight = true;
    this.run()
      .catch(() => {})
      .finally(() => {
        this.inFlight = false;
        this.last = this.now();
        this.pump();
      });
  }
}
