// The in-context editor end to end: a small i18next application built with
// Vite (test/support/in-context-app) and served on loopback, another origin
// than the service's, in headless Chromium. Alt+click on a text opens the
// overlay with the key's texts, description, checks and screenshots; Save
// writes through GraphQL (the write gate), the application shows the new text
// at once and a second browser sees it live; Escape closes; Capture uploads a
// screenshot whose marked rectangles are the elements' boxes (device pixel
// ratio 2). The editor comes from the service (/in-context/editor.js,
// imported by the plugin at run time); a build without the token shows no
// markers and loads no editor.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { axeViolations, launchBrowser, signIn } from '../support/browser.js';
import { buildApp, serveFolder } from '../support/in-context-app.js';

const INVISIBLE = /[\u200b\u200c\u2060\u2061\u2063]/;
const SHOTS = join(import.meta.dirname, '..', '..', '.test-data', 'in-context-screenshots');

let service: TestService;
let owner: TestAccount;
let api: ProjectApi;
let browser: Browser;
let work: string;
const servers: Server[] = [];
let appOrigin: string;
let plainOrigin: string;
let projectId: number;
/** The answers to the pages' requests for the service's editor module. */
const editorLoads: { url: string; status: number; contentType: string; origin: string }[] = [];

const cell = async (key: string, language: string, namespace = '') =>
  (
    await service.db.prisma.translation.findFirst({
      where: { projectId, key: { key, namespace }, language: { key: language } },
      select: { text: true },
    })
  )?.text;

async function openApp(origin: string, options: { scale?: number } = {}): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 900, height: 600 },
    deviceScaleFactor: options.scale ?? 1,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on('response', (r) => {
    if (new URL(r.url()).pathname === '/in-context/editor.js') {
      editorLoads.push({
        url: r.url(),
        status: r.status(),
        contentType: r.headers()['content-type'] ?? '',
        origin: r.request().headers().origin ?? '',
      });
    }
  });
  await page.goto(`${origin}/`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  return page;
}

async function look(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, name) });
}

