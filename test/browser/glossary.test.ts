// The Glossary screen in headless Chromium against the real service: a real
// TBX file of the corpus (Medtronic, TBX 2008, 14 languages, synonyms and deprecated terms) imported through
// the file input with the counts shown; its terms listed, searched and
// filtered by flag; a term added with a German translation, edited, marked
// forbidden, its history shown and the last change reverted, deleted and the
// deletion undone, deleted again; TBX and CSV exported and downloaded; the
// editor marks an imported term in a source text; a shared glossary created
// and linked; a translator reads without any control that changes. axe-core;
// desktop and 390 px screenshots.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { axeViolations, launchBrowser, signIn } from '../support/browser.js';
import { corpusPath } from '../support/corpus.js';

const MEDTRONIC = corpusPath('tbx', 'okapi_medtronic_TBX.tbx');
const present = existsSync(MEDTRONIC);
/** The source-language terms of the Medtronic file, with their part of speech. */
const SIX = [
  'audible alert noun',
  'audible notification noun',
  'clinician notification noun',
  'patient identifier noun',
  'silent alert noun',
  'wireless alert noun',
];

let service: TestService;
let browser: Browser;
let owner: TestAccount;
let api: ProjectApi;
let page: Page;

beforeAll(async () => {
  if (!present) return;
  service = await startTestService({ listen: true });
  browser = await launchBrowser();
  owner = await service.account({ email: 'glossary@example.com' });
  api = await projectApi(service, owner, 'Pacemaker app');
  for (const [key, name] of [
    ['de', 'German'],
    ['fr', 'French'],
  ])
    expect((await api.post('/api/v1/languages', { key, name })).status).toBe(200);
  expect(
    (
      await api.post('/api/v1/translations', {
        content: [{ key: 'scan', language: 'en', text: 'Scan the patient identifier first' }],
      })
    ).status,
  ).toBe(200);
  page = await signIn(browser, service, owner);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
});

/** The console scrolls inside its main area: a tall viewport shows a whole screen. */
async function shoot(name: string, width: number, target: Page = page): Promise<void> {
  const before = target.viewportSize()!;
  await target.setViewportSize({ width, height: 2000 });
  mkdirSync('.test-data', { recursive: true });
  await target.screenshot({ path: `.test-data/${name}.png` });
  await target.setViewportSize(before);
}

const terms = () => page.getByRole('table', { name: 'Glossary terms' });
const termRow = (name: string) => terms().getByRole('row', { name: new RegExp(`^${name}\\b`) });
const total = () => page.locator('.glossary-total').textContent();
const stored = () =>
  service.db.prisma.glossaryTerm.findMany({
    where: { glossary: { project: { projectToken: api.projectToken } } },
    include: { translations: true },
    orderBy: { term: 'asc' },
  });
const statusText = (text: string | RegExp) => page.getByRole('status').filter({ hasText: text });

