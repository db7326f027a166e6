// Automation rules end to end (docs/automations.md): each trigger and each
// action through the real paths (CLI import, the editor's one-cell write,
// GraphQL jobs with the offline PSEUDO provider, publication, a loopback
// webhook receiver checking signatures), loop prevention and chain depth,
// reverting a run, and exactly-once with two runners sharing the database.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { importOk } from '../support/transfer.js';
import { projectIdOf, readTranslations } from '../support/content.js';
import { pseudoLocalize } from '../../src/mt/index.js';
import { AutomationRunner } from '../../src/automations/runner.js';
import { verifySignature } from '../../src/webhooks/signature.js';

let service: TestService;
let account: TestAccount;

async function gql(query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const res = await service.request({
    method: 'POST',
    url: '/graphql',
    headers: { authorization: account.token, 'content-type': 'application/json', ...headers },
    payload: { query, variables },
  });
  return res.json() as { data?: any; errors?: { message: string; extensions?: { code?: string } }[] };
}

async function ok(query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const body = await gql(query, variables, headers);
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

async function until<T>(what: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await what();
    if (done(value)) return value;
    if (Date.now() > end)
      throw new Error(
        `timed out; last value: ${JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? String(v) : v))}`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
}

const RULE_FIELDS =
  'id name enabled trigger schedule languages sources actions { kind languages status cells environment webhookId }';
const RUN_FIELDS =
  'id ruleId trigger state depth activityId changeId revertedBy error actions { kind ok summary cells jobIds deliveryId publicationId }';

function createRule(projectToken: string, input: Record<string, unknown>) {
  return ok(
    `mutation($p: String, $input: AutomationRuleInput!) { createAutomationRule(projectToken: $p, input: $input) { ${RULE_FIELDS} } }`,
    { p: projectToken, input },
  ).then((d) => d.createAutomationRule);
}

async function runs(projectToken: string, ruleId?: number): Promise<any[]> {
  return (
    await ok(
      `query($p: String, $r: Int) { automationRuns(projectToken: $p, ruleId: $r, size: 100) { ${RUN_FIELDS} } }`,
      { p: projectToken, r: ruleId ?? null },
    )
  ).automationRuns;
}

const ended = (list: any[]) => list.length > 0 && list.every((r) => r.state === 'DONE' || r.state === 'FAILED');

function updateTranslation(projectToken: string, input: Record<string, unknown>, headers: Record<string, string> = {}) {
  return ok(
    `mutation($p: String, $input: UpdateTranslationInput!) { updateTranslation(projectToken: $p, input: $input) { text reviewStatus } }`,
    { p: projectToken, input },
    headers,
  );
}

async function usePseudo(projectToken: string, languages: string[]) {
  for (const languageKey of languages) {
    await ok(
      `mutation($p: String, $l: String!) { setAutoTranslationSettings(projectToken: $p, languageKey: $l, settings: { translationProvider: PSEUDO, targetLanguage: $l, sourceProjectLanguage: "en" }) { languageKey } }`,
      { p: projectToken, l: languageKey },
    );
  }
}

async function statuses(projectToken: string): Promise<Record<string, Record<string, string>>> {
  const rows = await service.db.prisma.$queryRawUnsafe<{ language: string; key: string; status: string }[]>(
    `SELECT l.key AS language, k.key, t."reviewStatus"::text AS status FROM "Translation" t JOIN "Language" l ON l.id = t."languageId"
       JOIN "TranslationKey" k ON k.id = t."keyId" JOIN "Project" p ON p.id = t."projectId" WHERE p."projectToken" = $1`,
    projectToken,
  );
  const out: Record<string, Record<string, string>> = {};
  for (const r of rows) (out[r.language] ??= {})[r.key] = r.status;
  return out;
}

/** A new project with en (default), de and fr, and texts. */
async function project(name: string, texts: Record<string, Record<string, string>>) {
  const created = await account.project(name);
  await importOk(service, created.apiKey, JSON.stringify(texts), {
    uploadFormat: 'multi-language-json',
    importOptions: 'REPLACE_TRANSLATION_IF_FOUND',
  });
  return created;
}

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}
let receiver: { url: string; received: Received[]; server: Server };

beforeAll(async () => {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received, server };
  service = await startTestService({ env: { WEBHOOK_ALLOW_PRIVATE: 'true', JOB_POLL_MS: '100' } });
  account = await service.account();
});
afterAll(async () => {
  await service.close();
  await new Promise<void>((resolve) => receiver.server.close(() => resolve()));
});

