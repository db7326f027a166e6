// Stored quality-check findings (docs/quality-checks.md): the write gate
// queues the cells it writes, the updater computes their findings in its
// worker threads and stores them; a source change checks the key's other
// languages again, once; a dismissal holds until the text changes; severities
// per project; the CI query and REST endpoint; the publication gate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { importOk } from '../support/transfer.js';
import { namedFindings } from '../support/findings.js';
import { Prisma } from '../../src/generated/prisma/client.js';
import { enqueueFindingsSql } from '../../src/content/findings-queue.js';

let service: TestService;
let owner: TestAccount;
let api: ProjectApi;
let projectId: number;

async function settled(): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if ((await service.db.prisma.findingQueue.count()) === 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('findings still pending');
}

async function stored(key: string, language: string) {
  const rows = await namedFindings(service.db.prisma, { projectId, customerId: 0 });
  return rows
    .filter((r) => r.key === key && r.language === language)
    .map((r) => `${r.check}:${r.severity}${r.dismissed ? ':dismissed' : ''}`);
}

beforeAll(async () => {
  service = await startTestService({ env: { FINDINGS_POLL_MS: '50', LOG_LEVEL: 'error' } });
  owner = await service.account();
  api = await projectApi(service, owner, 'Findings');
  await api.post('/api/v1/languages', { key: 'de' });
  await api.post('/api/v1/languages', { key: 'fr' });
  projectId = (await service.db.prisma.project.findFirstOrThrow({ where: { projectToken: api.projectToken } })).id;
});
afterAll(() => service.close());

describe('findings stored on write', () => {
  it('an import queues its keys; pending reaches 0 with the findings of every cell', async () => {
    // A project of its own: the other tests count their project's findings.
    const imported = await projectApi(service, owner, 'Imported');
    const importedId = (
      await service.db.prisma.project.findFirstOrThrow({ where: { projectToken: imported.projectToken } })
    ).id;
    const keys = Array.from({ length: 40 }, (_, i) => `imported.k${i}`);
    // Every fourth German text loses its placeholder, every fifth French one its end mark.
    const file = {
      en: Object.fromEntries(keys.map((k, i) => [k, `Hello {name} ${i}.`])),
      de: Object.fromEntries(keys.map((k, i) => [k, i % 4 === 0 ? `Hallo ${i}.` : `Hallo {name} ${i}.`])),
      fr: Object.fromEntries(keys.map((k, i) => [k, i % 5 === 0 ? `Bonjour {name} ${i}` : `Bonjour {name} ${i}.`])),
    };
    await importOk(service, imported.apiKey, JSON.stringify(file), { uploadFormat: 'multi-language-json' });
    await expect
      .poll(async () => (await imported.get('/api/v2/quality-checks')).data.pending, { timeout: 30_000 })
      .toBe(0);
    const found = (await namedFindings(service.db.prisma, { projectId: importedId })).filter((f) =>
      f.key.startsWith('imported.'),
    );
    const got = found.map((f) => `${f.key}:${f.language}:${f.check}`).sort();
    const want = [
      ...keys.filter((_, i) => i % 4 === 0).map((k) => `${k}:de:placeholders-missing`),
      ...keys.filter((_, i) => i % 5 === 0).map((k) => `${k}:fr:end-punctuation`),
    ].sort();
    expect(got).toEqual(want);
  });

  it('stores the findings of written cells, computed off the request path', async () => {
    const res = await api.post('/api/v1/translations', {
      content: [
        { key: 'greet', language: 'en', text: 'Hello {name}!' },
        { key: 'greet', language: 'de', text: 'Hallo!' },
        { key: 'greet', language: 'fr', text: 'Bonjour {name} !' },
        { key: 'ok', language: 'en', text: 'Fine' },
        { key: 'ok', language: 'de', text: 'Gut' },
      ],
    });
    expect(res.msg + res.status).toBe('OK200');
    await settled();
    expect(await stored('greet', 'de')).toEqual(['placeholders-missing:error']);
    expect(await stored('greet', 'fr')).toEqual([]);
    expect(await stored('ok', 'de')).toEqual([]);
  });

  it('a source change checks the other languages again: the key is queued once', async () => {
    expect(
      (await api.patch('/api/v2/translations', { key: 'greet', language: 'en', text: 'Hello {user}!' })).status,
    ).toBe(200);
    const queued = await service.db.prisma.findingQueue.findMany({ select: { keyId: true } });
    // The key (en itself, de and fr), unless the updater was already there.
    expect(queued.length).toBeLessThanOrEqual(1);
    await settled();
    expect(await stored('greet', 'de')).toEqual(['placeholders-missing:error']);
    expect(await stored('greet', 'fr')).toEqual(['placeholders-extra:error', 'placeholders-missing:error']);
  });
});

