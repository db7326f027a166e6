// Small writes of a statement or a few (v1-elements.ts, a customer's override
// in update-one.ts; a base cell's one-cell write is grouped by cell-groups.ts
// instead, in one statement) and their grouping. On PGlite, which
// runs one statement at a time and commits one transaction at a time, the
// writes that arrive while a transaction is running wait in a queue, in
// arrival order, and go together as the next transaction: one BEGIN/COMMIT
// for the group instead of one per write, and no write waits behind more
// than one group. Each write still gets its own answer: should a statement of
// the group fail (which rolls back the whole group), every write of the group
// runs again alone and gets its own result or its own error. PostgreSQL runs
// transactions side by side: there, each write is its own batch.
import type { Prisma } from '../../generated/prisma/client.js';
import { database } from '../../db.js';
import { readRows } from '../../db/read-rows.js';

/** Builds a write's statements; called again for the retry alone (a statement runs once). */
export type BuildStatements = () => Prisma.PrismaPromise<unknown>[];

interface Pending {
  build: BuildStatements;
  single?: Prisma.Sql;
  resolve(rows: unknown[]): void;
  reject(error: unknown): void;
}

/** Writes per group: enough for every editor of a busy project, small enough to keep a group short. */
const MAX_GROUP = 32;

let queue: Pending[] = [];
let draining = false;

/**
 * Runs the statements as one transaction (in a group on PGlite); resolves with their results in order.
 * `single`: the write's one statement as SQL, when it is one. Run alone, it is then read through the driver
 * adapter (readRows) instead of the client's query interpreter: with its lookup read the same way, a one-cell
 * PATCH's CPU in the service fell 10–14 % (bench/request-cost.ts, PostgreSQL, runs alternating).
 */
export function runBatched(build: BuildStatements, single?: Prisma.Sql): Promise<unknown[]> {
  const db = database();
  if (db.kind !== 'pglite') return runAlone(build, single);
  return new Promise((resolve, reject) => {
    queue.push({ build, single, resolve, reject });
    if (!draining) {
      draining = true;
      // Writes of the same turn of the event loop join the first group.
      setImmediate(() => void drain());
    }
  });
}

async function drain(): Promise<void> {
  try {
    while (queue.length) {
      const group = queue.slice(0, MAX_GROUP);
      queue = queue.slice(group.length);
      await runGroup(group);
    }
  } finally {
    draining = false;
  }
}

async function runGroup(group: Pending[]): Promise<void> {
  const prisma = database().prisma;
  if (group.length === 1) return runAlone(group[0]!.build, group[0]!.single).then(group[0]!.resolve, group[0]!.reject);
  const built = group.map((p) => p.build());
  try {
    const results = await prisma.$transaction(built.flat());
    let offset = 0;
    group.forEach((p, i) => p.resolve(results.slice(offset, (offset += built[i]!.length))));
  } catch (error) {
    if (group.length === 1) return group[0]!.reject(error);
    for (const p of group) await runAlone(p.build, p.single).then(p.resolve, p.reject);
  }
}

/** One write: a single statement needs no transaction (it is atomic by itself). */
async function runAlone(build: BuildStatements, single?: Prisma.Sql): Promise<unknown[]> {
  if (single) return [await readRows(single)];
  const statements = build();
  return statements.length === 1 ? [await statements[0]] : database().prisma.$transaction(statements);
}
