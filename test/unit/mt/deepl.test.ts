// MT_PROVIDER_B (DeepL API v2) against the fake server on loopback.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  getProvider,
  MtProviderError,
  MtValidationError,
  resolveCredentials,
  translateTexts,
} from '../../../src/mt/index.js';
import { parseIcu } from '../../../src/mt/icu.js';
import { FAKE_DEEPL_KEY, startFakeDeepl, type FakeDeepl } from '../../support/fake-providers/deepl.js';

const PROJECT_KEY = 'project-own-key';
let fake: FakeDeepl;
const delays: number[] = [];
const retry = { sleep: async (ms: number) => void delays.push(ms), random: () => 0, baseDelayMs: 5 };

beforeAll(async () => {
  fake = await startFakeDeepl({
    authKeys: [FAKE_DEEPL_KEY, PROJECT_KEY],
    glossaries: [
      {
        glossary_id: 'gl-en-de',
        name: 'Product terms',
        source_lang: 'en',
        target_lang: 'de',
        entry_count: 12,
        ownerKey: PROJECT_KEY,
      },
      { glossary_id: 'gl-en-fr', name: 'French terms', source_lang: 'en', target_lang: 'fr', ownerKey: PROJECT_KEY },
      { glossary_id: 'gl-pending', source_lang: 'en', target_lang: 'de', ready: false, ownerKey: PROJECT_KEY },
    ],
  });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  fake.setTranslator(undefined);
  delays.length = 0;
});

const envOnly = () =>
  getProvider(
    'MT_PROVIDER_B',
    resolveCredentials('MT_PROVIDER_B', {
      env: { MT_PROVIDER_B_URL: fake.url, MT_PROVIDER_B_API_KEY: FAKE_DEEPL_KEY },
    }),
  );
const withProjectKey = (key = PROJECT_KEY) =>
  getProvider(
    'MT_PROVIDER_B',
    resolveCredentials('MT_PROVIDER_B', {
      projectApiKey: key,
      env: { MT_PROVIDER_B_URL: fake.url, MT_PROVIDER_B_API_KEY: FAKE_DEEPL_KEY },
    }),
  );