describe('the languages a queue entry names', () => {
  const mark = async (key: string, language: string) => {
    const [{ n }] = await service.db.prisma.$queryRaw<{ n: number }[]>`
      UPDATE "Finding" f SET message = 'untouched' FROM "TranslationKey" k, "Language" l
       WHERE k.id = f."keyId" AND l.id = f."languageId" AND k."projectId" = ${projectId} AND k.key = ${key} AND l.key = ${language}
      RETURNING 1 AS n`;
    expect(n).toBe(1);
  };
  const messages = async (key: string, language: string) =>
    (await namedFindings(service.db.prisma, { projectId, customerId: 0 }))
      .filter((r) => r.key === key && r.language === language)
      .map((r) => r.message);

  it("a write of a translation checks that cell again, not the key's other ones", async () => {
    await api.post('/api/v1/translations', {
      content: [
        { key: 'langs', language: 'en', text: 'Save {name}.' },
        { key: 'langs', language: 'de', text: 'Sichern.' },
        { key: 'langs', language: 'fr', text: 'Enregistrer {name}.' },
      ],
    });
    await settled();
    await mark('langs', 'de');
    expect(
      (await api.patch('/api/v2/translations', { key: 'langs', language: 'fr', text: 'Enregistrer.' })).status,
    ).toBe(200);
    await settled();
    expect(await stored('langs', 'fr')).toEqual(['placeholders-missing:error']);
    // The German cell was not checked again: its finding is the one stored before.
    expect(await messages('langs', 'de')).toEqual(['untouched']);
    // The source text changed: every cell of the key is checked again.
    await mark('langs', 'fr');
    expect((await api.patch('/api/v2/translations', { key: 'langs', language: 'en', text: 'Save.' })).status).toBe(200);
    await settled();
    expect(await stored('langs', 'de')).toEqual([]);
    expect(await stored('langs', 'fr')).toEqual([]);
  });

  it("names the written cells' languages, every language when the default one's is among them, and merges them", async () => {
    const ids = Object.fromEntries(
      (await service.db.prisma.language.findMany({ where: { projectId } })).map((l) => [l.key, l.id]),
    );
    const keys = await service.db.prisma.$queryRaw<{ id: number }[]>`
      INSERT INTO "TranslationKey" ("projectId", key) SELECT ${projectId}, 'merge.' || i FROM generate_series(1, 3) i RETURNING id`;
    const [k1, k2, k3] = keys.map((k) => k.id) as [number, number, number];
    const queue = (written: [number, number][]) =>
      Prisma.sql`WITH written AS (
        SELECT * FROM unnest(${written.map(([k]) => k)}::int[], ${written.map(([, l]) => l)}::int[]) AS w("keyId", "languageId")
      ) ${enqueueFindingsSql(Prisma.sql`${projectId}::int`)}`;
    // In a transaction rolled back: the updater never sees these entries.
    const entries = await service.db.prisma
      .$transaction(async (tx) => {
        await tx.$executeRaw`INSERT INTO "FindingQueue" ("keyId", "projectId") VALUES (${k3}, ${projectId})`;
        await tx.$executeRaw(
          queue([
            [k1, ids.fr!],
            [k2, ids.en!],
            [k2, ids.de!],
            [k3, ids.fr!],
          ]),
        );
        await tx.$executeRaw(queue([[k1, ids.de!]]));
        // Waiting, and naming German already: not rewritten.
        await tx.$executeRaw(queue([[k1, ids.de!]]));
        // Read raw: Prisma's client gives a null list as [].
        const rows = await tx.$queryRaw`SELECT generation, "languageIds" FROM "FindingQueue"
          WHERE "keyId" IN (${k1}, ${k2}, ${k3}) ORDER BY "keyId"`;
        throw Object.assign(new Error('rollback'), { rows });
      })
      .catch((e: { rows?: unknown }) => e.rows);
    expect(entries).toEqual([
      { generation: 2, languageIds: [ids.de, ids.fr].sort((a, b) => a! - b!) },
      // The default language's text is the others' source: every cell of the key.
      { generation: 1, languageIds: null },
      // An entry for every cell stays one, and one waiting that names the languages already is not rewritten.
      { generation: 1, languageIds: null },
    ]);
  });
});

