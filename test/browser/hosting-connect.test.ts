// Hosting tells how an app connects (#39): the CDN's base URL, the project
// token and a ready i18next configuration, each copyable, for the chosen
// environment; the loadPath it gives serves the published file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { axeViolations, launchBrowser, signIn } from '../support/browser.js';

let service: TestService;
let browser: Browser;
let alice: TestAccount;
let api: ProjectApi;
let page: Page;

beforeAll(async () => {
  service = await startTestService({ listen: true, worker: false });
  browser = await launchBrowser();
  alice = await service.account({ email: 'alice@example.com' });
  api = await projectApi(service, alice, 'Shop app');
  const content = [{ key: 'cart.title', language: 'en', text: 'Your cart' }];
  expect((await api.post('/api/v1/translations', { content })).status).toBe(200);
  const published = await api.gql(`mutation { publishEnvironment(key: "_latest") { version } }`);
  expect(published.errors).toBeUndefined();
  page = await signIn(browser, service, alice);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.url });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
});

describe('connect your app', () => {
  it('shows the CDN base URL, the project token and an i18next loadPath that serves the file, each copyable', async () => {
    await page.goto(`${service.url}/#/projects/${api.projectToken}/hosting`);
    const section = page.getByRole('region', { name: 'Connect your app' });
    await section.waitFor();
    const value = (label: string) => section.getByLabel(label, { exact: true }).inputValue();
    expect(await value('Project token')).toBe(api.projectToken);
    // _production first: what an app in production reads.
    expect(await section.getByRole('combobox', { name: /^Environment/ }).inputValue()).toBe('_production');
    const cdn = (await value('CDN base URL'))!;
    expect(cdn).toMatch(/^https?:\/\//);
    expect(await value('Files of this environment')).toBe(`${cdn}/${api.projectToken}/_production`);
    const snippet = () => section.getByLabel('i18next configuration').inputValue();
    expect(await snippet()).toContain(`loadPath: '${cdn}/${api.projectToken}/_production/{{lng}}'`);
    await section.getByRole('combobox', { name: /^Environment/ }).selectOption('_latest');
    const text = (await snippet())!;
    const loadPath = /loadPath: '([^']+)'/.exec(text)![1]!;
    expect(loadPath).toBe(`${cdn}/${api.projectToken}/_latest/{{lng}}`);
    expect(text).toContain("fallbackLng: 'en'");
    // The path serves the published file.
    // (The test service's CDN base URL is not this listener: the service serves the path, as it does behind the CDN.)
    const served = await service.request({ url: new URL(loadPath.replace('{{lng}}', 'en')).pathname });
    expect(served.statusCode).toBe(200);
    expect(served.json()).toEqual({ 'cart.title': 'Your cart' });
    // Copyable.
    await section.getByRole('button', { name: 'Copy i18next configuration' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(text);
    await section.getByRole('button', { name: 'Copy project token' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(api.projectToken);
    expect(await axeViolations(page)).toEqual([]);
  });
});
