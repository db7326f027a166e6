// The loop every background worker runs on (src/poll-loop.ts).
import { describe, expect, it } from 'vitest';
import { PollLoop } from '../../src/poll-loop.js';
import { setLogger, type Log } from '../../src/log.js';

const until = (condition: () => boolean) => expect.poll(condition, { timeout: 2_000, interval: 5 }).toBe(true);

describe('PollLoop', () => {
  it('runs rounds back to back while they find work, then sleeps until the poll or a wake', async () => {
    let work = 3;
    let rounds = 0;
    const loop = new PollLoop({
      failure: 'test',
      sleepMs: () => 60_000,
      round: async () => {
        rounds++;
        return work-- > 0;
      },
    });
    loop.start();
    // Three rounds with work, the fourth idle: asleep for a minute.
    await until(() => rounds === 4);
    await new Promise((r) => setTimeout(r, 50));
    expect(rounds).toBe(4);
    loop.wake();
    await until(() => rounds === 5);
    await loop.stop();
  });

  it('a wake during a round is not lost: another round follows instead of the sleep', async () => {
    let rounds = 0;
    let release!: () => void;
    const loop = new PollLoop({
      failure: 'test',
      sleepMs: () => 60_000,
      round: async () => {
        rounds++;
        // The second round is held while the wake arrives; it finds nothing, as if it had looked too early.
        if (rounds === 2)
          await new Promise<void>((r) => {
            release = r;
          });
        return false;
      },
    });
    loop.start();
    await until(() => rounds === 1);
    await new Promise((r) => setTimeout(r, 20));
    loop.wake();
    await until(() => rounds === 2);
    loop.wake();
    release();
    await until(() => rounds === 3);
    // Then asleep for the minute: no wake since the third round began.
    await new Promise((r) => setTimeout(r, 50));
    expect(rounds).toBe(3);
    await loop.stop();
  });

  it('goes on after a round fails (logged), and stop waits for the round running', async () => {
    const logged: string[] = [];
    const quiet: Log = {
      error: (o, m) => void logged.push(`${m}: ${(o as { err: Error }).err.message}`),
      warn: () => {},
      info: () => {},
    };
    const restore = setLogger(quiet);
    let rounds = 0;
    let finished = false;
    let release!: () => void;
    const loop = new PollLoop({
      failure: 'test round failed',
      sleepMs: () => 1,
      round: async () => {
        rounds++;
        if (rounds === 1) throw new Error('database gone');
        if (rounds === 2) {
          await new Promise<void>((r) => {
            release = r;
          });
          finished = true;
        }
        return false;
      },
    });
    loop.start();
    await until(() => rounds === 2);
    const stopped = loop.stop();
    expect(loop.stopping).toBe(true);
    release();
    await stopped;
    restore();
    expect(finished).toBe(true);
    expect(rounds).toBe(2);
    expect(logged).toEqual(['test round failed: database gone']);
  });

  it('runs its lanes side by side', async () => {
    let inFlight = 0;
    let most = 0;
    let rounds = 0;
    const loop = new PollLoop({
      failure: 'test',
      sleepMs: () => 60_000,
      lanes: 2,
      round: async () => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 20));
        inFlight--;
        return ++rounds < 6;
      },
    });
    loop.start();
    await until(() => rounds >= 6);
    await loop.stop();
    expect(most).toBe(2);
  });
});
