// The outbound workers (webhook dispatcher, automation runner) are woken by a
// change that queued work for them, and only then (src/content/outbound-queue.ts).
// Their poll is set to ten minutes here, so whatever arrives within seconds
// came from a wake, and a claim sent after a write came from one too.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { prisma } from '../../src/db.js';

let service: TestService;
let account: TestAccount;
let receiver: { url: string; bodies: string[]; server: Server };

async function ok(query: string, variables: Record<string, unknown> = {}) {
  const res = await service.request({
    method: 'POST',
    url: '/graphql',
    headers: { authorization: account.token, 'content-type': 'application/json' },
    payload: { query, variables },
  });
  const body = res.json() as { data?: any; errors?: unknown[] };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

/** Resolves once `done` holds, failing after `ms` (far below the workers' poll). */
async function within(ms: number, done: () => boolean | Promise<boolean>): Promise<void> {
  const end = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The claim statements the outbound workers send while `fn` runs and for `settleMs` after it. */
async function claimsDuring(fn: () => Promise<unknown>, settleMs = 400): Promise<string[]> {
  const client = vi.spyOn(prisma(), '$queryRaw');
  try {
    await fn();
    await new Promise((r) => setTimeout(r, settleMs));
    return client.mock.calls
      .map(
        ([query]) =>
          (query as { text?: string; strings?: string[] }).text ??
          (query as { strings?: string[] }).strings?.join('?') ??
          '',
      )
      .filter((sql) => /\/\* (webhooks|automations):claim \*\//.test(sql));
  } finally {
    client.mockRestore();
  }
}

async function seeded(name: string): Promise<ProjectApi> {
  const api = await projectApi(service, account, name);
  const content = [
    { key: 'a', language: 'en', text: 'A' },
    { key: 'b', language: 'en', text: 'B' },
  ];
  expect((await api.post('/api/v1/translations', { content })).status).toBe(200);
  return api;
}

const patch = (api: ProjectApi, key: string, text: string) =>
  api.patch('/api/v2/translations', { key, language: 'en', text });

beforeAll(async () => {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, bodies, server };
  service = await startTestService({ env: { WEBHOOK_ALLOW_PRIVATE: 'true', JOB_POLL_MS: '600000' } });
  account = await service.account();
});

afterAll(async () => {
  await service?.close();
  await new Promise<void>((resolve) => receiver.server.close(() => resolve()));
});

describe('waking the outbound workers', () => {
  it('a write to a project without webhooks or rules sends no claim', async () => {
    const api = await seeded('Quiet');
    const claims = await claimsDuring(async () => {
      expect((await patch(api, 'a', 'A1')).status).toBe(200);
      expect(
        (await api.post('/api/v1/translations', { content: [{ key: 'c', language: 'en', text: 'C' }] })).status,
      ).toBe(200);
    });
    expect(claims).toEqual([]);
  });

  it('a one-cell write queueing a delivery wakes the dispatcher: it arrives in seconds, not at the poll', async () => {
    const api = await seeded('Hooked');
    await ok(
      `mutation($p: String, $url: String!) { createWebhook(projectToken: $p, input: { url: $url, triggers: [CHANGE] }) { webhook { id } } }`,
      { p: api.projectToken, url: receiver.url },
    );
    const before = receiver.bodies.length;
    const claims = await claimsDuring(async () => {
      expect((await patch(api, 'a', 'A2')).status).toBe(200);
      await within(5_000, () => receiver.bodies.length > before);
    }, 0);
    expect(claims.some((sql) => sql.includes('webhooks:claim'))).toBe(true);
    expect(JSON.parse(receiver.bodies.at(-1)!)).toMatchObject({ trigger: 'CHANGE' });
    // A bulk write through its own opening statement (keys created in the same request) wakes it too.
    const more = receiver.bodies.length;
    expect(
      (await api.post('/api/v1/translations', { content: [{ key: 'new', language: 'en', text: 'N' }] })).status,
    ).toBe(200);
    await within(5_000, () => receiver.bodies.length > more);
  });

  it('a write queueing an automation run wakes the runner, and its webhook action wakes the dispatcher', async () => {
    const api = await seeded('Automated');
    const { createWebhook } = await ok(
      `mutation($p: String, $url: String!) { createWebhook(projectToken: $p, input: { url: $url, triggers: [IMPORT] }) { webhook { id } } }`,
      { p: api.projectToken, url: receiver.url },
    );
    await ok(
      `mutation($p: String, $input: AutomationRuleInput!) { createAutomationRule(projectToken: $p, input: $input) { id } }`,
      {
        p: api.projectToken,
        input: {
          name: 'tell',
          trigger: 'TEXTS_CHANGED',
          actions: [{ kind: 'WEBHOOK', webhookId: createWebhook.webhook.id }],
        },
      },
    );
    const before = receiver.bodies.length;
    expect((await patch(api, 'b', 'B2')).status).toBe(200);
    await within(5_000, () => receiver.bodies.length > before);
    expect(JSON.parse(receiver.bodies.at(-1)!)).toMatchObject({ trigger: 'AUTOMATION' });
  });
});
