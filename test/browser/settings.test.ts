// The settings screens in headless Chromium against the real service: a
// project's settings (rename, add / reorder / delete a language with the count
// in the confirmation, add / change / delete a customer, replace the API key:
// REST refuses the old one; deleting the project) and the account's (a personal token made, used
// through REST, revoked and refused; the password change with a wrong and a
// right current password), with an axe-core check of both screens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { prisma } from '../../src/db.js';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { axeViolations, launchBrowser, signIn } from '../support/browser.js';

let service: TestService;
let browser: Browser;
let alice: TestAccount;
let api: ProjectApi;
let page: Page;

const rest = (url: string, headers: Record<string, string>) =>
  service.request({ method: 'GET', url, headers }).then((r) => r.statusCode);
const languageKeys = async (apiKey: string) =>
  (await service.request({ method: 'GET', url: '/api/v1/languages', headers: { 'x-service-token': apiKey } }))
    .json()
    .data.map((l: { key: string }) => l.key);
const languageRow = (key: string) =>
  page.locator('tr').filter({ has: page.locator('code', { hasText: new RegExp(`^${key}$`) }) });

beforeAll(async () => {
  service = await startTestService({ listen: true, worker: false });
  browser = await launchBrowser();
  alice = await service.account({ email: 'settings@example.com' });
  api = await projectApi(service, alice, 'Shop app');
  expect((await api.post('/api/v1/languages', { key: 'de', name: 'German' })).status).toBe(200);
  const content = ['a', 'b', 'c'].flatMap((key) => [
    { key, language: 'en', text: key },
    { key, language: 'de', text: `${key} de` },
  ]);
  expect((await api.post('/api/v1/translations', { content })).status).toBe(200);
  page = await signIn(browser, service, alice);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
});