describe('triggers and actions', () => {
  it('KEY_CREATED + AUTO_TRANSLATE: a new English key pushed by the CLI is auto-translated into every language, only that key', async () => {
    const p = await project('recipe 1', { en: { old: 'Old text' }, de: { old: '' }, fr: { old: '' } });
    await usePseudo(p.projectToken, ['de', 'fr']);
    const rule = await createRule(p.projectToken, {
      name: 'Translate new English keys',
      trigger: 'KEY_CREATED',
      languages: ['en'],
      actions: [{ kind: 'AUTO_TRANSLATE' }],
    });
    expect(rule).toMatchObject({
      enabled: true,
      trigger: 'KEY_CREATED',
      languages: ['en'],
      actions: [{ kind: 'AUTO_TRANSLATE', languages: [] }],
    });
    // The command-line client's push: an import marked as coming from the CLI.
    await importOk(service, p.apiKey, JSON.stringify({ welcome: 'Welcome aboard' }), {
      uploadFormat: 'single-language-json',
      languageKey: 'en',
      source: 'CLI',
    });
    const [run] = await until(() => runs(p.projectToken), ended);
    expect(run).toMatchObject({
      trigger: 'KEY_CREATED',
      state: 'DONE',
      depth: 1,
      actions: [{ kind: 'AUTO_TRANSLATE', ok: true }],
    });
    expect(run.actions[0].jobIds).toHaveLength(2);
    expect(run.actions[0].summary).toBe('Auto-translation of 1 key started for de, fr');
    const texts = await until(
      () => readTranslations(service.db, p.projectToken),
      (t) => !!t.de?.welcome && !!t.fr?.welcome,
    );
    expect(texts.de!.welcome).toBe(pseudoLocalize('Welcome aboard'));
    expect(texts.fr!.welcome).toBe(pseudoLocalize('Welcome aboard'));
    // Only the changed key: the old one, empty in de, stays empty.
    expect(texts.de!.old ?? '').toBe('');
    // The job's writes carry the automation's origin.
    const jobs = await service.db.prisma.job.findMany({ where: { id: { in: run.actions[0].jobIds } } });
    for (const job of jobs)
      expect(job.origin).toMatchObject({
        actorKind: 'AUTOMATION',
        actorId: String(rule.id),
        source: 'AUTOMATION',
        automation: { ruleId: rule.id, depth: 1 },
      });
    const written = await until(
      () => service.db.prisma.activity.findMany({ where: { projectId: jobs[0]!.projectId, kind: 'AUTO_TRANSLATION' } }),
      (a) => a.length === 2,
    );
    expect(written.map((a) => a.source)).toEqual(['AUTOMATION', 'AUTOMATION']);
    // A key added without an English text is not one of them; a key in another language neither.
    await importOk(service, p.apiKey, JSON.stringify({ german_only: 'Nur deutsch' }), {
      uploadFormat: 'single-language-json',
      languageKey: 'de',
    });
    await new Promise((r) => setTimeout(r, 400));
    expect(await runs(p.projectToken)).toHaveLength(1);
  });

  it("TEXTS_CHANGED + SET_REVIEW_STATUS on the other languages (the editor's one-cell write), and the run reverts as one change", async () => {
    const p = await project('recipe 3', {
      en: { title: 'Title', body: 'Body' },
      de: { title: 'Titel', body: 'Inhalt' },
      fr: { title: 'Titre', body: 'Corps' },
    });
    for (const language of ['de', 'fr'])
      for (const key of ['title', 'body'])
        await updateTranslation(p.projectToken, { key, language, reviewStatus: 'REVIEWED' });
    const rule = await createRule(p.projectToken, {
      name: 'Source changed: not reviewed',
      trigger: 'TEXTS_CHANGED',
      languages: ['en'],
      sources: ['CONSOLE'],
      actions: [{ kind: 'SET_REVIEW_STATUS', status: 'NOT_REVIEWED', cells: 'OTHER_LANGUAGES' }],
    });
    // From the API (not the console): the source filter leaves it alone.
    await updateTranslation(p.projectToken, { key: 'body', language: 'en', text: 'Body, new' });
    // From the console: the rule runs.
    await updateTranslation(
      p.projectToken,
      { key: 'title', language: 'en', text: 'New title' },
      { 'x-change-source': 'WEB' },
    );
    const [run] = await until(() => runs(p.projectToken, rule.id), ended);
    expect(run).toMatchObject({
      state: 'DONE',
      actions: [{ kind: 'SET_REVIEW_STATUS', ok: true, cells: 2, summary: '2 cells set to NOT_REVIEWED' }],
    });
    expect(await statuses(p.projectToken)).toMatchObject({
      de: { title: 'NOT_REVIEWED', body: 'REVIEWED' },
      fr: { title: 'NOT_REVIEWED', body: 'REVIEWED' },
    });
    const change = await service.db.prisma.activity.findUniqueOrThrow({ where: { id: BigInt(run.changeId) } });
    expect(change).toMatchObject({
      kind: 'AUTOMATION',
      actorKind: 'AUTOMATION',
      actorId: String(rule.id),
      source: 'AUTOMATION',
      cells: 2,
    });
    await runs(p.projectToken);

    const reverted = await ok(
      `mutation($p: String, $id: ID!) { revertAutomationRun(projectToken: $p, id: $id) { activityId reverted changedSince } }`,
      { p: p.projectToken, id: run.id },
    );
    expect(reverted.revertAutomationRun).toMatchObject({ reverted: 2, changedSince: 0 });
    expect(await statuses(p.projectToken)).toMatchObject({ de: { title: 'REVIEWED' }, fr: { title: 'REVIEWED' } });
    const [after] = await runs(p.projectToken, rule.id);
    expect(after.revertedBy).toBe(reverted.revertAutomationRun.activityId);
    const again = await gql(
      `mutation($p: String, $id: ID!) { revertAutomationRun(projectToken: $p, id: $id) { reverted } }`,
      { p: p.projectToken, id: run.id },
    );
    expect(again.errors?.[0]?.extensions?.code).toBe('CONFLICT');
  });

  it('TEXTS_CHANGED + CLEAR_OTHER_LANGUAGES: a changed source text empties its translations', async () => {
    const p = await project('clear', { en: { a: 'A', b: 'B' }, de: { a: 'A-de', b: 'B-de' } });
    await createRule(p.projectToken, {
      name: 'Clear',
      trigger: 'TEXTS_CHANGED',
      languages: ['en'],
      actions: [{ kind: 'CLEAR_OTHER_LANGUAGES' }],
    });
    await updateTranslation(p.projectToken, { key: 'a', language: 'en', text: 'A changed' });
    const [run] = await until(() => runs(p.projectToken), ended);
    expect(run.actions).toMatchObject([{ kind: 'CLEAR_OTHER_LANGUAGES', ok: true, cells: 1 }]);
    const texts = await readTranslations(service.db, p.projectToken);
    expect(texts.de).toMatchObject({ a: '', b: 'B-de' });
  });

  it("REVIEW_STATUS_CHANGED + WEBHOOK: a signed delivery through the webhooks' outbox", async () => {
    const p = await project('hook', { en: { a: 'A' }, de: { a: 'A-de' } });
    const created = await ok(
      `mutation($p: String, $url: String!) { createWebhook(projectToken: $p, input: { url: $url, triggers: [IMPORT] }) { webhook { id } secret } }`,
      { p: p.projectToken, url: receiver.url },
    );
    const { webhook, secret } = created.createWebhook;
    await createRule(p.projectToken, {
      name: 'Reviewed German',
      trigger: 'REVIEW_STATUS_CHANGED',
      languages: ['de'],
      reviewStatuses: ['REVIEWED'],
      actions: [{ kind: 'WEBHOOK', webhookId: webhook.id }],
    });
    const before = receiver.received.length;
    await updateTranslation(p.projectToken, { key: 'a', language: 'de', reviewStatus: 'REVIEWED' });
    const [run] = await until(() => runs(p.projectToken), ended);
    expect(run.actions).toMatchObject([{ kind: 'WEBHOOK', ok: true }]);
    const delivery = await until(
      async () => receiver.received.slice(before),
      (r) => r.length > 0,
    );
    const payload = JSON.parse(delivery[0]!.body);
    expect(payload).toMatchObject({ trigger: 'AUTOMATION', activityId: run.activityId, kind: 'TRANSLATIONS' });
    expect(
      verifySignature(
        secret,
        {
          timestamp: String(delivery[0]!.headers['x-webhook-timestamp']),
          signature: String(delivery[0]!.headers['x-webhook-signature']),
        },
        delivery[0]!.body,
      ),
    ).toBe(true);
  });

  it('IMPORT_FINISHED + PUBLISH: _latest is published after every import', async () => {
    const p = await project('recipe 2', { en: { a: 'A' } });
    await createRule(p.projectToken, {
      name: 'Publish after import',
      trigger: 'IMPORT_FINISHED',
      actions: [{ kind: 'PUBLISH', environment: '_latest' }],
    });
    await importOk(service, p.apiKey, JSON.stringify({ a: 'A2', b: 'B' }), {
      uploadFormat: 'single-language-json',
      languageKey: 'en',
      importOptions: 'REPLACE_TRANSLATION_IF_FOUND',
    });
    const [run] = await until(() => runs(p.projectToken), ended);
    expect(run).toMatchObject({ trigger: 'IMPORT_FINISHED', state: 'DONE', actions: [{ kind: 'PUBLISH', ok: true }] });
    expect(run.actions[0].publicationId).toBeGreaterThan(0);
    const environments = await ok(
      `query($p: String) { environments(projectToken: $p) { key lastPublication { numberOfKeys } } }`,
      { p: p.projectToken },
    );
    const latest = environments.environments.find((e: any) => e.key === '_latest');
    expect(latest.lastPublication).toMatchObject({ numberOfKeys: 2 });
    const publication = await service.db.prisma.publication.findUniqueOrThrow({
      where: { id: run.actions[0].publicationId },
      include: { environment: true },
    });
    expect(publication.environment.key).toBe('_latest');
  });

  it("AUTO_TRANSLATION_FINISHED + SET_REVIEW_STATUS: a job's texts are marked reviewed when it succeeds", async () => {
    const p = await project('after job', { en: { a: 'Apple', b: 'Banana' }, de: { a: '' } });
    await createRule(p.projectToken, {
      name: 'Trust the engine',
      trigger: 'AUTO_TRANSLATION_FINISHED',
      actions: [{ kind: 'SET_REVIEW_STATUS', status: 'REVIEWED', cells: 'CHANGED' }],
    });
    await ok(
      `mutation($p: String) { autoTranslate(projectToken: $p, input: { translationProvider: PSEUDO, targets: [{ targetProjectLanguage: "de", targetLanguage: "de" }], sourceProjectLanguage: "en" }) { jobId } }`,
      { p: p.projectToken },
    );
    const [run] = await until(() => runs(p.projectToken), ended);
    expect(run).toMatchObject({
      trigger: 'AUTO_TRANSLATION_FINISHED',
      state: 'DONE',
      actions: [{ kind: 'SET_REVIEW_STATUS', cells: 2 }],
    });
    expect((await statuses(p.projectToken)).de).toEqual({ a: 'REVIEWED', b: 'REVIEWED' });
  });

  it('SCHEDULE: a cron rule fires on its ticks, one run per tick', async () => {
    const p = await project('schedule', { en: { a: 'A' } });
    const rule = await createRule(p.projectToken, {
      name: 'Every second',
      trigger: 'SCHEDULE',
      schedule: '* * * * * *',
      actions: [{ kind: 'PUBLISH' }],
    });
    expect(rule.schedule).toBe('* * * * * *');
    const list = await until(
      () => runs(p.projectToken, rule.id),
      (l) => l.filter((r) => r.state === 'DONE').length >= 2,
      15_000,
    );
    await ok(
      `mutation($p: String, $id: Int!) { setAutomationRuleEnabled(projectToken: $p, id: $id, enabled: false) { enabled } }`,
      { p: p.projectToken, id: rule.id },
    );
    expect(list.every((r) => r.trigger === 'SCHEDULE' && r.activityId === null)).toBe(true);
    const ticks = await service.db.prisma.automationRun.findMany({
      where: { ruleId: rule.id },
      select: { tick: true },
    });
    expect(new Set(ticks.map((t) => t.tick!.toISOString())).size).toBe(ticks.length);
  });
});

