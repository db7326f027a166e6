// The console's Screenshots screen and the key panel's screenshots in headless
// Chromium against the real service: a real screenshot (corpus) uploaded, a
// rectangle drawn with the mouse and given a key, moved by dragging (the
// stored pixels follow the drag), the editor's filter with and without a
// screenshot, and the key panel showing the screenshot with the key's
// rectangle highlighted where it was drawn; axe-core checks of the screens.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { axeViolations, launchBrowser, signIn } from '../support/browser.js';
import { corpusPath } from '../support/corpus.js';

const FILE = corpusPath('screenshots', 'aves_ar_phoneScreenshots_5.png');
const NAME = 'aves_ar_phoneScreenshots_5.png';
const present = existsSync(FILE);

let service: TestService;
let browser: Browser;
let api: ProjectApi;
let page: Page;

const links = () =>
  service.db.prisma.keyScreenshot.findMany({ include: { key: { select: { key: true } } }, orderBy: { id: 'asc' } });

beforeAll(async () => {
  if (!present) return;
  service = await startTestService({ listen: true, worker: false });
  browser = await launchBrowser();
  const alice = await service.account({ email: 'alice@example.com' });
  api = await projectApi(service, alice, 'Stats app');
  expect(
    (
      await api.post('/api/v1/translations', {
        content: [
          { key: 'title', language: 'en', text: 'Statistics' },
          { key: 'countries', language: 'en', text: 'Top countries' },
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

describe.skipIf(!present)('screenshots in the console', () => {
  it('uploads a screenshot, marks a key by drawing a rectangle, and moves it by dragging', async () => {
    await page.goto(`${service.url}/#/projects/${api.projectToken}/screenshots`);
    await page.getByRole('heading', { name: 'Screenshots' }).waitFor();
    await page.getByLabel('Screenshot file').setInputFiles(FILE);
    await page.getByRole('button', { name: 'Upload screenshot' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Uploaded ${NAME}` })
      .waitFor();
    // The list's button names the screenshot and how many keys it shows.
    await page.getByRole('button', { name: `${NAME} 0 keys` }).waitFor();
    const image = page.getByRole('img', { name: `Screenshot ${NAME}` });
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(350);
    expect(await axeViolations(page)).toEqual([]);

    // Drag from 10 % / 10 % to 50 % / 20 % of the image: 35,82 .. 175,163 in its 350 × 817 pixels.
    // The image scrolled into view first: the mouse acts only within the viewport.
    await image.evaluate((img) => img.scrollIntoView({ block: 'start' }));
    const box = (await image.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(900);
    const at = (fx: number, fy: number) => [box.x + box.width * fx, box.y + box.height * fy] as const;
    await page.mouse.move(...at(0.1, 0.1));
    await page.mouse.down();
    await page.mouse.move(...at(0.3, 0.15), { steps: 4 });
    await page.mouse.move(...at(0.5, 0.2), { steps: 4 });
    await page.mouse.up();
    const form = page.getByRole('form', { name: 'Mark a key' });
    await form.getByLabel('Key').fill('title');
    await form.getByRole('button', { name: 'Mark key' }).click();
    await page.getByRole('button', { name: 'Mark of title' }).waitFor();
    const [drawn] = await links();
    expect(drawn!.key.key).toBe('title');
    for (const [value, expected] of [
      [drawn!.x, 35],
      [drawn!.y, 82],
      [drawn!.width, 140],
      [drawn!.height, 82],
    ] as const)
      expect(Math.abs(value - expected)).toBeLessThanOrEqual(2);

    // Drag the rectangle by 10 % right and 20 % down: 35 and 163 pixels.
    const mark = (await page.getByRole('button', { name: 'Mark of title' }).boundingBox())!;
    const start = [mark.x + mark.width / 2, mark.y + mark.height / 2] as const;
    await page.mouse.move(...start);
    await page.mouse.down();
    await page.mouse.move(start[0] + box.width * 0.05, start[1] + box.height * 0.1, { steps: 4 });
    await page.mouse.move(start[0] + box.width * 0.1, start[1] + box.height * 0.2, { steps: 4 });
    await page.mouse.up();
    await page.getByRole('status').filter({ hasText: 'Moved title' }).waitFor();
    await expect.poll(async () => (await links())[0]!.x).not.toBe(drawn!.x);
    const [after] = await links();
    expect(Math.abs(after!.x - (drawn!.x + 35))).toBeLessThanOrEqual(2);
    expect(Math.abs(after!.y - (drawn!.y + 163))).toBeLessThanOrEqual(2);
    expect([after!.width, after!.height]).toEqual([drawn!.width, drawn!.height]);

    // A second rectangle, for another key.
    await page.mouse.move(...at(0.05, 0.6));
    await page.mouse.down();
    await page.mouse.move(...at(0.9, 0.65), { steps: 4 });
    await page.mouse.up();
    await form.getByLabel('Key').fill('countries');
    await form.getByRole('button', { name: 'Mark key' }).click();
    await page.getByRole('button', { name: 'Mark of countries' }).waitFor();
    expect((await links()).map((l) => l.key.key)).toEqual(['title', 'countries']);
    await page.getByRole('button', { name: 'Mark of title' }).click();
    const selected = page.getByRole('form', { name: 'Selected mark' });
    expect(await selected.getByLabel('Key').inputValue()).toBe('title');
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/console-screenshots.png' });
  });

  it("filters the editor's keys by screenshot, and the key panel shows the key's rectangle", async () => {
    // countries: unmarked again, so the filter has one key each way.
    const countries = (await links()).find((l) => l.key.key === 'countries')!;
    expect((await api.delete(`/api/v2/screenshots/${countries.screenshotId}/links/${countries.id}`)).status).toBe(200);
    await page.goto(`${service.url}/#/projects/${api.projectToken}/translations`);
    // The screenshot filter is one of the rarer ones, behind "More filters".
    await page.getByRole('button', { name: 'More filters' }).click();
    await page.getByLabel('Screenshots').selectOption('true');
    await expect.poll(() => page.locator('.count').textContent()).toBe('1 key');
    await page.getByLabel('Screenshots').selectOption('false');
    await expect.poll(() => page.locator('.count').textContent()).toBe('1 key');
    await page.getByRole('rowheader', { name: /^countries/ }).waitFor();
    await page.getByLabel('Screenshots').selectOption('true');
    await page.getByRole('rowheader', { name: /^title/ }).click();
    const panel = page.getByRole('complementary', { name: 'Key title' });
    const thumbnail = panel.getByRole('img', { name: `Screenshot ${NAME}` });
    await expect
      .poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    const highlight = panel.getByRole('img', { name: `Where title is on ${NAME}` });
    // The highlight sits where the rectangle is, in the thumbnail's own scale.
    const [link] = await links();
    const [frame, spot] = [(await thumbnail.boundingBox())!, (await highlight.boundingBox())!];
    expect(Math.abs((spot.x - frame.x) / frame.width - link!.x / 350)).toBeLessThan(0.02);
    expect(Math.abs((spot.y - frame.y) / frame.height - link!.y / 817)).toBeLessThan(0.02);
    expect(Math.abs(spot.width / frame.width - link!.width / 350)).toBeLessThan(0.02);
    expect(await axeViolations(page)).toEqual([]);
    await thumbnail.scrollIntoViewIfNeeded();
    await panel.screenshot({ path: '/tmp/console-key-panel-screenshots.png' });
  });
});
