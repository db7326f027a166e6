// Reads the keys of an export page by page (keyset pagination in the order of
// the requested sort, or in path order through a prepared ExportKeyOrder run
// for nested formats, see export-order.ts), each page with its translations in
// the export's languages, as BundleKeys. One page of rows is held at a time.
import { setImmediate } from 'node:timers/promises';
import { database, type Db } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';
import type { BundleKey, BundleTranslation, ReviewStatus } from '../formats/model.js';
import type { ExportSort } from './options.js';

export const EXPORT_PAGE_SIZE = 1000;

export interface ExportLanguage {
  id: number;
  key: string;
  name: string;
  isDefault: boolean;
}

/** Which keys an export holds (the download's `namespace` and `tags` filters). */
export interface KeyFilter {
  /** Only the keys of this namespace. */
  namespace?: string;
  /** Only the keys that have at least one of these tags. */
  tags?: readonly string[];
}

/**
 * SQL conditions on the key `alias` for a filter. The tags condition is also
 * applied to the `same` key of laterNamespaceOfName, so a key hidden by the
 * filter never hides another of its name.
 */
export function keyFilterConditions(alias: 'k' | 'same', filter: KeyFilter | undefined): Prisma.Sql[] {
  const a = Prisma.raw(alias);
  const out: Prisma.Sql[] = [];
  if (filter?.namespace !== undefined) out.push(Prisma.sql`${a}.namespace = ${filter.namespace}`);
  if (filter?.tags?.length) out.push(Prisma.sql`${a}.tags && ${[...filter.tags]}::text[]`);
  return out;
}

export interface ExportScope {
  projectId: number;
  /** The languages to read (of every file the pages feed). */
  languages: ExportLanguage[];
  /**
   * The languages are every language of the project: the texts are then read
   * without a language condition, the index searched by key alone instead of
   * by key and language, which is faster per page.
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
  /** The key's texts as Cells / OverrideCells, JSON text until readKeyPage parses it. */
  cells: Cells | string | null;
  overrides: OverrideCells | string | null;
}

/**
 * languageId, text, reviewStatus of each base text, one after the other in one
 * flat array; overrides add the customer key. Built by string_agg: cheaper for
 * the database than an array per text (json_build_array; docs/benchmarks.md).
 */
type Cells = (number | string)[];
type OverrideCells = (number | string)[];

/**
 * The cursor's value as the planner sees it: an InitPlan, whose value is
 * unknown when the statement is planned. With the value in sight, the planner
 * estimates the keys past it from statistics taken when the project was
 * smaller (a project grows at the end of its import order), finds next to
 * none, and plans for that: past the last key it knew, it read every key past
 * the cursor, or every key of the project to pick one key per name, once per
 * page (test/api/export-read.test.ts; the figures: docs/benchmarks.md).
 * Unknown, it expects a third of the keys and reads the index in order up to
 * the page's end.
 */
const hidden = (value: Prisma.Sql, type: string) => Prisma.sql`(SELECT ${value}::${Prisma.raw(type)})`;

/** ORDER BY and the keyset condition of each sort; the cursor is the last row's values. */
const ORDERS: Record<ExportSort, { orderBy: Prisma.Sql; after: (row: KeyRow) => Prisma.Sql }> = {
  IMPORT_ORDER: {
    orderBy: Prisma.sql`k."importOrder"`,
    after: (r) => Prisma.sql`k."importOrder" > ${hidden(Prisma.sql`${r.importOrder}`, 'bigint')}`,
  },
  NEWEST_KEYS_LAST: {
    orderBy: Prisma.sql`k."createdAt", k."importOrder"`,
    after: (r) =>
      Prisma.sql`(k."createdAt", k."importOrder") > (${hidden(Prisma.sql`${r.createdAt}`, 'timestamp(3)')}, ${hidden(Prisma.sql`${r.importOrder}`, 'bigint')})`,
  },
  NEWEST_KEYS_FIRST: {
    orderBy: Prisma.sql`k."createdAt" DESC, k."importOrder" DESC`,
    after: (r) =>
      Prisma.sql`(k."createdAt", k."importOrder") < (${hidden(Prisma.sql`${r.createdAt}`, 'timestamp(3)')}, ${hidden(Prisma.sql`${r.importOrder}`, 'bigint')})`,
  },
  NAMESPACES: {
    orderBy: Prisma.sql`k.namespace, k.key`,
    after: (r) =>
      Prisma.sql`(k.namespace, k.key) > (${hidden(Prisma.sql`${r.namespace}`, 'text')}, ${hidden(Prisma.sql`${r.key}`, 'text')})`,
  },
};

const PATH_ORDER = {
  orderBy: Prisma.sql`o."sortKey"`,
  after: (r: KeyRow) => Prisma.sql`o."sortKey" > ${hidden(Prisma.sql`decode(${r.sortKey}, 'hex')`, 'bytea')}`,
};

