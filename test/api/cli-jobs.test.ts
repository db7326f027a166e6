// The vendor command-line client's auto-translate (spec/real-clients.md):
// `GET /api/v2/jobs?status=RUNNING&type=AUTO_TRANSLATION` polled while `data`
// is non-empty, and `POST /api/v2/jobs/auto-translate` with
// `{languageKeys, source, options}`: each language by its auto-translation
// settings, which are its last job's until some are saved (more in
// auto-translate-settings.test.ts). Against
// the fake DeepL server (test/support/fake-providers) and the PSEUDO provider.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeDeepl, FAKE_DEEPL_KEY, type FakeDeepl } from '../support/fake-providers/index.js';
import { envelope, startTestService, type TestService } from '../support/service.js';
import { readTranslations, seedTranslations } from '../support/content.js';
import { pseudoLocalize } from '../../src/mt/index.js';

let deepl: FakeDeepl;
let service: TestService;
let apiKey: string;
let projectToken: string;
let other: { apiKey: string; projectToken: string };

/** The client's headers: the vendor token header in odd letter case. */
const cli = (key = apiKey) => ({ 'X-SIMPLELOCALIZE-token': key, 'X-SimpleLocalize-Cli-Version': '2.11.0' });
/** The client's poll, query string exactly as it builds it. */
const RUNNING = '/api/v2/jobs?status=RUNNING&type=AUTO_TRANSLATION';
const poll = (key = apiKey) => service.request({ url: RUNNING, headers: cli(key) });
const clientStart = (languageKeys: string[], options: string[] = [], key = apiKey) =>
  service.request({
    method: 'POST',
    url: '/api/v2/jobs/auto-translate',
    headers: { ...cli(key), 'content-type': 'application/json; charset=utf-8' },
    payload: JSON.stringify({ languageKeys, source: 'CLI', options }),
  });
const v1Start = (body: object) =>
  service.request({
    method: 'POST',
    url: '/api/v1/jobs/auto-translate',
    headers: { 'x-service-token': apiKey },
    payload: body,
  });

async function waitForJob(jobId: string): Promise<any> {
  for (let i = 0; i < 600; i++) {
    const job = envelope(await service.request({ url: `/api/v1/jobs/${jobId}`, headers: cli() })).data;
    if (job.state !== 'STARTED') return job;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`job ${jobId} did not finish`);
}