beforeAll(async () => {
  service = await startTestService({ listen: true, worker: false });
  owner = await service.account();
  api = await projectApi(service, owner, 'Stats app');
  projectId = (await service.db.prisma.project.findUniqueOrThrow({ where: { projectToken: api.projectToken } })).id;
  expect(
    (
      await api.post('/api/v1/translations', {
        content: [
          { key: 'title', language: 'en', text: 'Statistics', description: 'The heading of the statistics page' },
          { key: 'title', language: 'de', text: 'Statistik' },
          { key: 'intro', language: 'en', text: "The month's key figures." },
          { key: 'intro', language: 'de', text: 'Die wichtigsten Zahlen des Monats.' },
          { key: 'greeting', language: 'en', text: 'Hello {{name}}' },
          { key: 'greeting', language: 'de', text: 'Hallo {{name}}' },
          { key: 'search', language: 'en', text: 'Search countries' },
          { key: 'search', language: 'de', text: 'Länder suchen' },
          { key: 'save', namespace: 'common', language: 'en', text: 'Save' },
          { key: 'save', namespace: 'common', language: 'de', text: 'Speichern' },
        ],
      })
    ).status,
  ).toBe(200);

  work = mkdtempSync(join(tmpdir(), 'in-context-app-'));
  // Two builds of the same application: with the token (a staging build) and without (production).
  const plainDir = join(work, 'plain');
  await buildApp(plainDir, { serviceUrl: service.url });
  const plain = await serveFolder(plainDir);
  servers.push(plain.server);
  plainOrigin = plain.origin;
  const editorDir = join(work, 'editor');
  const served = await serveFolder(editorDir);
  servers.push(served.server);
  appOrigin = served.origin;

  const gql = async (query: string, variables: Record<string, unknown>) => {
    const res = await service.request({
      method: 'POST',
      url: '/graphql',
      headers: { authorization: owner.token, 'content-type': 'application/json' },
      payload: { query, variables },
    });
    const body = res.json();
    expect(body.errors).toBeUndefined();
    return body.data;
  };
  await gql('mutation ($p: String, $o: [String!]!) { setInContextOrigins(projectToken: $p, origins: $o) }', {
    p: api.projectToken,
    o: [appOrigin],
  });
  const made = await gql(
    'mutation ($p: String, $i: NewInContextTokenInput) { createInContextToken(projectToken: $p, input: $i) { token } }',
    {
      p: api.projectToken,
      i: { name: 'staging', languages: ['de'], capture: true, lifetimeHours: 1 },
    },
  );
  await buildApp(editorDir, { serviceUrl: service.url, token: made.createInContextToken.token });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  for (const server of servers) server.close();
  await service?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('a build without the token', () => {
  it('shows plain texts, loads no editor and never calls the service', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    await page.goto(`${plainOrigin}/`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Statistik');
    const texts = await page.evaluate(
      () =>
        document.body.innerText +
        [...document.querySelectorAll('[placeholder]')].map((e) => e.getAttribute('placeholder')).join(''),
    );
    expect(INVISIBLE.test(texts)).toBe(false);
    expect(await page.evaluate(() => 'i18nextInContext' in window)).toBe(false);
    expect(requested.filter((u) => u.includes('/in-context/editor') || u.startsWith(service.url))).toEqual([]);
    await context.close();
  });
});

describe('editing in the running application', () => {
  let page: Page;
  let other: Page;

  beforeAll(async () => {
    page = await openApp(appOrigin);
    other = await openApp(appOrigin);
    for (const p of [page, other]) await p.waitForFunction(() => 'i18nextInContext' in window);
  });

  it('loads the editor from the service, across origins', () => {
    // Each page imported the editor module from the service (not from the application's files).
    expect(editorLoads.length).toBeGreaterThanOrEqual(2);
    for (const load of editorLoads) {
      expect(load).toEqual({
        url: `${service.url}/in-context/editor.js`,
        status: 200,
        contentType: expect.stringMatching(/^text\/javascript/),
        origin: appOrigin,
      });
    }
  });

  it('shows the texts without markers', async () => {
    expect(await page.locator('h1').textContent()).toBe('Statistik');
    expect(await page.getByRole('button', { name: 'Speichern' }).isVisible()).toBe(true);
    const texts = await page.evaluate(
      () => document.body.innerText + document.getElementById('search')!.getAttribute('placeholder'),
    );
    expect(INVISIBLE.test(texts)).toBe(false);
    expect(texts).toContain('Länder suchen');
  });

  it('Alt+click opens the overlay with the texts, the description and the checks; Escape closes it', async () => {
    await page.getByRole('heading', { name: 'Statistik' }).click({ modifiers: ['Alt'] });
    const dialog = page.getByRole('dialog', { name: 'Translate “title”' });
    await dialog.waitFor();
    await expect.poll(() => dialog.getByText('The heading of the statistics page').isVisible()).toBe(true);
    expect(await dialog.getByLabel(/\(en\)/).inputValue()).toBe('Statistics');
    expect(await dialog.getByLabel(/\(de\)/).inputValue()).toBe('Statistik');
    // The token writes German only: English is shown read-only.
    expect(await dialog.getByLabel(/\(en\)/).getAttribute('readonly')).not.toBeNull();
    await look(page, 'overlay.png');
    // The overlay (in its shadow root) and the page pass axe-core's serious and critical rules.
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // The checks run as the translator types: a placeholder dropped is reported.
    await page.getByText('Hallo Ada').click({ modifiers: ['Alt'] });
    const greeting = page.getByRole('dialog', { name: 'Translate “greeting”' });
    await greeting.getByLabel(/\(de\)/).fill('Hallo');
    await expect
      .poll(() =>
        greeting
          .getByRole('list', { name: /Checks of/ })
          .last()
          .textContent(),
      )
      .toMatch(/name/);
    await greeting.getByRole('button', { name: 'Cancel' }).click();
    await greeting.waitFor({ state: 'hidden' });
    expect(await cell('greeting', 'de')).toBe('Hallo {{name}}');
  });

  it('saves through the service: the application shows the new text at once, the second browser live', async () => {
    await page.getByRole('heading', { name: 'Statistik' }).click({ modifiers: ['Alt'] });
    const dialog = page.getByRole('dialog', { name: 'Translate “title”' });
    await dialog.getByLabel(/\(de\)/).fill('Monatsstatistik');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => page.locator('h1').textContent()).toBe('Monatsstatistik');
    expect(await cell('title', 'de')).toBe('Monatsstatistik');
    await expect.poll(() => other.locator('h1').textContent(), { timeout: 10_000 }).toBe('Monatsstatistik');
    await look(other, 'second-browser-live.png');

    // Published, the application's files carry the translator's text.
    expect(
      (
        await service.request({
          method: 'POST',
          url: '/api/v2/environments/_latest/publish',
          headers: { 'x-service-token': api.apiKey },
          payload: {},
        })
      ).statusCode,
    ).toBe(200);
    const published = await service.request({ url: `/cdn/${api.projectToken}/_latest/de` });
    expect(published.statusCode).toBe(200);
    expect(published.body).toContain('Monatsstatistik');

    // A change made elsewhere (the project's API) arrives in both.
    expect(
      (await api.patch('/api/v2/translations', { key: 'save', namespace: 'common', language: 'de', text: 'Sichern' }))
        .status,
    ).toBe(200);
    for (const p of [page, other])
      await expect.poll(() => p.locator('#save').textContent(), { timeout: 10_000 }).toBe('Sichern');
    expect(INVISIBLE.test((await page.locator('#save').textContent())!)).toBe(false);
  });

  it('refuses what the token may not write, and says why', async () => {
    await page.getByRole('heading', { name: 'Monatsstatistik' }).click({ modifiers: ['Alt'] });
    const dialog = page.getByRole('dialog', { name: 'Translate “title”' });
    // A read-only field cannot be typed into; the English text stays.
    expect(await dialog.getByLabel(/\(en\)/).isEditable()).toBe(false);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await cell('title', 'en')).toBe('Statistics');
  });
});