/** Keys of the project whose name a key of an earlier namespace (code-point order) already has. */
export function laterNamespaceOfName(alias: 'k', sameConditions: Prisma.Sql[] = []): Prisma.Sql {
  const a = Prisma.raw(alias);
  return Prisma.sql`EXISTS (SELECT 1 FROM "TranslationKey" same WHERE same."projectId" = ${a}."projectId" AND same.key = ${a}.key
                     AND same.namespace COLLATE "C" < ${a}.namespace COLLATE "C"${
                       sameConditions.length ? Prisma.sql` AND ${Prisma.join(sameConditions, ' AND ')}` : Prisma.empty
                     })`;
}

/**
 * One statement per page: the page's keys, then their non-empty texts (and
 * overrides) in the scope's languages, read in one pass over the page's ids
 * and joined to them as one flat JSON array per key (toBundleKey parses it).
 */
async function readKeyPage(db: Db, scope: ExportScope, after: KeyRow | undefined): Promise<KeyRow[]> {
  const where = [Prisma.sql`k."projectId" = ${scope.projectId}`];
  let from = Prisma.sql`"TranslationKey" k`;
  let sortKey = Prisma.sql`NULL`;
  if (scope.pathOrderRun !== undefined) {
    // The run holds exactly the file's keys (namespace and one-per-name applied when it was prepared).
    from = Prisma.sql`"ExportKeyOrder" o JOIN "TranslationKey" k ON k.id = o."keyId"`;
    where.push(Prisma.sql`o."runId" = ${scope.pathOrderRun}`);
    sortKey = Prisma.sql`encode(o."sortKey", 'hex')`;
  } else {
    if (scope.namespace !== undefined) where.push(Prisma.sql`k.namespace = ${scope.namespace}`);
    where.push(...keyFilterConditions('k', scope.filter));
    if (scope.oneKeyPerName)
      where.push(
        Prisma.sql`NOT ${laterNamespaceOfName('k', keyFilterConditions('same', { tags: scope.filter?.tags }))}`,
      );
  }
  const order = scope.pathOrderRun !== undefined ? PATH_ORDER : ORDERS[scope.sort];
  if (after) where.push(order.after(after));
  // The texts in one pass over the page's ids: a bitmap of every id visits
  // each block of the table once, where a lookup per key visited a block per
  // text, and per dead version of it after a re-import (docs/benchmarks.md,
  // "Figures behind constants in the code").
  const inLanguages = (alias: 't' | 'ct') =>
    scope.everyLanguage
      ? Prisma.empty
      : Prisma.sql` AND ${Prisma.raw(alias)}."languageId" = ANY(${scope.languages.map((l) => l.id)}::int[])`;
  const withTexts = scope.languages.length > 0;
  const withOverrides = withTexts && (scope.customerId !== null || scope.customerTranslations);
  const ctes = [
    Prisma.sql`page AS MATERIALIZED (
       SELECT k.id, k.key, k.namespace, k.description, k."codeDescription", k.tags, k."charactersLimit", k.lock, k.deprecated,
              k."importOrder"::text AS "importOrder", k."createdAt"::text AS "createdAt", ${sortKey} AS "sortKey",
              row_number() OVER (ORDER BY ${order.orderBy}) AS n
         FROM ${from}
        WHERE ${Prisma.join(where, ' AND ')}
        ORDER BY ${order.orderBy}
        LIMIT ${scope.pageSize ?? EXPORT_PAGE_SIZE})`,
  ];
  if (withTexts) {
    ctes.push(Prisma.sql`cells AS (
       SELECT t."keyId", '[' || string_agg(t."languageId" || ',' || to_json(t.text) || ',"' || t."reviewStatus" || '"', ',') || ']' AS cells FROM "Translation" t
        WHERE t."keyId" = ANY(ARRAY(SELECT id FROM page))${inLanguages('t')} AND t.text <> ''
        GROUP BY t."keyId")`);
  }
  if (withOverrides) {
    const customer = scope.customerId;
    ctes.push(Prisma.sql`overrides AS (
       SELECT ct."keyId", '[' || string_agg(ct."languageId" || ',' || to_json(ct.text) || ',"' || ct."reviewStatus" || '",' || to_json(c.key), ',' ORDER BY c.key) || ']' AS overrides
         FROM "CustomerTranslation" ct JOIN "Customer" c ON c.id = ct."customerId"
        WHERE ct."keyId" = ANY(ARRAY(SELECT id FROM page))${inLanguages('ct')} AND ct.text <> ''
          AND (${customer}::int IS NULL OR ct."customerId" = ${customer}::int)
        GROUP BY ct."keyId")`);
  }
  const keys = Prisma.sql`
     WITH ${Prisma.join(ctes, ', ')}
     SELECT p.id, p.key, p.namespace, p.description, p."codeDescription", p.tags, p."charactersLimit", p.lock, p.deprecated,
            p."importOrder", p."createdAt", p."sortKey", p.n,
            ${withTexts ? Prisma.sql`c.cells` : Prisma.sql`NULL`} AS cells, ${withOverrides ? Prisma.sql`o.overrides` : Prisma.sql`NULL`} AS overrides
       FROM page p${withTexts ? Prisma.sql` LEFT JOIN cells c ON c."keyId" = p.id` : Prisma.empty}${withOverrides ? Prisma.sql` LEFT JOIN overrides o ON o."keyId" = p.id` : Prisma.empty}`;
  if (database().kind === 'pglite') {
    // The page as one JSON text: PGlite's driver copies each field's bytes
    // apart, which cost more than the export's writing. `n` keeps the page's order.
    const [{ page }] = await db.$queryRaw<{ page: string | null }[]>(
      Prisma.sql`/* export:page-json */ SELECT json_agg(r ORDER BY r.n)::text AS page FROM (${keys}) r`,
    );
    return page === null ? [] : (JSON.parse(page) as KeyRow[]);
  }
  // PostgreSQL: a row per key. The page as one JSON text costs the server more than it saves here.
  return db.$queryRaw<KeyRow[]>(Prisma.sql`/* export:page */ ${keys} ORDER BY p.n`);
}

