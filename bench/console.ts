// The web console's editor on a large project, measured in headless Chromium
// (printed, not asserted): 100,000 keys × 10 languages (BENCH_CONSOLE_KEYS to
// change), on PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL is set,
// PGlite otherwise.
//   npm run bench:console
// - first usable paint: from navigation to the first row's cells on screen;
// - filter change: from typing a text filter to the updated row count;
// - cell save: from Enter to the "Saved" status (the mutation confirmed);
// - scroll: 10,000 rows in wheel-sized steps, the longest task (PerformanceObserver 'longtask').
import { randomBytes } from 'node:crypto';
import { createAccount } from '../src/accounts/accounts.js';
import { prisma } from '../src/db.js';
import { Prisma } from '../src/generated/prisma/client.js';
import { launchChromium } from '../scripts/lib/chromium.js';
import { postgresUrl, startBenchService } from './lib/service.js';

const KEYS = Number(process.env.BENCH_CONSOLE_KEYS ?? 100_000);
const LANGUAGES = 10;
const kind = postgresUrl() ? 'postgres' : 'pglite';

const bench = await startBenchService(kind);
const browser = await launchChromium();
try {
  const email = `console-${randomBytes(3).toString('hex')}@example.com`;
  const password = 'bench-console-password';
  const account = await createAccount({ email, password }, bench.service.config.defaultPlan);
  const { projectToken } = await bench.project('Large');
  const project = await prisma().project.findFirstOrThrow({ where: { projectToken }, select: { id: true } });
  // The console signs in with a password: a member account of its own.
  await prisma().projectMember.create({ data: { projectId: project.id, accountId: account.id } });
  const seeded = Date.now();
  await prisma()
    .$executeRaw(Prisma.sql`/* bench:console-languages */ INSERT INTO "Language" ("projectId", key, name, "order", "isDefault")
    SELECT ${project.id}, 'l' || n, 'Language ' || n, n, false FROM generate_series(1, ${LANGUAGES - 1}::int) n`);
  await prisma()
    .$executeRaw(Prisma.sql`/* bench:console-keys */ INSERT INTO "TranslationKey" ("projectId", key, namespace)
    SELECT ${project.id}, 'key.' || lpad(n::text, 6, '0'), 'ns' || (n % 5) FROM generate_series(1, ${KEYS}::int) n`);
  await prisma()
    .$executeRaw(Prisma.sql`/* bench:console-translations */ INSERT INTO "Translation" ("keyId", "languageId", "projectId", text)
     SELECT k.id, l.id, ${project.id}, l.key || ': text of ' || k.key || ' with {name}' FROM "TranslationKey" k JOIN "Language" l ON l."projectId" = k."projectId"
      WHERE k."projectId" = ${project.id} AND (l."isDefault" OR k.id % 10 <> 0)`);
  await prisma().$executeRaw(Prisma.sql`ANALYZE`);
  console.log(
    `seeded ${KEYS.toLocaleString('en')} keys × ${LANGUAGES} languages on ${kind} in ${((Date.now() - seeded) / 1000).toFixed(1)} s`,
  );

  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  const page = await context.newPage();
  await page.goto(`${bench.url}/`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Projects' }).waitFor();
  await page.addInitScript(() => {
    const w = window as unknown as { longTasks: number[] };
    w.longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.longTasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  });

  const results: [string, string, string][] = [];
  // First usable paint (median of 3 navigations).
  const paints: number[] = [];
  for (let i = 0; i < 3; i++) {
    await page.goto('about:blank');
    const started = Date.now();
    await page.goto(`${bench.url}/#/projects/${projectToken}`);
    await page.getByRole('gridcell', { name: /^key\.000005 in en:/ }).waitFor();
    paints.push(Date.now() - started);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  results.push(['editor first usable paint', `${median(paints)} ms`, '< 1500 ms']);

  // Filter change to updated rows (median of 3 filters).
  const filters: number[] = [];
  for (const text of ['key.00042', 'text of key.0999', 'with {name}']) {
    const before = await page.locator('.count').textContent();
    const started = Date.now();
    await page.getByLabel('Text contains').fill(text);
    await page.waitForFunction(
      (previous) => {
        const c = document.querySelector('.count')?.textContent;
        return c && c !== previous && !c.startsWith('Loading');
      },
      before,
      { polling: 'raf' },
    );
    filters.push(Date.now() - started);
  }
  await page.getByRole('button', { name: 'Clear filters' }).click();
  // The last filter may have matched every key too: let the cleared filter's rows arrive.
  await page.waitForTimeout(500);
  await page.waitForFunction(
    (n) => document.querySelector('.count')?.textContent === `${n} keys`,
    KEYS.toLocaleString('en'),
    { polling: 'raf' },
  );
  results.push(['filter change to updated rows', `${median(filters)} ms (${filters.join(', ')})`, '< 300 ms']);

  // Cell save to confirmed (median of 5).
  const saves: number[] = [];
  for (let i = 0; i < 5; i++) {
    await page.getByRole('gridcell', { name: /^key\.000005 in l1:/ }).click();
    await page.keyboard.press('Enter');
    const box = page.getByRole('textbox', { name: 'Translation of key.000005 in l1' });
    await box.fill(`Saved ${i} {name}`);
    await page.locator('.cell.editing .counter', { hasText: `${`Saved ${i} {name}`.length} characters` }).waitFor();
    const started = Date.now();
    await box.press('Enter');
    // Confirmed: the cell shows the text the mutation answered.
    await page.waitForFunction(
      (text) =>
        [...document.querySelectorAll('[role="gridcell"][aria-label^="key.000005 in l1:"]')].some((c) =>
          c.getAttribute('aria-label')!.includes(text),
        ),
      `Saved ${i} {name}`,
      { polling: 'raf' },
    );
    saves.push(Date.now() - started);
  }
  results.push(['cell save to confirmed', `${median(saves)} ms`, '< 150 ms']);

  // Scroll through 10,000 rows: 400 px per frame, like a fast wheel.
  // BENCH_CONSOLE_PROFILE=1 records a CPU profile of the scroll and prints where its time went;
  // BENCH_CONSOLE_TRACE=1 records a browser trace and prints the main thread's time by kind of work
  // (script, style, layout, paint…), which a CPU profile shows only as "(program)".
  const cdp = process.env.BENCH_CONSOLE_PROFILE ? await context.newCDPSession(page) : undefined;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.start');
  }
  const tracing = !!process.env.BENCH_CONSOLE_TRACE;
  if (tracing)
    await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  await page.evaluate(() => {
    (window as unknown as { longTasks: number[] }).longTasks = [];
  });
  const scrolled = Date.now();
  await page.evaluate(async () => {
    const scroller = document.querySelector<HTMLElement>('[data-testid="grid-scroll"]')!;
    const target = Math.min(10_000 * 64, scroller.scrollHeight - scroller.clientHeight - 1);
    // The position is kept here, not read back each step: reading scrollTop
    // forces a layout, which a wheel does not, and its cost would be counted.
    for (let y = scroller.scrollTop + 400; y <= target + 400; y += 400) {
      scroller.scrollTop = Math.min(y, target);
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
  });
  await page
    .getByRole('gridcell', { name: /in en: en:/ })
    .first()
    .waitFor();
  const longTasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
  if (cdp) {
    const { profile } = await cdp.send('Profiler.stop');
    const interval = (profile.endTime - profile.startTime) / 1000 / Math.max(1, profile.samples?.length ?? 1);
    const self = new Map<string, number>();
    for (const node of profile.nodes) {
      const { functionName, url, lineNumber, columnNumber } = node.callFrame;
      const name = `${functionName || '(anonymous)'} ${url.split('/').pop()}:${lineNumber + 1}:${columnNumber + 1}`;
      self.set(name, (self.get(name) ?? 0) + (node.hitCount ?? 0) * interval);
    }
    console.log('scroll profile, self time (ms):');
    for (const [name, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25))
      console.log(`  ${ms.toFixed(0).padStart(7)}  ${name}`);
  }
  if (tracing) printTraceBreakdown(await browser.stopTracing());
  results.push([
    'scroll through 10,000 rows',
    `${((Date.now() - scrolled) / 1000).toFixed(1)} s, longest task ${longTasks.length ? Math.round(Math.max(...longTasks)) : 0} ms (${longTasks.length} over 50 ms)`,
    'no task over 50 ms',
  ]);

  console.log(`\nconsole editor, ${KEYS.toLocaleString('en')} keys × ${LANGUAGES} languages, ${kind}`);
  for (const [name, value, goal] of results) console.log(`${name.padEnd(32)} ${value.padEnd(44)} goal ${goal}`);
} finally {
  await browser.close();
  await bench.close();
}

/** Main-thread time of a trace by event name (self time: nested events are subtracted from their parent). */
function printTraceBreakdown(trace: Buffer): void {
  type Event = { name: string; ph: string; ts: number; dur?: number; tid: number; pid: number };
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: Event[] }).traceEvents;
  // The renderer's main thread: the thread with the most RunTask time.
  const busy = new Map<string, number>();
  for (const e of events)
    if (e.ph === 'X' && e.name === 'RunTask')
      busy.set(`${e.pid}:${e.tid}`, (busy.get(`${e.pid}:${e.tid}`) ?? 0) + (e.dur ?? 0));
  const main = [...busy].sort((a, b) => b[1] - a[1])[0]?.[0];
  const complete = events
    .filter((e) => e.ph === 'X' && `${e.pid}:${e.tid}` === main && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const self = new Map<string, number>();
  const stack: Event[] = [];
  for (const e of complete) {
    while (stack.length && stack[stack.length - 1]!.ts + stack[stack.length - 1]!.dur! <= e.ts) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - e.dur!);
    self.set(e.name, (self.get(e.name) ?? 0) + e.dur!);
    stack.push(e);
  }
  console.log('scroll trace, main thread self time (ms):');
  for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 15))
    console.log(`  ${(us / 1000).toFixed(0).padStart(7)}  ${name}`);
  // The long tasks, each with what it spent its time on (the events directly inside it).
  const long = complete
    .filter((e) => e.name === 'RunTask' && e.dur! > 50_000)
    .sort((a, b) => b.dur! - a.dur!)
    .slice(0, 8);
  for (const task of long) {
    const inside = new Map<string, number>();
    for (const e of complete) {
      if (e === task || e.ts < task.ts || e.ts + e.dur! > task.ts + task.dur!) continue;
      const parent = complete.find(
        (p) =>
          p !== e && p !== task && p.ts <= e.ts && p.ts + p.dur! >= e.ts + e.dur! && p.ts >= task.ts && p.dur! > e.dur!,
      );
      if (!parent) inside.set(e.name, (inside.get(e.name) ?? 0) + e.dur!);
    }
    console.log(
      `  long task ${(task.dur! / 1000).toFixed(0)} ms: ${[...inside]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 5)
        .map(([n, us]) => `${n} ${(us / 1000).toFixed(0)}`)
        .join(', ')}`,
    );
  }
}
