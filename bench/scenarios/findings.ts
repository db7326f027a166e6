// What the stored quality-check findings cost (docs/quality-checks.md):
//  - the write path: 10,000 keys × 10 languages imported by the import's
//    domain function (bench/lib/import-direct.ts) with the write gate queuing
//    every key for the checks, against the same import with a gate that
//    queues nothing (its `findingsQueue` part left out); alternated, median of
//    three each. Target: at most 15 % slower. Each measured import starts from
//    a settled service (settle below): the findings drained, the memory's
//    terms current, the database's upkeep done. Without that, the previous
//    import's background work lands on the next one, and in this order that is
//    always the "on" import after an "off" one: on PGlite a checkpoint or
//    vacuum pass of 5–14 s shares the single thread with the measured import
//    (seen 2026-11-30), on PostgreSQL the memory's term catch-up (×1.34 awake
//    against ×1.07 asleep, 2026-11-30).
//  - the time until every finding of such an import is stored (the updater
//    drains the queue in its worker threads after, or while, the import runs).
//  - the editor's "errors" filter and the per-check counts at 2,000,000
//    translations (filterScenario): findings made set-based in SQL, p95 of the
//    filter's first page through GraphQL. Target: p95 under 100 ms.
import os from 'node:os';
import type { BenchService } from '../lib/service.js';
import { projectIdOf } from '../lib/project-id.js';
import { LANGUAGES, multiLanguageJson } from '../lib/data.js';
import { percentile, timed } from '../lib/report.js';
import type { Figure } from '../lib/types.js';
import { ALL_PARTS, type GateParts } from '../../src/content/translations/gate.js';
import { importDirect } from '../lib/import-direct.js';
import { updaterStats } from '../../src/findings/updater.js';
import { findingsDrained as drained, settle } from '../lib/settle.js';
import { Prisma } from '../../src/generated/prisma/client.js';
import { database, prisma } from '../../src/db.js';
import { SYSTEM, withOrigin } from '../../src/content/origin.js';
import { announceChanges } from '../../src/history/notify.js';

const KEYS = 10_000;
const RUNS = Number(process.env.FINDINGS_BENCH_RUNS ?? 3);
const progress = (line: string) => {
  if (process.env.FINDINGS_BENCH_PROGRESS) process.stderr.write(`${line}\n`);
};

const runs = (values: number[]) => values.map(Math.round).join('/');
/** The machine's load average (1, 5, 15 min): the figures are read beside it. */
const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

