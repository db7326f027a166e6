// Lighthouse on the console (issue #39's bar: performance ≥ 90 and
// accessibility 100 on the dashboard and the editor, mobile profile):
//   npm run lighthouse
// Starts the service on a temporary embedded database with a demo project,
// signs in through the console in Debian's Chromium (scripts/lib/chromium.ts),
// then runs Lighthouse's default mobile audit (simulated slow 4G and a 4× slower
// CPU) on each page in that browser, signed in: the session cookie stays
// because storage is not reset. Prints the scores and the first contentful
// paint, and writes them to bench/lighthouse.json with the commit measured.
// LIGHTHOUSE_REPORTS=<dir> also writes each page's full report there
// (<page>.json: every audit's details, the opportunities and the long tasks)
// and the trace it was computed from (<page>.trace.json, for DevTools).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, chromiumPath } from './lib/chromium.js';
import { startDemoService } from './lib/demo-service.js';

const TARGETS = { performance: 0.9, accessibility: 1 };
const PORT = 9333;

const root = resolve(import.meta.dirname, '..');
const profileDir = mkdtempSync(join(tmpdir(), 'lms-lighthouse-profile-'));
const email = 'lighthouse@example.com';
const password = 'lighthouse-password';
const { url, token, rest, close } = await startDemoService('lighthouse', { email, password });
// A persistent context is the browser's default one: the tabs Lighthouse opens share its cookies.
const context = await chromium.launchPersistentContext(profileDir, {
  executablePath: await chromiumPath(),
  headless: true,
  args: [...CHROMIUM_FLAGS, `--remote-debugging-port=${PORT}`],
});
type Row = {
  page: string;
  performance: number;
  accessibility: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  speedIndexMs: number;
  met: boolean;
};
const rows: Row[] = [];
try {
  const shop = await rest('POST', '/api/v2/projects', { name: 'Web shop' }, { authorization: token });
  const key = { 'x-service-token': shop.apiKey! };
  for (const [k, name] of [
    ['de', 'German'],
    ['fr', 'French'],
  ])
    await rest('POST', '/api/v1/languages', { key: k, name }, key);
  // Two hundred keys: the editor's first screen full, as in a real project.
  const content = Array.from({ length: 200 }, (_, i) => [
    { key: `screen_${i % 20}.label_${i}`, language: 'en', text: `Label number ${i} of the shop` },
    { key: `screen_${i % 20}.label_${i}`, language: 'de', text: `Beschriftung Nummer ${i} des Ladens` },
  ]).flat();
  await rest('POST', '/api/v1/translations', { content }, key);

  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(url + '/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Projects' }).waitFor();

  for (const [name, address] of [
    ['dashboard', `${url}/#/`],
    ['editor', `${url}/#/projects/${shop.projectToken}`],
  ] as const) {
    const result = await lighthouse(address, {
      port: PORT,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
      disableStorageReset: true,
    });
    if (!result) throw new Error(`Lighthouse gave no result for ${name}`);
    const { categories, audits } = result.lhr;
    const reports = process.env.LIGHTHOUSE_REPORTS;
    if (reports) {
      mkdirSync(reports, { recursive: true });
      writeFileSync(join(reports, `${name}.json`), JSON.stringify(result.lhr, null, 2));
      const trace = (result.artifacts as { Trace?: { traceEvents: unknown[] } }).Trace;
      if (trace) writeFileSync(join(reports, `${name}.trace.json`), JSON.stringify(trace.traceEvents));
    }
    const performance = categories.performance?.score ?? 0;
    const accessibility = categories.accessibility?.score ?? 0;
    rows.push({
      page: name,
      performance,
      accessibility,
      fcpMs: Math.round(audits['first-contentful-paint']?.numericValue ?? 0),
      lcpMs: Math.round(audits['largest-contentful-paint']?.numericValue ?? 0),
      tbtMs: Math.round(audits['total-blocking-time']?.numericValue ?? 0),
      cls: Number((audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)),
      speedIndexMs: Math.round(audits['speed-index']?.numericValue ?? 0),
      met: performance >= TARGETS.performance && accessibility >= TARGETS.accessibility,
    });
    // What costs points: the scored audits of both categories below 0.9.
    const weak = [categories.performance, categories.accessibility]
      .flatMap((c) => c?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (audits[ref.id]?.score ?? 1) < 0.9)
      .map((ref) => `${ref.id} ${audits[ref.id]?.displayValue ?? audits[ref.id]?.score}`);
    if (weak.length) console.log(`${name}: ${weak.join('; ')}`);
  }
} finally {
  await context.close();
  await close();
  rmSync(profileDir, { recursive: true, force: true });
}

const commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' }).trim() ? '+dirty' : '';
console.log('| page | performance | accessibility | FCP | LCP | TBT | CLS | speed index | met |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of rows)
  console.log(
    `| ${r.page} | ${Math.round(r.performance * 100)} | ${Math.round(r.accessibility * 100)} | ${r.fcpMs} ms | ${r.lcpMs} ms | ${r.tbtMs} ms | ${r.cls} | ${r.speedIndexMs} ms | ${r.met ? 'yes' : '**no**'} |`,
  );
writeFileSync(
  join(root, 'bench', 'lighthouse.json'),
  JSON.stringify(
    {
      profile: 'Lighthouse default: mobile, simulated throttling',
      targets: TARGETS,
      commit: commit + dirty,
      at: new Date().toISOString(),
      rows,
    },
    null,
    2,
  ) + '\n',
);