describe.skipIf(!present)('Glossary screen', () => {
  it('imports a real TBX file and shows its terms with their translations', async () => {
    await page.goto(`${service.url}/#/projects/${api.projectToken}`);
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Glossary' }).click();
    await page.getByRole('heading', { name: 'Glossary', level: 1 }).waitFor();
    await expect.poll(total).toMatch(/^No terms yet\./);

    const form = page.getByRole('form', { name: 'Import a glossary file' });
    await form.getByLabel('TBX or CSV file').setInputFiles(MEDTRONIC);
    await form.getByRole('button', { name: 'Import' }).click();
    await expect
      .poll(() => form.getByRole('status').textContent(), { timeout: 20_000 })
      .toBe('Imported okapi_medtronic_TBX.tbx: 6 created, 0 updated, 0 skipped');
    await expect.poll(total).toBe('6 terms');
    // Synonyms are terms of their own; the deprecated ones are forbidden.
    expect(await terms().getByRole('rowheader').allTextContents()).toEqual(SIX);
    expect(await termRow('wireless alert').textContent()).toContain('Forbidden');
    expect(await termRow('silent alert').textContent()).not.toContain('Forbidden');
    // The project's languages (fr; the file has no German) first, the file's other languages counted.
    const patient = termRow('patient identifier');
    expect(await patient.textContent()).toContain('fr identifiant patient');
    expect(await patient.textContent()).toMatch(
      /\+ 12 other languages \(cs, da, el, es, fi, hu, it, nl, no, pl, pt, sv\)/,
    );
    expect(await patient.textContent()).toMatch(/the capability of a distance telemetry enabled programmer/);
    expect(await axeViolations(page)).toEqual([]);
    await shoot('glossary-imported', 1400);

    // The same file again: every term updated, none created.
    await form.getByLabel('TBX or CSV file').setInputFiles(MEDTRONIC);
    await form.getByRole('button', { name: 'Import' }).click();
    await expect
      .poll(() => form.getByRole('status').textContent(), { timeout: 20_000 })
      .toBe('Imported okapi_medtronic_TBX.tbx: 0 created, 6 updated, 0 skipped');
  });

  it('refuses a file that is not a glossary and shows why', async () => {
    const form = page.getByRole('form', { name: 'Import a glossary file' });
    await form
      .getByLabel('TBX or CSV file')
      .setInputFiles({ name: 'notes.tbx', mimeType: 'application/json', buffer: Buffer.from('{"a": 1}') });
    await form.getByRole('button', { name: 'Import' }).click();
    await expect
      .poll(() => form.getByRole('alert').textContent())
      .toMatch(/^Not imported: notes\.tbx: the file looks like JSON/);
    expect((await stored()).length).toBe(6);
  });

  it('searches the terms and their translations', async () => {
    await page.getByRole('searchbox', { name: 'Search' }).fill('identifiant');
    await expect.poll(total).toBe('1 term');
    expect(await terms().getByRole('rowheader').allTextContents()).toEqual(['patient identifier noun']);
    await page.getByRole('searchbox', { name: 'Search' }).fill('sonore');
    await expect
      .poll(() => terms().getByRole('rowheader').allTextContents())
      .toEqual(['audible alert noun', 'audible notification noun']);
    await page.getByRole('searchbox', { name: 'Search' }).fill('Clinician');
    await expect.poll(() => terms().getByRole('rowheader').allTextContents()).toEqual(['clinician notification noun']);
    await page.getByRole('searchbox', { name: 'Search' }).fill('nothing like it');
    await expect.poll(total).toBe('No terms match.');
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
    await expect.poll(total).toBe('6 terms');
  });

  it('adds a term with a German translation, edits it and marks it forbidden', async () => {
    await page.getByRole('button', { name: 'New term' }).click();
    const dialog = page.getByRole('dialog', { name: 'New term' });
    await dialog.getByRole('textbox', { name: 'Term', exact: true }).fill('pacemaker');
    await dialog.getByRole('combobox', { name: 'Part of speech' }).fill('noun');
    await dialog.getByRole('textbox', { name: 'Description' }).fill('The implanted device');
    await dialog.getByRole('textbox', { name: 'German (de)' }).fill('Herzschrittmacher');
    expect(await axeViolations(page)).toEqual([]);
    await shoot('glossary-term-dialog', 1400);
    await shoot('glossary-term-dialog-phone', 390);
    await dialog.getByRole('button', { name: 'Add term' }).click();
    await expect.poll(() => statusText('Added').textContent()).toBe('Added pacemaker (noun)');
    await expect.poll(total).toBe('7 terms');
    expect(await termRow('pacemaker').textContent()).toContain('de Herzschrittmacher');

    await termRow('pacemaker').getByRole('button', { name: 'Edit pacemaker (noun)' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit pacemaker (noun)' });
    expect(await edit.getByRole('textbox', { name: 'German (de)' }).inputValue()).toBe('Herzschrittmacher');
    await edit.getByRole('textbox', { name: 'German (de)' }).fill('Schrittmacher');
    await edit.getByRole('textbox', { name: 'French (fr)' }).fill('stimulateur cardiaque');
    await edit.getByRole('button', { name: 'Save term' }).click();
    await expect.poll(() => statusText('Saved').textContent()).toBe('Saved pacemaker (noun)');
    await expect.poll(() => termRow('pacemaker').textContent()).toContain('de Schrittmacher');

    // Forbidden and do-not-translate together: the service's refusal shows in the dialog, nothing changes.
    await termRow('pacemaker').getByRole('button', { name: 'Edit pacemaker (noun)' }).click();
    await edit.getByRole('checkbox', { name: 'Forbidden' }).check();
    await edit.getByRole('checkbox', { name: 'Do not translate' }).check();
    await edit.getByRole('button', { name: 'Save term' }).click();
    await expect
      .poll(() => edit.getByRole('alert').textContent())
      .toMatch(/cannot be both forbidden and do-not-translate/);
    await edit.getByRole('checkbox', { name: 'Do not translate' }).uncheck();
    await edit.getByRole('button', { name: 'Save term' }).click();
    await expect.poll(() => termRow('pacemaker').textContent()).toContain('Forbidden');
    const term = (await stored()).find((t) => t.term === 'pacemaker')!;
    expect(term).toMatchObject({
      forbidden: true,
      doNotTranslate: false,
      partOfSpeech: 'noun',
      description: 'The implanted device',
    });
    expect(term.translations.map((t) => [t.language, t.text]).sort()).toEqual([
      ['de', 'Schrittmacher'],
      ['fr', 'stimulateur cardiaque'],
    ]);

    // The flag filter: only the forbidden term.
    await page.getByRole('checkbox', { name: 'Forbidden' }).check();
    await expect
      .poll(() => terms().getByRole('rowheader').allTextContents())
      .toEqual(['audible notification noun', 'pacemaker noun', 'wireless alert noun']);
    await page.getByRole('checkbox', { name: 'Case sensitive' }).check();
    await expect.poll(total).toBe('No terms match.');
    await page.getByRole('checkbox', { name: 'Case sensitive' }).uncheck();
    await page.getByRole('checkbox', { name: 'Forbidden' }).uncheck();
    await expect.poll(total).toBe('7 terms');
    await shoot('glossary-terms', 1400);
    await shoot('glossary-terms-phone', 390);
  });

  it("shows a term's history and reverts its last change", async () => {
    await termRow('pacemaker').getByRole('button', { name: 'History of pacemaker (noun)' }).click();
    const dialog = page.getByRole('dialog', { name: 'History of pacemaker (noun)' });
    const changes = dialog.getByRole('list', { name: 'Changes of pacemaker (noun), newest first' });
    await expect.poll(() => changes.locator('> li').count()).toBe(3);
    const entries = await changes.locator('> li strong').allTextContents();
    expect(entries).toEqual(['Edited', 'Edited', 'Created']);
    expect(await changes.locator('> li').first().textContent()).toContain('Forbidden: no → yes');
    expect(await changes.locator('> li').nth(1).textContent()).toContain('de: “Herzschrittmacher” → “Schrittmacher”');
    expect(await changes.locator('> li').first().textContent()).toContain('glossary@example.com');
    expect(await axeViolations(page)).toEqual([]);
    await shoot('glossary-history', 1400);
    await changes
      .locator('> li')
      .first()
      .getByRole('button', { name: /^Revert: Edited/ })
      .click();
    await expect.poll(() => dialog.getByRole('status').textContent()).toBe('Reverted: 1 term restored');
    await expect.poll(() => changes.locator('> li strong').first().textContent()).toBe('Reverted');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(async () => (await stored()).find((t) => t.term === 'pacemaker')!.forbidden).toBe(false);
    await expect.poll(() => termRow('pacemaker').textContent()).not.toContain('Forbidden');
  });

  it('deletes a term, undoes the deletion, deletes it again', async () => {
    await termRow('pacemaker').getByRole('button', { name: 'Delete pacemaker (noun)' }).click();
    await page
      .getByRole('dialog', { name: 'Delete pacemaker (noun)?' })
      .getByRole('button', { name: 'Delete term' })
      .click();
    await expect.poll(() => statusText('Deleted').textContent()).toBe('Deleted pacemaker (noun)');
    await expect.poll(total).toBe('6 terms');
    await page.getByRole('button', { name: 'Undo delete' }).click();
    await expect.poll(() => statusText('Restored').textContent()).toBe('Restored pacemaker (noun)');
    await expect.poll(total).toBe('7 terms');
    const back = (await stored()).find((t) => t.term === 'pacemaker')!;
    expect(back.translations.map((t) => t.text).sort()).toEqual(['Schrittmacher', 'stimulateur cardiaque']);

    await termRow('pacemaker').getByRole('button', { name: 'Delete pacemaker (noun)' }).click();
    await page
      .getByRole('dialog', { name: 'Delete pacemaker (noun)?' })
      .getByRole('button', { name: 'Delete term' })
      .click();
    await expect.poll(total).toBe('6 terms');
    expect((await stored()).map((t) => `${t.term} ${t.partOfSpeech}`)).toEqual(SIX);
  });

  it('exports the glossary as TBX and CSV and downloads them', async () => {
    const form = page.getByRole('form', { name: 'Export the glossary' });
    await form.getByRole('button', { name: 'Export' }).click();
    const link = form.getByRole('link', { name: 'Download glossary.tbx' });
    const [tbx] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const body = readFileSync((await tbx.path())!, 'utf8');
    expect(body).toContain('<term>patient identifier</term>');
    expect(body).toContain('<term>identifiant patient</term>');
    await form.getByRole('combobox', { name: 'Format' }).selectOption('CSV');
    await form.getByRole('button', { name: 'Export' }).click();
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      form.getByRole('link', { name: 'Download glossary.csv' }).click(),
    ]);
    const lines = readFileSync((await csv.path())!, 'utf8')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toMatch(/^term,description,partOfSpeech,/);
    expect(lines.filter((l) => l.startsWith('audible alert,'))).toHaveLength(1);
    await shoot('glossary-files', 1400);
  });

  it('marks an imported term in a source text in the editor', async () => {
    await page.goto(`${service.url}/#/projects/${api.projectToken}`);
    await page.getByRole('gridcell', { name: /^scan in fr/ }).dblclick();
    const marked = page
      .getByRole('region', { name: 'Memory and glossary' })
      .getByRole('region', { name: 'Glossary terms in the source' });
    await marked.waitFor();
    expect(await marked.locator('mark').textContent()).toBe('patient identifier');
    expect(await marked.locator('mark').getAttribute('title')).toBe('translate as: identifiant patient');
    await page.keyboard.press('Escape');
  });

  it('creates a shared glossary, uses it in the project and lists its terms', async () => {
    await page.goto(`${service.url}/#/projects/${api.projectToken}/glossary`);
    const form = page.getByRole('form', { name: 'New shared glossary' });
    await form.getByRole('textbox', { name: 'Name' }).fill('Company terms');
    expect(await form.getByRole('checkbox', { name: 'Use it in this project' }).isChecked()).toBe(true);
    await form.getByRole('button', { name: 'Create shared glossary' }).click();
    await expect
      .poll(() => statusText('Created').textContent())
      .toBe('Created the shared glossary Company terms, used in this project');
    const table = page.getByRole('table', { name: 'Shared glossaries' });
    expect(await table.getByRole('checkbox', { name: 'Use Company terms in this project' }).isChecked()).toBe(true);
    await page.getByRole('combobox', { name: 'Glossary' }).selectOption({ label: 'Company terms (shared, 0 terms)' });
    await page.getByRole('heading', { name: 'Terms of Company terms' }).waitFor();
    await expect.poll(total).toBe('No terms yet.');
    await page.getByRole('button', { name: 'New term' }).click();
    const dialog = page.getByRole('dialog', { name: 'New term' });
    await dialog.getByRole('textbox', { name: 'Term', exact: true }).fill('Acme');
    await dialog.getByRole('checkbox', { name: 'Do not translate' }).check();
    await dialog.getByRole('button', { name: 'Add term' }).click();
    await expect.poll(total).toBe('1 term');
    expect(await termRow('Acme').textContent()).toContain('Kept as written');
    // A shared glossary has no project history.
    expect(
      await termRow('Acme')
        .getByRole('button', { name: /^History/ })
        .count(),
    ).toBe(0);
    const shared = await service.db.prisma.glossary.findFirstOrThrow({
      where: { name: 'Company terms' },
      include: { terms: true, links: true },
    });
    expect(shared.terms.map((t) => [t.term, t.doNotTranslate])).toEqual([['Acme', true]]);
    expect(shared.links).toHaveLength(1);
    expect(await axeViolations(page)).toEqual([]);
    await shoot('glossary-shared', 1400);

    await table.getByRole('checkbox', { name: 'Use Company terms in this project' }).uncheck();
    await expect
      .poll(() => statusText('no longer').textContent())
      .toBe('Company terms is no longer used in this project');
    await page.getByRole('heading', { name: 'Terms of the project glossary' }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Glossary' }).count()).toBe(0);
  });

  it('a translator reads the glossary without any control that changes it', async () => {
    const account = await service.account({ email: 'translator@example.com' });
    const { id: projectId } = await service.db.prisma.project.findFirstOrThrow({
      where: { projectToken: api.projectToken },
      select: { id: true },
    });
    await service.db.prisma.projectMember.create({ data: { projectId, accountId: account.id, role: 'TRANSLATOR' } });
    const reader = await signIn(browser, service, account);
    await reader.goto(`${service.url}/#/projects/${api.projectToken}/glossary`);
    const list = reader.getByRole('table', { name: 'Glossary terms' });
    await expect.poll(() => list.getByRole('rowheader').count()).toBe(6);
    await reader.getByText(/^Read only: changing the project glossary needs the Glossary permission/).waitFor();
    expect(await reader.getByRole('button', { name: 'New term' }).count()).toBe(0);
    expect(await list.getByRole('button', { name: /^(Edit|Delete) / }).count()).toBe(0);
    expect(await reader.getByRole('form', { name: 'Import a glossary file' }).count()).toBe(0);
    // Reading the history is allowed, reverting is not.
    await list.getByRole('button', { name: 'History of patient identifier (noun)' }).click();
    const dialog = reader.getByRole('dialog', { name: 'History of patient identifier (noun)' });
    await expect
      .poll(() => dialog.locator('li strong').allTextContents())
      .toEqual(['Updated by an import', 'Imported']);
    expect(await dialog.getByRole('button', { name: /^Revert/ }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Close' }).click();
    expect(await axeViolations(reader)).toEqual([]);
    await shoot('glossary-read-only-phone', 390, reader);
    await reader.context().close();
  });
});
