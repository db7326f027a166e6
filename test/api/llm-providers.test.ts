// Language-model providers end to end (docs/llm-translation.md) against a real
// model server on loopback speaking both protocols (test/support/fake-llm.ts):
// request shape (model, messages, structured-output schema, headers, no
// streaming), the context sent per text (description, style, reviewed texts,
// only this text's memory matches, format rules with the plural categories of
// Polish and Arabic), answers checked by the quality checks and retried once
// with the failure named, refusals reported and left unwritten, malformed,
// rate-limited and slow replies retried, locked keys untouched, tokens and
// cost counted, API keys never in the log; the vendor client's auto-translate
// with a model chosen in the language settings; the editor's suggest/rewrite.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlm, INPUT_TOKENS, OUTPUT_TOKENS, type FakeLlm } from '../support/fake-llm.js';
import { envelope, startTestService, type TestService } from '../support/service.js';
import { readTranslations, seedTranslations } from '../support/content.js';
import sharp from 'sharp';
import { corpusScreenshotsPresent, screenshotBytes, uploadRest } from '../support/screenshots.js';

const OPENAI_KEY = 'sk-secret-openai-1234567890';
const ANTHROPIC_KEY = 'ant-secret-anthropic-0987654321';
const PROJECT_KEY = 'sk-project-own-key-555';

let fake: FakeLlm;
let service: TestService;
let apiKey: string;
let projectToken: string;
let projectId: number;
let other: { apiKey: string; projectToken: string };

const cli = (key = apiKey) => ({
  'X-SIMPLELOCALIZE-token': key,
  'X-SimpleLocalize-Cli-Version': '2.11.0',
  'content-type': 'application/json; charset=utf-8',
});
const gql = async (query: string, variables: Record<string, unknown> = {}, key = apiKey) =>
  (await service.request({ method: 'POST', url: '/graphql', headers: cli(key), payload: { query, variables } })).json();

const JOB_FIELDS =
  'jobId state message usage { provider model inputTokens outputTokens requests estimatedCost } failedTexts { key message } llmLog { provider model request status reply error inputTokens outputTokens }';

async function waitForJob(jobId: string): Promise<any> {
  for (let i = 0; i < 800; i++) {
    const job = envelope(await service.request({ url: `/api/v1/jobs/${jobId}`, headers: cli() })).data;
    if (job.state !== 'STARTED') break;
    await new Promise((r) => setTimeout(r, 25));
  }
  const res = await gql(`query($jobId: String!) { job(jobId: $jobId) { ${JOB_FIELDS} } }`, { jobId });
  expect(res.errors).toBeUndefined();
  return res.data.job;
}

async function translate(provider: string, language: string, options: string[] = []): Promise<any> {
  const res = await gql(`mutation($input: AutoTranslateInput!) { autoTranslate(input: $input) { jobId } }`, {
    input: {
      translationProvider: provider,
      targets: [{ targetProjectLanguage: language, targetLanguage: language }],
      options,
    },
  });
  expect(res.errors).toBeUndefined();
  return waitForJob(res.data.autoTranslate[0].jobId);
}

const itemsOf = (i = 0) => fake.requests[i]!.document.items as any[];
const allItems = () => fake.requests.flatMap((r) => (r.document?.items ?? []) as any[]);
const item = (key: string) => allItems().find((x) => x.key === key);

const POLISH_FILES = '{count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}';
const ARABIC_FILES =
  '{count, plural, zero {لا ملفات} one {ملف واحد} two {ملفان} few {# ملفات} many {# ملفًا} other {# ملف}}';