/** A language of the export: its key and its place in the project's language order. */
interface RankedLanguage {
  key: string;
  rank: number;
}

/**
 * The key's texts in the project's language order, whatever order the
 * database aggregated them in (that of the rows as stored, which a plan may
 * change): an export is the same bytes for the same content.
 */
function inLanguageOrder(texts: ([string, BundleTranslation] | undefined)[]): Record<string, BundleTranslation> {
  const out: Record<string, BundleTranslation> = {};
  for (const entry of texts) if (entry) out[entry[0]] = entry[1];
  return out;
}

function toBundleKey(row: KeyRow, scope: ExportScope, languages: Map<number, RankedLanguage>): BundleKey {
  const key: BundleKey = { key: row.key, namespace: row.namespace, translations: {} };
  if (row.description) key.description = row.description;
  if (row.codeDescription) key.codeDescription = row.codeDescription;
  if (row.tags.length) key.tags = row.tags;
  if (row.charactersLimit !== null) key.charactersLimit = row.charactersLimit;
  if (row.lock) key.lock = true;
  if (row.deprecated) key.deprecated = true;
  // A language added since the export began (everyLanguage reads without a language condition) is not in the files.
  const texts: ([string, BundleTranslation] | undefined)[] = [];
  if (row.cells) {
    const cells = (typeof row.cells === 'string' ? JSON.parse(row.cells) : row.cells) as Cells;
    for (let i = 0; i < cells.length; i += 3) {
      const language = languages.get(cells[i] as number);
      if (language !== undefined)
        texts[language.rank] = [
          language.key,
          { text: cells[i + 1] as string, reviewStatus: cells[i + 2] as ReviewStatus },
        ];
    }
  }
  if (row.overrides) {
    const overrides = (typeof row.overrides === 'string' ? JSON.parse(row.overrides) : row.overrides) as OverrideCells;
    const byCustomer = new Map<string, ([string, BundleTranslation] | undefined)[]>();
    for (let i = 0; i < overrides.length; i += 4) {
      const language = languages.get(overrides[i] as number);
      if (language === undefined) continue;
      const text = overrides[i + 1] as string;
      const reviewStatus = overrides[i + 2] as ReviewStatus;
      const customer = overrides[i + 3] as string;
      // A customer's non-empty override replaces the base text, or is kept apart (simplelocalize-json).
      if (scope.customerTranslations) {
        let own = byCustomer.get(customer);
        if (!own) byCustomer.set(customer, (own = []));
        own[language.rank] = [language.key, { text, reviewStatus }];
      } else texts[language.rank] = [language.key, { text, reviewStatus }];
    }
    if (byCustomer.size) {
      key.customerTranslations = {};
      for (const [customer, own] of byCustomer) key.customerTranslations[customer] = inLanguageOrder(own);
    }
  }
  key.translations = inLanguageOrder(texts);
  return key;
}

/**
 * The keys of the file, one page at a time, in the order of the sort. The
 * next page is read while the caller writes the current one (the keyset
 * cursor is known as soon as a page arrives), so at most two pages are held.
 */
export async function* readKeyPages(db: Db, scope: ExportScope): AsyncGenerator<BundleKey[]> {
  const languages = new Map(scope.languages.map((l, rank) => [l.id, { key: l.key, rank }]));
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
    yield rows.map((r) => toBundleKey(r, scope, languages));
    if (!next) return;
    rows = await next;
  }
}
