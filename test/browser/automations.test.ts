// The Automations screen in headless Chromium against the real service (its
// job worker and automation runner, the offline PSEUDO provider): a rule made
// in the console ("a key was created" in English → auto-translate into every
// language), a key pushed by the command-line client, the run shown with what
// it did, the new key translated, the run reverted from the console; axe-core.
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { axeViolations, launchBrowser, signIn } from '../support/browser.js';
import { importOk } from '../support/transfer.js';
import { readTranslations } from '../support/content.js';
import { pseudoLocalize } from '../../src/mt/index.js';

let service: TestService;
let browser: Browser;
let alice: TestAccount;
let api: ProjectApi;
let page: Page;

beforeAll(async () => {
  service = await startTestService({ listen: true, env: { JOB_POLL_MS: '100' } });
  browser = await launchBrowser();
  alice = await service.account({ email: 'automations@example.com' });
  api = await projectApi(service, alice, 'Automated app');
  await importOk(
    service,
    api.apiKey,
    JSON.stringify({ en: { hello: 'Hello' }, de: { hello: 'Hallo' }, fr: { hello: 'Bonjour' } }),
    { uploadFormat: 'multi-language-json' },
  );
  for (const language of ['de', 'fr']) {
    const saved = await api.gql(
      `mutation($l: String!) { setAutoTranslationSettings(languageKey: $l, settings: { translationProvider: PSEUDO, targetLanguage: $l, sourceProjectLanguage: "en" }) { languageKey } }`,
      { l: language },
    );
    expect(saved.errors).toBeUndefined();
  }
  page = await signIn(browser, service, alice);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
});

describe('Automations screen', () => {
  it('creates a rule, shows the run a pushed key started, and reverts it', async () => {
    await page.goto(`${service.url}/#/projects/${api.projectToken}/automations`);
    await page.getByRole('heading', { name: 'Automations', level: 1 }).waitFor();
    await page.getByText('No rules yet.').waitFor();
    await page.getByRole('button', { name: 'New rule' }).click();
    const form = page.getByRole('form', { name: 'New rule' });
    await form.getByRole('textbox', { name: 'Rule name' }).fill('Translate new English keys');
    await form.getByRole('combobox', { name: 'Trigger' }).selectOption('KEY_CREATED');
    await form
      .getByRole('group', { name: 'Languages' })
      .getByRole('checkbox', { name: /\(en\)/ })
      .check();
    expect(await form.getByRole('combobox', { name: 'Action 1 kind' }).inputValue()).toBe('AUTO_TRANSLATE');
    expect(await axeViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Create rule' }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'created' }).textContent())
      .toBe('Translate new English keys created');
    const rules = page.getByRole('table', { name: 'Automation rules' });
    expect(await rules.getByRole('row', { name: /Translate new English keys/ }).textContent()).toMatch(
      /A key was created.*languages en.*Auto-translate into every language/,
    );

    // The team pushes a new English key with the command-line client.
    await importOk(service, api.apiKey, JSON.stringify({ checkout: 'Check out' }), {
      uploadFormat: 'single-language-json',
      languageKey: 'en',
      source: 'CLI',
    });
    const runs = page.getByRole('table', { name: 'Automation runs, newest first' });
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh runs' }).click();
          return (await runs.count())
            ? runs.getByRole('row', { name: /Translate new English keys/ }).textContent()
            : '';
        },
        { timeout: 20_000 },
      )
      .toMatch(/A key was created.*DONE.*Auto-translation of 1 key started for de, fr/);
    await expect
      .poll(async () => (await readTranslations(service.db, api.projectToken)).de?.checkout, { timeout: 20_000 })
      .toBe(pseudoLocalize('Check out'));
    await expect
      .poll(async () =>
        (await api.gql('{ jobs { state } }')).data.jobs.every((j: { state: string }) => j.state !== 'STARTED'),
      )
      .toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    mkdirSync('.test-data', { recursive: true });
    await page.screenshot({ path: '.test-data/automations-screen.png', fullPage: true });

    await runs.getByRole('button', { name: /^Revert run \d+ of Translate new English keys$/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revert run' }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'reverted' }).textContent())
      .toMatch(/^Run \d+ reverted: 2 cells written back$/);
    const texts = await readTranslations(service.db, api.projectToken);
    expect(texts.de?.checkout ?? '').toBe('');
    expect(texts.en?.checkout).toBe('Check out');
    await expect
      .poll(() => runs.getByRole('row', { name: /Translate new English keys/ }).textContent())
      .toMatch(/Reverted \(change \d+\)/);

    // Disabled from the list: a further key starts nothing.
    await rules.getByRole('checkbox', { name: 'Enabled: Translate new English keys' }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'disabled' }).textContent())
      .toBe('Translate new English keys disabled');
    expect((await api.gql('{ automationRules { enabled } }')).data.automationRules).toEqual([{ enabled: false }]);
  }, 180_000);

  it('refuses a rule the service finds invalid, with its message', async () => {
    await page.getByRole('button', { name: 'New rule' }).click();
    const form = page.getByRole('form', { name: 'New rule' });
    await form.getByRole('textbox', { name: 'Rule name' }).fill('Nightly');
    await form.getByRole('combobox', { name: 'Trigger' }).selectOption('SCHEDULE');
    await form.getByRole('textbox', { name: 'Schedule (cron, UTC)' }).fill('every night');
    await form.getByRole('button', { name: 'Create rule' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toMatch(/^schedule: /);
    await form.getByRole('button', { name: 'Cancel' }).click();
  });
});