describe('project settings', () => {
  it('renames, adds, reorders and deletes a language (the confirmation counts its translations), manages a customer, replaces the API key', async () => {
    await page.goto(`${service.url}/#/projects/${api.projectToken}/settings`);
    await page.getByRole('heading', { name: 'Project settings' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel('Project name').fill('Shop app (renamed)');
    await page.getByRole('button', { name: 'Rename project' }).click();
    await expect
      .poll(async () => (await prisma().project.findUniqueOrThrow({ where: { projectToken: api.projectToken } })).name)
      .toBe('Shop app (renamed)');

    // A language is chosen from the CLDR locales by name, not typed as a code.
    const picker = page.getByRole('combobox', { name: 'Language' });
    expect(await page.getByRole('button', { name: 'Add language' }).isDisabled()).toBe(true);
    await picker.fill('fren');
    const options = page.getByRole('listbox', { name: 'Languages' }).getByRole('option');
    expect(await options.first().textContent()).toMatch(/^French · français fr$/);
    // Its own name finds it too; the project's languages are not offered.
    await picker.fill('deutsch');
    expect(await options.allTextContents()).not.toContainEqual(expect.stringMatching(/ de$/));
    expect(await options.allTextContents()).toContainEqual('Austrian German · Österreichisches Deutsch de-AT');
    expect(await axeViolations(page)).toEqual([]);
    // By keyboard: the first match, chosen with Enter; its English name is the language's name.
    await picker.fill('fren');
    await picker.press('Enter');
    expect(await page.getByLabel('Language name').inputValue()).toBe('French');
    await page.getByRole('button', { name: 'Add language' }).click();
    await languageRow('fr').waitFor();
    await page.getByRole('button', { name: 'Move fr up' }).click();
    await expect.poll(() => languageKeys(api.apiKey)).toEqual(['en', 'fr', 'de']);
    // A code the list does not have (the contract takes any key) is offered as it is typed, last.
    await picker.fill('en-x-pirate');
    expect(await options.last().textContent()).toBe('Use the code en-x-pirate');
    await options.last().click();
    await page.getByLabel('Language name').fill('Pirate English');
    await page.getByRole('button', { name: 'Add language' }).click();
    await languageRow('en-x-pirate').waitFor();
    await expect.poll(() => languageKeys(api.apiKey)).toEqual(['en', 'fr', 'de', 'en-x-pirate']);
    await page.getByRole('button', { name: 'Delete en-x-pirate' }).click();
    await page
      .getByRole('dialog', { name: 'Delete language en-x-pirate?' })
      .getByRole('button', { name: 'Delete language' })
      .click();
    await expect.poll(() => languageKeys(api.apiKey)).toEqual(['en', 'fr', 'de']);

    await page.getByRole('button', { name: 'Delete de' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete language de?' });
    expect(await dialog.textContent()).toContain('3 translations in German will be deleted');
    // A modal dialog keeps the focus: Tab cycles through its buttons (and the browser's own controls,
    // where the page has no focus), never to the page behind it.
    const focused: string[] = [];
    for (let i = 0; i < 6; i++) {
      focused.push(
        await page.evaluate(() => {
          const element = document.activeElement;
          if (!element || element === document.body) return 'none';
          return element.closest('dialog[open]')
            ? `dialog: ${element.textContent}`
            : `page: ${element.outerHTML.slice(0, 80)}`;
        }),
      );
      await page.keyboard.press('Tab');
    }
    expect(focused.filter((f) => f.startsWith('page:'))).toEqual([]);
    expect(new Set(focused.filter((f) => f.startsWith('dialog:')))).toEqual(
      new Set(['dialog: Delete language', 'dialog: Cancel']),
    );
    // Escape cancels, and the focus goes back to the button that opened the dialog.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: 'Delete de' }).evaluate((b) => document.activeElement === b)).toBe(
      true,
    );
    expect(await languageKeys(api.apiKey)).toEqual(['en', 'fr', 'de']);
    await page.getByRole('button', { name: 'Delete de' }).click();
    await dialog.getByRole('button', { name: 'Delete language' }).click();
    await expect.poll(() => languageKeys(api.apiKey)).toEqual(['en', 'fr']);

    await page.getByLabel('Customer key').fill('acme');
    await page.getByLabel('Description', { exact: true }).fill('Acme');
    await page.getByRole('button', { name: 'Add customer' }).click();
    await page.getByLabel('Description of customer acme').fill('Acme Inc.');
    await page.getByRole('button', { name: 'Save customer acme' }).click();
    await expect
      .poll(async () => (await api.get('/api/v1/customers')).data)
      .toEqual([{ key: 'acme', description: 'Acme Inc.' }]);
    await page.getByRole('button', { name: 'Delete customer acme' }).click();
    await page
      .getByRole('dialog', { name: 'Delete customer acme?' })
      .getByRole('button', { name: 'Delete customer' })
      .click();
    await expect.poll(async () => (await api.get('/api/v1/customers')).data).toEqual([]);

    const old = api.apiKey;
    expect(await page.getByTestId('api-key').textContent()).toBe(old);
    await page.getByRole('button', { name: 'Replace API key…' }).click();
    await page
      .getByRole('dialog', { name: 'Replace the API key?' })
      .getByRole('button', { name: 'Replace API key' })
      .click();
    const fresh = (await page.getByTestId('new-api-key').textContent())!;
    expect(fresh).toMatch(/^lms_key_/);
    expect(await rest('/api/v2/project', { 'x-service-token': old })).toBe(403);
    expect(await rest('/api/v2/project', { 'x-service-token': fresh })).toBe(200);
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe('deleting a project', () => {
  it('needs the project name typed, then deletes it and returns to the projects', async () => {
    const doomed = await alice.project('Old site');
    await page.goto(`${service.url}/#/projects/${doomed.projectToken}/settings`);
    await page.getByRole('button', { name: 'Delete project…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Old site?' });
    const confirm = dialog.getByRole('button', { name: 'Delete project' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel(/Type Old site to confirm/).fill('Old site');
    await confirm.click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    expect(await prisma().project.count({ where: { projectToken: doomed.projectToken } })).toBe(0);
  });
});

describe('account settings', () => {
  it('makes a personal token that works through REST, revokes it, and changes the password', async () => {
    await page.getByRole('link', { name: 'Account settings' }).click();
    await page.getByRole('heading', { name: 'Account settings' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel('Token name').fill('CI');
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = (await page.getByTestId('new-token').textContent())!;
    expect(token).toMatch(/^lms_pat_/);
    expect(await rest('/api/v2/projects', { authorization: token })).toBe(200);
    // The row whose name cell is CI: another token's random value may contain the letters too.
    const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'CI', exact: true }) });
    await row.waitFor();
    await page.getByRole('button', { name: 'Revoke CI' }).click();
    await page.getByRole('dialog', { name: 'Revoke token CI?' }).getByRole('button', { name: 'Revoke token' }).click();
    await row.waitFor({ state: 'detached' });
    expect(await rest('/api/v2/projects', { authorization: token })).toBe(403);

    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel(/New password/).fill('a brand new password');
    await page.getByRole('button', { name: 'Change password' }).click();
    // A password change hashes twice (the current one checked, the new one stored): past the poll's
    // default second on a loaded machine.
    const hashing = { timeout: 10_000 };
    await expect.poll(() => page.getByRole('alert').textContent(), hashing).toBe('The current password is wrong.');
    await page.getByLabel('Current password').fill(alice.password);
    await page.getByLabel(/New password/).fill('a brand new password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => page.getByText(/^Password changed/).count(), hashing).toBe(1);
    const basic = (password: string) => `Basic ${Buffer.from(`${alice.email}:${password}`).toString('base64')}`;
    expect(await rest('/api/v1/projects', { authorization: basic(alice.password) })).toBe(403);
    expect(await rest('/api/v1/projects', { authorization: basic('a brand new password') })).toBe(200);
    // This session stays signed in.
    expect(await page.getByText('this session').count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
  });
});
