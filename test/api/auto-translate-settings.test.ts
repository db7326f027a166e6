// Auto-translation settings per target language (docs/jobs.md): the vendor
// command-line client's `{languageKeys, source, options}` on projects that never
// had a job, with the instance's provider and codes made from the language
// keys; a language the provider cannot serve skipped and reported as a FAILED
// job; settings saved through GraphQL changing what the provider servers (real
// HTTP fakes of DeepL and Google on loopback) are asked; a language's last
// job as the initial values; settings going with their language.
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
import { projectIdOf, readTranslations, seedTranslations } from '../support/content.js';
import { pseudoLocalize } from '../../src/mt/index.js';

let deepl: FakeDeepl;
let google: FakeGoogle;
let service: TestService;

interface Project {
  apiKey: string;
  projectToken: string;
}

const cli = (p: Project) => ({
  'X-SIMPLELOCALIZE-token': p.apiKey,
  'X-SimpleLocalize-Cli-Version': '2.11.0',
  'content-type': 'application/json; charset=utf-8',
});
/** What the client sends for `auto-translate [--languageKeys …] [--force]`. */
const clientStart = (p: Project, languageKeys: string[], options: string[] = []) =>
  service.request({
    method: 'POST',
    url: '/api/v2/jobs/auto-translate',
    headers: cli(p),
    payload: JSON.stringify({ languageKeys, source: 'CLI', options }),
  });
const gql = async (p: Project, query: string, variables: Record<string, unknown> = {}) =>
  (await service.request({ method: 'POST', url: '/graphql', headers: cli(p), payload: { query, variables } })).json();
const SETTINGS =
  '{ autoTranslationSettings { languageKey origin translationProvider sourceProjectLanguage sourceLanguage targetLanguage providerFormality providerGlossaryId options isSource problem } }';
const SAVE = `mutation($languageKey: String!, $settings: AutoTranslationSettingsInput!) {
  setAutoTranslationSettings(languageKey: $languageKey, settings: $settings) { languageKey origin translationProvider targetLanguage sourceLanguage providerFormality problem } }`;

async function waitForJob(p: Project, jobId: string): Promise<any> {
  for (let i = 0; i < 600; i++) {
    const job = envelope(await service.request({ url: `/api/v1/jobs/${jobId}`, headers: cli(p) })).data;
    if (job.state !== 'STARTED') return job;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`job ${jobId} did not finish`);
}

/** The client's poll until nothing runs. */
async function pollUntilIdle(p: Project): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const res = await service.request({ url: '/api/v2/jobs?status=RUNNING&type=AUTO_TRANSLATION', headers: cli(p) });
    expect(res.statusCode).toBe(200);
    if (envelope(res).data.length === 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the client would wait forever');
}

/** A new project with these languages (the first is the default) and a text or two in the first. */
async function freshProject(name: string, languages: string[]): Promise<Project> {
  const project = await (await service.account()).project(name);
  const [source, ...others] = languages;
  await seedTranslations(service.db, {
    projectToken: project.projectToken,
    translations: {
      [source!]: { greeting: 'Hello', farewell: 'Goodbye' },
      ...Object.fromEntries(others.map((l) => [l, { greeting: '' }])),
    },
  });
  return project;
}

beforeAll(async () => {
  deepl = await startFakeDeepl();
  google = await startFakeGoogle();
  process.env.MT_PROVIDER_B_URL = deepl.url;
  process.env.MT_PROVIDER_B_API_KEY = FAKE_DEEPL_KEY;
  process.env.MT_PROVIDER_A_URL = google.url;
  process.env.MT_PROVIDER_A_API_KEY = FAKE_GOOGLE_KEY;
  service = await startTestService();
});
afterAll(async () => {
  await service.close();
  await deepl.close();
  await google.close();
  for (const name of ['MT_PROVIDER_B_URL', 'MT_PROVIDER_B_API_KEY', 'MT_PROVIDER_A_URL', 'MT_PROVIDER_A_API_KEY'])
    delete process.env[name];
});
beforeEach(() => {
  deepl.reset();
  google.reset();
});

