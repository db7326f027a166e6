// Reads the keys of an export page by page (keyset pagination in the order of
// the requested sort, or in path order through a prepared ExportKeyOrder run
// for nested formats, see export-order.ts), each page with its translations in
// the export's languages, as BundleKeys. One page of rows is held at a time.
import { setImmediate } from 'node:timers/promises';
import { database, type Db } from '../db.js';
import type { BundleKey, ReviewStatus } from '../formats/model.js';
import type { ExportSort } from './options.js';

export const EXPORT_PAGE_SIZE = 1000;

export interface ExportLanguage { id: number; key: string; name: string; isDefault: boolean }

/** Which keys an export holds (the download's `namespace` and `tags` filters). */
export interface KeyFilter {
  /** Only the keys of this namespace. */
  namespace?: string;
  /** Only the keys that have at least one of these tags. */
  tags?: readonly string[];
}

/**
 * SQL conditions on the key `alias` for a filter; `p` adds a parameter. The
 * tags condition is also applied to the `same` key of laterNamespaceOfName,
 * so a key hidden by the filter never hides another of its name.
 */
export function keyFilterConditions(alias: string, filter: KeyFilter | undefined, p: (value: unknown) => string): string[] {
  const out: string[] = [];
  if (filter?.namespace !== undefined) out.push(`${alias}.namespace = ${p(filter.namespace)}`);
  if (filter?.tags?.length) out.push(`${alias}.tags && ${p([...filter.tags])}::text[]`);
  return out;
}

export interface ExportScope {
  projectId: number;
  /** The languages to read (of every file the pages feed). */
  languages: ExportLanguage[];
  /**
   * The languages are every language of the project: the texts of a key are
   * then read without a language condition, one range of the key's index
   * instead of a bitmap of its languages (a quarter less time per page on
   * PostgreSQL, measured 2026-11-25).
   */
  everyLanguage?: boolean;
  /** Set when the export is split by namespace. */
  namespace?: string;
  /** A customer whose non-empty overrides replace the base texts. */
  customerId: number | null;
  /** Overrides of customers as customerTranslations (simplelocalize-json); restricted to customerId when set. */
  customerTranslations: boolean;
  sort: ExportSort;
  /** Set for nested formats: the ExportKeyOrder run whose order replaces the sort. */
  pathOrderRun?: string;
  /** Formats without namespaces, unsplit: one key per name, the first namespace's (code-point order). */
  oneKeyPerName: boolean;
  /** The download's filters (applied on top of namespace). */
  filter?: KeyFilter;
  pageSize?: number;
}

interface KeyRow {
  id: number;
  key: string;
  namespace: string;
  description: string;
  codeDescription: string;
  tags: string[];
  charactersLimit: number | null;
  lock: boolean;
  deprecated: boolean;
  importOrder: string;
  createdAt: string;
  /** Hex of the ExportKeyOrder sort key (path order only). */
  sortKey: string | null;
  /** The key's Cells / OverrideCells (JSON text from PostgreSQL until readKeyPage parses it). */
  cells: Cell[] | null;
  overrides: OverrideCell[] | null;
}

/** [languageId, text, reviewStatus] of the base texts; overrides add the customer key. */
type Cell = [number, string, ReviewStatus];
type OverrideCell = [number, string, ReviewStatus, string];

/** ORDER BY and the keyset condition of each sort; the cursor is the last row's values. */
const ORDERS: Record<ExportSort, { orderBy: string; after: (p: (v: unknown) => string, row: KeyRow) => string }> = {
  IMPORT_ORDER: {
    orderBy: 'k."importOrder"',
    after: (p, r) => `k."importOrder" > ${p(r.importOrder)}::bigint`,
  },
  NEWEST_KEYS_LAST: {
    orderBy: 'k."createdAt", k."importOrder"',
    after: (p, r) => `(k."createdAt", k."importOrder") > (${p(r.createdAt)}::timestamp(3), ${p(r.importOrder)}::bigint)`,
  },
  NEWEST_KEYS_FIRST: {
    orderBy: 'k."createdAt" DESC, k."importOrder" DESC',
    after: (p, r) => `(k."createdAt", k."importOrder") < (${p(r.createdAt)}::timestamp(3), ${p(r.importOrder)}::bigint)`,
  },
  NAMESPACES: {
    orderBy: 'k.namespace, k.key',
    after: (p, r) => `(k.namespace, k.key) > (${p(r.namespace)}, ${p(r.key)})`,
  },
};

