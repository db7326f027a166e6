// The pure parts of the language-model providers: reading a reply's JSON
// (fenced, after prose), the format rules a prompt states per text, packing
// items within the token budget, and the status-to-error mapping.
import { describe, expect, it } from 'vitest';
import { jsonOfReply } from '../../src/mt/llm/client.js';
import { estimateTokens, llmBaseUrl, resolveLlmConfig } from '../../src/mt/llm/config.js';
import { statusError } from '../../src/mt/llm/protocol.js';
import { formatRules, readTranslations, translationPrompt } from '../../src/llm/prompt.js';
import { imageTokens, packByBudget } from '../../src/llm/translate.js';
import { anthropicBody } from '../../src/mt/llm/anthropic.js';
import { openAiBody } from '../../src/mt/llm/openai.js';
import { promptForLog } from '../../src/mt/llm/protocol.js';
import type { KeyContext } from '../../src/llm/context.js';
import { blockingProblems } from '../../src/llm/validate.js';

const context = (keyId: number, source: string): KeyContext => ({
  keyId,
  key: `k${keyId}`,
  namespace: '',
  description: '',
  charactersLimit: null,
  source,
  otherLanguages: [],
  neighbours: [],
  memory: [],
  glossary: [],
  screenshots: [],
});
const header = { projectDescription: 'An app', style: '', sourceLanguage: 'en', targetLanguage: 'pl' };

describe('replies', () => {
  it('reads JSON as is, in a code fence, or after prose; refuses anything else', () => {
    expect(jsonOfReply('{"translations":[]}')).toEqual({ translations: [] });
    expect(jsonOfReply('```json\n{"translations":[{"id":"t1","text":"a"}]}\n```')).toEqual({
      translations: [{ id: 't1', text: 'a' }],
    });
    expect(jsonOfReply('Here you go: {"text":"x"} Enjoy!')).toEqual({ text: 'x' });
    expect(() => jsonOfReply('Sure! {"translations": [')).toThrow('the reply is not JSON');
    expect(() => readTranslations({ translations: 'no' })).toThrow('no "translations" array');
    expect([
      ...readTranslations({
        translations: [
          { id: 't1', text: 'a' },
          { id: 2, text: 'b' },
        ],
      }),
    ]).toEqual([['t1', 'a']]);
  });

  it('maps statuses: 429 and 5xx retried with Retry-After, 401 fatal with the message', () => {
    const limited = statusError('LLM_OPENAI', {
      status: 429,
      headers: { 'retry-after': '7' },
      text: '',
      body: { error: { message: 'slow' } },
    });
    expect(limited).toMatchObject({
      kind: 'retryable',
      reason: 'rate_limit',
      retryAfterMs: 7000,
      providerMessage: 'slow',
    });
    expect(
      statusError('LLM_ANTHROPIC', { status: 529, headers: {}, text: 'overloaded', body: undefined }),
    ).toMatchObject({ kind: 'retryable', reason: 'server', providerMessage: 'overloaded' });
    expect(
      statusError('LLM_OPENAI', { status: 401, headers: {}, text: '', body: { error: { message: 'bad key' } } }),
    ).toMatchObject({ kind: 'fatal', reason: 'auth', message: 'LLM_OPENAI: bad key (HTTP 401)' });
  });
});

describe('prompts', () => {
  it('names printf and brace placeholders, tags, and the plural categories of the target language', () => {
    expect(formatRules('Deleted %d files in %s', 'pl')).toEqual({ placeholders: ['%d', '%s'] });
    expect(formatRules('Hi <a href="/x">{name}</a>', 'de')).toEqual({
      placeholders: ['{name}'],
      tags: ['<a href="/x">', '</a>'],
    });
    const plural = formatRules('{n, plural, one {# day} other {# days}}', 'ru');
    expect(plural.pluralCategories).toEqual(['one', 'few', 'many', 'other']);
    expect(formatRules('{n, plural, one {# day} other {# days}}', 'ja').pluralCategories).toEqual(['other']);
    expect(formatRules('{g, select, male {He} other {They}}', 'fr')).toMatchObject({ icu: { arguments: ['g'] } });
    expect(formatRules('{g, select, male {He} other {They}}', 'fr').pluralCategories).toBeUndefined();
  });

  it('packs items so that each request stays within the budget (characters / 4), a large item alone', () => {
    const items = Array.from({ length: 40 }, (_, i) => ({
      id: `t${i}`,
      context: context(i, `Text number ${i} with some words in it`),
    }));
    items.push({ id: 'big', context: context(99, 'x'.repeat(4000)) });
    const batches = packByBudget(header, items, 800);
    expect(batches.flat()).toHaveLength(41);
    expect(batches.at(-1)!.map((i) => i.id)).toEqual(['big']);
    for (const batch of batches.slice(0, -1)) {
      const prompt = translationPrompt(header, batch);
      expect(estimateTokens(prompt.system + prompt.user)).toBeLessThanOrEqual(800);
    }
    expect(batches.length).toBeGreaterThan(2);
  });

  it('counts each screenshot once per request against the budget, at most maxImages of them', () => {
    const shot = (screenshotId: number) => ({
      screenshotId,
      storageFolder: `1/${screenshotId}/`,
      width: 2048,
      height: 1024,
      rectangle: { x: 0, y: 0, width: 10, height: 10 },
    });
    // 2048×1024 is sent as 1024×512: 700 tokens.
    expect(imageTokens({ width: 2048, height: 1024 })).toBe(700);
    const items = Array.from({ length: 6 }, (_, i) => ({
      id: `t${i}`,
      context: { ...context(i, `Short text ${i}`), screenshots: [shot(i < 3 ? 1 : 2)] },
    }));
    // Both screenshots fit a large budget: one request.
    expect(packByBudget(header, items, 6000, 4)).toHaveLength(1);
    // One image fits beside the texts, two do not: the second screenshot's items start a request.
    const split = packByBudget(header, items, 1100, 4);
    expect(split.map((b) => b.map((i) => i.id))).toEqual([
      ['t0', 't1', 't2'],
      ['t3', 't4', 't5'],
    ]);
    // Without images the same budget holds them all.
    expect(packByBudget(header, items, 1100, 0)).toHaveLength(1);
  });
});

