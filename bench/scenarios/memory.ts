// Scenario 7: peak resident memory of a service process (embedded database,
// default settings) while importing a 1,000,000-translation file.
import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServiceProcess } from '../../scripts/lib/service-process.js';
import { multiLanguageJson, LANGUAGES } from '../lib/data.js';
import { timed } from '../lib/report.js';
import type { Figure } from '../lib/types.js';

const KEYS = 100_000;

function peakRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/** Peak RSS of an import with V8's default heap sizing, and with the old space capped as an operator would size it. */
export async function memoryScenario(db: Figure['db'], databaseUrl?: string): Promise<Figure[]> {
  return [...(await importPeak(db, databaseUrl)), ...(await importPeak(db, databaseUrl, HEAP_CAP_MIB))];
}

/** An old-space cap that leaves the live set of this import room (it needs under 400 MiB). */
const HEAP_CAP_MIB = 512;

async function importPeak(db: Figure['db'], databaseUrl: string | undefined, heapCapMib?: number): Promise<Figure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lms-bench-mem-'));
  const token = 'lms_pat_bench_memory_token_0123456789';
  const instance = await startServiceProcess({
    DATA_DIR: dataDir, ADMIN_EMAIL: 'bench@example.com', ADMIN_PASSWORD: 'bench-password', ADMIN_TOKEN: token,
    RATE_LIMIT_PER_MINUTE: '0', MAX_UPLOAD_BYTES: String(1024 ** 3), ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    NODE_OPTIONS: heapCapMib ? `--max-old-space-size=${heapCapMib}` : '',
  });
  try {
    const pid = instance.child.pid!;
    const idle = peakRss(pid);
    const project = (await (await fetch(`${instance.url}/api/v2/projects`, { method: 'POST', headers: { authorization: token, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'memory' }) })).json()).data;
    const file = multiLanguageJson(KEYS);
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(file)]), 'big.json');
    const upload = await timed(async () => {
      const res = await fetch(`${instance.url}/api/v2/import?uploadFormat=multi-language-json`, { method: 'POST', headers: { 'x-service-token': project.apiKey }, body: form });
      if (res.status !== 200) throw new Error(`import failed: ${res.status} ${(await res.text()).slice(0, 300)}`);
    });
    const peak = peakRss(pid);
    return [{
      scenario: `import 1,000,000 translations (${(file.length / 2 ** 20).toFixed(0)} MiB)${heapCapMib ? `, heap capped at ${heapCapMib} MiB` : ''}`, db, metric: 'peak RSS', value: peak, unit: 'MiB', baseline: idle,
      target: '< 1024 MiB', met: peak < 1024, note: `${((KEYS * LANGUAGES.length) / (upload.ms / 1000)).toFixed(0)} rows/s`,
    }];
  } finally {
    await instance.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}
