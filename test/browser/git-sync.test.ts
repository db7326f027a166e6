// The Git sync screen in headless Chromium against the real service, a real
// Git server (git http-backend on loopback) and a loopback GitHub API: a team
// connects its repository, previews and pulls the English source file, adds a
// translation, pushes and gets a pull request with the translated files; the
// last syncs list them. axe-core checks the screen before and after connecting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { prisma } from '../../src/db.js';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { axeViolations, launchBrowser, signIn } from '../support/browser.js';
import { startGitHubApi, startGitServer, type ForgeServer, type GitServer } from '../support/git-server.js';

const TOKEN = 'ghp_BrowserTestToken0123456789';
let service: TestService;
let browser: Browser;
let alice: TestAccount;
let api: ProjectApi;
let page: Page;
let gitServer: GitServer;
let github: ForgeServer;

beforeAll(async () => {
  service = await startTestService({ listen: true, worker: false, env: { GIT_ALLOW_PRIVATE_HOSTS: 'true' } });
  gitServer = await startGitServer({ user: 'x-access-token', token: TOKEN });
  github = await startGitHubApi({
    repository: 'team/shop',
    token: TOKEN,
    branchExists: (b) => gitServer.head('team/shop.git', b) !== undefined,
  });
  gitServer.createRepository('team/shop.git', {
    'locales/en/common.json': JSON.stringify({ 'cart.title': 'Your cart' }),
  });
  browser = await launchBrowser();
  alice = await service.account({ email: 'git-sync@example.com' });
  api = await projectApi(service, alice, 'Shop');
  expect((await api.post('/api/v1/languages', { key: 'de', name: 'German' })).status).toBe(200);
  page = await signIn(browser, service, alice);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await github?.close();
  await gitServer?.close();
  await service?.close();
});

describe('Git sync screen', { timeout: 180_000 }, () => {
  it('connects a repository, pulls the English key, pushes and shows the pull request', async () => {
    await page.goto(`${service.url}/#/projects/${api.projectToken}/git`);
    await page.getByRole('heading', { name: 'Connect a repository' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel('Repository URL').fill(`${gitServer.url}/team/shop.git`);
    await page.getByLabel('Authentication').selectOption('TOKEN');
    await page.getByLabel(/^Access token/).fill(TOKEN);
    await page.getByLabel('File path pattern').fill('locales/{lang}/{ns}.json');
    await page.getByLabel('Format').selectOption('SINGLE_LANGUAGE_JSON');
    await page.getByLabel('Pull requests on').selectOption('GITHUB');
    await page.getByLabel('Forge API URL').fill(github.url);
    await page.getByRole('button', { name: 'Connect repository' }).click();

    await page.getByRole('heading', { name: 'Repository' }).waitFor();
    const secret = await page.getByLabel('Webhook secret').inputValue();
    expect(secret).toMatch(/^gitwh_/);
    expect(await page.getByLabel('Webhook URL').inputValue()).toMatch(/\/api\/git\/hooks\/\d+$/);
    expect(await page.content()).not.toContain(TOKEN);

    await page.getByRole('button', { name: 'Preview pull' }).click();
    await page.getByRole('status').filter({ hasText: 'Previewed 1 file' }).waitFor();
    await page.getByRole('cell', { name: /1 key to create, 1 text to add/ }).waitFor();
    expect(await prisma().translationKey.count({ where: { project: { projectToken: api.projectToken } } })).toBe(0);

    await page.getByRole('button', { name: 'Pull now' }).click();
    await page.getByRole('status').filter({ hasText: 'Imported 1 file' }).waitFor();
    await page.getByRole('cell', { name: /1 key created, 1 text added/ }).waitFor();
    expect(
      await prisma().translationKey.findMany({
        where: { project: { projectToken: api.projectToken } },
        select: { key: true, namespace: true },
      }),
    ).toEqual([{ key: 'cart.title', namespace: 'common' }]);

    expect(
      (
        await api.patch('/api/v2/translations', {
          key: 'cart.title',
          namespace: 'common',
          language: 'de',
          text: 'Ihr Warenkorb',
        })
      ).status,
    ).toBe(200);
    await page.getByRole('button', { name: 'Push now' }).click();
    const link = page.getByRole('link', { name: 'pull request #1' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe('https://github.example/team/shop/pull/1');
    expect(JSON.parse(gitServer.show('team/shop.git', 'l10n/shop', 'locales/de/common.json'))).toEqual({
      'cart.title': 'Ihr Warenkorb',
    });
    expect(github.pulls).toEqual([expect.objectContaining({ head: 'l10n/shop', base: 'main', state: 'open' })]);

    const runs = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Started by' }) });
    await expect.poll(async () => await runs.getByRole('row').count()).toBe(4);
    expect(await runs.getByRole('row').nth(1).textContent()).toContain('Push');
    await page.getByText('Change settings').click();
    await page.getByLabel('Push schedule').fill('0 6 * * 1-5');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Settings saved' }).waitFor();
    expect(
      (await prisma().gitConnection.findFirstOrThrow({ where: { project: { projectToken: api.projectToken } } }))
        .pushSchedule,
    ).toBe('0 6 * * 1-5');
    await page.getByLabel('Push schedule').fill('every day');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('alert').filter({ hasText: 'pushSchedule is not a cron expression' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: '.test-data/git-sync-screen.png', fullPage: true });
  });
});
