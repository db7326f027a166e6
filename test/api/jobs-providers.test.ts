// Jobs against fake provider servers on loopback speaking the real protocols
// (test/support/fake-providers): translations written, batching, retry on 429
// and 5xx, fatal quota and auth errors, glossary checks, project-own keys.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startFakeDeepl,
  startFakeGoogle,
  FAKE_DEEPL_KEY,
  FAKE_GOOGLE_KEY,
  type FakeDeepl,
  type FakeGoogle,
} from '../support/fake-providers/index.js';
import { envelope, startTestService, type TestService } from '../support/service.js';
import { readTranslations, seedTranslations } from '../support/content.js';

let deepl: FakeDeepl;
let google: FakeGoogle;
let service: TestService;
let apiKey: string;
let projectToken: string;

const KEYS = 120;

beforeAll(async () => {
  deepl = await startFakeDeepl({
    glossaries: [
      { glossary_id: 'g-en-de', source_lang: 'en', target_lang: 'de', ownerKey: 'project-own-key' },
      { glossary_id: 'g-en-fr', source_lang: 'en', target_lang: 'fr', ownerKey: 'project-own-key' },
    ],
  });
  deepl.authKeys.push('project-own-key');
  google = await startFakeGoogle();
  process.env.MT_PROVIDER_B_URL = deepl.url;
  process.env.MT_PROVIDER_B_API_KEY = FAKE_DEEPL_KEY;
  process.env.MT_PROVIDER_A_URL = google.url;
  process.env.MT_PROVIDER_A_API_KEY = FAKE_GOOGLE_KEY;
  service = await startTestService();
  ({ apiKey, projectToken } = await (await service.account()).project('providers'));
  await seedTranslations(service.db, {
    projectToken,
    translations: {
      en: Object.fromEntries(
        Array.from({ length: KEYS }, (_, i) => [
          `k${String(i).padStart(3, '0')}`,
          `Hello %1$s number ${i}, <b>{name}</b>`,
        ]),
      ),
      de: { k000: '' },
    },
  });
});
afterAll(async () => {
  await service.close();
  await deepl.close();
  await google.close();
});
beforeEach(() => {
  deepl.reset();
  google.reset();
});

const start = (body: object) =>
  service.request({
    method: 'POST',
    url: '/api/v1/jobs/auto-translate',
    headers: { 'x-service-token': apiKey },
    payload: body,
  });
