// Reading the stored findings (docs/quality-checks.md): a page of them with
// the counts per language, check and severity — one statement each, over the
// Finding table's two list indexes (the page: projectId, severity, keyId, …;
// the counts, from the index alone: projectId, languageId, check, severity,
// dismissed). Used by
// the CI query and REST endpoint, the console's Quality screen and the
// publication gate.
import { Prisma } from '../generated/prisma/client.js';
import { prisma, type Db } from '../db.js';
import { badRequest } from '../errors.js';
import { CHECK_IDS, SEVERITIES, type Severity } from '../checks/index.js';
import { arrayLiteral } from '../db/array-literal.js';
import { CONSISTENCY_CHECK_IDS } from '../checks/consistency.js';
import type { MessageText } from '../message-text.js';
import { customerIdOf } from '../content/customers.js';

export interface FindingFilter {
  languageCode?: string | null;
  severity?: string | null;
  check?: string | null;
  /** Only the findings of this customer's overrides (default: every finding, base and overrides). */
  customerKey?: string | null;
  /** Also dismissed findings (default: only open ones). */
  includeDismissed?: boolean | null;
}

export interface FindingRow {
  key: string;
  namespace: string;
  language: string;
  /** The customer whose override the finding is about; null for the base translation. */
  customerKey: string | null;
  check: string;
  severity: Severity;
  message: string;
  /** The message as data; null for a finding stored before findings carried it. */
  messageText: MessageText | null;
  spanStart: number | null;
  spanEnd: number | null;
  dismissed: boolean;
  /** The text checked: the base translation's, or the override's. */
  text: string;
}

export interface FindingCount {
  language: string;
  check: string;
  severity: Severity;
  count: number;
  dismissed: number;
}

export interface FindingPage {
  total: number;
  errors: number;
  warnings: number;
  infos: number;
  /** Keys written whose findings are not computed yet (the figures will move). */
  pending: number;
  counts: FindingCount[];
  findings: FindingRow[];
}

function conditions(
  projectId: number,
  filter: FindingFilter,
  languageId: number | null,
  customerId: number | null,
): Prisma.Sql {
  if (filter.severity && !SEVERITIES.includes(filter.severity as Severity))
    throw badRequest('severity must be error, warning or info');
  if (filter.check && !CHECK_IDS.includes(filter.check)) throw badRequest(`Unknown check "${filter.check}"`);
  const parts = [Prisma.sql`f."projectId" = ${projectId}`];
  if (languageId !== null) parts.push(Prisma.sql`f."languageId" = ${languageId}`);
  if (customerId !== null) parts.push(Prisma.sql`f."customerId" = ${customerId}`);
  if (filter.severity) parts.push(Prisma.sql`f.severity = ${filter.severity}`);
  if (filter.check) parts.push(Prisma.sql`f."check" = ${filter.check}`);
  if (!filter.includeDismissed) parts.push(Prisma.sql`NOT f.dismissed`);
  return Prisma.join(parts, ' AND ');
}

/**
 * The list's first `upTo` findings of each of the severities, errors first:
 * one range scan of the (projectId, severity, keyId, …) index per severity,
 * each stopping after `upTo` rows, instead of sorting every finding of the
 * project for one page. Only severities with findings are scanned: a check
 * has one severity, and a scan of another would read its whole range for none.
 */
function pageBySeverity(where: Prisma.Sql, severities: readonly Severity[], upTo: number): Prisma.Sql {
  return Prisma.join(
    severities.map(
      (s) => Prisma.sql`(SELECT f.*, ${SEVERITIES.indexOf(s)}::int AS rank FROM "Finding" f
        WHERE ${where} AND f.severity = ${s}
        ORDER BY f."keyId", f."languageId", f."customerId", f."check", f.n LIMIT ${upTo})`,
    ),
    ' UNION ALL ',
  );
}

