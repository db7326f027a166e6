// The translation editor's rows: the keys of a project matching the editor's
// filters, in namespace and key order, one window at a time (the grid asks for
// the window it scrolls to, so offsets, not cursors). Key filters apply to the
// key; cell filters (text, empty, review status) hold when at least one cell of
// the chosen languages, seen through the customer when one is given, matches.
import { customerIdOf } from '../content/customers.js';
import { database, prisma } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';
import { containsPattern } from '../db/contains.js';
import { badRequest } from '../errors.js';
import { cellsOfKeys } from '../content/translations/cells.js';
import { checkFindings } from './checks.js';
import { CHECK_IDS, SEVERITIES, type Severity } from '../checks/index.js';

export const EDITOR_PAGE = { defaultSize: 50, maxSize: 100 } as const;

export interface EditorFilter {
  /** Contained in the key, ignoring case. */
  keyContains?: string | null;
  /** Equals the key. */
  key?: string | null;
  namespace?: string | null;
  /** Keys with at least one of these tags. */
  tags?: string[] | null;
  deprecated?: boolean | null;
  /** Contained in a cell's text, ignoring case. */
  text?: string | null;
  textStatus?: 'EMPTY' | 'NOT_EMPTY' | null;
  reviewStatus?: 'REVIEWED' | 'NOT_REVIEWED' | null;
  /** The languages the cell filters look at; all when empty. */
  languages?: string[] | null;
  customerKey?: string | null;
  /** Keys with a cell (of the chosen languages) that fails a check of checks.ts. */
  problems?: boolean | null;
  /** Keys with an open stored finding of this severity (error, warning, info) in the chosen languages. */
  findingSeverity?: string | null;
  /** Keys with an open stored finding of this check in the chosen languages. */
  findingCheck?: string | null;
  /** Keys marked on a screenshot (true) or on none (false). */
  screenshots?: boolean | null;
}

export interface EditorRows {
  /** Keys matching the filter; a lower bound when totalIsExact is false. */
  totalCount: number;
  /** False when counting stopped COUNT_AHEAD keys past the window (more keys match). */
  totalIsExact: boolean;
  keyIds: number[];
}

/**
 * How far past the window a filtered count goes. An exact count of a text
 * filter over a 2,000,000-cell project reads every matching cell (seconds, on
 * every keystroke); the window needs only its own rows, so counting stops a
 * thousand keys past it (keys probed in order, or matching keys when the
 * term is rare) and says so ("at least 1,100 keys"). A window further on
 * counts further: the grid grows as it scrolls.
 */
export const COUNT_AHEAD = 1000;

/**
 * The window of a project's keys with no filter, and their exact count from
 * the key index. The offset is walked along the (projectId, namespace, key)
 * index alone, which holds the order's columns, to the window's first key;
 * the window is then read from there: a deep window reads its own rows from
 * the table, not every key before it (a window at the end of 200,000 keys read
 * 37,000 buffers, now 2,500).
 */
export function allRowsSql(projectId: number, offset: number, limit: number): Prisma.Sql {
  return Prisma.sql`/* console:rows-all */ SELECT w.id, (SELECT count(*) FROM "TranslationKey" WHERE "projectId" = ${projectId})::int AS total
     FROM (SELECT 1) one LEFT JOIN (
       SELECT k.id FROM (SELECT s.namespace, s.key FROM "TranslationKey" s WHERE s."projectId" = ${projectId}
                          ORDER BY s.namespace, s.key OFFSET ${offset} LIMIT 1) first
        CROSS JOIN LATERAL (SELECT k.id FROM "TranslationKey" k
                             WHERE k."projectId" = ${projectId} AND (k.namespace, k.key) >= (first.namespace, first.key)
                             ORDER BY k.namespace, k.key LIMIT ${limit}) k
     ) w ON true`;
}