const FINDINGS = `query($p: String, $l: String, $s: String, $c: String, $d: Boolean) {
  qualityFindings(projectToken: $p, languageCode: $l, severity: $s, check: $c, includeDismissed: $d) {
    total errors warnings infos pending counts { languageCode check severity count dismissed } findings { key languageCode check severity message dismissed text }
  }
}`;
const DISMISS =
  'mutation($k: String!, $l: String!, $c: String!, $r: String!) { dismissQualityFinding(key: $k, languageCode: $l, check: $c, reason: $r) }';
const SET =
  'mutation($checks: [QualityCheckSettingInput!]) { setQualityChecks(checks: $checks) { checks { id severity } } }';

describe('the queue without a foreign key', () => {
  it("a key's entry stays while it has cells and goes with its last one, in the deleting transaction", async () => {
    const left = await service.db.prisma.$transaction(async (tx) => {
      const [{ id: keyId }] = await tx.$queryRaw<{ id: number }[]>`
        INSERT INTO "TranslationKey" ("projectId", key) VALUES (${projectId}, 'queued_then_deleted') RETURNING id`;
      await tx.$executeRaw`INSERT INTO "Translation" ("keyId", "languageId", "projectId", text)
        SELECT ${keyId}, id, ${projectId}, 'Text' FROM "Language" WHERE "projectId" = ${projectId}`;
      await tx.$executeRaw`INSERT INTO "FindingQueue" ("keyId", "projectId") VALUES (${keyId}, ${projectId})`;
      const queued = await tx.findingQueue.count({ where: { keyId } });
      // One cell deleted: the key's other cells still wait for their checks.
      await tx.$executeRaw`DELETE FROM "Translation" WHERE "keyId" = ${keyId} AND "languageId" = (
        SELECT max("languageId") FROM "Translation" WHERE "keyId" = ${keyId})`;
      const afterOne = await tx.findingQueue.count({ where: { keyId } });
      // The key takes its cells with it (their foreign key), and the last cell the key's entry (the trigger).
      await tx.$executeRaw`DELETE FROM "TranslationKey" WHERE id = ${keyId}`;
      return { queued, afterOne, left: await tx.findingQueue.count({ where: { keyId } }) };
    });
    expect(left).toEqual({ queued: 1, afterOne: 1, left: 0 });
  });

  it('the updater drops an entry whose key has no cell left, so nothing stays pending', async () => {
    // As a queue entry of a key whose cells were deleted while its write was not yet committed would be left.
    await service.db.prisma.$executeRaw`INSERT INTO "FindingQueue" ("keyId", "projectId")
      VALUES (2147483000, ${projectId})`;
    await settled();
    expect(await service.db.prisma.findingQueue.count()).toBe(0);
    const res = await api.get('/api/v2/quality-checks');
    expect(res.data.pending).toBe(0);
  });
});

