// Deep filtered pages of GET /api/v2/translations walk only the blocks of keys
// that hold them, from counts of matching cells per block kept in memory
// (src/content/translations/match-blocks.ts). Every page equals the plain
// query (every cell, filtered, sorted, cut); after writes that change the
// counts — including one that commits after the counts were taken in a
// snapshot that did not see it — no stale count is used; and a page costs
// the same statements wherever it is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observeSql } from '../../src/db/client.js';
import { Prisma } from '../../src/generated/prisma/client.js';
import { openChange } from '../../src/content/changes.js';
import { queryTranslations, type TranslationFilter } from '../../src/content/translations/cells.js';
import { BLOCK_KEYS, DEEP_CELLS, forgetBlocks } from '../../src/content/translations/match-blocks.js';
import { startTestService, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { planChoices, rowsRead, type PlanNode } from '../support/query-plan.js';

let service: TestService;
let api: ProjectApi;
let projectId: number;

const KEYS = 3000;
const name = (k: number) => `k.${String(k).padStart(5, '0')}`;
const namespaceOf = (k: number) => (k % 4 === 0 ? 'app' : '');
const textOf = (k: number, language: string) => {
  if (language === 'en') return k % 7 === 3 ? '' : `hello ${k}${k % 13 === 0 ? ' needle' : ''}`;
  if (language === 'fr') return k % 5 === 1 ? `bonjour ${k}${k % 11 === 1 ? ' Ärger_50%' : ''}` : '';
  return k % 3 === 0 ? `hallo ${k}${k % 17 === 0 ? ' NEEDLE' : ''}` : '';
};

beforeAll(async () => {
  service = await startTestService();
  api = await projectApi(service, await service.account(), 'Deep pages');
  for (const language of ['fr', 'de'])
    expect((await api.post('/api/v1/languages', { key: language })).status).toBe(200);
  expect((await api.post('/api/v1/customers', { key: 'acme' })).status).toBe(200);
  const content = Array.from({ length: KEYS }, (_, k) =>
    ['en', 'fr', 'de'].map((language) => ({
      key: name(k),
      namespace: namespaceOf(k),
      language,
      text: textOf(k, language),
    })),
  ).flat();
  const overrides = Array.from({ length: KEYS }, (_, k) => k)
    .filter((k) => k % 9 === 2)
    .map((k) => ({ key: name(k), namespace: namespaceOf(k), language: 'de', text: `acme ${k}`, customerId: 'acme' }));
  expect((await api.post('/api/v1/translations', { content: [...content, ...overrides] })).status).toBe(200);
  for (let k = 0; k < KEYS; k += 23)
    expect(
      (
        await api.patch('/api/v2/translations', {
          key: name(k),
          namespace: namespaceOf(k),
          language: 'en',
          reviewStatus: 'REVIEWED',
        })
      ).status,
    ).toBe(200);
  const project = await service.db.prisma.project.findUniqueOrThrow({ where: { projectToken: api.projectToken } });
  projectId = project.id;
}, 180_000);
afterAll(() => service.close());

interface Cell {
  key: string;
  namespace: string;
  language: string;
  text: string;
  reviewStatus: string;
  lastModifiedAt: Date | null;
  customerKey: string | null;
  isOverride: boolean;
}

/** The plain query: every cell of the project (a customer's override where it has a text), filtered, sorted, cut. */
async function reference(filter: TranslationFilter, offset: number, limit: number): Promise<Cell[]> {
  const conditions: Prisma.Sql[] = [Prisma.sql`true`];
  if (filter.text) conditions.push(Prisma.sql`strpos(lower(c.text), lower(${filter.text})) > 0`);
  if (filter.textStatus === 'EMPTY') conditions.push(Prisma.sql`c.text = ''`);
  if (filter.textStatus === 'NOT_EMPTY') conditions.push(Prisma.sql`c.text <> ''`);
  if (filter.reviewStatus) conditions.push(Prisma.sql`c."reviewStatus" = ${filter.reviewStatus}`);
  if (filter.language) conditions.push(Prisma.sql`c.language = ${filter.language}`);
  if (filter.namespace != null) conditions.push(Prisma.sql`c.namespace = ${filter.namespace}`);
  const customer = filter.customerKey ?? null;
  return service.db.prisma.$queryRaw<Cell[]>(Prisma.sql`
    SELECT c.key, c.namespace, c.language, c.text, c."reviewStatus", c."lastModifiedAt", c."customerKey", c."isOverride" FROM (
      SELECT k.key, k.namespace, l.key AS language, l."order",
             CASE WHEN ct.text <> '' THEN ct.text ELSE coalesce(t.text, '') END AS text,
             CASE WHEN ct.text <> '' THEN ct."reviewStatus"::text ELSE coalesce(t."reviewStatus"::text, 'NOT_REVIEWED') END AS "reviewStatus",
             CASE WHEN ct.text <> '' THEN ct."lastModifiedAt" ELSE t."lastModifiedAt" END AS "lastModifiedAt",
             ${customer}::text AS "customerKey", (ct.text <> '') IS TRUE AS "isOverride"
        FROM "TranslationKey" k JOIN "Language" l ON l."projectId" = k."projectId"
        LEFT JOIN "Translation" t ON t."keyId" = k.id AND t."languageId" = l.id
        LEFT JOIN "CustomerTranslation" ct ON ct."keyId" = k.id AND ct."languageId" = l.id
              AND ct."customerId" = (SELECT id FROM "Customer" WHERE "projectId" = ${projectId} AND key = ${customer})
       WHERE k."projectId" = ${projectId}) c
     WHERE ${Prisma.join(conditions, ' AND ')}
     ORDER BY c.namespace, c.key, c."order", c.language
     OFFSET ${offset} LIMIT ${limit}`);
}

const total = async (filter: TranslationFilter) => (await reference(filter, 0, 1_000_000)).length;

const FILTERS: TranslationFilter[] = [
  { textStatus: 'NOT_EMPTY' },
  { textStatus: 'EMPTY' },
  { reviewStatus: 'REVIEWED' },
  { reviewStatus: 'NOT_REVIEWED' },
  { text: 'needle' },
  { text: 'hello' },
  // Rare texts read from their cells (ILIKE): a case beyond ASCII, and LIKE's wildcards taken literally
  // ('r_1' as a pattern would match 'bonjour 1…').
  { text: 'äRGER_5' },
  { text: 'r_1' },
  { text: '50%' },
  { textStatus: 'NOT_EMPTY', language: 'de' },
  { namespace: 'app', textStatus: 'EMPTY' },
  { customerKey: 'acme', textStatus: 'NOT_EMPTY' },
  { customerKey: 'acme', text: 'acme' },
];

// Every field a page shows, and nothing else: the customer's key and whether the text is its override too (the
// page sets them without reading them).
const strip = (cells: Cell[]) =>
  cells.map(({ key, namespace, language, text, reviewStatus, lastModifiedAt, customerKey, isOverride }) => ({
    key,
    namespace,
    language,
    text,
    reviewStatus,
    lastModifiedAt,
    customerKey,
    isOverride,
  }));

/** Pages at the start, around the block size, the middle, the end and past it, each checked against the plain query. */
async function checkPages(filter: TranslationFilter, size: number) {
  const cells = await total(filter);
  const last = Math.max(Math.ceil(cells / size) - 1, 0);
  const pages = new Set(
    [0, 1, Math.floor(last / 3), Math.floor(last / 2), last - 1, last, last + 1].filter((p) => p >= 0),
  );
  for (let p = 0; p <= last; p += 7) pages.add(p);
  for (const page of pages) {
    const got = await queryTranslations(projectId, filter, page, size);
    expect(got, `${JSON.stringify(filter)} page ${page} of ${size}`).toEqual(
      strip(await reference(filter, page * size, size)),
    );
  }
}

/** The cells of a deep page of the REST contract. */
async function restPage(query: string) {
  const res = await api.get(`/api/v2/translations?${query}`);
  expect(res.status).toBe(200);
  return res.data as Cell[];
}

describe('deep filtered pages', () => {
  it('equal the plain query at every position, for every filter and page size', async () => {
    expect(await total({ textStatus: 'NOT_EMPTY' })).toBeGreaterThan(2 * DEEP_CELLS);
    for (const filter of FILTERS) for (const size of [100, 37]) await checkPages(filter, size);
  });

  it('walk only the blocks that hold them, and cost the same statements wherever they are', async () => {
    const filter: TranslationFilter = { textStatus: 'NOT_EMPTY' };
    const cells = await total(filter);
    const size = 100;
    const last = Math.ceil(cells / size) - 1;
    forgetBlocks();
    const statements = async (page: number, query = 'textStatus=NOT_EMPTY') => {
      // The page's own statements (not, say, the API key's lookup when its cached principal has expired).
      const sql: string[] = [];
      await observeSql(
        (s) => {
          const name = s.match(/\/\* (translations:[^ ]+) \*\//)?.[1];
          if (name) sql.push(name);
        },
        () => restPage(`${query}&size=${size}&page=${page}`),
      );
      return sql;
    };
    // The first deep page counts the blocks, once.
    expect(await statements(last)).toEqual(['translations:count-blocks', 'translations:page-filtered-blocks']);
    const deepest = await statements(last);
    expect(deepest).toEqual(['translations:page-filtered-blocks']);
    expect(await statements(0)).toEqual(deepest);
    expect(await statements(Math.floor(last / 2))).toEqual(deepest);
    // A common text: once its counts are known, not even a look at the trigram index for whether it is rare.
    const hello = Math.ceil((await total({ text: 'hello' })) / size) - 1;
    const counted = await statements(hello, 'text=hello');
    expect(counted.at(-1)).toBe('translations:page-filtered-blocks');
    expect(counted).toContain('translations:count-blocks');
    expect(await statements(hello, 'text=hello')).toEqual(deepest);
    expect(await statements(0, 'text=hello')).toEqual(deepest);
    // After a write the counts are stale: the page's statement says so, and the page is read again by the walk from
    // the first key, in a statement of its own; the next deep page counts again.
    expect((await api.patch('/api/v2/translations', { key: name(1), language: 'de', text: 'changed' })).status).toBe(
      200,
    );
    expect(await statements(last)).toEqual(['translations:page-filtered-blocks', 'translations:page-filtered']);
    expect(await statements(last)).toEqual(['translations:count-blocks', 'translations:page-filtered-blocks']);
    expect(await statements(last)).toEqual(deepest);

    // A deep page's statement: the keys walked are the page's own (and the keys without a matching cell between
    // them), from its first key, found by a skip along the key index from its block's first key: not the keys of
    // the block before the page, nor every key before it.
    for (const page of [last, Math.floor(last / 2) + 1]) {
      const queries: Prisma.Sql[] = [];
      const recording = (query: Prisma.Sql) => {
        queries.push(query);
        return service.db.prisma.$queryRaw(query);
      };
      const rows = await queryTranslations(projectId, filter, page, size, recording as never);
      expect(queries).toHaveLength(1);
      const [{ 'QUERY PLAN': plan }] = await service.db.prisma.$queryRaw<{ 'QUERY PLAN': unknown }[]>(
        Prisma.sql`EXPLAIN (ANALYZE, FORMAT JSON) ${queries[0]!}`,
      );
      const root = ((typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan: PlanNode }[])[0]!.Plan;
      const first = rows[0]!;
      const final = rows.at(-1)!;
      // The keys from the page's first to its last.
      const [{ span }] = await service.db.prisma.$queryRaw<{ span: number }[]>(Prisma.sql`
        SELECT count(*)::int AS span FROM "TranslationKey" WHERE "projectId" = ${projectId}
           AND (namespace, key) >= (${first.namespace}, ${first.key})
           AND (namespace, key) <= (${final.namespace}, ${final.key})`);
      const reads = rowsRead(root);
      // Each run of keys read from its block's first key: the keys skipped to the page's first key (fewer than a
      // block's) and the page's own, no key after its last.
      expect(reads.get('TranslationKey tk'), `page ${page}`).toBeGreaterThan(0);
      expect(reads.get('TranslationKey tk'), `page ${page}`).toBeLessThan(span + BLOCK_KEYS);
      // No cell counted: the counts per key say which keys hold the page.
      expect(reads.get('Translation f'), `page ${page}`).toBeUndefined();
    }
  });

  it("keep one plan for a deep page's statement, whatever its page", async () => {
    // Prepared, the statement is planned for its values five times; PostgreSQL then keeps the generic plan only if
    // it looks no dearer. Planned for its values, the runs' arrays (their lengths) made it look so much cheaper
    // that the NOT_EMPTY page was planned again at every run (0.4–0.5 ms each).
    for (const filter of [{ textStatus: 'NOT_EMPTY' }, { text: 'hello' }, { textStatus: 'EMPTY' }] as const) {
      const cells = await total(filter);
      const statements: Prisma.Sql[] = [];
      const recording = (query: Prisma.Sql) => {
        if (query.text.includes('translations:page-filtered-blocks')) statements.push(query);
        return service.db.prisma.$queryRaw(query);
      };
      for (let page = Math.ceil(DEEP_CELLS / 37); page * 37 < cells && statements.length < 12; page++)
        await queryTranslations(projectId, filter, page, 37, recording as never);
      expect(statements.length, JSON.stringify(filter)).toBeGreaterThanOrEqual(8);
      const choices = await service.db.prisma.$transaction(async (tx) =>
        planChoices(
          tx as never,
          statements.map((s) => ({ text: s.text, values: s.values })),
        ),
      );
      expect(choices.generic, JSON.stringify(filter)).toBe(statements.length - 5);
    }
  });

  it('stay exact after writes that change the counts (cells, new keys before the page, deleted keys, a new language)', async () => {
    const deep = async () => {
      for (const filter of FILTERS.slice(0, 6)) {
        const cells = await total(filter);
        for (const page of [Math.ceil(cells / 100) - 1, Math.floor(cells / 200)])
          expect(await queryTranslations(projectId, filter, page, 100), JSON.stringify(filter)).toEqual(
            strip(await reference(filter, page * 100, 100)),
          );
      }
    };
    await deep();
    // A cell near the start emptied, another filled and reviewed.
    expect((await api.patch('/api/v2/translations', { key: name(1), language: 'en', text: '' })).status).toBe(200);
    expect(
      (
        await api.patch('/api/v2/translations', {
          key: name(3),
          language: 'fr',
          text: 'needle',
          reviewStatus: 'REVIEWED',
        })
      ).status,
    ).toBe(200);
    await deep();
    // Keys sorted before every other.
    const content = ['a.1', 'a.2', 'a.3'].flatMap((key) =>
      ['en', 'de'].map((language) => ({ key, namespace: '', language, text: `new ${key} needle` })),
    );
    expect((await api.post('/api/v1/translations', { content })).status).toBe(200);
    await deep();
    expect((await api.delete(`/api/v1/translation-keys?key=${name(2)}`)).status).toBe(200);
    await deep();
    // A new language: every key has one more empty cell.
    expect((await api.post('/api/v1/languages', { key: 'it' })).status).toBe(200);
    await deep();
  });

  it('never use counts taken in a snapshot that did not see a write committed since', async (ctx) => {
    // Two transactions at once: PostgreSQL only (the embedded database has one connection).
    if (service.db.kind !== 'postgres') ctx.skip();
    const prisma = service.db.prisma;
    const filter: TranslationFilter = { textStatus: 'NOT_EMPTY' };
    const size = 100;
    const deepest = async () => Math.ceil((await total(filter)) / size) - 1;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const wrote = new Promise<void>((resolve) => (written = resolve));
    // A write of content as the service makes one (its change opened in its transaction), left uncommitted.
    const writer = prisma.$transaction(
      async (tx) => {
        await openChange(tx, projectId, 'TRANSLATIONS', { test: 'held' });
        await tx.$executeRaw`UPDATE "Translation" t SET text = '' FROM "TranslationKey" k
          WHERE k.id = t."keyId" AND k."projectId" = ${projectId} AND k.key IN (${name(5)}, ${name(6)}, ${name(7)}) AND t.text <> ''`;
        written();
        await held;
      },
      { timeout: 60_000 },
    );
    await wrote;
    // Counts taken now, in a snapshot without the write.
    forgetBlocks();
    const before = await deepest();
    expect(await queryTranslations(projectId, filter, before, size)).toEqual(
      strip(await reference(filter, before * size, size)),
    );
    release();
    await writer;
    // The write is committed: the counts taken before it are not used.
    const after = await deepest();
    for (const page of [after, Math.floor(after / 2)])
      expect(await queryTranslations(projectId, filter, page, size)).toEqual(
        strip(await reference(filter, page * size, size)),
      );
  });
});