export async function findingsScenario(bench: BenchService, db: Figure['db']): Promise<Figure[]> {
  // Every tenth text loses its placeholder: findings to store, as a real project has.
  const file = Buffer.from(
    multiLanguageJson(KEYS)
      .toString()
      .replace(/((?:de|fr|es|it|pt|nl|pl|sv|ja) text \d*0 v1 with )\{name\}/g, '$1name'),
  );
  const rows = KEYS * LANGUAGES.length;
  // As the import route runs it: in a piece of work whose end (its transaction committed) wakes the updater.
  const into = async (name: string, gateParts?: GateParts) => {
    const { projectToken } = await bench.project(name);
    await withOrigin(SYSTEM, () => importDirect(bench, projectToken, file, { gateParts }), announceChanges);
  };
  const t = performance.now();
  await into('findings-warmup');
  progress(`warm-up import ${Math.round(performance.now() - t)} ms`);
  await drained();
  progress(`warm-up drained ${Math.round(performance.now() - t)} ms; updater ${JSON.stringify(updaterStats())}`);
  const on: number[] = [];
  const off: number[] = [];
  const settled: number[] = [];
  // The main thread's CPU time during each import: on PGlite the database runs there too, so this is
  // the import's work and whatever shares the thread with it, read apart from the machine's load.
  const offCpu: number[] = [];
  const onCpu: number[] = [];
  // Node 24 has threadCpuUsage (the bench runs on it); this @types/node does not declare it yet.
  const thread = process as NodeJS.Process & { threadCpuUsage(previous?: NodeJS.CpuUsage): NodeJS.CpuUsage };
  // On PGlite each measured import ends with a checkpoint of what it wrote: the service's own checkpoint
  // pass (every 10 s, from 64 MiB of WAL) otherwise falls inside an import or after it by the timer's
  // phase, 2–3 s of the single thread that one import of a pair pays and the other does not.
  const ownCheckpoint = db === 'pglite' ? () => database().exec('CHECKPOINT') : async () => {};
  const cpuOf = async (times: number[], cpu: number[], fn: () => Promise<void>) => {
    const before = thread.threadCpuUsage();
    times.push(
      (
        await timed(async () => {
          await fn();
          await ownCheckpoint();
        })
      ).ms,
    );
    const used = thread.threadCpuUsage(before);
    cpu.push((used.user + used.system) / 1000);
  };
  for (let i = 0; i < RUNS; i++) {
    await settle(db);
    await cpuOf(off, offCpu, () => into(`findings-off-${i}`, { ...ALL_PARTS, findingsQueue: false }));
    await settle(db);
    const started = performance.now();
    await cpuOf(on, onCpu, () => into(`findings-on-${i}`));
    await drained();
    settled.push(performance.now() - started);
    progress(
      `run ${i}: off ${Math.round(off[i]!)} ms (CPU ${Math.round(offCpu[i]!)}), on ${Math.round(on[i]!)} ms (CPU ${Math.round(onCpu[i]!)}), settled ${Math.round(settled[i]!)} ms; load ${loadavg()}; updater ${JSON.stringify(updaterStats())}`,
    );
  }
  const [{ n: stored }] = await prisma().$queryRaw<{ n: number }[]>(
    Prisma.sql`/* bench:findings-count */ SELECT count(*)::int AS n FROM "Finding"`,
  );
  const value = percentile(on, 50);
  const baseline = percentile(off, 50);
  return [
    {
      scenario: 'import 10k×10 with the findings queue',
      db,
      metric: 'time',
      value,
      unit: 'ms',
      baseline,
      ratio: value / baseline,
      target: 'ratio ≤ 1.15 (baseline: the same import, no cell queued)',
      met: value / baseline <= 1.15,
      note: `${KEYS} keys (${rows} cells) queued per run; runs on ${runs(on)} ms, off ${runs(off)} ms; load ${loadavg()}`,
    },
    {
      scenario: 'import 10k×10 with the findings queue',
      db,
      metric: 'main-thread CPU',
      value: percentile(onCpu, 50),
      unit: 'ms',
      baseline: percentile(offCpu, 50),
      ratio: percentile(onCpu, 50) / percentile(offCpu, 50),
      note: `the service's main thread during each import${db === 'pglite' ? ' (the embedded database runs on it)' : ' (the database server works elsewhere)'}; on ${runs(onCpu)} ms, off ${runs(offCpu)} ms`,
    },
    {
      scenario: 'import 10k×10 until every finding is stored',
      db,
      metric: 'time',
      value: percentile(settled, 50),
      unit: 'ms',
      note: `${rows} cells checked per run in the worker pool; runs ${runs(settled)} ms; ${stored} findings stored in all; load ${loadavg()}`,
    },
  ];
}

const FILTER_KEYS = Number(process.env.FINDINGS_FILTER_KEYS ?? 200_000);

/**
 * The stored findings read at 2,000,000 translations (200,000 keys × 10
 * languages, made set-based in SQL, with a finding on every 20th cell and an
 * error on every 60th): the first page of a filter through GraphQL, with its
 * counts — errors of one language, one check across languages, everything.
 */
