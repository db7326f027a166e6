// CPU profiles of the small requests of the per-request benchmark (#41): the
// service in this process on a fresh database (PGlite, or PostgreSQL with
// --db postgres), the benchmark project's 2,000 keys × 10 languages, then for
// each request a V8 CPU profile (the profiler of `node --cpu-prof`, started
// and stopped around the load through the inspector) while the load generator
// of the benchmark (requests-load.ts, its own process) sends it at 16 clients.
// Writes <out>/<name>.cpuprofile and prints the top self times, by function
// and by package.
// npx tsx bench/profile-requests.ts [--db pglite|postgres] [--seconds 5] [--out /tmp/profiles] [--only patch,post,languages,project,page,graphql]
import '../src/production.js';
import { Session } from 'node:inspector/promises';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startBenchService } from './lib/service.js';
import { LANGUAGES, multiLanguageJson } from './lib/data.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'pglite' },
    seconds: { type: 'string', default: '5' },
    out: { type: 'string', default: '/tmp/profiles' },
    only: { type: 'string' },
    clients: { type: 'string', default: '16' },
  },
});
const KEYS = 2_000;
const here = (file: string) => new URL(file, import.meta.url).pathname;

function load(arg: unknown): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', here('./scenarios/requests-load.ts'), JSON.stringify(arg)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`load exited ${code}`))));
  });
}

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

/** Self time by function and by package (the node_modules folder, or the repository's own folder). */
function summary(profile: { nodes: Node[]; samples: number[]; timeDeltas: number[] }): string {
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  for (const node of profile.nodes) {
    const t = self.get(node.id) ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.replace(/^file:\/\//, '');
    const fn = `${functionName || '(anonymous)'} ${file
      .split('/node_modules/')
      .at(-1)!
      .replace(/^.*\/(src|rest-compat)\//, '$1/')}:${lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + t);
    const pkg = !url
      ? functionName.startsWith('(')
        ? functionName
        : '(native)'
      : file.includes('/node_modules/')
        ? file
            .split('/node_modules/')
            .at(-1)!
            .split('/')
            .slice(0, file.split('/node_modules/').at(-1)!.startsWith('@') ? 2 : 1)
            .join('/')
        : url.startsWith('node:')
          ? 'node:' + url.slice(5).split('/')[0]
          : file
              .replace(/^.*\/perf\//, '')
              .split('/')
              .slice(0, 2)
              .join('/');
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + t);
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `  ${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`)
      .join('\n');
  return `by package:\n${top(byPackage, 25)}\nby function (self):\n${top(byFunction, 30)}`;
}

const bench = await startBenchService(values.db as 'pglite' | 'postgres');
try {
  const project = await bench.project('bench-profile');
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(multiLanguageJson(KEYS))]), 'requests.json');
  const imported = await fetch(`${bench.url}/api/v2/import?uploadFormat=multi-language-json`, {
    method: 'POST',
    headers: { 'x-service-token': project.apiKey },
    body: form,
  });
  if (imported.status !== 200) throw new Error(await imported.text());
  const auth = { 'x-service-token': project.apiKey };
  const requests = [
    { name: 'patch', method: 'PATCH', path: '/api/v2/translations', body: 'v2patch' },
    {
      name: 'post',
      method: 'POST',
      path: '/api/v1/translations?importOptions=REPLACE_TRANSLATION_IF_FOUND',
      body: 'v1post',
    },
    { name: 'languages', method: 'GET', path: '/api/v1/languages' },
    { name: 'project', method: 'GET', path: '/api/v2/project' },
    { name: 'page', method: 'GET', path: '/api/v2/translations?size=500' },
    { name: 'graphql', method: 'POST', path: '/graphql', body: 'graphql' },
  ].filter((r) => !values.only || values.only.split(',').includes(r.name));
  mkdirSync(values.out!, { recursive: true });
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  for (const r of requests) {
    const arg = {
      url: `${bench.url}${r.path}`,
      method: r.method,
      headers: auth,
      body: r.body,
      keys: KEYS,
      languages: LANGUAGES,
      connections: Number(values.clients),
      seconds: Number(values.seconds),
    };
    await load({ ...arg, seconds: 1 }); // warm-up
    await session.post('Profiler.start');
    const result = await load(arg);
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(join(values.out!, `${values.db}-${r.name}.cpuprofile`), JSON.stringify(profile));
    console.log(`\n=== ${values.db} ${r.method} ${r.path}: ${result}`);
    console.log(summary(profile as never));
  }
  session.disconnect();
} finally {
  await bench.close();
}
