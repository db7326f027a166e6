// The glossary over GraphQL: terms of a project's glossary (create, list,
// search, update, delete, each change in the activity log), shared glossaries
// linked to projects, the terms found in a text; and who may do what — a
// viewer and a translator read but do not write, another project's API key
// and a non-member reach nothing, a shared glossary is changed by its owner only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';

let service: TestService;
let owner: TestAccount;
let viewer: TestAccount;
let translator: TestAccount;
let stranger: TestAccount;
let a: ProjectApi;
let b: ProjectApi;

async function gql(auth: Record<string, string>, query: string, variables: Record<string, unknown> = {}) {
  const res = await service.request({
    method: 'POST',
    url: '/graphql',
    headers: { ...auth, 'content-type': 'application/json' },
    payload: { query, variables },
  });
  return res.json() as { data?: any; errors?: any[] };
}
const as = (account: TestAccount) => ({ authorization: account.token });
const key = (api: ProjectApi) => ({ 'x-service-token': api.apiKey });
const code = (out: { errors?: any[] }) => out.errors?.[0]?.extensions?.code;

const TERM =
  'id glossaryId term description partOfSpeech forbidden doNotTranslate caseSensitive abbreviation translations { language text }';
const CREATE = `mutation($p: String, $g: Int, $input: GlossaryTermInput!) { createGlossaryTerm(projectToken: $p, glossaryId: $g, input: $input) { ${TERM} } }`;
const UPDATE = `mutation($p: String, $id: Int!, $input: GlossaryTermInput!) { updateGlossaryTerm(projectToken: $p, id: $id, input: $input) { ${TERM} } }`;
const DELETE = 'mutation($p: String, $id: Int!) { deleteGlossaryTerm(projectToken: $p, id: $id) }';
const LIST = `query($p: String, $g: Int, $s: String) { glossaryTerms(projectToken: $p, glossaryId: $g, search: $s) { glossaryId sourceLanguage total terms { ${TERM} } } }`;
const MATCHES =
  'query($p: String, $t: String!, $l: String!) { glossaryMatches(projectToken: $p, text: $t, targetLanguage: $l) { term translation start end text occurrences forbidden doNotTranslate } }';

const termCount = () => service.db.prisma.glossaryTerm.count();

beforeAll(async () => {
  service = await startTestService();
  owner = await service.account();
  [viewer, translator, stranger] = [await service.account(), await service.account(), await service.account()];
  a = await projectApi(service, owner, 'Glossary A');
  b = await projectApi(service, owner, 'Glossary B');
  await a.post('/api/v1/languages', { key: 'de' });
  const projectA = await service.db.prisma.project.findFirstOrThrow({ where: { projectToken: a.projectToken } });
  await service.db.prisma.projectMember.create({
    data: { projectId: projectA.id, accountId: viewer.id, role: 'VIEWER' },
  });
  await service.db.prisma.projectMember.create({
    data: { projectId: projectA.id, accountId: translator.id, role: 'TRANSLATOR' },
  });
});
afterAll(() => service.close());

