// The Quality screen and the publication gate in headless Chromium against the
// real service (its findings updater): texts with a broken placeholder and a
// missing plural form; the counts per check, severity and language linking to
// the filtered list; the span marked; dismissing with a reason (the counts
// drop) and restoring; a check's severity; the editor opened on a finding's
// key; an environment requiring no errors refuses a publish with the list in
// the card, the owner's override publishes. axe-core; desktop and 390 px.
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
const errorsOf = async () =>
  (await api.gql('{ qualityFindings(severity: "error") { total } }')).data.qualityFindings.total as number;

beforeAll(async () => {
  service = await startTestService({ listen: true, env: { FINDINGS_POLL_MS: '50' } });
  browser = await launchBrowser();
  owner = await service.account({ email: 'quality@example.com' });
  api = await projectApi(service, owner, 'Checked app');
  for (const [key, name] of [
    ['de', 'German'],
    ['fr', 'French'],
  ])
    expect((await api.post('/api/v1/languages', { key, name })).status).toBe(200);
  const res = await api.post('/api/v1/translations', {
    content: [
      { key: 'greet', language: 'en', text: 'Hello {name}!' },
      { key: 'greet', language: 'de', text: 'Hallo!' },
      { key: 'greet', language: 'fr', text: 'Bonjour {nom} !' },
      { key: 'items', language: 'en', text: '{count, plural, one {# item} other {# items}}' },
      { key: 'items', language: 'de', text: '{count, plural, other {# Artikel}}' },
      { key: 'items', language: 'fr', text: '{count, plural, one {# article} many {# d’articles} other {# articles}}' },
    ],
  });
  expect(res.status).toBe(200);
  await settled();
  page = await signIn(browser, service, owner);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
});

/** The console scrolls inside its main area: a tall viewport shows a whole screen. */
async function shoot(name: string, width: number): Promise<void> {
  const before = page.viewportSize()!;
  await page.setViewportSize({ width, height: 2400 });
  mkdirSync('.test-data', { recursive: true });
  await page.screenshot({ path: `.test-data/${name}.png` });
  await page.setViewportSize(before);
}

const overview = () => page.getByRole('table', { name: 'Open findings per check and language' });
const findings = () => page.getByRole('table', { name: 'Findings', exact: true });
const errorsLink = () =>
  page.getByRole('list', { name: 'Open findings per severity' }).getByRole('link', { name: /errors$/ });