/** What the client does after starting: poll until `data` is empty; returns how many polls saw running jobs. */
async function pollUntilIdle(): Promise<{ busyPolls: number; seen: Set<string> }> {
  let busyPolls = 0;
  const seen = new Set<string>();
  for (let i = 0; i < 600; i++) {
    const res = await poll();
    expect(res.statusCode).toBe(200);
    const { data } = envelope(res);
    if (data.length === 0) return { busyPolls, seen };
    busyPolls++;
    for (const job of data) {
      expect(job.state).toBe('STARTED');
      seen.add(job.jobId);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the client would wait forever');
}

beforeAll(async () => {
  deepl = await startFakeDeepl();
  process.env.MT_PROVIDER_B_URL = deepl.url;
  process.env.MT_PROVIDER_B_API_KEY = FAKE_DEEPL_KEY;
  service = await startTestService();
  ({ apiKey, projectToken } = await (await service.account()).project('cli jobs'));
  other = await (await service.account()).project('other');
  await seedTranslations(service.db, {
    projectToken,
    translations: {
      en: { greeting: 'Hello', farewell: 'Goodbye' },
      de: { greeting: '' },
      fr: { greeting: '' },
      'pt-br': { greeting: '' },
    },
  });
});
afterAll(async () => {
  await service.close();
  await deepl.close();
});
beforeEach(() => {
  deepl.reset();
  deepl.setDelay(0);
});

describe('GET /api/v2/jobs filters', () => {
  it('no job: exactly 200 with an empty data array (the client stops polling)', async () => {
    const res = await poll();
    expect(res.statusCode).toBe(200);
    expect(envelope(res)).toEqual({ msg: 'OK', status: 200, data: [] });
  });

  it('refuses an unknown status or type with 400 listing the allowed values', async () => {
    const status = await service.request({ url: '/api/v2/jobs?status=PENDING&type=AUTO_TRANSLATION', headers: cli() });
    expect(status.statusCode).toBe(400);
    expect(envelope(status).msg).toBe(
      "status must be one of RUNNING, STARTED, SUCCESS, FAILED, CANCELLED; got 'PENDING'",
    );
    const type = await service.request({ url: '/api/v2/jobs?status=RUNNING&type=IMPORT', headers: cli() });
    expect(type.statusCode).toBe(400);
    expect(envelope(type).msg).toBe("type must be one of AUTO_TRANSLATION; got 'IMPORT'");
  });
});

describe('POST /api/v2/jobs/auto-translate with the client body', () => {
  it('an unknown language is refused naming it', async () => {
    const res = await clientStart(['xx']);
    expect(res.statusCode).toBe(404);
    expect(envelope(res).msg).toMatch(/'xx' is not a language of this project/);
  });

  it("repeats each language's last job (provider, source and target notation); the RUNNING poll ends when the jobs finish", async () => {
    // The last jobs: de by MT_PROVIDER_B (provider notation DE / EN), fr by PSEUDO; pt-br had two, the last one MT_PROVIDER_B PT-BR.
    const previous = [
      {
        translationProvider: 'MT_PROVIDER_B',
        targetProjectLanguage: 'de',
        targetLanguage: 'DE',
        sourceProjectLanguage: 'en',
        sourceLanguage: 'EN',
        options: ['USE_TRANSLATION_KEYS'],
      },
      { translationProvider: 'PSEUDO', targetProjectLanguage: 'fr', targetLanguage: 'fr', sourceProjectLanguage: 'en' },
      {
        translationProvider: 'PSEUDO',
        targetProjectLanguage: 'pt-br',
        targetLanguage: 'pt',
        sourceProjectLanguage: 'en',
      },
      {
        translationProvider: 'MT_PROVIDER_B',
        targetProjectLanguage: 'pt-br',
        targetLanguage: 'PT-BR',
        sourceProjectLanguage: 'en',
        options: ['FORCE_REPLACE'],
      },
    ];
    for (const body of previous) {
      const res = await v1Start(body);
      expect(res.statusCode).toBe(200);
      expect((await waitForJob(envelope(res).data.jobId)).state).toBe('SUCCESS');
    }
    const jobsBefore = envelope(await service.request({ url: '/api/v2/jobs', headers: cli() })).data.length;
    expect(
      envelope(await service.request({ url: '/api/v2/jobs?status=SUCCESS&type=AUTO_TRANSLATION', headers: cli() }))
        .data,
    ).toHaveLength(4);
    // New source text, so the repeated jobs have something to do.
    await seedTranslations(service.db, { projectToken, translations: { en: { welcome: 'Welcome' } } });

    // A slow provider keeps the DeepL jobs running while the client polls.
    deepl.setDelay(400);
    const res = await clientStart([], ['FORCE_REPLACE']);
    expect(res.statusCode).toBe(200);
    const started: any[] = envelope(res).data;
    // Every language except en, the source of those last jobs.
    expect(started).toHaveLength(3);
    expect(started.every((j) => j.state === 'STARTED')).toBe(true);

    const running = envelope(await poll()).data;
    expect(running.length).toBeGreaterThan(0);
    const { seen } = await pollUntilIdle();
    for (const id of seen) expect(started.map((j) => j.jobId)).toContain(id);

    const finished = await Promise.all(started.map((j) => waitForJob(j.jobId)));
    expect(finished.every((j) => j.state === 'SUCCESS')).toBe(true);
    const byLanguage = Object.fromEntries(finished.map((j) => [j.metadata.targetProjectLanguage, j.metadata]));
    expect(byLanguage.de).toEqual({
      targetProjectLanguage: 'de',
      targetLanguage: 'DE',
      sourceType: 'TRANSLATIONS_OR_KEYS',
      options: 'FORCE_REPLACE,USE_TRANSLATION_KEYS',
      translationProvider: 'MT_PROVIDER_B',
      sourceProjectLanguage: 'en',
      sourceLanguage: 'EN',
    });
    expect(byLanguage.fr).toMatchObject({
      translationProvider: 'PSEUDO',
      targetLanguage: 'fr',
      sourceProjectLanguage: 'en',
      options: 'FORCE_REPLACE',
    });
    // The last pt-br job counts, not the earlier one; its FORCE_REPLACE came from the client this time.
    expect(byLanguage['pt-br']).toMatchObject({
      translationProvider: 'MT_PROVIDER_B',
      targetLanguage: 'PT-BR',
      sourceLanguage: '',
      options: 'FORCE_REPLACE',
    });

    // What the provider was asked: DeepL's own notation.
    const targets = deepl.requests.filter((r) => r.path === '/v2/translate').map((r) => (r.body as any).target_lang);
    expect(new Set(targets)).toEqual(new Set(['DE', 'PT-BR']));
    const texts = await readTranslations(service.db, projectToken);
    expect(texts.de!.welcome).toBe('[DE] Welcome');
    expect(texts['pt-br']!.welcome).toBe('[PT-BR] Welcome');
    expect(texts.fr!.welcome).toBe(pseudoLocalize('Welcome'));

    // After the poll: nothing RUNNING, the finished jobs listed under SUCCESS.
    expect(envelope(await poll()).data).toEqual([]);
    const success = envelope(
      await service.request({ url: '/api/v2/jobs?status=SUCCESS&type=AUTO_TRANSLATION', headers: cli() }),
    ).data;
    expect(success).toHaveLength(jobsBefore + 3);
  });

  it('a list of languages starts only those; without --force no FORCE_REPLACE', async () => {
    const res = await clientStart(['fr']);
    expect(res.statusCode).toBe(200);
    const [job] = envelope(res).data;
    expect(envelope(res).data).toHaveLength(1);
    const done = await waitForJob(job.jobId);
    expect(done.metadata).toMatchObject({ targetProjectLanguage: 'fr', translationProvider: 'PSEUDO', options: '' });
  });

  it("another project's key sees none of these jobs; its only language is the source", async () => {
    expect(envelope(await poll(other.apiKey)).data).toEqual([]);
    expect(envelope(await service.request({ url: '/api/v2/jobs', headers: cli(other.apiKey) })).data).toEqual([]);
    const res = await clientStart([], [], other.apiKey);
    expect(res.statusCode).toBe(400);
    expect(envelope(res).msg).toBe(
      'No language to auto-translate: the project has no language besides its source language',
    );
  });

  it('the targets body of v2 keeps working', async () => {
    const res = await service.request({
      method: 'POST',
      url: '/api/v2/jobs/auto-translate',
      headers: cli(),
      payload: {
        translationProvider: 'PSEUDO',
        sourceProjectLanguage: 'en',
        targets: [{ targetProjectLanguage: 'de', targetLanguage: 'de' }],
      },
    });
    expect(res.statusCode).toBe(200);
    const [job] = envelope(res).data;
    expect((await waitForJob(job.jobId)).metadata).toMatchObject({
      translationProvider: 'PSEUDO',
      targetProjectLanguage: 'de',
    });
  });
});

describe('GraphQL', () => {
  const gql = async (query: string, variables: Record<string, unknown> = {}) =>
    (
      await service.request({
        method: 'POST',
        url: '/graphql',
        headers: { ...cli(), 'content-type': 'application/json' },
        payload: { query, variables },
      })
    ).json();

  it('jobs takes the same status and type filters; a job shows its type', async () => {
    const all = (await gql('{ jobs { jobId type state } }')).data.jobs;
    const success = (await gql('{ jobs(status: [SUCCESS], type: [AUTO_TRANSLATION]) { jobId } }')).data.jobs;
    expect(success.length).toBe(all.filter((j: any) => j.state === 'SUCCESS').length);
    expect(all.every((j: any) => j.type === 'AUTO_TRANSLATION')).toBe(true);
    expect((await gql('{ jobs(status: [RUNNING, FAILED]) { jobId } }')).data.jobs).toEqual([]);
    expect((await gql('{ jobs(status: [PENDING]) { jobId } }')).errors[0].message).toMatch(/PENDING/);
  });

  it('autoTranslate takes bySettings, or input, never both', async () => {
    const like = await gql('mutation { autoTranslate(bySettings: { languageKeys: ["de"] }) { jobId state } }');
    expect(like.data.autoTranslate).toHaveLength(1);
    await waitForJob(like.data.autoTranslate[0].jobId);
    const both = await gql(`mutation { autoTranslate(
      input: { translationProvider: PSEUDO, targets: [{ targetProjectLanguage: "de", targetLanguage: "de" }] },
      bySettings: { languageKeys: ["de"] }) { jobId } }`);
    expect(both.errors[0]).toMatchObject({
      message: 'Give exactly one of input and bySettings',
      extensions: { code: 'BAD_REQUEST' },
    });
    const neither = await gql('mutation { autoTranslate { jobId } }');
    expect(neither.errors[0].message).toBe('Give exactly one of input and bySettings');
  });
});
