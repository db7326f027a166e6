// The editor's grid as a spreadsheet (#39): compact rows (25 keys and more in
// view at 1440×900, texts wrapped on demand), the key column sticking while the
// languages scroll sideways, each language's progress in its header, editing
// by a click or by typing on a cell (Enter, F2 and double-click too), the save's
// outcome on the cell until the next action, and the empty project's ways in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { axeViolations, launchBrowser, signIn } from '../support/browser.js';

let service: TestService;
let browser: Browser;
let alice: TestAccount;
let api: ProjectApi;
let empty: ProjectApi;
let page: Page;

const cell = (key: string, language: string) =>
  page.getByRole('gridcell', { name: new RegExp(`^${key.replace('.', '\\.')} in ${language}:`) });
const textbox = (key: string, language: string) =>
  page.getByRole('textbox', { name: `Translation of ${key} in ${language}` });
const LONG = 'A long text that does not fit in one line of its column. '.repeat(4).trim();

beforeAll(async () => {
  service = await startTestService({ listen: true, worker: false });
  browser = await launchBrowser();
  alice = await service.account({ email: 'alice@example.com' });
  api = await projectApi(service, alice, 'Shop app');
  empty = await projectApi(service, alice, 'Empty app');
  for (const [key, name] of [
    ['de', 'German'],
    ['fr', 'French'],
    ['pl', 'Polish'],
  ])
    expect((await api.post('/api/v1/languages', { key, name })).status).toBe(200);
  const content = [];
  for (let i = 0; i < 40; i++) {
    const key = `item.${String(i).padStart(2, '0')}`;
    content.push({ key, language: 'en', text: i === 3 ? LONG : `Item ${i}` });
    if (i % 2 === 0) content.push({ key, language: 'de', text: `Artikel ${i}` });
  }
  expect((await api.post('/api/v1/translations', { content })).status).toBe(200);
  page = await signIn(browser, service, alice);
  await page.setViewportSize({ width: 1440, height: 900 });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
});

