// Paged lists other than the cells (part of `pages`, on the project pages.ts
// grew): GET /api/v1/translation-keys?size=100 in the default (import) order,
// sort=last_seen_at and sort=modified_at, and GET /api/v2/activity?size=100,
// each at the first, middle and deepest page, one request at a time (median
// of repeated requests), against baselines timed in the same run:
//
// - hand-written SQL: what the database must do at least for the page, given
//   the page's first row (found untimed by the same OFFSET, as a reader that
//   remembers where the pages start would have it): a keyset seek along the
//   sort's index, `(sortcol, id) >= (first row's)` in the page's order, LIMIT
//   size, reading the page's rows and the columns the response carries (the
//   key's own columns; the activity entry's with its account or rule name),
//   and the count the response carries (index-only where an index covers
//   the filter). A seek, not an OFFSET, because an OFFSET walks every row
//   before the page: that is the cost the issue asks us to remove, not the
//   database's limit.
// - GraphQL: for keys, the connection `translationKeys(sort, first: 100,
//   after: the cursor of the row before the page) { totalCount edges { … } }`
//   with the fields the REST page returns. The activity log has no GraphQL
//   read other than the `activity(page, size)` query the REST route is
//   (rest-compat/routes/activity.ts), so its rows are held to the SQL only.
//
// BENCH_PAGE_ACTIVITY activity entries (default 200,000) are written in SQL
// first, three to an instant so that the id breaks ties.
import { formatPrismaCursor } from '@pothos/plugin-prisma';
import type { BenchService } from '../lib/service.js';
import { Prisma } from '../../src/generated/prisma/client.js';
import { projectIdOf } from '../lib/project-id.js';
import type { Figure } from '../lib/types.js';
import { median } from './pages.js';

const ACTIVITY = Number(process.env.BENCH_PAGE_ACTIVITY ?? 200_000);
const SIZE = 100;