export async function editorRows(
  projectId: number,
  filter: EditorFilter,
  offset: number,
  limit: number,
): Promise<EditorRows> {
  if (!Number.isInteger(offset) || offset < 0)
    throw badRequest(`offset must be an integer of at least 0; got ${offset}`);
  if (!Number.isInteger(limit) || limit < 0 || limit > EDITOR_PAGE.maxSize)
    throw badRequest(`limit must be an integer between 0 and ${EDITOR_PAGE.maxSize}; got ${limit}`);
  const where = [Prisma.sql`k."projectId" = ${projectId}`];
  if (filter.key != null) where.push(Prisma.sql`k.key = ${filter.key}`);
  if (filter.keyContains) where.push(Prisma.sql`k.key ILIKE ${containsPattern(filter.keyContains)}`);
  if (filter.namespace != null) where.push(Prisma.sql`k.namespace = ${filter.namespace}`);
  if (filter.tags?.length) where.push(Prisma.sql`k.tags && ${filter.tags}::text[]`);
  if (filter.deprecated != null) where.push(Prisma.sql`k.deprecated = ${filter.deprecated}`);
  if (filter.screenshots != null)
    where.push(
      Prisma.sql`${filter.screenshots ? Prisma.empty : Prisma.sql`NOT `}EXISTS (SELECT 1 FROM "KeyScreenshot" ks WHERE ks."keyId" = k.id)`,
    );
  // The ids of the chosen languages (a subquery on the project's languages).
  const chosenLanguages = (languages: string[]) =>
    Prisma.sql`(SELECT id FROM "Language" WHERE "projectId" = ${projectId} AND key = ANY(${languages}::text[]))`;
  const customer = filter.customerKey ? await customerIdOf(projectId, filter.customerKey) : null;
  if (filter.findingSeverity || filter.findingCheck) {
    // The stored findings (src/findings/): open ones of the severity or check, in the chosen languages.
    if (filter.findingSeverity && !SEVERITIES.includes(filter.findingSeverity as Severity))
      throw badRequest('findingSeverity must be error, warning or info');
    if (filter.findingCheck && !CHECK_IDS.includes(filter.findingCheck))
      throw badRequest(`Unknown check "${filter.findingCheck}"`);
    // The base cells' findings, and seen through a customer its overrides' too.
    const found = [
      Prisma.sql`f."keyId" = k.id`,
      Prisma.sql`f."customerId" IN (0, ${customer ?? 0}::int)`,
      Prisma.sql`NOT f.dismissed`,
    ];
    if (filter.findingSeverity) found.push(Prisma.sql`f.severity = ${filter.findingSeverity}`);
    if (filter.findingCheck) found.push(Prisma.sql`f."check" = ${filter.findingCheck}`);
    if (filter.languages?.length) found.push(Prisma.sql`f."languageId" IN ${chosenLanguages(filter.languages)}`);
    where.push(Prisma.sql`EXISTS (SELECT 1 FROM "Finding" f WHERE ${Prisma.join(found, ' AND ')})`);
  }

  const cell: Prisma.Sql[] = [];
  // Conditions only a written, non-empty base cell can meet (a text to contain, NOT_EMPTY, REVIEWED):
  // one scan of the project's translations joined as a set, instead of a lookup per key.
  const onWrittenCells =
    customer == null &&
    filter.textStatus !== 'EMPTY' &&
    filter.reviewStatus !== 'NOT_REVIEWED' &&
    !!(filter.text || filter.textStatus || filter.reviewStatus);
  const keyConditions = Prisma.join(where, ' AND ');
  const keyFiltered = where.length > 1;
  let written: Prisma.Sql | undefined;
  // The same condition where no index answers the text (the walk's probe of one key's cells; every
  // statement on PGlite, which has no trigram index): on a UTF-8 database ILIKE is lower() of both sides
  // and LIKE (PostgreSQL's like.c), and spelled so the pattern is lowered once, not per cell, it costs
  // less (bench/text-filter.ts; docs/benchmarks.md, "Figures behind constants in the code").
  let probed = Prisma.empty;
  if (onWrittenCells) {
    const conditions = [Prisma.sql`t."projectId" = ${projectId}`];
    const pattern = filter.text ? containsPattern(filter.text) : undefined;
    if (filter.textStatus === 'NOT_EMPTY') conditions.push(Prisma.sql`t.text <> ''`);
    if (filter.reviewStatus === 'REVIEWED') conditions.push(Prisma.sql`t."reviewStatus" = 'REVIEWED'`);
    if (filter.languages?.length) conditions.push(Prisma.sql`t."languageId" IN ${chosenLanguages(filter.languages)}`);
    probed = Prisma.join(
      [...conditions, ...(pattern !== undefined ? [Prisma.sql`lower(t.text) LIKE lower(${pattern}::text)`] : [])],
      ' AND ',
    );
    written =
      database().kind === 'postgres'
        ? Prisma.join([...conditions, ...(pattern !== undefined ? [Prisma.sql`t.text ILIKE ${pattern}`] : [])], ' AND ')
        : probed;
    where.push(Prisma.sql`k.id IN (SELECT t."keyId" FROM "Translation" t WHERE ${written})`);
  }
  const text =
    customer != null
      ? Prisma.sql`CASE WHEN ct.text <> '' THEN ct.text ELSE coalesce(t.text, '') END`
      : Prisma.sql`coalesce(t.text, '')`;
  const review =
    customer != null
      ? Prisma.sql`CASE WHEN ct.text <> '' THEN ct."reviewStatus"::text ELSE coalesce(t."reviewStatus"::text, 'NOT_REVIEWED') END`
      : Prisma.sql`coalesce(t."reviewStatus"::text, 'NOT_REVIEWED')`;
  if (filter.text && !onWrittenCells) cell.push(Prisma.sql`${text} ILIKE ${containsPattern(filter.text)}`);
  if (filter.textStatus === 'EMPTY') cell.push(Prisma.sql`${text} = ''`);
  if (filter.textStatus === 'NOT_EMPTY' && !onWrittenCells) cell.push(Prisma.sql`${text} <> ''`);
  if (filter.reviewStatus && !onWrittenCells) cell.push(Prisma.sql`${review} = ${filter.reviewStatus}`);
  if (cell.length) {
    if (filter.languages?.length) cell.push(Prisma.sql`l.key = ANY(${filter.languages}::text[])`);
    const customerJoin =
      customer != null
        ? Prisma.sql`LEFT JOIN "CustomerTranslation" ct ON ct."keyId" = k.id AND ct."languageId" = l.id AND ct."customerId" = ${customer}`
        : Prisma.empty;
    where.push(Prisma.sql`EXISTS (SELECT 1 FROM "Language" l
      LEFT JOIN "Translation" t ON t."keyId" = k.id AND t."languageId" = l.id ${customerJoin}
      WHERE l."projectId" = k."projectId" AND ${Prisma.join(cell, ' AND ')})`);
  }
  const condition = Prisma.join(where, ' AND ');
  const db = prisma();
  if (filter.problems) {
    const ids = await keysWithProblems(
      projectId,
      condition,
      filter.languages ?? [],
      customer == null ? null : { id: customer, key: filter.customerKey! },
    );
    return { totalCount: ids.length, totalIsExact: true, keyIds: ids.slice(offset, offset + limit) };
  }
  const keys = Prisma.sql`FROM "TranslationKey" k WHERE ${condition}`;
  if (where.length === 1) {
    const rows = await db.$queryRaw<{ id: number | null; total: number }[]>(allRowsSql(projectId, offset, limit));
    return {
      totalCount: rows[0]!.total,
      totalIsExact: true,
      keyIds: rows.flatMap((r) => (r.id == null ? [] : [r.id])),
    };
  }
  const reach = offset + limit + COUNT_AHEAD;
  // The window of the matching keys `m` (in order, at most `reach` of them) and their count, in one statement:
  // matches `from` + 1 to `from` + `size` (the request's window unless a statement reads only part of it).
  const windowOf = (
    name: string,
    matches: Prisma.Sql,
    from = offset,
    size = limit,
    more = Prisma.empty,
  ) => Prisma.sql`/* console:${Prisma.raw(name)} */ ${matches},
          n AS (SELECT m.id, row_number() OVER (ORDER BY m.namespace, m.key) AS i FROM m)
     SELECT w.id, (SELECT count(*) FROM m)::int AS total, (SELECT count(*) FROM s)::int AS scanned${more}
       FROM (SELECT 1) one LEFT JOIN (SELECT n.id, n.i FROM n WHERE n.i > ${from} ORDER BY n.i LIMIT ${size}) w ON true
      ORDER BY w.i`;
  type Window = { id: number | null; total: number; scanned: number };
  const idsOf = (rows: Window[]) => rows.flatMap((r) => (r.id == null ? [] : [r.id]));
  if (filter.text && written) {
    // A text filter. Which plan is fast depends on how many keys match, which the planner cannot tell
    // from a pattern (it walked most of a project's keys for a term found in few of them). So: first the keys in
    // order, each probed for a matching cell, at most COUNT_AHEAD keys past the window: enough when the term
    // is common. Otherwise the matching cells first, from the trigram index: few when it is rare; in
    // between, the walk goes on (below). bench/text-filter.ts times each kind of term.
    const need = offset + limit;
    const walk = reach;
    const probe = Prisma.sql`CROSS JOIN LATERAL (SELECT 1 FROM "Translation" t WHERE t."keyId" = k.id AND ${probed} LIMIT 1) hit`;
    const last = (column: 'namespace' | 'key') =>
      Prisma.raw(`(SELECT s.${column} FROM s ORDER BY s.namespace DESC, s.key DESC LIMIT 1) AS "${column}"`);
    const walked = await db.$queryRaw<(Window & { namespace: string | null; key: string | null })[]>(
      windowOf(
        'rows-text-walk',
        Prisma.sql`WITH s AS MATERIALIZED (SELECT k.id, k.namespace, k.key FROM "TranslationKey" k WHERE ${keyConditions} ORDER BY k.namespace, k.key LIMIT ${walk}),
          m AS (SELECT k.id, k.namespace, k.key FROM s k ${probe})`,
        offset,
        limit,
        Prisma.sql`, ${last('namespace')}, ${last('key')}`,
      ),
    );
    const { total, scanned, namespace: lastNamespace, key: lastKey } = walked[0]!;
    // Every key was probed: the count is exact. The window is full: the count is what the walk found.
    if (scanned < walk || total >= need)
      return { totalCount: total, totalIsExact: scanned < walk, keyIds: idsOf(walked) };
    // Some matches, too few for the window: a term in a few percent of the keys, so the index's rule holds
    // (the window, and the matching keys counted up to `reach`). Reading every match from the index to
    // order them costs a page each (docs/benchmarks.md, "Figures behind constants in the code"). When the walk's
    // rate says the window fills within another `walk` keys (with half as many again for the rate's
    // error), those keys are probed instead, from the last one walked; meanwhile the count is proven to
    // reach `reach` from the index, which stops once it has seen that many distinct keys (a cell's key
    // counts when its id exceeds every id before it: no key twice; the cells come in table order, which is
    // mostly key order). The statements give the rows and count that reading every match would.
    const more = Math.ceil((1.5 * (need - total) * walk) / total);
    if (total > 0 && more <= walk) {
      const from = Math.max(offset - total, 0);
      // With fewer keys than `enough`, fewer than `reach` would match at the walk's rate: the proof is not
      // tried, as it would read every match (every cell, on PGlite) only to fail.
      const enough = Math.ceil((reach * walk) / total);
      // The cells' keys are looked up only for key filters: the cells carry their project.
      const byKey = keyFiltered
        ? Prisma.sql`JOIN "TranslationKey" k ON k.id = t."keyId" AND ${keyConditions}`
        : Prisma.empty;
      const [further, proof] = await Promise.all([
        db.$queryRaw<Window[]>(
          windowOf(
            'rows-text-walk-on',
            Prisma.sql`WITH s AS MATERIALIZED (SELECT k.id, k.namespace, k.key FROM "TranslationKey" k WHERE ${keyConditions} AND (k.namespace, k.key) > (${lastNamespace}, ${lastKey})
                                    ORDER BY k.namespace, k.key LIMIT ${more}),
              m AS (SELECT k.id, k.namespace, k.key FROM s k ${probe})`,
            from,
            need - total - from,
          ),
        ),
        db.$queryRaw<{ found: number }[]>(
          Prisma.sql`/* console:rows-text-count-proof */ SELECT CASE WHEN (SELECT count(*) FROM (SELECT 1 FROM "TranslationKey" k WHERE ${keyConditions} LIMIT ${enough}) x) < ${enough} THEN 0
            ELSE (SELECT count(*) FROM (
              SELECT 1 FROM (SELECT t."keyId", max(t."keyId") OVER (ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS before
                               FROM "Translation" t ${byKey} WHERE ${written}) c
               WHERE c.before IS NULL OR c."keyId" > c.before LIMIT ${reach}) p) END::int AS found`,
        ),
      ]);
      const matched = total + further[0]!.total;
      const exhausted = further[0]!.scanned < more;
      if (exhausted || (matched >= need && proof[0]!.found >= reach)) {
        // Exhausted: every key was probed; the count is theirs, exact below `reach` as the index's.
        return {
          totalCount: exhausted ? Math.min(matched, reach) : reach,
          totalIsExact: exhausted && matched < reach,
          keyIds: [...idsOf(walked), ...idsOf(further)],
        };
      }
    }
    const rows = await db.$queryRaw<Window[]>(
      windowOf(
        'rows-text-index',
        Prisma.sql`WITH s AS MATERIALIZED (SELECT DISTINCT t."keyId" AS id FROM "Translation" t WHERE ${written}),
          m AS (SELECT k.id, k.namespace, k.key FROM s JOIN "TranslationKey" k ON k.id = s.id WHERE ${keyConditions} ORDER BY k.namespace, k.key LIMIT ${reach})`,
      ),
    );
    return { totalCount: rows[0]!.total, totalIsExact: rows[0]!.total < reach, keyIds: idsOf(rows) };
  }
  // Other filters: the matching keys in order up to COUNT_AHEAD past the window; the window is read
  // from them and the count is theirs (exact when fewer than that matched).
  const rows = await db.$queryRaw<Window[]>(
    windowOf(
      'rows-filtered',
      Prisma.sql`WITH m AS (SELECT k.id, k.namespace, k.key ${keys} ORDER BY k.namespace, k.key LIMIT ${reach}), s AS (SELECT 1)`,
    ),
  );
  return { totalCount: rows[0]!.total, totalIsExact: rows[0]!.total < reach, keyIds: idsOf(rows) };
}