describe('terms of a project glossary', () => {
  let fileId: number;
  it('creates terms with flags and translations, lists and searches them', async () => {
    const created = await gql(as(owner), CREATE, {
      p: a.projectToken,
      input: {
        term: ' file ',
        description: 'A document on disk',
        partOfSpeech: 'noun',
        translations: [{ language: 'de', text: 'Datei' }],
      },
    });
    expect(created.errors).toBeUndefined();
    expect(created.data.createGlossaryTerm).toMatchObject({
      term: 'file',
      description: 'A document on disk',
      partOfSpeech: 'noun',
      forbidden: false,
      translations: [{ language: 'de', text: 'Datei' }],
    });
    fileId = created.data.createGlossaryTerm.id;
    // The project's API key writes too (scripts), like the other project content.
    const byKey = await gql(key(a), CREATE, { input: { term: 'Acme', doNotTranslate: true, caseSensitive: true } });
    expect(byKey.errors).toBeUndefined();
    expect(
      (await gql(as(owner), CREATE, { p: a.projectToken, input: { term: 'kill', forbidden: true } })).errors,
    ).toBeUndefined();
    const list = (await gql(as(viewer), LIST, { p: a.projectToken })).data.glossaryTerms;
    expect(list).toMatchObject({ sourceLanguage: 'en', total: 3 });
    expect(list.terms.map((t: any) => t.term)).toEqual(['Acme', 'file', 'kill']);
    const searched = (await gql(key(a), LIST, { s: 'datei' })).data.glossaryTerms;
    expect(searched.terms.map((t: any) => t.term)).toEqual(['file']);
  });

  it('refuses a duplicate term (same part of speech), an empty one and contradictory flags with 4xx codes, writing nothing', async () => {
    const before = await termCount();
    expect(
      code(await gql(as(owner), CREATE, { p: a.projectToken, input: { term: 'file', partOfSpeech: 'noun' } })),
    ).toBe('CONFLICT');
    expect(code(await gql(as(owner), CREATE, { p: a.projectToken, input: { term: '   ' } }))).toBe('BAD_REQUEST');
    expect(
      code(
        await gql(as(owner), CREATE, {
          p: a.projectToken,
          input: { term: 'x', forbidden: true, doNotTranslate: true },
        }),
      ),
    ).toBe('BAD_REQUEST');
    expect(
      code(
        await gql(as(owner), CREATE, {
          p: a.projectToken,
          input: { term: 'x', translations: [{ language: 'not a key', text: 'y' }] },
        }),
      ),
    ).toBe('BAD_REQUEST');
    expect(await termCount()).toBe(before);
  });

  it('updates and deletes, each change in the activity log', async () => {
    const updated = await gql(as(owner), UPDATE, {
      p: a.projectToken,
      id: fileId,
      input: {
        term: 'file',
        description: 'Stored document',
        translations: [
          { language: 'de', text: 'Datei' },
          { language: 'fr', text: 'fichier' },
        ],
      },
    });
    expect(updated.errors).toBeUndefined();
    expect(updated.data.updateGlossaryTerm.translations).toEqual([
      { language: 'de', text: 'Datei' },
      { language: 'fr', text: 'fichier' },
    ]);
    const temp = (await gql(as(owner), CREATE, { p: a.projectToken, input: { term: 'temporary' } })).data
      .createGlossaryTerm.id;
    expect((await gql(as(owner), DELETE, { p: a.projectToken, id: temp })).data.deleteGlossaryTerm).toBe(true);
    const activity = (await a.get('/api/v2/activity?size=3')).data;
    expect(activity.map((e: any) => e.kind)).toEqual(['SETTINGS', 'SETTINGS', 'SETTINGS']);
    expect(JSON.stringify(activity)).toContain('temporary');
  });

  it('reverts a change of the glossary like any change: an edit, a deletion, a creation; a term changed since is kept', async () => {
    const REVERT =
      'mutation($p: String, $id: ID!) { revertChange(projectToken: $p, activityId: $id) { unit reverted changedSince } }';
    const lastChange = async () => (await a.get('/api/v2/activity?size=1')).data[0].id as string;
    const list = async () => (await gql(as(owner), LIST, { p: a.projectToken, s: 'undo' })).data.glossaryTerms.terms;

    const made = (
      await gql(as(owner), CREATE, {
        p: a.projectToken,
        input: { term: 'undo', description: 'first', translations: [{ language: 'de', text: 'rückgängig' }] },
      })
    ).data.createGlossaryTerm;
    const created = await lastChange();
    expect(
      (
        await gql(as(owner), UPDATE, {
          p: a.projectToken,
          id: made.id,
          input: { term: 'undo', description: 'second', translations: [{ language: 'fr', text: 'annuler' }] },
        })
      ).errors,
    ).toBeUndefined();
    const edited = await lastChange();
    // The edit goes back: description and translations as they were.
    expect((await gql(as(owner), REVERT, { p: a.projectToken, id: edited })).data.revertChange).toEqual({
      unit: 'GLOSSARY_TERMS',
      reverted: 1,
      changedSince: 0,
    });
    expect(await list()).toMatchObject([
      { id: made.id, description: 'first', translations: [{ language: 'de', text: 'rückgängig' }] },
    ]);
    // A deletion goes back with the term's id and translations.
    expect((await gql(as(owner), DELETE, { p: a.projectToken, id: made.id })).data.deleteGlossaryTerm).toBe(true);
    const deleted = await lastChange();
    expect((await gql(as(owner), REVERT, { p: a.projectToken, id: deleted })).data.revertChange).toMatchObject({
      reverted: 1,
    });
    expect(await list()).toMatchObject([
      { id: made.id, description: 'first', translations: [{ language: 'de', text: 'rückgängig' }] },
    ]);
    // The creation is not reverted over a later edit (kept, counted); the revert itself is in the log.
    expect(
      (await gql(as(owner), UPDATE, { p: a.projectToken, id: made.id, input: { term: 'undo', description: 'third' } }))
        .errors,
    ).toBeUndefined();
    expect((await gql(as(owner), REVERT, { p: a.projectToken, id: created })).data.revertChange).toEqual({
      unit: 'GLOSSARY_TERMS',
      reverted: 0,
      changedSince: 1,
    });
    expect(await list()).toMatchObject([{ description: 'third' }]);
    expect((await a.get('/api/v2/activity?size=1')).data[0].kind).toBe('REVERT');
    // Reverting the last edit, then the creation: the term is gone.
    const third = (await a.get('/api/v2/activity?size=2')).data[1].id;
    expect((await gql(as(owner), REVERT, { p: a.projectToken, id: third })).data.revertChange.reverted).toBe(1);
    expect((await gql(as(owner), REVERT, { p: a.projectToken, id: created })).data.revertChange.reverted).toBe(1);
    expect(await list()).toEqual([]);
    // A translator may not revert.
    expect(code(await gql(as(translator), REVERT, { p: a.projectToken, id: created }))).toBe('FORBIDDEN');
  });

  it('finds the terms of a text with their translation, on word boundaries and with plurals', async () => {
    const out = await gql(as(translator), MATCHES, {
      p: a.projectToken,
      t: 'Kill the process, then copy both Files to ACME and acme. Profile stays.',
      l: 'de',
    });
    expect(out.errors).toBeUndefined();
    const found = out.data.glossaryMatches;
    expect(found.map((m: any) => [m.term, m.text, m.translation])).toEqual([
      ['kill', 'Kill', null],
      ['file', 'Files', 'Datei'],
    ]);
    expect(found[0]).toMatchObject({ start: 0, end: 4, forbidden: true });
    // "Acme" is case-sensitive: neither ACME nor acme; "Profile" holds "file" but not as a word.
    const exact = (await gql(key(a), MATCHES, { t: 'Acme files', l: 'fr' })).data.glossaryMatches;
    expect(exact.map((m: any) => [m.term, m.translation])).toEqual([
      ['Acme', 'Acme'],
      ['file', 'fichier'],
    ]);
  });
});

