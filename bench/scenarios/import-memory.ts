// Scenario: resident memory of a service process (the bundle `npm start`
// runs, V8's default settings) importing a 50 MiB JSON file, and what it
// gives back afterwards. Two files of productJson's shape (nested keys, texts
// of a product's lengths): one language (about 280,000 texts) and ten
// languages (about 28,000 keys × 10). Each is imported by its own service,
// restarted on its data as memory.ts does: the peak is the process's high
// water mark during the import (reset after the idle reading). The import's
// work ends when the findings updater has checked its texts (src/findings/,
// polled through GET /api/v2/quality-checks until nothing is pending): that
// time is reported, and the process's peak until then (the high water mark is
// not reset in between, so it is the import's or the findings'). The
// memory given back is read IDLE_AFTER_MS after that end, against the same
// process's idle reading before the import: met when within GIVEN_BACK_MARGIN_MIB.
// The idle reading waits until the restarted service's RSS has settled: on a
// loaded machine its start-up (PGlite compiling, migrations checked) still
// held up to 800 MiB for a few seconds after it answered (measured 2026-11-29).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startServiceProcess, type ServiceProcess } from '../../scripts/lib/service-process.js';
import { processMemory } from '../lib/process-memory.js';
import { productJson, LANGUAGES } from '../lib/data.js';
import { postForm } from '../lib/post-form.js';
import { timed } from '../lib/report.js';
import type { Figure } from '../lib/types.js';
import { buildBundle, rss } from './memory.js';

const FILE_BYTES = 50 * 2 ** 20;
/** How long the restarted service is left alone before its idle reading. */
const SETTLE_MS = 5_000;
/** How long after the import the memory given back is read. */
const IDLE_AFTER_MS = 60_000;
const PEAK_TARGET_MIB = 512;
/** RSS after the findings that counts as given back: the idle reading plus this. */
const GIVEN_BACK_MARGIN_MIB = 100;
/** Longest wait for the findings of the import (a loaded shared machine is slow). */
const FINDINGS_DEADLINE_MS = 20 * 60_000;

/** Waits until two readings 2 s apart differ by less than 5 MiB (at most a minute). */
async function settled(pid: number): Promise<void> {
  let last = rss(pid, 'VmRSS');
  for (let i = 0; i < 30; i++) {
    await sleep(2_000);
    const now = rss(pid, 'VmRSS');
    if (Math.abs(now - last) < 5) return;
    last = now;
  }
}