describe('wire bodies', () => {
  const prompt = {
    system: 'sys',
    user: '{"items":[]}',
    schema: { type: 'object' },
    schemaName: 'translations',
    images: [{ mediaType: 'image/jpeg' as const, data: 'QUJD', width: 4, height: 3 }],
  };

  it('asks Anthropic for a forced tool call with the schema, images before the text', () => {
    const config = resolveLlmConfig('LLM_ANTHROPIC', { env: {} });
    expect(config.responseFormat).toBe('tool');
    const body = anthropicBody(config, prompt) as any;
    expect(body.tools).toEqual([
      { name: 'translations', description: expect.any(String), input_schema: { type: 'object' } },
    ]);
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'translations' });
    expect(body.messages[0].content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'QUJD' } },
      { type: 'text', text: '{"items":[]}' },
    ]);
    const plain = anthropicBody(resolveLlmConfig('LLM_ANTHROPIC', { env: { LLM_ANTHROPIC_RESPONSE_FORMAT: 'none' } }), {
      ...prompt,
      images: [],
    }) as any;
    expect(plain.tools).toBeUndefined();
    expect(plain.messages[0].content).toBe('{"items":[]}');
    expect(() => resolveLlmConfig('LLM_ANTHROPIC', { env: { LLM_ANTHROPIC_RESPONSE_FORMAT: 'json_schema' } })).toThrow(
      'LLM_ANTHROPIC_RESPONSE_FORMAT must be one of tool, none',
    );
  });

  it('sends OpenAI images as data URLs; the log keeps what they were, not their bytes', () => {
    const body = openAiBody(resolveLlmConfig('LLM_OPENAI', { env: {} }), prompt) as any;
    expect(body.messages[1].content).toEqual([
      { type: 'text', text: '{"items":[]}' },
      { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,QUJD' } },
    ]);
    const logged = openAiBody(resolveLlmConfig('LLM_OPENAI', { env: {} }), promptForLog(prompt)) as any;
    expect(JSON.stringify(logged)).not.toContain('QUJD');
    expect(logged.messages[1].content[1].image_url.url).toContain('<image 1: 4×3 image/jpeg');
  });
});

