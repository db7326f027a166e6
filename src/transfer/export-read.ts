// Reads the keys of an export page by page (keyset pagination in the order of
// the requested sort, or in path order through a prepared ExportKeyOrder run
// for nested formats, see export-order.ts), each page with its translations in
// the export's languages, as BundleKeys. A few pages are held at a time: the
// one being written and the next ones being read (readKeyPages).
import type { Db } from '../db.js';
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
  /** JSON arrays of Cell / OverrideCell (text: parsed here, the same on every driver). */
  cells: string | null;
  overrides: string | null;
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

/** A page's keys, in the order of the sort, without their texts (readTexts adds them). */
async function readKeyRows(db: Db, scope: ExportScope, after: KeyRow | undefined): Promise<KeyRow[]> {
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
  return db.$queryRawUnsafe<KeyRow[]>(
    `SELECT k.id, k.key, k.namespace, k.description, k."codeDescription", k.tags, k."charactersLimit", k.lock, k.deprecated,
            k."importOrder"::text AS "importOrder", k."createdAt"::text AS "createdAt", ${sortKey} AS "sortKey",
            NULL AS cells, NULL AS overrides
       FROM ${from}
      WHERE ${where.join(' AND ')}
      ORDER BY ${order.orderBy}
      LIMIT ${p(scope.pageSize ?? EXPORT_PAGE_SIZE)}`,
    ...params,
  );
}

/**
 * The non-empty texts (and overrides) of a page's keys in the scope's
 * languages, aggregated per key — fewer rows through the driver than a row
 * per cell — set on the rows.
 */
async function readTexts(db: Db, scope: ExportScope, rows: KeyRow[]): Promise<KeyRow[]> {
  if (rows.length === 0 || scope.languages.length === 0) return rows;
  const ids = rows.map((r) => r.id);
  const languages = scope.languages.map((l) => l.id);
  const cells = db.$queryRawUnsafe<{ id: number; cells: string }[]>(
    `SELECT t."keyId" AS id, json_agg(json_build_array(t."languageId", t.text, t."reviewStatus") ORDER BY t."languageId")::text AS cells
       FROM "Translation" t
      WHERE t."keyId" = ANY($1::int[]) AND t."languageId" = ANY($2::int[]) AND t.text <> ''
      GROUP BY t."keyId"`,
    ids, languages,
  );
  const overrides = scope.customerId !== null || scope.customerTranslations
    ? db.$queryRawUnsafe<{ id: number; overrides: string }[]>(
      `SELECT ct."keyId" AS id, json_agg(json_build_array(ct."languageId", ct.text, ct."reviewStatus", c.key) ORDER BY c.key, ct."languageId")::text AS overrides
         FROM "CustomerTranslation" ct JOIN "Customer" c ON c.id = ct."customerId"
        WHERE ct."keyId" = ANY($1::int[]) AND ct."languageId" = ANY($2::int[]) AND ct.text <> ''
          AND ($3::int IS NULL OR ct."customerId" = $3::int)
        GROUP BY ct."keyId"`,
      ids, languages, scope.customerId,
    )
    : undefined;
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const c of await cells) byId.get(c.id)!.cells = c.cells;
  for (const o of (await overrides) ?? []) byId.get(o.id)!.overrides = o.overrides;
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
  if (row.cells) {
    for (const [languageId, text, reviewStatus] of JSON.parse(row.cells) as Cell[]) key.translations[languageKey.get(languageId)!] = { text, reviewStatus };
  }
  if (row.overrides) {
    for (const [languageId, text, reviewStatus, customer] of JSON.parse(row.overrides) as OverrideCell[]) {
      const language = languageKey.get(languageId)!;
      // A customer's non-empty override replaces the base text, or is kept apart (simplelocalize-json).
      if (scope.customerTranslations) ((key.customerTranslations ??= {})[customer] ??= {})[language] = { text, reviewStatus };
      else key.translations[language] = { text, reviewStatus };
    }
  }
  return key;
}

/** Pages read ahead of the one the caller writes: their texts are read at once, on connections of their own. */
const PAGES_AHEAD = 2;

/**
 * The keys of the file, one page at a time, in the order of the sort. A
 * page's keys come first (the keyset cursor of the next page is known then)
 * and its texts second, so the keys of the next pages are read while texts
 * are: while the caller writes a page, the next PAGES_AHEAD are being read,
 * and at most PAGES_AHEAD + 1 pages are held.
 */
export async function* readKeyPages(db: Db, scope: ExportScope): AsyncGenerator<BundleKey[]> {
  const languageKey = new Map(scope.languages.map((l) => [l.id, l.key]));
  const pageSize = scope.pageSize ?? EXPORT_PAGE_SIZE;
  let lastKeys: Promise<KeyRow[] | undefined> = Promise.resolve(undefined);
  const pending: Promise<KeyRow[]>[] = [];
  const readNext = () => {
    // After a short page there is nothing more to read.
    const keys = lastKeys.then((previous) => (previous && previous.length < pageSize ? [] : readKeyRows(db, scope, previous?.[previous.length - 1])));
    lastKeys = keys;
    const page = keys.then((rows) => readTexts(db, scope, rows));
    // Awaited below; a caller that stops early leaves it to settle unobserved.
    page.catch(() => undefined);
    pending.push(page);
  };
  for (let i = 0; i <= PAGES_AHEAD; i++) readNext();
  for (;;) {
    const rows = await pending.shift()!;
    if (rows.length === 0) return;
    readNext();
    yield rows.map((r) => toBundleKey(r, scope, languageKey));
  }
}
