// The translation memory's word index on PostgreSQL ("MemoryTerm"), brought
// current off the write path (docs/translation-memory.md, "Keeping the terms
// current"): the triggers of "MemorySource" queue the keys whose source text
// was written ("MemoryTermQueue", migration 20261130050000_memory_term_queue)
// and this updater drains the queue in batches, one round per transaction
// (memory_terms_catch_up, one round at a time across instances). Lookups do not
// wait for it: they score the queued keys' texts directly (suggest.ts).
import { Prisma } from '../generated/prisma/client.js';
import { prisma, type Db } from '../db.js';
import { PollLoop } from '../poll-loop.js';

export interface TermUpdaterOptions {
  /** Queue entries per round. */
  batch: number;
  /** How long an idle updater sleeps before looking at the queue again (ms). */
  pollMs: number;
}

/** One round: the terms of up to `batch` queue entries' keys brought current. Returns the entries done. */
export async function catchUpMemoryTerms(batch: number, db: Db = prisma()): Promise<number> {
  const [row] = await db.$queryRaw<{ done: number }[]>(
    Prisma.sql`/* memory:terms-catch-up */ SELECT memory_terms_catch_up(${batch}::int) AS done`,
  );
  return row?.done ?? 0;
}

export class MemoryTermUpdater {
  private readonly loop: PollLoop;
  /** Rounds run so far (tests). */
  rounds = 0;

  constructor(options: TermUpdaterOptions) {
    this.loop = new PollLoop({
      failure: 'translation memory terms update failed',
      sleepMs: () => options.pollMs,
      // Again at once only after a full batch: under a stream of source-text writes, rounds of a few entries each
      // (25–50 ms of the database's time each on a 2,000-key project) ran back to back. Lookups do not wait for
      // the updater (they score the queued keys' texts), so the rest waits for the next poll.
      round: async () => {
        this.rounds++;
        return (await catchUpMemoryTerms(options.batch)) >= options.batch;
      },
    });
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}