describe('Quality screen', () => {
  it('shows the counts per check and language, each linking to the filtered list', async () => {
    expect(await errorsOf()).toBe(4);
    await page.goto(`${service.url}/#/projects/${api.projectToken}/quality`);
    await page.getByRole('heading', { name: 'Quality', level: 1 }).waitFor();
    await expect.poll(() => errorsLink().textContent()).toBe('4 errors');
    const missing = overview().getByRole('row', { name: /^Missing placeholder/ });
    expect(await missing.getByRole('cell').allTextContents()).toEqual(['Error', '1', '1', '2']);
    expect(
      await overview()
        .getByRole('row', { name: /^Plural form missing/ })
        .getByRole('cell')
        .allTextContents(),
    ).toEqual(['Error', '1', '0', '1']);
    expect(
      await overview()
        .getByRole('row', { name: /^Total/ })
        .getByRole('cell')
        .allTextContents(),
    ).toEqual(['2', '2', '4']);
    expect(await axeViolations(page)).toEqual([]);
    await shoot('quality-screen', 1400);

    await overview().getByRole('link', { name: 'Missing placeholder, all languages: 2' }).click();
    await expect
      .poll(() => page.evaluate(() => location.hash))
      .toBe(`#/projects/${api.projectToken}/quality?check=placeholders-missing`);
    // The filter's control shows the check once the screen has read the address (a render after the hash changes).
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Check', exact: true }).inputValue())
      .toBe('placeholders-missing');
    await expect.poll(() => findings().getByRole('row').count()).toBe(3);
    const fr = findings().getByRole('row', { name: /greet/ }).filter({ hasText: 'fr' });
    expect(await fr.textContent()).toMatch(/Missing placeholder/);
    // The extra one marks the span the check points at.
    await page.getByRole('combobox', { name: 'Check', exact: true }).selectOption('placeholders-extra');
    await expect.poll(() => findings().getByRole('row').count()).toBe(2);
    expect(await findings().locator('mark').allTextContents()).toEqual(['{nom}']);
  });

  it('filters by check and language, dismisses one with a reason (the counts drop) and restores it', async () => {
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByRole('combobox', { name: 'Check', exact: true }).selectOption({ label: 'Plural form missing' });
    await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption('de');
    await expect.poll(() => findings().getByRole('row').count()).toBe(2);
    const row = findings().getByRole('row', { name: /items/ });
    expect(await row.textContent()).toMatch(/de.*Plural form missing.*\{count, plural, other \{# Artikel\}\}/);

    await row.getByRole('button', { name: 'Dismiss Plural form missing on items (de)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Dismiss Plural form missing on items (de)?' });
    expect(await dialog.getByRole('button', { name: 'Dismiss finding' }).isDisabled()).toBe(true);
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('German UI shows the count elsewhere');
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Dismiss finding' }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Dismissed' }).textContent())
      .toBe('Dismissed: Plural form missing on items (de)');
    await expect.poll(() => errorsLink().textContent()).toBe('3 errors');
    await page.getByText('No findings match.').waitFor();
    expect(await errorsOf()).toBe(3);
    const [entry] = (await api.get('/api/v2/activity?size=1')).data;
    expect(entry.kind).toBe('QUALITY');
    expect(JSON.stringify(entry)).toContain('German UI shows the count elsewhere');

    await page.getByRole('checkbox', { name: 'Show dismissed' }).check();
    const dismissed = findings().getByRole('row', { name: /items/ });
    expect(await dismissed.textContent()).toMatch(/dismissed/);
    await dismissed.getByRole('button', { name: 'Restore Plural form missing on items (de)' }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Restored' }).textContent())
      .toBe('Restored: Plural form missing on items (de)');
    await expect.poll(() => errorsLink().textContent()).toBe('4 errors');
    expect(await errorsOf()).toBe(4);
  });

  it('opens a finding in the editor, filtered to its key, check and language', async () => {
    await page.goto(`${service.url}/#/projects/${api.projectToken}/quality?check=plural-missing`);
    await findings().getByRole('link', { name: 'Open in editor: items (de)' }).click();
    await expect.poll(() => page.getByRole('combobox', { name: 'Quality check' }).inputValue()).toBe('plural-missing');
    await expect.poll(() => page.locator('.editor-head .count').textContent()).toBe('1 key');
    expect(await page.getByRole('checkbox', { name: 'en' }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'de' }).isChecked()).toBe(true);
    await expect.poll(() => page.getByRole('gridcell', { name: /^items in de:/ }).count()).toBe(1);
    await shoot('quality-editor-link', 1400);
    expect(await page.getByRole('checkbox', { name: 'fr' }).isChecked()).toBe(false);
    await page.getByRole('button', { name: 'Show all keys' }).click();
    // Without the key: still only keys with that finding (items alone).
    await expect.poll(() => page.locator('.editor-head .count').textContent()).toBe('1 key');
    await page.getByRole('combobox', { name: 'Quality check' }).selectOption('');
    await expect.poll(() => page.locator('.editor-head .count').textContent()).toBe('2 keys');
  });

  it("sets a check's severity for the project; the counts follow", async () => {
    await page.goto(`${service.url}/#/projects/${api.projectToken}/quality`);
    const severity = page.getByRole('combobox', { name: 'Severity of Plural form missing' });
    expect(await severity.inputValue()).toBe('error');
    await severity.selectOption('warning');
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Plural form missing:' }).textContent())
      .toBe('Plural form missing: warning');
    await expect.poll(() => errorsLink().textContent(), { timeout: 20_000 }).toBe('3 errors');
    const checks = (await api.gql('{ qualityChecks { checks { id severity } } }')).data.qualityChecks.checks;
    expect(checks.find((c: { id: string }) => c.id === 'plural-missing')).toEqual({
      id: 'plural-missing',
      severity: 'warning',
    });
    await page.getByRole('combobox', { name: 'Severity of Plural form missing' }).selectOption('error');
    await expect.poll(() => errorsLink().textContent(), { timeout: 20_000 }).toBe('4 errors');
  });

  it('sets the placeholder style by its name; the checks read texts in that style', async () => {
    await page.goto(`${service.url}/#/projects/${api.projectToken}/quality`);
    await expect.poll(() => errorsLink().textContent()).toBe('4 errors');
    // The automatic style reads Laravel's ":name" where the source has one; ICU's never does.
    await api.post('/api/v1/translations', {
      content: [
        { key: 'laravel.hello', language: 'en', text: 'Hello :name' },
        { key: 'laravel.hello', language: 'de', text: 'Hallo' },
      ],
    });
    await expect.poll(() => errorsLink().textContent(), { timeout: 20_000 }).toBe('5 errors');
    const style = page.getByRole('combobox', { name: 'Placeholder style' });
    expect(await style.inputValue()).toBe('auto');
    await style.selectOption({ label: 'ICU MessageFormat: {name}, {n, plural, …}' });
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Placeholder style:' }).textContent())
      .toBe('Placeholder style: ICU MessageFormat: {name}, {n, plural, …}');
    await expect.poll(() => errorsLink().textContent(), { timeout: 20_000 }).toBe('4 errors');
    expect((await api.gql('{ qualityChecks { placeholderDialect } }')).data.qualityChecks.placeholderDialect).toBe(
      'icu',
    );
    await style.selectOption('auto');
    await expect.poll(() => errorsLink().textContent(), { timeout: 20_000 }).toBe('5 errors');
    // Fixed: back to the four the next tests start from.
    expect(
      (await api.patch('/api/v2/translations', { key: 'laravel.hello', language: 'de', text: 'Hallo :name' })).status,
    ).toBe(200);
    await expect.poll(() => errorsLink().textContent(), { timeout: 20_000 }).toBe('4 errors');
  });

  it('follows texts written elsewhere live', async () => {
    await page.goto(`${service.url}/#/projects/${api.projectToken}/quality`);
    await expect.poll(() => errorsLink().textContent()).toBe('4 errors');
    await api.post('/api/v1/translations', {
      content: [
        { key: 'bye', language: 'en', text: 'Bye {name}' },
        { key: 'bye', language: 'de', text: 'Tschüss' },
      ],
    });
    await expect.poll(() => errorsLink().textContent(), { timeout: 20_000 }).toBe('5 errors');
    expect(
      await overview()
        .getByRole('row', { name: /^Missing placeholder/ })
        .getByRole('cell')
        .allTextContents(),
    ).toEqual(['Error', '2', '1', '3']);
    expect(
      (await api.patch('/api/v2/translations', { key: 'bye', language: 'de', text: 'Tschüss {name}' })).status,
    ).toBe(200);
    await expect.poll(() => errorsLink().textContent(), { timeout: 20_000 }).toBe('4 errors');
  });

  it('lays out at 390 px: the list as cards, the dialog fitting', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${service.url}/#/projects/${api.projectToken}/quality?severity=error`);
    await expect.poll(() => findings().getByRole('row').count()).toBe(5);
    expect(await axeViolations(page)).toEqual([]);
    await shoot('quality-screen-390', 390);
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll('main *')]
        .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
        .map((e) => `${e.tagName}.${e.className}`),
    );
    expect(wide).toEqual([]);
    await findings().getByRole('button', { name: 'Dismiss Missing placeholder on greet (de)' }).click();
    await page.getByRole('dialog').getByRole('textbox', { name: 'Reason' }).waitFor();
    await page.screenshot({ path: '.test-data/quality-dismiss-390.png' });
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await page.setViewportSize({ width: 1400, height: 900 });
  });
});