/** Cells of the project whose findings are still to be computed. */
async function pending(url: string, apiKey: string): Promise<number> {
  const res = await fetch(`${url}/api/v2/quality-checks?size=0`, { headers: { 'x-service-token': apiKey } });
  if (res.status !== 200) throw new Error(`quality-checks: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: { pending: number } }).data.pending;
}

/** Resets the process's high water mark (VmHWM), so that it is the peak of what follows. */
function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

async function importOnce(db: Figure['db'], databaseUrl: string | undefined, languages: string[]): Promise<Figure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lms-bench-import-mem-'));
  const token = 'lms_pat_bench_memory_token_0123456789';
  const env = {
    DATA_DIR: dataDir,
    ADMIN_EMAIL: 'bench@example.com',
    ADMIN_PASSWORD: 'bench-password',
    ADMIN_TOKEN: token,
    RATE_LIMIT_PER_MINUTE: '0',
    MAX_UPLOAD_BYTES: String(1024 ** 3),
    NODE_OPTIONS: '',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  const single = languages.length === 1;
  const file = productJson(FILE_BYTES, languages);
  const label = `import a 50 MiB JSON (${single ? 'one language' : `${languages.length} languages`})`;
  let instance: ServiceProcess | undefined;
  try {
    // First start creates the database; the service measured is restarted on it.
    await (await startServiceProcess(env, 'build')).kill('SIGTERM');
    instance = await startServiceProcess(env, 'build');
    const pid = instance.child.pid!;
    const project = (
      await (
        await fetch(`${instance.url}/api/v2/projects`, {
          method: 'POST',
          headers: { authorization: token, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'memory' }),
        })
      ).json()
    ).data;
    await sleep(SETTLE_MS);
    await settled(pid);
    const idle = rss(pid, 'VmRSS');
    resetPeak(pid);
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(file)]), single ? 'en.json' : 'all.json');
    const query = single ? 'uploadFormat=single-language-json&languageKey=en' : 'uploadFormat=multi-language-json';
    const upload = await timed(async () => {
      const { status, body } = await postForm(
        `${instance!.url}/api/v2/import?${query}`,
        { 'x-service-token': project.apiKey },
        form,
      );
      if (status !== 200) throw new Error(`import failed: ${status} ${body.slice(0, 300)}`);
    });
    const peak = rss(pid, 'VmHWM');
    const end = rss(pid, 'VmRSS');
    // The findings of the import: RSS every second until none is pending.
    const answered = performance.now();
    let highest = end;
    let left = await pending(instance.url, project.apiKey);
    while (left > 0 && performance.now() - answered < FINDINGS_DEADLINE_MS) {
      await sleep(1_000);
      highest = Math.max(highest, rss(pid, 'VmRSS'));
      left = await pending(instance.url, project.apiKey);
    }
    const findingsMs = performance.now() - answered;
    // VmHWM was reset before the import: the process's peak (its worker threads' heaps are in it) until nothing was pending.
    const drainPeak = rss(pid, 'VmHWM');
    const readings: number[] = [];
    for (let t = 0; t < IDLE_AFTER_MS; t += 10_000) {
      await sleep(10_000);
      readings.push(rss(pid, 'VmRSS'));
    }
    highest = Math.max(highest, ...readings);
    const after = readings.at(-1)!;
    const parts = processMemory(pid);
    // Every text of productJson is a `label_<n>` member.
    const texts = file.toString('latin1').match(/"label_\d+":/g)!.length;
    console.log(
      `  [${db}] ${label}: idle ${idle.toFixed(0)}, peak ${peak.toFixed(0)}, at the end ${end.toFixed(0)}, findings ${(findingsMs / 1000).toFixed(0)} s later (${left} pending, peak ${drainPeak.toFixed(0)}, highest after ${highest.toFixed(0)}), then ${readings.map((r) => r.toFixed(0)).join(', ')} MiB; ${texts} texts in ${(upload.ms / 1000).toFixed(1)} s`,
    );
    return [
      {
        scenario: label,
        db,
        metric: 'peak RSS',
        value: peak,
        unit: 'MiB',
        baseline: idle,
        target: `< ${PEAK_TARGET_MIB} MiB`,
        met: peak < PEAK_TARGET_MIB,
        note: `${(file.length / 2 ** 20).toFixed(1)} MiB, ${texts} texts in ${(upload.ms / 1000).toFixed(1)} s; baseline: idle before the import`,
      },
      {
        scenario: label,
        db,
        metric: 'peak RSS until findings stored',
        value: drainPeak,
        unit: 'MiB',
        baseline: idle,
        target: `< ${PEAK_TARGET_MIB} MiB`,
        met: left === 0 && drainPeak < PEAK_TARGET_MIB,
        note: `the process's high water mark (worker threads included) from the import's start until no text of it was pending; baseline: idle before the import`,
      },
      {
        scenario: label,
        db,
        metric: 'findings stored',
        value: findingsMs / 1000,
        unit: 's',
        note: `after the import answered, until no text of it was pending${left > 0 ? ` (${left} still pending at the ${FINDINGS_DEADLINE_MS / 60_000} min deadline)` : ''}; highest RSS from the answer to the reading below: ${highest.toFixed(0)} MiB`,
      },
      {
        scenario: label,
        db,
        metric: `RSS ${IDLE_AFTER_MS / 1000} s after`,
        value: after,
        unit: 'MiB',
        baseline: idle,
        target: `< idle + ${GIVEN_BACK_MARGIN_MIB} MiB`,
        met: left === 0 && after < idle + GIVEN_BACK_MARGIN_MIB,
        note: `${IDLE_AFTER_MS / 1000} s after the findings were stored; at the end of the import ${end.toFixed(0)} MiB, highest after it ${highest.toFixed(0)} MiB, then every 10 s: ${readings.map((r) => r.toFixed(0)).join(', ')} MiB; mapped files ${parts.file} MiB, anonymous ${parts.anonymous} MiB; baseline: idle before the import`,
      },
    ];
  } finally {
    await instance?.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function importMemoryScenario(
  db: Figure['db'],
  createDatabase: () => Promise<{ url: string; drop(): Promise<void> } | undefined>,
): Promise<Figure[]> {
  buildBundle();
  const figures: Figure[] = [];
  // IMPORT_MEMORY_FILES=one or =ten runs one of the two files alone.
  const files = { one: [['en']], ten: [LANGUAGES] }[process.env.IMPORT_MEMORY_FILES ?? ''] ?? [['en'], LANGUAGES];
  for (const languages of files) {
    const database = await createDatabase();
    try {
      figures.push(...(await importOnce(db, database?.url, languages)));
    } finally {
      await database?.drop();
    }
  }
  return figures;
}