beforeAll(async () => {
  fake = await startFakeLlm();
  Object.assign(process.env, {
    LLM_ALLOW_PRIVATE: 'true',
    LLM_OPENAI_URL: fake.url,
    LLM_OPENAI_API_KEY: OPENAI_KEY,
    LLM_OPENAI_MODEL: 'local-model',
    LLM_OPENAI_HEADERS: '{"X-Team":"l10n"}',
    LLM_OPENAI_PRICE_INPUT: '2',
    LLM_OPENAI_PRICE_OUTPUT: '8',
    LLM_ANTHROPIC_URL: `${fake.url}/v1/messages`,
    LLM_ANTHROPIC_API_KEY: ANTHROPIC_KEY,
    LLM_ANTHROPIC_MODEL: 'claude-test',
    LLM_TIMEOUT_MS: '2000',
  });
  service = await startTestService();
  const account = await service.account();
  ({ apiKey, projectToken } = await account.project('llm'));
  other = await account.project('other');
  projectId = await seedTranslations(service.db, {
    projectToken,
    translations: {
      en: {
        greet: 'Hello {name}, you have <b>{count}</b> new messages',
        files: '{count, plural, one {# file} other {# files}}',
        welcome: 'Welcome back, {name}!',
        welcome_old: 'Welcome back, {user}!',
        account_delete: 'Delete account',
        locked_key: 'Locked text',
      },
      pl: { welcome_old: 'Witaj ponownie, {user}!', account_delete: 'Usuń konto' },
      ar: {},
      de: { greet: 'Hallo {name}, du hast <b>{count}</b> neue Nachrichten' },
    },
  });
  await service.db.prisma.translationKey.updateMany({
    where: { projectId, key: 'greet' },
    data: { description: 'Greeting in the dashboard header', charactersLimit: 80 },
  });
  await service.db.prisma.translationKey.updateMany({ where: { projectId, key: 'locked_key' }, data: { lock: true } });
  const de = await service.db.prisma.language.findFirstOrThrow({ where: { projectId, key: 'de' } });
  await service.db.prisma.translation.updateMany({
    where: { projectId, languageId: de.id },
    data: { reviewStatus: 'REVIEWED' },
  });
  const context = await gql(
    `mutation($styles: [LanguageStyleInput!]) { setTranslationContext(description: "Budgeting app for families", styles: $styles) { description styles { languageKey instructions } } }`,
    {
      styles: [{ languageKey: 'pl', instructions: 'Informal: use "ty". Keep the brand name Budgetly.' }],
    },
  );
  expect(context.errors).toBeUndefined();
  expect(context.data.setTranslationContext.styles).toEqual([
    { languageKey: 'pl', instructions: 'Informal: use "ty". Keep the brand name Budgetly.' },
  ]);
});
afterAll(async () => {
  await service.close();
  await fake.close();
});
beforeEach(() => fake.reset());

