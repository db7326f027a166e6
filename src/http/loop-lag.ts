// The event loop's delay, as admission sees it (src/http/admission.ts): a
// timer that should fire every `intervalMs` notes how late it fired. A request
// parsed after the loop was busy has already waited that long before any code
// of ours could run, and every further step of an admitted request (each
// database round trip, each callback) waits about as long again: while the
// loop is late, more work only makes every request slower.
//
// The delay kept is a mean over time (exponentially weighted, time constant
// `smoothingMs`), so that one task of a few hundred milliseconds — a large statement on the
// embedded database, which runs in this thread — does not refuse everything
// behind it, while a loop that stays late (more work than the thread can do)
// is seen within a few hundred milliseconds. A tick that is overdue right now
// counts as if it had come now: a request read in the same turn of the loop
// as a long task, before the timer had its turn, sees that task.
export class LoopLag {
  private meanMs = 0;
  /** When the timer last fired; undefined while not measuring. */
  private last?: number;
  private timer?: NodeJS.Timeout;

  constructor(
    readonly intervalMs = 20,
    readonly smoothingMs = 500,
  ) {}

  start(): this {
    this.last = performance.now();
    this.timer ??= setInterval(() => this.tick(), this.intervalMs).unref();
    return this;
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.last = undefined;
  }

  /** One tick of the timer, at `now` (the first one starts the measure). */
  tick(now = performance.now()): void {
    if (this.last !== undefined) this.meanMs = this.meanAt(this.last, now);
    this.last = now;
  }

  /** The loop's recent delay at `now`, ms, a tick overdue now included. */
  delayMs(now = performance.now()): number {
    return this.last !== undefined && now - this.last > this.intervalMs ? this.meanAt(this.last, now) : this.meanMs;
  }

  /** The mean with a tick at `now`: its lateness weighs by the time since the last tick. */
  private meanAt(last: number, now: number): number {
    const elapsed = now - last;
    const late = Math.max(0, elapsed - this.intervalMs);
    return this.meanMs + (late - this.meanMs) * (1 - Math.exp(-elapsed / this.smoothingMs));
  }
}