describe('a project that never had a job', () => {
  it("one language: the instance's provider (DeepL, whose key is set) with codes made from the keys", async () => {
    const p = await freshProject('fresh one', ['en', 'de', 'pt-br']);
    const res = await clientStart(p, ['de']);
    expect(res.statusCode).toBe(200);
    const jobs = envelope(res).data;
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ state: 'STARTED', message: 'OK', metadata: {} });
    const done = await waitForJob(p, jobs[0].jobId);
    expect(done).toMatchObject({
      state: 'SUCCESS',
      metadata: {
        translationProvider: 'MT_PROVIDER_B',
        targetProjectLanguage: 'de',
        targetLanguage: 'DE',
        sourceProjectLanguage: 'en',
        sourceLanguage: 'EN',
        options: '',
      },
    });
    expect(deepl.translateCalls().map((c) => [c.target_lang, c.source_lang])).toEqual([['DE', 'EN']]);
    expect((await readTranslations(service.db, p.projectToken)).de).toEqual({
      greeting: '[DE] Hello',
      farewell: '[DE] Goodbye',
    });
  });

  it('all languages (empty languageKeys) and --force: every language but the source; one DeepL cannot serve is skipped and reported', async () => {
    const p = await freshProject('fresh all', ['en', 'de', 'pt-br', 'zh-tw', 'tlh']);
    await seedTranslations(service.db, {
      projectToken: p.projectToken,
      translations: { de: { greeting: 'Hallo (by hand)' } },
    });
    const res = await clientStart(p, [], ['FORCE_REPLACE']);
    expect(res.statusCode).toBe(200);
    const jobs: any[] = envelope(res).data;
    // Started first, then the skipped language's report; never the source language en.
    expect(jobs.map((j) => j.state)).toEqual(['STARTED', 'STARTED', 'STARTED', 'FAILED']);
    const skipped = jobs[3];
    expect(skipped.message).toBe(
      "Skipped: MT_PROVIDER_B cannot translate into 'tlh': it has no language code for it; set the provider's code or another provider in the language's auto-translation settings",
    );
    expect(skipped.metadata).toMatchObject({
      targetProjectLanguage: 'tlh',
      translationProvider: 'MT_PROVIDER_B',
      targetLanguage: '',
    });
    await pollUntilIdle(p);
    const done = await Promise.all(jobs.slice(0, 3).map((j) => waitForJob(p, j.jobId)));
    expect(
      done.map((j) => [j.state, j.metadata.targetProjectLanguage, j.metadata.targetLanguage, j.metadata.options]),
    ).toEqual([
      ['SUCCESS', 'de', 'DE', 'FORCE_REPLACE'],
      ['SUCCESS', 'pt-br', 'PT-BR', 'FORCE_REPLACE'],
      ['SUCCESS', 'zh-tw', 'ZH-HANT', 'FORCE_REPLACE'],
    ]);
    expect(new Set(deepl.translateCalls().map((c) => c.target_lang))).toEqual(new Set(['DE', 'PT-BR', 'ZH-HANT']));
    const texts = await readTranslations(service.db, p.projectToken);
    expect(texts.de!.greeting).toBe('[DE] Hello');
    expect(texts.tlh ?? {}).toEqual({});
    // The report stays in the job list, under FAILED.
    const failed = envelope(await service.request({ url: '/api/v2/jobs?status=FAILED', headers: cli(p) })).data;
    expect(failed.map((j: any) => j.jobId)).toEqual([skipped.jobId]);
    // A skipped language never becomes "the last job" of anything.
    const settings = (await gql(p, SETTINGS)).data.autoTranslationSettings;
    expect(settings.find((s: any) => s.languageKey === 'tlh')).toMatchObject({
      origin: 'DEFAULT',
      targetLanguage: null,
      problem: expect.stringMatching(/cannot translate into 'tlh'/),
    });
    expect(settings.find((s: any) => s.languageKey === 'en')).toMatchObject({
      isSource: true,
      problem: "'en' is the source language",
    });
  });

  it('only languages the provider cannot serve: 400 saying why, no job', async () => {
    const p = await freshProject('fresh none', ['en', 'tlh']);
    for (const keys of [['tlh'], []]) {
      const res = await clientStart(p, keys);
      expect(res.statusCode).toBe(400);
      expect(envelope(res).msg).toBe(
        "No language can be auto-translated: MT_PROVIDER_B cannot translate into 'tlh': it has no language code for it; set the provider's code or another provider in the language's auto-translation settings",
      );
    }
    expect(envelope(await service.request({ url: '/api/v2/jobs', headers: cli(p) })).data).toEqual([]);
  });

  it('a project with only its source language: 400; an unknown language: 404', async () => {
    const p = await (await service.account()).project('only en');
    const all = await clientStart(p, []);
    expect(all.statusCode).toBe(400);
    expect(envelope(all).msg).toBe(
      'No language to auto-translate: the project has no language besides its source language',
    );
    const unknown = await clientStart(p, ['xx']);
    expect(unknown.statusCode).toBe(404);
    expect(envelope(unknown).msg).toBe("languageKeys: 'xx' is not a language of this project");
  });

  it('no provider configured for the instance: a language without settings is skipped; one with settings runs', async () => {
    const saved = { B: process.env.MT_PROVIDER_B_API_KEY, A: process.env.MT_PROVIDER_A_API_KEY };
    delete process.env.MT_PROVIDER_B_API_KEY;
    delete process.env.MT_PROVIDER_A_API_KEY;
    try {
      const p = await freshProject('no provider', ['en', 'de', 'fr']);
      const none = await clientStart(p, ['de']);
      expect(none.statusCode).toBe(400);
      expect(envelope(none).msg).toMatch(
        /^No language can be auto-translated: No translation provider for 'de': none is set in its auto-translation settings and the instance has none configured \(MT_DEFAULT_PROVIDER/,
      );
      expect(
        (await gql(p, SAVE, { languageKey: 'fr', settings: { translationProvider: 'PSEUDO' } })).data
          .setAutoTranslationSettings,
      ).toMatchObject({ origin: 'SAVED', translationProvider: 'PSEUDO', targetLanguage: 'fr', problem: null });
      const res = await clientStart(p, []);
      expect(res.statusCode).toBe(200);
      const [fr, de] = envelope(res).data;
      expect(de).toMatchObject({ state: 'FAILED', metadata: { targetProjectLanguage: 'de', translationProvider: '' } });
      expect((await waitForJob(p, fr.jobId)).state).toBe('SUCCESS');
      expect((await readTranslations(service.db, p.projectToken)).fr!.greeting).toBe(pseudoLocalize('Hello'));
      const jobs = (await gql(p, '{ jobs { targetProjectLanguage translationProvider state } }')).data.jobs;
      expect(jobs).toContainEqual({ targetProjectLanguage: 'de', translationProvider: null, state: 'FAILED' });

      // MT_DEFAULT_PROVIDER names the instance's provider.
      process.env.MT_DEFAULT_PROVIDER = 'PSEUDO';
      const settings = (await gql(p, SETTINGS)).data.autoTranslationSettings;
      expect(settings.find((s: any) => s.languageKey === 'de')).toMatchObject({
        origin: 'DEFAULT',
        translationProvider: 'PSEUDO',
        targetLanguage: 'de',
        problem: null,
      });
    } finally {
      delete process.env.MT_DEFAULT_PROVIDER;
      process.env.MT_PROVIDER_B_API_KEY = saved.B;
      process.env.MT_PROVIDER_A_API_KEY = saved.A;
    }
  });
});