describe('publication gate', () => {
  it('an environment requiring no errors refuses the publish with the errors listed; the owner publishes anyway', async () => {
    await page.goto(`${service.url}/#/projects/${api.projectToken}/hosting`);
    const latest = page.getByRole('listitem', { name: 'Latest (_latest)' });
    await latest.getByText('never').waitFor();
    const toggle = latest.getByRole('checkbox', { name: 'Require no quality-check errors' });
    expect(await toggle.isChecked()).toBe(false);
    await toggle.check();
    await expect
      .poll(
        async () =>
          (await api.gql('{ environments { key requireNoErrors } }')).data.environments.find(
            (e: { key: string }) => e.key === '_latest',
          ).requireNoErrors,
      )
      .toBe(true);
    await expect.poll(() => toggle.isChecked()).toBe(true);

    await latest.getByRole('button', { name: 'Publish _latest' }).click();
    const refusal = latest.getByRole('alert', { name: 'Publication of _latest refused' });
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/4 errors to fix or dismiss first: .*Missing placeholder 2/);
    const listed = refusal.getByRole('list', { name: 'Errors blocking the publication' }).getByRole('listitem');
    expect(await listed.allTextContents()).toEqual([
      expect.stringMatching(/^greet \(de\) Missing placeholder: /),
      expect.stringMatching(/^greet \(fr\) Extra placeholder: /),
      expect.stringMatching(/^greet \(fr\) Missing placeholder: /),
      expect.stringMatching(/^items \(de\) Plural form missing: /),
    ]);
    expect((await api.gql('{ publications(limit: 5) { id } }')).data.publications).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await shoot('quality-gate', 1400);
    await shoot('quality-gate-390', 390);

    await refusal.getByRole('button', { name: 'Publish _latest anyway' }).click();
    await latest.getByRole('status').filter({ hasText: 'Published _latest' }).waitFor();
    expect(await refusal.count()).toBe(0);
    await expect
      .poll(async () => (await api.gql('{ publications(limit: 5) { environmentKey state } }')).data.publications)
      .toEqual([{ environmentKey: '_latest', state: 'COMPLETE' }]);
    const activity = (await api.get('/api/v2/activity?size=5')).data;
    expect(
      activity.some(
        (e: { kind: string }) => e.kind === 'QUALITY' && JSON.stringify(e).includes('OVERRIDE_PUBLICATION_GATE'),
      ),
    ).toBe(true);

    // The refusal's link: the Quality screen filtered to errors.
    await latest.getByRole('button', { name: 'Publish _latest' }).click();
    await refusal.getByRole('link', { name: 'Show the errors on the Quality screen' }).click();
    await page.getByRole('heading', { name: 'Quality', level: 1 }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Severity', exact: true }).inputValue()).toBe('error');
    await expect.poll(() => findings().getByRole('row').count()).toBe(5);
  });
});

