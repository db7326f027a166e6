// The web console in headless Chromium against the real service on a fresh
// database: sign-in (wrong password, rate limit), the dashboard, the editor
// (filters, editing by keyboard, refusals of the write gate, review toggle,
// live updates from REST writes and an import, the conflict dialog, a large
// project), a narrow screen, and axe-core checks of every screen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { prisma } from '../../src/db.js';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { axeViolations, launchBrowser, signIn } from '../support/browser.js';
import { importOk } from '../support/transfer.js';

let service: TestService;
let browser: Browser;
let alice: TestAccount;
let api: ProjectApi;
let page: Page;

async function cellText(key: string, language: string): Promise<string> {
  const [row] = await prisma().$queryRawUnsafe<{ text: string }[]>(
    `SELECT t.text FROM "Translation" t JOIN "TranslationKey" k ON k.id = t."keyId" JOIN "Language" l ON l.id = t."languageId" WHERE k.key = $1 AND l.key = $2 AND k."projectId" = (SELECT id FROM "Project" WHERE "projectToken" = $3)`,
    key,
    language,
    api.projectToken,
  );
  return row?.text ?? '';
}

const cell = (key: string, language: string) =>
  page.getByRole('gridcell', { name: new RegExp(`^${key} in ${language}:`) });

/** Elements sticking out of the viewport sideways (or a page that scrolls sideways); the grid's own scrolling boxes may be wider. */
async function horizontalOverflow(target: Page): Promise<string[]> {
  return target.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const found: string[] = [];
    if (document.documentElement.scrollWidth > width)
      found.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
    const scrollsByDesign = '.grid-header, [data-testid="grid-scroll"], .project-nav';
    for (const element of document.body.querySelectorAll('*')) {
      if (element.parentElement?.closest(scrollsByDesign)) continue;
      const box = element.getBoundingClientRect();
      if (box.width > 0 && (box.right > width + 0.5 || box.left < -0.5))
        found.push(
          `${element.tagName.toLowerCase()}.${String(element.className).replace(/ /g, '.')} ${Math.round(box.left)}..${Math.round(box.right)}`,
        );
    }
    return found.slice(0, 10);
  });
}

beforeAll(async () => {
  service = await startTestService({ listen: true, worker: false, env: { SIGN_IN_FAILURES_PER_ACCOUNT: '3' } });
  browser = await launchBrowser();
  alice = await service.account({ email: 'alice@example.com' });
  api = await projectApi(service, alice, 'Shop app');
  expect((await api.post('/api/v1/languages', { key: 'de', name: 'German' })).status).toBe(200);
  const content = [];
  for (let i = 0; i < 30; i++) {
    const key = `item.${String(i).padStart(2, '0')}`;
    content.push({ key, language: 'en', text: `Item ${i} {name}` });
    if (i % 2 === 0) content.push({ key, language: 'de', text: `Artikel ${i} {name}` });
  }
  content.push(
    { key: 'greeting', language: 'en', text: 'Hello {name}' },
    { key: 'greeting', language: 'de', text: 'Hallo {name}' },
  );
  expect((await api.post('/api/v1/translations', { content })).status).toBe(200);
  expect((await api.patch('/api/v1/translation-keys?key=item.01', { charactersLimit: 12 })).status).toBe(200);
  expect((await api.post('/api/v1/customers', { key: 'acme', description: 'Acme' })).status).toBe(200);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
});

describe('sign-in', () => {
  it('shows a wrong password, then the rate limit, and passes the axe check', async () => {
    const mallory = await service.account({ email: 'mallory@example.com' });
    const context = await browser.newContext({ bypassCSP: true });
    const p = await context.newPage();
    await p.goto(service.url + '/');
    expect(await axeViolations(p)).toEqual([]);
    // The page names the product, in the tab too, with its icon.
    await expect.poll(() => p.title()).toBe('Sign in · Localization service');
    expect(await p.locator('main').textContent()).toMatch(/^Localization service/);
    const icon = await p.locator('link[rel="icon"]').getAttribute('href');
    expect((await fetch(new URL(icon!, service.url))).headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    await p.getByLabel('Email').fill(mallory.email);
    for (let i = 0; i < 3; i++) {
      await p.getByLabel('Password').fill('not the password');
      await p.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => p.getByRole('alert').textContent()).toBe('Wrong email or password');
      await p.getByRole('alert').evaluate((el) => {
        el.textContent = '';
      });
    }
    await p.getByLabel('Password').fill(mallory.password);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => p.getByRole('alert').textContent()).toMatch(/Too many failed sign-ins/);
    // The session cookie is HttpOnly: no script sees it.
    expect(await p.evaluate(() => document.cookie)).not.toMatch(/lms_session/);
    await context.close();
  });
});

