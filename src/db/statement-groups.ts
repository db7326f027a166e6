// Small statements of concurrent requests that arrive while one of their kind
// is running wait, in arrival order, and go together as one statement: the
// group pays one statement's fixed cost (the round trip, planning, executor
// start-up, statement triggers, the commit) instead of one per request. Used
// by one-cell writes (src/content/translations/cell-groups.ts) and the
// lookups of one-cell and small v1 writes (update-one.ts, v1-elements.ts);
// docs/benchmarks.md, "Grouped one-cell writes".
//
// An item goes at once, alone and through its own statement, while its lane
// has no statement running: a lone request waits for nothing. Items that
// arrive meanwhile wait, and the next statement takes them all (at most
// `max`; items with the same `slot` never share one: a second write of a cell
// waits for the next group). On PGlite, which runs in this thread, nothing
// arrives while its statement runs: the items of one turn of the event loop
// go together instead.
//
// Should a group's statement fail (a deadlock with another group, a row gone
// in between), every item of it runs again alone and gets its own result or
// error. A statement running longer than SLOW_MS (a row locked by a long
// transaction, an import's) stops holding its lane: the items behind it go on
// without it.
import { database } from '../db.js';

export interface GroupKind<T, R> {
  /** Only items of one lane share a statement. */
  lane(item: T): string;
  /** Items with the same slot never share a statement (none: any may). */
  slot?(item: T): string;
  /** Items per statement at most. */
  max: number;
  /** The item's own statement. */
  alone(item: T): Promise<R>;
  /** One statement for the items (two or more, one lane, distinct slots): a result per item, in order. */
  together(items: T[]): Promise<R[]>;
}

interface Waiting<T, R> {
  item: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}

interface Lane<T, R> {
  running: number;
  waiting: Waiting<T, R>[];
  /** PGlite: a start is due at the end of this turn of the event loop. */
  scheduled: boolean;
}

/**
 * Statements of a lane running at once: one, so that the items arriving
 * meanwhile make the next group as large as they can. Two made more, smaller
 * groups of one-cell writes, and cost PostgreSQL 20 % more CPU a write.
 */
const RUNNING = 1;

/** A statement running longer than this stops holding its lane. */
export const SLOW_MS = 50;

export interface GroupStats {
  /** Statements sent (alone or for a group). */
  statements: number;
  /** Items they carried. */
  items: number;
  /** Statements of more than one item. */
  groups: number;
  /** Groups whose statement failed, run again item by item. */
  retried: number;
}

/** A kind of grouped statement: `run` answers an item, alone or with the others of its lane waiting meanwhile. */
export function statementGroups<T, R>(kind: GroupKind<T, R>) {
  const lanes = new Map<string, Lane<T, R>>();
  const stats: GroupStats = { statements: 0, items: 0, groups: 0, retried: 0 };

  function start(name: string, lane: Lane<T, R>): void {
    while (lane.running < RUNNING && lane.waiting.length) {
      const group = take(lane);
      lane.running++;
      let holds = true;
      const release = () => {
        if (!holds) return;
        holds = false;
        lane.running--;
        start(name, lane);
      };
      const slow = setTimeout(release, SLOW_MS);
      void send(group).finally(() => {
        clearTimeout(slow);
        release();
        if (!lane.running && !lane.waiting.length && lanes.get(name) === lane) lanes.delete(name);
      });
    }
  }

  /** The next group: waiting items in arrival order, each slot once, at most `max`. */
  function take(lane: Lane<T, R>): Waiting<T, R>[] {
    const group: Waiting<T, R>[] = [];
    const rest: Waiting<T, R>[] = [];
    const slots = new Set<string>();
    for (const w of lane.waiting) {
      const slot = kind.slot?.(w.item);
      if (group.length < kind.max && (slot === undefined || !slots.has(slot))) {
        if (slot !== undefined) slots.add(slot);
        group.push(w);
      } else rest.push(w);
    }
    lane.waiting = rest;
    return group;
  }

  async function send(group: Waiting<T, R>[]): Promise<void> {
    if (group.length === 1) return alone(group[0]!);
    stats.statements++;
    stats.items += group.length;
    stats.groups++;
    let results: R[];
    try {
      results = await kind.together(group.map((w) => w.item));
    } catch {
      stats.retried++;
      for (const w of group) await alone(w);
      return;
    }
    group.forEach((w, i) => w.resolve(results[i]!));
  }

  async function alone(w: Waiting<T, R>): Promise<void> {
    stats.statements++;
    stats.items++;
    try {
      w.resolve(await kind.alone(w.item));
    } catch (error) {
      w.reject(error);
    }
  }

  return {
    run(item: T): Promise<R> {
      const name = kind.lane(item);
      let lane = lanes.get(name);
      if (!lane) lanes.set(name, (lane = { running: 0, waiting: [], scheduled: false }));
      const done = new Promise<R>((resolve, reject) => lane.waiting.push({ item, resolve, reject }));
      if (database().kind !== 'pglite') start(name, lane);
      else if (!lane.scheduled) {
        lane.scheduled = true;
        setImmediate(() => {
          lane.scheduled = false;
          start(name, lane);
        });
      }
      return done;
    },
    /** A copy of the counts since the process started (tests, benchmarks). */
    stats: (): GroupStats => ({ ...stats }),
  };
}
