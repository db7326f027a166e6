// The loop of the service's background workers (jobs, webhook deliveries,
// automation runs, stored findings): do a round; when it found nothing to do,
// sleep until the poll interval has passed or someone wakes it (a change that
// committed, a job created), so work starts at once without a tight poll.
// Leasing the work itself (FOR UPDATE SKIP LOCKED, lease columns) is each
// worker's own: its tables differ.
import { logger } from './log.js';

export interface PollLoopOptions {
  /** One round; true when it did work (the next round follows at once). */
  round(): Promise<boolean>;
  /** How long to sleep after an idle round (ms); may change from round to round. */
  sleepMs(): number;
  /** Logged with a round's unexpected error (the loop goes on). */
  failure: string;
  /** Rounds run side by side (default 1). */
  lanes?: number;
}

export class PollLoop {
  private stopped = false;
  private readonly sleepers = new Set<() => void>();
  /** Pauses under way (pause): only stop ends them early. */
  private readonly pauses = new Set<() => void>();
  private lanes: Promise<void>[] = [];
  /** Wakes so far: a lane whose round overlapped one runs again instead of sleeping. */
  private wakes = 0;

  constructor(private readonly options: PollLoopOptions) {}

  get stopping(): boolean {
    return this.stopped;
  }

  start(): void {
    this.lanes = Array.from({ length: this.options.lanes ?? 1 }, () => this.lane());
  }

  /**
   * Ends the sleep of every idle lane; a lane in a round runs another one after it, since its round may have
   * looked before the work it is woken for was there (a wake used to be lost then, and the work waited for the poll).
   */
  wake(): void {
    this.wakes++;
    for (const wake of [...this.sleepers]) wake();
  }

  /** Lets the rounds running finish and starts no other. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    for (const end of [...this.pauses]) end();
    await Promise.all(this.lanes);
  }

  /** Waits `ms` inside a round (a worker pacing its rounds): a wake does not end it, stop does. */
  pause(ms: number): Promise<void> {
    return this.sleep(ms, this.pauses);
  }

  private async lane(): Promise<void> {
    while (!this.stopped) {
      let worked = false;
      const wakes = this.wakes;
      try {
        worked = await this.options.round();
      } catch (error) {
        if (this.stopped) break;
        logger().error({ err: error }, this.options.failure);
      }
      if (!worked && !this.stopped && this.wakes === wakes) await this.sleep(this.options.sleepMs());
    }
  }

  private sleep(ms: number, waiting = this.sleepers): Promise<void> {
    return new Promise<void>((resolve) => {
      const end = () => {
        clearTimeout(timer);
        waiting.delete(end);
        resolve();
      };
      const timer = setTimeout(end, ms);
      waiting.add(end);
    });
  }
}
