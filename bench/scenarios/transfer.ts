// Scenarios 1–3: import (and re-import) of 10,000 keys × 10 languages through
// REST, export v4 (multi-language-json, android-strings split by language),
// publish _latest — each against the database doing the same work at its own
// limit: COPY of the same rows into the same tables, COPY into a staging table
// plus one upsert, the same files rendered in SQL and streamed out by COPY.
import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, gzip } from 'node:zlib';
import { projectIdOf } from '../lib/project-id.js';
import { brotliOptions, GZIP_OPTIONS } from '../../src/hosting/compression.js';
import { bulkSql, csv, type BulkSql } from '../lib/copy.js';
import type { BenchService } from '../lib/service.js';
import { LANGUAGES, keyName, multiLanguageJson, textOf } from '../lib/data.js';
import { percentile, timed } from '../lib/report.js';
import type { Figure } from '../lib/types.js';

const KEYS = 10_000;
/** Runs of each export and its baseline (medians compared). */
const EXPORT_ROUNDS = 5;
/** Runs of the re-import and its baseline (medians compared). */
const REIMPORT_ROUNDS = 3;
const median = (values: number[]) => percentile(values, 50);
const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

async function importFile(bench: BenchService, apiKey: string, file: Buffer, options: string[] = []): Promise<void> {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(file)], { type: 'application/json' }), 'translations.json');
  const query = new URLSearchParams({ uploadFormat: 'multi-language-json' });
  for (const o of options) query.append('importOptions', o);
  const res = await fetch(`${bench.url}/api/v2/import?${query}`, {
    method: 'POST',
    headers: { 'x-service-token': apiKey },
    body: form,
  });
  if (res.status !== 200) throw new Error(`import failed: ${res.status} ${await res.text()}`);
}

/** The rows of the import file, as CSV lines for COPY. */
function* translationLines(
  keyIds: Map<string, number>,
  languageIds: Map<string, number>,
  projectId: number,
  version: number,
): Generator<string> {
  for (let i = 0; i < KEYS; i++) {
    const keyId = keyIds.get(keyName(i))!;
    for (const l of LANGUAGES) yield `${keyId},${languageIds.get(l)},${projectId},${csv(textOf(l, i, version))}\n`;
  }
}

async function idsOf(sql: BulkSql, table: string, projectId: number): Promise<Map<string, number>> {
  const rows = await sql.query<{ id: number; key: string }>(
    `SELECT id, key FROM ${table} WHERE "projectId" = ${projectId}`,
  );
  return new Map(rows.map((r) => [r.key, r.id]));
}

/**
 * The import baseline, the database's own limit: the languages, then COPY
 * FROM STDIN of the keys and of every translation into the same tables with
 * the same indexes, in one transaction.
 */
async function copyImport(bench: BenchService, projectId: number): Promise<void> {
  const sql = await bulkSql(bench.service.db);
  try {
    await sql.query('BEGIN');
    await sql.query(
      `INSERT INTO "Language" ("projectId", key, "order") SELECT ${projectId}, k, o FROM unnest('{${LANGUAGES.join(',')}}'::text[]) WITH ORDINALITY AS t(k, o) ON CONFLICT DO NOTHING`,
    );
    await sql.copyIn(
      `"TranslationKey" ("projectId", key)`,
      (function* () {
        for (let i = 0; i < KEYS; i++) yield `${projectId},${csv(keyName(i))}\n`;
      })(),
    );
    const keyIds = await idsOf(sql, '"TranslationKey"', projectId);
    const languageIds = await idsOf(sql, '"Language"', projectId);
    await sql.copyIn(
      `"Translation" ("keyId", "languageId", "projectId", text)`,
      translationLines(keyIds, languageIds, projectId, 1),
    );
    await sql.query('COMMIT');
  } finally {
    await sql.release();
  }
}

/** The re-import baseline: COPY of the changed rows (texts of `version`) into a staging table, then one upsert. */
async function copyReimport(bench: BenchService, projectId: number, version: number): Promise<void> {
  const sql = await bulkSql(bench.service.db);
  try {
    await sql.query('BEGIN');
    const keyIds = await idsOf(sql, '"TranslationKey"', projectId);
    const languageIds = await idsOf(sql, '"Language"', projectId);
    await sql.query(
      `CREATE TEMP TABLE staging ("keyId" int, "languageId" int, "projectId" int, text text) ON COMMIT DROP`,
    );
    await sql.copyIn('staging', translationLines(keyIds, languageIds, projectId, version));
    await sql.query(
      `INSERT INTO "Translation" AS t ("keyId", "languageId", "projectId", text) SELECT * FROM staging
       ON CONFLICT ("keyId", "languageId") DO UPDATE SET text = EXCLUDED.text, "lastModifiedAt" = now()
       WHERE t.text IS DISTINCT FROM EXCLUDED.text`,
    );
    await sql.query('COMMIT');
  } finally {
    await sql.release();
  }
}