describe('who may write', () => {
  it('refuses writes to a viewer and a translator (FORBIDDEN) and reads to a non-member (NOT_FOUND), changing nothing', async () => {
    const before = await termCount();
    const [first] = (await gql(as(owner), LIST, { p: a.projectToken })).data.glossaryTerms.terms;
    for (const account of [viewer, translator]) {
      expect(code(await gql(as(account), CREATE, { p: a.projectToken, input: { term: 'refused' } }))).toBe('FORBIDDEN');
      expect(
        code(await gql(as(account), UPDATE, { p: a.projectToken, id: first.id, input: { term: 'refused' } })),
      ).toBe('FORBIDDEN');
      expect(code(await gql(as(account), DELETE, { p: a.projectToken, id: first.id }))).toBe('FORBIDDEN');
    }
    expect(code(await gql(as(stranger), LIST, { p: a.projectToken }))).toBe('NOT_FOUND');
    expect(code(await gql(as(stranger), DELETE, { p: a.projectToken, id: first.id }))).toBe('NOT_FOUND');
    expect(await termCount()).toBe(before);
    expect((await gql(as(owner), LIST, { p: a.projectToken })).data.glossaryTerms.terms[0]).toEqual(first);
  });

  it("refuses another project's API key: A's terms are not found, reads and writes", async () => {
    const before = await termCount();
    const [first] = (await gql(as(owner), LIST, { p: a.projectToken })).data.glossaryTerms.terms;
    expect(code(await gql(key(b), UPDATE, { id: first.id, input: { term: 'stolen' } }))).toBe('NOT_FOUND');
    expect(code(await gql(key(b), DELETE, { id: first.id }))).toBe('NOT_FOUND');
    expect(code(await gql(key(b), CREATE, { p: a.projectToken, input: { term: 'stolen' } }))).toBe('NOT_FOUND');
    expect(code(await gql(key(b), LIST, { g: first.glossaryId }))).toBe('NOT_FOUND');
    expect((await gql(key(b), LIST, {})).data.glossaryTerms.total).toBe(0);
    expect((await gql(key(b), MATCHES, { t: 'file', l: 'de' })).data.glossaryMatches).toEqual([]);
    expect(await termCount()).toBe(before);
  });
});

