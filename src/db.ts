// The one database of this process, opened at start-up (src/app.ts) and
// imported by domain code. Tests open one per test file.
import type { Database } from './db/client.js';
import { Prisma, type PrismaClient } from './generated/prisma/client.js';
import { arrayLiteral } from './db/array-literal.js';

let current: Database | undefined;

export function setDatabase(db: Database | undefined): void {
  current = db;
}

export function database(): Database {
  if (!current) throw new Error('The database is not open');
  return current;
}

/** The database of this process when one is open (code that must not fail without one). */
export function databaseIfOpen(): Database | undefined {
  return current;
}

export function prisma(): PrismaClient {
  return database().prisma;
}

/** A client or an interactive transaction: domain functions accept either. */
export type Db = Omit<PrismaClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>;

/**
 * Locks the project's row until the transaction `db` ends: changes that check
 * a rule over the whole project (its last owner, last language, the plan's
 * customer limit) run one at a time. Here, below every domain folder, so each
 * of them takes the same lock without importing another.
 */
export async function lockProject(db: Db, projectId: number): Promise<void> {
  await db.$queryRaw(Prisma.sql`/* projects:lock */ SELECT id FROM "Project" WHERE id = ${projectId} FOR UPDATE`);
}

/** The advisory lock space (two-key form) of a project's content lock; the second key is the project's id. */
const CONTENT_LOCK = 0x636f6e74;

/**
 * Takes the project's content lock alone until the transaction `db` ends:
 * every transaction that deletes cells (keys, languages, customers, a purge,
 * the project) or rewrites a project's findings takes it before it deletes.
 * The findings updater takes it shared for the projects of its round
 * (shareProjectsContent) before it writes anything. The round writes rows that
 * a deletion's cascades and triggers delete too (consistency members,
 * findings) and waits for the cells it reads, which the deletion holds: each
 * could wait for the other, and PostgreSQL ended the deletion as a deadlock (a
 * purge right after an edit: a 500). With the lock, one waits for the other
 * before it holds anything the other needs.
 */
export async function lockProjectContent(db: Db, projectId: number): Promise<void> {
  await db.$executeRaw(
    Prisma.sql`/* projects:lock-content */ SELECT pg_advisory_xact_lock(${CONTENT_LOCK}::int, ${projectId}::int)`,
  );
}

/** Takes the content lock of projects shared (lockProjectContent), in the order of their ids. */
export async function shareProjectsContent(db: Db, projectIds: Iterable<number>): Promise<void> {
  const ids = [...new Set(projectIds)].sort((a, b) => a - b);
  if (!ids.length) return;
  await db.$executeRaw(Prisma.sql`/* projects:share-content */
    SELECT pg_advisory_xact_lock_shared(${CONTENT_LOCK}::int, p) FROM unnest(${arrayLiteral(ids)}::int[]) AS p ORDER BY p`);
}
