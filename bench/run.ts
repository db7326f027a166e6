// npm run bench [-- --only import,export,publish,rest,graphql,pages,key-pages,subscriptions,memory,import-memory,cluster,history,requests,findings,findings-filter,glossary,large,idle,tm] [--db pglite,postgres]
// `large` (a project grown to 2,000,000 translations, tens of minutes) and `tm` (translation memory at 2,000,000 /
// 500,000 pairs) run only when named.
// Prints a table of figures with baselines measured in the same run and
// writes bench/results.json. PostgreSQL runs when BENCH_DATABASE_URL or
// TEST_DATABASE_URL is set (postgres://postgres@127.0.0.1:5432/test here).
import '../src/production.js';
import { parseArgs } from 'node:util';
import { machine, save, table } from './lib/report.js';
import { createBenchDatabase, postgresUrl, startBenchService } from './lib/service.js';
import type { Figure } from './lib/types.js';
import { transferScenarios } from './scenarios/transfer.js';
import { readScenarios } from './scenarios/reads.js';
import { pageScenarios } from './scenarios/pages.js';
import { keyPageScenarios } from './scenarios/key-pages.js';
import { settle } from './lib/settle.js';
import { subscriptionScenario } from './scenarios/subscriptions.js';
import { memoryScenario } from './scenarios/memory.js';
import { importMemoryScenario } from './scenarios/import-memory.js';
import { clusterScenario } from './scenarios/cluster.js';
import { historyScenario } from './scenarios/history.js';
import { findingsFilterScenario, findingsScenario } from './scenarios/findings.js';
import { largeScenario } from './scenarios/large.js';
import { translationMemoryScenario } from './scenarios/translation-memory.js';
import { glossaryScenario } from './scenarios/glossary.js';
import { requestScenarios } from './scenarios/requests.js';
import { multiLanguageJson } from './lib/data.js';
import { writeResultsPage } from './lib/results-page.js';

const ALL = [
  'import',
  'export',
  'publish',
  'rest',
  'graphql',
  'pages',
  'subscriptions',
  'memory',
  'import-memory',
  'cluster',
  'history',
  'requests',
  'findings',
  'findings-filter',
  'glossary',
];
const { values } = parseArgs({ options: { only: { type: 'string' }, db: { type: 'string' } } });
// `idle` is the first part of `memory` alone: the restarted idle service, without the 1,000,000-translation import.
// `key-pages` is the key and activity page rows of `pages` alone (without the translation pages).
const KNOWN = [...ALL, 'large', 'idle', 'tm', 'key-pages'];
const only = new Set(values.only ? values.only.split(',') : ALL);
for (const s of only) if (!KNOWN.includes(s)) throw new Error(`unknown scenario ${s}; known: ${KNOWN.join(', ')}`);
const dbs = (values.db ? values.db.split(',') : ['pglite', ...(postgresUrl() ? ['postgres'] : [])]) as Exclude<
  Figure['db'],
  'none'
>[];

const figures: Figure[] = [];
console.log(`machine: ${machine()}`);
if (only.has('glossary')) {
  console.log('glossary matching (no database)');
  figures.push(...glossaryScenario());
}
for (const db of dbs) {
  if (['import', 'export', 'publish', 'rest', 'graphql', 'pages', 'key-pages'].some((s) => only.has(s))) {
    const bench = await startBenchService(db);
    try {
      if (['import', 'export', 'publish'].some((s) => only.has(s))) {
        console.log(`[${db}] transfer scenarios`);
        figures.push(...(await transferScenarios(bench, db, only)));
      }
      if (only.has('rest') || only.has('graphql') || only.has('pages') || only.has('key-pages')) {
        console.log(`[${db}] read scenarios`);
        const project = await bench.project('bench-reads');
        const form = new FormData();
        form.set('file', new Blob([new Uint8Array(multiLanguageJson(10_000))]), 'reads.json');
        const res = await fetch(`${bench.url}/api/v2/import?uploadFormat=multi-language-json`, {
          method: 'POST',
          headers: { 'x-service-token': project.apiKey },
          body: form,
        });
        if (res.status !== 200) throw new Error(`import for reads failed: ${await res.text()}`);
        await settle(db);
        figures.push(...(await readScenarios(bench, db, project.apiKey, project.projectToken, only)));
        if (only.has('pages')) figures.push(...(await pageScenarios(bench, db, project.apiKey, project.projectToken)));
        if (only.has('pages') || only.has('key-pages'))
          figures.push(...(await keyPageScenarios(bench, db, project.apiKey, project.projectToken)));
      }
    } finally {
      await bench.close();
    }
  }
  if (only.has('subscriptions')) {
    console.log(`[${db}] subscriptions`);
    const bench = await startBenchService(db);
    try {
      figures.push(...(await subscriptionScenario(bench, db)));
    } finally {
      await bench.close();
    }
  }
  if (only.has('history')) {
    console.log(`[${db}] history`);
    const bench = await startBenchService(db);
    try {
      figures.push(...(await historyScenario(bench, db)));
    } finally {
      await bench.close();
    }
  }
  if (only.has('findings')) {
    console.log(`[${db}] quality-check findings`);
    const bench = await startBenchService(db);
    try {
      figures.push(...(await findingsScenario(bench, db)));
    } finally {
      await bench.close();
    }
  }
  // 2,000,000 translations made in SQL: on PostgreSQL only (on PGlite the set-up alone takes longer than the rest of the bench).
  if (only.has('findings-filter') && db === 'postgres') {
    console.log(`[${db}] quality-check findings list at 2,000,000 translations`);
    const filter = await startBenchService(db, { FINDINGS_THREADS: '0' });
    try {
      figures.push(...(await findingsFilterScenario(filter, db)));
    } finally {
      await filter.close();
    }
  }
  if (only.has('requests')) {
    console.log(`[${db}] per-request path`);
    const bench = await startBenchService(db);
    try {
      figures.push(...(await requestScenarios(bench, db, bench.databaseUrl)));
    } finally {
      await bench.close();
    }
  }
  if (only.has('large')) {
    console.log(`[${db}] large project`);
    const bench = await startBenchService(db);
    try {
      figures.push(...(await largeScenario(bench, db)));
    } finally {
      await bench.close();
    }
  }
  if (only.has('tm')) {
    console.log(`[${db}] translation memory`);
    const bench = await startBenchService(db);
    try {
      figures.push(...(await translationMemoryScenario(bench, db)));
    } finally {
      await bench.close();
    }
  }
  if (only.has('memory') || only.has('idle')) {
    console.log(`[${db}] memory`);
    const database = db === 'postgres' ? await createBenchDatabase() : undefined;
    try {
      figures.push(...(await memoryScenario(db, database?.url, { idleOnly: !only.has('memory') })));
    } finally {
      await database?.drop();
    }
  }
  // Several processes need PostgreSQL and Redis (src/cluster.ts).
  if (only.has('cluster') && db === 'postgres') {
    console.log(`[${db}] several processes (PROCESSES) against one`);
    const database = await createBenchDatabase();
    try {
      figures.push(...(await clusterScenario(database.url)));
    } finally {
      await database.drop();
    }
  }
  if (only.has('import-memory')) {
    console.log(`[${db}] memory of a 50 MiB import`);
    figures.push(
      ...(await importMemoryScenario(db, async () => (db === 'postgres' ? createBenchDatabase() : undefined))),
    );
  }
}
console.log(table(figures));
writeResultsPage(save(figures));
console.log('wrote bench/results.json and the table of docs/benchmarks.md');
