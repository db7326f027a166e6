// The key panel's language-model assistant in headless Chromium against the
// real service and a model server on loopback (test/support/fake-llm.ts):
// "Suggest" shows the model's translation naming its source, Enter on the
// focused "Insert" writes it; "Shorten" sends the cell's current text and shows
// what the checks find in the answer; the language-model providers are offered
// in the auto-translation screen, where a job started from the form shows its
// tokens, its refused texts and its model log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { prisma } from '../../src/db.js';
import { startTestService, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { axeViolations, launchBrowser, signIn } from '../support/browser.js';
import { startFakeLlm, type FakeLlm } from '../support/fake-llm.js';

let fake: FakeLlm;
let service: TestService;
let browser: Browser;
let api: ProjectApi;
let page: Page;

async function cellText(key: string, language: string): Promise<string> {
  const row = await prisma().translation.findFirst({
    where: { key: { key, project: { projectToken: api.projectToken } }, language: { key: language } },
    select: { text: true, reviewStatus: true },
  });
  return row?.text ?? '';
}

beforeAll(async () => {
  fake = await startFakeLlm();
  Object.assign(process.env, {
    LLM_OPENAI_URL: fake.url,
    LLM_OPENAI_MODEL: 'console-model',
    LLM_ALLOW_PRIVATE: 'true',
  });
  service = await startTestService({ listen: true });
  browser = await launchBrowser();
  const alice = await service.account({ email: 'assistant@example.com' });
  api = await projectApi(service, alice, 'Assistant app');
  expect((await api.post('/api/v1/languages', { key: 'pl', name: 'Polish' })).status).toBe(200);
  const content = [
    { key: 'greeting', language: 'en', text: 'Hello {name}, welcome to the shop' },
    { key: 'greeting', language: 'pl', text: 'Cześć {name}, witaj w sklepie' },
    { key: 'farewell', language: 'en', text: 'Goodbye {name}' },
  ];
  expect((await api.post('/api/v1/translations', { content })).status).toBe(200);
  expect(
    (
      await api.gql(
        `mutation { setAutoTranslationSettings(languageKey: "pl", settings: { translationProvider: LLM_OPENAI }) { languageKey } }`,
      )
    ).errors,
  ).toBeUndefined();
  page = await signIn(browser, service, alice);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
  await fake?.close();
});

describe('the key panel assistant', () => {
  it('suggests a translation with its source and inserts it with one key', async () => {
    await page.goto(`${service.url}/#/projects/${api.projectToken}`);
    await page.getByRole('rowheader', { name: /^farewell/ }).click();
    const assistant = page
      .getByRole('complementary', { name: 'Key farewell' })
      .getByRole('region', { name: 'Language model assistant' });
    fake.translate = () => 'Do widzenia, {name}';
    await assistant.getByRole('button', { name: 'Suggest' }).click();
    await assistant.getByText('From OpenAI-compatible model console-model').waitFor();
    expect(await assistant.locator('.proposal-text').textContent()).toBe('Do widzenia, {name}');
    expect(fake.requests[0]!.document.items[0].key).toBe('farewell');
    expect(await axeViolations(page)).toEqual([]);
    // The Insert button has the focus: Enter writes the proposal.
    await page.keyboard.press('Enter');
    await expect.poll(() => cellText('farewell', 'pl')).toBe('Do widzenia, {name}');
  });

  it('shortens the current text and shows what the checks find', async () => {
    await page.getByRole('rowheader', { name: /^greeting/ }).click();
    const assistant = page
      .getByRole('complementary', { name: 'Key greeting' })
      .getByRole('region', { name: 'Language model assistant' });
    fake.script.push({ content: JSON.stringify({ text: 'Cześć, witaj' }) });
    await assistant.getByRole('button', { name: 'Shorten' }).click();
    await assistant.locator('.proposal-text').waitFor();
    expect(await assistant.locator('.proposal-text').textContent()).toBe('Cześć, witaj');
    expect(await assistant.locator('.proposal .error').first().textContent()).toMatch(/placeholders-missing/);
    expect(fake.requests.at(-1)!.document.text).toBe('Cześć {name}, witaj w sklepie');
    expect(await cellText('greeting', 'pl')).toBe('Cześć {name}, witaj w sklepie');
  });

  it('offers the language models in the auto-translation screen', async () => {
    await page.goto(`${service.url}/#/projects/${api.projectToken}/auto-translate`);
    const select = page.getByRole('combobox', { name: 'Provider' }).first();
    await select.waitFor();
    const options = await select.locator('option').allTextContents();
    expect(options).toEqual(
      expect.arrayContaining([
        'Language model (OpenAI-compatible: OpenAI, Ollama, vLLM…)',
        'Language model (Anthropic)',
      ]),
    );
  });

  it('edits the project description and a language style, which the next prompt carries', async () => {
    await page.goto(`${service.url}/#/projects/${api.projectToken}/auto-translate`);
    const form = page.getByRole('form', { name: 'Language model context' });
    await form.getByLabel('Project description').fill('A shop for garden tools');
    await form.getByLabel('Style for Polish (pl)').fill('Formal: use "Pan/Pani".');
    await form.getByRole('button', { name: 'Save context' }).click();
    await page.getByText('Saved what language models are told').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    const saved = await api.gql('{ translationContext { description styles { languageKey instructions } } }');
    expect(saved.data.translationContext).toEqual({
      description: 'A shop for garden tools',
      styles: [{ languageKey: 'pl', instructions: 'Formal: use "Pan/Pani".' }],
    });
  });

  it("sets the project's own model server, model, screenshots and prices; header values stay write-only", async () => {
    await page.goto(`${service.url}/#/projects/${api.projectToken}/auto-translate`);
    const form = page.getByRole('form', { name: 'OpenAI-compatible server' });
    await form.getByLabel('Base URL').fill(`${fake.url}/v1/chat/completions`);
    await form.getByLabel('Model', { exact: true }).fill('project-model');
    await form.getByLabel('Structured output').selectOption('json_object');
    await form.getByLabel('Send screenshots as images').selectOption('no');
    await form.getByLabel('Price per million input tokens').fill('0.5');
    await form.getByLabel('Extra headers (JSON)').fill('{"X-Org": "garden-secret"}');
    await form.getByRole('button', { name: 'Save OpenAI-compatible server settings' }).click();
    await form.getByText('Saved the settings of the OpenAI-compatible server').waitFor();
    // The URL is cut to the base; the header's value is not shown again, its name is.
    expect(await form.getByLabel('Base URL').inputValue()).toBe(fake.url);
    expect(await form.getByLabel('Extra headers (JSON)').inputValue()).toBe('');
    expect(await form.getByLabel('Extra headers (JSON)').getAttribute('placeholder')).toMatch(/Set: X-Org/);
    expect(await page.content()).not.toContain('garden-secret');
    expect(await axeViolations(page)).toEqual([]);
    const saved = await api.gql(
      '{ llmProviderSettings(provider: LLM_OPENAI) { url model responseFormat screenshots priceInput priceOutput headerNames } }',
    );
    expect(saved.data.llmProviderSettings).toEqual({
      url: fake.url,
      model: 'project-model',
      responseFormat: 'json_object',
      screenshots: false,
      priceInput: 0.5,
      priceOutput: null,
      headerNames: ['X-Org'],
    });
    // Saving again without touching the headers keeps them. What is typed while the save is on its way stays
    // in the form: the answer is held until the headers field has been edited.
    let arrived!: () => void;
    const stored = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const isSave = (postData: string | null) => postData?.includes('setLlmProviderSettings') ?? false;
    await page.route('**/graphql', async (route) => {
      if (!isSave(route.request().postData())) return route.fallback();
      const response = await route.fetch();
      arrived();
      await released;
      await route.fulfill({ response });
    });
    await form.getByLabel('Model', { exact: true }).fill('console-model');
    await form.getByRole('button', { name: 'Save OpenAI-compatible server settings' }).click();
    await stored;
    expect((await api.gql('{ llmProviderSettings(provider: LLM_OPENAI) { model headerNames } }')).data).toEqual({
      llmProviderSettings: { model: 'console-model', headerNames: ['X-Org'] },
    });
    await form.getByLabel('Extra headers (JSON)').fill('{oops');
    const answered = page.waitForResponse((response) => isSave(response.request().postData()));
    release();
    await (await answered).finished();
    await page.unroute('**/graphql');
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    expect(await form.getByLabel('Extra headers (JSON)').inputValue()).toBe('{oops');
    expect(await form.getByLabel('Model', { exact: true }).inputValue()).toBe('console-model');
    // A bad JSON is refused in words.
    await form.getByRole('button', { name: 'Save OpenAI-compatible server settings' }).click();
    await form.getByRole('alert').filter({ hasText: 'Extra headers must be a JSON object' }).waitFor();
    // Back to the instance's settings for the next test.
    expect(
      (
        await api.gql(
          'mutation { setLlmProviderSettings(provider: LLM_OPENAI, settings: { headers: null }) { model } }',
        )
      ).errors,
    ).toBeUndefined();
  });

  it("shows a finished job's tokens and the texts it left untranslated", async () => {
    // greeting loses its placeholder twice: reported, not written; farewell is written.
    fake.translate = (x) => (x.key === 'greeting' ? 'Cześć' : 'Żegnaj, {name}');
    // Started from the console's form, as a localization manager would.
    await page.goto(`${service.url}/#/projects/${api.projectToken}/auto-translate`);
    const form = page.getByRole('form', { name: 'New auto-translation' });
    await form.getByRole('combobox', { name: 'Provider' }).selectOption('LLM_OPENAI');
    await form.getByRole('checkbox', { name: 'Polish (pl)' }).check();
    await form.getByRole('checkbox', { name: 'Replace existing translations' }).check();
    await form.getByRole('button', { name: 'Start auto-translation' }).click();
    const card = page.getByRole('listitem', { name: 'Job en → pl' });
    await card
      .getByRole('status')
      .filter({ hasText: /^Done:/ })
      .waitFor({ timeout: 20_000 });
    const { id: jobId, state } = await prisma().job.findFirstOrThrow({
      where: { project: { projectToken: api.projectToken } },
      orderBy: { startedAt: 'desc' },
    });
    expect(state).toBe('SUCCESS');
    expect(await cellText('farewell', 'pl')).toBe('Żegnaj, {name}');
    expect(await cellText('greeting', 'pl')).toBe('Cześć {name}, witaj w sklepie');
    await page.reload();
    const row = page.getByRole('row').filter({ hasText: 'left untranslated' }).first();
    await row.waitFor();
    expect(await row.locator('.job-usage').textContent()).toBe('console-model: 2000 tokens in, 100 out');
    expect(await row.textContent()).toMatch(/greeting: placeholders-missing/);
    // The job's log explains it: the refused text, then each request with what was sent and the reply.
    await row.getByText(/^Model log of en → pl/).click();
    await row.getByRole('heading', { name: '1 text left untranslated' }).waitFor();
    expect(await row.getByRole('listitem').filter({ hasText: 'placeholders-missing' }).count()).toBeGreaterThan(0);
    const requests = await prisma().llmExchange.count({ where: { jobId } });
    expect(requests).toBeGreaterThan(1);
    await row.getByRole('heading', { name: `${requests} requests to the model` }).waitFor();
    await row.getByText('Request 1: what was sent').click();
    expect(await row.locator('.job-log pre').first().textContent()).toContain('"model": "console-model"');
    await row.getByText(`Request ${requests}: the reply`).click();
    expect(
      await row
        .locator('.job-log pre')
        .nth(1 + 2 * (requests - 1))
        .textContent(),
    ).toContain('Cześć');
    expect(await axeViolations(page)).toEqual([]);
    expect(fake.requests.at(-1)!.document).toMatchObject({
      project: { description: 'A shop for garden tools' },
      styleInstructions: 'Formal: use "Pan/Pani".',
    });
  });
});

describe('pre-translation from the memory', () => {
  it('fills an empty cell from the memory from the auto-translation screen, and the job says so', async () => {
    // "Goodbye {user}" is "Goodbye {name}" with another placeholder name: 100 % after substitution.
    expect(
      (
        await api.post('/api/v1/translations', {
          content: [{ key: 'farewell_user', language: 'en', text: 'Goodbye {user}' }],
        })
      ).status,
    ).toBe(200);
    await page.goto(`${service.url}/#/projects/${api.projectToken}/auto-translate`);
    const form = page.getByRole('form', { name: 'New auto-translation' });
    await form.getByRole('combobox', { name: 'Provider' }).selectOption('MEMORY');
    expect(await form.getByRole('combobox', { name: 'Fill from memory matches scoring at least' }).inputValue()).toBe(
      '',
    );
    await form.getByRole('checkbox', { name: 'Polish (pl)' }).check();
    await form.getByRole('button', { name: 'Start auto-translation' }).click();
    await expect.poll(() => cellText('farewell_user', 'pl'), { timeout: 20_000 }).toBe('Żegnaj, {user}');
    await page.getByRole('row').filter({ hasText: '1 of them from the translation memory' }).first().waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe('help while editing a cell', () => {
  it('shows memory matches and glossary terms beside the cell being edited; Alt+1 puts a match into the text', async () => {
    const content = [
      { key: 'see_you', language: 'en', text: 'See you soon, {name}' },
      { key: 'see_you', language: 'pl', text: 'Do zobaczenia, {name}' },
      { key: 'bye_again', language: 'en', text: 'See you soon, {user}' },
    ];
    expect((await api.post('/api/v1/translations', { content })).status).toBe(200);
    expect(
      (
        await api.post('/api/v1/translations', {
          content: [{ key: 'shop_cart', language: 'en', text: 'Your shop cart' }],
        })
      ).status,
    ).toBe(200);
    const term = await api.gql(
      'mutation { createGlossaryTerm(input: { term: "shop", description: "The store, not the verb", translations: [{ language: "pl", text: "sklep" }] }) { id } }',
    );
    expect(term.errors).toBeUndefined();
    await page.goto(`${service.url}/#/projects/${api.projectToken}`);

    // A key whose English text is in the memory (up to a placeholder name) with a Polish translation: offered at once.
    await page.getByRole('gridcell', { name: /^bye_again in pl/ }).dblclick();
    const help = page.getByRole('region', { name: 'Memory and glossary' });
    const match = help.getByRole('button', { name: /^Alt\+1 / });
    await match.waitFor();
    const offered = (await match.textContent())!.replace('Alt+1 ', '');
    // The placeholder of this key's text is substituted into the match.
    expect(offered).toBe('Do zobaczenia, {user}');
    expect(await help.getByText('100 %').count()).toBeGreaterThan(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Alt+1');
    const box = page.getByRole('textbox', { name: 'Translation of bye_again in pl' });
    expect(await box.inputValue()).toBe(offered);
    await page.keyboard.press('Enter');
    await expect.poll(() => cellText('bye_again', 'pl')).toBe(offered);

    // A glossary term of the source is marked with its translation, and a draft without it is flagged.
    await page.getByRole('gridcell', { name: /^shop_cart in pl/ }).dblclick();
    const terms = page
      .getByRole('region', { name: 'Memory and glossary' })
      .getByRole('region', { name: 'Glossary terms in the source' });
    await terms.waitFor();
    expect(await terms.locator('mark').textContent()).toBe('shop');
    expect(await terms.locator('mark').getAttribute('title')).toBe('translate as: sklep');
    expect(await terms.getByRole('listitem').first().textContent()).toContain('shop → sklep');
    await page.getByRole('textbox', { name: 'Translation of shop_cart in pl' }).fill('Twój koszyk');
    await terms.getByText('The glossary translates "shop" as "sklep": it is not in the translation').waitFor();
    await page.getByRole('textbox', { name: 'Translation of shop_cart in pl' }).fill('Twój koszyk w sklep');
    await expect.poll(() => terms.getByText(/is not in the translation/).count()).toBe(0);
    await page.keyboard.press('Escape');
  });
});