async function finish(res: Awaited<ReturnType<typeof start>>) {
  const job = envelope(res).data;
  for (let i = 0; i < 600; i++) {
    const now = envelope(
      await service.request({ url: `/api/v1/jobs/${job.jobId}`, headers: { 'x-service-token': apiKey } }),
    ).data;
    if (now.state !== 'STARTED') return now;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('job did not finish');
}

describe('MT_PROVIDER_B (DeepL API v2 protocol)', () => {
  it('translates every empty cell in batches within the provider limits, placeholders intact', async () => {
    const job = await finish(
      await start({
        translationProvider: 'MT_PROVIDER_B',
        targetProjectLanguage: 'de',
        targetLanguage: 'DE',
        sourceLanguage: 'EN',
        options: ['FORCE_REPLACE'],
      }),
    );
    expect(job.state).toBe('SUCCESS');
    expect(job.message).toMatch(new RegExp(`^Translated ${KEYS} texts`));
    const calls = deepl.translateCalls();
    expect(calls.length).toBeGreaterThanOrEqual(3);
    for (const call of calls) {
      expect(call.text.length).toBeLessThanOrEqual(50);
      expect(call.target_lang).toBe('DE');
      expect(call.source_lang).toBe('EN');
      expect(call.authKey).toBe(FAKE_DEEPL_KEY);
    }
    const de = (await readTranslations(service.db, projectToken)).de!;
    expect(Object.keys(de)).toHaveLength(KEYS);
    expect(de.k007).toBe('[DE] Hello %1$s number 7, <b>{name}</b>');
  });

  it('retries 429 (honouring Retry-After) and 5xx, then succeeds', async () => {
    deepl.failNext(1, 429, { headers: { 'Retry-After': '1' } });
    deepl.failNext(1, 503);
    const job = await finish(
      await start({
        translationProvider: 'MT_PROVIDER_B',
        targetProjectLanguage: 'de',
        targetLanguage: 'DE',
        options: ['FORCE_REPLACE'],
      }),
    );
    expect(job.state).toBe('SUCCESS');
    const statuses = deepl.requests.length;
    expect(statuses).toBeGreaterThanOrEqual(deepl.translateCalls().length);
  });

  it('ends the job FAILED with the provider message on a quota error', async () => {
    deepl.failNext(100, 456, { message: 'Quota for this billing period has been exceeded.' });
    const job = await finish(
      await start({
        translationProvider: 'MT_PROVIDER_B',
        targetProjectLanguage: 'de',
        targetLanguage: 'DE',
        options: ['FORCE_REPLACE'],
      }),
    );
    expect(job.state).toBe('FAILED');
    expect(job.message).toMatch(/MT_PROVIDER_B: .*Quota for this billing period has been exceeded/);
    expect(job.progress).toBeLessThan(1);
  });

  it('checks the glossary at the provider before starting', async () => {
    const noOwnKey = await start({
      translationProvider: 'MT_PROVIDER_B',
      targetProjectLanguage: 'de',
      targetLanguage: 'DE',
      sourceLanguage: 'EN',
      providerGlossaryId: 'g-en-de',
    });
    expect(noOwnKey.statusCode).toBe(400);
    expect(envelope(noOwnKey).msg).toMatch(/own MT_PROVIDER_B key/);
    await service.request({
      method: 'POST',
      url: '/graphql',
      headers: { 'x-service-token': apiKey, 'content-type': 'application/json' },
      payload: { query: 'mutation { setProviderApiKey(provider: MT_PROVIDER_B, apiKey: "project-own-key") }' },
    });
    const noSource = await start({
      translationProvider: 'MT_PROVIDER_B',
      targetProjectLanguage: 'de',
      targetLanguage: 'DE',
      providerGlossaryId: 'g-en-de',
    });
    expect(noSource.statusCode).toBe(400);
    expect(envelope(noSource).msg).toMatch(/sourceLanguage/);
    const mismatch = await start({
      translationProvider: 'MT_PROVIDER_B',
      targetProjectLanguage: 'de',
      targetLanguage: 'DE',
      sourceLanguage: 'EN',
      providerGlossaryId: 'g-en-fr',
    });
    expect(mismatch.statusCode).toBe(400);
    expect(envelope(mismatch).msg).toMatch(/glossary/i);
    const missing = await start({
      translationProvider: 'MT_PROVIDER_B',
      targetProjectLanguage: 'de',
      targetLanguage: 'DE',
      sourceLanguage: 'EN',
      providerGlossaryId: 'nope',
    });
    expect(missing.statusCode).toBe(400);
    const ok = await finish(
      await start({
        translationProvider: 'MT_PROVIDER_B',
        targetProjectLanguage: 'de',
        targetLanguage: 'DE',
        sourceLanguage: 'EN',
        providerGlossaryId: 'g-en-de',
        providerFormality: 'more',
        options: ['FORCE_REPLACE'],
      }),
    );
    expect(ok.state).toBe('SUCCESS');
    const calls = deepl.translateCalls();
    expect(
      calls.every((c) => c.glossary_id === 'g-en-de' && c.formality === 'more' && c.authKey === 'project-own-key'),
    ).toBe(true);
    await service.request({
      method: 'POST',
      url: '/graphql',
      headers: { 'x-service-token': apiKey, 'content-type': 'application/json' },
      payload: { query: 'mutation { setProviderApiKey(provider: MT_PROVIDER_B, apiKey: null) }' },
    });
  });
});

describe('the project glossary handed to MT_PROVIDER_B', () => {
  it('makes a glossary of the terms found in each batch (never the whole glossary), uses it, and removes it', async () => {
    const gql = (query: string) =>
      service.request({
        method: 'POST',
        url: '/graphql',
        headers: { 'x-service-token': apiKey, 'content-type': 'application/json' },
        payload: { query },
      });
    for (const input of [
      '{ term: "number", translations: [{ language: "de", text: "Nummer" }] }',
      '{ term: "invoice", translations: [{ language: "de", text: "Rechnung" }] }',
      '{ term: "hello", forbidden: true }',
    ])
      expect((await gql(`mutation { createGlossaryTerm(input: ${input}) { id } }`)).json().errors).toBeUndefined();
    try {
      const job = await finish(
        await start({
          translationProvider: 'MT_PROVIDER_B',
          targetProjectLanguage: 'de',
          targetLanguage: 'DE',
          options: ['FORCE_REPLACE'],
        }),
      );
      expect(job.state).toBe('SUCCESS');
      const created = deepl.requests.filter((r) => r.method === 'POST' && r.path === '/v2/glossaries');
      const calls = deepl.translateCalls();
      // One glossary per batch of 100 keys (each sent in requests of at most 50 texts), holding only the
      // term found in its texts ("invoice" is in none; a forbidden term has no translation to give).
      expect(created).toHaveLength(Math.ceil(KEYS / 100));
      for (const request of created)
        expect(request.body).toMatchObject({
          source_lang: 'en',
          target_lang: 'de',
          entries: 'number\tNummer',
          entries_format: 'tsv',
        });
      for (const call of calls) {
        expect(call.glossary_id).toMatch(/^created-/);
        // A glossary needs the source language: taken from the project's default language.
        expect(call.source_lang).toBe('EN');
      }
      expect(deepl.requests.filter((r) => r.method === 'DELETE')).toHaveLength(created.length);
      expect([...deepl.glossaries.keys()].filter((id) => id.startsWith('created-'))).toEqual([]);
      expect((await readTranslations(service.db, projectToken)).de!.k007).toBe(
        '[DE] Hello %1$s Nummer 7, <b>{name}</b>',
      );
      expect(job.message).toMatch(/the provider was given \d+ glossary terms found in the texts/);

      // A glossary the provider refuses (a language pair without glossaries): that batch is translated without it.
      deepl.reset();
      deepl.failNext(1, 400, { endpoint: 'glossaries', message: 'Unsupported glossary language pair' });
      const second = await finish(
        await start({
          translationProvider: 'MT_PROVIDER_B',
          targetProjectLanguage: 'de',
          targetLanguage: 'DE',
          options: ['FORCE_REPLACE'],
        }),
      );
      expect(second.state).toBe('SUCCESS');
      const withGlossary = deepl.translateCalls().filter((c) => c.glossary_id);
      expect(withGlossary.length).toBe(1);
      expect(deepl.translateCalls().length).toBe(3);
    } finally {
      const { data } = (await gql('{ glossaryTerms { terms { id } } }')).json();
      for (const t of data?.glossaryTerms?.terms ?? []) await gql(`mutation { deleteGlossaryTerm(id: ${t.id}) }`);
    }
  });
});

describe('cancellation', () => {
  const gql = (query: string, variables: object) =>
    service
      .request({
        method: 'POST',
        url: '/graphql',
        headers: { 'x-service-token': apiKey, 'content-type': 'application/json' },
        payload: { query, variables },
      })
      .then((r) => r.json());

  it('stops a running job after the batch in flight', async () => {
    deepl.setDelay(300);
    try {
      const job = envelope(
        await start({
          translationProvider: 'MT_PROVIDER_B',
          targetProjectLanguage: 'de',
          targetLanguage: 'DE',
          options: ['FORCE_REPLACE'],
        }),
      ).data;
      for (let i = 0; i < 200 && deepl.translateCalls().length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      const cancelled = await gql('mutation($id: String!) { cancelJob(jobId: $id) { state } }', { id: job.jobId });
      expect(cancelled.errors).toBeUndefined();
      const done = await finish({ json: () => ({ msg: 'OK', status: 200, data: job }), statusCode: 200 } as never);
      expect(done.state).toBe('CANCELLED');
      expect(done.message).toBe('Cancelled');
      expect(done.progress).toBeLessThan(1);
    } finally {
      deepl.setDelay(0);
    }
  });
});

describe('MT_PROVIDER_A (Google Cloud Translation Basic v2 protocol)', () => {
  it('translates with the service key and writes the results', async () => {
    const job = await finish(
      await start({
        translationProvider: 'MT_PROVIDER_A',
        targetProjectLanguage: 'de',
        targetLanguage: 'de',
        sourceLanguage: 'en',
        options: ['FORCE_REPLACE'],
      }),
    );
    expect(job.state).toBe('SUCCESS');
    const calls = google.translateCalls();
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((c) => c.key === FAKE_GOOGLE_KEY && c.target === 'de' && c.q.length <= 128)).toBe(true);
    expect((await readTranslations(service.db, projectToken)).de!.k001).toBe('[de] Hello %1$s number 1, <b>{name}</b>');
  });

  it('fails with the provider message when the key is refused', async () => {
    google.failNext(100, 403, { reason: 'dailyLimitExceeded', message: 'Daily Limit Exceeded' });
    const job = await finish(
      await start({
        translationProvider: 'MT_PROVIDER_A',
        targetProjectLanguage: 'de',
        targetLanguage: 'de',
        options: ['FORCE_REPLACE'],
      }),
    );
    expect(job.state).toBe('FAILED');
    expect(job.message).toMatch(/Daily Limit Exceeded/);
  });
});