describe('settings through GraphQL', () => {
  it('change the provider, the codes and the formality the provider servers are asked for', async () => {
    const p = await freshProject('settings', ['en', 'de', 'pt-br', 'fr']);
    expect(
      (
        await gql(p, SAVE, {
          languageKey: 'de',
          settings: { translationProvider: 'MT_PROVIDER_B', targetLanguage: 'DE', providerFormality: 'less' },
        })
      ).data.setAutoTranslationSettings,
    ).toEqual({
      languageKey: 'de',
      origin: 'SAVED',
      translationProvider: 'MT_PROVIDER_B',
      targetLanguage: 'DE',
      sourceLanguage: 'EN',
      providerFormality: 'less',
      problem: null,
    });
    await gql(p, SAVE, {
      languageKey: 'pt-br',
      settings: { translationProvider: 'MT_PROVIDER_A', targetLanguage: 'pt-PT', sourceLanguage: 'en' },
    });
    // fr translated from de, which makes de a source language: "every language" leaves it out.
    await gql(p, SAVE, {
      languageKey: 'fr',
      settings: { sourceProjectLanguage: 'de', options: ['USE_TRANSLATION_KEYS'] },
    });
    const settings = (await gql(p, SETTINGS)).data.autoTranslationSettings;
    expect(
      settings.map((s: any) => [
        s.languageKey,
        s.origin,
        s.translationProvider,
        s.sourceProjectLanguage,
        s.sourceLanguage,
        s.targetLanguage,
        s.isSource,
      ]),
    ).toEqual([
      ['en', 'DEFAULT', 'MT_PROVIDER_B', 'en', 'EN', 'EN-US', true],
      ['de', 'SAVED', 'MT_PROVIDER_B', 'en', 'EN', 'DE', true],
      ['pt-br', 'SAVED', 'MT_PROVIDER_A', 'en', 'en', 'pt-PT', false],
      ['fr', 'SAVED', 'MT_PROVIDER_B', 'de', 'DE', 'FR', false],
    ]);

    const res = await clientStart(p, []);
    expect(res.statusCode).toBe(200);
    const jobs = envelope(res).data;
    expect(jobs).toHaveLength(2);
    const done = await Promise.all(jobs.map((j: any) => waitForJob(p, j.jobId)));
    expect(
      done.map((j) => [
        j.state,
        j.metadata.targetProjectLanguage,
        j.metadata.translationProvider,
        j.metadata.targetLanguage,
        j.metadata.sourceType,
      ]),
    ).toEqual([
      ['SUCCESS', 'pt-br', 'MT_PROVIDER_A', 'pt-PT', 'TRANSLATIONS'],
      ['SUCCESS', 'fr', 'MT_PROVIDER_B', 'FR', 'TRANSLATIONS_OR_KEYS'],
    ]);
    expect(google.translateCalls().map((c) => [c.target, c.source])).toEqual([['pt-PT', 'en']]);
    // fr from de, whose texts are empty: the keys themselves (USE_TRANSLATION_KEYS).
    expect(deepl.translateCalls().map((c) => [c.target_lang, c.source_lang, [...c.text].sort()])).toEqual([
      ['FR', 'DE', ['farewell', 'greeting']],
    ]);

    const one = await clientStart(p, ['de'], ['FORCE_REPLACE']);
    expect((await waitForJob(p, envelope(one).data[0].jobId)).metadata).toMatchObject({
      targetLanguage: 'DE',
      options: 'FORCE_REPLACE',
    });
    expect(deepl.translateCalls().at(-1)).toMatchObject({ target_lang: 'DE', source_lang: 'EN', formality: 'less' });
  });

  it('refuses bad settings with a 400 naming the field; nothing saved', async () => {
    const p = await freshProject('bad settings', ['en', 'de']);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ translationProvider: 'MT_PROVIDER_B', targetLanguage: 'de-DE' }, /targetLanguage "de-DE"/],
      // No provider given: the instance's (DeepL here) checks the code.
      [{ targetLanguage: 'de' }, /targetLanguage "de"/],
      [{ translationProvider: 'MT_PROVIDER_A', sourceLanguage: 'EN' }, /sourceLanguage "EN"/],
      [
        { providerFormality: 'very' },
        /^providerFormality must be one of default, more, less, prefer_more, prefer_less$/,
      ],
      [{ sourceProjectLanguage: 'de' }, /^sourceProjectLanguage must differ from the language translated into$/],
      [{ targetLanguage: 'x'.repeat(101) }, /^targetLanguage must have at most 100 characters$/],
    ];
    for (const [settings, message] of cases) {
      const result = await gql(p, SAVE, { languageKey: 'de', settings });
      expect(result.errors[0].message).toMatch(message);
      expect(result.errors[0].extensions.code).toBe('BAD_REQUEST');
    }
    expect(
      (await gql(p, SAVE, { languageKey: 'en', settings: { sourceProjectLanguage: 'xx' } })).errors[0],
    ).toMatchObject({
      message: "sourceProjectLanguage 'xx' is not a language of this project",
      extensions: { code: 'NOT_FOUND' },
    });
    expect(
      (await gql(p, SAVE, { languageKey: 'de', settings: { options: ['FORCE_REPLACE'] } })).errors[0].message,
    ).toMatch(/^Variable "\$settings" at "settings\.options\[0\]" must be one of (?!.*FORCE_REPLACE)/);
    expect((await gql(p, SETTINGS)).data.autoTranslationSettings.map((s: any) => s.origin)).toEqual([
      'DEFAULT',
      'DEFAULT',
    ]);
  });

  it('a setting the provider refuses when the job starts (formality for a language without it) skips that language, saying why', async () => {
    const p = await freshProject('formality', ['en', 'de', 'fi']);
    await gql(p, SAVE, { languageKey: 'fi', settings: { providerFormality: 'more' } });
    const fi = (await gql(p, SETTINGS)).data.autoTranslationSettings.find((s: any) => s.languageKey === 'fi');
    expect(fi.problem).toMatch(
      /^MT_PROVIDER_B cannot translate into 'fi': providerFormality "more" is not available for targetLanguage "FI"/,
    );
    const jobs = envelope(await clientStart(p, [])).data;
    expect(jobs.map((j: any) => [j.state, j.message.slice(0, 60)])).toEqual([
      ['STARTED', 'OK'],
      ['FAILED', "Skipped: MT_PROVIDER_B cannot translate into 'fi': providerF"],
    ]);
    await waitForJob(p, jobs[0].jobId);
  });

  it("the last job's settings are the initial values; saved settings then win; reset goes back", async () => {
    const p = await freshProject('last job', ['en', 'de', 'fr']);
    const v1 = await service.request({
      method: 'POST',
      url: '/api/v1/jobs/auto-translate',
      headers: cli(p),
      payload: {
        translationProvider: 'MT_PROVIDER_B',
        targetProjectLanguage: 'de',
        targetLanguage: 'DE',
        sourceLanguage: 'EN',
        providerFormality: 'more',
        options: ['AUTO_PUBLISH', 'FORCE_REPLACE'],
      },
    });
    expect(v1.statusCode).toBe(200);
    await waitForJob(p, envelope(v1).data.jobId);
    const de = (await gql(p, SETTINGS)).data.autoTranslationSettings.find((s: any) => s.languageKey === 'de');
    expect(de).toEqual({
      languageKey: 'de',
      origin: 'LAST_JOB',
      translationProvider: 'MT_PROVIDER_B',
      sourceProjectLanguage: 'en',
      sourceLanguage: 'EN',
      targetLanguage: 'DE',
      providerFormality: 'more',
      providerGlossaryId: null,
      options: ['AUTO_PUBLISH'],
      isSource: false,
      problem: null,
    });
    deepl.reset();
    const again = envelope(await clientStart(p, ['de'])).data[0];
    expect((await waitForJob(p, again.jobId)).metadata).toMatchObject({
      translationProvider: 'MT_PROVIDER_B',
      targetLanguage: 'DE',
      options: 'AUTO_PUBLISH',
    });
    expect(deepl.translateCalls()).toEqual([]); // nothing left empty, no FORCE_REPLACE this time

    await gql(p, SAVE, { languageKey: 'de', settings: { translationProvider: 'PSEUDO' } });
    const pseudo = envelope(await clientStart(p, ['de'], ['FORCE_REPLACE'])).data[0];
    expect((await waitForJob(p, pseudo.jobId)).metadata).toMatchObject({
      translationProvider: 'PSEUDO',
      targetLanguage: 'de',
      options: 'FORCE_REPLACE',
    });
    // A job started with a spelled-out body does not change saved settings.
    const spelled = await service.request({
      method: 'POST',
      url: '/api/v1/jobs/auto-translate',
      headers: cli(p),
      payload: { translationProvider: 'MT_PROVIDER_B', targetProjectLanguage: 'de', targetLanguage: 'DE' },
    });
    await waitForJob(p, envelope(spelled).data.jobId);
    expect((await gql(p, SETTINGS)).data.autoTranslationSettings[1]).toMatchObject({
      origin: 'SAVED',
      translationProvider: 'PSEUDO',
    });

    const reset = await gql(
      p,
      'mutation { resetAutoTranslationSettings(languageKey: "de") { origin translationProvider targetLanguage providerFormality } }',
    );
    expect(reset.data.resetAutoTranslationSettings).toEqual({
      origin: 'LAST_JOB',
      translationProvider: 'MT_PROVIDER_B',
      targetLanguage: 'DE',
      providerFormality: null,
    });
  });

  it('a deleted language takes its settings; a deleted source language gives way to the default', async () => {
    const p = await freshProject('deleted', ['en', 'de', 'fr']);
    await gql(p, SAVE, { languageKey: 'fr', settings: { sourceProjectLanguage: 'de', translationProvider: 'PSEUDO' } });
    await gql(p, SAVE, { languageKey: 'de', settings: { translationProvider: 'PSEUDO' } });
    const projectId = await projectIdOf(service.db, p.projectToken);
    expect(await service.db.prisma.autoTranslationSetting.count({ where: { projectId } })).toBe(2);
    expect((await gql(p, 'mutation { deleteLanguage(key: "de") }')).data.deleteLanguage).toBe(true);
    expect(await service.db.prisma.autoTranslationSetting.count({ where: { projectId } })).toBe(1);
    expect(
      (await gql(p, SETTINGS)).data.autoTranslationSettings.find((s: any) => s.languageKey === 'fr'),
    ).toMatchObject({ origin: 'SAVED', sourceProjectLanguage: 'en', translationProvider: 'PSEUDO', problem: null });
  });

  it("another project's key neither reads nor writes these settings", async () => {
    const p = await freshProject('mine', ['en', 'de']);
    const other = await freshProject('theirs', ['en', 'fr']);
    await gql(p, SAVE, { languageKey: 'de', settings: { translationProvider: 'PSEUDO' } });
    expect((await gql(other, SETTINGS)).data.autoTranslationSettings.map((s: any) => s.languageKey)).toEqual([
      'en',
      'fr',
    ]);
    expect((await gql(other, SAVE, { languageKey: 'de', settings: {} })).errors[0].extensions.code).toBe('NOT_FOUND');
  });
});
