// Names for the service's own statements on PostgreSQL, so that each
// connection parses and plans one of them once (a prepared statement of the
// driver, `pg`'s per-connection cache) instead of at every execution. The
// service's statements are long (the write gate's is one statement of many
// CTEs) and mostly the same text with other parameters: parsing and planning
// them again was half the database's CPU time of a one-cell write
// (docs/benchmarks.md, "The per-request path"). PostgreSQL then plans a
// prepared statement for its parameters the first five times and keeps a
// generic plan afterwards only when it costs no more than those did, as for
// any client that prepares statements (Prisma's own engine did).
//
// Only the statements written here are named: those whose text begins with
// their `/* area:name */` comment, composed from Prisma.sql fragments with
// every value a parameter. Their texts have a bounded number of variants; the
// ORM's statements (lists of parameters of every length) are left unnamed,
// and so is any text once NAMED_TEXTS have been named, so that neither this
// map nor the server's statements of a connection grow without bound.
import { createHash } from 'node:crypto';

/** Distinct statement texts named per process; later ones go unnamed. */
export const NAMED_TEXTS = 1_000;

const names = new Map<string, string>();

/** The name of a statement's text, or undefined to leave it unnamed (the adapter's statementNameGenerator). */
export function statementName(query: { sql: string }): string | undefined {
  if (!query.sql.startsWith('/*')) return undefined;
  let name = names.get(query.sql);
  if (name === undefined) {
    if (names.size >= NAMED_TEXTS) return undefined;
    name = `lms_${createHash('sha1').update(query.sql).digest('base64url')}`;
    names.set(query.sql, name);
  }
  return name;
}
