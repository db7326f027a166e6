// Translation memory over GraphQL: suggestions from the project's own texts,
// kept current by the write gate (no rebuild), scored with substitutions and
// their origin; and who sees whose texts — the account's other projects, a
// project API key only its own project and the memories shared with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../src/generated/prisma/client.js';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';

let service: TestService;
let owner: TestAccount;
beforeAll(async () => {
  service = await startTestService();
  owner = await service.account();
});
afterAll(() => service.close());

const SUGGEST = `query($projectToken: String, $sourceText: String, $key: String, $targetLanguage: String!, $minScore: Int) {
  memorySuggestions(projectToken: $projectToken, sourceText: $sourceText, key: $key, targetLanguage: $targetLanguage, minScore: $minScore) {
    sourceLanguage sourceText
    suggestions { score exact text source target substituted sameKey substitutions { kind from to }
      origin { kind projectName key namespace language memoryName lastEditedAt lastEditedBy reviewed } }
  }
}`;

const LIMITED = `query($projectToken: String, $key: String, $targetLanguage: String!, $limit: Int) {
  memorySuggestions(projectToken: $projectToken, key: $key, targetLanguage: $targetLanguage, limit: $limit) {
    suggestions { score sameKey origin { key reviewed } }
  }
}`;

async function gqlAs(authorization: Record<string, string>, query: string, variables: Record<string, unknown> = {}) {
  const res = await service.request({
    method: 'POST',
    url: '/graphql',
    headers: { ...authorization, 'content-type': 'application/json' },
    payload: { query, variables },
  });
  return res.json() as { data?: any; errors?: any[] };
}

async function write(api: ProjectApi, content: { key: string; language: string; text: string }[]) {
  expect((await api.post('/api/v1/translations', { content })).status).toBe(200);
}

async function suggestionsWithKey(apiKey: string, variables: Record<string, unknown>) {
  const out = await gqlAs({ 'x-service-token': apiKey }, SUGGEST, variables);
  expect(out.errors).toBeUndefined();
  return out.data.memorySuggestions.suggestions as any[];
}

