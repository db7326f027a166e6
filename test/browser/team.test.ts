// The console's team screens in headless Chromium against the real service:
// an e-mail invitation (link shown without SMTP) accepted by a new account in
// a second browser, the translator's Members screen without admin actions,
// the owner changing its languages, a reset role link refusing the old one;
// the Activity screen (an edit's cells, the kind filter, revert, a REST write
// arriving live); axe-core checks of the three screens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { axeViolations, launchBrowser, newPage, signIn } from '../support/browser.js';

let service: TestService;
let browser: Browser;
let alice: TestAccount;
let api: ProjectApi;
let owner: Page;
let ana: Page;

/** Links carry PUBLIC_URL; the test service listens elsewhere. */
const local = (link: string) => link.replace('http://localhost:8080', service.url);

const membersOf = async () => {
  const res = await service.request({
    method: 'POST',
    url: '/graphql',
    headers: { authorization: alice.token, 'content-type': 'application/json' },
    payload: {
      query: 'query($p: String!) { members(projectToken: $p) { email role languages canReview } }',
      variables: { p: api.projectToken },
    },
  });
  return res.json().data.members as { email: string; role: string; languages: string[]; canReview: boolean }[];
};

const textOf = async (key: string, language: string) =>
  (await api.get(`/api/v2/translations?key=${key}&language=${language}`)).data[0]?.text;

beforeAll(async () => {
  service = await startTestService({ listen: true, worker: false });
  browser = await launchBrowser();
  alice = await service.account({ email: 'alice@example.com' });
  api = await projectApi(service, alice, 'Team app');
  expect((await api.post('/api/v1/languages', { key: 'de', name: 'German' })).status).toBe(200);
  expect(
    (
      await api.post('/api/v1/translations', {
        content: [
          { key: 'greeting', language: 'en', text: 'Hello' },
          { key: 'greeting', language: 'de', text: 'Hallo' },
          { key: 'farewell', language: 'en', text: 'Bye' },
        ],
      })
    ).status,
  ).toBe(200);
  // The edit the activity screen reverts.
  expect((await api.patch('/api/v2/translations', { key: 'greeting', language: 'en', text: 'Hi there' })).status).toBe(
    200,
  );
  owner = await signIn(browser, service, alice);
  // Confirmations (transfer, remove, reset, revert) are the browser's own dialog.
  owner.on('dialog', (dialog) => void dialog.accept());
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
});