export async function listFindings(
  projectId: number,
  filter: FindingFilter,
  page: { first?: number | null; offset?: number | null } = {},
  db: Db = prisma(),
): Promise<FindingPage> {
  const first = page.first ?? 100;
  const offset = page.offset ?? 0;
  if (first < 0 || first > 1000) throw badRequest('first: 0–1000');
  if (offset < 0) throw badRequest('offset: 0 or more');
  let languageId: number | null = null;
  if (filter.languageCode) {
    const language = await db.language.findUnique({
      where: { projectId_key: { projectId, key: filter.languageCode } },
      select: { id: true },
    });
    if (!language) throw badRequest(`Language ${filter.languageCode} not found in the project`);
    languageId = language.id;
  }
  const customerId = filter.customerKey ? await customerIdOf(projectId, filter.customerKey, db) : null;
  // Every condition is on the Finding row itself: the counts group its rows (from an index alone) before
  // naming the languages, and the page picks its rows before joining keys and texts.
  const where = conditions(projectId, filter, languageId, customerId);
  // The counts and the queue side by side (on PostgreSQL, on two of the pool's connections); the page
  // after them, scanning only the severities the counts found.
  const [counts, [queue]] = await Promise.all([
    db.$queryRaw<FindingCount[]>(Prisma.sql`/* findings:counts */
    SELECT l.key AS language, c."check", c.severity, c.count, c.dismissed
      FROM (SELECT f."languageId", f."check", f.severity,
                   count(*) FILTER (WHERE NOT f.dismissed)::int AS count, count(*) FILTER (WHERE f.dismissed)::int AS dismissed
              FROM "Finding" f WHERE ${where}
             GROUP BY f."languageId", f."check", f.severity) c
      JOIN "Language" l ON l.id = c."languageId"
     ORDER BY l."order", l.key, c."check"`),
    db.$queryRaw<{ n: number }[]>(
      Prisma.sql`/* findings:pending-project */ SELECT count(*)::int AS n FROM "FindingQueue" WHERE "projectId" = ${projectId}`,
    ),
  ]);
  // A count as the answer shows it: with the dismissed findings when they are asked for.
  const listed = (c: FindingCount) => c.count + (filter.includeDismissed ? c.dismissed : 0);
  const present = SEVERITIES.filter((severity) => counts.some((c) => c.severity === severity && listed(c) > 0));
  const findings =
    first === 0 || !present.length
      ? []
      : await db.$queryRaw<FindingRow[]>(Prisma.sql`/* findings:page */
    SELECT k.key, k.namespace, l.key AS language, c.key AS "customerKey", f."check", f.severity, f.message, f."messageText",
           f."spanStart", f."spanEnd", f.dismissed, coalesce(o.text, t.text, '') AS text
      FROM (SELECT f.* FROM (${pageBySeverity(where, present, first + offset)}) f
             ORDER BY f.rank, f."keyId", f."languageId", f."customerId", f."check", f.n
             LIMIT ${first} OFFSET ${offset}) f
      JOIN "Language" l ON l.id = f."languageId"
      JOIN "TranslationKey" k ON k.id = f."keyId"
      LEFT JOIN "Translation" t ON f."customerId" = 0 AND t."keyId" = f."keyId" AND t."languageId" = f."languageId"
      LEFT JOIN "CustomerTranslation" o ON o."keyId" = f."keyId" AND o."languageId" = f."languageId" AND o."customerId" = f."customerId"
      LEFT JOIN "Customer" c ON c.id = f."customerId"
     ORDER BY f.rank, f."keyId", f."languageId", f."customerId", f."check", f.n`);
  const sum = (severity?: Severity) =>
    counts.filter((c) => !severity || c.severity === severity).reduce((n, c) => n + listed(c), 0);
  return {
    total: sum(),
    errors: sum('error'),
    warnings: sum('warning'),
    infos: sum('info'),
    pending: queue?.n ?? 0,
    counts,
    findings,
  };
}

export interface KeyFinding {
  keyId: number;
  language: string;
  check: string;
  severity: Severity;
  message: string;
  messageText: MessageText | null;
}

/**
 * The open consistency findings of keys (the editor's window): the checks the
 * editor cannot run while a text is typed, as stored. One statement over the
 * Finding table's primary key.
 */
export async function consistencyFindingsOfKeys(keyIds: readonly number[], db: Db = prisma()): Promise<KeyFinding[]> {
  if (!keyIds.length) return [];
  return db.$queryRaw<KeyFinding[]>(Prisma.sql`/* findings:of-keys */
    SELECT f."keyId", l.key AS language, f."check", f.severity, f.message, f."messageText"
      FROM "Finding" f JOIN "Language" l ON l.id = f."languageId"
     WHERE f."keyId" = ANY(${arrayLiteral(keyIds)}::int[]) AND f."customerId" = 0 AND f."check" = ANY(${arrayLiteral(CONSISTENCY_CHECK_IDS)}::text[]) AND NOT f.dismissed
     ORDER BY f."keyId", l."order", f."check"`);
}
