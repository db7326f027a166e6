// Auto-translation jobs with the built-in PSEUDO provider (offline): REST v1
// and v2, options, validation, isolation between projects, GraphQL and
// live progress over graphql-ws.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { pseudoLocalize } from '../../src/mt/index.js';
import { parseIcuPlural } from '../../src/formats/plural.js';
import { envelope, startTestService, type TestService } from '../support/service.js';
import { readTranslations, seedTranslations } from '../support/content.js';
import { JOB_MESSAGES } from '../../src/jobs/messages.js';
import { wordInEnglish, type MessageText } from '../../src/message-text.js';

let service: TestService;
let apiKey: string;
let projectToken: string;
let other: { apiKey: string; projectToken: string };

const post = (url: string, payload: unknown, key = apiKey) =>
  service.request({ method: 'POST', url, headers: { 'x-service-token': key }, payload });
const get = (url: string, key = apiKey) => service.request({ url, headers: { 'x-service-token': key } });

async function waitForJob(jobId: string, key = apiKey): Promise<any> {
  for (let i = 0; i < 400; i++) {
    const job = envelope(await get(`/api/v1/jobs/${jobId}`, key)).data;
    if (job.state !== 'STARTED') return job;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`job ${jobId} did not finish`);
}

beforeAll(async () => {
  service = await startTestService({ listen: true });
  const account = await service.account();
  ({ apiKey, projectToken } = await account.project('jobs'));
  other = await (await service.account()).project('other');
  await seedTranslations(service.db, {
    projectToken,
    translations: {
      en: {
        greeting: 'Hello {name}',
        files: '{count, plural, one {# file} other {# files}}',
        empty_source: '',
        bold: 'Click <b>here</b>',
      },
      de: { greeting: 'Hallo {name}', files: '', bold: '' },
    },
  });
});
afterAll(() => service.close());

describe('POST /api/v1/jobs/auto-translate', () => {
  it('answers at once with a STARTED job, then finishes with SUCCESS and metadata', async () => {
    const res = await post('/api/v1/jobs/auto-translate', {
      translationProvider: 'PSEUDO',
      targetProjectLanguage: 'de',
      targetLanguage: 'de',
      sourceProjectLanguage: 'en',
    });
    expect(res.statusCode).toBe(200);
    const job = envelope(res).data;
    expect(job).toMatchObject({ state: 'STARTED', message: 'OK', metadata: {} });
    expect(job.progress).toBeGreaterThan(0);
    expect(job.progress).toBeLessThan(0.1);
    expect(new Date(job.started).toISOString()).toBe(job.started);
    const done = await waitForJob(job.jobId);
    expect(done.state).toBe('SUCCESS');
    expect(done.progress).toBe(1);
    expect(done.message).toMatch(/^Translated 2 texts \(\d+ characters\)$/);
    // GraphQL has the message as data as well (src/jobs/messages.ts).
    const worded = await service.request({
      method: 'POST',
      url: '/graphql',
      headers: { 'x-service-token': apiKey, 'content-type': 'application/json' },
      payload: { query: `{ job(jobId: "${job.jobId}") { message messageText { id params } } }` },
    });
    const { messageText } = worded.json().data.job;
    expect(messageText).toEqual([{ id: 'translated', params: { count: 2, characters: expect.any(Number) } }]);
    expect(messageText.map((p: MessageText) => wordInEnglish(JOB_MESSAGES, p)).join('; ')).toBe(done.message);
    expect(done.metadata).toEqual({
      targetProjectLanguage: 'de',
      targetLanguage: 'de',
      sourceType: 'TRANSLATIONS',
      options: '',
      translationProvider: 'PSEUDO',
      sourceProjectLanguage: 'en',
      sourceLanguage: '',
    });
    const de = (await readTranslations(service.db, projectToken)).de!;
    // Only empty cells are filled by default; placeholders and markup survive.
    expect(de.greeting).toBe('Hallo {name}');
    expect(de.files).toBe(pseudoLocalize('{count, plural, one {# file} other {# files}}'));
    const plural = parseIcuPlural(de.files!);
    expect(Object.keys(plural!.forms)).toEqual(['one', 'other']);
    expect(plural!.forms.other).toContain('#');
    expect(de.bold).toMatch(/<b>.*<\/b>/);
    expect(de.empty_source).toBeUndefined();
  });

  it('FORCE_REPLACE translates everything and USE_TRANSLATION_KEYS uses keys for empty sources', async () => {
    const job = envelope(
      await post('/api/v1/jobs/auto-translate', {
        translationProvider: 'PSEUDO',
        targetProjectLanguage: 'de',
        targetLanguage: 'de',
        options: ['FORCE_REPLACE', 'USE_TRANSLATION_KEYS'],
      }),
    ).data;
    const done = await waitForJob(job.jobId);
    expect(done.message).toMatch(/^Translated 4 texts/);
    expect(done.metadata.options).toBe('FORCE_REPLACE,USE_TRANSLATION_KEYS');
    const de = (await readTranslations(service.db, projectToken)).de!;
    expect(de.greeting).toBe(pseudoLocalize('Hello {name}'));
    expect(de.empty_source).toBe(pseudoLocalize('empty_source'));
  });

  it.each([
    [{ targetProjectLanguage: 'de', targetLanguage: 'de' }, 400, /translationProvider is required/],
    [
      { translationProvider: 'NOPE', targetProjectLanguage: 'de', targetLanguage: 'de' },
      400,
      /translationProvider must be one of/,
    ],
    [{ translationProvider: 'PSEUDO', targetLanguage: 'de' }, 400, /targetProjectLanguage is required/],
    [{ translationProvider: 'PSEUDO', targetProjectLanguage: 'de' }, 400, /targetLanguage is required/],
    [
      { translationProvider: 'PSEUDO', targetProjectLanguage: 'xx', targetLanguage: 'de' },
      404,
      /targetProjectLanguage 'xx'/,
    ],
    [
      { translationProvider: 'PSEUDO', targetProjectLanguage: 'de', targetLanguage: 'de', options: 'FORCE_REPLACE' },
      400,
      /options must be an array/,
    ],
    [
      { translationProvider: 'PSEUDO', targetProjectLanguage: 'de', targetLanguage: 'de', options: ['FAST'] },
      400,
      /options\[0\] must be one of USE_TRANSLATION_KEYS, FORCE_REPLACE, AUTO_PUBLISH; got 'FAST'/,
    ],
    [
      { translationProvider: 'MT_PROVIDER_B', targetProjectLanguage: 'de', targetLanguage: 'de-DE' },
      400,
      /targetLanguage/,
    ],
    [
      { translationProvider: 'MT_PROVIDER_A', targetProjectLanguage: 'de', targetLanguage: 'DE_de' },
      400,
      /targetLanguage/,
    ],
    [
      {
        translationProvider: 'MT_PROVIDER_A',
        targetProjectLanguage: 'de',
        targetLanguage: 'de',
        providerFormality: 'more',
      },
      400,
      /Formality|formality/,
    ],
  ])('refuses %o', async (body, status, message) => {
    const before = await service.db.prisma.job.count();
    const res = await post('/api/v1/jobs/auto-translate', body);
    expect(res.statusCode).toBe(status);
    expect(envelope(res).msg).toMatch(message);
    expect(await service.db.prisma.job.count()).toBe(before);
  });
});

