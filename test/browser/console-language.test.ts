// The console in the user's language, in headless Chromium against the real
// service: a browser whose language is German (locale de-DE) gets the console
// in German from the sign-in on (<html lang="de">), with German plurals,
// numbers and dates, and no axe violation; switching the language in the
// account settings to English changes the console at once, and the choice
// outlives a reload. The service's own messages are German too: a refusal, a
// quality check's finding (in the editor and stored), a job's summary.
// (Browsers in English get English: every other browser test.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { axeViolations, launchBrowser } from '../support/browser.js';

let service: TestService;
let browser: Browser;
let account: TestAccount;
let api: ProjectApi;
let page: Page;

const KEYS = 1_234;
const lang = () => page.evaluate(() => document.documentElement.lang);

beforeAll(async () => {
  // With the job worker: a job's summary is one of the service's messages shown in German.
  service = await startTestService({ listen: true });
  browser = await launchBrowser();
  account = await service.account({ email: 'sprache@example.com' });
  api = await projectApi(service, account, 'Webshop');
  const content = Array.from({ length: KEYS }, (_, i) => ({ key: `key.${i}`, language: 'en', text: `Text ${i}` }));
  expect((await api.post('/api/v1/translations', { content })).status).toBe(200);
  const context = await browser.newContext({
    locale: 'de-DE',
    viewport: { width: 1400, height: 900 },
    bypassCSP: true, // axe-core is injected
  });
  page = await context.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
});

describe('a German browser', () => {
  it('signs in on a German page and sees the projects in German, with German numbers and plurals', async () => {
    await page.goto(service.url + '/');
    await page.getByRole('heading', { name: 'Anmelden' }).waitFor();
    expect(await lang()).toBe('de');
    expect(await page.title()).toBe('Anmelden · Lokalisierungsdienst');
    await page.getByLabel('E-Mail').fill(account.email);
    await page.getByLabel('Passwort').fill(account.password);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.getByRole('heading', { name: 'Projekte' }).waitFor();
    const card = page.getByRole('list', { name: 'Projekte' }).getByRole('listitem').filter({ hasText: 'Webshop' });
    // 1.234 with a German thousands separator; "Schlüssel" is its own plural.
    expect(await card.textContent()).toContain('1.234 Schlüssel');
    expect(await card.getByRole('progressbar', { name: 'English (en) übersetzt' }).count()).toBe(1);
    // One second ago is singular ("vor 1 Sekunde"): the card is read whenever the page has loaded.
    expect(await card.textContent()).toMatch(
      /Letzte Aktivität (jetzt|vor (1 Sekunde|\d+ Sekunden|1 Minute|\d+ Minuten))/,
    );
    expect(await axeViolations(page)).toEqual([]);
  });

  it('shows dates in German in the account settings and has one German plural and its singular', async () => {
    await page.getByRole('link', { name: 'Kontoeinstellungen' }).click();
    await page.getByRole('heading', { name: 'Kontoeinstellungen', level: 1 }).waitFor();
    const sessions = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Angemeldet' }) });
    // dd.mm.yyyy, hh:mm:ss
    expect(await sessions.getByRole('cell').nth(1).textContent()).toMatch(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}:\d{2}$/);
    expect(await axeViolations(page)).toEqual([]);
    // The editor's count: singular and plural of the same noun.
    await page.goto(`${service.url}/#/projects/${api.projectToken}/translations?key=key.7`);
    await expect.poll(() => page.locator('.editor-head .count').textContent()).toBe('1 Schlüssel');
    // One entry: the singular of a noun whose plural differs (Eintrag, Einträge).
    await page.goto(`${service.url}/#/projects/${api.projectToken}/activity`);
    await expect.poll(() => page.locator('.team-head .count').textContent()).toBe('1 Eintrag');
    await page.goto(`${service.url}/#/projects/${api.projectToken}/quality`);
    await page.getByRole('heading', { name: 'Qualität', level: 1 }).waitFor();
    expect(await page.getByRole('list', { name: 'Offene Befunde nach Schweregrad' }).textContent()).toMatch(
      /0 Fehler.*0 Warnungen.*0 Hinweise/,
    );
  });

  it('switches to English in the account settings at once, and keeps English after a reload', async () => {
    await page.goto(`${service.url}/#/account`);
    const choice = page.getByRole('combobox', { name: 'Sprache der Konsole' });
    expect(await choice.inputValue()).toBe('de');
    await choice.selectOption('en');
    await page.getByRole('heading', { name: 'Account settings', level: 1 }).waitFor();
    expect(await lang()).toBe('en');
    expect(await page.getByRole('link', { name: 'Account settings' }).count()).toBe(1);
    await page.reload();
    await page.getByRole('heading', { name: 'Account settings', level: 1 }).waitFor();
    expect(await lang()).toBe('en');
    expect(await page.getByRole('combobox', { name: 'Console language' }).inputValue()).toBe('en');
    await page.getByRole('link', { name: 'Localization service' }).click();
    const card = page.getByRole('list', { name: 'Projects' }).getByRole('listitem').filter({ hasText: 'Webshop' });
    await expect.poll(() => card.textContent()).toContain('1,234 keys');
    // And back to German, for whoever uses this browser next.
    await page.goto(`${service.url}/#/account`);
    await page.getByRole('combobox', { name: 'Console language' }).selectOption('de');
    await page.getByRole('heading', { name: 'Kontoeinstellungen', level: 1 }).waitFor();
    expect(await lang()).toBe('de');
  });
});

