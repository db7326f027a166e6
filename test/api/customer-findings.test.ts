// Stored quality-check findings of customer overrides (docs/quality-checks.md,
// "Customer overrides"): an override is checked against its customer's source
// like a base cell, its findings stored with its customer; the CI answers
// (REST customerId, GraphQL customerKey) say whose and filter by it; a
// dismissal holds for one override; a fixed or emptied override, a deleted
// customer, leave nothing behind; the publication gate counts their errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { namedFindings } from '../support/findings.js';

let service: TestService;
let api: ProjectApi;
let projectId: number;

async function settled(): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if ((await service.db.prisma.findingQueue.count({ where: { projectId } })) === 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('findings still pending');
}

/** The project's stored findings: "key/language[/customer] check[:dismissed]". */
async function stored(): Promise<string[]> {
  return (await namedFindings(service.db.prisma, { projectId })).map(
    (f) => `${f.key}/${f.language}${f.customer ? `/${f.customer}` : ''} ${f.check}${f.dismissed ? ':dismissed' : ''}`,
  );
}

/** Writes texts, replacing existing ones, and waits for their findings. */
async function write(content: Record<string, string>[]): Promise<void> {
  const res = await api.post('/api/v1/translations?importOptions=REPLACE_TRANSLATION_IF_FOUND', { content });
  expect(res.msg + res.status).toBe('OK200');
  await settled();
}

const FINDINGS = `query($c: String, $s: String, $d: Boolean) {
  qualityFindings(customerKey: $c, severity: $s, includeDismissed: $d) {
    total errors pending counts { languageCode check severity count dismissed }
    findings { key languageCode customerKey check severity dismissed text }
  }
}`;
const DISMISS = `mutation($k: String!, $l: String!, $c: String!, $cu: String, $r: String!) {
  dismissQualityFinding(key: $k, languageCode: $l, check: $c, customerKey: $cu, reason: $r)
}`;
const RESTORE = `mutation($k: String!, $l: String!, $c: String!, $cu: String) {
  restoreQualityFinding(key: $k, languageCode: $l, check: $c, customerKey: $cu)
}`;

beforeAll(async () => {
  service = await startTestService({ env: { FINDINGS_POLL_MS: '50', LOG_LEVEL: 'error' } });
  const owner = await service.account();
  api = await projectApi(service, owner, 'Customer findings');
  await api.post('/api/v1/languages', { key: 'de' });
  for (const key of ['acme', 'globex']) expect((await api.post('/api/v1/customers', { key })).status).toBe(200);
  projectId = (await service.db.prisma.project.findFirstOrThrow({ where: { projectToken: api.projectToken } })).id;
  await write([
    { key: 'greet', language: 'en', text: 'Hello {name}!' },
    { key: 'greet', language: 'de', text: 'Hallo {name}!' },
  ]);
});
afterAll(() => service.close());

