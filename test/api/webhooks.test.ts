// Webhooks with a real HTTP receiver on loopback: CRUD (the secret shown once),
// signed deliveries from the transactional outbox, retries after a 500 and a
// dropped connection with the order kept, automatic disabling after a run of
// failures, and SSRF targets refused without WEBHOOK_ALLOW_PRIVATE.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { importOk } from '../support/transfer.js';
import { loadConfig } from '../../src/config.js';
import { WebhookDispatcher } from '../../src/webhooks/dispatcher.js';
import { isPublicAddress } from '../../src/webhooks/safe-target.js';
import { verifySignature } from '../../src/webhooks/signature.js';

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
  payload: any;
}

/** A loopback receiver answering each request with the next scripted reply (200 once the script is used up). */
async function startReceiver() {
  const received: Received[] = [];
  const script: ('500' | 'drop' | '302' | '200')[] = [];
  let always: '500' | undefined;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const reply = always ?? script.shift() ?? '200';
      if (reply === 'drop') return req.socket.destroy();
      received.push({
        headers: req.headers,
        body,
        payload: req.url === '/hook' ? JSON.parse(body) : { redirected: req.url },
      });
      if (reply === '302') return res.writeHead(302, { location: '/elsewhere' }).end();
      res.writeHead(reply === '500' ? 500 : 200, { 'content-type': 'text/plain' });
      res.end(reply === '500' ? 'down for maintenance' : `ok ${'x'.repeat(3000)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    script,
    failAlways(on: boolean) {
      always = on ? '500' : undefined;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let service: TestService;
let account: TestAccount;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let dispatcher: WebhookDispatcher | undefined;

beforeAll(async () => {
  // No worker: each test runs a dispatcher with the configuration it is about.
  service = await startTestService({ worker: false });
  account = await service.account();
  receiver = await startReceiver();
});
afterEach(async () => {
  await dispatcher?.stop();
  dispatcher = undefined;
});
afterAll(async () => {
  await receiver.close();
  await service.close();
});

function dispatch(env: Record<string, string>) {
  const config = loadConfig({ WEBHOOK_RETRY_BASE_MS: '50', WEBHOOK_TIMEOUT_MS: '2000', ...env });
  dispatcher = new WebhookDispatcher({ pollMs: 50, leaseMs: 5_000, config: config.webhooks });
  dispatcher.start();
}

async function until<T>(what: () => Promise<T> | T, ok: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await what();
    if (ok(value)) return value;
    if (Date.now() > end) throw new Error(`timed out; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function createHook(api: ProjectApi, url: string, triggers: string[]) {
  const res = await api.post('/api/v2/webhooks', { url, triggers });
  expect(res.status).toBe(200);
  return res.data as { id: number; secret: string; url: string; triggers: string[]; enabled: boolean };
}

describe('webhook management', () => {
  it('creates, lists, updates and deletes; the secret is shown once and stored sealed', async () => {
    const api = await projectApi(service, account, 'Hooks');
    const created = await createHook(api, 'https://example.com/hook', ['CHANGE', 'import']);
    expect(created).toMatchObject({
      url: 'https://example.com/hook',
      triggers: ['CHANGE', 'IMPORT'],
      enabled: true,
      disabledReason: null,
    });
    expect(created.secret).toMatch(/^whsec_[\w-]{40,}$/);
    const row = await service.db.prisma.webhook.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.secretSealed).not.toContain(created.secret);
    const listed = (await api.get('/api/v2/webhooks')).data;
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    expect(JSON.stringify((await api.gql('{ webhooks { id url } }')).data)).not.toContain(created.secret);
    const updated = await api.patch(`/api/v2/webhooks/${created.id}`, { triggers: ['PUBLICATION'], enabled: false });
    expect(updated.data).toMatchObject({ triggers: ['PUBLICATION'], enabled: false });
    for (const [body, message] of [
      [{ url: 'ftp://example.com', triggers: ['CHANGE'] }, /http or https/],
      [{ url: 'not a url', triggers: ['CHANGE'] }, /absolute/],
      [{ url: 'https://example.com', triggers: ['EVERYTHING'] }, /triggers/],
      [{ url: 'https://example.com', triggers: [] }, /at least one/],
      [{ url: 'https://user:pw@example.com', triggers: ['CHANGE'] }, /credentials/],
    ] as const) {
      const res = await api.post('/api/v2/webhooks', body);
      expect([res.status, res.msg]).toEqual([400, expect.stringMatching(message)]);
    }
    expect((await api.get('/api/v2/webhooks/abc')).status).toBe(400);
    const other = await projectApi(service, await service.account(), 'Other hooks');
    expect((await other.get(`/api/v2/webhooks/${created.id}`)).status).toBe(404);
    expect((await other.delete(`/api/v2/webhooks/${created.id}`)).status).toBe(404);
    expect((await api.delete(`/api/v2/webhooks/${created.id}`)).status).toBe(200);
    expect((await api.get(`/api/v2/webhooks/${created.id}`)).status).toBe(404);
  });
});

describe('deliveries', () => {
  it('queues in the write’s transaction and sends signed payloads; a forged or replayed one fails verification', async () => {
    const api = await projectApi(service, account, 'Signed');
    const hook = await createHook(api, receiver.url, ['CHANGE', 'IMPORT']);
    await api.post('/api/v1/translation-keys', { key: 'greeting' });
    await api.patch('/api/v2/translations', { key: 'greeting', language: 'en', text: 'Hello' });
    await importOk(service, api.apiKey, JSON.stringify({ en: { greeting: 'Hi', other: 'Other' } }), {
      uploadFormat: 'multi-language-json',
      importOptions: 'REPLACE_TRANSLATION_IF_FOUND',
    });
    // Nothing sends yet: the deliveries wait in the outbox, committed with their changes.
    const queued = await service.db.prisma.webhookDelivery.findMany({
      where: { webhookId: hook.id },
      orderBy: { id: 'asc' },
    });
    expect(queued.map((d) => [d.trigger, d.state])).toEqual([
      ['CHANGE', 'PENDING'],
      ['CHANGE', 'PENDING'],
      ['IMPORT', 'PENDING'],
    ]);
    receiver.received.length = 0;
    dispatch({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    const received = await until(
      () => receiver.received,
      (r) => r.length >= 3,
    );
    const [key, cell, imported] = received.map((r) => r.payload);
    expect(key).toMatchObject({
      trigger: 'CHANGE',
      projectToken: api.projectToken,
      projectName: 'Signed',
      accountName: account.email,
      kind: 'KEYS',
      changes: [{ action: 'CREATE_KEY', key: 'greeting', namespace: '' }],
      changesCount: 1,
    });
    expect(cell).toMatchObject({
      trigger: 'CHANGE',
      source: 'API',
      actor: { kind: 'API_KEY' },
      changes: [
        {
          action: 'CHANGE_TRANSLATION',
          key: 'greeting',
          languageKey: 'en',
          oldTranslation: null,
          newTranslation: 'Hello',
        },
      ],
    });
    expect(imported).toMatchObject({
      trigger: 'IMPORT',
      changesCount: 2,
      changesTruncated: false,
      details: { translationsUpdated: 1, translationsInserted: 1 },
    });
    expect(imported.changes.map((c: any) => [c.key, c.oldTranslation, c.newTranslation]).sort()).toEqual([
      ['greeting', 'Hello', 'Hi'],
      ['other', null, 'Other'],
    ]);
    for (const r of received) {
      const headers = {
        timestamp: String(r.headers['x-webhook-timestamp']),
        signature: String(r.headers['x-webhook-signature']),
      };
      expect(verifySignature(hook.secret, headers, r.body)).toBe(true);
      expect(verifySignature(hook.secret, headers, r.body.replace('"trigger"', '"Trigger"'))).toBe(false);
      expect(verifySignature('whsec_wrong', headers, r.body)).toBe(false);
      // Replayed ten minutes later: the timestamp is too old.
      expect(verifySignature(hook.secret, headers, r.body, { now: Number(headers.timestamp) + 600 })).toBe(false);
    }
    // The delivery log: time, URL, duration, status and the first 2 KiB of the answer.
    // The dispatcher records each outcome after the receiver has answered.
    const log = await until(
      async () => (await api.get(`/api/v2/webhooks/${hook.id}/deliveries`)).data,
      (l: any[]) => l.every((d) => d.state !== 'PENDING'),
    );
    expect(log.map((d: any) => d.state)).toEqual(['DELIVERED', 'DELIVERED', 'DELIVERED']);
    expect(log[0].log[0]).toMatchObject({ url: receiver.url, status: 200, error: null });
    expect(log[0].log[0].response).toHaveLength(2048);
    expect(log[0].log[0].durationMs).toBeGreaterThanOrEqual(0);
    // Test-send: a signed TEST delivery.
    const test = await api.post(`/api/v2/webhooks/${hook.id}/test`);
    const last = await until(
      () => receiver.received,
      (r) => r.length >= 4,
    );
    expect(last[3]!.payload).toMatchObject({
      trigger: 'TEST',
      deliveryId: test.data.deliveryId,
      projectToken: api.projectToken,
      changes: [],
    });
    await api.delete(`/api/v2/webhooks/${hook.id}`);
  });

  it('retries after a 500, a dropped connection and a redirect (never followed), keeping the order', async () => {
    const api = await projectApi(service, account, 'Retries');
    const hook = await createHook(api, receiver.url, ['CHANGE']);
    receiver.received.length = 0;
    receiver.script.push('500', 'drop', '302');
    await api.post('/api/v1/translation-keys', { key: 'first' });
    await api.post('/api/v1/translation-keys', { key: 'second' });
    dispatch({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    const received = await until(
      () => receiver.received,
      (r) => r.length >= 4,
    );
    // The 500 was received (and logged); the dropped one never answered; the redirect was not followed; then both in order.
    expect(received.map((r) => r.payload.changes?.[0].key ?? r.payload.redirected)).toEqual([
      'first',
      'first',
      'first',
      'second',
    ]);
    const log = (await api.get(`/api/v2/webhooks/${hook.id}/deliveries`)).data;
    const first = log.find((d: any) => d.attempts === 4);
    expect(first.state).toBe('DELIVERED');
    expect(first.log.map((a: any) => a.status)).toEqual([500, null, 302, 200]);
    expect(first.log[0].response).toBe('down for maintenance');
    expect(first.log[1].error).toMatch(/socket hang up|ECONNRESET|closed/i);
    expect((await api.get(`/api/v2/webhooks/${hook.id}`)).data).toMatchObject({
      enabled: true,
      consecutiveFailures: 0,
    });
    await api.delete(`/api/v2/webhooks/${hook.id}`);
  });

  it('disables a webhook after a run of failures, shows why, and resumes when re-enabled by hand', async () => {
    const api = await projectApi(service, account, 'Failing');
    const hook = await createHook(api, receiver.url, ['CHANGE']);
    receiver.received.length = 0;
    receiver.failAlways(true);
    await api.post('/api/v1/translation-keys', { key: 'doomed' });
    dispatch({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_DISABLE_AFTER_FAILURES: '3' });
    const disabled = await until(
      async () => (await api.get(`/api/v2/webhooks/${hook.id}`)).data,
      (w) => !w.enabled,
    );
    expect(disabled).toMatchObject({
      enabled: false,
      consecutiveFailures: 3,
      disabledReason: expect.stringMatching(/3 failed delivery attempts.*500/),
    });
    // Changes made meanwhile are not queued for a disabled webhook; the pending one waits.
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received).toHaveLength(3);
    receiver.failAlways(false);
    const enabled = await api.patch(`/api/v2/webhooks/${hook.id}`, { enabled: true });
    expect(enabled.data).toMatchObject({ enabled: true, disabledReason: null, consecutiveFailures: 0 });
    await until(
      () => receiver.received,
      (r) => r.length >= 4,
    );
    // The dispatcher records the outcome after the receiver has answered.
    const delivery = await until(
      async () => (await api.get(`/api/v2/webhooks/${hook.id}/deliveries`)).data[0],
      (d) => d.state !== 'PENDING',
    );
    expect(delivery).toMatchObject({ state: 'DELIVERED', attempts: 4 });
    await api.delete(`/api/v2/webhooks/${hook.id}`);
  });

  it('refuses loopback, private, metadata and names resolving to them without WEBHOOK_ALLOW_PRIVATE', async () => {
    const api = await projectApi(service, account, 'SSRF');
    const targets = [
      receiver.url,
      'http://10.1.2.3/hook',
      'http://169.254.169.254/latest/meta-data/',
      `http://localhost:${receiver.port}/hook`,
      'http://[::1]/hook',
      'http://[::ffff:192.168.1.1]/hook',
    ];
    const hooks = [];
    for (const url of targets) hooks.push(await createHook(api, url, ['CHANGE']));
    receiver.received.length = 0;
    await api.post('/api/v1/translation-keys', { key: 'probe' });
    dispatch({ WEBHOOK_DISABLE_AFTER_FAILURES: '1' });
    for (const hook of hooks) {
      const [delivery] = await until(
        async () => (await api.get(`/api/v2/webhooks/${hook.id}/deliveries`)).data,
        (d: any[]) => d[0]?.log.length > 0,
      );
      expect(delivery.log[0]).toMatchObject({
        status: null,
        error: expect.stringMatching(/loopback, private, link-local or reserved/),
      });
    }
    expect(receiver.received).toHaveLength(0);
  });

  it('classifies addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fc00::1',
      '::ffff:127.0.0.1',
      '224.0.0.1',
    ]) {
      expect([address, isPublicAddress(address)]).toEqual([address, false]);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])
      expect([address, isPublicAddress(address)]).toEqual([address, true]);
  });
});
