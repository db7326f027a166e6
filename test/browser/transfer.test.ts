// The console's Import and Export screens in headless Chromium against the
// real service: a corpus file imported with its suggested format and
// language (the preview's counts against what the API then reports), a second
// file replacing a translation with REPLACE_TRANSLATION_IF_FOUND, a broken
// file refused with the service's message and nothing changed, an export
// downloaded from its link, a several-language export as one zip, and
// axe-core checks of both screens.
import { existsSync, readFileSync } from 'node:fs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { axeViolations, launchBrowser, signIn } from '../support/browser.js';
import { corpusPath } from '../support/corpus.js';
import { contentOf, projectSnapshot } from '../support/transfer.js';

let service: TestService;
let browser: Browser;
let api: ProjectApi;
let page: Page;

const CORPUS_FILE = corpusPath('json', 'actualbudget_cs.json');
// Without the corpus folder the file is skipped (test/support/corpus.ts).
const present = existsSync(CORPUS_FILE);
const corpus = (present ? JSON.parse(readFileSync(CORPUS_FILE, 'utf8')) : {}) as Record<string, string>;

/** A count of a preview or result, by its label. */
const countIn = (list: string, name: string) =>
  page
    .locator(`dl[aria-label="${list}"] > div`)
    .filter({ has: page.locator('dt', { hasText: new RegExp(`^${name}$`) }) })
    .locator('dd')
    .textContent();
const number = async (text: Promise<string | null>) => Number((await text)!.replace(/,/g, ''));

beforeAll(async () => {
  if (!present) return;
  service = await startTestService({ listen: true, worker: false });
  browser = await launchBrowser();
  const alice = await service.account({ email: 'alice@example.com' });
  api = await projectApi(service, alice, 'Budget app');
  expect(
    (
      await api.post('/api/v1/translations', {
        content: [
          { key: '(hidden)', language: 'en', text: '(hidden)' },
          { key: 'app.only', language: 'en', text: 'Only here' },
        ],
      })
    ).status,
  ).toBe(200);
  page = await signIn(browser, service, alice);
  page.setDefaultTimeout(10_000);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
});