describe('rules through GraphQL', () => {
  it('refuses bad rules with clear 4xx errors and answers permissions', async () => {
    const p = await account.project('bad rules');
    const bad = async (input: Record<string, unknown>) =>
      (
        await gql(
          `mutation($p: String, $input: AutomationRuleInput!) { createAutomationRule(projectToken: $p, input: $input) { id } }`,
          { p: p.projectToken, input },
        )
      ).errors?.[0];
    expect(await bad({ name: 'x', trigger: 'SCHEDULE', actions: [{ kind: 'PUBLISH' }] })).toMatchObject({
      extensions: { code: 'BAD_REQUEST' },
      message: expect.stringMatching(/schedule/),
    });
    expect(
      await bad({ name: 'x', trigger: 'SCHEDULE', schedule: 'not a cron', actions: [{ kind: 'PUBLISH' }] }),
    ).toMatchObject({ extensions: { code: 'BAD_REQUEST' } });
    expect(await bad({ name: 'x', trigger: 'TEXTS_CHANGED', actions: [] })).toMatchObject({
      message: 'a rule needs at least one action',
    });
    expect(
      await bad({ name: 'x', trigger: 'TEXTS_CHANGED', languages: ['xx'], actions: [{ kind: 'PUBLISH' }] }),
    ).toMatchObject({ message: "languages: 'xx' not in this project" });
    expect(await bad({ name: 'x', trigger: 'TEXTS_CHANGED', actions: [{ kind: 'SET_REVIEW_STATUS' }] })).toMatchObject({
      extensions: { code: 'BAD_REQUEST' },
    });
    expect(
      await bad({ name: 'x', trigger: 'TEXTS_CHANGED', actions: [{ kind: 'WEBHOOK', webhookId: 999999 }] }),
    ).toMatchObject({ extensions: { code: 'BAD_REQUEST' } });
    expect(
      await bad({ name: 'x', trigger: 'TEXTS_CHANGED', actions: [{ kind: 'PUBLISH', environment: 'nowhere' }] }),
    ).toMatchObject({ extensions: { code: 'BAD_REQUEST' } });
    // A translator may read the rules, not change them.
    const rule = await createRule(p.projectToken, {
      name: 'ok',
      trigger: 'TEXTS_CHANGED',
      actions: [{ kind: 'PUBLISH' }],
    });
    const updated = await ok(
      `mutation($p: String, $id: Int!) { updateAutomationRule(projectToken: $p, id: $id, input: { name: "renamed", namespaces: ["app"] }) { name namespaces trigger actions { kind } } }`,
      { p: p.projectToken, id: rule.id },
    );
    expect(updated.updateAutomationRule).toEqual({
      name: 'renamed',
      namespaces: ['app'],
      trigger: 'TEXTS_CHANGED',
      actions: [{ kind: 'PUBLISH' }],
    });
    const other = await service.account();
    const denied = await service.request({
      method: 'POST',
      url: '/graphql',
      headers: { authorization: other.token, 'content-type': 'application/json' },
      payload: {
        query: `mutation($p: String) { deleteAutomationRule(projectToken: $p, id: ${rule.id}) }`,
        variables: { p: p.projectToken },
      },
    });
    expect(denied.json().errors[0].extensions.code).toBe('NOT_FOUND');
    expect(
      (
        await ok(`mutation($p: String) { deleteAutomationRule(projectToken: $p, id: ${rule.id}) }`, {
          p: p.projectToken,
        })
      ).deleteAutomationRule,
    ).toBe(true);
    expect(
      (await ok(`query($p: String) { automationRules(projectToken: $p) { id } }`, { p: p.projectToken }))
        .automationRules,
    ).toEqual([]);
  });
});