/** The key sorts measured: the REST value, the GraphQL enum, the column, and the order as SQL. */
const KEY_SORTS = [
  { rest: '', graphql: null, column: 'importOrder', direction: 'ASC' },
  { rest: 'last_seen_at', graphql: 'LAST_SEEN_AT', column: 'lastSeenAt', direction: 'DESC' },
  { rest: 'modified_at', graphql: 'MODIFIED_AT', column: 'modifiedAt', direction: 'DESC' },
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
  const [{ entries: had }] = await prisma.$queryRaw<{ entries: number }[]>(
    Prisma.sql`/* bench:activity-count */ SELECT count(*)::int AS entries FROM "Activity" WHERE "projectId" = ${projectId}`,
  );
  if (ACTIVITY > had)
    await prisma.$executeRaw(Prisma.sql`/* bench:seed-activity */ INSERT INTO "Activity" ("projectId", kind, "actorKind", source, at, cells, details)
      SELECT ${projectId}, 'TRANSLATIONS', 'SYSTEM', 'SYSTEM', timestamp '2026-01-01' + (n / 3) * interval '1 second', 1 + n % 7, '{}'::jsonb
        FROM generate_series(1, ${ACTIVITY - had}::int) n`);
  await prisma.$executeRaw(Prisma.sql`VACUUM ANALYZE "Activity"`);
  await prisma.$executeRaw(Prisma.sql`VACUUM ANALYZE "TranslationKey"`);
  const [{ keys }] = await prisma.$queryRaw<{ keys: number }[]>(
    Prisma.sql`/* bench:key-count */ SELECT count(*)::int AS keys FROM "TranslationKey" WHERE "projectId" = ${projectId}`,
  );
  const [{ entries }] = await prisma.$queryRaw<{ entries: number }[]>(
    Prisma.sql`/* bench:activity-count */ SELECT count(*)::int AS entries FROM "Activity" WHERE "projectId" = ${projectId}`,
  );
  const headers = { 'x-service-token': apiKey };
  const get = (url: string) => async () => {
    const res = await fetch(`${bench.url}${url}`, { headers });
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  };
  const graphql = (query: string, variables: Record<string, unknown>) => async () => {
    const res = await fetch(`${bench.url}/graphql`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as { errors?: unknown[] };
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

  const cases: {
    scenario: string;
    rest: () => Promise<unknown>;
    sql: () => Promise<unknown>;
    gql?: () => Promise<unknown>;
  }[] = [];
  for (const sort of KEY_SORTS) {
    const column = Prisma.raw(`"${sort.column}"`);
    const direction = Prisma.raw(sort.direction);
    const order = Prisma.sql`${column} ${direction}, id ASC`;
    for (const [name, page] of positions(keys)) {
      // The page's first row and the row before it (untimed), by the order the service pages in.
      const around = await prisma.$queryRaw<{ id: number; value: unknown }[]>(Prisma.sql`/* bench:key-page-start */
        SELECT id, ${column} AS value FROM "TranslationKey" WHERE "projectId" = ${projectId} ORDER BY ${order} OFFSET ${Math.max(page * SIZE - 1, 0)} LIMIT 2`);
      const first = page === 0 ? around[0]! : around[1]!;
      // (sortcol, id) in the page's order: the row tuple compares both columns one way, so a descending sort
      // with the id ascending is split in two.
      const after =
        sort.direction === 'ASC'
          ? Prisma.sql`(${column}, id) >= (${first.value}, ${first.id})`
          : Prisma.sql`(${column} < ${first.value}::timestamp OR (${column} = ${first.value}::timestamp AND id >= ${first.id}))`;
      const sql = () =>
        Promise.all([
          prisma.$queryRaw(Prisma.sql`/* bench:key-page-seek */
            SELECT ${KEY_COLUMNS} FROM "TranslationKey" WHERE "projectId" = ${projectId} AND ${after} ORDER BY ${order} LIMIT ${SIZE}`),
          prisma.$queryRaw(
            Prisma.sql`/* bench:key-page-count */ SELECT count(*)::int FROM "TranslationKey" WHERE "projectId" = ${projectId}`,
          ),
        ]);
      const variables = {
        sort: sort.graphql,
        after: page === 0 ? null : formatPrismaCursor({ id: around[0]!.id }, 'id'),
      };
      cases.push({
        scenario: `GET /api/v1/translation-keys?size=${SIZE}${sort.rest ? `&sort=${sort.rest}` : ''}, ${name} (${keys.toLocaleString('en')} keys)`,
        rest: get(`/api/v1/translation-keys?size=${SIZE}&page=${page}${sort.rest ? `&sort=${sort.rest}` : ''}`),
        sql,
        gql: graphql(
          `query ($sort: TranslationKeySort, $after: String) { translationKeys(sort: $sort, first: ${SIZE}, after: $after) { totalCount edges { node { ${KEY_FIELDS} } } } }`,
          variables,
        ),
      });
    }
  }
  for (const [name, page] of positions(entries)) {
    const [first] = await prisma.$queryRaw<{ id: bigint; at: Date }[]>(Prisma.sql`/* bench:activity-page-start */
      SELECT id, at FROM "Activity" WHERE "projectId" = ${projectId} ORDER BY at DESC, id DESC OFFSET ${page * SIZE} LIMIT 1`);
    const sql = () =>
      Promise.all([
        prisma.$queryRaw(Prisma.sql`/* bench:activity-page-seek */
          SELECT a.id, a."projectId", a.kind, a."actorKind", a."actorId", coalesce(nullif(acc.name, ''), acc.email, ar.name) AS "actorName", acc.email AS "actorEmail", a.source, a.at, a.cells, a.edits, a.details, a."revertOf"
            FROM "Activity" a
            LEFT JOIN "Account" acc ON a."actorKind" = 'ACCOUNT' AND acc.id::text = a."actorId"
            LEFT JOIN "AutomationRule" ar ON a."actorKind" = 'AUTOMATION' AND ar.id::text = a."actorId"
           WHERE a."projectId" = ${projectId} AND (a.at, a.id) <= (${first!.at}::timestamp, ${first!.id}::bigint)
           ORDER BY a.at DESC, a.id DESC LIMIT ${SIZE}`),
        prisma.$queryRaw(
          Prisma.sql`/* bench:activity-page-count */ SELECT count(*)::int FROM "Activity" WHERE "projectId" = ${projectId}`,
        ),
      ]);
    cases.push({
      scenario: `GET /api/v2/activity?size=${SIZE}, ${name} (${entries.toLocaleString('en')} entries)`,
      rest: get(`/api/v2/activity?size=${SIZE}&page=${page}`),
      sql,
    });
  }

  const figures: Figure[] = [];
  for (const c of cases) {
    const baseline = await median(c.sql);
    const value = await median(c.rest);
    const gql = c.gql ? await median(c.gql) : undefined;
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