const PROBLEM_BATCH = 2000;

/**
 * The keys (of the SQL condition, in order) with a cell failing a check: the
 * checks are code (ICU parsing), so the cells are read in batches and checked
 * here; the cost grows with the project (docs/console.md).
 */
async function keysWithProblems(
  projectId: number,
  condition: Prisma.Sql,
  languages: string[],
  customer: { id: number; key: string } | null,
): Promise<number[]> {
  const db = prisma();
  const keys = await db.$queryRaw<{ id: number; charactersLimit: number | null }[]>(
    Prisma.sql`/* console:problem-keys */ SELECT k.id, k."charactersLimit" FROM "TranslationKey" k WHERE ${condition} ORDER BY k.namespace, k.key`,
  );
  const [defaultLanguage] = await db.$queryRaw<{ key: string }[]>(
    Prisma.sql`/* console:default-language */ SELECT key FROM "Language" WHERE "projectId" = ${projectId} ORDER BY "isDefault" DESC, "order", id LIMIT 1`,
  );
  const shown = new Set(languages);
  const found: number[] = [];
  for (let i = 0; i < keys.length; i += PROBLEM_BATCH) {
    const batch = keys.slice(i, i + PROBLEM_BATCH);
    const cells = new Map<number, { language: string; text: string }[]>();
    for (const cell of await cellsOfKeys(
      projectId,
      batch.map((k) => k.id),
      customer,
    )) {
      const list = cells.get(cell.keyId);
      if (list) list.push(cell);
      else cells.set(cell.keyId, [cell]);
    }
    for (const key of batch) {
      const list = cells.get(key.id) ?? [];
      const source = list.find((c) => c.language === defaultLanguage?.key)?.text ?? '';
      const failing = list.some(
        (c) =>
          (shown.size === 0 || shown.has(c.language)) &&
          checkFindings(c.text, {
            source: c.language === defaultLanguage?.key ? '' : source,
            charactersLimit: key.charactersLimit,
            sourceLanguage: defaultLanguage?.key,
            targetLanguage: c.language,
          }).length > 0,
      );
      if (failing) found.push(key.id);
    }
  }
  return found;
}