describe('capture', () => {
  it('uploads a screenshot of the page with every translated element marked at its box', async () => {
    const page = await openApp(appOrigin, { scale: 2 });
    await page.waitForFunction(() => 'i18nextInContext' in window);
    await page.getByRole('button', { name: 'Capture screenshot' }).click();
    await page.getByText(/Screenshot uploaded with \d+ keys marked/).waitFor({ timeout: 30_000 });
    // The current view: the viewport's pixels, each element marked at its box in it.
    const boxes = await page.evaluate(() => {
      const ratio = window.devicePixelRatio;
      const box = (id: string) => {
        const r = document.getElementById(id)!.getBoundingClientRect();
        return { x: r.left * ratio, y: r.top * ratio, width: r.width * ratio, height: r.height * ratio };
      };
      return {
        ratio,
        title: box('title'),
        intro: box('intro'),
        greeting: box('greeting'),
        save: box('save'),
        search: box('search'),
        width: document.documentElement.clientWidth * ratio,
        height: document.documentElement.clientHeight * ratio,
      };
    });
    expect(boxes.ratio).toBe(2);
    const shot = await service.db.prisma.screenshot.findFirstOrThrow({
      where: { projectId },
      orderBy: { id: 'desc' },
      include: { links: { include: { key: true } } },
    });
    expect([shot.width, shot.height]).toEqual([boxes.width, boxes.height]);
    const marks = new Map(shot.links.map((l) => [`${l.key.namespace}:${l.key.key}`, l]));
    expect([...marks.keys()].sort()).toEqual([':greeting', ':intro', ':search', ':title', 'common:save']);
    for (const [name, id] of [
      [':title', 'title'],
      [':intro', 'intro'],
      [':greeting', 'greeting'],
      ['common:save', 'save'],
      [':search', 'search'],
    ] as const) {
      const mark = marks.get(name)!;
      const box = boxes[id];
      for (const side of ['x', 'y', 'width', 'height'] as const)
        expect(Math.abs(mark[side] - box[side]), `${name} ${side}`).toBeLessThanOrEqual(3);
    }
    // The image itself: look at it, and check that the heading's rectangle holds the header's blue.
    const image = await service.request({
      url: `/api/v2/screenshots/${shot.id}/image`,
      headers: { 'x-service-token': api.apiKey },
    });
    expect(image.statusCode).toBe(200);
    mkdirSync(SHOTS, { recursive: true });
    writeFileSync(join(SHOTS, 'captured.png'), image.rawPayload);
    const title = marks.get(':title')!;
    const { data } = await sharp(image.rawPayload)
      .extract({ left: title.x + title.width + 8, top: title.y + 2, width: 2, height: 2 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([data[0], data[1], data[2]]).toEqual([0x24, 0x56, 0xd3]);

    // The overlay shows the screenshot's thumbnail for a key marked on it.
    await page.getByRole('heading', { level: 1 }).click({ modifiers: ['Alt'] });
    const dialog = page.getByRole('dialog', { name: 'Translate “title”' });
    const thumbnail = dialog.getByRole('img', { name: /Screenshot:/ });
    await expect
      .poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    await look(page, 'overlay-with-screenshot.png');
  });
});

describe('the console', () => {
  it('sets the allowed origins, makes a token shown once, lists it and revokes it', async () => {
    const page = await signIn(browser, service, owner);
    page.setDefaultTimeout(15_000);
    await page.goto(`${service.url}/#/projects/${api.projectToken}/settings`);
    const section = page.getByRole('region', { name: 'In-context editing' });
    await section.waitFor();
    const origins = section.getByRole('textbox', { name: /Allowed origins/ });
    await expect.poll(() => origins.inputValue()).toBe(appOrigin);
    await origins.fill(`${appOrigin}\nhttps://staging.example.com/`);
    await section.getByRole('button', { name: 'Save origins' }).click();
    await section.getByText('Allowed origins saved (2)').waitFor();
    await expect.poll(() => origins.inputValue()).toBe(`${appOrigin}\nhttps://staging.example.com`);

    await section.getByLabel('Token name').fill('console token');
    await section.getByLabel('German (de)').check();
    await section.getByLabel('May capture screenshots').check();
    await section.getByLabel('Expires after').selectOption('8');
    await section.getByRole('button', { name: 'Make token' }).click();
    const token = (await section.getByLabel('New in-context token').textContent())!;
    expect(token).toMatch(/^ict_/);
    const row = section.getByRole('row', { name: /console token/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('de');
    expect(await axeViolations(page)).toEqual([]);
    await look(page, 'console-settings.png');

    const read = () =>
      service.request({
        method: 'POST',
        url: '/graphql',
        headers: { 'x-incontext-token': token, origin: appOrigin, 'content-type': 'application/json' },
        payload: { query: '{ inContextSession { languages capture } }' },
      });
    expect((await read()).json().data.inContextSession).toEqual({ languages: ['de'], capture: true });
    await section.getByRole('button', { name: 'Revoke console token' }).click();
    await section.getByText('Revoked console token').waitFor();
    await expect.poll(() => row.textContent()).toContain('revoked');
    expect((await read()).json().errors[0].message).toContain('revoked');
  });
});