describe("the service's messages in a German browser", () => {
  it('shows a refusal, a check finding and a job summary in German', async () => {
    expect((await api.post('/api/v1/languages', { key: 'de', name: 'Deutsch' })).status).toBe(200);
    const content = [
      { key: 'greeting', language: 'en', text: 'Hello {name}.' },
      { key: 'greeting', language: 'de', text: 'Hallo.' },
    ];
    expect((await api.post('/api/v1/translations', { content })).status).toBe(200);

    // A refusal: the key exists (the service's CONFLICT, worded by its messageText).
    await page.goto(`${service.url}/#/projects/${api.projectToken}/translations?key=greeting`);
    const form = page.getByRole('form', { name: 'Schlüssel anlegen' });
    await form.getByLabel('Neuer Schlüssel').fill('greeting');
    await form.getByRole('button', { name: 'Schlüssel anlegen' }).click();
    await expect.poll(() => form.textContent()).toContain('Nicht angelegt: Schlüssel „greeting“ gibt es schon');

    // A check's finding while the text is shown in the editor (the checks run in the console) ...
    const cell = page.getByRole('gridcell', { name: /^greeting in de: Hallo\./ });
    expect(await cell.getAttribute('aria-label')).toContain(
      'Platzhalter {name} fehlt: Übernehmen Sie ihn so in die Übersetzung, wie er im Ausgangstext steht',
    );
    // ... and as the service stored it, on the Quality screen, under the check's German name.
    await page.goto(`${service.url}/#/projects/${api.projectToken}/quality`);
    const finding = page.getByRole('table', { name: 'Befunde' }).getByRole('row').filter({ hasText: 'greeting' });
    await expect
      .poll(() => finding.first().textContent(), { timeout: 15_000 })
      .toContain('Platzhalter fehltPlatzhalter {name} fehlt: Übernehmen Sie ihn so in die Übersetzung');

    // A job's summary: "1.234 Texte übersetzt (… Zeichen)".
    const started = await api.post('/api/v1/jobs/auto-translate', {
      translationProvider: 'PSEUDO',
      targetProjectLanguage: 'de',
      targetLanguage: 'de',
      sourceProjectLanguage: 'en',
    });
    expect(started.status).toBe(200);
    await expect
      .poll(async () => (await api.get(`/api/v1/jobs/${started.data.jobId}`)).data.state, { timeout: 30_000 })
      .toBe('SUCCESS');
    await page.goto(`${service.url}/#/projects/${api.projectToken}/auto-translate`);
    const jobs = page.getByRole('table', { name: 'Letzte Aufträge zur automatischen Übersetzung, neueste zuerst' });
    await expect.poll(() => jobs.textContent()).toMatch(/1\.234 Texte übersetzt \(\d{1,3}(\.\d{3})* Zeichen\)/);
    expect(await axeViolations(page)).toEqual([]);
  });
});
