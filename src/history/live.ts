// Live change streams for GraphQL subscriptions, from the committed change
// events (notify.ts announces which activity committed; the events are read
// from the database). A subscriber that reconnects with the last event id it
// saw first receives what it missed, up to REPLAY_LIMIT events; further
// behind, it is told to reload instead of silently diverging.
import { prisma } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';
import { AppError } from '../errors.js';
import { events } from '../events/pubsub.js';
import {
  activityEntry,
  CELL_EVENT_COLUMNS,
  cellEventsFromSql,
  type ActivityEntry,
  type CellEvent,
} from './activity-log.js';
import { batchesAfter, NEWEST_EVENT_ID, selectEvents } from '../content/cell-events.js';

/** The most events a reconnecting subscriber is sent to catch up. */
export const REPLAY_LIMIT = 10_000;
const PAGE = 1_000;

/** Starts listening at once (a Repeater only listens from its first next()), so nothing is missed while catching up. */
function listen(projectId: number) {
  const iterator = events().subscribe('project-activity', projectId)[Symbol.asyncIterator]();
  let pending = iterator.next();
  return {
    async next() {
      const result = await pending;
      pending = iterator.next();
      return result;
    },
    async close() {
      await iterator.return?.();
    },
  };
}

function cellsAfter(projectId: number, after: bigint, limit: number): Promise<CellEvent[]> {
  const events = selectEvents.page(batchesAfter(Prisma.sql`${after}`, Prisma.sql`${projectId}`), {
    from: Prisma.sql`${after}::bigint - b.id + 2`,
    take: Prisma.sql`${limit}`,
  });
  return prisma().$queryRaw<CellEvent[]>(
    Prisma.sql`/* history:cells-after */ SELECT ${CELL_EVENT_COLUMNS} FROM ${cellEventsFromSql(events)} ORDER BY c.id`,
  );
}

function cellsOf(projectId: number, activityId: bigint, after: bigint): Promise<CellEvent[]> {
  const events = selectEvents.page(
    Prisma.sql`b."activityId" = ${activityId}::bigint AND b."projectId" = ${projectId}`,
    { from: Prisma.sql`${after}::bigint - b.id + 2`, take: Prisma.raw(String(PAGE)) },
  );
  return prisma().$queryRaw<CellEvent[]>(
    Prisma.sql`/* history:cells-of-change */ SELECT ${CELL_EVENT_COLUMNS} FROM ${cellEventsFromSql(events)} ORDER BY c.id`,
  );
}

/** Translation cell changes of a project: the missed ones after `after` (when given), then each committed change's cells. */
export async function* translationChangeStream(projectId: number, after: bigint | null): AsyncGenerator<CellEvent> {
  const source = listen(projectId);
  try {
    // Events up to here were seen (or, without `after`, are history, not news).
    let seen: bigint;
    if (after !== null) {
      const missed = await cellsAfter(projectId, after, REPLAY_LIMIT + 1);
      if (missed.length > REPLAY_LIMIT) {
        throw new AppError(
          'CONFLICT',
          `more than ${REPLAY_LIMIT} changes since event ${after}; reload the translations and subscribe without 'after'`,
        );
      }
      for (const event of missed) yield event;
      seen = missed.at(-1)?.id ?? after;
    } else {
      const [row] = await prisma().$queryRaw<{ max: bigint }[]>(NEWEST_EVENT_ID);
      seen = BigInt(row!.max);
    }
    // Per change, the last cell sent: a job announces its change after every batch.
    const sent = new Map<string, bigint>();
    for (;;) {
      const note = await source.next();
      if (note.done) return;
      const activityId = note.value.activityId;
      // The cells of the committed change not sent yet, page by page; cells already sent while catching up are skipped.
      let cursor = sent.get(activityId) ?? 0n;
      for (;;) {
        const page = await cellsOf(projectId, BigInt(activityId), cursor);
        for (const event of page) if (event.id > seen) yield event;
        if (page.length) cursor = page.at(-1)!.id;
        if (page.length < PAGE) break;
      }
      sent.delete(activityId);
      sent.set(activityId, cursor);
      // Bounded: the oldest changes are forgotten first.
      if (sent.size > 1000) sent.delete(sent.keys().next().value!);
    }
  } finally {
    await source.close();
  }
}

/** The project's activity entries as they commit. */
export async function* activityStream(projectId: number): AsyncGenerator<ActivityEntry> {
  const source = listen(projectId);
  try {
    for (;;) {
      const note = await source.next();
      if (note.done) return;
      const entry = await activityEntry(projectId, BigInt(note.value.activityId));
      if (entry) yield entry;
    }
  } finally {
    await source.close();
  }
}