describe('dashboard', () => {
  it('lists the projects with keys, progress per language and unpublished changes; creates a project', async () => {
    page = await signIn(browser, service, alice);
    await expect.poll(() => page.title()).toBe('Projects · Localization service');
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Shop app' }) });
    await expect.poll(() => card.textContent()).toMatch(/31 keys/);
    expect(await card.textContent()).toMatch(/unpublished changes/);
    expect(await page.getByRole('progressbar', { name: 'English (en) translated' }).getAttribute('value')).toBe('100');
    expect(await page.getByRole('progressbar', { name: 'German (de) translated' }).getAttribute('value')).toBe('52');
    expect(await page.evaluate(() => document.cookie)).not.toMatch(/lms_session/);
    await page.getByLabel('New project name').fill('Second app');
    await page.getByRole('button', { name: 'Create project' }).click();
    // The new project opens (its editor, with the first steps), and is among the projects.
    await page.getByRole('heading', { level: 1, name: 'Second app' }).waitFor();
    expect(page.url()).toMatch(/#\/projects\/[^/]+$/);
    await page.getByRole('link', { name: 'Localization service' }).click();
    await page.getByLabel('Sort by').selectOption('ALPHABETICAL');
    await expect
      .poll(async () => await page.getByRole('list', { name: 'Projects' }).getByRole('heading').allTextContents())
      .toEqual(['Second app', 'Shop app']);
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe('editor', () => {
  it('opens the project, filters, and passes the axe check', async () => {
    await page.getByRole('link', { name: 'Shop app' }).click();
    await expect.poll(() => page.getByText('31 keys').count()).toBe(1);
    await cell('greeting', 'de').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('Text contains').fill('artikel 1');
    // German texts exist for the even items: Artikel 10, 12, 14, 16, 18.
    await expect.poll(() => page.locator('.count').textContent()).toBe('5 keys');
    // One is "1 key" (web/src/wording.ts).
    await page.getByLabel('Text contains').fill('artikel 10');
    await expect.poll(() => page.locator('.count').textContent()).toBe('1 key');
    await page.getByLabel('Text contains').fill('');
    await page.getByLabel('Text status').selectOption('EMPTY');
    await expect.poll(() => page.locator('.count').textContent()).toBe('15 keys');
    await page.getByLabel('Key contains').fill('item.0');
    await expect.poll(() => page.locator('.count').textContent()).toBe('5 keys');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => page.locator('.count').textContent()).toBe('31 keys');
  });

  it('edits a cell by keyboard: a click or Enter edits, Enter saves, Esc cancels, arrows move', async () => {
    // A click edits the cell (Enter on a focused cell too, below).
    await cell('greeting', 'de').click();
    const box = page.getByRole('textbox', { name: 'Translation of greeting in de' });
    await box.fill('Servus {name}');
    await expect.poll(() => page.locator('.cell.editing .counter').textContent()).toBe('13 characters');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Saved greeting (de)');
    expect(await cellText('greeting', 'de')).toBe('Servus {name}');
    // Esc cancels.
    await page.keyboard.press('Enter');
    await page.getByRole('textbox', { name: 'Translation of greeting in de' }).fill('Not this');
    await page.keyboard.press('Escape');
    expect(await cellText('greeting', 'de')).toBe('Servus {name}');
    await expect.poll(() => cell('greeting', 'de').getAttribute('aria-label')).toMatch(/Servus/);
    // Down goes to the next row (item.00), left to its English cell.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Enter');
    await page.getByRole('textbox', { name: 'Translation of item.00 in en' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Translation of item.00 in en',
    );
    await page.keyboard.press('Escape');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toMatch(
      /^item.00 in en: Item 0/,
    );
  });

  it('shows checks while typing and the write gate refusing a text over the limit', async () => {
    await cell('item.01', 'de').dblclick();
    const box = page.getByRole('textbox', { name: 'Translation of item.01 in de' });
    await box.fill(' Artikel eins ohne');
    const foot = page.locator('.cell.editing .cell-foot');
    await expect.poll(() => foot.textContent()).toMatch(/18 \/ 12 characters/);
    expect(await foot.textContent()).toMatch(/Missing placeholder \{name\}: keep it in the translation/);
    expect(await foot.textContent()).toMatch(/The source starts with 0 spaces, the translation with 1/);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/Not saved: .*(limit|characters)/i);
    expect(await cellText('item.01', 'de')).toBe('');
  });

  it('toggles the review status', async () => {
    await page.getByRole('button', { name: 'Reviewed: item.00 in en' }).click();
    await expect
      .poll(() => page.getByRole('button', { name: 'Reviewed: item.00 in en' }).getAttribute('aria-pressed'))
      .toBe('true');
    const [row] = await prisma().$queryRawUnsafe<{ s: string }[]>(
      `SELECT t."reviewStatus"::text AS s FROM "Translation" t JOIN "TranslationKey" k ON k.id = t."keyId" JOIN "Language" l ON l.id = t."languageId" WHERE k.key = 'item.00' AND l.key = 'en'`,
    );
    expect(row!.s).toBe('REVIEWED');
  });

  it('shows the lock refusal of a key locked elsewhere during the edit, then the lock', async () => {
    await cell('item.02', 'en').dblclick();
    await page.getByRole('textbox', { name: 'Translation of item.02 in en' }).fill('Changed');
    expect((await api.patch('/api/v1/translation-keys?key=item.02', { lock: true })).status).toBe(200);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/Not saved: .*lock/i);
    expect(await cellText('item.02', 'en')).toBe('Item 2 {name}');
    // The lock reaches the grid live, once the edit has ended (rows are not reloaded under an edit).
    await expect
      .poll(() => page.getByRole('rowheader', { name: /^item.02/ }).getAttribute('aria-label'), { timeout: 10_000 })
      .toMatch(/, locked/);
    await cell('item.02', 'en').dblclick();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/item.02 is locked/);
  });

  it('shows a REST write live, without a reload', async () => {
    expect((await api.patch('/api/v2/translations', { key: 'item.04', language: 'de', text: 'Von REST' })).status).toBe(
      200,
    );
    await expect.poll(() => cell('item.04', 'de').getAttribute('aria-label'), { timeout: 10_000 }).toMatch(/Von REST/);
  });

  it('shows both texts when the cell changed under the edit, and keeps the chosen one', async () => {
    await cell('item.06', 'de').dblclick();
    await page.getByRole('textbox', { name: 'Translation of item.06 in de' }).fill('Meine Fassung');
    expect(
      (await api.patch('/api/v2/translations', { key: 'item.06', language: 'de', text: 'Ihre Fassung' })).status,
    ).toBe(200);
    await expect
      .poll(() => page.locator('.cell.editing').textContent(), { timeout: 10_000 })
      .toMatch(/Changed meanwhile by someone else: “Ihre Fassung”/);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'This text changed while you edited it' });
    await dialog.waitFor();
    expect(await dialog.getByRole('region', { name: 'Your text' }).textContent()).toMatch(/Meine Fassung/);
    expect(await dialog.getByRole('region', { name: 'Their text' }).textContent()).toMatch(/Ihre Fassung/);
    // Escape does not dismiss it: neither text may be lost without a choice.
    await page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Keep mine' }).click();
    await expect.poll(() => cellText('item.06', 'de')).toBe('Meine Fassung');
    // Both German texts written here lack {name}: the problems filter finds them (one of the more filters).
    await page.getByRole('button', { name: 'More filters' }).click();
    await page.getByLabel('Only keys with problems').check();
    // With item.01, whose English text is over its limit of 12 characters.
    await expect.poll(() => page.locator('.count').textContent()).toBe('3 keys');
    expect(await page.getByRole('rowheader').allTextContents()).toEqual(['item.01', 'item.04', 'item.06']);
    await page.getByLabel('Only keys with problems').uncheck();
    await expect.poll(() => page.locator('.count').textContent()).toBe('31 keys');
  });

  it('edits a key in the key panel, creates and deletes a key', async () => {
    await page.getByRole('rowheader', { name: /^greeting/ }).click();
    const panel = page.getByRole('complementary', { name: 'Key greeting' });
    await panel.getByLabel('Description').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await panel.getByLabel('Description').fill('Shown on the home page');
    await panel.getByLabel('Tags').fill('home, ui');
    // A change of the key made elsewhere reloads the rows live: what was typed stays.
    expect((await api.patch('/api/v1/translation-keys?key=greeting', { charactersLimit: 5 })).status).toBe(200);
    // The reloaded row: its texts are now over the key's limit.
    await expect.poll(() => cell('greeting', 'en').getAttribute('class'), { timeout: 5000 }).toContain('has-problems');
    expect(await panel.getByLabel('Description').inputValue()).toBe('Shown on the home page');
    expect(await panel.getByLabel('Tags').inputValue()).toBe('home, ui');
    await panel.getByRole('button', { name: 'Save key' }).click();
    await expect
      .poll(() =>
        prisma().translationKey.findFirst({ where: { key: 'greeting' }, select: { description: true, tags: true } }),
      )
      .toEqual({ description: 'Shown on the home page', tags: ['home', 'ui'] });
    await page.getByLabel('Tags', { exact: true }).first().fill('home');
    await expect.poll(() => page.locator('.count').textContent()).toBe('1 key');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => page.locator('.count').textContent()).toBe('31 keys');
    await page.getByLabel('New key').fill('brand.new');
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => page.locator('.count').textContent()).toBe('32 keys');
    // Rename it, then delete it (confirmed in the browser's dialog).
    await page.getByRole('rowheader', { name: /^brand.new/ }).click();
    const created = page.getByRole('complementary', { name: 'Key brand.new' });
    await created.getByLabel('Key', { exact: true }).fill('brand.renamed');
    await created.getByRole('button', { name: 'Save key' }).click();
    const renamed = page.getByRole('complementary', { name: 'Key brand.renamed' });
    await renamed.waitFor();
    // The renamed key's panel is a new one: it still says how the save went.
    expect(await renamed.getByRole('status').textContent()).toBe('Key saved');
    expect(await prisma().translationKey.count({ where: { key: 'brand.renamed' } })).toBe(1);
    page.once('dialog', (dialog) => void dialog.accept());
    await renamed.getByRole('button', { name: 'Delete key' }).click();
    await expect.poll(() => page.locator('.count').textContent()).toBe('31 keys');
    expect(await prisma().translationKey.count({ where: { key: { startsWith: 'brand.' } } })).toBe(0);
  });
  it("shows a review change and a customer's text made through REST live, without a reload", async () => {
    const review = page.getByRole('button', { name: 'Reviewed: item.03 in en' });
    expect(await review.getAttribute('aria-pressed')).toBe('false');
    expect(
      (await api.patch('/api/v2/translations', { key: 'item.03', language: 'en', reviewStatus: 'REVIEWED' })).status,
    ).toBe(200);
    await expect.poll(() => review.getAttribute('aria-pressed'), { timeout: 10_000, interval: 20 }).toBe('true');
    // The customer's view: a text of that customer arrives; one of another customer or the base would not be its.
    await page.getByLabel('Customer').selectOption('acme');
    await expect.poll(() => cell('item.05', 'de').getAttribute('aria-label')).toBe('item.05 in de: empty');
    expect(
      (
        await api.post('/api/v1/translations', {
          content: [{ key: 'item.05', language: 'de', text: 'Acme Artikel', customerId: 'acme' }],
        })
      ).status,
    ).toBe(200);
    await expect
      .poll(() => cell('item.05', 'de').getAttribute('aria-label'), { timeout: 10_000, interval: 20 })
      .toMatch(/^item.05 in de: Acme Artikel/);
    await page.getByLabel('Customer').selectOption('');
    await expect.poll(() => cell('item.05', 'de').getAttribute('aria-label')).toBe('item.05 in de: empty');
  });

  it('shows an import live, without a reload: its texts and the keys it created', async () => {
    await importOk(service, api.apiKey, JSON.stringify({ 'item.07': 'Importiert', imported_key: 'Neu' }), {
      uploadFormat: 'single-language-json',
      languageKey: 'de',
    });
    await expect.poll(() => page.locator('.count').textContent(), { timeout: 10_000, interval: 20 }).toBe('32 keys');
    await expect
      .poll(() => cell('item.07', 'de').getAttribute('aria-label'), { timeout: 10_000, interval: 20 })
      .toMatch(/^item.07 in de: Importiert/);
    expect(await cell('imported_key', 'de').getAttribute('aria-label')).toMatch(/^imported_key in de: Neu/);
  });
});