describe('the grid', () => {
  it('shows at least 25 keys at 1440×900, one line each; wraps texts on demand', async () => {
    await page.goto(`${service.url}/#/projects/${api.projectToken}/translations`);
    await cell('item.00', 'en').waitFor();
    // The steady state: the first-run checklist (onboarding.test.ts) dismissed.
    await page.getByRole('button', { name: 'Dismiss' }).click();
    const inView = () =>
      page.evaluate(() => {
        const box = document.querySelector('[data-testid="grid-scroll"]')!.getBoundingClientRect();
        return [...document.querySelectorAll('.grid-row')].filter((row) => {
          const r = row.getBoundingClientRect();
          return r.top >= box.top && r.bottom <= Math.min(box.bottom, innerHeight) + 0.5;
        }).length;
      });
    expect(await inView()).toBeGreaterThanOrEqual(25);
    const height = () => cell('item.03', 'en').evaluate((el) => el.getBoundingClientRect().height);
    expect(await height()).toBeLessThan(30);
    await page.getByRole('checkbox', { name: 'Wrap texts' }).check();
    await expect.poll(height).toBeGreaterThan(40);
    // Rows below a grown one move down with it.
    const gap = await page.evaluate(() => {
      const [a, b] = ['item.03 in en', 'item.04 in en'].map((name) =>
        document.querySelector(`[aria-label^="${name}:"]`)!.getBoundingClientRect(),
      );
      return b!.top - a!.bottom;
    });
    expect(Math.abs(gap)).toBeLessThan(2);
    await page.getByRole('checkbox', { name: 'Wrap texts' }).uncheck();
    await expect.poll(height).toBeLessThan(30);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('keeps the key column in view while the languages scroll sideways', async () => {
    await page.setViewportSize({ width: 700, height: 900 });
    const scroller = page.getByTestId('grid-scroll');
    await scroller.evaluate((el) => el.scrollTo({ left: 400 }));
    await expect.poll(() => scroller.evaluate((el) => el.scrollLeft)).toBeGreaterThan(300);
    const left = await scroller.evaluate((el) => el.getBoundingClientRect().left);
    const key = page.getByRole('rowheader', { name: 'item.00' });
    expect(Math.abs((await key.evaluate((el) => el.getBoundingClientRect().left)) - left)).toBeLessThan(2);
    const head = page.getByRole('columnheader', { name: 'Key' });
    expect(Math.abs((await head.evaluate((el) => el.getBoundingClientRect().left)) - left)).toBeLessThan(2);
    await scroller.evaluate((el) => el.scrollTo({ left: 0 }));
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it("shows each language's progress in its header, and it moves when a text is filled", async () => {
    const german = page.getByRole('progressbar', { name: 'German (de) translated' });
    expect(await german.getAttribute('value')).toBe('50');
    expect(await page.getByRole('progressbar', { name: 'English (en) translated' }).getAttribute('value')).toBe('100');
    expect(await page.getByRole('progressbar', { name: 'French (fr) translated' }).getAttribute('value')).toBe('0');
    expect(await page.getByRole('columnheader', { name: /German \(de\)/ }).textContent()).toMatch(/50%/);
    // A click edits the cell.
    await cell('item.01', 'de').click();
    await textbox('item.01', 'de').fill('Artikel 1');
    await page.keyboard.press('Enter');
    await expect.poll(() => german.getAttribute('value')).toBe('52');
  });
});

describe('editing', () => {
  it('starts an edit with the character typed on a focused cell, and shows the save on the cell until the next action', async () => {
    await cell('item.05', 'fr').click();
    await page.keyboard.press('Escape');
    await expect.poll(() => cell('item.05', 'fr').getAttribute('class')).toMatch(/\bactive\b/);
    await page.keyboard.type('Element 5');
    expect(await textbox('item.05', 'fr').inputValue()).toBe('Element 5');
    await page.keyboard.press('Enter');
    const status = cell('item.05', 'fr').locator('.cell-status');
    await expect.poll(() => status.textContent()).toBe('Saved');
    expect(await cell('item.05', 'fr').getAttribute('aria-label')).toMatch(/Element 5, saved$/);
    expect(await page.getByRole('status').filter({ hasText: 'Saved item.05 (fr)' }).count()).toBe(1);
    // The next action clears it: a move to another cell.
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => status.count()).toBe(0);
    expect(await page.getByRole('status').filter({ hasText: 'Saved' }).count()).toBe(0);
    // A typed character replaces the text, as in a spreadsheet; Escape keeps the old one.
    await page.keyboard.type('x');
    expect(await textbox('item.06', 'fr').inputValue()).toBe('x');
    await page.keyboard.press('Escape');
    // Enter and F2 edit the text as it is; double-click too.
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Enter');
    expect(await textbox('item.06', 'de').inputValue()).toBe('Artikel 6');
    await page.keyboard.press('Escape');
    await page.keyboard.press('F2');
    expect(await textbox('item.06', 'de').inputValue()).toBe('Artikel 6');
    await page.keyboard.press('Escape');
    await cell('item.07', 'en').dblclick();
    expect(await textbox('item.07', 'en').inputValue()).toBe('Item 7');
    await page.keyboard.press('Escape');
    // Space still toggles the review, and does not start an edit.
    await page.keyboard.press(' ');
    await expect.poll(() => cell('item.07', 'en').getAttribute('aria-label')).toMatch(/reviewed/);
    expect(await textbox('item.07', 'en').count()).toBe(0);
  });

  it('counts in words: "1 key"', async () => {
    await page.getByLabel('Key contains').fill('item.07');
    await expect.poll(() => page.locator('.editor-head .count').textContent()).toBe('1 key');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => page.locator('.editor-head .count').textContent()).toBe('40 keys');
  });
});

describe('an empty project', () => {
  it('shows the ways in: import a file, create a key, the command for a script', async () => {
    await page.goto(`${service.url}/#/projects/${empty.projectToken}/translations`);
    const section = page.getByRole('region', { name: 'This project has no keys yet' });
    await section.waitFor();
    expect(await page.getByRole('grid').count()).toBe(0);
    expect(await section.getByRole('link', { name: 'Import a file' }).getAttribute('href')).toBe(
      `#/projects/${empty.projectToken}/import`,
    );
    const command = await section.getByLabel('Import command').textContent();
    expect(command).toContain(`${service.url}/api/v2/import?uploadFormat=single-language-json&languageKey=en`);
    expect(command).toContain('X-Service-Token');
    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
    await section.getByRole('button', { name: 'Create a key' }).click();
    expect(await page.evaluate(() => document.activeElement?.closest('label')?.textContent?.trim())).toBe('New key');
    await page.keyboard.type('welcome');
    await page.keyboard.press('Enter');
    await cell('welcome', 'en').waitFor();
    expect(await section.count()).toBe(0);
  });
});
