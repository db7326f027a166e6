// The time budget of a file read as a stream: a hostile file must not hold
// an import (and its transaction) open for long, whatever makes it slow.
import { FormatError } from './model.js';

/**
 * A budget of seconds for reading a file, counted while the reader works:
 * the time spent in `paused` (the caller writing a batch to the database) is
 * not counted.
 */
export class ParseClock {
  private readonly started = performance.now();
  private pausedFor = 0;
  constructor(private readonly seconds: number) {}

  check(): void {
    if (performance.now() - this.started - this.pausedFor > this.seconds * 1000)
      throw new FormatError(`Reading the file took longer than ${this.seconds} seconds`);
  }

  async paused<T>(work: () => Promise<T>): Promise<T> {
    const at = performance.now();
    try {
      return await work();
    } finally {
      this.pausedFor += performance.now() - at;
    }
  }
}
