// The console's Auto-translate and Hosting screens in headless Chromium
// against the real service (with its job worker) and a fake Google provider
// on loopback: a job's live progress to its summary, a job started through
// REST shown live and cancelled, a
// provider key entered and shown only as set (stored sealed), publishing with
// live progress and the new status, the 409 of a publish while another runs
// (held in the publisher's hook), creating, reordering (buttons and drag and
// drop) and editing a custom environment, the publication history, and
// axe-core checks of both screens.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { axeViolations, launchBrowser, signIn } from '../support/browser.js';
import { startFakeGoogle, FAKE_GOOGLE_KEY, type FakeGoogle } from '../support/fake-providers/index.js';
import { projectIdOf, readTranslations } from '../support/content.js';
import { isSealed } from '../../src/auth/sealed-secrets.js';
import { publishEnvironment } from '../../src/hosting/publish.js';
import { gate } from '../support/gate.js';

let service: TestService;
let browser: Browser;
let google: FakeGoogle;
let alice: TestAccount;
let api: ProjectApi;
let page: Page;

const KEYS = 250;
const environmentOrder = async () => (await api.get('/api/v2/environments')).data.map((e: { key: string }) => e.key);

beforeAll(async () => {
  google = await startFakeGoogle();
  process.env.MT_PROVIDER_A_URL = google.url;
  process.env.MT_PROVIDER_A_API_KEY = FAKE_GOOGLE_KEY;
  service = await startTestService({ listen: true });
  browser = await launchBrowser();
  alice = await service.account({ email: 'alice@example.com' });
  api = await projectApi(service, alice, 'Ops app');
  for (const [key, name] of [
    ['de', 'German'],
    ['fr', 'French'],
  ])
    expect((await api.post('/api/v1/languages', { key, name })).status).toBe(200);
  const content = Array.from({ length: KEYS }, (_, i) => ({
    key: `k${String(i).padStart(3, '0')}`,
    language: 'en',
    text: `Hello {name} number ${i}`,
  }));
  expect((await api.post('/api/v1/translations', { content })).status).toBe(200);
  page = await signIn(browser, service, alice);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
  await google?.close();
  delete process.env.MT_PROVIDER_A_URL;
  delete process.env.MT_PROVIDER_A_API_KEY;
});