export async function exportFiles(
  bench: BenchService,
  apiKey: string,
  format: string,
): Promise<{ files: number; bytes: number }> {
  const res = await fetch(`${bench.url}/api/v4/export?${new URLSearchParams({ downloadFormat: format })}`, {
    headers: { 'x-service-token': apiKey },
  });
  if (res.status !== 200) throw new Error(`export failed: ${res.status} ${await res.text()}`);
  const { files } = (await res.json()).data as { files: { url: string }[] };
  let bytes = 0;
  for (const f of files) bytes += (await (await fetch(f.url)).arrayBuffer()).byteLength;
  return { files: files.length, bytes };
}

// The cells of a project with their key's file order and their language's position.
const cells = (projectId: number) => `
  SELECT l.key AS language, l.position, k.key, k."importOrder", t.text
    FROM "Translation" t JOIN "TranslationKey" k ON k.id = t."keyId"
    JOIN (SELECT id, key, row_number() OVER (ORDER BY "order", key) AS position FROM "Language" WHERE "projectId" = ${projectId}) l ON l.id = t."languageId"
   WHERE t."projectId" = ${projectId}`;

/** multi-language-json in the service's layout (JSON.stringify(…, null, 2)), one row per language, rendered in SQL. */
const multiLanguageJsonSql = (projectId: number) => `
  WITH c AS (${cells(projectId)})
  SELECT line FROM (
    SELECT 0 AS p, '{' AS line
    UNION ALL SELECT position, '  ' || to_json(language)::text || E': {\n'
      || string_agg('    ' || to_json(key)::text || ': ' || to_json(text)::text, E',\n' ORDER BY "importOrder")
      || CASE WHEN position = (SELECT max(position) FROM c) THEN E'\n  }' ELSE E'\n  },' END
      FROM c GROUP BY language, position
    UNION ALL SELECT 2147483647, '}'
  ) lines ORDER BY p`;

/** One language's strings.xml, one line per row, texts escaped as Android reads them, rendered in SQL. */
const androidXmlSql = (projectId: number, language: string) => `
  SELECT line FROM (
    SELECT 0::numeric AS o, '<?xml version="1.0" encoding="utf-8"?>' AS line
    UNION ALL SELECT 1, '<resources>'
    UNION ALL SELECT 2 + "importOrder", '    <string name="' || replace(replace(replace(key, '&', '&amp;'), '<', '&lt;'), '"', '&quot;') || '">'
      || replace(replace(replace(replace(replace(replace(text, '\\', '\\\\'), '&', '&amp;'), '<', '&lt;'), '''', '\\'''), '"', '\\"'), E'\\n', '\\n')
      || '</string>' FROM (${cells(projectId)}) c WHERE language = '${language}'
    UNION ALL SELECT 'Infinity', '</resources>'
  ) lines ORDER BY o`;

/** A published language file (keys sorted by code point), or the _index of every language, rendered in SQL. */
const publishedJsonSql = (projectId: number, language?: string) =>
  language
    ? `SELECT json_object_agg(key, text ORDER BY key COLLATE "C") FROM (${cells(projectId)}) c WHERE language = '${language}'`
    : `SELECT json_object_agg(language, texts ORDER BY language COLLATE "C") FROM (
       SELECT language, json_object_agg(key, text ORDER BY key COLLATE "C") AS texts FROM (${cells(projectId)}) c GROUP BY language) l`;