describe('a large project', () => {
  it('scrolls through 5,000 keys, loading only what is in view (and read ahead); a broad filter counts at least', async () => {
    const big = await projectApi(service, alice, 'Big app');
    const { id } = await prisma().project.findFirstOrThrow({
      where: { projectToken: big.projectToken },
      select: { id: true },
    });
    await prisma().$executeRawUnsafe(
      `INSERT INTO "TranslationKey" ("projectId", key) SELECT $1, 'key.' || lpad(n::text, 5, '0') FROM generate_series(0, 4999) n`,
      id,
    );
    await prisma().$executeRawUnsafe(
      `INSERT INTO "Translation" ("keyId", "languageId", "projectId", text) SELECT k.id, l.id, $1, 'Text ' || k.key FROM "TranslationKey" k JOIN "Language" l ON l."projectId" = k."projectId" WHERE k."projectId" = $1`,
      id,
    );
    const requests: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/graphql') && r.postData()?.includes('EditorRows')) requests.push(r.postData()!);
    });
    await page.goto(`${service.url}/#/projects/${big.projectToken}`);
    await expect.poll(() => page.locator('.count').textContent()).toBe('5,000 keys');
    await cell('key.00000', 'en').waitFor();
    const rowsInPage = await page.getByRole('row').count();
    expect(rowsInPage).toBeLessThan(60);
    await page.getByTestId('grid-scroll').evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await cell('key.04999', 'en').waitFor();
    expect(await cell('key.04999', 'en').getAttribute('aria-label')).toMatch(/Text key.04999/);
    // The windows of 100 rows at the top and at the bottom, each with two read ahead, nothing in between.
    const offsets = requests.map((body) => JSON.parse(body).variables.offset as number);
    expect(offsets.filter((o) => o > 200 && o < 4700)).toEqual([]);
    expect(offsets.length).toBeLessThanOrEqual(6);
    // A filter matching every key is counted 1,000 keys past the windows read, and says so.
    await page.getByLabel('Text contains').fill('TEXT KEY');
    await expect.poll(() => page.locator('.count').textContent()).toMatch(/^at least [\d,]+ keys$/);
    await page.getByLabel('Text contains').fill('text key.0499');
    await expect.poll(() => page.locator('.count').textContent()).toBe('10 keys');
  });
});

describe('a narrow screen (390 × 844)', () => {
  it('lays out the dashboard, the editor and the key panel without sideways overflow', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${service.url}/#/`);
    await page.getByRole('heading', { name: 'Shop app' }).waitFor();
    expect(await horizontalOverflow(page)).toEqual([]);
    await page.getByRole('link', { name: 'Shop app' }).click();
    await cell('greeting', 'en').waitFor();
    await page.getByRole('button', { name: 'Create key' }).waitFor();
    expect(await horizontalOverflow(page)).toEqual([]);
    await page.getByRole('rowheader', { name: /^greeting/ }).click();
    await page.getByRole('complementary', { name: 'Key greeting' }).waitFor();
    expect(await horizontalOverflow(page)).toEqual([]);
  });
});

describe('a session ended elsewhere', () => {
  it('takes the open editor back to the sign-in (the service closed its socket)', async () => {
    await prisma().session.deleteMany({ where: { accountId: alice.id } });
    await page.getByRole('button', { name: 'Sign in' }).waitFor({ timeout: 8000 });
    expect(await page.getByRole('grid').count()).toBe(0);
  });
});
