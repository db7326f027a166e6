// The activity log in words (#39): each entry is a sentence, its details
// labelled values without raw internals (no JSON, null or empty lists), its
// cells a before/after diff with the changed words marked, and a revert asks
// in a dialog and shows its outcome in the entry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { axeViolations, launchBrowser, signIn } from '../support/browser.js';
import { importRequest } from '../support/transfer.js';

let service: TestService;
let browser: Browser;
let alice: TestAccount;
let api: ProjectApi;
let page: Page;

const summaries = () => page.getByRole('list', { name: 'Activity entries' }).locator('.entry-summary');

beforeAll(async () => {
  service = await startTestService({ listen: true, worker: false });
  browser = await launchBrowser();
  alice = await service.account({ email: 'alice@example.com' });
  api = await projectApi(service, alice, 'Shop app');
  const content = [
    { key: 'cart.title', language: 'en', text: 'Your cart' },
    { key: 'cart.empty', language: 'en', text: 'Nothing here' },
  ];
  expect((await api.post('/api/v1/translations', { content })).status).toBe(200);
  expect((await api.patch('/api/v1/translation-keys?key=cart.empty', { lock: true })).status).toBe(200);
  const file = JSON.stringify({ 'cart.title': 'Your shopping cart', 'cart.empty': 'Empty', 'cart.new': 'New' });
  const res = await importRequest(
    service,
    api.apiKey,
    file,
    { uploadFormat: 'single-language-json', languageKey: 'en', importOptions: 'REPLACE_TRANSLATION_IF_FOUND' },
    'en.json',
  );
  expect(res.statusCode).toBe(200);
  page = await signIn(browser, service, alice);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
});

describe('the activity log', () => {
  it('says each entry in a sentence, with readable details and a before/after diff', async () => {
    await page.goto(`${service.url}/#/projects/${api.projectToken}/activity`);
    await expect
      .poll(async () => (await summaries().first().textContent()) ?? '')
      .toMatch(/^Imported en\.json: 1 key created, 1 text added, 1 text updated, 1 refused/);
    expect(await summaries().first().textContent()).toMatch(/Import · API key via REST API · /);
    for (const summary of await summaries().allTextContents()) expect(summary).not.toMatch(/[{}[\]"]|null|undefined/);
    await summaries().first().click();
    const details = page.locator('.entry-details');
    await details.waitFor();
    const text = (await details.locator('dl').textContent()) ?? '';
    // Labelled values, never the service's internals.
    expect(text).toMatch(/File nameen\.json/);
    expect(text).toMatch(/Keys created1/);
    expect(text).not.toMatch(/null|\[\]|\{|"|translationsRefused|Customer/);
    // The diff: the changed words marked on each side.
    // The cells arrive after the details, in their own read: wait for the row.
    const row = page.getByRole('table', { name: /Cells of entry/ }).getByRole('row', { name: /cart\.title/ });
    await row.waitFor();
    expect(await row.locator('.new-text ins').allTextContents()).toEqual(['shopping']);
    expect(await row.locator('.old-text del').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('reverts after a dialog that says what it does, and shows the outcome in the entry', async () => {
    // Found by its sentence: the revert arrives live as a new entry above it.
    const entry = page
      .getByRole('list', { name: 'Activity entries' })
      .getByRole('listitem')
      .filter({ hasText: 'Imported en.json' });
    await entry.getByRole('button', { name: 'Revert this change' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revert this change?' });
    expect(await dialog.textContent()).toMatch(/Imported en\.json/);
    // Cancel leaves everything as it was.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await dialog.count()).toBe(0);
    await entry.getByRole('button', { name: 'Revert this change' }).click();
    await dialog.getByRole('button', { name: 'Revert', exact: true }).click();
    const outcome = entry.getByRole('status');
    await expect.poll(() => outcome.textContent()).toMatch(/^Reverted \d+ cells?/);
    // In view.
    expect(await outcome.isVisible()).toBe(true);
    const box = await outcome.boundingBox();
    expect(box!.y + box!.height).toBeLessThanOrEqual(page.viewportSize()!.height);
    await expect
      .poll(async () => (await summaries().first().textContent()) ?? '')
      .toMatch(/^Reverted entry #\d+: \d+ texts? set back/);
  });
});