describe('MT_PROVIDER_B requests', () => {
  it('posts JSON with text[], target_lang, source_lang, formality, tag_handling and the DeepL-Auth-Key header', async () => {
    const p = envOnly();
    const options = p.validateRequest({ sourceLanguage: 'EN', targetLanguage: 'DE', formality: 'less' });
    const { outcomes } = await translateTexts(p, ['Hello', 'World'], options, { retry });
    expect(outcomes).toEqual([
      { ok: true, text: '[DE] Hello' },
      { ok: true, text: '[DE] World' },
    ]);
    const [req] = fake.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/v2/translate');
    expect(req!.headers.authorization).toBe(`DeepL-Auth-Key ${FAKE_DEEPL_KEY}`);
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.body).toEqual({
      text: ['Hello', 'World'],
      target_lang: 'DE',
      source_lang: 'EN',
      formality: 'less',
      tag_handling: 'xml',
      ignore_tags: ['x'],
    });
  });

  it('leaves formality "default" and absent options out', async () => {
    const p = envOnly();
    await translateTexts(p, ['Hi'], p.validateRequest({ targetLanguage: 'EN-US', formality: 'default' }), { retry });
    expect(fake.requests[0]!.body).toEqual({
      text: ['Hi'],
      target_lang: 'EN-US',
      tag_handling: 'xml',
      ignore_tags: ['x'],
    });
  });

  it('batches at 50 texts per request', async () => {
    const p = envOnly();
    const texts = Array.from({ length: 120 }, (_, i) => `Sentence ${i}`);
    const { stats } = await translateTexts(p, texts, p.validateRequest({ targetLanguage: 'FR' }), { retry });
    expect(fake.translateCalls().map((c) => c.text.length)).toEqual([50, 50, 20]);
    expect(stats.translated).toBe(120);
  });

  it('keeps every request body within 128 KiB', async () => {
    const p = envOnly();
    const texts = Array.from({ length: 12 }, (_, i) => `${i} ${'Lorem ipsum dolor sit amet. '.repeat(1000)}`); // ~28 KB each
    const { stats } = await translateTexts(p, texts, p.validateRequest({ targetLanguage: 'FR' }), { retry });
    expect(stats.translated).toBe(12);
    expect(fake.requests.length).toBeGreaterThanOrEqual(3);
    for (const r of fake.requests) expect(Buffer.byteLength(r.rawBody)).toBeLessThanOrEqual(128 * 1024);
  });

  it('refuses a single text larger than a request may be, without sending it', async () => {
    const p = envOnly();
    const { outcomes } = await translateTexts(
      p,
      ['x'.repeat(140_000), 'Small'],
      p.validateRequest({ targetLanguage: 'FR' }),
      { retry },
    );
    expect(outcomes[0]).toMatchObject({ ok: false, reason: 'too_large' });
    expect(outcomes[1]).toEqual({ ok: true, text: '[FR] Small' });
    expect(fake.translateCalls().flatMap((c) => c.text)).toEqual(['Small']);
  });

  it('is refused by the fake like the real API beyond its limits', async () => {
    const post = (body: unknown) =>
      fetch(`${fake.url}/v2/translate`, {
        method: 'POST',
        headers: { Authorization: `DeepL-Auth-Key ${FAKE_DEEPL_KEY}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post({ text: Array.from({ length: 51 }, () => 'x'), target_lang: 'DE' })).status).toBe(413);
    expect((await post({ text: ['x'.repeat(130 * 1024)], target_lang: 'DE' })).status).toBe(413);
    expect((await post({ text: ['x'], target_lang: 'de-DE' })).status).toBe(400);
  });
});

describe('MT_PROVIDER_B errors', () => {
  it('retries 429 honouring Retry-After, and 5xx, then succeeds', async () => {
    fake.failNext(1, 429, { headers: { 'Retry-After': '3' } });
    fake.failNext(1, 500);
    fake.failNext(1, 529);
    const p = envOnly();
    const { outcomes, stats } = await translateTexts(p, ['Hello'], p.validateRequest({ targetLanguage: 'DE' }), {
      retry,
    });
    expect(outcomes).toEqual([{ ok: true, text: '[DE] Hello' }]);
    expect(stats).toMatchObject({ requests: 4, retries: 3 });
    expect(delays).toHaveLength(3);
    expect(delays[0]).toBeGreaterThanOrEqual(3000);
  });

  it('waits for Retry-After for real when sleep is not injected', async () => {
    fake.failNext(1, 429, { headers: { 'Retry-After': '0.2' } });
    const p = envOnly();
    const started = Date.now();
    const { outcomes } = await translateTexts(p, ['Hello'], p.validateRequest({ targetLanguage: 'DE' }), {
      retry: { baseDelayMs: 1 },
    });
    expect(outcomes[0]!.ok).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('ends on quota exceeded (456) with the provider message', async () => {
    fake.failNext(1, 456, { message: 'Quota for this billing period has been exceeded' });
    const p = envOnly();
    const error = await translateTexts(p, ['Hello'], p.validateRequest({ targetLanguage: 'DE' }), { retry }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(MtProviderError);
    expect(error).toMatchObject({
      kind: 'fatal',
      reason: 'quota',
      status: 456,
      providerMessage: 'Quota for this billing period has been exceeded',
    });
    expect(error.message).toBe('MT_PROVIDER_B: Quota for this billing period has been exceeded (HTTP 456)');
    expect(fake.requests).toHaveLength(1);
  });

  it('ends on a refused key (403) with the provider message', async () => {
    const p = getProvider('MT_PROVIDER_B', { url: fake.url, apiKey: 'wrong', keySource: 'environment' });
    const error = await translateTexts(p, ['Hello'], { targetLanguage: 'DE' }, { retry }).catch((e) => e);
    expect(error).toMatchObject({
      kind: 'fatal',
      reason: 'auth',
      status: 403,
      providerMessage: 'Authorization failed. Please supply a valid auth_key parameter.',
    });
  });

  it('reports the texts finished before a fatal error', async () => {
    const p = envOnly();
    const texts = Array.from({ length: 60 }, (_, i) => `T ${i}`);
    const finished: number[] = [];
    let requests = 0;
    const error = await translateTexts(
      p,
      texts,
      { targetLanguage: 'DE' },
      {
        retry,
        onText: (i) => finished.push(i),
        // The first batch (50 texts) succeeds; the quota runs out for the second.
        onProgress: () => {
          if (++requests === 1) fake.failNext(1, 456);
        },
      },
    ).catch((e) => e);
    expect(error).toMatchObject({ kind: 'fatal', reason: 'quota' });
    expect(finished).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });
});

describe('MT_PROVIDER_B validation', () => {
  it.each([
    ['DE', undefined],
    ['EN-US', 'DE'],
    ['PT-BR', 'EN'],
    ['ZH-HANS', 'ZH'],
    ['EN-GB', undefined],
  ])('accepts target %s (source %s)', (targetLanguage, sourceLanguage) => {
    expect(() => envOnly().validateLanguages({ targetLanguage, sourceLanguage })).not.toThrow();
  });

  it.each(['de-DE', 'xx', 'de', 'en_US', 'PT_BR'])('refuses target %j naming the field', (code) => {
    const call = () => envOnly().validateLanguages({ targetLanguage: code });
    expect(call).toThrow(MtValidationError);
    expect(call).toThrow(/targetLanguage/);
  });

  it('refuses regional source languages and suggests the base', () => {
    expect(() => envOnly().validateLanguages({ targetLanguage: 'DE', sourceLanguage: 'EN-US' })).toThrow(
      /sourceLanguage "EN-US".*use "EN"/,
    );
    expect(() => envOnly().validateLanguages({ targetLanguage: 'DE', sourceLanguage: 'en' })).toThrow(
      /sourceLanguage "en".*did you mean "EN"/,
    );
  });

  it('checks formality values and the target languages that support them', () => {
    const p = envOnly();
    expect(p.validateRequest({ targetLanguage: 'DE', formality: 'more' }).formality).toBe('more');
    expect(p.validateRequest({ targetLanguage: 'PT-BR', formality: 'less' }).formality).toBe('less');
    expect(p.validateRequest({ targetLanguage: 'EN-US', formality: 'prefer_more' }).formality).toBe('prefer_more');
    expect(() => p.validateRequest({ targetLanguage: 'EN-US', formality: 'more' })).toThrow(
      /providerFormality "more" is not available for targetLanguage "EN-US"/,
    );
    expect(() => p.validateRequest({ targetLanguage: 'DE', formality: 'formal' })).toThrow(
      /providerFormality "formal" is not one of/,
    );
  });

  it('needs sourceLanguage and the project key for a glossary', () => {
    expect(() => withProjectKey().validateRequest({ targetLanguage: 'DE', glossaryId: 'gl-en-de' })).toThrow(
      /providerGlossaryId needs sourceLanguage/,
    );
    expect(() =>
      envOnly().validateRequest({ targetLanguage: 'DE', sourceLanguage: 'EN', glossaryId: 'gl-en-de' }),
    ).toThrow(/providerGlossaryId needs the project's own MT_PROVIDER_B key/);
    expect(() =>
      withProjectKey().validateRequest({ targetLanguage: 'DE', sourceLanguage: 'EN', glossaryId: '../etc' }),
    ).toThrow(MtValidationError);
    expect(
      withProjectKey().validateRequest({ targetLanguage: 'DE', sourceLanguage: 'EN', glossaryId: 'gl-en-de' })
        .glossaryId,
    ).toBe('gl-en-de');
  });

  it('needs a key', () => {
    const p = getProvider('MT_PROVIDER_B', resolveCredentials('MT_PROVIDER_B', { env: {} }));
    expect(() => p.validateRequest({ targetLanguage: 'DE' })).toThrow(/MT_PROVIDER_B has no API key/);
  });
});

describe('MT_PROVIDER_B glossaries', () => {
  it('looks the glossary up and accepts a matching language pair (regional target included)', async () => {
    const info = await withProjectKey().checkGlossary('gl-en-de', 'EN', 'DE');
    expect(info).toMatchObject({
      glossaryId: 'gl-en-de',
      name: 'Product terms',
      ready: true,
      sourceLang: 'en',
      targetLang: 'de',
      entryCount: 12,
    });
    const req = fake.requests[0]!;
    expect(req.method).toBe('GET');
    expect(req.path).toBe('/v2/glossaries/gl-en-de');
    expect(req.headers.authorization).toBe(`DeepL-Auth-Key ${PROJECT_KEY}`);
    await expect(withProjectKey().checkGlossary('gl-en-fr', 'EN', 'FR')).resolves.toMatchObject({ targetLang: 'fr' });
  });

  it('refuses a glossary of another language pair with a message', async () => {
    const error = await withProjectKey()
      .checkGlossary('gl-en-fr', 'EN', 'DE')
      .catch((e) => e);
    expect(error).toBeInstanceOf(MtValidationError);
    expect(error.field).toBe('providerGlossaryId');
    expect(error.message).toBe(
      'glossary "gl-en-fr" (French terms) is for en -> fr, but the job translates EN -> DE (en -> de)',
    );
  });

  it('refuses an unknown glossary, one of another account, and one not ready', async () => {
    await expect(withProjectKey().checkGlossary('nope', 'EN', 'DE')).rejects.toThrow(
      /providerGlossaryId "nope" was not found/,
    );
    fake.addGlossary({ glossary_id: 'gl-other', source_lang: 'en', target_lang: 'de', ownerKey: 'someone-else' });
    await expect(withProjectKey().checkGlossary('gl-other', 'EN', 'DE')).rejects.toThrow(/was not found/);
    await expect(withProjectKey().checkGlossary('gl-pending', 'EN', 'DE')).rejects.toThrow(/not ready/);
  });

  it('refuses the look-up without the project key, and reports a refused project key', async () => {
    await expect(envOnly().checkGlossary('gl-en-de', 'EN', 'DE')).rejects.toThrow(
      /needs the project's own MT_PROVIDER_B key/,
    );
    expect(fake.requests).toHaveLength(0);
    const error = await withProjectKey('revoked-key')
      .checkGlossary('gl-en-de', 'EN', 'DE')
      .catch((e) => e);
    expect(error).toBeInstanceOf(MtValidationError);
    expect(error.message).toMatch(/refused the project's key.*Authorization failed/);
  });

  it('retries a glossary look-up answered with 503', async () => {
    fake.failNext(1, 503, { endpoint: 'glossaries' });
    const p = getProvider(
      'MT_PROVIDER_B',
      { url: fake.url, apiKey: PROJECT_KEY, keySource: 'project' },
      { retry: { sleep: async () => {} } },
    );
    await expect(p.checkGlossary('gl-en-de', 'EN', 'DE')).resolves.toMatchObject({ ready: true });
    expect(fake.requests).toHaveLength(2);
  });

  it('sends glossary_id and source_lang with the texts', async () => {
    const p = withProjectKey();
    const options = p.validateRequest({ sourceLanguage: 'EN', targetLanguage: 'DE', glossaryId: 'gl-en-de' });
    const { outcomes } = await translateTexts(p, ['Dashboard'], options, { retry });
    expect(outcomes[0]).toEqual({ ok: true, text: '[DE] Dashboard' });
    expect(fake.translateCalls()[0]).toMatchObject({
      glossary_id: 'gl-en-de',
      source_lang: 'EN',
      target_lang: 'DE',
      authKey: PROJECT_KEY,
    });
  });
});

describe('MT_PROVIDER_B placeholders', () => {
  it('keeps {name}, %1$d and <b> intact through XML tag handling', async () => {
    const p = envOnly();
    const text = 'Hi {name}, %1$d new <b>messages</b> & <i>more</i>';
    const { outcomes } = await translateTexts(p, [text], p.validateRequest({ targetLanguage: 'DE' }), { retry });
    expect(outcomes[0]).toEqual({ ok: true, text: `[DE] ${text}` });
    expect(fake.translateCalls()[0]!.text[0]).toBe(
      'Hi <x id="0"/>, <x id="1"/> new <g id="2">messages</g> &amp; <g id="3">more</g>',
    );
  });

  it('translates the branches of an ICU plural and returns a valid plural', async () => {
    const p = envOnly();
    const { outcomes } = await translateTexts(
      p,
      ['{count, plural, one {# file} other {# files}}'],
      p.validateRequest({ targetLanguage: 'DE' }),
      { retry },
    );
    const text = (outcomes[0] as { text: string }).text;
    expect(text).toBe('{count, plural, one {[DE] # file} other {[DE] # files}}');
    expect(parseIcu(text)).not.toBeNull();
  });

  it('fails only the text whose placeholder came back twice', async () => {
    fake.setTranslator((t) => t.replace(/<x id="0"\/>/, '<x id="0"/> <x id="0"/>'));
    const p = envOnly();
    const { outcomes } = await translateTexts(
      p,
      ['Hello {name}', 'Hello'],
      p.validateRequest({ targetLanguage: 'DE' }),
      { retry },
    );
    expect(outcomes[0]).toMatchObject({ ok: false, reason: 'placeholders' });
    expect(outcomes[1]).toEqual({ ok: true, text: 'Hello' });
  });
});