describe('shared glossaries', () => {
  it('are changed by their owner only, and read by the projects linked to them', async () => {
    const created = await gql(
      as(owner),
      'mutation { createSharedGlossary(name: "Brand", sourceLanguage: "en") { id shared } }',
    );
    expect(created.data.createSharedGlossary.shared).toBe(true);
    const g = created.data.createSharedGlossary.id;
    expect(
      (
        await gql(as(owner), CREATE, {
          g,
          input: { term: 'dashboard', translations: [{ language: 'de', text: 'Übersicht' }] },
        })
      ).errors,
    ).toBeUndefined();
    // Not linked yet: B's key neither sees nor matches it.
    expect((await gql(key(b), MATCHES, { t: 'Open the dashboard', l: 'de' })).data.glossaryMatches).toEqual([]);
    expect(code(await gql(key(b), LIST, { g }))).toBe('NOT_FOUND');
    const link =
      'mutation($g: Int!, $p: String!, $l: Boolean!) { setProjectGlossaryLink(glossaryId: $g, projectToken: $p, linked: $l) { projects { projectToken } } }';
    // A project's key cannot link (a person's decision), nor a viewer of the project.
    expect(code(await gql(key(b), link, { g, p: b.projectToken, l: true }))).toBe('FORBIDDEN');
    expect(
      (await gql(as(owner), link, { g, p: b.projectToken, l: true })).data.setProjectGlossaryLink.projects,
    ).toEqual([{ projectToken: b.projectToken }]);
    const found = (await gql(key(b), MATCHES, { t: 'Open the dashboards', l: 'de' })).data.glossaryMatches;
    expect(found.map((m: any) => [m.term, m.translation])).toEqual([['dashboard', 'Übersicht']]);
    expect((await gql(key(b), LIST, { g })).data.glossaryTerms.total).toBe(1);
    // Read, not write: B's key and a member of a linked project who is not the owner are refused.
    expect(code(await gql(key(b), CREATE, { g, input: { term: 'intruder' } }))).toBe('FORBIDDEN');
    const projectB = await service.db.prisma.project.findFirstOrThrow({ where: { projectToken: b.projectToken } });
    await service.db.prisma.projectMember.create({
      data: { projectId: projectB.id, accountId: stranger.id, role: 'ADMIN' },
    });
    expect(code(await gql(as(stranger), CREATE, { g, input: { term: 'intruder' } }))).toBe('FORBIDDEN');
    expect(code(await gql(as(stranger), 'mutation($g: Int!) { deleteSharedGlossary(id: $g) }', { g }))).toBe(
      'FORBIDDEN',
    );
    expect(code(await gql(as(viewer), 'mutation($g: Int!) { deleteSharedGlossary(id: $g) }', { g }))).toBe('NOT_FOUND');
    expect((await gql(as(stranger), 'query { sharedGlossaries { id } }')).data.sharedGlossaries).toEqual([{ id: g }]);
    // B's own glossary (made when its key first read it) and the shared one.
    expect((await gql(key(b), `query { glossaries { shared projectToken terms } }`)).data.glossaries).toEqual([
      { shared: false, projectToken: b.projectToken, terms: 0 },
      { shared: true, projectToken: null, terms: 1 },
    ]);
  });
});

