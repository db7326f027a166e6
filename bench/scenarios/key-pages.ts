// Paged lists other than the cells (part of `pages`, on the project pages.ts
// grew; alone: npm run bench -- --only key-pages): GET /api/v1/translation-keys?size=100
// in every order (import order, last_seen_at, modified_at, created_at,
// deprecated_at) and GET /api/v2/activity?size=100, each at the first, middle
// and deepest page, one request at a time (median of repeated requests, timed in turns with the baselines),
// against baselines timed in the same run:
//
// - hand-written SQL: what the database must do at least for the page, given
//   the page's first row (found untimed by the same OFFSET, as a reader that
//   remembers where the pages start would have it): a seek along the sort's
//   index to that row, LIMIT size, reading the page's rows and the columns
//   the response carries (the key's own columns; the activity entry's with
//   its account or rule name), and beside it (a second connection, as the
//   service does) the count the response carries. Each form was chosen from
//   its plan (EXPLAIN (ANALYZE, BUFFERS), 200,000 keys, in docs/benchmarks.md):
//   * ascending (import order) and the activity log (at, id both descending,
//     the index read backwards): a row-value comparison, `(col, id) >= (v, w)`,
//     an index condition that starts the scan at the row;
//   * descending with the id ascending (the other key sorts): a row value
//     cannot compare two columns in opposite directions, and
//     `col < v OR (col = v AND id >= w)` is no index condition (the scan
//     walks and filters every row before the page: 100 ms at the middle page),
//     nor is `col <= v` plus a filter on the id (it walks the rows tied with
//     v: here most keys share one instant). So the page is the ordered merge of
//     branches that are each an index range in order, each cut at the page's
//     size: `col = v AND id >= w`, `col < v`, and for deprecated_at (NULLS
//     LAST) `col IS NULL`; the merge stops at the page's size (Merge Append,
//     about 1 ms wherever the page is);
//   * the count: index-only, in the cheaper of two forms measured here, the
//     planner's own (a parallel index-only scan on PostgreSQL: 3–7× slower
//     than one process on this shared 2-core machine) and one kept in one
//     process by an `OFFSET 0` subquery (Prisma's count has that form).
//   The seek's rows are checked (untimed) against the page's rows by OFFSET.
//   A seek, not an OFFSET, because an OFFSET walks every row before the page:
//   that is the cost the issue asks us to remove, not the database's limit.
// - GraphQL: for keys, the connection `translationKeys(sort, first: 100,
//   after: the cursor of the row before the page) { totalCount edges { … } }`
//   with the fields the REST page returns. The activity log has no GraphQL
//   read other than the `activity(page, size)` query the REST route is
//   (rest-compat/routes/activity.ts), so its rows are held to the SQL only.
//
// BENCH_PAGE_ACTIVITY activity entries (default 200,000) are written in SQL
// first, three to an instant so that the id breaks ties; every tenth key is
// deprecated at one of 997 instants (so deprecated_at has ties and nulls).
// Run alone, the project is grown to BENCH_PAGE_KEYS keys first as pages.ts does.
import { formatPrismaCursor } from '@pothos/plugin-prisma';
import type { BenchService } from '../lib/service.js';
import { Prisma } from '../../src/generated/prisma/client.js';
import { projectIdOf } from '../lib/project-id.js';
import { seedKeys } from '../lib/seed.js';
import type { Figure } from '../lib/types.js';
import { json, request } from '../lib/http-client.js';
import { medians } from './pages.js';

const ACTIVITY = Number(process.env.BENCH_PAGE_ACTIVITY ?? 200_000);
const GROW_TO = Number(process.env.BENCH_PAGE_KEYS ?? 0);
const SIZE = 100;