describe.skipIf(!present)('import screen', () => {
  it('suggests the format and language of a corpus file, previews it, and imports what the preview said', async () => {
    await page.goto(`${service.url}/#/projects/${api.projectToken}/import`);
    await page.getByRole('heading', { name: 'Import into Budget app' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    const before = await api.counters();
    await page.getByLabel('Choose files to import').setInputFiles(CORPUS_FILE);
    const name = 'actualbudget_cs.json';
    await expect.poll(() => page.getByLabel(`Format of ${name}`).inputValue()).toBe('single-language-json');
    expect(await page.getByLabel(`Language of ${name}`).inputValue()).toBe('cs');
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const list = `Preview counts of ${name}`;
    await page.locator(`dl[aria-label="${list}"]`).waitFor();
    const keys = Object.keys(corpus).length;
    expect(await number(countIn(list, 'Keys in the file'))).toBe(keys);
    // "(hidden)" exists already: every other key is new, every text a new Czech translation.
    const newKeys = await number(countIn(list, 'New keys'));
    const newTranslations = await number(countIn(list, 'New translations'));
    expect(newKeys).toBe(keys - 1);
    expect(newTranslations).toBe(Object.values(corpus).filter((t) => t !== '').length);
    expect(await countIn(list, 'New languages')).toBe('cs');
    expect((await api.counters()).keys).toBe(before.keys);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Apply import' }).click();
    const result = `Import counts of ${name}`;
    await page.locator(`dl[aria-label="${result}"]`).waitFor();
    expect(await number(countIn(result, 'New keys'))).toBe(newKeys);
    expect(await number(countIn(result, 'New translations'))).toBe(newTranslations);
    // What the API stores is what the preview announced.
    const after = await api.counters();
    expect(after.keys).toBe(before.keys + newKeys);
    expect(after.translatedKeysByLanguage.cs).toBe(newTranslations);
    expect((await contentOf(service, api.projectToken)).cs!['(hidden)']).toBe(corpus['(hidden)']);
  });

  it('replaces a translation with REPLACE_TRANSLATION_IF_FOUND', async () => {
    const file = {
      name: 'fixes_cs.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ '(hidden)': '(skryto)' })),
    };
    await page.getByLabel('Choose files to import').setInputFiles(file);
    await expect.poll(() => page.getByLabel('Format of fixes_cs.json').inputValue()).toBe('single-language-json');
    await page.getByRole('checkbox', { name: 'Replace existing translations' }).check();
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const list = 'Preview counts of fixes_cs.json';
    await page.locator(`dl[aria-label="${list}"]`).waitFor();
    expect(await countIn(list, 'Replaced translations')).toBe('1');
    expect(await countIn(list, 'New keys')).toBe('0');
    await page.getByRole('button', { name: 'Apply import' }).click();
    await expect.poll(() => countIn('Import counts of fixes_cs.json', 'Replaced translations')).toBe('1');
    expect((await contentOf(service, api.projectToken)).cs!['(hidden)']).toBe('(skryto)');
  });

  it("shows a broken file's error and changes nothing", async () => {
    const snapshot = await projectSnapshot(service, api.projectToken);
    await page.getByLabel('Choose files to import').setInputFiles({
      name: 'broken_cs.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{"(hidden)": "x",'),
    });
    await expect.poll(() => page.getByLabel('Format of broken_cs.json').inputValue()).toBe('single-language-json');
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const alert = page.getByRole('listitem', { name: 'broken_cs.json' }).getByRole('alert');
    await expect.poll(() => alert.textContent()).toMatch(/JSON.*Nothing was changed\.$/s);
    expect(await page.getByRole('button', { name: 'Apply import' }).isDisabled()).toBe(true);
    expect(await projectSnapshot(service, api.projectToken)).toEqual(snapshot);
  });
});

describe.skipIf(!present)('export screen', () => {
  async function exportAndDownload(link: string): Promise<Buffer> {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: link }).click(),
    ]);
    return readFileSync((await download.path())!);
  }

  it('exports one language and downloads the file', async () => {
    await page.goto(`${service.url}/#/projects/${api.projectToken}/export`);
    await page.getByRole('heading', { name: 'Export from Budget app' }).waitFor();
    await page.getByRole('combobox', { name: /^Format/ }).selectOption('single-language-json');
    await page.getByRole('checkbox', { name: 'English (en)' }).uncheck();
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await expect
      .poll(() => page.getByRole('region', { name: 'Exported files' }).getByRole('heading').textContent())
      .toBe('1 file');
    expect(await page.getByRole('link', { name: /Download all/ }).count()).toBe(0);
    const cs = JSON.parse((await exportAndDownload('cs.json')).toString('utf8'));
    expect(cs['(hidden)']).toBe('(skryto)');
    // Every key of the project: the file's, and app.only without a Czech text.
    expect(Object.keys(cs)).toHaveLength(Object.keys(corpus).length + 1);
    expect(cs['app.only']).toBe('');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('exports several languages as files and as one zip', async () => {
    await page.getByRole('checkbox', { name: 'English (en)' }).check();
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await expect
      .poll(() => page.getByRole('region', { name: 'Exported files' }).getByRole('heading').textContent())
      .toBe('2 files');
    const zip = await JSZip.loadAsync(await exportAndDownload('Download all as zip'));
    expect(Object.keys(zip.files).sort()).toEqual(['cs.json', 'en.json']);
    expect(JSON.parse(await zip.file('en.json')!.async('string'))).toMatchObject({
      '(hidden)': '(hidden)',
      'app.only': 'Only here',
    });
    expect(JSON.parse(await zip.file('cs.json')!.async('string'))['(hidden)']).toBe('(skryto)');
  });
});