describe('POST /api/v2/jobs/auto-translate', () => {
  it('creates one job per target and returns them', async () => {
    const res = await post('/api/v2/jobs/auto-translate', {
      translationProvider: 'PSEUDO',
      sourceProjectLanguage: 'en',
      targets: [
        { targetProjectLanguage: 'de', targetLanguage: 'de' },
        { targetProjectLanguage: 'fr', targetLanguage: 'fr' },
      ],
    });
    // 'fr' is not a language of the project: nothing is created.
    expect(res.statusCode).toBe(404);
    await service.request({
      method: 'POST',
      url: '/graphql',
      headers: { 'x-service-token': apiKey, 'content-type': 'application/json' },
      payload: { query: 'mutation { setProviderApiKey(provider: MT_PROVIDER_B, apiKey: "k") }' },
    });
    await seedTranslations(service.db, { projectToken, translations: { fr: { greeting: '' } } });
    const ok = await post('/api/v2/jobs/auto-translate', {
      translationProvider: 'PSEUDO',
      targets: [
        { targetProjectLanguage: 'de', targetLanguage: 'de' },
        { targetProjectLanguage: 'fr', targetLanguage: 'fr' },
      ],
    });
    expect(ok.statusCode).toBe(200);
    const jobs = envelope(ok).data;
    expect(jobs).toHaveLength(2);
    expect(jobs.map((j: any) => j.state)).toEqual(['STARTED', 'STARTED']);
    const finished = await Promise.all(jobs.map((j: any) => waitForJob(j.jobId)));
    expect(finished.map((j) => j.metadata.targetProjectLanguage).sort()).toEqual(['de', 'fr']);
    expect((await readTranslations(service.db, projectToken)).fr!.greeting).toBe(pseudoLocalize('Hello {name}'));
  });
  it.each([
    [undefined, /^targets is required: an array of \{targetProjectLanguage, targetLanguage\} \(or send languageKeys/],
    ['de', /^targets must be an array of objects$/],
    [[], /^targets must name at least one language$/],
    [['de'], /^targets\[0\] must be an object$/],
    [
      [{ targetProjectLanguage: 'de', targetLanguage: 'de' }, { targetProjectLanguage: 'de' }],
      /^targets\[1\]\.targetLanguage is required$/,
    ],
    [[{ targetProjectLanguage: 'de', targetLanguage: 7 }], /^targets\[0\]\.targetLanguage must be a string$/],
    [[{ targetProjectLanguage: '', targetLanguage: 'de' }], /^targetProjectLanguage is required$/],
  ])('refuses targets %j, naming the field, and creates nothing', async (targets, message) => {
    const before = await service.db.prisma.job.count();
    const res = await post('/api/v2/jobs/auto-translate', { translationProvider: 'PSEUDO', targets });
    expect(res.statusCode).toBe(400);
    expect(envelope(res).msg).toMatch(message);
    expect(await service.db.prisma.job.count()).toBe(before);
  });
  it.each([
    [{ languageKeys: 'de' }, /^languageKeys must be an array$/],
    [{ languageKeys: [5] }, /^languageKeys\[0\] must be a string$/],
    [{ languageKeys: ['de'], options: 'FORCE_REPLACE' }, /^options must be an array$/],
    [{ languageKeys: null }, /^languageKeys is required$/],
  ])("refuses the vendor client's body %j, naming the field", async (body, message) => {
    const res = await post('/api/v2/jobs/auto-translate', body);
    expect(res.statusCode).toBe(400);
    expect(envelope(res).msg).toMatch(message);
  });
});

describe('GET /api/v1/jobs', () => {
  it("lists the project's jobs, newest first, and only them", async () => {
    const list = envelope(await get('/api/v1/jobs')).data;
    expect(list.length).toBeGreaterThanOrEqual(4);
    expect(Object.keys(list[0]).sort()).toEqual(['jobId', 'message', 'metadata', 'progress', 'started', 'state']);
    const times = list.map((j: any) => Date.parse(j.started));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(envelope(await get('/api/v1/jobs', other.apiKey)).data).toEqual([]);
    const notMine = await get(`/api/v1/jobs/${list[0].jobId}`, other.apiKey);
    expect(notMine.statusCode).toBe(404);
    expect((await get('/api/v1/jobs/does-not-exist')).statusCode).toBe(404);
  });
});

describe('live progress over graphql-ws', () => {
  it('delivers every state change in order, ending with the final state', async () => {
    await seedTranslations(service.db, {
      projectToken,
      translations: {
        en: Object.fromEntries(Array.from({ length: 450 }, (_, i) => [`bulk.${i}`, `Text number ${i}`])),
      },
    });
    const client = createClient({
      url: service.url.replace('http', 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      connectionParams: { 'X-Service-Token': apiKey },
      lazy: true,
    });
    try {
      const gql = await service.request({
        method: 'POST',
        url: '/graphql',
        headers: { 'x-service-token': apiKey, 'content-type': 'application/json' },
        payload: {
          query: 'mutation($i: AutoTranslateInput!) { autoTranslate(input: $i) { jobId state } }',
          variables: {
            i: { translationProvider: 'PSEUDO', targets: [{ targetProjectLanguage: 'de', targetLanguage: 'de' }] },
          },
        },
      });
      const jobId = gql.json().data.autoTranslate[0].jobId;
      const received: any[] = [];
      await new Promise<void>((resolve, reject) => {
        client.subscribe(
          {
            query: 'subscription($id: String!) { jobProgress(jobId: $id) { jobId state progress sequence message } }',
            variables: { id: jobId },
          },
          {
            next: (value: any) => received.push(value.data.jobProgress),
            error: reject,
            complete: resolve,
          },
        );
      });
      expect(received.at(-1).state).toBe('SUCCESS');
      expect(received.at(-1).progress).toBe(1);
      const sequences = received.map((e) => e.sequence);
      expect([...sequences].sort((a, b) => a - b)).toEqual(sequences);
      expect(new Set(sequences).size).toBe(sequences.length);
      const progress = received.map((e) => e.progress);
      expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    } finally {
      await client.dispose();
    }
  });

  it("refuses a subscription to another project's job", async () => {
    const jobId = envelope(await get('/api/v1/jobs')).data[0].jobId;
    const client = createClient({
      url: service.url.replace('http', 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      connectionParams: { 'X-Service-Token': other.apiKey },
      lazy: true,
    });
    try {
      const error = await new Promise<any>((resolve) => {
        client.subscribe(
          { query: 'subscription($id: String!) { jobProgress(jobId: $id) { state } }', variables: { id: jobId } },
          {
            next: (value: any) => resolve(value.errors?.[0]),
            error: resolve,
            complete: () => resolve(undefined),
          },
        );
      });
      expect(JSON.stringify(error)).toMatch(/not found/);
    } finally {
      await client.dispose();
    }
  });
});