describe('members and invitations', () => {
  it('invites a translator by e-mail (link shown); a second browser opens it, creates the account and lands in the project', async () => {
    await owner.goto(`${service.url}/#/projects/${api.projectToken}/members`);
    await owner.getByRole('heading', { name: 'Members of Team app' }).waitFor();
    await owner.getByLabel('E-mail address').fill('ana@example.com');
    expect(await owner.getByLabel('Role of the invitee').inputValue()).toBe('TRANSLATOR');
    await owner.getByRole('button', { name: 'Invite', exact: true }).click();
    const linkBox = owner.getByLabel('Invitation link for ana@example.com');
    await linkBox.waitFor();
    const link = await linkBox.inputValue();
    expect(link).toMatch(/^http:\/\/localhost:8080\/#\/invitations\/lms_inv_/);
    await owner.getByRole('button', { name: 'Cancel the invitation of ana@example.com' }).waitFor();
    expect(await axeViolations(owner)).toEqual([]);

    ana = await newPage(browser);
    await ana.goto(local(link));
    await ana.getByRole('heading', { name: 'Join Team app' }).waitFor();
    expect(await ana.locator('main').textContent()).toMatch(/as a translator \(invitation for ana@example\.com\)/);
    expect(await axeViolations(ana)).toEqual([]);
    await ana.getByLabel('Name').fill('Ana');
    await ana.getByLabel('Password (at least 8 characters)').fill('ana secret password');
    await ana.getByRole('button', { name: 'Create account and join' }).click();
    await ana.getByRole('heading', { name: 'Team app', exact: true }).waitFor();
    expect(await ana.locator('.who').textContent()).toBe('ana@example.com');
    expect(await membersOf()).toContainEqual({
      email: 'ana@example.com',
      role: 'TRANSLATOR',
      languages: [],
      canReview: false,
    });
    // Used once: the link now explains itself.
    const again = await newPage(browser);
    await again.goto(local(link));
    await expect.poll(() => again.getByRole('alert').textContent()).toMatch(/already been used/);
    await again.context().close();
  });

  it('offers the translator no admin action on its Members screen', async () => {
    await ana.getByRole('link', { name: 'Members' }).click();
    await ana.getByRole('heading', { name: 'Members of Team app' }).waitFor();
    await ana.getByRole('button', { name: 'Leave project' }).waitFor();
    const row = ana.getByRole('row', { name: /ana@example\.com/ });
    expect(await row.textContent()).toMatch(/Translator/);
    for (const name of [/^Invite$/, /^Remove/, /^Make owner/, /^Save/, /^Reset/, /^Disable/, /^Cancel/]) {
      expect(await ana.getByRole('button', { name }).count(), String(name)).toBe(0);
    }
    expect(await ana.getByRole('main').getByRole('combobox').count()).toBe(0);
    expect(await ana.getByRole('heading', { name: 'Role links' }).count()).toBe(0);
    expect(await axeViolations(ana)).toEqual([]);
  });

  it("lets the owner change the translator's languages and review permission", async () => {
    await owner.reload();
    const languages = owner.getByRole('group', { name: /Languages of ana@example\.com/ });
    await languages.getByLabel('de').check();
    await owner.getByLabel('May review of ana@example.com').check();
    await owner.getByRole('button', { name: 'Save ana@example.com' }).click();
    await expect.poll(() => owner.getByRole('status').first().textContent()).toBe('Saved ana@example.com');
    expect(await membersOf()).toContainEqual({
      email: 'ana@example.com',
      role: 'TRANSLATOR',
      languages: ['de'],
      canReview: true,
    });
    // The accepted invitation is no longer pending.
    expect(await owner.getByRole('button', { name: /Cancel the invitation/ }).count()).toBe(0);
  });

  it('a reset role link makes the old link refused; an existing account signs in on the new one and joins', async () => {
    await owner.getByRole('button', { name: 'Create the viewer link' }).click();
    const box = owner.getByLabel('Viewer link');
    await box.waitFor();
    const first = await box.inputValue();
    await owner.getByRole('button', { name: 'Reset the viewer link' }).click();
    await expect.poll(() => box.inputValue()).not.toBe(first);
    const second = await box.inputValue();
    const visitor = await newPage(browser);
    await visitor.goto(local(first));
    await expect.poll(() => visitor.getByRole('alert').textContent()).toMatch(/not valid/);
    await visitor.goto(local(second));
    await visitor.reload();
    await visitor.getByRole('heading', { name: 'Join Team app' }).waitFor();
    expect(await visitor.locator('main').textContent()).toMatch(/as a viewer/);
    // An existing account signs in on the page, and joins as itself.
    const bob = await service.account({ email: 'bob@example.com' });
    await visitor.getByRole('button', { name: 'I already have an account' }).click();
    await visitor.getByLabel('Email').fill(bob.email);
    await visitor.getByLabel('Password').fill(bob.password);
    await visitor.getByRole('button', { name: 'Sign in and join' }).click();
    await visitor.getByRole('heading', { name: 'Team app', exact: true }).waitFor();
    expect(await membersOf()).toContainEqual({
      email: 'bob@example.com',
      role: 'VIEWER',
      languages: [],
      canReview: false,
    });
    await visitor.context().close();
  });
});

describe('activity', () => {
  const entries = () => owner.getByRole('list', { name: 'Activity entries' }).getByRole('listitem');
  const summaries = () => owner.getByRole('list', { name: 'Activity entries' }).locator('.entry-summary');

  it('shows the log, filters by kind, opens an edit with its cells and reverts it', async () => {
    await owner.getByRole('link', { name: 'Activity' }).click();
    await owner.getByRole('heading', { name: 'Activity of Team app' }).waitFor();
    await expect
      .poll(() => summaries().allTextContents())
      .toContainEqual(expect.stringMatching(/^Wrote 3 texts.*Translations written · API key via REST API/));
    expect(await axeViolations(owner)).toEqual([]);
    await owner.getByLabel('Kind').selectOption('TRANSLATIONS');
    await expect.poll(async () => (await summaries().allTextContents()).length).toBe(2);
    for (const text of await summaries().allTextContents()) expect(text).toMatch(/Translations written/);
    // Newest first: the PATCH of one cell.
    const edit = summaries().first();
    expect(await edit.textContent()).toMatch(/^Wrote 1 text/);
    await edit.click();
    const cells = owner.getByRole('table', { name: /Cells of entry/ });
    await cells.waitFor();
    const row = cells.getByRole('row', { name: /greeting/ });
    expect(await row.getByRole('cell').allTextContents()).toEqual(['en', 'Hello', 'Hi there', 'Revert']);
    expect(await axeViolations(owner)).toEqual([]);
    await entries().first().getByRole('button', { name: 'Revert this change' }).click();
    // A dialog says what the revert does; the outcome is shown in the entry.
    const dialog = owner.getByRole('dialog', { name: 'Revert this change?' });
    expect(await dialog.textContent()).toMatch(/Wrote 1 text\./);
    expect(await axeViolations(owner)).toEqual([]);
    await dialog.getByRole('button', { name: 'Revert', exact: true }).click();
    await expect.poll(() => entries().first().getByRole('status').textContent()).toBe('Reverted 1 cell.');
    expect(await textOf('greeting', 'en')).toBe('Hello');
  });

  it('shows a REST write live, in the filtered list; filters by actor', async () => {
    const before = await summaries().count();
    expect((await api.patch('/api/v2/translations', { key: 'farewell', language: 'en', text: 'Goodbye' })).status).toBe(
      200,
    );
    await expect.poll(() => summaries().count(), { timeout: 5000 }).toBe(before + 1);
    expect(await summaries().first().textContent()).toMatch(/^Wrote 1 text.*API key via REST API/);
    // The revert is an entry too (filtered out above).
    await owner.getByRole('button', { name: 'Clear filters' }).click();
    await expect
      .poll(() => summaries().allTextContents())
      .toContainEqual(
        expect.stringMatching(/^Reverted entry #\d+: 1 text set back.*Revert · alice@example\.com via console/),
      );
    // By actor: the member's account id (Member.accountId) is the entries' actor id.
    const actor = owner.getByLabel('Actor');
    await actor.selectOption((await actor.locator('option', { hasText: 'alice@example.com' }).getAttribute('value'))!);
    await expect.poll(() => summaries().count()).toBe(1);
    expect(await summaries().first().textContent()).toMatch(/Revert · alice@example\.com/);
  });

  it('reverts one cell of an entry', async () => {
    // The newest entry: the PATCH of farewell (Bye → Goodbye).
    await owner.getByRole('button', { name: 'Clear filters' }).click();
    await expect
      .poll(async () => (await summaries().first().textContent()) ?? '')
      .toMatch(/^Wrote 1 text.*API key via REST API/);
    await summaries().first().click();
    const revert = owner.getByRole('button', { name: 'Revert farewell in en' });
    // The revert arrives live as a new entry above: the opened one is found by its button.
    const opened = entries().filter({ has: revert });
    await revert.click();
    await owner.getByRole('dialog', { name: 'Revert farewell in en?' }).getByRole('button', { name: 'Revert' }).click();
    await expect
      .poll(() => opened.getByRole('status').textContent())
      .toBe('farewell in en: set back to its earlier text.');
    expect(await textOf('farewell', 'en')).toBe('Bye');
  });

  it('offers the translator no revert of a change, and of one cell only in its languages', async () => {
    await ana.getByRole('link', { name: 'Activity' }).click();
    await ana.getByRole('list', { name: 'Activity entries' }).locator('.entry-summary').first().click();
    // The owner's revert of farewell in en.
    await ana.getByRole('table', { name: /Cells of entry/ }).waitFor();
    expect(await ana.getByRole('button', { name: 'Revert this change' }).count()).toBe(0);
    // The first three cells, in en and de: ana translates de only.
    await ana
      .getByRole('list', { name: 'Activity entries' })
      .locator('.entry-summary', { hasText: 'Wrote 3 texts' })
      .click();
    await ana.getByRole('button', { name: 'Revert greeting in de' }).waitFor();
    expect(await ana.getByRole('button', { name: /^Revert .* in en$/ }).count()).toBe(0);
  });
});

// Last: it changes who owns the project.
describe('ownership', () => {
  it('the owner hands the project to the translator after confirming, is an administrator then, and leaves', async () => {
    await owner.getByRole('link', { name: 'Members' }).click();
    await owner.getByRole('button', { name: 'Make owner ana@example.com' }).click();
    await expect
      .poll(() => owner.getByRole('status').first().textContent())
      .toBe('ana@example.com owns the project now');
    expect((await membersOf()).map((m) => [m.email, m.role])).toEqual([
      ['ana@example.com', 'OWNER'],
      ['alice@example.com', 'ADMIN'],
      ['bob@example.com', 'VIEWER'],
    ]);
    // An administrator: manages members, transfers nothing, may leave.
    await owner.getByRole('button', { name: 'Leave project' }).waitFor();
    expect(await owner.getByRole('button', { name: /^Make owner/ }).count()).toBe(0);
    expect(await owner.getByRole('button', { name: 'Invite', exact: true }).count()).toBe(1);
    // No longer the owner, it may leave (confirmed): back on the projects, without this one.
    await owner.getByRole('button', { name: 'Leave project' }).click();
    await owner.getByRole('heading', { name: 'Projects' }).waitFor();
    await expect.poll(() => owner.getByRole('heading', { name: 'Team app' }).count()).toBe(0);
    expect(
      (
        await service.request({
          method: 'POST',
          url: '/graphql',
          headers: { authorization: alice.token, 'content-type': 'application/json' },
          payload: { query: '{ projects { name } }' },
        })
      ).json().data.projects,
    ).toEqual([]);
  });
});