describe('what a member may do', () => {
  async function member(email: string, role: 'ADMIN' | 'VIEWER'): Promise<Page> {
    const account = await service.account({ email });
    const { id: projectId } = await service.db.prisma.project.findFirstOrThrow({
      where: { projectToken: api.projectToken },
      select: { id: true },
    });
    await service.db.prisma.projectMember.create({ data: { projectId, accountId: account.id, role } });
    return signIn(browser, service, account);
  }

  it("an admin is refused the publication with the list, without the owner's override", async () => {
    const admin = await member('admin@example.com', 'ADMIN');
    await admin.goto(`${service.url}/#/projects/${api.projectToken}/hosting`);
    const latest = admin.getByRole('listitem', { name: 'Latest (_latest)' });
    expect(await latest.getByRole('checkbox', { name: 'Require no quality-check errors' }).isChecked()).toBe(true);
    await latest.getByRole('button', { name: 'Publish _latest' }).click();
    const refusal = latest.getByRole('alert', { name: 'Publication of _latest refused' });
    await refusal.getByRole('list', { name: 'Errors blocking the publication' }).waitFor();
    expect(await refusal.getByRole('button').count()).toBe(0);
    await admin.context().close();
  });

  it('a viewer sees the findings but neither dismisses nor changes the settings', async () => {
    const viewer = await member('viewer@example.com', 'VIEWER');
    await viewer.goto(`${service.url}/#/projects/${api.projectToken}/quality`);
    const list = viewer.getByRole('table', { name: 'Findings', exact: true });
    await expect.poll(() => list.getByRole('row').count()).toBe(5);
    expect(await list.getByRole('link', { name: /^Open in editor: / }).count()).toBe(4);
    expect(await list.getByRole('button').count()).toBe(0);
    expect(await viewer.getByRole('heading', { name: 'Check settings' }).count()).toBe(0);
    await viewer.context().close();
  });
});

describe("a customer's override", () => {
  it('lists its finding with its customer, dismisses that one alone, and opens the editor through the customer', async () => {
    expect((await api.post('/api/v1/customers', { key: 'acme' })).status).toBe(200);
    const res = await api.post('/api/v1/translations', {
      content: [{ key: 'greet', language: 'fr', text: 'Salut !', customerId: 'acme' }],
    });
    expect(res.status).toBe(200);
    await settled();
    await page.goto(`${service.url}/#/projects/${api.projectToken}/quality?language=fr&check=placeholders-missing`);
    await expect.poll(() => findings().getByRole('row').count()).toBe(3);
    const row = findings().getByRole('row', { name: /customer acme/ });
    expect(await row.textContent()).toMatch(/fr, customer acme.*Missing placeholder.*Salut !/);
    await row.getByRole('button', { name: 'Dismiss Missing placeholder on greet (fr, customer acme)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Dismiss Missing placeholder on greet (fr, customer acme)?' });
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('acme greets no one by name');
    await dialog.getByRole('button', { name: 'Dismiss finding' }).click();
    await expect.poll(() => findings().getByRole('row').count()).toBe(2);
    const open = (await api.get('/api/v2/quality-checks?languageCode=fr&check=placeholders-missing')).data.findings;
    expect(open.map((f: { customerId: string | null }) => f.customerId)).toEqual([null]);

    await page.getByRole('checkbox', { name: 'Show dismissed' }).check();
    await findings().getByRole('link', { name: 'Open in editor: greet (fr, customer acme)' }).click();
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Customer', includeHidden: true }).inputValue())
      .toBe('acme');
  });
});
