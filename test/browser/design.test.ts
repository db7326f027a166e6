// The console's design system (web/src/design.css): the dark theme follows the
// system's colour scheme and the user's choice in the top bar (remembered in
// the browser), and every main screen passes axe (contrast included) in light
// and in dark.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { axeViolations, launchBrowser, signIn } from '../support/browser.js';

let service: TestService;
let browser: Browser;
let alice: TestAccount;
let api: ProjectApi;
let page: Page;

/** The page's background as the browser paints it: [r, g, b]. */
const background = (target: Page) =>
  target.evaluate(() =>
    getComputedStyle(document.documentElement).backgroundColor.match(/\d+/g)!.slice(0, 3).map(Number),
  );
const isDark = async (target: Page) => (await background(target)).every((c) => c < 60);

beforeAll(async () => {
  service = await startTestService({ listen: true, worker: false });
  browser = await launchBrowser();
  alice = await service.account({ email: 'alice@example.com' });
  api = await projectApi(service, alice, 'Shop app');
  expect((await api.post('/api/v1/languages', { key: 'de', name: 'German' })).status).toBe(200);
  const content = [];
  for (let i = 0; i < 12; i++) {
    const key = `item.${String(i).padStart(2, '0')}`;
    content.push({ key, language: 'en', text: `Item ${i} {name}` });
    if (i % 2 === 0) content.push({ key, language: 'de', text: `Artikel ${i}` });
  }
  expect((await api.post('/api/v1/translations', { content })).status).toBe(200);
  expect((await api.patch('/api/v1/translation-keys?key=item.01', { lock: true })).status).toBe(200);
  page = await signIn(browser, service, alice);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
});

describe('theme', () => {
  it("follows the system's colour scheme until the user chooses, and remembers the choice", async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await isDark(page)).toBe(false);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await isDark(page)).toBe(true);
    const theme = page.getByRole('combobox', { name: 'Theme' });
    expect(await theme.inputValue()).toBe('system');
    // The user's choice wins over the system's, and survives a reload.
    await theme.selectOption('light');
    expect(await isDark(page)).toBe(false);
    await page.reload();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    expect(await isDark(page)).toBe(false);
    expect(await page.getByRole('combobox', { name: 'Theme' }).inputValue()).toBe('light');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByRole('combobox', { name: 'Theme' }).selectOption('dark');
    expect(await isDark(page)).toBe(true);
    await page.reload();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    expect(await isDark(page)).toBe(true);
    // Back to the system's.
    await page.getByRole('combobox', { name: 'Theme' }).selectOption('system');
    expect(await isDark(page)).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem('console.theme'))).toBeNull();
  });
});

describe('axe in light and dark', () => {
  const screens: [string, string, string][] = [
    ['translations', 'gridcell', 'item.00 in de'],
    ['quality', 'heading', 'Quality'],
    ['glossary', 'heading', 'Glossary'],
    ['import', 'heading', 'Import'],
    ['export', 'heading', 'Export'],
    ['hosting', 'heading', 'Hosting'],
    ['members', 'heading', 'Members'],
    ['activity', 'heading', 'Activity'],
    ['settings', 'heading', 'Project settings'],
  ];
  for (const scheme of ['light', 'dark'] as const) {
    it(`has no serious axe violation on the main screens (${scheme})`, async () => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(service.url + '/#/');
      await page.getByRole('heading', { name: 'Shop app' }).waitFor();
      expect(await isDark(page)).toBe(scheme === 'dark');
      expect(await axeViolations(page), 'projects').toEqual([]);
      for (const [section, role, name] of screens) {
        await page.goto(`${service.url}/#/projects/${api.projectToken}/${section}`);
        await page
          .getByRole(role as 'heading', { name: new RegExp(`^${name}`) })
          .first()
          .waitFor();
        // Lazy parts (the editor's rows, the screen's lists) settle first.
        await page.waitForLoadState('networkidle');
        expect(await axeViolations(page), section).toEqual([]);
      }
      await page.goto(service.url + '/#/account');
      await page.getByRole('heading', { name: 'Account settings' }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(await axeViolations(page), 'account').toEqual([]);
      await page.screenshot({ path: `/tmp/design-${scheme}-account.png` });
      await page.goto(`${service.url}/#/projects/${api.projectToken}/translations`);
      await page.getByRole('gridcell', { name: /^item.00 in de/ }).waitFor();
      await page.screenshot({ path: `/tmp/design-${scheme}-editor.png` });
      // Ten screens, each checked by axe: a minute on a loaded machine.
    }, 240_000);
  }
});