describe("the console's reads: flag filters, a term's history, owned shared glossaries", () => {
  const FILTERED =
    'query($p: String, $f: Boolean, $n: Boolean, $c: Boolean) { glossaryTerms(projectToken: $p, forbidden: $f, doNotTranslate: $n, caseSensitive: $c) { total terms { term } } }';
  const HISTORY =
    'query($p: String, $id: Int!) { glossaryTermHistory(projectToken: $p, termId: $id) { change { id kind actor { kind } } before { term description forbidden translations { language text } } after { term description forbidden translations { language text } } } }';

  it('keeps the terms with (true) or without (false) each flag given', async () => {
    const c = await projectApi(service, owner, 'Glossary flags');
    for (const input of [
      { term: 'kill', forbidden: true },
      { term: 'Acme', doNotTranslate: true, caseSensitive: true },
      { term: 'file' },
    ]) {
      expect((await gql(key(c), CREATE, { input })).errors).toBeUndefined();
    }
    const terms = async (vars: Record<string, boolean>) =>
      (await gql(key(c), FILTERED, vars)).data.glossaryTerms.terms.map((t: any) => t.term);
    expect(await terms({ f: true })).toEqual(['kill']);
    expect(await terms({ f: false })).toEqual(['Acme', 'file']);
    expect(await terms({ n: true, c: true })).toEqual(['Acme']);
    expect(await terms({ c: false, f: false })).toEqual(['file']);
  });

  it("lists a term's changes newest first with before and after, a deleted term's too; not from another project", async () => {
    const c = await projectApi(service, owner, 'Glossary history');
    await c.post('/api/v1/languages', { key: 'de' });
    const made = (
      await gql(as(owner), CREATE, {
        p: c.projectToken,
        input: { term: 'save', translations: [{ language: 'de', text: 'sichern' }] },
      })
    ).data.createGlossaryTerm;
    expect(
      (
        await gql(as(owner), UPDATE, {
          p: c.projectToken,
          id: made.id,
          input: { term: 'save', forbidden: true, translations: [{ language: 'de', text: 'speichern' }] },
        })
      ).errors,
    ).toBeUndefined();
    expect((await gql(as(owner), DELETE, { p: c.projectToken, id: made.id })).data.deleteGlossaryTerm).toBe(true);
    const history = (await gql(as(owner), HISTORY, { p: c.projectToken, id: made.id })).data.glossaryTermHistory;
    expect(history.map((e: any) => [e.change.kind, e.before?.forbidden ?? null, e.after?.forbidden ?? null])).toEqual([
      ['SETTINGS', true, null],
      ['SETTINGS', false, true],
      ['SETTINGS', null, false],
    ]);
    expect(history[1].before.translations).toEqual([{ language: 'de', text: 'sichern' }]);
    expect(history[1].after.translations).toEqual([{ language: 'de', text: 'speichern' }]);
    expect(history[2].change.actor.kind).toBe('ACCOUNT');
    // Reverting the deletion (the newest entry) gives the term back as it was.
    const REVERT = 'mutation($p: String, $id: ID!) { revertChange(projectToken: $p, activityId: $id) { reverted } }';
    expect(
      (await gql(as(owner), REVERT, { p: c.projectToken, id: history[0].change.id })).data.revertChange.reverted,
    ).toBe(1);
    expect((await gql(key(c), LIST, {})).data.glossaryTerms.terms).toMatchObject([
      { id: made.id, forbidden: true, translations: [{ language: 'de', text: 'speichern' }] },
    ]);
    // Another project's key, and a member of A reading through A, see no history of C's term.
    expect((await gql(key(b), HISTORY, { id: made.id })).data.glossaryTermHistory).toEqual([]);
    expect((await gql(as(translator), HISTORY, { p: a.projectToken, id: made.id })).data.glossaryTermHistory).toEqual(
      [],
    );
    expect(code(await gql(as(stranger), HISTORY, { p: c.projectToken, id: made.id }))).toBe('NOT_FOUND');
  });

  it('says which shared glossaries the caller owns', async () => {
    const mine = (
      await gql(as(owner), 'mutation { createSharedGlossary(name: "Mine", sourceLanguage: "en") { id owned } }')
    ).data.createSharedGlossary;
    expect(mine.owned).toBe(true);
    const link =
      'mutation($g: Int!, $p: String!) { setProjectGlossaryLink(glossaryId: $g, projectToken: $p, linked: true) { id } }';
    expect((await gql(as(owner), link, { g: mine.id, p: a.projectToken })).errors).toBeUndefined();
    const seen = async (account: TestAccount) =>
      (await gql(as(account), 'query { sharedGlossaries { id owned } }')).data.sharedGlossaries.find(
        (g: any) => g.id === mine.id,
      );
    expect(await seen(owner)).toEqual({ id: mine.id, owned: true });
    expect(await seen(translator)).toEqual({ id: mine.id, owned: false });
    expect((await gql(key(a), 'query { glossaries { shared owned } }')).data.glossaries).toContainEqual({
      shared: true,
      owned: false,
    });
  });
});
