// Scenarios 1–3: import (and re-import) of 10,000 keys × 10 languages through
// REST, export v4 (multi-language-json, android-strings split by language),
// publish _latest — each against the same work done with plain SQL.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchService } from '../lib/service.js';
import { LANGUAGES, keyName, multiLanguageJson, textOf } from '../lib/data.js';
import { timed } from '../lib/report.js';
import type { Figure } from '../lib/types.js';

const KEYS = 10_000;

async function importFile(bench: BenchService, apiKey: string, file: Buffer, options: string[] = []): Promise<void> {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(file)], { type: 'application/json' }), 'translations.json');
  const query = new URLSearchParams({ uploadFormat: 'multi-language-json' });
  for (const o of options) query.append('importOptions', o);
  const res = await fetch(`${bench.url}/api/v2/import?${query}`, { method: 'POST', headers: { 'x-service-token': apiKey }, body: form });
  if (res.status !== 200) throw new Error(`import failed: ${res.status} ${await res.text()}`);
}

/** The baseline insert: keys, then every translation, each one set-based statement. */
async function baselineInsert(bench: BenchService, projectToken: string): Promise<void> {
  const prisma = bench.service.db.prisma;
  const [{ id: projectId }] = await prisma.$queryRawUnsafe<{ id: number }[]>(`SELECT id FROM "Project" WHERE "projectToken" = $1`, projectToken);
  await prisma.$executeRawUnsafe(`INSERT INTO "Language" ("projectId", key, "order") SELECT $1, k, o FROM unnest($2::text[]) WITH ORDINALITY AS t(k, o) ON CONFLICT DO NOTHING`, projectId, LANGUAGES);
  const names = Array.from({ length: KEYS }, (_, i) => keyName(i));
  await prisma.$executeRawUnsafe(`INSERT INTO "TranslationKey" ("projectId", key) SELECT $1, k FROM unnest($2::text[]) AS t(k)`, projectId, names);
  const keyCol: string[] = [];
  const langCol: string[] = [];
  const textCol: string[] = [];
  for (let i = 0; i < KEYS; i++) for (const l of LANGUAGES) { keyCol.push(names[i]!); langCol.push(l); textCol.push(textOf(l, i)); }
  await prisma.$executeRawUnsafe(
    `INSERT INTO "Translation" ("keyId", "languageId", "projectId", text)
     SELECT k.id, l.id, $1, t.text FROM unnest($2::text[], $3::text[], $4::text[]) AS t(key, lang, text)
     JOIN "TranslationKey" k ON k."projectId" = $1 AND k.namespace = '' AND k.key = t.key
     JOIN "Language" l ON l."projectId" = $1 AND l.key = t.lang`,
    projectId, keyCol, langCol, textCol,
  );
}

async function exportFiles(bench: BenchService, apiKey: string, format: string, options = ''): Promise<number> {
  const query = new URLSearchParams({ downloadFormat: format, ...(options ? { downloadOptions: options } : {}) });
  const res = await fetch(`${bench.url}/api/v4/export?${query}`, { headers: { 'x-service-token': apiKey } });
  if (res.status !== 200) throw new Error(`export failed: ${res.status} ${await res.text()}`);
  const { files } = (await res.json()).data as { files: { url: string }[] };
  let bytes = 0;
  for (const f of files) bytes += (await (await fetch(f.url)).arrayBuffer()).byteLength;
  return files.length;
}

/** The baseline export: one query of the rows, JSON.stringify, one file per language or one in all. */
async function baselineExport(bench: BenchService, projectToken: string, perLanguage: boolean): Promise<void> {
  const rows = await bench.service.db.prisma.$queryRawUnsafe<{ key: string; language: string; text: string }[]>(
    `SELECT k.key, l.key AS language, t.text FROM "Translation" t JOIN "TranslationKey" k ON k.id = t."keyId" JOIN "Language" l ON l.id = t."languageId"
       JOIN "Project" p ON p.id = t."projectId" WHERE p."projectToken" = $1 ORDER BY k."importOrder", l."order"`,
    projectToken,
  );
  const dir = mkdtempSync(join(tmpdir(), 'lms-bench-export-'));
  if (perLanguage) {
    const byLanguage = new Map<string, Record<string, string>>();
    for (const r of rows) {
      let m = byLanguage.get(r.language);
      if (!m) byLanguage.set(r.language, (m = {}));
      m[r.key] = r.text;
    }
    for (const [language, texts] of byLanguage) writeFileSync(join(dir, `${language}.json`), JSON.stringify(texts));
  } else {
    // multi-language-json's documented shape: languages first.
    const all: Record<string, Record<string, string>> = {};
    for (const r of rows) (all[r.language] ??= {})[r.key] = r.text;
    writeFileSync(join(dir, 'all.json'), JSON.stringify(all));
  }
  rmSync(dir, { recursive: true, force: true });
}

export async function transferScenarios(bench: BenchService, db: Figure['db'], only: Set<string>): Promise<Figure[]> {
  const figures: Figure[] = [];
  const project = await bench.project('bench-transfer');
  const file = multiLanguageJson(KEYS);
  const rows = KEYS * LANGUAGES.length;

  const baseProject = await bench.project('bench-baseline');
  const base = await timed(() => baselineInsert(bench, baseProject.projectToken));
  const first = await timed(() => importFile(bench, project.apiKey, file));
  const again = await timed(() => importFile(bench, project.apiKey, multiLanguageJson(KEYS, LANGUAGES, 2), ['REPLACE_TRANSLATION_IF_FOUND']));
  if (only.has('import')) {
    figures.push({ scenario: 'import 10k×10 (REST multipart)', db, metric: 'rows/s', value: rows / (first.ms / 1000), unit: 'rows/s', baseline: rows / (base.ms / 1000), ratio: first.ms / base.ms, target: 'time ratio ≤ 3', met: first.ms / base.ms <= 3 });
    figures.push({ scenario: 're-import REPLACE', db, metric: 'time', value: again.ms, unit: 'ms', baseline: first.ms, ratio: again.ms / first.ms, target: '≤ 2 × first import', met: again.ms / first.ms <= 2 });
  }
  if (only.has('export')) {
    for (const [format, perLanguage] of [['multi-language-json', false], ['android-strings', true]] as const) {
      const service = await timed(() => exportFiles(bench, project.apiKey, format));
      const baseline = await timed(() => baselineExport(bench, project.projectToken, perLanguage));
      figures.push({ scenario: `export v4 ${format}`, db, metric: 'time', value: service.ms, unit: 'ms', baseline: baseline.ms, ratio: service.ms / baseline.ms, target: 'ratio ≤ 2', met: service.ms / baseline.ms <= 2, note: `${service.value} files` });
    }
  }
  if (only.has('publish')) {
    const service = await timed(async () => {
      const res = await fetch(`${bench.url}/api/v2/environments/_latest/publish`, { method: 'POST', headers: { 'x-service-token': project.apiKey } });
      if (res.status !== 200) throw new Error(`publish failed: ${res.status} ${await res.text()}`);
    });
    const baseline = await timed(async () => {
      await baselineExport(bench, project.projectToken, true);
      await baselineExport(bench, project.projectToken, false);
    });
    figures.push({ scenario: 'publish _latest', db, metric: 'time', value: service.ms, unit: 'ms', baseline: baseline.ms, ratio: service.ms / baseline.ms, target: 'ratio ≤ 2', met: service.ms / baseline.ms <= 2 });
  }
  return figures;
}
