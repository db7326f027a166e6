// The console's settings per language on the Auto-translate screen, in
// headless Chromium against the real service and a fake DeepL on loopback:
// the table says what a job for each language would use and which one would
// be skipped; a language's settings edited (provider, codes, formality),
// saved and used by the command-line client's request; a language DeepL
// cannot serve given another provider; a reset; an axe-core check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { axeViolations, launchBrowser, signIn } from '../support/browser.js';
import { startFakeDeepl, FAKE_DEEPL_KEY, type FakeDeepl } from '../support/fake-providers/index.js';

let service: TestService;
let browser: Browser;
let deepl: FakeDeepl;
let alice: TestAccount;
let api: ProjectApi;
let page: Page;

const SETTINGS =
  '{ autoTranslationSettings { languageKey origin translationProvider sourceLanguage targetLanguage providerFormality problem } }';
const settingsOf = async (key: string) =>
  (await api.gql(SETTINGS)).data.autoTranslationSettings.find((s: { languageKey: string }) => s.languageKey === key);
const row = (name: string) =>
  page
    .getByRole('table', { name: 'Auto-translation settings of each language' })
    .getByRole('row', { name: new RegExp(`^${name.replace(/[()]/g, '\\$&')}`) });

beforeAll(async () => {
  deepl = await startFakeDeepl();
  process.env.MT_PROVIDER_B_URL = deepl.url;
  process.env.MT_PROVIDER_B_API_KEY = FAKE_DEEPL_KEY;
  service = await startTestService({ listen: true });
  browser = await launchBrowser();
  alice = await service.account({ email: 'settings-mt@example.com' });
  api = await projectApi(service, alice, 'Languages app');
  for (const [key, name] of [
    ['de', 'German'],
    ['tlh', 'Klingon'],
  ])
    expect((await api.post('/api/v1/languages', { key, name })).status).toBe(200);
  expect(
    (await api.post('/api/v1/translations', { content: [{ key: 'hello', language: 'en', text: 'Hello' }] })).status,
  ).toBe(200);
  page = await signIn(browser, service, alice);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
  await deepl?.close();
  delete process.env.MT_PROVIDER_B_URL;
  delete process.env.MT_PROVIDER_B_API_KEY;
});

describe('auto-translation settings per language', () => {
  it('shows what each language would use, edits and saves one, and the client request uses it', async () => {
    await page.goto(`${service.url}/#/projects/${api.projectToken}/auto-translate`);
    await page.getByRole('heading', { name: 'Settings per language' }).waitFor();
    await expect
      .poll(() => row('German (de)').textContent())
      .toMatch(/Provider B \(DeepL\).*en.*EN → DE.*Defaults.*Ready/);
    expect(await row('Klingon (tlh)').textContent()).toMatch(/Skipped: MT_PROVIDER_B cannot translate into 'tlh'/);
    expect(await row('English (en)').textContent()).toMatch(/Source language/);

    await page.getByRole('button', { name: 'Edit settings of German (de)' }).click();
    const form = page.getByRole('form', { name: 'Settings of German (de)' });
    await form.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(await form.getByRole('combobox', { name: 'Provider' }).inputValue()).toBe('');
    expect(await form.getByRole('textbox', { name: 'Target code at the provider' }).inputValue()).toBe('DE');
    await form.getByRole('combobox', { name: 'Provider' }).selectOption('MT_PROVIDER_B');
    await form.getByRole('textbox', { name: 'Target code at the provider' }).fill('DE');
    await form.getByRole('textbox', { name: 'Source code at the provider' }).fill('EN');
    await form.getByRole('combobox', { name: 'Formality' }).selectOption('less');
    await form.getByRole('button', { name: 'Save settings' }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Saved the settings' }).textContent())
      .toBe('Saved the settings of German (de)');
    expect(await settingsOf('de')).toEqual({
      languageKey: 'de',
      origin: 'SAVED',
      translationProvider: 'MT_PROVIDER_B',
      sourceLanguage: 'EN',
      targetLanguage: 'DE',
      providerFormality: 'less',
      problem: null,
    });
    await expect.poll(() => row('German (de)').textContent()).toMatch(/EN → DE, formality less.*Saved.*Ready/);

    // A bad code is refused with the service's message, nothing saved.
    await page.getByRole('button', { name: 'Edit settings of German (de)' }).click();
    await form.getByRole('textbox', { name: 'Target code at the provider' }).fill('de-DE');
    await form.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toMatch(/targetLanguage "de-DE"/);
    expect((await settingsOf('de')).targetLanguage).toBe('DE');
    await form.getByRole('button', { name: 'Cancel' }).click();

    // Klingon: the offline provider serves it.
    await page.getByRole('button', { name: 'Edit settings of Klingon (tlh)' }).click();
    await page
      .getByRole('form', { name: 'Settings of Klingon (tlh)' })
      .getByRole('combobox', { name: 'Provider' })
      .selectOption('PSEUDO');
    await page
      .getByRole('form', { name: 'Settings of Klingon (tlh)' })
      .getByRole('button', { name: 'Save settings' })
      .click();
    await expect.poll(() => row('Klingon (tlh)').textContent()).toMatch(/Pseudo-localization.*Saved.*Ready/);

    // The command-line client's request, every language: both run with these settings.
    const res = await service.request({
      method: 'POST',
      url: '/api/v2/jobs/auto-translate',
      headers: { 'X-SIMPLELOCALIZE-token': api.apiKey },
      payload: { languageKeys: [], source: 'CLI', options: [] },
    });
    expect(res.statusCode).toBe(200);
    await expect
      .poll(async () => (await api.get('/api/v2/jobs?status=SUCCESS')).data.length, { timeout: 20_000 })
      .toBe(2);
    expect(deepl.translateCalls().map((c) => [c.target_lang, c.source_lang, c.formality])).toEqual([
      ['DE', 'EN', 'less'],
    ]);

    // Reset: the defaults again.
    await page.getByRole('button', { name: 'Edit settings of German (de)' }).click();
    await page
      .getByRole('form', { name: 'Settings of German (de)' })
      .getByRole('button', { name: 'Reset to defaults' })
      .click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Reset the settings' }).textContent())
      .toBe('Reset the settings of German (de)');
    // The job just run is now German's last job: its values are the initial ones again.
    expect(await settingsOf('de')).toMatchObject({
      origin: 'LAST_JOB',
      targetLanguage: 'DE',
      providerFormality: 'less',
    });
  });
});