/** The export baseline: the same rows rendered in SQL, in the same format, streamed to files by COPY. */
export async function sqlExport(
  bench: BenchService,
  projectId: number,
  format: 'multi-language-json' | 'android-strings' | 'publish',
): Promise<{ files: number; bytes: number }> {
  const sql = await bulkSql(bench.service.db);
  const dir = mkdtempSync(join(tmpdir(), 'lms-bench-export-'));
  let files = 0;
  let bytes = 0;
  const write = async (select: string, name: string) => {
    const content = await sql.copyOut(select, join(dir, name));
    files++;
    bytes += content.length;
    return content;
  };
  try {
    if (format === 'multi-language-json') await write(multiLanguageJsonSql(projectId), 'all.json');
    else if (format === 'android-strings')
      for (const l of LANGUAGES) await write(androidXmlSql(projectId, l), `${l}.xml`);
    else {
      // As a publication: every language file and _index, each with its gzip and brotli variants at the service's settings.
      for (const l of [...LANGUAGES, undefined]) {
        const name = l ?? '_index';
        const content = await write(publishedJsonSql(projectId, l), `${name}.json`);
        const [gz, br] = await Promise.all([
          gzipAsync(content, GZIP_OPTIONS),
          brotliAsync(content, brotliOptions(content.length)),
        ]);
        await writeFile(join(dir, `${name}.json.gz`), gz);
        await writeFile(join(dir, `${name}.json.br`), br);
      }
    }
    return { files, bytes };
  } finally {
    await sql.release();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function transferScenarios(bench: BenchService, db: Figure['db'], only: Set<string>): Promise<Figure[]> {
  const figures: Figure[] = [];
  const project = await bench.project('bench-transfer');
  const projectId = await projectIdOf(bench.service.db.prisma, project.projectToken);
  const rows = KEYS * LANGUAGES.length;

  const baseProjectId = await projectIdOf(
    bench.service.db.prisma,
    (await bench.project('bench-baseline')).projectToken,
  );
  const copy = await timed(() => copyImport(bench, baseProjectId));
  const first = await timed(() => importFile(bench, project.apiKey, multiLanguageJson(KEYS)));
  // Each re-import replaces every text (the next version of the file); as
  // with exports, both sides run several times, alternating, and the medians
  // are compared.
  const reimports: { service: number; baseline: number }[] = [];
  for (let version = 2; version < 2 + REIMPORT_ROUNDS; version++) {
    const baseline = await timed(() => copyReimport(bench, baseProjectId, version));
    const service = await timed(() =>
      importFile(bench, project.apiKey, multiLanguageJson(KEYS, LANGUAGES, version), ['REPLACE_TRANSLATION_IF_FOUND']),
    );
    reimports.push({ service: service.ms, baseline: baseline.ms });
  }
  if (only.has('import')) {
    const ratio = first.ms / copy.ms;
    figures.push({
      scenario: 'import 10k×10 (REST multipart) vs COPY',
      db,
      metric: 'rows/s',
      value: rows / (first.ms / 1000),
      unit: 'rows/s',
      baseline: rows / (copy.ms / 1000),
      ratio,
      target: 'time ≤ 2 × COPY',
      met: ratio <= 2,
    });
    const again = median(reimports.map((r) => r.service));
    const staged = median(reimports.map((r) => r.baseline));
    const reRatio = again / staged;
    figures.push({
      scenario: 're-import REPLACE vs staging COPY + upsert',
      db,
      metric: 'time',
      value: again,
      unit: 'ms',
      baseline: staged,
      ratio: reRatio,
      target: '≤ 2 × staging COPY + upsert',
      met: reRatio <= 2,
      note: `medians of ${REIMPORT_ROUNDS} runs each (${reimports.map((r) => Math.round(r.service)).join('/')} vs ${reimports.map((r) => Math.round(r.baseline)).join('/')} ms)`,
    });
  }
  if (only.has('export')) {
    for (const format of ['multi-language-json', 'android-strings'] as const) {
      // An export changes nothing, so each side runs several times, alternating,
      // and the medians are compared: one run is as much the machine's noise
      // (and, for the first, the compiling of its code) as the export.
      const runs: { service: number; baseline: number }[] = [];
      let files = { service: { files: 0, bytes: 0 }, baseline: { files: 0, bytes: 0 } };
      for (let round = 0; round < EXPORT_ROUNDS; round++) {
        const service = await timed(() => exportFiles(bench, project.apiKey, format));
        const baseline = await timed(() => sqlExport(bench, projectId, format));
        runs.push({ service: service.ms, baseline: baseline.ms });
        files = { service: service.value, baseline: baseline.value };
      }
      const value = median(runs.map((r) => r.service));
      const base = median(runs.map((r) => r.baseline));
      const ratio = value / base;
      figures.push({
        scenario: `export v4 ${format} vs SQL-rendered`,
        db,
        metric: 'time',
        value,
        unit: 'ms',
        baseline: base,
        ratio,
        target: 'ratio ≤ 1.5',
        met: ratio <= 1.5,
        note: `medians of ${EXPORT_ROUNDS} runs each (${runs.map((r) => Math.round(r.service)).join('/')} vs ${runs.map((r) => Math.round(r.baseline)).join('/')} ms); ${files.service.files} files, ${(files.service.bytes / 2 ** 20).toFixed(2)} MiB (SQL: ${files.baseline.files}, ${(files.baseline.bytes / 2 ** 20).toFixed(2)} MiB)`,
      });
    }
  }
  if (only.has('publish')) {
    const service = await timed(async () => {
      const res = await fetch(`${bench.url}/api/v2/environments/_latest/publish`, {
        method: 'POST',
        headers: { 'x-service-token': project.apiKey },
      });
      if (res.status !== 200) throw new Error(`publish failed: ${res.status} ${await res.text()}`);
    });
    const baseline = await timed(() => sqlExport(bench, projectId, 'publish'));
    const ratio = service.ms / baseline.ms;
    figures.push({
      scenario: 'publish _latest vs SQL-rendered',
      db,
      metric: 'time',
      value: service.ms,
      unit: 'ms',
      baseline: baseline.ms,
      ratio,
      target: 'ratio ≤ 1.5',
      met: ratio <= 1.5,
      note: `baseline: ${baseline.value.files} JSON files, each + gzip + br`,
    });
  }
  return figures;
}