const PATH_ORDER = {
  orderBy: 'o."sortKey"',
  after: (p: (v: unknown) => string, r: KeyRow) => `o."sortKey" > decode(${p(r.sortKey)}, 'hex')`,
};

/** Keys of the project whose name a key of an earlier namespace (code-point order) already has. */
export function laterNamespaceOfName(alias: string, sameConditions: string[] = []): string {
  return `EXISTS (SELECT 1 FROM "TranslationKey" same WHERE same."projectId" = ${alias}."projectId" AND same.key = ${alias}.key
                     AND same.namespace COLLATE "C" < ${alias}.namespace COLLATE "C"${sameConditions.map((c) => ` AND ${c}`).join('')})`;
}

/**
 * One statement per page: the keys, each with its non-empty texts (and
 * overrides) in the scope's languages aggregated by correlated subqueries on
 * the primary keys — fewer rows through the driver than a row per cell.
 */
async function readKeyPage(db: Db, scope: ExportScope, after: KeyRow | undefined): Promise<KeyRow[]> {
  const params: unknown[] = [];
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const where = [`k."projectId" = ${p(scope.projectId)}`];
  let from = '"TranslationKey" k';
  let sortKey = 'NULL';
  if (scope.pathOrderRun !== undefined) {
    // The run holds exactly the file's keys (namespace and one-per-name applied when it was prepared).
    from = `"ExportKeyOrder" o JOIN "TranslationKey" k ON k.id = o."keyId"`;
    where.push(`o."runId" = ${p(scope.pathOrderRun)}`);
    sortKey = `encode(o."sortKey", 'hex')`;
  } else {
    if (scope.namespace !== undefined) where.push(`k.namespace = ${p(scope.namespace)}`);
    where.push(...keyFilterConditions('k', scope.filter, p));
    if (scope.oneKeyPerName) where.push(`NOT ${laterNamespaceOfName('k', keyFilterConditions('same', { tags: scope.filter?.tags }, p))}`);
  }
  const order = scope.pathOrderRun !== undefined ? PATH_ORDER : ORDERS[scope.sort];
  if (after) where.push(order.after(p, after));
  let cells = 'NULL';
  let overrides = 'NULL';
  if (scope.languages.length > 0) {
    const inLanguages = (alias: string) => (scope.everyLanguage ? '' : ` AND ${alias}."languageId" = ANY(${p(scope.languages.map((l) => l.id))}::int[])`);
    cells = `(SELECT json_agg(json_build_array(t."languageId", t.text, t."reviewStatus")) FROM "Translation" t
               WHERE t."keyId" = k.id${inLanguages('t')} AND t.text <> '')`;
    if (scope.customerId !== null || scope.customerTranslations) {
      const customer = p(scope.customerId);
      overrides = `(SELECT json_agg(json_build_array(ct."languageId", ct.text, ct."reviewStatus", c.key) ORDER BY c.key)
                      FROM "CustomerTranslation" ct JOIN "Customer" c ON c.id = ct."customerId"
                     WHERE ct."keyId" = k.id${inLanguages('ct')} AND ct.text <> ''
                       AND (${customer}::int IS NULL OR ct."customerId" = ${customer}::int))`;
    }
  }
  const keys = (json: (column: string) => string, numbered: boolean) => `
       SELECT k.id, k.key, k.namespace, k.description, k."codeDescription", k.tags, k."charactersLimit", k.lock, k.deprecated,
              k."importOrder"::text AS "importOrder", k."createdAt"::text AS "createdAt", ${sortKey} AS "sortKey",
              ${json(cells)} AS cells, ${json(overrides)} AS overrides${numbered ? `, row_number() OVER (ORDER BY ${order.orderBy}) AS n` : ''}
         FROM ${from}
        WHERE ${where.join(' AND ')}
        ORDER BY ${order.orderBy}
        LIMIT ${p(scope.pageSize ?? EXPORT_PAGE_SIZE)}`;
  if (database().kind === 'pglite') {
    // The page as one JSON text: PGlite's driver copies each field's bytes
    // apart, which cost more than the export's writing (an android-strings
    // export of 100,000 texts: 636 → 440 ms). `n` keeps the page's order.
    const [{ page }] = await db.$queryRawUnsafe<{ page: string | null }[]>(`SELECT json_agg(p ORDER BY p.n)::text AS page FROM (${keys((c) => c, true)}) p`, ...params);
    return page === null ? [] : (JSON.parse(page) as KeyRow[]);
  }
  // PostgreSQL: a row per key, its texts as JSON text (parsed here, not by the
  // driver). The page as one JSON text costs the server more than it saves here.
  const rows = await db.$queryRawUnsafe<KeyRow[]>(keys((c) => `(${c})::text`, false), ...params);
  for (const row of rows) {
    if (typeof row.cells === 'string') row.cells = JSON.parse(row.cells) as Cell[];
    if (typeof row.overrides === 'string') row.overrides = JSON.parse(row.overrides) as OverrideCell[];
  }
  return rows;
}

