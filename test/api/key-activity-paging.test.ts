// GET /api/v1/translation-keys (every sort, with and without a filter) and
// GET /api/v2/activity pages: each page is exactly the contract's (every row,
// sorted here from a plain read of the table, cut at page × size), with many
// rows tied on the sort column so that the id tie-break decides; a page
// costs the same statements wherever it is (the activity log's page and count
// side by side on PostgreSQL, one statement elsewhere); counted first, a page walks at
// most half of the list's index (from the nearer end) besides the count;
// counted on from the page (key pages far from the start), the page and the
// count together read each entry of the index once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observeSql } from '../../src/db/client.js';
import { Prisma } from '../../src/generated/prisma/client.js';
import { keyConnectionSql, keyPageSql, type KeySort } from '../../src/content/keys/list.js';
import { activityPageApartSql, activityPageSql } from '../../src/history/activity-log.js';
import { type PlanNode } from '../support/query-plan.js';
import { startTestService, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';

let service: TestService;
let api: ProjectApi;
let projectId: number;

const NAMESPACES = ['', 'app', 'web'];
const KEYS_PER_NAMESPACE = 25;
const ACTIVITY_ROWS = 60;

beforeAll(async () => {
  service = await startTestService();
  api = await projectApi(service, await service.account(), 'Key paging');
  const prisma = service.db.prisma;
  projectId = (await prisma.project.findUniqueOrThrow({ where: { projectToken: api.projectToken } })).id;
  // Keys written in SQL in a shuffled order (so that id, import order and names disagree), then their times
  // set to a few values each: most keys share their sort value with others, the id decides among them.
  await prisma.$executeRaw`INSERT INTO "TranslationKey" ("projectId", key, namespace)
    SELECT ${projectId}, 'k.' || lpad((n % ${KEYS_PER_NAMESPACE})::text, 3, '0'), (${NAMESPACES}::text[])[1 + n / ${KEYS_PER_NAMESPACE}]
      FROM generate_series(0, ${NAMESPACES.length * KEYS_PER_NAMESPACE - 1}) n ORDER BY (n * 37) % 75`;
  await prisma.$executeRaw`UPDATE "TranslationKey" SET
      "lastSeenAt" = timestamp '2026-01-01' + ((id * 7) % 3) * interval '1 hour',
      "modifiedAt" = timestamp '2026-02-01' + ((id * 5) % 4) * interval '1 minute',
      "createdAt" = timestamp '2026-03-01' + (id % 2) * interval '1 day',
      "deprecatedAt" = CASE WHEN id % 3 = 0 THEN timestamp '2026-04-01' + (id % 2) * interval '1 second' END,
      deprecated = id % 3 = 0,
      "importOrder" = CASE WHEN id % 4 = 0 THEN "importOrder" + 1000 ELSE "importOrder" END
    WHERE "projectId" = ${projectId}`;
  // Activity rows at five instants only; the id (newest first) decides among entries at the same time.
  await prisma.$executeRaw`INSERT INTO "Activity" ("projectId", kind, "actorKind", source, at, edits)
    SELECT ${projectId}, CASE WHEN n % 3 = 0 THEN 'KEYS' ELSE 'SETTINGS' END, 'SYSTEM', 'SYSTEM',
           timestamp '2026-05-01' + ((n * 11) % 5) * interval '1 minute', n
      FROM generate_series(1, ${ACTIVITY_ROWS}) n`;
}, 60_000);
afterAll(() => service.close());

interface KeyRow {
  id: number;
  key: string;
  namespace: string;
  lastSeenAt: Date;
  modifiedAt: Date;
  createdAt: Date;
  deprecatedAt: Date | null;
  importOrder: bigint;
}

/** Newest first (null last), then by id. */
const desc = (a: Date | null, b: Date | null) =>
  a === null || b === null ? (a === null ? 1 : 0) - (b === null ? 1 : 0) : b.getTime() - a.getTime();

const ORDERS: Record<string, (a: KeyRow, b: KeyRow) => number> = {
  '': (a, b) => Number(a.importOrder - b.importOrder) || a.id - b.id,
  last_seen_at: (a, b) => desc(a.lastSeenAt, b.lastSeenAt) || a.id - b.id,
  modified_at: (a, b) => desc(a.modifiedAt, b.modifiedAt) || a.id - b.id,
  created_at: (a, b) => desc(a.createdAt, b.createdAt) || a.id - b.id,
  deprecated_at: (a, b) => desc(a.deprecatedAt, b.deprecatedAt) || a.id - b.id,
};

const KEY_FILTERS: [string, (k: KeyRow) => boolean][] = [
  ['', () => true],
  ['namespace=app', (k) => k.namespace === 'app'],
  ['key=k.007', (k) => k.key === 'k.007'],
];

/** A key as the page shows it: its address and its times. */
const shown = (k: {
  key: string;
  namespace: string;
  lastSeenAt: unknown;
  modifiedAt: unknown;
  createdAt: unknown;
  deprecatedAt: unknown;
}) =>
  [
    k.namespace,
    k.key,
    ...[k.lastSeenAt, k.modifiedAt, k.createdAt, k.deprecatedAt].map((t) =>
      t == null ? null : new Date(t as string).toISOString(),
    ),
  ].join(' ');

async function allKeys(): Promise<KeyRow[]> {
  return service.db.prisma.$queryRaw<
    KeyRow[]
  >`SELECT id, key, namespace, "lastSeenAt", "modifiedAt", "createdAt", "deprecatedAt", "importOrder"
    FROM "TranslationKey" WHERE "projectId" = ${projectId}`;
}

describe('GET /api/v1/translation-keys pages', () => {
  it('every page of every sort and filter is the rows sorted and cut', async () => {
    const keys = await allKeys();
    // The ties the sorts meet: enough keys per value that pages split them.
    expect(new Set(keys.map((k) => k.lastSeenAt.getTime())).size).toBe(3);
    for (const [sort, order] of Object.entries(ORDERS)) {
      for (const [filter, keep] of KEY_FILTERS) {
        const expected = keys.filter(keep).sort(order);
        for (const size of [7, 100]) {
          const pages = Math.ceil(expected.length / size);
          for (let page = 0; page <= pages; page++) {
            const res = await api.get(`/api/v1/translation-keys?sort=${sort}&${filter}&size=${size}&page=${page}`);
            expect(res.status).toBe(200);
            const label = `sort=${sort} ${filter} size=${size} page=${page}`;
            expect(res.data.content.map(shown), label).toEqual(
              expected.slice(page * size, (page + 1) * size).map(shown),
            );
            expect(res.data.page, label).toEqual({
              number: page,
              size,
              totalElements: expected.length,
              totalPages: pages,
            });
          }
        }
      }
    }
  });

  it('read either way (counted first, or counted on from the page), every page is the rows sorted and cut', async () => {
    // The service counts pages near the start first and the others on from the page (src/db/page-ids.ts):
    // here both ways, at every position, on the statement itself.
    const keys = await allKeys();
    const prisma = service.db.prisma;
    for (const countFirstWithin of [-1, Number.MAX_SAFE_INTEGER]) {
      for (const [sort, order] of Object.entries(ORDERS)) {
        for (const [filter, keep] of KEY_FILTERS) {
          const expected = keys.filter(keep).sort(order);
          const keyFilter = Object.fromEntries(new URLSearchParams(filter));
          for (const size of [0, 7, 100]) {
            const pages = size === 0 ? 1 : Math.ceil(expected.length / size);
            for (let page = 0; page <= pages; page++) {
              const label = `countFirstWithin=${countFirstWithin} sort=${sort} ${filter} size=${size} page=${page}`;
              const rows = await prisma.$queryRaw<{ id: number | null; pageTotal: number }[]>(
                keyPageSql(projectId, keyFilter, (sort || null) as KeySort | null, page, size, countFirstWithin),
              );
              expect(rows[0]!.pageTotal, label).toBe(expected.length);
              expect(
                rows.filter((r) => r.id !== null).map((r) => r.id),
                label,
              ).toEqual(expected.slice(page * size, (page + 1) * size).map((k) => k.id));
            }
          }
        }
      }
    }
  });

  it('a page of size 0 has no rows and no pages', async () => {
    const res = await api.get('/api/v1/translation-keys?size=0&page=3&sort=last_seen_at');
    expect(res.data).toEqual({
      content: [],
      page: { number: 3, size: 0, totalElements: NAMESPACES.length * KEYS_PER_NAMESPACE, totalPages: 0 },
    });
  });

  it('a page far past the end has no rows and the count', async () => {
    // The page's position passes the 32-bit integers the count is compared with.
    const res = await api.get('/api/v1/translation-keys?size=2500&page=1000000000&sort=deprecated_at');
    expect(res.status).toBe(200);
    expect(res.data.content).toEqual([]);
    expect(res.data.page.totalElements).toBe(NAMESPACES.length * KEYS_PER_NAMESPACE);
  });

  it('the first, a middle and the last page cost the same statements, as many for every sort', async () => {
    const size = 7;
    const total = NAMESPACES.length * KEYS_PER_NAMESPACE;
    const last = Math.ceil(total / size) - 1;
    const counts = new Set<number>();
    for (const sort of Object.keys(ORDERS)) {
      const statements = async (page: number) => {
        const sql: string[] = [];
        const res = await observeSql(
          (s) => sql.push(s),
          () => api.get(`/api/v1/translation-keys?sort=${sort}&size=${size}&page=${page}`),
        );
        expect(res.status).toBe(200);
        expect(res.data.content.length).toBeGreaterThan(0);
        return sql;
      };
      const first = await statements(0);
      expect(await statements(Math.floor(last / 2)), sort).toEqual(first);
      expect(await statements(last), sort).toEqual(first);
      counts.add(first.length);
    }
    // The page and the count, in one statement.
    expect([...counts]).toEqual([1]);
  });
});

describe('the keys connection (GraphQL)', () => {
  const SORT_ENUM: Record<string, string> = {
    '': 'null',
    last_seen_at: 'LAST_SEEN_AT',
    modified_at: 'MODIFIED_AT',
    created_at: 'CREATED_AT',
    deprecated_at: 'DEPRECATED_AT',
  };
  const FILTER_INPUT: Record<string, string> = {
    '': 'null',
    'namespace=app': '{namespace: "app"}',
    'key=k.007': '{key: "k.007"}',
  };
  // A selection with a relation (screenshots) is read by the ORM; without one, by the connection's own statement,
  // which also reads the keys' cells when the selection has them.
  const READS = { own: '', orm: 'screenshots { id }', cells: 'translations { language text }' };
  async function connection(sort: string, filter: string, page: string, relation = READS.own) {
    const res = await service.request({
      method: 'POST',
      url: '/graphql',
      headers: { 'x-service-token': api.apiKey, 'content-type': 'application/json' },
      payload: {
        query: `{ translationKeys(sort: ${SORT_ENUM[sort]}, filter: ${FILTER_INPUT[filter]}, ${page}) {
          totalCount edges { cursor node { key namespace lastSeenAt modifiedAt createdAt deprecatedAt ${relation} } }
          pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`,
      },
    });
    const body = res.json();
    expect(body.errors, page).toBeUndefined();
    return body.data.translationKeys as {
      totalCount: number;
      edges: { cursor: string; node: Parameters<typeof shown>[0] }[];
      pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string; endCursor: string };
    };
  }

  it.each(Object.entries(READS))(
    'walked forwards and backwards, every sort and filter gives the rows sorted, ties and nulls included (%s read)',
    async (_read, relation) => {
      const keys = await allKeys();
      for (const [sort, order] of Object.entries(ORDERS)) {
        for (const [filter, keep] of KEY_FILTERS) {
          const expected = keys.filter(keep).sort(order).map(shown);
          const label = `sort=${sort} ${filter}`;
          const forwards: string[] = [];
          let after: string | null = null;
          for (let guard = 0; guard < 20; guard++) {
            const page = await connection(sort, filter, `first: 7${after ? `, after: "${after}"` : ''}`, relation);
            expect(page.totalCount, label).toBe(expected.length);
            forwards.push(...page.edges.map((e) => shown(e.node)));
            expect(page.pageInfo.hasNextPage, label).toBe(forwards.length < expected.length);
            if (!page.pageInfo.hasNextPage) break;
            after = page.pageInfo.endCursor;
          }
          expect(forwards, label).toEqual(expected);
          const backwards: string[] = [];
          let before: string | null = null;
          for (let guard = 0; guard < 20; guard++) {
            const page = await connection(sort, filter, `last: 7${before ? `, before: "${before}"` : ''}`, relation);
            backwards.unshift(...page.edges.map((e) => shown(e.node)));
            expect(page.pageInfo.hasPreviousPage, label).toBe(backwards.length < expected.length);
            if (!page.pageInfo.hasPreviousPage) break;
            before = page.pageInfo.startCursor;
          }
          expect(backwards, label).toEqual(expected);
        }
      }
    },
  );

  it('a cursor of a key the filter does not keep gives no keys', async () => {
    const outside = (await connection('', 'namespace=app', 'first: 10')).edges.find((e) => e.node.key !== 'k.007')!;
    for (const relation of Object.values(READS))
      for (const page of ['first: 5, after', 'last: 5, before'])
        expect((await connection('', 'key=k.007', `${page}: "${outside.cursor}"`, relation)).edges, page).toEqual([]);
  });

  it("a page of keys without relations, their cells or not, is one statement of the connection's own, from either end or a cursor", async () => {
    const middle = (await connection('modified_at', '', 'first: 30')).edges[29]!.cursor;
    const pages = ['first: 7', 'last: 7', `first: 7, after: "${middle}"`, `last: 7, before: "${middle}"`];
    for (const cells of ['', 'translations { text }'])
      for (const page of pages) {
        const sql: string[] = [];
        await observeSql(
          (s) => sql.push(s),
          // inject() dispatches when awaited: inside the observed context.
          async () =>
            await service.request({
              method: 'POST',
              url: '/graphql',
              headers: { 'x-service-token': api.apiKey, 'content-type': 'application/json' },
              payload: {
                query: `{ translationKeys(sort: MODIFIED_AT, ${page}) { edges { node { key tags ${cells} } } } }`,
              },
            }),
        );
        expect(
          sql.map((s) => /^\/\* ([\w:-]+) \*\//.exec(s)?.[1] ?? s.slice(0, 40)),
          page,
        ).toEqual([`keys:connection-${page.includes('"') ? 'rows' : 'end'}${cells ? '-extra' : ''}`]);
      }
  });
});

interface ActivityRow {
  id: bigint;
  at: Date;
  kind: string;
}

describe('GET /api/v2/activity pages', () => {
  const FILTERS: [string, (a: ActivityRow) => boolean][] = [
    ['', () => true],
    ['kind=KEYS', (a) => a.kind === 'KEYS'],
    [
      'from=2026-05-01T00:01:00Z&to=2026-05-01T00:04:00Z',
      (a) => a.at >= new Date('2026-05-01T00:01:00Z') && a.at < new Date('2026-05-01T00:04:00Z'),
    ],
  ];

  it('every page is the entries newest first (then the newest id), cut', async () => {
    const rows = await service.db.prisma.$queryRaw<
      ActivityRow[]
    >`SELECT id, at, kind FROM "Activity" WHERE "projectId" = ${projectId}`;
    expect(rows.length).toBeGreaterThanOrEqual(ACTIVITY_ROWS);
    const all = rows.sort((a, b) => b.at.getTime() - a.at.getTime() || (b.id > a.id ? 1 : b.id < a.id ? -1 : 0));
    for (const [filter, keep] of FILTERS) {
      const expected = all.filter(keep);
      for (const size of [7, 500]) {
        const pages = Math.ceil(expected.length / size);
        for (let page = 0; page <= pages; page++) {
          const res = await service.request({
            url: `/api/v2/activity?${filter}&size=${size}&page=${page}`,
            headers: { 'x-service-token': api.apiKey },
          });
          expect(res.statusCode).toBe(200);
          const label = `${filter} size=${size} page=${page}`;
          expect(
            res.json().data.map((e: { id: string }) => String(e.id)),
            label,
          ).toEqual(expected.slice(page * size, (page + 1) * size).map((a) => String(a.id)));
          expect(res.headers['x-total-count'], label).toBe(String(expected.length));
        }
      }
    }
  });

  it('a page far past the end has no entries and the count', async () => {
    const res = await service.request({
      url: '/api/v2/activity?size=500&page=100000000',
      headers: { 'x-service-token': api.apiKey },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([]);
    expect(Number(res.headers['x-total-count'])).toBeGreaterThanOrEqual(ACTIVITY_ROWS);
  });

  it('the first, a middle and the last page cost the same statements', async () => {
    const size = 7;
    const [{ n }] = await service.db.prisma.$queryRaw<
      { n: number }[]
    >`SELECT count(*)::int AS n FROM "Activity" WHERE "projectId" = ${projectId}`;
    const last = Math.ceil(n / size) - 1;
    const statements = async (page: number) => {
      const sql: string[] = [];
      const res = await observeSql(
        (s) => sql.push(s),
        () => api.get(`/api/v2/activity?size=${size}&page=${page}`),
      );
      expect(res.status).toBe(200);
      expect(res.data.length).toBeGreaterThan(0);
      return sql;
    };
    const names = async (page: number) =>
      (await statements(page)).map((sql) => /^\/\* ([^ ]+) \*\//.exec(sql)?.[1]).sort();
    // The page and the count: in one statement on PGlite; on PostgreSQL side by side (activityPageApartSql) for
    // a page in the first half, one statement walking from the oldest entry for a page in the second.
    const apart =
      service.db.kind === 'postgres' ? ['history:activity-count', 'history:activity-page'] : ['history:activity'];
    expect(await names(0)).toEqual(apart);
    expect(await names(Math.floor(last / 2))).toEqual(apart);
    expect(await names(last)).toEqual(['history:activity']);
  });
});

describe('what a deep page reads', () => {
  /** The statement's plan, run. */
  async function plan(query: Prisma.Sql): Promise<PlanNode> {
    const [{ 'QUERY PLAN': found }] = await service.db.prisma.$queryRaw<{ 'QUERY PLAN': unknown }[]>(
      Prisma.sql`EXPLAIN (ANALYZE, FORMAT JSON) ${query}`,
    );
    return ((typeof found === 'string' ? JSON.parse(found) : found) as { Plan: PlanNode }[])[0]!.Plan;
  }
  const scans = (node: PlanNode, out: PlanNode[] = []): PlanNode[] => {
    if (node['Relation Name']) out.push(node);
    for (const child of node.Plans ?? []) scans(child, out);
    return out;
  };
  /** The scans of the page, without the count's (under an Aggregate). */
  const pageScans = (node: PlanNode, out: PlanNode[] = []): PlanNode[] => {
    if (node['Node Type'] === 'Aggregate') return out;
    if (node['Relation Name']) out.push(node);
    for (const child of node.Plans ?? []) pageScans(child, out);
    return out;
  };
  const read = (nodes: PlanNode[]) =>
    nodes.reduce((n, s) => n + (s['Actual Rows'] as number) * (s['Actual Loops'] as number), 0);
  /** The index entries the page's walk read. */
  const walked = (node: PlanNode): number => read(pageScans(node).filter((s) => s['Node Type'] === 'Index Only Scan'));
  /** The index entries the whole statement read: the page's walk and the counts. */
  const indexEntries = (node: PlanNode): number =>
    read(scans(node).filter((s) => s['Node Type'] === 'Index Only Scan'));
  /** The count reads an index alone. */
  const countedFromIndex = (node: PlanNode): boolean =>
    node['Node Type'] === 'Aggregate'
      ? scans(node).every((s) => s['Node Type'] === 'Index Only Scan')
      : (node.Plans ?? []).some(countedFromIndex);

  it('a page walks the ids along an index alone and reads only its own rows; counted on from the page, every entry once', async () => {
    const prisma = service.db.prisma;
    // 3,000 more keys and entries (once), so that the planner prefers the indexes.
    await prisma.$executeRaw`INSERT INTO "TranslationKey" ("projectId", key, namespace, "lastSeenAt", "modifiedAt")
      SELECT ${projectId}, 'bulk.' || lpad(n::text, 5, '0'), 'zz', timestamp '2026-01-01' + (n / 4) * interval '1 second',
             timestamp '2026-01-01' + ((n * 7) % 3000) * interval '1 second' FROM generate_series(1, 3000) n`;
    await prisma.$executeRaw`INSERT INTO "Activity" ("projectId", kind, "actorKind", source, at)
      SELECT ${projectId}, 'KEYS', 'SYSTEM', 'SYSTEM', timestamp '2026-06-01' + (n / 3) * interval '1 second' FROM generate_series(1, 3000) n`;
    await prisma.$executeRaw`VACUUM ANALYZE "TranslationKey"`;
    await prisma.$executeRaw`VACUUM ANALYZE "Activity"`;
    const size = 100;
    const pages = (total: number) => [0, Math.floor(total / size / 2), Math.ceil(total / size) - 1];
    const keys = await prisma.translationKey.count({ where: { projectId } });
    for (const sort of [null, 'last_seen_at', 'modified_at', 'created_at', 'deprecated_at'] as (KeySort | null)[]) {
      for (const page of pages(keys)) {
        const label = `sort=${sort} page=${page}`;
        const rows = Math.min(size, keys - page * size);
        // Counted first: the walk from the nearer end passes at most half of the keys.
        const first = await plan(keyPageSql(projectId, {}, sort, page, size, Number.MAX_SAFE_INTEGER));
        expect(first['Actual Rows'], label).toBe(rows);
        expect(walked(first), label).toBeLessThanOrEqual(Math.min(page * size, keys - page * size - rows) + rows);
        expect(countedFromIndex(first), label).toBe(true);
        // Counted on from the page: the walk and the counts read each key's index entry once.
        const root = await plan(keyPageSql(projectId, {}, sort, page, size, -1));
        expect(root['Actual Rows'], label).toBe(rows);
        expect(indexEntries(root), label).toBe(keys);
        expect(countedFromIndex(root), label).toBe(true);
        // The connection's page from the key before it, either way: its own entries along the index, per range.
        const [cursor] = await prisma.$queryRaw<{ id: number }[]>(
          Prisma.sql`SELECT id FROM (${keyPageSql(projectId, {}, sort, page, size)}) p WHERE id IS NOT NULL LIMIT 1`,
        );
        for (const take of [size + 1, -(size + 1)]) {
          const seek = await plan(keyConnectionSql(projectId, {}, sort, { cursorId: cursor!.id, take, skip: 1 }));
          expect(seek['Actual Rows'], `${label} take=${take}`).toBeLessThanOrEqual(size + 1);
          expect(indexEntries(seek), `${label} take=${take}`).toBeLessThanOrEqual(4 * (size + 2));
          expect(
            scans(seek).filter((s) => s['Node Type'] === 'Seq Scan'),
            `${label} take=${take}`,
          ).toEqual([]);
        }
        const own = pageScans(root).filter((s) => s['Relation Name'] === 'TranslationKey');
        expect(read(own.filter((s) => s['Node Type'] !== 'Index Only Scan')), label).toBeLessThanOrEqual(size);
        expect(
          own.find((s) => s['Node Type'] === 'Index Only Scan'),
          label,
        ).toMatchObject({ 'Node Type': 'Index Only Scan' });
      }
    }
    const [{ entries }] = await prisma.$queryRaw<
      { entries: number }[]
    >`SELECT count(*)::int AS entries FROM "Activity" WHERE "projectId" = ${projectId}`;
    for (const page of pages(entries)) {
      const root = await plan(activityPageSql(projectId, {}, page, size));
      const rows = Math.min(size, entries - page * size);
      expect(root['Actual Rows'], `page=${page}`).toBe(rows);
      expect(walked(root), `page=${page}`).toBeLessThanOrEqual(
        Math.min(page * size, entries - page * size - rows) + rows,
      );
      // The ids along the index alone; the page's own entries from the table. (The count may scan the table
      // here, where the project is all of it and small: the planner's choice; at 200,000 it reads an index.)
      const tables = pageScans(root).filter((s) => s['Relation Name'] === 'Activity');
      expect(
        tables.find((s) => s['Node Type'] === 'Index Only Scan'),
        `page=${page}`,
      ).toBeDefined();
      expect(read(tables.filter((s) => s['Node Type'] !== 'Index Only Scan')), `page=${page}`).toBeLessThanOrEqual(
        size,
      );
      // Apart (PostgreSQL): the page walks from the start along the index and reads its own rows; the count is
      // the other statement's.
      const apart = activityPageApartSql(projectId, {}, page, size);
      const walk = await plan(apart.page);
      expect(walk['Actual Rows'], `apart page=${page}`).toBe(rows);
      expect(walked(walk), `apart page=${page}`).toBeLessThanOrEqual(page * size + rows);
      const own = scans(walk).filter((s) => s['Node Type'] !== 'Index Only Scan');
      expect(read(own.filter((s) => s['Relation Name'] === 'Activity')), `apart page=${page}`).toBeLessThanOrEqual(
        size,
      );
      const [{ total }] = await prisma.$queryRaw<{ total: number }[]>(apart.count);
      expect(total).toBe(entries);
    }
  });

  it('a page of the activity log past its first 10,000 entries: on the embedded database counted on from the page, every entry once; on PostgreSQL counted first from the nearer end', async () => {
    const prisma = service.db.prisma;
    await prisma.$executeRaw`INSERT INTO "Activity" ("projectId", kind, "actorKind", source, at)
      SELECT ${projectId}, 'KEYS', 'SYSTEM', 'SYSTEM', timestamp '2027-01-01' + (n / 3) * interval '1 second' FROM generate_series(1, 24000) n`;
    await prisma.$executeRaw`VACUUM ANALYZE "Activity"`;
    const [{ entries }] = await prisma.$queryRaw<
      { entries: number }[]
    >`SELECT count(*)::int AS entries FROM "Activity" WHERE "projectId" = ${projectId}`;
    const size = 100;
    const last = Math.ceil(entries / size) - 1;
    for (const page of [101, Math.floor(last / 2), last]) {
      const label = `page=${page} of ${entries}`;
      const rows = Math.min(size, entries - page * size);
      const expected = await prisma.$queryRaw<
        { id: bigint }[]
      >`SELECT id FROM "Activity" WHERE "projectId" = ${projectId}
        ORDER BY at DESC, id DESC OFFSET ${page * size} LIMIT ${size}`;
      const found = await prisma.$queryRaw<{ id: bigint | null; pageTotal: number }[]>(
        activityPageSql(projectId, {}, page, size),
      );
      expect(
        found.map((r) => String(r.id)),
        label,
      ).toEqual(expected.map((r) => String(r.id)));
      expect(found[0]!.pageTotal, label).toBe(entries);
      const root = await plan(activityPageSql(projectId, {}, page, size));
      expect(root['Actual Rows'], label).toBe(rows);
      if (service.db.kind === 'postgres')
        expect(walked(root), label).toBeLessThanOrEqual(Math.min(page * size, entries - page * size - rows) + rows);
      else {
        expect(indexEntries(root), label).toBe(entries);
        expect(countedFromIndex(root), label).toBe(true);
      }
    }
  });
});