/** The key sorts measured: the REST value, the GraphQL enum, the column, its order, and whether it has nulls (last). */
const KEY_SORTS = [
  { rest: '', graphql: null, column: 'importOrder', desc: false, nullable: false },
  { rest: 'last_seen_at', graphql: 'LAST_SEEN_AT', column: 'lastSeenAt', desc: true, nullable: false },
  { rest: 'modified_at', graphql: 'MODIFIED_AT', column: 'modifiedAt', desc: true, nullable: false },
  { rest: 'created_at', graphql: 'CREATED_AT', column: 'createdAt', desc: true, nullable: false },
  { rest: 'deprecated_at', graphql: 'DEPRECATED_AT', column: 'deprecatedAt', desc: true, nullable: true },
] as const;

const KEY_COLUMNS = Prisma.sql`id, key, namespace, description, "codeDescription", tags, "charactersLimit", lock, deprecated, "lastSeenAt", "modifiedAt", "createdAt", "deprecatedAt"`;
const KEY_FIELDS =
  'key namespace description codeDescription tags charactersLimit lock deprecated lastSeenAt modifiedAt createdAt deprecatedAt';

export async function keyPageScenarios(
  bench: BenchService,
  db: Figure['db'],
  apiKey: string,
  projectToken: string,
): Promise<Figure[]> {
  const prisma = bench.service.db.prisma;
  const projectId = await projectIdOf(prisma, projectToken);
  const countKeys = async () =>
    (
      await prisma.$queryRaw<{ keys: number }[]>(
        Prisma.sql`/* bench:key-count */ SELECT count(*)::int AS keys FROM "TranslationKey" WHERE "projectId" = ${projectId}`,
      )
    )[0]!.keys;
  const grown = await countKeys();
  if (GROW_TO > grown) await seedKeys(prisma, projectId, grown + 1, GROW_TO);
  await prisma.$executeRaw(Prisma.sql`/* bench:deprecate-keys */ UPDATE "TranslationKey"
     SET deprecated = true, "deprecatedAt" = timestamp '2026-01-01' + (id % 997) * interval '1 minute'
   WHERE "projectId" = ${projectId} AND id % 10 = 0 AND "deprecatedAt" IS NULL`);
  const [{ entries: had }] = await prisma.$queryRaw<{ entries: number }[]>(
    Prisma.sql`/* bench:activity-count */ SELECT count(*)::int AS entries FROM "Activity" WHERE "projectId" = ${projectId}`,
  );
  if (ACTIVITY > had)
    await prisma.$executeRaw(Prisma.sql`/* bench:seed-activity */ INSERT INTO "Activity" ("projectId", kind, "actorKind", source, at, cells, details)
      SELECT ${projectId}, 'TRANSLATIONS', 'SYSTEM', 'SYSTEM', timestamp '2026-01-01' + (n / 3) * interval '1 second', 1 + n % 7, '{}'::jsonb
        FROM generate_series(1, ${ACTIVITY - had}::int) n`);
  await prisma.$executeRaw(Prisma.sql`VACUUM ANALYZE "Activity"`);
  await prisma.$executeRaw(Prisma.sql`VACUUM ANALYZE "TranslationKey"`);
  const keys = await countKeys();
  const [{ entries }] = await prisma.$queryRaw<{ entries: number }[]>(
    Prisma.sql`/* bench:activity-count */ SELECT count(*)::int AS entries FROM "Activity" WHERE "projectId" = ${projectId}`,
  );
  const headers = { 'x-service-token': apiKey };
  const get = (url: string) => async () => {
    const res = await request(`${bench.url}${url}`, { headers });
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${res.body.toString()}`);
  };
  const graphql = (query: string, variables: Record<string, unknown>) => async () => {
    const res = await request(`${bench.url}/graphql`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const body = json<{ errors?: unknown[] }>(res);
    if (res.status !== 200 || body.errors) throw new Error(`graphql ${res.status} ${JSON.stringify(body.errors)}`);
  };
  const positions = (n: number) => {
    const deepest = Math.max(Math.ceil(n / SIZE) - 1, 0);
    return [
      ['first page', 0],
      ['middle page', Math.floor(deepest / 2)],
      ['deepest page', deepest],
    ] as const;
  };
  /** The count in both forms (see the top): the planner's, and one kept in one process. */
  const counts = (table: string) => {
    const from = Prisma.raw(`"${table}"`);
    return [
      () =>
        prisma.$queryRaw(
          Prisma.sql`/* bench:page-count */ SELECT count(*)::int FROM ${from} WHERE "projectId" = ${projectId}`,
        ),
      () =>
        prisma.$queryRaw(
          Prisma.sql`/* bench:page-count-serial */ SELECT count(*)::int FROM (SELECT 1 FROM ${from} WHERE "projectId" = ${projectId} OFFSET 0) s`,
        ),
    ];
  };
  /** The seek's rows must be the page's (by OFFSET, untimed): else the baseline reads other rows. */
  const check = async (label: string, seek: () => Promise<{ id: unknown }[]>, ids: unknown[]) => {
    const got = (await seek()).map((r) => String(r.id));
    if (got.join() !== ids.map(String).join()) throw new Error(`${label}: the seek read other rows than the page`);
  };

  const cases: {
    scenario: string;
    rest: () => Promise<unknown>;
    sql: (() => Promise<unknown>)[];
    gql?: () => Promise<unknown>;
  }[] = [];
  for (const sort of KEY_SORTS) {
    const column = Prisma.raw(`"${sort.column}"`);
    const nulls = sort.nullable ? Prisma.raw(' NULLS LAST') : Prisma.empty;
    const order = sort.desc ? Prisma.sql`${column} DESC${nulls}, id ASC` : Prisma.sql`${column} ASC, id ASC`;
    const project = Prisma.sql`"projectId" = ${projectId}`;
    for (const [name, page] of positions(keys)) {
      // The row before the page and the page's ids (untimed), by the order the service pages in.
      const rows = await prisma.$queryRaw<
        { id: number; value: Date | bigint | null }[]
      >(Prisma.sql`/* bench:key-page-start */
        SELECT id, ${column} AS value FROM "TranslationKey" WHERE ${project} ORDER BY ${order} OFFSET ${Math.max(page * SIZE - 1, 0)} LIMIT ${page === 0 ? SIZE : SIZE + 1}`);
      const pageRows = page === 0 ? rows : rows.slice(1);
      const first = pageRows[0]!;
      const value =
        typeof first.value === 'bigint' ? Prisma.sql`${first.value}::bigint` : Prisma.sql`${first.value}::timestamp`;
      const branch = (where: Prisma.Sql, by: Prisma.Sql) =>
        Prisma.sql`(SELECT ${KEY_COLUMNS} FROM "TranslationKey" WHERE ${project} AND ${where} ORDER BY ${by} LIMIT ${SIZE})`;
      const seekSql = !sort.desc
        ? Prisma.sql`SELECT ${KEY_COLUMNS} FROM "TranslationKey" WHERE ${project} AND (${column}, id) >= (${value}, ${first.id}) ORDER BY ${order} LIMIT ${SIZE}`
        : first.value === null
          ? Prisma.sql`SELECT ${KEY_COLUMNS} FROM "TranslationKey" WHERE ${project} AND ${column} IS NULL AND id >= ${first.id} ORDER BY id LIMIT ${SIZE}`
          : Prisma.sql`${Prisma.join(
              [
                branch(Prisma.sql`${column} = ${value} AND id >= ${first.id}`, Prisma.sql`id`),
                branch(Prisma.sql`${column} < ${value}`, order),
                ...(sort.nullable ? [branch(Prisma.sql`${column} IS NULL`, Prisma.sql`id`)] : []),
              ],
              ' UNION ALL ',
            )} ORDER BY ${order} LIMIT ${SIZE}`;
      const seek = () => prisma.$queryRaw<{ id: number }[]>(Prisma.sql`/* bench:key-page-seek */ ${seekSql}`);
      const label = `keys ${sort.rest || 'import'} ${name}`;
      await check(
        label,
        seek,
        pageRows.map((r) => r.id),
      );
      const variables = {
        sort: sort.graphql,
        after: page === 0 ? null : formatPrismaCursor({ id: rows[0]!.id }, 'id'),
      };
      cases.push({
        scenario: `GET /api/v1/translation-keys?size=${SIZE}${sort.rest ? `&sort=${sort.rest}` : ''}, ${name} (${keys.toLocaleString('en')} keys)`,
        rest: get(`/api/v1/translation-keys?size=${SIZE}&page=${page}${sort.rest ? `&sort=${sort.rest}` : ''}`),
        sql: counts('TranslationKey').map((count) => () => Promise.all([seek(), count()])),
        gql: graphql(
          `query ($sort: TranslationKeySort, $after: String) { translationKeys(sort: $sort, first: ${SIZE}, after: $after) { totalCount edges { node { ${KEY_FIELDS} } } } }`,
          variables,
        ),
      });
    }
  }
  for (const [name, page] of positions(entries)) {
    const pageRows = await prisma.$queryRaw<{ id: bigint; at: Date }[]>(Prisma.sql`/* bench:activity-page-start */
      SELECT id, at FROM "Activity" WHERE "projectId" = ${projectId} ORDER BY at DESC, id DESC OFFSET ${page * SIZE} LIMIT ${SIZE}`);
    const first = pageRows[0]!;
    const seek = () =>
      prisma.$queryRaw<{ id: bigint }[]>(Prisma.sql`/* bench:activity-page-seek */
          SELECT a.id, a."projectId", a.kind, a."actorKind", a."actorId", coalesce(nullif(acc.name, ''), acc.email, ar.name) AS "actorName", acc.email AS "actorEmail", a.source, a.at, a.cells, a.edits, a.details, a."revertOf"
            FROM "Activity" a
            LEFT JOIN "Account" acc ON a."actorKind" = 'ACCOUNT' AND acc.id::text = a."actorId"
            LEFT JOIN "AutomationRule" ar ON a."actorKind" = 'AUTOMATION' AND ar.id::text = a."actorId"
           WHERE a."projectId" = ${projectId} AND (a.at, a.id) <= (${first.at}::timestamp, ${first.id}::bigint)
           ORDER BY a.at DESC, a.id DESC LIMIT ${SIZE}`);
    await check(
      `activity ${name}`,
      seek,
      pageRows.map((r) => r.id),
    );
    cases.push({
      scenario: `GET /api/v2/activity?size=${SIZE}, ${name} (${entries.toLocaleString('en')} entries)`,
      rest: get(`/api/v2/activity?size=${SIZE}&page=${page}`),
      sql: counts('Activity').map((count) => () => Promise.all([seek(), count()])),
    });
  }

  const figures: Figure[] = [];
  for (const c of cases) {
    // Timed in turns; the baseline is the cheaper of the count's two forms (see the top).
    const [value, ...others] = await medians([c.rest, ...c.sql, ...(c.gql ? [c.gql] : [])]);
    const gql = c.gql ? others.pop() : undefined;
    const baseline = Math.min(...others);
    const ratio = value / baseline;
    figures.push({
      scenario: c.scenario,
      db,
      metric: 'median latency',
      value,
      unit: 'ms',
      baseline,
      ratio,
      target: gql === undefined ? '≤ 1.5 × hand-written SQL' : '≤ 1.5 × hand-written SQL and ≤ 2 × GraphQL',
      met: ratio <= 1.5 && (gql === undefined || value <= 2 * gql),
      note:
        gql === undefined
          ? 'no GraphQL read besides the one the route is'
          : `GraphQL connection, same rows and fields ${gql.toFixed(1)} ms`,
    });
  }
  return figures;
}
