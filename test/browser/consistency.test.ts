// The editor shows the consistency checks' stored findings on a cell (they
// compare it with other keys, so the editor cannot compute them as a text is
// typed): "Save" translated "Speichern" in one key and "Sichern" in another.
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { axeViolations, launchBrowser, signIn } from '../support/browser.js';

let service: TestService;
let browser: Browser;
let owner: TestAccount;
let api: ProjectApi;
let page: Page;

async function settled(): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if ((await service.db.prisma.findingQueue.count()) === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('findings still pending');
}

const cell = (key: string, language: string) =>
  page.getByRole('gridcell', { name: new RegExp(`^${key.replace('.', '\\.')} in ${language}:`) });

beforeAll(async () => {
  service = await startTestService({ listen: true, env: { FINDINGS_POLL_MS: '50' } });
  browser = await launchBrowser();
  owner = await service.account({ email: 'consistency@example.com' });
  api = await projectApi(service, owner, 'Consistent app');
  expect((await api.post('/api/v1/languages', { key: 'de', name: 'German' })).status).toBe(200);
  expect(
    (
      await api.post('/api/v1/translations', {
        content: [
          { key: 'save.dialog', language: 'en', text: 'Save' },
          { key: 'save.dialog', language: 'de', text: 'Sichern' },
          { key: 'save.toolbar', language: 'en', text: 'Save' },
          { key: 'save.toolbar', language: 'de', text: 'Speichern' },
          { key: 'title', language: 'en', text: 'Welcome' },
          { key: 'title', language: 'de', text: 'Willkommen' },
        ],
      })
    ).status,
  ).toBe(200);
  await settled();
  page = await signIn(browser, service, owner);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
});

describe('the editor', () => {
  it('marks a cell translated otherwise than the same source in another key, naming the key', async () => {
    await page.goto(`${service.url}/#/projects/${api.projectToken}/translations`);
    await cell('save.dialog', 'de').waitFor();
    expect(await cell('save.dialog', 'de').getAttribute('aria-label')).toContain(
      'The same source text is translated otherwise in save.toolbar ("Speichern")',
    );
    expect(await cell('save.toolbar', 'de').getAttribute('aria-label')).toContain('in save.dialog ("Sichern")');
    expect(await cell('save.dialog', 'de').getAttribute('class')).toContain('has-problems');
    // Neither the source language nor a consistent key.
    expect(await cell('save.dialog', 'en').getAttribute('class')).not.toContain('has-problems');
    expect(await cell('title', 'de').getAttribute('class')).not.toContain('has-problems');
    expect(await axeViolations(page)).toEqual([]);
    mkdirSync('.test-data', { recursive: true });
    await page.screenshot({ path: '.test-data/editor-consistency.png' });
    // Editing shows the message under the text; a draft that differs is not what was checked, so it goes.
    // A click starts editing the cell.
    await cell('save.dialog', 'de').click();
    const box = page.getByRole('textbox', { name: 'Translation of save.dialog in de' });
    await expect
      .poll(() => page.locator('.cell.editing .problem').allTextContents())
      .toEqual([
        'The same source text is translated otherwise in save.toolbar ("Speichern"): use one translation, or dismiss if the keys mean different things',
      ]);
    await page.screenshot({ path: '.test-data/editor-consistency-editing.png' });
    await box.fill('Speichern');
    await expect.poll(() => page.locator('.cell.editing .problem').count()).toBe(0);
    await page.keyboard.press('Escape');
  });
});