describe('dismissal', () => {
  it('dismisses a finding with a reason, recorded in the activity; a new text brings it back', async () => {
    await api.post('/api/v1/translations', {
      content: [
        { key: 'brand', language: 'en', text: 'Save your changes' },
        { key: 'brand', language: 'de', text: 'Save your changes' },
      ],
    });
    await settled();
    expect(await stored('brand', 'de')).toEqual(['same-as-source:warning']);
    expect(
      (await api.gql(DISMISS, { k: 'brand', l: 'de', c: 'same-as-source', r: ' ' })).errors?.[0]?.extensions?.code,
    ).toBe('BAD_REQUEST');
    const out = await api.gql(DISMISS, { k: 'brand', l: 'de', c: 'same-as-source', r: 'A product name' });
    expect(out.errors).toBeUndefined();
    expect(out.data.dismissQualityFinding).toBe(1);
    expect(await stored('brand', 'de')).toEqual(['same-as-source:warning:dismissed']);
    const [entry] = (await api.get('/api/v2/activity?size=1')).data;
    expect(entry.kind).toBe('QUALITY');
    expect(JSON.stringify(entry)).toContain('A product name');
    // Open findings leave it out; with includeDismissed it is listed as dismissed.
    const open = (await api.gql(FINDINGS, { l: 'de', c: 'same-as-source' })).data.qualityFindings;
    expect(open.total).toBe(0);
    const all = (await api.gql(FINDINGS, { l: 'de', c: 'same-as-source', d: true })).data.qualityFindings;
    // The message as data too, for a client that words it in its own language (src/checks/messages.ts).
    const [worded] = (
      await api.gql(
        `{ qualityFindings(languageCode: "de", check: "same-as-source", includeDismissed: true) { findings { message messageText { id params } } } }`,
      )
    ).data.qualityFindings.findings;
    expect(worded).toEqual({
      message: 'The translation is the source text: translate it, or dismiss this if it is the same in this language',
      messageText: { id: 'same-as-source.same', params: {} },
    });
    expect(all.findings).toMatchObject([{ key: 'brand', dismissed: true }]);
    // Written again with the same text: still dismissed. Another text: back.
    await api.patch('/api/v2/translations', {
      key: 'brand',
      language: 'de',
      text: 'Save your changes',
      reviewStatus: 'REVIEWED',
    });
    await settled();
    expect(await stored('brand', 'de')).toEqual(['same-as-source:warning:dismissed']);
    await api.patch('/api/v2/translations', { key: 'brand', language: 'de', text: 'Save your changes ' });
    await api.patch('/api/v2/translations', { key: 'brand', language: 'de', text: 'Save your changes' });
    await settled();
    expect(await stored('brand', 'de')).toEqual(['same-as-source:warning:dismissed']);
    await api.patch('/api/v2/translations', { key: 'brand', language: 'en', text: 'Save your changes.' });
    await api.patch('/api/v2/translations', { key: 'brand', language: 'de', text: 'Save your changes.' });
    await settled();
    expect(await stored('brand', 'de')).toEqual(['same-as-source:warning']);
  });
});

describe('severities per project', () => {
  it("changes a check's severity and turns checks off and on, findings following", async () => {
    const out = await api.gql(SET, {
      checks: [
        { check: 'placeholders-missing', severity: 'warning' },
        { check: 'same-as-source', severity: 'off' },
      ],
    });
    expect(out.errors).toBeUndefined();
    expect(out.data.setQualityChecks.checks.find((c: any) => c.id === 'placeholders-missing').severity).toBe('warning');
    expect(await stored('greet', 'de')).toEqual(['placeholders-missing:warning']);
    expect(await stored('brand', 'de')).toEqual([]);
    expect(
      (await api.gql(SET, { checks: [{ check: 'no-such-check', severity: 'error' }] })).errors?.[0]?.extensions?.code,
    ).toBe('BAD_REQUEST');
    expect(
      (await api.gql(SET, { checks: [{ check: 'blank', severity: 'fatal' }] })).errors?.[0]?.extensions?.code,
    ).toBe('BAD_REQUEST');
    await api.gql(SET, {
      checks: [
        { check: 'placeholders-missing', severity: null },
        { check: 'same-as-source', severity: null },
      ],
    });
    await settled();
    expect(await stored('greet', 'de')).toEqual(['placeholders-missing:error']);
    expect(await stored('brand', 'de')).toEqual(['same-as-source:warning']);
  });
});