describe('translation memory suggestions', () => {
  let a: ProjectApi;
  beforeAll(async () => {
    a = await projectApi(service, owner, 'Memory A');
    await a.post('/api/v1/languages', { key: 'de' });
    await write(a, [
      { key: 'files.delete', language: 'en', text: 'Delete 3 files from {dir}?' },
      { key: 'files.delete', language: 'de', text: '{dir}: 3 Dateien löschen?' },
      { key: 'save', language: 'en', text: 'Save changes' },
      { key: 'save', language: 'de', text: 'Änderungen speichern' },
      { key: 'save.all', language: 'en', text: 'Save all changes' },
      { key: 'save.all', language: 'de', text: 'Alle Änderungen speichern' },
      { key: 'untranslated', language: 'en', text: 'Save changes now' },
    ]);
  });

  it('finds the same text exactly, close texts with lower scores, and names the origin', async () => {
    const [first, second, ...rest] = await suggestionsWithKey(a.apiKey, {
      sourceText: 'Save changes',
      targetLanguage: 'de',
    });
    expect(first).toMatchObject({ score: 100, exact: true, text: 'Änderungen speichern', substituted: false });
    expect(first.origin).toMatchObject({
      kind: 'PROJECT',
      projectName: 'Memory A',
      key: 'save',
      namespace: '',
      language: 'de',
      reviewed: false,
      lastEditedBy: 'API key',
    });
    expect(new Date(first.origin.lastEditedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(second).toMatchObject({
      score: 75,
      exact: false,
      text: 'Alle Änderungen speichern',
      source: 'Save all changes',
    });
    // A key without a German text is no suggestion.
    expect(rest.map((s) => s.source)).not.toContain('Save changes now');
  });

  it('scores a text differing only in a number and a placeholder 100 %, with both substituted', async () => {
    const [match] = await suggestionsWithKey(a.apiKey, {
      sourceText: 'Delete 12 files from {folder}?',
      targetLanguage: 'de',
    });
    expect(match).toMatchObject({
      score: 100,
      exact: false,
      substituted: true,
      text: '{folder}: 12 Dateien löschen?',
      target: '{dir}: 3 Dateien löschen?',
      substitutions: [
        { kind: 'placeholder', from: '{dir}', to: '{folder}' },
        { kind: 'number', from: '3', to: '12' },
      ],
    });
  });

  it('follows every write through the write gate: a changed text is found at once, a removed one no longer', async () => {
    await write(a, [
      { key: 'greeting', language: 'en', text: 'Good morning, {name}' },
      { key: 'greeting', language: 'de', text: 'Guten Morgen, {name}' },
    ]);
    expect(
      (await suggestionsWithKey(a.apiKey, { sourceText: 'Good morning, {name}', targetLanguage: 'de' }))[0],
    ).toMatchObject({ exact: true, text: 'Guten Morgen, {name}' });
    expect(
      (await a.patch('/api/v2/translations', { key: 'greeting', language: 'de', text: 'Moin, {name}' })).status,
    ).toBe(200);
    expect(
      (await suggestionsWithKey(a.apiKey, { sourceText: 'Good morning, {name}', targetLanguage: 'de' }))[0],
    ).toMatchObject({ text: 'Moin, {name}' });
    // Another source text: the old one no longer matches exactly, the new one does.
    expect(
      (await a.patch('/api/v2/translations', { key: 'greeting', language: 'en', text: 'Hello there, {name}' })).status,
    ).toBe(200);
    const old = await suggestionsWithKey(a.apiKey, {
      sourceText: 'Good morning, {name}',
      targetLanguage: 'de',
      minScore: 90,
    });
    expect(old).toEqual([]);
    expect(
      (await suggestionsWithKey(a.apiKey, { sourceText: 'Hello there, {user}', targetLanguage: 'de' }))[0],
    ).toMatchObject({ score: 100, text: 'Moin, {user}' });
    expect((await a.delete('/api/v1/translation-keys?key=greeting')).status).toBe(200);
    expect(
      await suggestionsWithKey(a.apiKey, { sourceText: 'Hello there, {user}', targetLanguage: 'de', minScore: 90 }),
    ).toEqual([]);
  });

  it('asked for a key, matches its default-language text, leaves out its own cell and ranks the same key first', async () => {
    const b = await projectApi(service, owner, 'Memory A2');
    await b.post('/api/v1/languages', { key: 'de' });
    await write(b, [
      { key: 'save', language: 'en', text: 'Save changes' },
      { key: 'save', language: 'de', text: 'Speichern' },
      { key: 'other', language: 'en', text: 'Save changes' },
      { key: 'other', language: 'de', text: 'Sichern' },
    ]);
    const out = await gqlAs({ authorization: owner.token }, SUGGEST, {
      projectToken: b.projectToken,
      key: 'save',
      targetLanguage: 'de',
    });
    expect(out.errors).toBeUndefined();
    expect(out.data.memorySuggestions.sourceText).toBe('Save changes');
    const list = out.data.memorySuggestions.suggestions;
    // Exact matches: the key named 'save' in project A first (same key), then 'other' of this project; never its own cell.
    expect(list.slice(0, 2).map((s: any) => [s.origin.projectName, s.origin.key, s.text])).toEqual([
      ['Memory A', 'save', 'Änderungen speichern'],
      ['Memory A2', 'other', 'Sichern'],
    ]);
    expect(list.map((s: any) => s.text)).not.toContain('Speichern');
  });

  it('of more matches of one score than the limit, gives those ranked first: the same key, reviewed, most recent', async () => {
    // 31 stored texts one letter from the query, so all score the same (the lookup reads only the first `limit`
    // targets of such a score, ranked in SQL as rank() ranks them).
    const t = await projectApi(service, owner, 'Memory ties');
    await t.post('/api/v1/languages', { key: 'de' });
    const ties = Array.from({ length: 30 }, (_, i) => `tie.${String(i).padStart(2, '0')}`);
    await write(t, [
      ...ties.flatMap((key, i) => [
        { key, language: 'en', text: 'Close the window' },
        { key, language: 'de', text: `Fenster schließen ${i}` },
      ]),
      { key: 'pick', language: 'en', text: 'Close the window' },
      { key: 'pick', language: 'de', text: 'Gewählt' },
    ]);
    for (const key of ['tie.07', 'tie.19', 'tie.23'])
      expect((await t.patch('/api/v2/translations', { key, language: 'de', reviewStatus: 'REVIEWED' })).status).toBe(
        200,
      );
    expect(
      (await t.patch('/api/v2/translations', { key: 'tie.11', language: 'de', text: 'Fenster schließen, neu' })).status,
    ).toBe(200);
    // Asked for a key named 'pick' of another project of the account, whose text is the query.
    const u = await projectApi(service, owner, 'Memory ties 2');
    await u.post('/api/v1/languages', { key: 'de' });
    await write(u, [{ key: 'pick', language: 'en', text: 'Close the windows' }]);
    const ask = async (limit: number) => {
      const out = await gqlAs({ authorization: owner.token }, LIMITED, {
        projectToken: u.projectToken,
        key: 'pick',
        targetLanguage: 'de',
        limit,
      });
      expect(out.errors).toBeUndefined();
      return out.data.memorySuggestions.suggestions as { score: number; sameKey: boolean; origin: any }[];
    };
    const five = await ask(5);
    expect(new Set(five.map((s) => s.score))).toEqual(new Set([94]));
    expect(five.map((s) => [s.origin.key, s.sameKey])[0]).toEqual(['pick', true]);
    expect(
      five
        .slice(1, 4)
        .map((s) => [s.origin.key, s.origin.reviewed])
        .sort(),
    ).toEqual([
      ['tie.07', true],
      ['tie.19', true],
      ['tie.23', true],
    ]);
    expect(five[4]!.origin.key).toBe('tie.11');
    // Every limit gives the first of the longer list.
    const keysOf = (list: { origin: any }[]) => list.map((s) => s.origin.key);
    expect(keysOf(await ask(1))).toEqual(keysOf(five).slice(0, 1));
    expect(new Set(keysOf(await ask(4)))).toEqual(new Set(keysOf(five).slice(0, 4)));
    expect(await ask(40)).toHaveLength(31);
    // A text changed after its candidate was read (here behind the memory's back: PGlite's in-process index keeps the
    // old text) does not score what the first rows of its score stand for: all of them are read, and the limit is
    // still filled with the best of the rest.
    await service.db.prisma.$executeRaw(Prisma.sql`
      UPDATE "Translation" s SET text = 'Open a new tab' FROM "TranslationKey" k, "Language" l, "Project" p
       WHERE k.id = s."keyId" AND l.id = s."languageId" AND p.id = k."projectId"
         AND p.name = 'Memory ties' AND k.key = 'tie.07' AND l.key = 'en'`);
    const four = await ask(4);
    expect(four.map((s) => s.score)).toEqual([94, 94, 94, 94]);
    expect(keysOf(four).sort()).toEqual(['pick', 'tie.11', 'tie.19', 'tie.23']);
  });

  it('answers over REST beside the contract, in the envelope', async () => {
    const res = await a.get(
      `/api/v2/translation-memory/suggestions?targetLanguage=de&text=${encodeURIComponent('Delete 7 files from {x}?')}&limit=1`,
    );
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ sourceLanguage: 'en', sourceText: 'Delete 7 files from {x}?' });
    expect(res.data.suggestions).toEqual([
      expect.objectContaining({ score: 100, text: '{x}: 7 Dateien löschen?', substituted: true }),
    ]);
    expect(res.data.suggestions[0].origin).toMatchObject({ kind: 'PROJECT', key: 'files.delete', language: 'de' });
    const byKey = await a.get('/api/v2/translation-memory/suggestions?targetLanguage=de&key=save');
    expect(byKey.data.sourceText).toBe('Save changes');
    expect((await a.get('/api/v2/translation-memory/suggestions?text=x')).status).toBe(400);
    expect((await a.get('/api/v2/translation-memory/suggestions?targetLanguage=de&text=x&limit=99')).status).toBe(400);
    expect((await a.get('/api/v2/translation-memory/suggestions?targetLanguage=xx&text=x')).status).toBe(404);
  });

  it('refuses bad input with a 4xx-coded error', async () => {
    const none = await gqlAs({ 'x-service-token': a.apiKey }, SUGGEST, { targetLanguage: 'de' });
    expect(none.errors?.[0].extensions.code).toBe('BAD_REQUEST');
    const unknown = await gqlAs({ 'x-service-token': a.apiKey }, SUGGEST, { sourceText: 'x', targetLanguage: 'fr' });
    expect(unknown.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });
});

describe('who sees whose memory', () => {
  let x: ProjectApi;
  let y: ProjectApi;
  let stranger: TestAccount;
  let strangers: ProjectApi;
  beforeAll(async () => {
    x = await projectApi(service, owner, 'Vis X');
    y = await projectApi(service, owner, 'Vis Y');
    stranger = await service.account();
    strangers = await projectApi(service, stranger, 'Vis Z');
    for (const api of [x, y, strangers]) await api.post('/api/v1/languages', { key: 'fr' });
    await write(x, [
      { key: 'k', language: 'en', text: 'Secret launch plan' },
      { key: 'k', language: 'fr', text: 'Plan de lancement secret' },
    ]);
  });
  const sources = (list: any[]) => list.map((s) => s.origin.projectName);

  it('an account sees the texts of every project it is a member of; another project’s API key does not', async () => {
    const asOwner = await gqlAs({ authorization: owner.token }, SUGGEST, {
      projectToken: y.projectToken,
      sourceText: 'Secret launch plan',
      targetLanguage: 'fr',
    });
    expect(sources(asOwner.data.memorySuggestions.suggestions)).toContain('Vis X');
    expect(
      sources(await suggestionsWithKey(y.apiKey, { sourceText: 'Secret launch plan', targetLanguage: 'fr' })),
    ).toEqual([]);
    expect(
      sources(await suggestionsWithKey(x.apiKey, { sourceText: 'Secret launch plan', targetLanguage: 'fr' })),
    ).toEqual(['Vis X']);
    const asStranger = await gqlAs({ authorization: stranger.token }, SUGGEST, {
      projectToken: strangers.projectToken,
      sourceText: 'Secret launch plan',
      targetLanguage: 'fr',
    });
    expect(sources(asStranger.data.memorySuggestions.suggestions)).toEqual([]);
    // Nor may the stranger ask in X's name.
    const intruding = await gqlAs({ authorization: stranger.token }, SUGGEST, {
      projectToken: x.projectToken,
      sourceText: 'Secret launch plan',
      targetLanguage: 'fr',
    });
    expect(intruding.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });

  it('a shared memory carries the texts of the projects that share into it to the projects that read it, and no further', async () => {
    const created = await gqlAs(
      { authorization: owner.token },
      'mutation { createSharedMemory(name: "Launch") { id name } }',
    );
    const memoryId = created.data.createSharedMemory.id;
    const link = (authorization: Record<string, string>, projectToken: string, shares: boolean, reads: boolean) =>
      gqlAs(
        authorization,
        'mutation($m: Int!, $p: String!, $s: Boolean!, $r: Boolean!) { setProjectMemoryLink(memoryId: $m, projectToken: $p, shares: $s, reads: $r) { projects { projectToken shares reads } } }',
        { m: memoryId, p: projectToken, s: shares, r: reads },
      );
    expect((await link({ authorization: owner.token }, x.projectToken, true, false)).errors).toBeUndefined();
    // Reading is not enough to share: y does not read yet, so its key sees nothing of x.
    expect(await suggestionsWithKey(y.apiKey, { sourceText: 'Secret launch plan', targetLanguage: 'fr' })).toEqual([]);
    expect((await link({ authorization: owner.token }, y.projectToken, false, true)).errors).toBeUndefined();
    expect(
      sources(await suggestionsWithKey(y.apiKey, { sourceText: 'Secret launch plan', targetLanguage: 'fr' })),
    ).toEqual(['Vis X']);
    // The stranger cannot attach its project to a memory it does not own, nor an API key link anything.
    expect(
      (await link({ authorization: stranger.token }, strangers.projectToken, false, true)).errors?.[0].extensions.code,
    ).toBe('NOT_FOUND');
    expect((await link({ 'x-service-token': y.apiKey }, y.projectToken, false, true)).errors?.[0].extensions.code).toBe(
      'FORBIDDEN',
    );
    expect(
      await suggestionsWithKey(strangers.apiKey, { sourceText: 'Secret launch plan', targetLanguage: 'fr' }),
    ).toEqual([]);
    // Sharing stopped: y's key loses x's texts.
    expect((await link({ authorization: owner.token }, x.projectToken, false, false)).errors).toBeUndefined();
    expect(await suggestionsWithKey(y.apiKey, { sourceText: 'Secret launch plan', targetLanguage: 'fr' })).toEqual([]);
  });
});
