// Scenario 7: resident memory of a service process with V8's default settings,
// run as `npm start` runs it (the bundle dist/main.js, built here first).
// The baseline is the same service restarted on its data and left idle (not
// the peak of a first start, which on the embedded database includes initdb);
// the figure is the peak while that service imports a 1,000,000-translation
// file (100,000 keys × 10 languages). `--only idle` stops after the idle reading.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startServiceProcess, type ServiceProcess } from '../../scripts/lib/service-process.js';
import { processMemory } from '../lib/process-memory.js';
import { multiLanguageJson, LANGUAGES } from '../lib/data.js';
import { timed } from '../lib/report.js';
import type { Figure } from '../lib/types.js';

const KEYS = 100_000;
/** How long a restarted service is left alone before its idle RSS is read. */
const SETTLE_MS = 5_000;
/** When it is read again, idle for longer. */
const SETTLED_MS = 40_000;

export function rss(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]) / 1024;
}

/** Builds dist/main.js, what `npm start` runs. */
export function buildBundle(): void {
  const result = spawnSync(process.execPath, ['scripts/build.mjs'], {
    cwd: new URL('../..', import.meta.url).pathname,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('scripts/build.mjs failed');
}

export async function memoryScenario(
  db: Figure['db'],
  databaseUrl?: string,
  options: { idleOnly?: boolean } = {},
): Promise<Figure[]> {
  buildBundle();
  const dataDir = mkdtempSync(join(tmpdir(), 'lms-bench-mem-'));
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
  let instance: ServiceProcess | undefined;
  try {
    // First start (creates the database), then a restart on the same data: the state a running service is in.
    const first = await startServiceProcess(env, 'build');
    const firstStart = rss(first.child.pid!, 'VmRSS');
    await first.kill('SIGTERM');
    instance = await startServiceProcess(env, 'build');
    const pid = instance.child.pid!;
    await sleep(SETTLE_MS);
    const idle = rss(pid, 'VmRSS');
    const parts = processMemory(pid);
    // V8's memory reducer gives back the heap grown while starting once allocation has stopped for
    // a while (about 20-30 s after this start): the figure is the earlier reading, the later one is noted.
    await sleep(SETTLED_MS - SETTLE_MS);
    const settled = rss(pid, 'VmRSS');
    const idleFigure: Figure = {
      scenario: 'service idle after a restart',
      db,
      metric: 'RSS',
      value: idle,
      unit: 'MiB',
      ...(db === 'pglite' && { target: '< 300 MiB', met: idle < 300 }),
      note: `after ${SETTLED_MS / 1000} s: ${settled.toFixed(0)} MiB; first start: ${firstStart.toFixed(0)} MiB; mapped files ${parts.file} MiB, anonymous ${parts.anonymous} MiB`,
    };
    if (options.idleOnly) return [idleFigure];
    const project = (
      await (
        await fetch(`${instance.url}/api/v2/projects`, {
          method: 'POST',
          headers: { authorization: token, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'memory' }),
        })
      ).json()
    ).data;
    const file = multiLanguageJson(KEYS);
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(file)]), 'big.json');
    const upload = await timed(async () => {
      const res = await fetch(`${instance!.url}/api/v2/import?uploadFormat=multi-language-json`, {
        method: 'POST',
        headers: { 'x-service-token': project.apiKey },
        body: form,
      });
      if (res.status !== 200) throw new Error(`import failed: ${res.status} ${(await res.text()).slice(0, 300)}`);
    });
    const peak = rss(pid, 'VmHWM');
    const figures: Figure[] = [
      idleFigure,
      {
        scenario: `import 1,000,000 translations (${(file.length / 2 ** 20).toFixed(0)} MiB), default V8`,
        db,
        metric: 'peak RSS',
        value: peak,
        unit: 'MiB',
        baseline: idle,
        ...(db === 'postgres' && { target: '< 512 MiB', met: peak < 512 }),
        note: `${((KEYS * LANGUAGES.length) / (upload.ms / 1000)).toFixed(0)} rows/s; baseline: idle after restart`,
      },
    ];
    return figures;
  } finally {
    await instance?.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}