describe('for CI', () => {
  it('GET /api/v2/quality-checks returns the findings with counts, filtered by language, severity and check', async () => {
    const all = await api.get('/api/v2/quality-checks');
    expect(all.status).toBe(200);
    expect(all.data.pending).toBe(0);
    expect(all.data.errors).toBeGreaterThanOrEqual(2);
    expect(all.data.findings[0].severity).toBe('error');
    const de = await api.get('/api/v2/quality-checks?languageCode=de&severity=error');
    expect(de.data.findings.map((f: any) => `${f.key}:${f.check}`)).toEqual(['greet:placeholders-missing']);
    expect(de.data.counts).toEqual([
      { languageCode: 'de', check: 'placeholders-missing', severity: 'error', count: 1, dismissed: 0 },
    ]);
    const byCheck = await api.get('/api/v2/quality-checks?check=placeholders-extra&size=0');
    expect(byCheck.data).toMatchObject({ total: 1, findings: [] });
    expect((await api.get('/api/v2/quality-checks?severity=fatal')).status).toBe(400);
    expect((await api.get('/api/v2/quality-checks?languageCode=xx')).status).toBe(400);
    expect((await api.get('/api/v2/quality-checks?includeDismissed=maybe')).status).toBe(400);
  });
});

describe('the list in pages', () => {
  it('lists errors, then warnings, then infos, each in key order; pages follow on; a dismissed one only when asked', async () => {
    const pages = await projectApi(service, owner, 'Finding pages');
    await pages.post('/api/v1/languages', { key: 'de' });
    const content = [
      ['i1', 'Very good', 'Sehr  gut'], // double-space: info
      ['e1', 'Hi {name}', 'Hallo'], // placeholders-missing: error
      ['w1', 'Good', 'Gut '], // trailing-space: warning
      ['e2', 'Bye {name}', 'Tschüss'],
      ['w2', 'Fine', 'Fein '],
      ['e3', 'See {name}', 'Sehen'],
      ['i2', 'Very fine', 'Sehr  fein'],
    ].flatMap(([key, en, de]) => [
      { key, language: 'en', text: en },
      { key, language: 'de', text: de },
    ]);
    expect((await pages.post('/api/v1/translations', { content })).status).toBe(200);
    await settled();
    const list = async (variables: Record<string, unknown>, page = '') =>
      (
        await pages.gql(
          `query($s: String, $c: String, $d: Boolean) { qualityFindings(severity: $s, check: $c, includeDismissed: $d${page}) { total findings { key check severity dismissed } } }`,
          variables,
        )
      ).data.qualityFindings;
    const all = await list({});
    const shown = (rows: { key: string; check: string; dismissed: boolean }[]) =>
      rows.map((r) => `${r.key}:${r.check}${r.dismissed ? ':dismissed' : ''}`);
    expect(shown(all.findings)).toEqual([
      'e1:placeholders-missing',
      'e2:placeholders-missing',
      'e3:placeholders-missing',
      'w1:trailing-space',
      'w2:trailing-space',
      'i1:double-space',
      'i2:double-space',
    ]);
    expect(all.total).toBe(7);
    // Pages of two follow on from each other, across the severities.
    const paged = [];
    for (let offset = 0; offset < 8; offset += 2)
      paged.push(...(await list({}, `, first: 2, offset: ${offset}`)).findings);
    expect(shown(paged)).toEqual(shown(all.findings));
    expect((await list({}, ', first: 0')).findings).toEqual([]);
    // A filter by check or severity scans that severity only.
    expect(shown((await list({ c: 'double-space' })).findings)).toEqual(['i1:double-space', 'i2:double-space']);
    expect(shown((await list({ s: 'warning' }, ', first: 1, offset: 1')).findings)).toEqual(['w2:trailing-space']);
    const dismissed = await pages.gql(DISMISS, { k: 'w1', l: 'de', c: 'trailing-space', r: 'Intended' });
    expect(dismissed.errors).toBeUndefined();
    expect(shown((await list({ s: 'warning' })).findings)).toEqual(['w2:trailing-space']);
    expect(shown((await list({ d: true }, ', first: 2, offset: 3')).findings)).toEqual([
      'w1:trailing-space:dismissed',
      'w2:trailing-space',
    ]);
  });
});