describe('OpenAI-compatible chat completions', () => {
  it('sends each text with its context and format rules, writes checked texts as not reviewed, never a locked key, and counts tokens', async () => {
    fake.translate = (x, doc) => (x.rules?.pluralCategories ? POLISH_FILES : `[${doc.targetLanguage}] ${x.source}`);
    const job = await translate('LLM_OPENAI', 'pl');
    expect(job.state).toBe('SUCCESS');
    expect(job.message).toBe(
      `Translated 3 texts (${[...'Hello {name}, you have <b>{count}</b> new messages{count, plural, one {# file} other {# files}}Welcome back, {name}!'].length} characters); 1 not written because their key is locked`,
    );

    const request = fake.requests[0]!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    expect(request.headers['x-team']).toBe('l10n');
    expect(request.body.model).toBe('local-model');
    expect(request.body.stream).toBe(false);
    expect(request.body.messages.map((m: any) => m.role)).toEqual(['system', 'user']);
    expect(request.body.response_format.type).toBe('json_schema');
    expect(request.body.response_format.json_schema.schema.required).toEqual(['translations']);
    expect(request.body.response_format.json_schema.strict).toBe(true);

    const doc = request.document;
    expect(doc.project.description).toBe('Budgeting app for families');
    expect(doc.styleInstructions).toContain('Budgetly');
    expect(doc.targetLanguage).toBe('pl');
    const keys = allItems()
      .map((x) => x.key)
      .sort();
    expect(keys).toEqual(['files', 'greet', 'welcome']);
    expect(keys).not.toContain('locked_key');

    const greet = item('greet');
    expect(greet.description).toBe('Greeting in the dashboard header');
    expect(greet.maxCharacters).toBe(80);
    expect(greet.rules.placeholders).toEqual(expect.arrayContaining(['{name}', '{count}']));
    expect(greet.rules.tags).toEqual(['<b>', '</b>']);
    expect(greet.reviewedTranslations).toEqual([
      { language: 'de', text: 'Hallo {name}, du hast <b>{count}</b> neue Nachrichten' },
    ]);
    expect(item('files').rules.pluralCategories).toEqual(['one', 'few', 'many', 'other']);
    // The memory match of this text only: the similar welcome, not the unrelated "Delete account".
    expect(item('welcome').memoryMatches).toEqual([
      expect.objectContaining({ source: 'Welcome back, {user}!', translation: 'Witaj ponownie, {name}!' }),
    ]);
    expect(greet.memoryMatches).toBeUndefined();
    expect(JSON.stringify(allItems().map((x) => x.memoryMatches ?? []))).not.toContain('Usuń konto');
    expect(
      allItems()
        .filter((x) => x.memoryMatches)
        .map((x) => x.key),
    ).toEqual(['welcome']);
    expect(item('welcome').neighbouringKeys.map((n: any) => n.key)).toEqual(expect.arrayContaining(['welcome_old']));

    const pl = (await readTranslations(service.db, projectToken)).pl!;
    expect(pl.greet).toBe('[pl] Hello {name}, you have <b>{count}</b> new messages');
    expect(pl.files).toBe(POLISH_FILES);
    expect(pl.locked_key).toBeUndefined();
    const statuses = await service.db.prisma.translation.findMany({
      where: { projectId, key: { key: { in: ['greet', 'files', 'welcome'] } }, language: { key: 'pl' } },
      select: { reviewStatus: true },
    });
    expect(statuses.map((s) => s.reviewStatus)).toEqual(['NOT_REVIEWED', 'NOT_REVIEWED', 'NOT_REVIEWED']);

    const n = fake.requests.length;
    expect(job.usage).toEqual([
      {
        provider: 'LLM_OPENAI',
        model: 'local-model',
        inputTokens: n * INPUT_TOKENS,
        outputTokens: n * OUTPUT_TOKENS,
        requests: n,
        estimatedCost: (n * INPUT_TOKENS * 2 + n * OUTPUT_TOKENS * 8) / 1e6,
      },
    ]);
    expect(job.llmLog).toHaveLength(n);
    expect(job.llmLog[0].request.model).toBe('local-model');
    expect(JSON.stringify(job)).not.toContain(OPENAI_KEY);
    // The history names the job's provider and model.
    const change = await service.db.prisma.activity.findFirstOrThrow({
      where: { projectId, kind: 'AUTO_TRANSLATION' },
      orderBy: { id: 'desc' },
    });
    expect(change.details).toMatchObject({ jobId: job.jobId, provider: 'LLM_OPENAI', model: 'local-model' });
    expect(change.actorKind).toBe('JOB');
  });

  it('packs texts into requests within LLM_TOKEN_BUDGET', async () => {
    fake.translate = (x, doc) => (x.rules?.pluralCategories ? POLISH_FILES : `[${doc.targetLanguage}] ${x.source}`);
    process.env.LLM_TOKEN_BUDGET = '700';
    try {
      const job = await translate('LLM_OPENAI', 'pl', ['FORCE_REPLACE']);
      expect(job.state).toBe('SUCCESS');
    } finally {
      delete process.env.LLM_TOKEN_BUDGET;
    }
    expect(fake.requests.length).toBeGreaterThan(1);
    for (const r of fake.requests) {
      // The documented estimate: characters / 4 of system and user messages.
      if (r.document.items.length > 1)
        expect(Math.ceil((r.system.length + r.body.messages[1].content.length) / 4)).toBeLessThanOrEqual(700);
    }
    expect(
      allItems()
        .map((x) => x.key)
        .sort(),
    ).toEqual(['account_delete', 'files', 'greet', 'welcome', 'welcome_old']);
  });

  it('retries a text whose answer breaks a placeholder, naming the failure, and writes the fixed answer', async () => {
    fake.translate = (x, doc) => {
      if (x.rules?.pluralCategories) return POLISH_FILES;
      if (x.key === 'greet' && !x.previousAttempt) return 'Cześć, masz <b>{count}</b> nowych wiadomości';
      return x.key === 'greet'
        ? 'Cześć {name}, masz <b>{count}</b> nowych wiadomości'
        : `[${doc.targetLanguage}] ${x.source}`;
    };
    const job = await translate('LLM_OPENAI', 'pl', ['FORCE_REPLACE']);
    expect(job.state).toBe('SUCCESS');
    expect(fake.requests).toHaveLength(2);
    expect(itemsOf(1)).toHaveLength(1);
    expect(itemsOf(1)[0].previousAttempt.text).toBe('Cześć, masz <b>{count}</b> nowych wiadomości');
    expect(itemsOf(1)[0].previousAttempt.rejectedBecause.join(' ')).toMatch(/placeholders-missing.*\{name\}/);
    expect((await readTranslations(service.db, projectToken)).pl!.greet).toBe(
      'Cześć {name}, masz <b>{count}</b> nowych wiadomości',
    );
    expect(job.failedTexts).toEqual([]);
  });

  it('reports a text that fails the checks twice and leaves it unwritten', async () => {
    const before = (await readTranslations(service.db, projectToken)).pl!.greet;
    fake.translate = (x, doc) =>
      x.rules?.pluralCategories
        ? '{count, plural, one {# plik} other {# pliki}}'
        : x.key === 'greet'
          ? 'Cześć'
          : `[${doc.targetLanguage}] ${x.source}`;
    const job = await translate('LLM_OPENAI', 'pl', ['FORCE_REPLACE']);
    expect(job.state).toBe('SUCCESS');
    expect(job.failedTexts.map((f: any) => f.key).sort()).toEqual(['files', 'greet']);
    expect(job.failedTexts.find((f: any) => f.key === 'files').message).toMatch(/plural-missing/);
    expect(job.failedTexts.find((f: any) => f.key === 'greet').message).toMatch(/placeholders-missing/);
    expect(job.message).toMatch(/2 left untranslated because the model's answer failed the checks twice/);
    const pl = (await readTranslations(service.db, projectToken)).pl!;
    expect(pl.greet).toBe(before);
    expect(pl.files).toBe(POLISH_FILES);
  });

  it('retries a malformed reply, a 429 after its Retry-After, and a slow reply after the timeout', async () => {
    fake.translate = (x, doc) => (x.rules?.pluralCategories ? POLISH_FILES : `[${doc.targetLanguage}] ${x.source}`);
    fake.script.push(
      { content: 'Sure! Here are your translations: {"translations": [' },
      { status: 429, headers: { 'retry-after': '1' } },
      { delayMs: 3500 },
    );
    const job = await translate('LLM_OPENAI', 'pl', ['FORCE_REPLACE']);
    expect(job.state).toBe('SUCCESS');
    expect(fake.requests).toHaveLength(4);
    const gap = (await Promise.resolve(job.llmLog)).length;
    expect(gap).toBe(4);
    expect(job.llmLog[0].error).toMatch(/unusable reply: the reply is not JSON/);
    expect(job.llmLog[1]).toMatchObject({ status: 429 });
    expect(job.llmLog[2].error).toMatch(/within 2000 ms/);
    expect(job.llmLog[3].error).toBeNull();
    // Tokens of the malformed reply were paid for too.
    expect(job.usage[0].inputTokens).toBe(2 * INPUT_TOKENS);
    expect(job.usage[0].requests).toBe(4);
    expect((await readTranslations(service.db, projectToken)).pl!.greet).toBe(
      '[pl] Hello {name}, you have <b>{count}</b> new messages',
    );
  });

  it('honours Retry-After: the retry waits at least its seconds', async () => {
    fake.script.push({ status: 429, headers: { 'retry-after': '1' } });
    const started = Date.now();
    const job = await translate('LLM_OPENAI', 'de', ['FORCE_REPLACE']);
    expect(job.state).toBe('SUCCESS');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(fake.requests).toHaveLength(2);
  });

  it("uses the project's own key, URL and headers; the key is stored sealed and never logged", async () => {
    const set = await gql(`mutation { setProviderApiKey(provider: LLM_OPENAI, apiKey: "${PROJECT_KEY}") }`);
    expect(set.errors).toBeUndefined();
    const settings = await gql(
      `mutation($s: LlmProviderSettingsInput!) { setLlmProviderSettings(provider: LLM_OPENAI, settings: $s) { url model headerNames responseFormat } }`,
      {
        s: {
          url: `${fake.url}/v1/chat/completions`,
          model: 'project-model',
          headers: [{ name: 'X-Secret-Header', value: 'hdr-secret-1' }],
          responseFormat: 'json_object',
        },
      },
    );
    expect(settings.data.setLlmProviderSettings).toEqual({
      url: fake.url,
      model: 'project-model',
      headerNames: ['X-Secret-Header'],
      responseFormat: 'json_object',
    });
    try {
      const job = await translate('LLM_OPENAI', 'de', ['FORCE_REPLACE']);
      expect(job.state).toBe('SUCCESS');
      expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${PROJECT_KEY}`);
      expect(fake.requests[0]!.headers['x-secret-header']).toBe('hdr-secret-1');
      expect(fake.requests[0]!.headers['x-team']).toBe('l10n');
      expect(fake.requests[0]!.body.model).toBe('project-model');
      expect(fake.requests[0]!.body.response_format).toEqual({ type: 'json_object' });
      const stored = JSON.stringify(
        (await service.db.prisma.project.findUniqueOrThrow({ where: { id: projectId } })).settings,
      );
      expect(stored).not.toContain(PROJECT_KEY);
      expect(stored).not.toContain('hdr-secret-1');
      const logs = JSON.stringify(await service.db.prisma.llmExchange.findMany({ where: { projectId } }), (_k, v) =>
        typeof v === 'bigint' ? String(v) : v,
      );
      for (const secret of [PROJECT_KEY, OPENAI_KEY, ANTHROPIC_KEY, 'hdr-secret-1']) expect(logs).not.toContain(secret);
    } finally {
      await gql(`mutation { setProviderApiKey(provider: LLM_OPENAI, apiKey: null) }`);
      // Headers left out stay (their values are never shown to be sent back); null removes them.
      const kept = await gql(
        `mutation { setLlmProviderSettings(provider: LLM_OPENAI, settings: { model: "other" }) { model headerNames } }`,
      );
      expect(kept.data.setLlmProviderSettings).toEqual({ model: 'other', headerNames: ['X-Secret-Header'] });
      await gql(`mutation { setLlmProviderSettings(provider: LLM_OPENAI, settings: { headers: null }) { model } }`);
    }
  });

  it('refuses a bad header naming it by its place, never quoting a name or value, and keeps what was stored', async () => {
    const save = (headers: unknown) =>
      gql(
        `mutation($s: LlmProviderSettingsInput!) { setLlmProviderSettings(provider: LLM_OPENAI, settings: $s) { headerNames } }`,
        { s: { headers } },
      );
    const good = await save([{ name: 'X-Org', value: 'org-secret-0' }]);
    expect(good.data.setLlmProviderSettings.headerNames).toEqual(['X-Org']);
    try {
      const refused: [unknown, RegExp, string][] = [
        [[{ name: 'X Org', value: 'secret-in-name-test' }], /^headers\[0\]\.name must be a header name/, 'X Org'],
        [
          [
            { name: 'X-A', value: 'a' },
            { name: 'X-B', value: 'line\r\nInjected: secret-value-1' },
          ],
          /^headers\[1\]\.value may not hold a line break/,
          'secret-value-1',
        ],
        [[{ name: 'Host', value: 'evil.example' }], /^headers\[0\]\.name may not be Host/, 'evil.example'],
        [
          [
            { name: 'X-A', value: 'a' },
            { name: 'x-a', value: 'secret-value-2' },
          ],
          /^headers\[1\]\.name repeats/,
          'secret-value-2',
        ],
        // Wrong shapes, refused by the input type: graphql-js would quote the value; the service does not.
        [
          [{ name: 'X-Key', value: 987654321 }],
          /^Variable "\$s" at "s\.headers\[0\]\.value" must be a string$/,
          '987654321',
        ],
        [[{ name: 'X-Key', value: { key: 'secret-value-3' } }], /must be a string$/, 'secret-value-3'],
        // The JSON object the API took before the list.
        [{ 'X-Key': 'secret-value-4' }, /^Variable "\$s" at "s\.headers\.name" is required$/, 'secret-value-4'],
      ];
      for (const [headers, message, secret] of refused) {
        const res = await save(headers);
        expect(res.data?.setLlmProviderSettings ?? null).toBeNull();
        expect(res.errors[0].message).toMatch(message);
        expect(JSON.stringify(res)).not.toContain(secret);
        if (!res.errors[0].message.startsWith('Variable')) expect(res.errors[0].extensions.code).toBe('BAD_REQUEST');
      }
      // Nothing refused was stored: the good header is still the only one, and is still sent.
      const now = await gql('{ llmProviderSettings(provider: LLM_OPENAI) { headerNames } }');
      expect(now.data.llmProviderSettings.headerNames).toEqual(['X-Org']);
      const job = await translate('LLM_OPENAI', 'de', ['FORCE_REPLACE']);
      expect(job.state).toBe('SUCCESS');
      expect(fake.requests[0]!.headers['x-org']).toBe('org-secret-0');
    } finally {
      await save(null);
    }
  });

  it.each([
    ['{"X-Team": 5}', /LLM_OPENAI is not configured correctly: LLM_OPENAI_HEADERS must be a JSON object/],
    // The rule of a project's headers applies to the instance's too, and quotes neither names nor values.
    [
      '{"X-Team": "l10n", "X-Bad": "a\\r\\nb-env-secret"}',
      /LLM_OPENAI is not configured correctly: LLM_OPENAI_HEADERS: the value of header 2 may not hold a line break/,
    ],
  ])('refuses to start a job, saying why, when the configuration is wrong (headers %s)', async (headers, message) => {
    process.env.LLM_OPENAI_HEADERS = headers;
    try {
      const jobs = await service.db.prisma.job.count({ where: { projectId } });
      const res = await gql(`mutation($input: AutoTranslateInput!) { autoTranslate(input: $input) { jobId } }`, {
        input: {
          translationProvider: 'LLM_OPENAI',
          targets: [{ targetProjectLanguage: 'de', targetLanguage: 'de' }],
          options: ['FORCE_REPLACE'],
        },
      });
      expect(res.errors[0].extensions.code).toBe('BAD_REQUEST');
      expect(res.errors[0].message).toMatch(message);
      expect(res.errors[0].message).not.toContain('env-secret');
      expect(await service.db.prisma.job.count({ where: { projectId } })).toBe(jobs);
      expect(fake.requests).toHaveLength(0);
    } finally {
      process.env.LLM_OPENAI_HEADERS = '{"X-Team":"l10n"}';
    }
  });

  it('gives up on a server that trickles its answer past LLM_TIMEOUT_MS, and retries', async () => {
    fake.script.push({ trickleMs: 50 });
    const job = await translate('LLM_OPENAI', 'de', ['FORCE_REPLACE']);
    expect(job.state).toBe('SUCCESS');
    expect(job.llmLog[0].error).toMatch(/the answer was not complete within 2000 ms/);
    expect(job.llmLog.at(-1).error).toBeNull();
  });

  it("counts the tokens of a failed job's billed replies in its usage", async () => {
    fake.script.push(
      { content: 'not json at all' },
      { status: 401, raw: JSON.stringify({ error: { message: 'key revoked' } }) },
    );
    const job = await translate('LLM_OPENAI', 'de', ['FORCE_REPLACE']);
    expect(job.state).toBe('FAILED');
    expect(job.message).toMatch(/key revoked/);
    expect(job.usage).toEqual([
      {
        provider: 'LLM_OPENAI',
        model: 'local-model',
        inputTokens: INPUT_TOKENS,
        outputTokens: OUTPUT_TOKENS,
        requests: 2,
        estimatedCost: (INPUT_TOKENS * 2 + OUTPUT_TOKENS * 8) / 1e6,
      },
    ]);
  });

  it('keeps the log of requests for LLM_LOG_RETENTION_DAYS: a job prunes what is older', async () => {
    const day = 24 * 3600 * 1000;
    const kept = (daysAgo: number, jobId: string) =>
      service.db.prisma.llmExchange.create({
        data: {
          projectId,
          jobId,
          provider: 'LLM_OPENAI',
          model: 'local-model',
          request: { model: 'local-model' },
          status: 200,
          reply: '{}',
          createdAt: new Date(Date.now() - daysAgo * day),
        },
      });
    const old = await kept(8, 'old-job');
    const recent = await kept(6, 'recent-job');
    process.env.LLM_LOG_RETENTION_DAYS = '7';
    try {
      const job = await translate('LLM_OPENAI', 'de', ['FORCE_REPLACE']);
      expect(job.state).toBe('SUCCESS');
      expect(job.llmLog.length).toBeGreaterThan(0);
    } finally {
      delete process.env.LLM_LOG_RETENTION_DAYS;
    }
    expect(await service.db.prisma.llmExchange.findUnique({ where: { id: old.id } })).toBeNull();
    expect(await service.db.prisma.llmExchange.findUnique({ where: { id: recent.id } })).not.toBeNull();
  });

  it('refuses a model server on a private address unless LLM_ALLOW_PRIVATE is set', async () => {
    process.env.LLM_ALLOW_PRIVATE = 'false';
    try {
      const job = await translate('LLM_OPENAI', 'de', ['FORCE_REPLACE']);
      expect(job.state).toBe('FAILED');
      expect(job.message).toMatch(/127\.0\.0\.1.*LLM_ALLOW_PRIVATE/);
      expect(fake.requests).toHaveLength(0);
    } finally {
      process.env.LLM_ALLOW_PRIVATE = 'true';
    }
  });
});

describe('Anthropic messages', () => {
  it('speaks the messages protocol and sends the six Arabic plural categories', async () => {
    fake.translate = (x, doc) => (x.rules?.pluralCategories ? ARABIC_FILES : `[${doc.targetLanguage}] ${x.source}`);
    const job = await translate('LLM_ANTHROPIC', 'ar');
    expect(job.state).toBe('SUCCESS');
    const request = fake.requests[0]!;
    expect(request.path).toBe('/v1/messages');
    expect(request.headers['x-api-key']).toBe(ANTHROPIC_KEY);
    expect(request.headers['anthropic-version']).toBe('2023-06-01');
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body).toMatchObject({ model: 'claude-test', stream: false, max_tokens: 4096 });
    expect(typeof request.body.system).toBe('string');
    expect(request.body.messages.map((m: any) => m.role)).toEqual(['user']);
    // Structured output: a forced tool whose input schema is the reply's.
    expect(request.body.tool_choice).toEqual({ type: 'tool', name: 'translations' });
    expect(request.body.tools[0].input_schema.required).toEqual(['translations']);
    expect(item('files').rules.pluralCategories).toEqual(['zero', 'one', 'two', 'few', 'many', 'other']);
    expect((await readTranslations(service.db, projectToken)).ar!.files).toBe(ARABIC_FILES);
    const n = fake.requests.length;
    expect(job.usage).toEqual([
      {
        provider: 'LLM_ANTHROPIC',
        model: 'claude-test',
        inputTokens: n * INPUT_TOKENS,
        outputTokens: n * OUTPUT_TOKENS,
        requests: n,
        estimatedCost: null,
      },
    ]);
    expect(JSON.stringify(job)).not.toContain(ANTHROPIC_KEY);
  });

  it("the vendor client's auto-translate uses the model chosen in the language's settings", async () => {
    const saved = await gql(
      `mutation { setAutoTranslationSettings(languageKey: "ar", settings: { translationProvider: LLM_ANTHROPIC }) { translationProvider targetLanguage problem } }`,
    );
    expect(saved.data.setAutoTranslationSettings).toEqual({
      translationProvider: 'LLM_ANTHROPIC',
      targetLanguage: 'ar',
      problem: null,
    });
    fake.translate = (x, doc) => (x.rules?.pluralCategories ? ARABIC_FILES : `(${doc.targetLanguage}) ${x.source}`);
    const res = await service.request({
      method: 'POST',
      url: '/api/v2/jobs/auto-translate',
      headers: cli(),
      payload: JSON.stringify({ languageKeys: ['ar'], source: 'CLI', options: ['FORCE_REPLACE'] }),
    });
    expect(res.statusCode).toBe(200);
    const [started] = envelope(res).data;
    const job = await waitForJob(started.jobId);
    expect(job.state, job.message).toBe('SUCCESS');
    expect(job.message, JSON.stringify(job.failedTexts)).toMatch(/^Translated 5 texts/);
    expect(fake.requests.every((r) => r.path === '/v1/messages')).toBe(true);
    expect((await readTranslations(service.db, projectToken)).ar!.greet).toBe(
      '(ar) Hello {name}, you have <b>{count}</b> new messages',
    );
  });
});

describe.skipIf(!corpusScreenshotsPresent)('screenshots as images', () => {
  it("sends a key's screenshot once per request, scaled, its box drawn and given in the item; the log keeps no image bytes", async () => {
    // pontoon_tm_tab.png is 2054 × 1118: sent as 1024 × 557.
    const upload = envelope(
      await uploadRest(service, apiKey, screenshotBytes('pontoon_tm_tab.png'), 'tm-tab.png'),
    ).data;
    for (const [key, rectangle] of [
      ['greet', { x: 200, y: 100, width: 400, height: 60 }],
      ['welcome', { x: 1000, y: 600, width: 300, height: 40 }],
    ] as const) {
      const link = await service.request({
        method: 'POST',
        url: `/api/v2/screenshots/${upload.id}/links`,
        headers: { 'x-service-token': apiKey, 'content-type': 'application/json' },
        payload: { key, ...rectangle },
      });
      expect(link.statusCode).toBe(200);
    }
    process.env.LLM_OPENAI_SCREENSHOTS = 'true';
    try {
      const job = await translate('LLM_OPENAI', 'de', ['FORCE_REPLACE']);
      expect(job.state).toBe('SUCCESS');
      const [request] = fake.requests;
      expect(fake.requests).toHaveLength(1);
      expect(request!.images).toHaveLength(1);
      expect(request!.images[0]!.mediaType).toBe('image/jpeg');
      const meta = await sharp(request!.images[0]!.bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1024, 557]);
      const scale = 1024 / 2054;
      expect(item('greet').screenshots).toEqual([
        {
          image: 1,
          box: {
            x: Math.round(200 * scale),
            y: Math.round(100 * scale),
            width: Math.round(400 * scale),
            height: Math.round(60 * scale),
          },
        },
      ]);
      expect(item('welcome').screenshots[0].image).toBe(1);
      expect(item('account_delete').screenshots).toBeUndefined();
      expect(request!.system).toMatch(/Images are screenshots of the application/);
      // The box is drawn: the pixels on its outline are the marking colour, not the screenshot's.
      const { data, info } = await sharp(request!.images[0]!.bytes).raw().toBuffer({ resolveWithObject: true });
      const box = item('greet').screenshots[0].box;
      const at = (x: number, y: number) => [
        ...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3),
      ];
      const [r, g, b] = at((box.x + box.width / 2) | 0, box.y + 1);
      expect(r).toBeGreaterThan(180);
      expect(g).toBeLessThan(80);
      expect(b).toBeGreaterThan(70);
      const logged = JSON.stringify(job.llmLog[0].request);
      expect(logged).toContain('<image 1: 1024×557 image/jpeg');
      expect(logged.length).toBeLessThan(20_000);
    } finally {
      delete process.env.LLM_OPENAI_SCREENSHOTS;
    }
    // A self-hosted server (not the vendor's URL) gets no images unless asked.
    fake.reset();
    expect((await translate('LLM_OPENAI', 'de', ['FORCE_REPLACE'])).state).toBe('SUCCESS');
    expect(fake.requests.every((r) => r.images.length === 0)).toBe(true);
    // Anthropic takes the image before the text.
    fake.reset();
    process.env.LLM_ANTHROPIC_SCREENSHOTS = 'true';
    try {
      expect((await translate('LLM_ANTHROPIC', 'de', ['FORCE_REPLACE'])).state).toBe('SUCCESS');
      expect(fake.requests[0]!.body.messages[0].content.map((p: any) => p.type)).toEqual(['image', 'text']);
    } finally {
      delete process.env.LLM_ANTHROPIC_SCREENSHOTS;
    }
  });
});

describe('editor assistant', () => {
  it('suggests a translation for a cell, saying where it came from, without writing it', async () => {
    const before = (await readTranslations(service.db, projectToken)).pl!.welcome;
    fake.translate = () => 'Witaj z powrotem, {name}!';
    const res = await gql(
      `mutation($key: String!) { suggestTranslation(key: $key, languageKey: "pl", provider: LLM_OPENAI) { text provider model source problems } }`,
      { key: 'welcome' },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.suggestTranslation).toEqual({
      text: 'Witaj z powrotem, {name}!',
      provider: 'LLM_OPENAI',
      model: 'local-model',
      source: 'OpenAI-compatible model local-model',
      problems: [],
    });
    expect(itemsOf(0)[0].memoryMatches[0].source).toBe('Welcome back, {user}!');
    expect((await readTranslations(service.db, projectToken)).pl!.welcome).toBe(before);
  });

  it('sends only the glossary terms found in the text, and reports a suggestion that misses one', async () => {
    const create = 'mutation($input: GlossaryTermInput!) { createGlossaryTerm(input: $input) { id } }';
    for (const input of [
      { term: 'welcome', description: 'a greeting', translations: [{ language: 'pl', text: 'Witaj' }] },
      { term: 'invoice', translations: [{ language: 'pl', text: 'faktura' }] },
    ])
      expect((await gql(create, { input })).errors).toBeUndefined();
    fake.translate = () => 'Cześć ponownie, {name}!';
    const res = await gql(
      `mutation { suggestTranslation(key: "welcome", languageKey: "pl", provider: LLM_OPENAI) { text problems } }`,
    );
    expect(res.errors).toBeUndefined();
    expect(itemsOf(0)[0].glossary).toEqual([{ term: 'welcome', translation: 'Witaj', description: 'a greeting' }]);
    expect(fake.requests[0]!.system).toMatch(/glossary is binding/);
    // Rejected, retried with the reason named, rejected again: no text, the reason reported.
    expect(res.data.suggestTranslation.text).toBeNull();
    expect(res.data.suggestTranslation.problems).toEqual([expect.stringMatching(/glossary: .*"welcome".*"Witaj"/)]);
    expect(itemsOf(1)[0].previousAttempt.rejectedBecause.join(' ')).toMatch(/glossary/);
    fake.reset();
    fake.translate = () => 'Witaj ponownie, {name}!';
    expect(
      (
        await gql(
          `mutation { suggestTranslation(key: "welcome", languageKey: "pl", provider: LLM_OPENAI) { text problems } }`,
        )
      ).data.suggestTranslation,
    ).toEqual({ text: 'Witaj ponownie, {name}!', problems: [] });
  });

  it('rewrites a text (shorten to the limit) and reports what the checks find', async () => {
    fake.script.push({ content: JSON.stringify({ text: 'Cześć, <b>{count}</b> nowych' }) });
    const res = await gql(
      `mutation($key: String!) { rewriteTranslation(key: $key, languageKey: "pl", text: "Cześć {name}, masz <b>{count}</b> nowych wiadomości", mode: SHORTEN, provider: LLM_ANTHROPIC) { text source problems } }`,
      { key: 'greet' },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.rewriteTranslation.text).toBe('Cześć, <b>{count}</b> nowych');
    expect(res.data.rewriteTranslation.source).toBe('Anthropic model claude-test');
    expect(res.data.rewriteTranslation.problems.join(' ')).toMatch(/placeholders-missing/);
    expect(fake.requests[0]!.system).toMatch(/at most 80 characters/);
    expect(fake.requests[0]!.document.text).toBe('Cześć {name}, masz <b>{count}</b> nowych wiadomości');
  });

  it("reports the model server's refusal as 400 and its unavailability as 503, not a 500", async () => {
    fake.script.push({ status: 401, raw: JSON.stringify({ error: { message: 'Incorrect API key provided' } }) });
    const refused = await gql(
      `mutation { suggestTranslation(key: "welcome", languageKey: "pl", provider: LLM_OPENAI) { text } }`,
    );
    expect(refused.errors[0].extensions.code).toBe('BAD_REQUEST');
    expect(refused.errors[0].message).toMatch(/Incorrect API key provided \(HTTP 401\)/);
    fake.script.push({ status: 503 }, { status: 503 });
    const down = await gql(
      `mutation { rewriteTranslation(key: "welcome", languageKey: "pl", text: "Witaj", mode: REPHRASE, provider: LLM_OPENAI) { text } }`,
    );
    expect(down.errors[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
    expect(fake.requests).toHaveLength(3);
  });

  it("refuses another project's credential and a bad provider choice", async () => {
    const res = await gql(
      `mutation($key: String!) { suggestTranslation(key: $key, languageKey: "pl", provider: LLM_OPENAI) { text } }`,
      { key: 'welcome' },
      other.apiKey,
    );
    expect(res.errors[0].extensions.code).toMatch(/NOT_FOUND/);
    const cross = await gql(
      `mutation($p: String) { setTranslationContext(projectToken: $p, description: "x") { description } }`,
      { p: projectToken },
      other.apiKey,
    );
    expect(cross.errors).toBeDefined();
    expect(fake.requests).toHaveLength(0);
    const bad = await gql(
      `mutation { autoTranslate(input: { translationProvider: LLM_OPENAI, targets: [{ targetProjectLanguage: "pl", targetLanguage: "pl" }], providerFormality: "more" }) { jobId } }`,
    );
    expect(bad.errors[0].message).toMatch(/providerFormality is for MT_PROVIDER_B only/);
  });
});