describe('findings of customer overrides', () => {
  it('an override with a broken placeholder has a stored error with its customer, in REST and GraphQL', async () => {
    expect(await stored()).toEqual([]);
    await write([{ key: 'greet', language: 'de', text: 'Hallo!', customerId: 'acme' }]);
    expect(await stored()).toEqual(['greet/de/acme placeholders-missing']);

    // Every finding by default, each saying whose (REST names the customer customerId, as the contract does).
    const all = (await api.get('/api/v2/quality-checks')).data;
    expect(all).toMatchObject({ total: 1, errors: 1, pending: 0 });
    expect(all.findings).toEqual([
      expect.objectContaining({
        key: 'greet',
        languageCode: 'de',
        customerId: 'acme',
        check: 'placeholders-missing',
        text: 'Hallo!',
      }),
    ]);
    const acme = (await api.get('/api/v2/quality-checks?customerId=acme')).data;
    expect(acme.total).toBe(1);
    expect(acme.counts).toEqual([
      { languageCode: 'de', check: 'placeholders-missing', severity: 'error', count: 1, dismissed: 0 },
    ]);
    expect((await api.get('/api/v2/quality-checks?customerId=globex')).data).toMatchObject({
      total: 0,
      counts: [],
      findings: [],
    });
    expect((await api.get('/api/v2/quality-checks?customerId=nobody')).status).toBe(404);

    const graphql = await api.gql(FINDINGS, { c: 'acme', s: 'error' });
    expect(graphql.errors).toBeUndefined();
    expect(graphql.data.qualityFindings.findings).toEqual([
      {
        key: 'greet',
        languageCode: 'de',
        customerKey: 'acme',
        check: 'placeholders-missing',
        severity: 'error',
        dismissed: false,
        text: 'Hallo!',
      },
    ]);
    expect((await api.gql(FINDINGS, { c: 'globex' })).data.qualityFindings.total).toBe(0);
  });

  it("is checked against its customer's source: its own override of the default language, else the base", async () => {
    // acme's English says {user}: acme's German keeps it, the base German's {name} is no error of acme's.
    await write([
      { key: 'greet', language: 'en', text: 'Hello {user}!', customerId: 'acme' },
      { key: 'greet', language: 'de', text: 'Hallo {user}!', customerId: 'acme' },
    ]);
    expect(await stored()).toEqual([]);
    // globex has no English of its own: its German is checked against the base English.
    await write([{ key: 'greet', language: 'de', text: 'Hallo {user}!', customerId: 'globex' }]);
    expect(await stored()).toEqual(['greet/de/globex placeholders-extra', 'greet/de/globex placeholders-missing']);
    await write([
      { key: 'greet', language: 'en', text: '', customerId: 'acme' },
      { key: 'greet', language: 'de', text: 'Hallo {name}!', customerId: 'acme' },
      { key: 'greet', language: 'de', text: 'Hallo {name}!', customerId: 'globex' },
    ]);
    expect(await stored()).toEqual([]);
  });

  it('fixing or emptying the override clears its findings; the base keeps its own', async () => {
    await write([
      { key: 'greet', language: 'de', text: 'Hallo!', customerId: 'acme' },
      { key: 'greet', language: 'de', text: 'Hallo!' },
    ]);
    expect(await stored()).toEqual(['greet/de placeholders-missing', 'greet/de/acme placeholders-missing']);
    expect(
      (
        await api.patch('/api/v2/translations', {
          key: 'greet',
          language: 'de',
          customerId: 'acme',
          text: 'Hi {name}!',
        })
      ).status,
    ).toBe(200);
    await settled();
    expect(await stored()).toEqual(['greet/de placeholders-missing']);
    await write([
      { key: 'greet', language: 'de', text: 'Hallo {name}!' },
      { key: 'greet', language: 'de', text: 'Hallo!', customerId: 'acme' },
    ]);
    expect(await stored()).toEqual(['greet/de/acme placeholders-missing']);
    // An emptied override is none (the customer sees the base): nothing to check.
    await write([{ key: 'greet', language: 'de', text: '', customerId: 'acme' }]);
    expect(await stored()).toEqual([]);
  });

  it('an override emptied where the key has no base cell of its language leaves no finding and nothing pending', async () => {
    await write([
      { key: 'only.override', language: 'en', text: 'Hello {name}!' },
      { key: 'only.override', language: 'de', text: 'Hallo!', customerId: 'acme' },
    ]);
    expect(await stored()).toEqual(['only.override/de/acme placeholders-missing']);
    // The key's entry names German alone, where it has no cell left: the updater drops it with the finding.
    await write([{ key: 'only.override', language: 'de', text: '', customerId: 'acme' }]);
    expect(await stored()).toEqual([]);
    expect((await api.get('/api/v2/quality-checks')).data.pending).toBe(0);
  });

  it("a dismissal holds for one override's text, not for the base or another customer's", async () => {
    await write([
      { key: 'greet', language: 'de', text: 'Hallo!' },
      { key: 'greet', language: 'de', text: 'Hallo!', customerId: 'acme' },
      { key: 'greet', language: 'de', text: 'Hallo!', customerId: 'globex' },
    ]);
    const dismissed = await api.gql(DISMISS, {
      k: 'greet',
      l: 'de',
      c: 'placeholders-missing',
      cu: 'acme',
      r: 'acme greets no one by name',
    });
    expect(dismissed).toEqual({ data: { dismissQualityFinding: 1 } });
    expect(await stored()).toEqual([
      'greet/de placeholders-missing',
      'greet/de/acme placeholders-missing:dismissed',
      'greet/de/globex placeholders-missing',
    ]);
    expect((await api.get('/api/v2/quality-checks')).data.errors).toBe(2);
    expect((await api.get('/api/v2/quality-checks?customerId=acme')).data.total).toBe(0);
    const activity = (await api.get('/api/v2/activity?size=1')).data[0];
    expect(JSON.stringify(activity)).toContain('"customer":"acme"');
    // Written again with the same text: still dismissed; another text brings it back.
    await write([{ key: 'greet', language: 'de', text: 'Hallo!', customerId: 'acme' }]);
    await write([{ key: 'greet', language: 'de', text: 'Hallo {name}!', customerId: 'globex' }]);
    expect(await stored()).toEqual(['greet/de placeholders-missing', 'greet/de/acme placeholders-missing:dismissed']);
    await write([{ key: 'greet', language: 'de', text: 'Servus!', customerId: 'acme' }]);
    expect(await stored()).toEqual(['greet/de placeholders-missing', 'greet/de/acme placeholders-missing']);
    // Restoring a dismissal the override does not have is a 404; the dismissal row itself is per customer.
    expect(
      (await api.gql(RESTORE, { k: 'greet', l: 'de', c: 'placeholders-missing', cu: 'globex' })).errors?.[0]?.extensions
        ?.code,
    ).toBe('NOT_FOUND');
    const dismissals = await service.db.prisma.findingDismissal.findMany({ where: { projectId } });
    expect(dismissals.map((d) => d.customerId)).toEqual([
      (await service.db.prisma.customer.findFirstOrThrow({ where: { projectId, key: 'acme' } })).id,
    ]);
  });

  it('the publication gate refuses a publication with an error in an override, naming its customer', async () => {
    await write([
      { key: 'greet', language: 'de', text: 'Hallo {name}!' },
      { key: 'greet', language: 'de', text: 'Moin!', customerId: 'acme' },
    ]);
    expect(await stored()).toEqual(['greet/de/acme placeholders-missing']);
    const GATE = 'mutation { setEnvironmentQualityGate(key: "_latest", requireNoErrors: true) { requireNoErrors } }';
    expect((await api.gql(GATE)).errors).toBeUndefined();
    const refused = await api.gql('mutation { publishEnvironment(key: "_latest") { version } }');
    expect(refused.errors?.[0]?.extensions?.qualityGate).toMatchObject({
      errors: 1,
      byCheck: { 'placeholders-missing': 1 },
      findings: [{ key: 'greet', languageCode: 'de', customerKey: 'acme', check: 'placeholders-missing' }],
    });
    expect((await api.post('/api/v2/environments/_latest/publish')).status).toBe(409);
  });

  it("deleting the customer deletes its overrides' findings and dismissals in the same transaction", async () => {
    await write([{ key: 'greet', language: 'de', text: 'Hallo!', customerId: 'globex' }]);
    expect(
      await api.gql(DISMISS, { k: 'greet', l: 'de', c: 'placeholders-missing', cu: 'globex', r: 'globex says so' }),
    ).toEqual({ data: { dismissQualityFinding: 1 } });
    expect(await stored()).toEqual([
      'greet/de/acme placeholders-missing',
      'greet/de/globex placeholders-missing:dismissed',
    ]);
    expect((await api.delete('/api/v1/customers/acme')).status).toBe(200);
    expect(await stored()).toEqual(['greet/de/globex placeholders-missing:dismissed']);
    expect((await api.delete('/api/v1/customers/globex')).status).toBe(200);
    expect(await stored()).toEqual([]);
    expect(await service.db.prisma.findingDismissal.count({ where: { projectId } })).toBe(0);
    // Nothing left to block the gate.
    expect((await api.post('/api/v2/environments/_latest/publish')).status).toBe(200);
  });

  it("deleting a language or a key takes its cells' findings and dismissals, base and overrides alike", async () => {
    expect((await api.post('/api/v1/customers', { key: 'initech' })).status).toBe(200);
    expect((await api.post('/api/v1/languages', { key: 'fr' })).status).toBe(200);
    await write([
      { key: 'greet', language: 'fr', text: 'Salut !' },
      { key: 'greet', language: 'fr', text: 'Coucou !', customerId: 'initech' },
      { key: 'bye', language: 'en', text: 'Bye {name}' },
      { key: 'bye', language: 'de', text: 'Tschüss', customerId: 'initech' },
    ]);
    expect(
      await api.gql(DISMISS, { k: 'greet', l: 'fr', c: 'placeholders-missing', cu: 'initech', r: 'initech says so' }),
    ).toEqual({ data: { dismissQualityFinding: 1 } });
    expect(await stored()).toEqual([
      'greet/fr placeholders-missing',
      'greet/fr/initech placeholders-missing:dismissed',
      'bye/de/initech placeholders-missing',
    ]);
    expect((await api.delete('/api/v1/languages/fr')).status).toBe(200);
    expect(await stored()).toEqual(['bye/de/initech placeholders-missing']);
    expect(await service.db.prisma.findingDismissal.count({ where: { projectId } })).toBe(0);
    const DELETE = 'mutation($keys: [TranslationKeyRefInput!]!) { deleteTranslationKeys(translationKeys: $keys) }';
    expect((await api.gql(DELETE, { keys: [{ key: 'bye' }] })).errors).toBeUndefined();
    expect(await stored()).toEqual([]);
  });
});
