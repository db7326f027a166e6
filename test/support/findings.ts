// The stored findings with their key, language and customer by name, for
// assertions: Finding has no relations (a cell's findings go with it by
// triggers, prisma/schema.prisma), so the names are looked up beside them.
import type { Db } from '../../src/db.js';
import type { Prisma } from '../../src/generated/prisma/client.js';

export interface NamedFinding {
  keyId: number;
  languageId: number;
  customerId: number;
  key: string;
  language: string;
  /** null for the base translation. */
  customer: string | null;
  check: string;
  n: number;
  severity: string;
  message: string;
  dismissed: boolean;
}

/** Findings matching `where` (Finding's own columns), with names; filter by name in the caller. */
export async function namedFindings(db: Db, where: Prisma.FindingWhereInput = {}): Promise<NamedFinding[]> {
  const rows = await db.finding.findMany({
    where,
    orderBy: [{ keyId: 'asc' }, { languageId: 'asc' }, { customerId: 'asc' }, { check: 'asc' }, { n: 'asc' }],
  });
  const ids = (pick: (r: (typeof rows)[number]) => number) => [...new Set(rows.map(pick))];
  const [keys, languages, customers] = await Promise.all([
    db.translationKey.findMany({ where: { id: { in: ids((r) => r.keyId) } }, select: { id: true, key: true } }),
    db.language.findMany({ where: { id: { in: ids((r) => r.languageId) } }, select: { id: true, key: true } }),
    db.customer.findMany({ where: { id: { in: ids((r) => r.customerId) } }, select: { id: true, key: true } }),
  ]);
  const name = (list: { id: number; key: string }[], id: number) => list.find((x) => x.id === id)?.key;
  return rows.map((r) => ({
    keyId: r.keyId,
    languageId: r.languageId,
    customerId: r.customerId,
    key: name(keys, r.keyId) ?? `#${r.keyId}`,
    language: name(languages, r.languageId) ?? `#${r.languageId}`,
    customer: r.customerId === 0 ? null : (name(customers, r.customerId) ?? `#${r.customerId}`),
    check: r.check,
    n: r.n,
    severity: r.severity,
    message: r.message,
    dismissed: r.dismissed,
  }));
}
