// npm run bench:transfer — the import and export figures of
// docs/import-export.md: a multi-language JSON of 10,000 keys × 10 languages
// imported through REST into a service started in this process, re-imported
// with REPLACE_TRANSLATION_IF_FOUND, exported with v4 (the transfer scenarios
// of the benchmark suite, with their same-run baselines), then a few figures
// of the engine itself: a re-import that changes nothing, a split and zipped
// export, and the heap the export needed. On PGlite always, and on PostgreSQL
// when BENCH_DATABASE_URL or TEST_DATABASE_URL is set. Not a test: it prints.
import '../src/production.js';
import { machine, table, timed } from './lib/report.js';
import { postgresUrl, startBenchService, type BenchService } from './lib/service.js';
import { LANGUAGES, multiLanguageJson } from './lib/data.js';
import type { Figure } from './lib/types.js';
import { transferScenarios } from './scenarios/transfer.js';

const KEYS = 10_000;
const ROWS = KEYS * LANGUAGES.length;

async function post(
  bench: BenchService,
  apiKey: string,
  file: Buffer,
  query: string,
): Promise<{ numberOfKeysFound: number }> {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(file)], { type: 'application/json' }), 'translations.json');
  const res = await fetch(`${bench.url}/api/v2/import?${query}`, {
    method: 'POST',
    headers: { 'x-service-token': apiKey },
    body: form,
  });
  if (res.status !== 200) throw new Error(`import failed: ${res.status} ${await res.text()}`);
  return (await res.json()).data;
}

async function exportAndDownload(
  bench: BenchService,
  apiKey: string,
  query: string,
): Promise<{ files: number; bytes: number }> {
  const res = await fetch(`${bench.url}/api/v4/export?${query}`, { headers: { 'x-service-token': apiKey } });
  if (res.status !== 200) throw new Error(`export failed: ${res.status} ${await res.text()}`);
  const { files } = (await res.json()).data as { files: { url: string }[] };
  let bytes = 0;
  for (const f of files) bytes += (await (await fetch(f.url)).arrayBuffer()).byteLength;
  return { files: files.length, bytes };
}

/** Figures of the engine beyond the suite's scenarios. */
async function engineFigures(bench: BenchService, db: Figure['db']): Promise<Figure[]> {
  const project = await bench.project('bench-engine');
  const file = multiLanguageJson(KEYS);
  const first = await timed(() => post(bench, project.apiKey, file, 'uploadFormat=multi-language-json'));
  const unchanged = await timed(() => post(bench, project.apiKey, file, 'uploadFormat=multi-language-json'));
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  let heapPeak = heapBefore;
  const sampler = setInterval(() => (heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed)), 5);
  const multi = await timed(() => exportAndDownload(bench, project.apiKey, 'downloadFormat=multi-language-json'));
  clearInterval(sampler);
  const split = await timed(() =>
    exportAndDownload(bench, project.apiKey, 'downloadFormat=single-language-json&downloadOptions=ZIP_FILES'),
  );
  const properties = await timed(() => exportAndDownload(bench, project.apiKey, 'downloadFormat=java-properties'));
  const flat = await timed(() => exportAndDownload(bench, project.apiKey, 'downloadFormat=single-language-json'));
  const nested = await timed(() =>
    exportAndDownload(bench, project.apiKey, 'downloadFormat=single-language-json&downloadOptions=WRITE_NESTED'),
  );
  return [
    {
      scenario: 'import 10k×10, new project',
      db,
      metric: 'time',
      value: first.ms,
      unit: 'ms',
      note: `${Math.round(ROWS / (first.ms / 1000))} rows/s`,
    },
    {
      scenario: 're-import unchanged (no option)',
      db,
      metric: 'time',
      value: unchanged.ms,
      unit: 'ms',
      note: 'parse + compare, nothing written',
    },
    {
      scenario: 'export v4 multi-language-json + download',
      db,
      metric: 'time',
      value: multi.ms,
      unit: 'ms',
      note: `${(multi.value.bytes / 2 ** 20).toFixed(1)} MiB, ${Math.round(ROWS / (multi.ms / 1000))} rows/s`,
    },
    {
      scenario: 'heap growth during that export',
      db,
      metric: 'heap',
      value: (heapPeak - heapBefore) / 2 ** 20,
      unit: 'MiB',
    },
    {
      scenario: 'export single-language-json, ZIP_FILES',
      db,
      metric: 'time',
      value: split.ms,
      unit: 'ms',
      note: `10 files in one zip, ${(split.value.bytes / 2 ** 20).toFixed(1)} MiB`,
    },
    {
      scenario: 'export java-properties',
      db,
      metric: 'time',
      value: properties.ms,
      unit: 'ms',
      note: `${properties.value.files} files`,
    },
    {
      scenario: 'export single-language-json, flat',
      db,
      metric: 'time',
      value: flat.ms,
      unit: 'ms',
      note: `${flat.value.files} files`,
    },
    {
      scenario: 'the same with WRITE_NESTED (path order)',
      db,
      metric: 'time',
      value: nested.ms,
      unit: 'ms',
      note: `${nested.value.files} files; ${(nested.ms / flat.ms).toFixed(2)} × flat`,
    },
  ];
}

const figures: Figure[] = [];
console.log(`machine: ${machine()}`);
for (const db of ['pglite', ...(postgresUrl() ? ['postgres'] : [])] as Exclude<Figure['db'], 'none'>[]) {
  const bench = await startBenchService(db);
  try {
    console.log(`[${db}] import and export of ${KEYS} keys × ${LANGUAGES.length} languages`);
    figures.push(...(await transferScenarios(bench, db, new Set(['import', 'export']))));
    figures.push(...(await engineFigures(bench, db)));
  } finally {
    await bench.close();
  }
}
console.log(table(figures));
for (const f of figures.filter((f) => f.note)) console.log(`${f.db} · ${f.scenario}: ${f.note}`);