describe("the editor's filters", () => {
  it('filters keys by stored errors, warnings and check, in the chosen languages', async () => {
    const ROWS = 'query($f: EditorFilter) { editorRows(filter: $f) { totalCount keys { key } } }';
    const keys = async (filter: Record<string, unknown>) => {
      const out = await api.gql(ROWS, { f: filter });
      expect(out.errors).toBeUndefined();
      return out.data.editorRows.keys.map((k: any) => k.key);
    };
    expect(await keys({ findingSeverity: 'error' })).toEqual(['greet']);
    expect(await keys({ findingSeverity: 'error', languages: ['de'] })).toEqual(['greet']);
    expect(await keys({ findingCheck: 'placeholders-extra', languages: ['de'] })).toEqual([]);
    expect(await keys({ findingCheck: 'placeholders-extra' })).toEqual(['greet']);
    expect(await keys({ findingSeverity: 'warning' })).toEqual(['brand']);
    expect((await api.gql(ROWS, { f: { findingSeverity: 'fatal' } })).errors?.[0]?.extensions?.code).toBe(
      'BAD_REQUEST',
    );
  });
});

describe('publication gate', () => {
  const PUBLISH =
    'mutation($k: String!, $o: Boolean, $p: String) { publishEnvironment(projectToken: $p, key: $k, overrideQualityGate: $o) { version } }';
  const GATE =
    'mutation($k: String!, $r: Boolean!) { setEnvironmentQualityGate(key: $k, requireNoErrors: $r) { key requireNoErrors } }';
  const asOwner = async (query: string, variables: Record<string, unknown>) =>
    (
      await service.request({
        method: 'POST',
        url: '/graphql',
        headers: { authorization: owner.token, 'content-type': 'application/json' },
        payload: { query, variables },
      })
    ).json();

  it('refuses a publication that would ship errors, with the list, counts and a link; an owner overrides it, recorded', async () => {
    expect((await api.gql(GATE, { k: '_latest', r: true })).data.setEnvironmentQualityGate).toEqual({
      key: '_latest',
      requireNoErrors: true,
    });
    const refused = await api.post('/api/v2/environments/_latest/publish');
    expect(refused.status).toBe(409);
    expect(refused.msg).toMatch(/requires no quality-check errors: 3 errors/);
    expect(refused.msg).toContain(`/#/projects/${api.projectToken}/quality?severity=error`);
    const graphql = await api.gql(PUBLISH, { k: '_latest' });
    const gate = graphql.errors![0].extensions.qualityGate;
    expect(gate).toMatchObject({
      errors: 3,
      pending: 0,
      byCheck: { 'placeholders-missing': 2, 'placeholders-extra': 1 },
    });
    expect(gate.findings.map((f: any) => `${f.key}/${f.languageCode}/${f.check}`)).toEqual([
      'greet/de/placeholders-missing',
      'greet/fr/placeholders-extra',
      'greet/fr/placeholders-missing',
    ]);
    // The API key is no owner: its override is refused; the owner's goes through and is recorded.
    expect((await api.gql(PUBLISH, { k: '_latest', o: true })).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const overridden = await asOwner(PUBLISH, { k: '_latest', o: true, p: api.projectToken });
    expect(overridden.errors).toBeUndefined();
    const activity = (await api.get('/api/v2/activity?size=5')).data;
    expect(
      activity.some((e: any) => e.kind === 'QUALITY' && JSON.stringify(e).includes('OVERRIDE_PUBLICATION_GATE')),
    ).toBe(true);
    // Fixed (or dismissed), the gate lets it through.
    await api.patch('/api/v2/translations', { key: 'greet', language: 'de', text: 'Hallo {user}!' });
    await api.patch('/api/v2/translations', { key: 'greet', language: 'fr', text: 'Bonjour {user} !' });
    await settled();
    expect((await api.post('/api/v2/environments/_latest/publish')).status).toBe(200);
  });
});