export async function findingsFilterScenario(bench: BenchService, db: Figure['db']): Promise<Figure[]> {
  const { apiKey, projectToken } = await bench.project('findings-filter');
  const projectId = await projectIdOf(prisma(), projectToken);
  const run = (sql: Prisma.Sql) => prisma().$executeRaw(sql);
  await run(Prisma.sql`/* bench:languages */ INSERT INTO "Language" ("projectId", key, name, "order")
    SELECT ${projectId}, l, l, o FROM unnest(${LANGUAGES}::text[]) WITH ORDINALITY AS x(l, o) ON CONFLICT DO NOTHING`);
  await run(
    Prisma.sql`/* bench:keys */ INSERT INTO "TranslationKey" ("projectId", key) SELECT ${projectId}, 'key.' || g FROM generate_series(1, ${FILTER_KEYS}::int) g`,
  );
  await run(Prisma.sql`/* bench:translations */ INSERT INTO "Translation" ("keyId", "languageId", "projectId", text)
    SELECT k.id, l.id, ${projectId}, l.key || ' text ' || k.id || ' with {name}' FROM "TranslationKey" k CROSS JOIN "Language" l
     WHERE k."projectId" = ${projectId} AND l."projectId" = ${projectId}`);
  await run(Prisma.sql`/* bench:findings */ INSERT INTO "Finding" ("keyId", "languageId", "check", n, "projectId", severity, message)
    SELECT t."keyId", t."languageId", CASE WHEN (t."keyId" + t."languageId") % 60 = 0 THEN 'placeholders-missing' ELSE 'end-punctuation' END, 0, ${projectId},
           CASE WHEN (t."keyId" + t."languageId") % 60 = 0 THEN 'error' ELSE 'warning' END, 'A finding'
      FROM "Translation" t WHERE t."projectId" = ${projectId} AND (t."keyId" + t."languageId") % 20 = 0`);
  // At rest, as autovacuum leaves a table after such an insert: statistics, and the visibility map that
  // lets the counts be read from an index alone.
  await run(Prisma.sql`VACUUM ANALYZE "Translation"`);
  await run(Prisma.sql`VACUUM ANALYZE "Finding"`);
  const query = `query($l: String, $s: String, $c: String) { qualityFindings(languageCode: $l, severity: $s, check: $c, first: 100) { total errors pending findings { key languageCode check } } }`;
  const ask = async (variables: Record<string, unknown>) => {
    const res = await fetch(`${bench.url}/graphql`, {
      method: 'POST',
      headers: { 'x-service-token': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as { errors?: unknown[] };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
  };
  const figures: Figure[] = [];
  const [{ n: rows }] = await prisma().$queryRaw<{ n: number }[]>(
    Prisma.sql`/* bench:count */ SELECT count(*)::int AS n FROM "Translation" WHERE "projectId" = ${projectId}`,
  );
  const [{ id: de }] = await prisma().$queryRaw<{ id: number }[]>(
    Prisma.sql`/* bench:language */ SELECT id FROM "Language" WHERE "projectId" = ${projectId} AND key = 'de'`,
  );
  // The baseline: the database counting the same findings alone (the least any answer with a total must do),
  // through the same driver, no page, no HTTP.
  const count = (condition: Prisma.Sql) =>
    prisma().$queryRaw(Prisma.sql`/* bench:findings-count-alone */
      SELECT count(*) FROM "Finding" f WHERE f."projectId" = ${projectId} AND NOT f.dismissed AND ${condition}`);
  for (const [name, variables, condition] of [
    ['errors of one language', { l: 'de', s: 'error' }, Prisma.sql`f."languageId" = ${de} AND f.severity = 'error'`],
    ['one check', { c: 'placeholders-missing' }, Prisma.sql`f."check" = 'placeholders-missing'`],
    ['all findings', {}, Prisma.sql`true`],
  ] as const) {
    for (let i = 0; i < 3; i++) await Promise.all([ask(variables), count(condition)]);
    const times: number[] = [];
    const alone: number[] = [];
    // Alternated, so the machine's load weighs on both alike.
    for (let i = 0; i < 40; i++) {
      times.push((await timed(() => ask(variables))).ms);
      alone.push((await timed(() => count(condition))).ms);
    }
    const p95 = percentile(times, 95);
    const baseline = percentile(alone, 95);
    figures.push({
      scenario: `findings filter at 2M translations: ${name}`,
      db,
      metric: 'p95',
      value: p95,
      unit: 'ms',
      baseline,
      ratio: p95 / baseline,
      target: 'p95 < 100 ms',
      met: p95 < 100,
      note: `${rows} translations; first page of 100 with the counts through GraphQL; p50 ${Math.round(percentile(times, 50))} ms; baseline: count(*) of the same findings by the database alone, p50 ${Math.round(percentile(alone, 50))} ms`,
    });
  }
  return figures;
}
