// One-cell writes of base cells (update-one.ts) that arrive while others of
// the same project are being written go together, as one statement of the
// write gate (groupGateSql): each write still opens its own change, gets its
// own events and its own answer, but the group pays one statement's fixed
// cost — planning, executor start-up of the gate's CTEs, statement triggers,
// the commit — instead of one per write. Sixteen one-cell PATCHes cost
// PostgreSQL 1.2–1.6 ms of CPU each against 0.25–0.34 ms a cell for sixteen
// cells in one statement (docs/benchmarks.md, "Grouped one-cell writes").
//
// A write goes at once, alone and through its own statement, while fewer
// than RUNNING statements of its lane are running: a lone writer waits for
// nothing. Writes that arrive while they are running wait, in arrival order,
// and the next free slot takes them all (at most MAX_GROUP, each cell once: a
// statement's upsert touches a row once; a second write of a cell waits for
// the next group). A lane is a project, whether the writes set a review
// status, their replace mode and whether they set their key's last-seen (one
// rule of each for all the statement's rows).
//
// Should a group's statement fail (a deadlock with another group, a key
// deleted in between), every write of the group runs again alone and gets its
// own result or error. Cells are written in key order, so groups running side
// by side lock their rows (and the findings queue's) in one order.
import type { Prisma } from '../../generated/prisma/client.js';
import { database } from '../../db.js';
import { readRows } from '../../db/read-rows.js';
import { groupGateSql, type GroupedWrite, type Row } from './gate.js';

export interface OneCellWrite extends GroupedWrite {
  projectId: number;
  /** The write's own statement (planGate's `single`): what runs when it goes alone. */
  single: Prisma.Sql;
}

interface Waiting extends OneCellWrite {
  resolve(row: Row): void;
  reject(error: unknown): void;
}

interface Lane {
  running: number;
  /** PGlite: a start is due at the end of this turn of the event loop. */
  scheduled?: boolean;
  waiting: Waiting[];
}

/** Writes per statement at most: a group stays short, and every editor of a busy project fits. */
export const MAX_GROUP = 32;

/**
 * Statements of a lane running at once on either database: one, so that the
 * writes arriving meanwhile make the next group as large as they can. Two
 * made more, smaller groups for the same writes, and cost PostgreSQL 20 %
 * more CPU a write (docs/benchmarks.md, "Grouped one-cell writes").
 */
const RUNNING = 1;

/**
 * A statement running longer than this (a cell locked by a long transaction,
 * an import's) stops holding its lane's slot: the writes behind it go on
 * without it, and only those of its group wait for the lock.
 */
export const SLOW_MS = 50;

const lanes = new Map<string, Lane>();

/** Statements sent and the writes they carried, since the process started (tests, benchmarks). */
const stats = { statements: 0, writes: 0, groups: 0, retried: 0 };

/** A copy of the counts: statements, writes, groups (statements of more than one write), groups retried alone. */
export const cellGroupStats = () => ({ ...stats });

/** Writes one base cell, alone or in a group with the writes of its lane that wait meanwhile. */
export function writeOneCell(write: OneCellWrite): Promise<Row> {
  const name = `${write.projectId}:${write.cell.reviewStatus !== undefined}:${write.replace}:${write.touch}`;
  let lane = lanes.get(name);
  if (!lane) lanes.set(name, (lane = { running: 0, waiting: [] }));
  const done = new Promise<Row>((resolve, reject) => lane.waiting.push({ ...write, resolve, reject }));
  if (database().kind !== 'pglite') start(name, lane);
  else if (!lane.scheduled) {
    // PGlite runs in this thread: nothing arrives while its statement runs. The writes of this turn of
    // the event loop go together instead.
    lane.scheduled = true;
    setImmediate(() => {
      lane.scheduled = false;
      start(name, lane);
    });
  }
  return done;
}

function start(name: string, lane: Lane): void {
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
    void run(group).finally(() => {
      clearTimeout(slow);
      release();
      if (!lane.running && !lane.waiting.length && lanes.get(name) === lane) lanes.delete(name);
    });
  }
}

/** The next group: waiting writes in arrival order, each cell once, at most MAX_GROUP. */
function take(lane: Lane): Waiting[] {
  const group: Waiting[] = [];
  const rest: Waiting[] = [];
  const cells = new Set<string>();
  for (const w of lane.waiting) {
    const cell = `${w.cell.keyId}:${w.cell.languageId}`;
    if (group.length < MAX_GROUP && !cells.has(cell)) {
      cells.add(cell);
      group.push(w);
    } else rest.push(w);
  }
  lane.waiting = rest;
  return group;
}

async function run(group: Waiting[]): Promise<void> {
  if (group.length === 1) return alone(group[0]!);
  stats.groups++;
  stats.statements++;
  stats.writes += group.length;
  const ordered = [...group].sort((a, b) => a.cell.keyId - b.cell.keyId || a.cell.languageId - b.cell.languageId);
  let rows: Row[];
  try {
    rows = await readRows<Row>(groupGateSql(ordered[0]!.projectId, ordered));
  } catch {
    stats.retried++;
    for (const w of group) await alone(w);
    return;
  }
  ordered.forEach((w, i) => w.resolve(rows[i]!));
}

async function alone(w: Waiting): Promise<void> {
  stats.statements++;
  stats.writes++;
  try {
    const [row] = await readRows<Row>(w.single);
    w.resolve(row!);
  } catch (error) {
    w.reject(error);
  }
}
