// A new project's first run (#39): creating a project opens it; its first-run
// checklist (add languages, import, invite, publish, connect the app) ticks
// from the project's real state as each step is done elsewhere, and goes away
// when all are done, or for good once dismissed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { axeViolations, launchBrowser, signIn } from '../support/browser.js';

let service: TestService;
let browser: Browser;
let bob: TestAccount;
let page: Page;

/** GraphQL as bob (his personal token): the steps done by the account, not by the project API key. */
async function asBob(query: string, variables: Record<string, unknown>) {
  const res = await service.request({
    method: 'POST',
    url: '/graphql',
    headers: { authorization: bob.token, 'content-type': 'application/json' },
    payload: { query, variables },
  });
  const body = res.json();
  expect(body.errors).toBeUndefined();
  return body.data;
}

async function projectByName(name: string): Promise<{ projectToken: string; apiKey: string }> {
  const res = await service.request({ url: '/api/v2/projects', headers: { authorization: bob.token } });
  return res.json().data.find((p: { name: string }) => p.name === name);
}

const checklist = () => page.getByRole('region', { name: 'Get started' });
const step = (label: string) => checklist().getByRole('listitem').filter({ hasText: label });
/** The steps as the screen reader hears them: "Add languages (done)". */
const steps = () =>
  checklist()
    .getByRole('listitem')
    .evaluateAll((items) =>
      items.map((li) =>
        [...li.children]
          .filter((child) => child.getAttribute('aria-hidden') !== 'true')
          .map((child) => child.textContent)
          .join('')
          .trim(),
      ),
    );

beforeAll(async () => {
  service = await startTestService({ listen: true, worker: false });
  browser = await launchBrowser();
  bob = await service.account({ email: 'bob@example.com' });
  page = await signIn(browser, service, bob);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
});

describe('a first project', () => {
  it('is created and opened on its checklist, whose steps tick from the real state until it goes away', async () => {
    await page.getByRole('region', { name: 'No project yet' }).waitFor();
    await page.getByLabel('New project name').fill('Fresh app');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { level: 1, name: 'Fresh app' }).waitFor();
    const { projectToken, apiKey } = await projectByName('Fresh app');
    expect(page.url()).toBe(`${service.url}/#/projects/${projectToken}`);
    await checklist().waitFor();
    expect(await steps()).toEqual([
      'Add languages (to do)',
      'Import your texts (to do)',
      'Invite your team (to do)',
      'Publish (to do)',
      'Connect your app (to do)',
    ]);
    expect(await checklist().textContent()).toContain('0 of 5 done');
    expect(await step('Import your texts').getByRole('link').getAttribute('href')).toBe(
      `#/projects/${projectToken}/import`,
    );
    expect(await axeViolations(page)).toEqual([]);

    // Each step done elsewhere ticks once the project is opened again.
    const reopen = async () => {
      await page.goto(`${service.url}/#/`);
      await page.getByRole('heading', { name: 'Projects' }).waitFor();
      await page.getByRole('link', { name: 'Fresh app' }).click();
      await page.getByRole('heading', { level: 1, name: 'Fresh app' }).waitFor();
    };
    await asBob(
      `mutation ($p: String!) { createLanguage(projectToken: $p, input: { key: "de", name: "German" }) { key } }`,
      {
        p: projectToken,
      },
    );
    await asBob(`mutation ($p: String!) { createTranslationKey(projectToken: $p, input: { key: "hello" }) { key } }`, {
      p: projectToken,
    });
    await reopen();
    await expect
      .poll(steps)
      .toEqual([
        'Add languages (done)',
        'Import your texts (done)',
        'Invite your team (to do)',
        'Publish (to do)',
        'Connect your app (to do)',
      ]);
    expect(await checklist().textContent()).toContain('2 of 5 done');
    await asBob(
      `mutation ($p: String!) { inviteMember(projectToken: $p, email: "carol@example.com", role: TRANSLATOR) { __typename } }`,
      { p: projectToken },
    );
    await asBob(`mutation ($p: String!) { publishEnvironment(projectToken: $p, key: "_latest") { __typename } }`, {
      p: projectToken,
    });
    await reopen();
    await expect
      .poll(steps)
      .toEqual([
        'Add languages (done)',
        'Import your texts (done)',
        'Invite your team (done)',
        'Publish (done)',
        'Connect your app (to do)',
      ]);
    // The app (or its build) calls the API with the project API key: the last step, and the list goes.
    const res = await service.request({
      method: 'POST',
      url: '/api/v1/translations',
      headers: { 'x-service-token': apiKey },
      payload: { content: [{ key: 'hello', language: 'en', text: 'Hello' }] },
    });
    expect(res.statusCode).toBe(200);
    await reopen();
    await page.getByRole('gridcell', { name: /^hello in en: Hello/ }).waitFor();
    await expect.poll(() => checklist().count()).toBe(0);
  });

  it('goes away for good once dismissed', async () => {
    await page.goto(`${service.url}/#/`);
    await page.getByLabel('New project name').fill('Second app');
    await page.getByRole('button', { name: 'Create project' }).click();
    await checklist().waitFor();
    await checklist().getByRole('button', { name: 'Dismiss' }).click();
    expect(await checklist().count()).toBe(0);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Second app' }).waitFor();
    await page.getByRole('region', { name: 'This project has no keys yet' }).waitFor();
    expect(await checklist().count()).toBe(0);
  });
});