function toBundleKey(row: KeyRow, scope: ExportScope, languageKey: Map<number, string>): BundleKey {
  const key: BundleKey = { key: row.key, namespace: row.namespace, translations: {} };
  if (row.description) key.description = row.description;
  if (row.codeDescription) key.codeDescription = row.codeDescription;
  if (row.tags.length) key.tags = row.tags;
  if (row.charactersLimit !== null) key.charactersLimit = row.charactersLimit;
  if (row.lock) key.lock = true;
  if (row.deprecated) key.deprecated = true;
  // A language added since the export began (everyLanguage reads without a language condition) is not in the files.
  if (row.cells) {
    for (const [languageId, text, reviewStatus] of row.cells) {
      const language = languageKey.get(languageId);
      if (language !== undefined) key.translations[language] = { text, reviewStatus };
    }
  }
  if (row.overrides) {
    for (const [languageId, text, reviewStatus, customer] of row.overrides) {
      const language = languageKey.get(languageId);
      if (language === undefined) continue;
      // A customer's non-empty override replaces the base text, or is kept apart (simplelocalize-json).
      if (scope.customerTranslations) ((key.customerTranslations ??= {})[customer] ??= {})[language] = { text, reviewStatus };
      else key.translations[language] = { text, reviewStatus };
    }
  }
  return key;
}

/**
 * The keys of the file, one page at a time, in the order of the sort. The
 * next page is read while the caller writes the current one (the keyset
 * cursor is known as soon as a page arrives), so at most two pages are held.
 */
export async function* readKeyPages(db: Db, scope: ExportScope): AsyncGenerator<BundleKey[]> {
  const languageKey = new Map(scope.languages.map((l) => [l.id, l.key]));
  const pageSize = scope.pageSize ?? EXPORT_PAGE_SIZE;
  let rows = await readKeyPage(db, scope, undefined);
  while (rows.length > 0) {
    const next = rows.length < pageSize ? undefined : readKeyPage(db, scope, rows[rows.length - 1]);
    if (next) {
      // Awaited below; a caller that stops early leaves it to settle unobserved.
      next.catch(() => undefined);
      // The query leaves for the database only on a later turn of the event
      // loop (the pool hands out its connection asynchronously), and a caller
      // writing a page does not yield one: without this turn the next page
      // was read after the current one was written, not while.
      await setImmediate();
    }
    yield rows.map((r) => toBundleKey(r, scope, languageKey));
    if (!next) return;
    rows = await next;
  }
}