describe('configuration', () => {
  it('takes the project settings over the environment, field by field, and cuts endpoint URLs to the base', () => {
    expect(llmBaseUrl('x', 'http://h:11434/v1/chat/completions')).toBe('http://h:11434');
    expect(llmBaseUrl('x', 'https://r.openai.azure.com/openai/v1/')).toBe('https://r.openai.azure.com/openai');
    const env = {
      LLM_OPENAI_URL: 'http://env:1',
      LLM_OPENAI_MODEL: 'env-model',
      LLM_OPENAI_API_KEY: 'env-key',
      LLM_OPENAI_HEADERS: '{"A":"1","B":"2"}',
    };
    const config = resolveLlmConfig('LLM_OPENAI', {
      env,
      projectApiKey: 'p-key',
      project: { model: 'p-model', headers: { B: '3' } },
    });
    expect(config).toMatchObject({
      url: 'http://env:1',
      model: 'p-model',
      apiKey: 'p-key',
      keySource: 'project',
      headers: { A: '1', B: '3' },
      allowPrivate: false,
      price: undefined,
    });
    expect(() => resolveLlmConfig('LLM_OPENAI', { env: { LLM_OPENAI_HEADERS: '[1]' } })).toThrow(
      /LLM_OPENAI_HEADERS must be a JSON object/,
    );
    expect(resolveLlmConfig('LLM_ANTHROPIC', { env: { LLM_ANTHROPIC_PRICE_INPUT: '3' } }).price).toEqual({
      input: 3,
      output: 0,
    });
  });

  it("prices by model: the configured model's entry wins over the provider's price, the project's over both", () => {
    const env = {
      LLM_OPENAI_PRICE_INPUT: '9',
      LLM_OPENAI_PRICE_OUTPUT: '9',
      LLM_OPENAI_PRICES: '{"gpt-4o-mini": {"input": 0.15, "output": 0.6}, "gpt-4o": {"input": 2.5, "output": 10}}',
    };
    expect(resolveLlmConfig('LLM_OPENAI', { env }).price).toEqual({ input: 0.15, output: 0.6 });
    expect(resolveLlmConfig('LLM_OPENAI', { env: { ...env, LLM_OPENAI_MODEL: 'gpt-4o' } }).price).toEqual({
      input: 2.5,
      output: 10,
    });
    expect(resolveLlmConfig('LLM_OPENAI', { env: { ...env, LLM_OPENAI_MODEL: 'other' } }).price).toEqual({
      input: 9,
      output: 9,
    });
    expect(resolveLlmConfig('LLM_OPENAI', { env, project: { model: 'gpt-4o', priceOutput: 7 } }).price).toEqual({
      input: 2.5,
      output: 7,
    });
    expect(() =>
      resolveLlmConfig('LLM_OPENAI', { env: { LLM_OPENAI_PRICES: '{"m": {"input": -1, "output": 1}}' } }),
    ).toThrow(/LLM_OPENAI_PRICES: the price of "m"/);
  });

  it("sends screenshots by default only to the vendors' own servers; a setting says otherwise", () => {
    expect(resolveLlmConfig('LLM_OPENAI', { env: {} }).screenshots).toBe(true);
    expect(resolveLlmConfig('LLM_OPENAI', { env: { LLM_OPENAI_URL: 'http://127.0.0.1:11434' } }).screenshots).toBe(
      false,
    );
    expect(
      resolveLlmConfig('LLM_OPENAI', {
        env: { LLM_OPENAI_URL: 'http://127.0.0.1:11434', LLM_OPENAI_SCREENSHOTS: 'true' },
      }).screenshots,
    ).toBe(true);
    expect(
      resolveLlmConfig('LLM_ANTHROPIC', { env: { LLM_ANTHROPIC_SCREENSHOTS: 'false' }, project: { screenshots: true } })
        .screenshots,
    ).toBe(true);
    expect(() => resolveLlmConfig('LLM_ANTHROPIC', { env: { LLM_ANTHROPIC_SCREENSHOTS: 'maybe' } })).toThrow(
      'LLM_ANTHROPIC_SCREENSHOTS must be true or false',
    );
  });
});

describe('glossary', () => {
  const term = (over: Partial<KeyContext['glossary'][number]>): KeyContext['glossary'][number] => ({
    term: 'file',
    translation: 'Datei',
    forbidden: false,
    doNotTranslate: false,
    caseSensitive: false,
    abbreviation: false,
    description: '',
    ...over,
  });

  it('sends the terms found in the text: a translation, a term kept as written, a forbidden one', () => {
    const prompt = translationPrompt({ ...header, targetLanguage: 'de' }, [
      {
        id: '1',
        context: {
          ...context(1, 'Save the file to Acme Cloud'),
          glossary: [
            term({ description: 'a document' }),
            term({ term: 'Acme Cloud', translation: 'Acme Cloud', doNotTranslate: true }),
            term({ term: 'stuff', translation: null, forbidden: true }),
          ],
        },
      },
    ]);
    const item = JSON.parse(prompt.user).items[0];
    expect(item.glossary).toEqual([
      { term: 'file', translation: 'Datei', description: 'a document' },
      { term: 'Acme Cloud', rule: 'keep as written, do not translate' },
      { term: 'stuff', rule: 'forbidden: never use this term in the translation' },
    ]);
    expect(
      JSON.parse(translationPrompt(header, [{ id: '1', context: context(1, 'Save it') }]).user).items[0].glossary,
    ).toBeUndefined();
  });

  it('blocks a translation that misses a required term, and lets one that uses it through', () => {
    const input = {
      source: 'Save the file',
      sourceLanguage: 'en',
      targetLanguage: 'de',
      charactersLimit: null,
      glossary: [term({})],
    };
    expect(blockingProblems({ ...input, target: 'Das Dokument speichern' })).toEqual([
      expect.stringMatching(/^glossary: .*"file".*"Datei"/),
    ]);
    expect(blockingProblems({ ...input, target: 'Die Datei speichern' })).toEqual([]);
    expect(blockingProblems({ ...input, target: 'Das Dokument speichern', glossary: [] })).toEqual([]);
  });
});