describe('auto-translate', () => {
  it('starts a job and follows its progress to the summary; the recent jobs list it; axe check', async () => {
    await page.goto(`${service.url}/#/projects/${api.projectToken}/auto-translate`);
    await page.getByRole('heading', { name: 'New auto-translation' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    google.setDelay(300); // three batches of 100 keys: the bar moves in steps
    await page.getByRole('combobox', { name: /^Provider/ }).selectOption('MT_PROVIDER_A');
    await page.getByRole('checkbox', { name: 'German (de)' }).check();
    expect(await page.getByLabel('Provider code for German (de)').inputValue()).toBe('de');
    await page.getByRole('button', { name: 'Start auto-translation' }).click();
    const bar = page.getByRole('progressbar', { name: 'Progress of en → de' });
    const seen = new Set<string>();
    await expect
      .poll(
        async () => {
          const value = (await bar.getAttribute('value')) ?? '';
          seen.add(value);
          return value;
        },
        { timeout: 20_000, interval: 50 },
      )
      .toBe('100');
    expect(
      [...seen].some((v) => Number(v) < 100),
      `values seen: ${[...seen].join(', ')}`,
    ).toBe(true);
    const card = page.getByRole('listitem', { name: 'Job en → de' });
    await expect
      .poll(() => card.getByRole('status').textContent())
      .toMatch(new RegExp(`^Done: Translated ${KEYS} texts`));
    expect(await card.textContent()).toMatch(/SUCCESS/);
    expect((await readTranslations(service.db, api.projectToken)).de?.k007).toBe('[de] Hello {name} number 7');
    const recent = page
      .getByRole('table', { name: 'Recent auto-translation jobs, newest first' })
      .getByRole('row')
      .nth(1);
    await expect.poll(() => recent.textContent()).toMatch(/en → de.*Provider A.*SUCCESS.*100%.*Translated 250 texts/);
  });

  it('shows a job started elsewhere (REST) live, and cancels it', async () => {
    google.setDelay(1_000);
    expect(
      (
        await api.post('/api/v1/jobs/auto-translate', {
          translationProvider: 'MT_PROVIDER_A',
          targetProjectLanguage: 'fr',
          targetLanguage: 'fr',
        })
      ).status,
    ).toBe(200);
    const card = page.getByRole('listitem', { name: 'Job en → fr' });
    await card.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => card.getByRole('status').textContent(), { timeout: 20_000 }).toMatch(/^Cancelled:/);
    const [job] = (await api.get('/api/v1/jobs')).data;
    expect(job).toMatchObject({ state: 'CANCELLED' });
    expect(await card.getByRole('button', { name: 'Cancel' }).count()).toBe(0);
    google.setDelay(0);
  });

  it('takes a provider key write-only: shown as set, stored sealed, never returned', async () => {
    const secret = 'deepl-secret-9f8e7d6c5b4a:fx';
    const row = page.locator('.provider-keys li').filter({ hasText: 'Provider B' });
    expect(await row.textContent()).toMatch(/Key not set/);
    await page.getByLabel('API key of Provider B (DeepL)').fill(secret);
    expect(await page.getByLabel('API key of Provider B (DeepL)').getAttribute('type')).toBe('password');
    await row.getByRole('button', { name: 'Save key' }).click();
    await expect.poll(() => row.textContent()).toMatch(/Key set/);
    expect(await page.getByLabel('API key of Provider B (DeepL)').inputValue()).toBe('');
    await page.reload();
    await page.locator('.provider-keys li').filter({ hasText: 'Provider B' }).getByText('Key set').waitFor();
    expect(await page.content()).not.toContain('9f8e7d6c5b4a');
    const { settings } = await service.db.prisma.project.findUniqueOrThrow({
      where: { projectToken: api.projectToken },
      select: { settings: true },
    });
    const stored = (settings as { providerApiKeys: Record<string, string> }).providerApiKeys.MT_PROVIDER_B!;
    expect(isSealed(stored)).toBe(true);
    expect(stored).not.toContain('9f8e7d6c5b4a');
    const status = await api.gql('{ providerApiKeys { provider set } }');
    expect(status.data.providerApiKeys).toEqual([
      { provider: 'MT_PROVIDER_A', set: false },
      { provider: 'MT_PROVIDER_B', set: true },
      { provider: 'LLM_OPENAI', set: false },
      { provider: 'LLM_ANTHROPIC', set: false },
    ]);
    expect(JSON.stringify(status)).not.toContain('9f8e7d6c5b4a');
  });
});

describe('hosting', () => {
  it('publishes _latest from the button and shows the new status and files; axe check', async () => {
    await page.goto(`${service.url}/#/projects/${api.projectToken}/hosting`);
    const latest = page.getByRole('listitem', { name: 'Latest (_latest)' });
    await latest.getByText('never').waitFor();
    expect(await page.title()).toBe('Hosting · Localization service');
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('Label of the next _latest publication').fill('v1');
    await latest.getByRole('button', { name: 'Publish _latest' }).click();
    await latest.getByRole('status').filter({ hasText: 'Published _latest' }).waitFor();
    const status = latest.getByRole('definition');
    await expect
      .poll(() => status.allTextContents())
      .toEqual([String(KEYS), '3', expect.stringMatching(/^\d+$/), expect.stringMatching(/\d{4}/), 'v1']);
    await latest.getByText(/^Files on the CDN \(\d+\)$/).click();
    const link = latest.getByRole('link', { name: 'de', exact: true });
    expect(await link.getAttribute('href')).toBe(`http://localhost:8080/cdn/${api.projectToken}/_latest/de`);
  });

  it('shows a running publication live, refuses a second publish (409) clearly, then shows the new status', async () => {
    const hold = gate();
    onTestFinished(() => hold.open()); // a failed step must not leave the publication held for the next tests
    const projectId = await projectIdOf(service.db, api.projectToken);
    // Every file writer (four at a time) holds after its first file: running, part-way, until opened.
    const running = publishEnvironment({
      projectId,
      environmentKey: '_latest',
      hooks: { afterResource: () => hold.wait() },
    });
    await hold.reached;
    const latest = page.getByRole('listitem', { name: 'Latest (_latest)' });
    const bar = latest.getByRole('progressbar', { name: 'Publication of _latest' });
    // The first live event may still say 0 files (the writers hold after their first): wait for the next.
    await expect
      .poll(() => latest.locator('.publish-progress').textContent(), { timeout: 10_000 })
      .toMatch(/^writing: [1-9]\d* of \d+ files$/);
    const [, done, total] = /(\d+) of (\d+)/
      .exec((await latest.locator('.publish-progress').textContent())!)!
      .map(Number);
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(total!);
    expect(Number(await bar.getAttribute('value'))).toBeLessThan(100);
    const production = page.getByRole('listitem', { name: 'Production (_production)' });
    await production.getByRole('button', { name: 'Publish _production' }).click();
    await expect
      .poll(() => production.getByRole('alert').textContent())
      .toMatch(/^Another publication is running: A publication to _latest is running/);
    hold.open();
    await running;
    await latest.getByRole('status').filter({ hasText: 'Published _latest' }).waitFor();
    expect(await latest.getByRole('progressbar').count()).toBe(0);
    // Now _production publishes from _latest.
    await production.getByRole('button', { name: 'Publish _production' }).click();
    await production.getByRole('status').filter({ hasText: 'Published _production' }).waitFor();
    await expect.poll(() => production.getByRole('definition').first().textContent()).toBe(String(KEYS));
    expect(await production.getByRole('alert').count()).toBe(0);
  });

  it('creates a custom environment, reorders it by buttons and by drag and drop, edits it', async () => {
    await page.getByLabel('Environment key').fill('staging');
    await page.getByLabel('Environment name').fill('Staging');
    await page.getByRole('button', { name: 'Create environment' }).click();
    const staging = page.getByRole('listitem', { name: 'Staging (staging)' });
    await staging.waitFor();
    expect(await staging.textContent()).toMatch(/from _production/);
    expect(await environmentOrder()).toEqual(['_latest', '_production', 'staging']);
    await staging.getByRole('button', { name: 'Move staging up' }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Moved staging' }).textContent())
      .toBe('Moved staging to position 2; it now publishes from _latest');
    expect(await environmentOrder()).toEqual(['_latest', 'staging', '_production']);
    await expect
      .poll(() =>
        page.locator('.environments > li').evaluateAll((items) => items.map((i) => i.getAttribute('aria-label'))),
      )
      .toEqual(['Latest (_latest)', 'Staging (staging)', 'Production (_production)']);
    expect(await staging.textContent()).toMatch(/from _latest/);
    await staging.dragTo(page.getByRole('listitem', { name: 'Production (_production)' }));
    await expect.poll(environmentOrder).toEqual(['_latest', '_production', 'staging']);
    await expect.poll(() => staging.textContent()).toMatch(/from _production/);
    await staging.getByRole('button', { name: 'Edit staging' }).click();
    await page.getByLabel('Name of staging').fill('Pre-production');
    await staging.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('listitem', { name: 'Pre-production (staging)' }).waitFor();
  });

  it('lists the publications with time, source and who published; axe check', async () => {
    const rows = page.getByRole('table').getByRole('row');
    await expect.poll(() => rows.count()).toBe(4);
    const texts = await rows.allTextContents();
    expect(texts[1]).toMatch(/_production.*_latest.*alice@example\.com \(web\).*COMPLETE/);
    expect(texts[2]).toMatch(/_latest.*editor.*system.*COMPLETE/);
    expect(texts[3]).toMatch(/_latest.*editor.*alice@example\.com \(web\).*COMPLETE.*v1/);
    expect(await axeViolations(page)).toEqual([]);
  });
});
