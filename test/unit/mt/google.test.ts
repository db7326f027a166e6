// MT_PROVIDER_A (Google Cloud Translation v2) against the fake server on loopback.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  getProvider,
  MtProviderError,
  MtValidationError,
  resolveCredentials,
  translateTexts,
} from '../../../src/mt/index.js';
import { parseIcu } from '../../../src/mt/icu.js';
import { FAKE_GOOGLE_KEY, startFakeGoogle, type FakeGoogle } from '../../support/fake-providers/google.js';

let fake: FakeGoogle;
const delays: number[] = [];
const retry = { sleep: async (ms: number) => void delays.push(ms), random: () => 0, baseDelayMs: 5 };

beforeAll(async () => {
  fake = await startFakeGoogle();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  fake.setTranslator(undefined);
  delays.length = 0;
});

const provider = (key = FAKE_GOOGLE_KEY) =>
  getProvider(
    'MT_PROVIDER_A',
    resolveCredentials('MT_PROVIDER_A', { env: { MT_PROVIDER_A_URL: fake.url, MT_PROVIDER_A_API_KEY: key } }),
  );

describe('MT_PROVIDER_A requests', () => {
  it('posts q, target, source and format=html with the key as a query parameter', async () => {
    const p = provider();
    const options = p.validateRequest({ sourceLanguage: 'en', targetLanguage: 'de' });
    const { outcomes } = await translateTexts(p, ['Hello', 'World'], options, { retry });
    expect(outcomes).toEqual([
      { ok: true, text: '[de] Hello' },
      { ok: true, text: '[de] World' },
    ]);
    expect(fake.requests).toHaveLength(1);
    const [req] = fake.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/language/translate/v2');
    expect(req!.query.key).toBe(FAKE_GOOGLE_KEY);
    expect(req!.headers['content-type']).toMatch(/^application\/json/);
    expect(req!.body).toEqual({ q: ['Hello', 'World'], target: 'de', source: 'en', format: 'html' });
  });

  it('omits source when not given (the provider detects it)', async () => {
    const p = provider();
    await translateTexts(p, ['Hi'], p.validateRequest({ targetLanguage: 'zh-CN' }), { retry });
    expect(fake.requests[0]!.body).toEqual({ q: ['Hi'], target: 'zh-CN', format: 'html' });
  });

  it('batches at 128 segments per request', async () => {
    const p = provider();
    const texts = Array.from({ length: 300 }, (_, i) => `Text number ${i}`);
    const { outcomes, stats } = await translateTexts(p, texts, p.validateRequest({ targetLanguage: 'fr' }), { retry });
    expect(fake.translateCalls().map((c) => c.q.length)).toEqual([128, 128, 44]);
    expect(outcomes[299]).toEqual({ ok: true, text: '[fr] Text number 299' });
    expect(stats).toMatchObject({ texts: 300, translated: 300, failed: 0, requests: 3 });
  });

  it('keeps each request at about 5,000 characters', async () => {
    const p = provider();
    const texts = Array.from({ length: 12 }, (_, i) => `${i} ${'word '.repeat(199)}`); // ~1,000 characters each
    await translateTexts(p, texts, p.validateRequest({ targetLanguage: 'fr' }), { retry });
    const calls = fake.translateCalls();
    expect(calls.length).toBeGreaterThanOrEqual(3);
    for (const c of calls) expect(c.q.join('').length).toBeLessThanOrEqual(5000);
    expect(calls.flatMap((c) => c.q)).toHaveLength(12);
  });

  it('sends identical texts once', async () => {
    const p = provider();
    const { outcomes } = await translateTexts(
      p,
      ['Save', 'Save', 'Cancel'],
      p.validateRequest({ targetLanguage: 'de' }),
      { retry },
    );
    expect(fake.translateCalls()[0]!.q).toEqual(['Save', 'Cancel']);
    expect(outcomes.map((o) => o.ok && o.text)).toEqual(['[de] Save', '[de] Save', '[de] Cancel']);
  });

  it('is refused by the fake like the real API beyond its limits', async () => {
    const res = await fetch(`${fake.url}/language/translate/v2?key=${FAKE_GOOGLE_KEY}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ q: Array.from({ length: 129 }, () => 'x'), target: 'de' }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe('Too many text segments');
  });
});

describe('MT_PROVIDER_A errors', () => {
  it('retries 429 and 5xx, then succeeds', async () => {
    fake.failNext(1, 429, { headers: { 'Retry-After': '2' } });
    fake.failNext(1, 503);
    fake.failNext(1, 500);
    const p = provider();
    const { outcomes, stats } = await translateTexts(p, ['Hello'], p.validateRequest({ targetLanguage: 'de' }), {
      retry,
    });
    expect(outcomes).toEqual([{ ok: true, text: '[de] Hello' }]);
    expect(fake.requests).toHaveLength(4);
    expect(stats).toMatchObject({ requests: 4, retries: 3 });
    expect(delays[0]).toBeGreaterThanOrEqual(2000); // Retry-After honoured
  });

  it('retries the per-minute quota (403 userRateLimitExceeded)', async () => {
    fake.failNext(1, 403, { reason: 'userRateLimitExceeded', message: 'User Rate Limit Exceeded' });
    const p = provider();
    const { outcomes } = await translateTexts(p, ['Hello'], p.validateRequest({ targetLanguage: 'de' }), { retry });
    expect(outcomes[0]!.ok).toBe(true);
  });

  it('ends on the daily quota with the provider message', async () => {
    fake.failNext(1, 403, { reason: 'dailyLimitExceeded', message: 'Daily Limit Exceeded' });
    const p = provider();
    const error = await translateTexts(p, ['Hello'], p.validateRequest({ targetLanguage: 'de' }), { retry }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(MtProviderError);
    expect(error).toMatchObject({
      kind: 'fatal',
      reason: 'quota',
      status: 403,
      providerMessage: 'Daily Limit Exceeded',
    });
    expect(error.message).toBe('MT_PROVIDER_A: Daily Limit Exceeded (HTTP 403)');
    expect(fake.requests).toHaveLength(1);
  });

  it('ends on an invalid key with the provider message', async () => {
    const p = provider('wrong-key');
    const error = await translateTexts(p, ['Hello'], p.validateRequest({ targetLanguage: 'de' }), { retry }).catch(
      (e) => e,
    );
    expect(error).toMatchObject({
      kind: 'fatal',
      reason: 'auth',
      status: 400,
      providerMessage: 'API key not valid. Please pass a valid API key.',
    });
  });

  it('gives up after the configured attempts on persistent 5xx', async () => {
    fake.failNext(10, 500);
    const p = provider();
    const error = await translateTexts(p, ['Hello'], p.validateRequest({ targetLanguage: 'de' }), {
      retry: { ...retry, maxAttempts: 3 },
    }).catch((e) => e);
    expect(error).toMatchObject({ kind: 'retryable', reason: 'server', status: 500 });
    expect(fake.requests).toHaveLength(3);
  });

  it('retries a request that times out (slow provider)', async () => {
    // The provider answers long after the client's timeout. Generous numbers on
    // both sides: on a loaded machine a 50 ms timeout can fire before the request
    // is even written, and a late request would leak into the next test.
    fake.setDelay(1_500);
    try {
      const creds = resolveCredentials('MT_PROVIDER_A', {
        env: { MT_PROVIDER_A_URL: fake.url, MT_PROVIDER_A_API_KEY: FAKE_GOOGLE_KEY },
      });
      const p = getProvider('MT_PROVIDER_A', creds, { timeoutMs: 300 });
      const error = await translateTexts(
        p,
        ['Hello'],
        { targetLanguage: 'de' },
        { retry: { ...retry, maxAttempts: 2 } },
      ).catch((e) => e);
      expect(error).toMatchObject({ kind: 'retryable', reason: 'timeout', status: 0 });
      await vi.waitFor(() => expect(fake.requests).toHaveLength(2), { timeout: 5_000 });
    } finally {
      fake.setDelay(0);
    }
  });

  it('retries when the provider cannot be reached', async () => {
    const p = getProvider('MT_PROVIDER_A', { url: 'http://127.0.0.1:1', apiKey: 'k', keySource: 'environment' });
    const error = await translateTexts(
      p,
      ['Hello'],
      { targetLanguage: 'de' },
      { retry: { ...retry, maxAttempts: 2 } },
    ).catch((e) => e);
    expect(error).toMatchObject({ kind: 'retryable', reason: 'network', status: 0 });
  });
});

describe('MT_PROVIDER_A validation', () => {
  it.each(['de', 'zh-CN', 'zh-TW', 'pt-BR', 'en', 'he', 'iw', 'fil', 'mni-Mtei'])('accepts %s', (code) => {
    expect(() => provider().validateLanguages({ targetLanguage: code, sourceLanguage: 'en' })).not.toThrow();
  });

  it.each(['DE_de', 'xx', 'de-DE', 'DE', 'zh-cn', 'english', ''])('refuses target %j naming the field', (code) => {
    const call = () => provider().validateLanguages({ targetLanguage: code });
    expect(call).toThrow(MtValidationError);
    expect(call).toThrow(/targetLanguage/);
  });

  it('suggests the right spelling and names sourceLanguage', () => {
    expect(() => provider().validateLanguages({ targetLanguage: 'de', sourceLanguage: 'ZH_cn' })).toThrow(
      /sourceLanguage "ZH_cn".*did you mean "zh-CN"/,
    );
  });

  it('refuses formality and glossaries, which only MT_PROVIDER_B has', async () => {
    expect(() => provider().validateRequest({ targetLanguage: 'de', formality: 'more' })).toThrow(
      /providerFormality is only supported by MT_PROVIDER_B/,
    );
    expect(() => provider().validateRequest({ targetLanguage: 'de', glossaryId: 'g' })).toThrow(
      /providerGlossaryId is only supported by MT_PROVIDER_B/,
    );
    await expect(provider().checkGlossary('g', 'en', 'de')).rejects.toBeInstanceOf(MtValidationError);
  });

  it('needs a key', () => {
    const p = getProvider('MT_PROVIDER_A', resolveCredentials('MT_PROVIDER_A', { env: {} }));
    expect(() => p.validateRequest({ targetLanguage: 'de' })).toThrow(/MT_PROVIDER_A has no API key/);
  });
});

describe('MT_PROVIDER_A placeholders', () => {
  it('keeps {name}, %1$d, <b> and HTML-escaped apostrophes intact', async () => {
    const p = provider();
    const text = "It's {name}'s turn: %1$d new <b>messages</b> & more\nnext line";
    const { outcomes } = await translateTexts(p, [text], p.validateRequest({ targetLanguage: 'de' }), { retry });
    expect(outcomes[0]).toEqual({
      ok: true,
      text: "[de] It's {name}'s turn: %1$d new <b>messages</b> & more\nnext line",
    });
    expect(fake.translateCalls()[0]!.q[0]).toContain('<span translate="no" id="x0">{name}</span>');
  });

  it('translates the branches of an ICU plural and returns a valid plural', async () => {
    const p = provider();
    const { outcomes } = await translateTexts(
      p,
      ['{count, plural, one {# file} other {# files}}'],
      p.validateRequest({ targetLanguage: 'de' }),
      { retry },
    );
    expect(outcomes[0]).toEqual({ ok: true, text: '{count, plural, one {[de] # file} other {[de] # files}}' });
    expect(parseIcu((outcomes[0] as { text: string }).text)).not.toBeNull();
    // The branch texts were sent, not the ICU syntax.
    expect(fake.translateCalls()[0]!.q).toEqual([
      '<span translate="no" id="x0">#</span> file',
      '<span translate="no" id="x0">#</span> files',
    ]);
  });

  it('fails a text whose placeholder the provider dropped, and only that text', async () => {
    fake.setTranslator((t) => t.replace(/<span translate="no" id="x0">[^<]*<\/span>/, '').replace(/^/, '[de] '));
    const p = provider();
    const { outcomes, stats } = await translateTexts(
      p,
      ['Hello {name}', 'Plain text'],
      p.validateRequest({ targetLanguage: 'de' }),
      { retry },
    );
    expect(outcomes[0]).toMatchObject({ ok: false, reason: 'placeholders' });
    expect(outcomes[1]).toEqual({ ok: true, text: '[de] Plain text' });
    expect(stats).toMatchObject({ translated: 1, failed: 1 });
  });

  it('follows placeholders the provider reordered', async () => {
    fake.setTranslator((t) => {
      const parts = t.split(/(<span translate="no" id="x\d">[^<]*<\/span>)/).filter(Boolean);
      return parts.reverse().join('');
    });
    const p = provider();
    const { outcomes } = await translateTexts(p, ['{a} to {b}'], p.validateRequest({ targetLanguage: 'de' }), {
      retry,
    });
    expect(outcomes[0]).toEqual({ ok: true, text: '{b} to {a}' });
  });
});