describe('loops', () => {
  it('a rule never fires on its own change; a chain of rules stops at depth 3', async () => {
    const p = await project('loops', { en: { a: 'A' }, de: { a: 'A-de' }, fr: { a: 'A-fr' } });
    // Fires on any review status change, in any language, and changes review statuses itself: its own change would match.
    const self = await createRule(p.projectToken, {
      name: 'Self',
      trigger: 'REVIEW_STATUS_CHANGED',
      actions: [{ kind: 'SET_REVIEW_STATUS', status: 'REVIEWED', cells: 'OTHER_LANGUAGES' }],
    });
    await updateTranslation(p.projectToken, { key: 'a', language: 'de', reviewStatus: 'REVIEWED' });
    await until(() => runs(p.projectToken, self.id), ended);
    await ok(`mutation($p: String, $id: Int!) { deleteAutomationRule(projectToken: $p, id: $id) }`, {
      p: p.projectToken,
      id: self.id,
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(await runs(p.projectToken, self.id)).toHaveLength(0);
    const selfRuns = await service.db.prisma.activity.count({
      where: { projectId: await projectIdOf(service.db, p.projectToken), kind: 'AUTOMATION' },
    });
    expect(selfRuns).toBe(1);

    // Four rules in a cycle that would never end (de REVIEWED → fr REVIEWED → de NOT_REVIEWED → fr NOT_REVIEWED → de REVIEWED …):
    // each run's change starts the next rule's run one level deeper, and the chain stops after depth 3.
    const step = (name: string, from: string, status: string, to: string, set: string) =>
      createRule(p.projectToken, {
        name,
        trigger: 'REVIEW_STATUS_CHANGED',
        languages: [from],
        reviewStatuses: [status],
        actions: [{ kind: 'SET_REVIEW_STATUS', status: set, cells: 'OTHER_LANGUAGES', languages: [to] }],
      });
    await updateTranslation(p.projectToken, { key: 'a', language: 'de', reviewStatus: 'NOT_REVIEWED' });
    await updateTranslation(p.projectToken, { key: 'a', language: 'fr', reviewStatus: 'NOT_REVIEWED' });
    const cycle = [
      await step('1', 'de', 'REVIEWED', 'fr', 'REVIEWED'),
      await step('2', 'fr', 'REVIEWED', 'de', 'NOT_REVIEWED'),
      await step('3', 'de', 'NOT_REVIEWED', 'fr', 'NOT_REVIEWED'),
      await step('4', 'fr', 'NOT_REVIEWED', 'de', 'REVIEWED'),
    ].map((r) => r.id);
    await updateTranslation(p.projectToken, { key: 'a', language: 'de', reviewStatus: 'REVIEWED' });
    await until(
      () => runs(p.projectToken),
      (l) => l.filter((r) => cycle.includes(r.ruleId) && r.state === 'DONE').length >= 3,
    );
    await new Promise((r) => setTimeout(r, 1_000));
    const chain = (await runs(p.projectToken)).filter((r) => cycle.includes(r.ruleId)).reverse();
    expect(chain.map((r) => [r.ruleId, r.depth, r.state])).toEqual([
      [cycle[0], 1, 'DONE'],
      [cycle[1], 2, 'DONE'],
      [cycle[2], 3, 'DONE'],
    ]);
    expect(await statuses(p.projectToken)).toMatchObject({ de: { a: 'NOT_REVIEWED' }, fr: { a: 'NOT_REVIEWED' } });
  });
});

describe('takeover', () => {
  it('a run whose runner died is taken over when its lease expires, after the actions it already did', async () => {
    const p = await project('takeover', { en: { a: 'A' }, de: { a: 'A-de' } });
    const projectId = await projectIdOf(service.db, p.projectToken);
    const rule = await createRule(p.projectToken, {
      name: 'Review then publish',
      trigger: 'IMPORT_FINISHED',
      actions: [{ kind: 'SET_REVIEW_STATUS', status: 'REVIEWED', cells: 'CHANGED' }, { kind: 'PUBLISH' }],
    });
    const importChange = await service.db.prisma.activity.findFirstOrThrow({ where: { projectId, kind: 'IMPORT' } });
    // As a runner leaves it that died after the run's transaction committed, before the publication.
    const run = await service.db.prisma.automationRun.create({
      data: {
        ruleId: rule.id,
        projectId,
        activityId: importChange.id,
        trigger: 'IMPORT_FINISHED',
        state: 'RUNNING',
        attempts: 1,
        committed: true,
        leaseOwner: 'dead-instance',
        leaseExpiresAt: new Date(Date.now() - 1_000),
        log: [{ kind: 'SET_REVIEW_STATUS', ok: true, cells: 2, summary: '2 cells set to REVIEWED', index: 0 }],
      },
    });
    const done = await until(
      () => service.db.prisma.automationRun.findUniqueOrThrow({ where: { id: run.id } }),
      (r) => r.state === 'DONE',
    );
    expect(done.attempts).toBe(2);
    expect(done.leaseOwner).not.toBe('dead-instance');
    expect((done.log as { kind: string; index: number }[]).map((l) => [l.kind, l.index])).toEqual([
      ['SET_REVIEW_STATUS', 0],
      ['PUBLISH', 1],
    ]);
    // The review status action was not done again: no change of the rule, the statuses untouched.
    expect(await service.db.prisma.activity.count({ where: { projectId, kind: 'AUTOMATION' } })).toBe(0);
    expect((await statuses(p.projectToken)).de).toEqual({ a: 'NOT_REVIEWED' });
    expect(await service.db.prisma.publication.count({ where: { projectId } })).toBe(1);
  });
});

describe('exactly once with two runners', () => {
  it('each change runs each rule once, and each schedule tick fires once, with two runners on one database', async () => {
    const quiet = await startTestService({ worker: false });
    try {
      const owner = await quiet.account();
      const p = await owner.project('two runners');
      const headers = { authorization: owner.token, 'content-type': 'application/json' };
      const q = async (query: string, variables: Record<string, unknown>) => {
        const body = (
          await quiet.request({ method: 'POST', url: '/graphql', headers, payload: { query, variables } })
        ).json();
        if (body.errors) throw new Error(JSON.stringify(body.errors));
        return body.data;
      };
      await importOk(
        quiet,
        p.apiKey,
        JSON.stringify({
          en: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, `Text ${i}`])),
          de: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, `Text ${i} de`])),
        }),
        { uploadFormat: 'multi-language-json' },
      );
      const input = {
        name: 'Flip',
        trigger: 'TEXTS_CHANGED',
        languages: ['en'],
        actions: [{ kind: 'SET_REVIEW_STATUS', status: 'REVIEWED', cells: 'OTHER_LANGUAGES' }],
      };
      const rule = (
        await q(
          `mutation($p: String, $input: AutomationRuleInput!) { createAutomationRule(projectToken: $p, input: $input) { id } }`,
          { p: p.projectToken, input },
        )
      ).createAutomationRule;
      const tick = (
        await q(
          `mutation($p: String, $input: AutomationRuleInput!) { createAutomationRule(projectToken: $p, input: $input) { id } }`,
          {
            p: p.projectToken,
            input: { name: 'Tick', trigger: 'SCHEDULE', schedule: '* * * * * *', actions: [{ kind: 'PUBLISH' }] },
          },
        )
      ).createAutomationRule;
      const a = new AutomationRunner({ owner: 'runner-a', pollMs: 20, leaseMs: 10_000 });
      const b = new AutomationRunner({ owner: 'runner-b', pollMs: 20, leaseMs: 10_000 });
      a.start();
      b.start();
      try {
        await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            q(
              `mutation($p: String, $input: UpdateTranslationInput!) { updateTranslation(projectToken: $p, input: $input) { text } }`,
              { p: p.projectToken, input: { key: `k${i}`, language: 'en', text: `Changed ${i}` } },
            ),
          ),
        );
        const projectId = await projectIdOf(quiet.db, p.projectToken);
        const done = await until(
          () => quiet.db.prisma.automationRun.findMany({ where: { ruleId: rule.id } }),
          (l) => l.length === 20 && l.every((r) => r.state === 'DONE'),
          30_000,
        );
        expect(new Set(done.map((r) => String(r.activityId))).size).toBe(20);
        // Each run wrote its one change exactly once.
        expect(await quiet.db.prisma.activity.count({ where: { projectId, kind: 'AUTOMATION' } })).toBe(20);
        expect(done.every((r) => r.attempts === 1)).toBe(true);
        // Several instances took runs (runner-a, runner-b, and the file's first service's runner, which shares the process's database client).
        expect(new Set(done.map((r) => r.leaseOwner)).size).toBeGreaterThanOrEqual(2);
        await until(
          () => quiet.db.prisma.automationRun.count({ where: { ruleId: tick.id, state: 'DONE' } }),
          (n) => n >= 2,
          15_000,
        );
      } finally {
        await a.stop();
        await b.stop();
      }
      const ticks = await quiet.db.prisma.automationRun.findMany({
        where: { ruleId: tick.id },
        select: { tick: true, attempts: true, state: true, log: true },
      });
      expect(new Set(ticks.map((t) => t.tick!.toISOString())).size).toBe(ticks.length);
      // Each tick that ran published once: one publication per run, none twice.
      const published = ticks
        .filter((t) => t.state === 'DONE')
        .map((t) => (t.log as { publicationId?: number }[])[0]!.publicationId);
      expect(new Set(published).size).toBe(published.length);
      expect(ticks.every((t) => t.attempts <= 1)).toBe(true);
    } finally {
      await quiet.close();
    }
  }, 120_000);
});
