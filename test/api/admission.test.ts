// Admission by measured capacity (src/http/admission.ts): with one write slot
// held by a request whose body has not arrived yet (a raw socket on
// loopback), further writes wait at most ADMISSION_MAX_QUEUE_MS and those whose
// measured wait is longer are answered at once: 503 in the envelope with
// Retry-After. Reads, health and readiness are answered meanwhile; once the
// slot is free, writes go through again, and a queued write is admitted when
// the slot frees within its wait. Whatever the slots, requests read while the
// event loop was starved (the test's own thread kept busy, as a flood of work
// or a long synchronous task would) are refused at once, health and readiness
// still answered; once the loop is on time again they are admitted.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';

const MAX_QUEUE_MS = 400;
let service: TestService;
let apiKey: string;
let port: number;

beforeAll(async () => {
  service = await startTestService({
    listen: true,
    worker: false,
    env: {
      ADMISSION: 'true',
      ADMISSION_WRITES: '1',
      ADMISSION_READS: '4',
      ADMISSION_MAX_QUEUE_MS: String(MAX_QUEUE_MS),
      // The queue is under test here, not the loop's delay (the last test's service).
      ADMISSION_MAX_LAG_MS: '60000',
      BODY_IDLE_TIMEOUT_MS: '30000',
    },
  });
  ({ apiKey } = await (await service.account()).project('Admission'));
  port = Number(new URL(service.url).port);
  await fetch(`${service.url}/api/v1/languages`, {
    method: 'POST',
    headers: { 'x-service-token': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ key: 'de', name: 'German' }),
  });
  const created = await fetch(`${service.url}/api/v1/translations`, {
    method: 'POST',
    headers: { 'x-service-token': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ content: [{ key: 'held', language: 'de', text: 'before' }] }),
  });
  expect(created.status).toBe(200);
});
afterAll(() => service.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const writes = () => service.admission!.queues.write;

/** A PATCH whose headers are sent and whose body is held back: it holds a write slot until `finish`. */
async function holdWriteSlot(text: string): Promise<{ finish(): Promise<string> }> {
  const running = writes().running;
  const body = JSON.stringify({ key: 'held', language: 'de', text });
  const socket: Socket = connect(port, '127.0.0.1');
  let data = '';
  socket.on('data', (chunk) => (data += chunk.toString()));
  const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write(
    `PATCH /api/v2/translations HTTP/1.1\r\nHost: localhost\r\nX-Service-Token: ${apiKey}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`,
  );
  // Admitted when the slot count moves (the hook runs on the headers alone).
  for (let i = 0; writes().running === running; i++) {
    if (i > 500) throw new Error('the held request was never admitted');
    await sleep(10);
  }
  return {
    async finish() {
      socket.write(body);
      await ended;
      return data;
    },
  };
}

function patch(text: string): Promise<Response> {
  return fetch(`${service.url}/api/v2/translations`, {
    method: 'PATCH',
    headers: { 'x-service-token': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ key: 'held', language: 'de', text }),
  });
}

describe('admission by measured capacity', () => {
  it('refuses writes beyond capacity with 503 and Retry-After, within the queue bound; reads, health and readiness go on', async () => {
    const held = await holdWriteSlot('held text');
    try {
      const shedBefore = writes().shed;
      const answers = await Promise.all(
        Array.from({ length: 60 }, async (_, i) => {
          const res = await patch(`refused ${i}`);
          return { res, body: await res.json() };
        }),
      );
      for (const { res, body } of answers) {
        expect(res.status).toBe(503);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(body).toEqual({
          status: 503,
          msg: expect.stringMatching(/^The service is at capacity for write requests/),
        });
        // Nobody waited for the held slot: it is freed only after every one of these was answered.
      }
      expect(writes().shed - shedBefore).toBe(60);
      expect(writes().waiting).toBe(0);

      // Other classes, health and readiness are not held up by the writes' queue.
      for (const url of ['/healthz', '/readyz', '/api/v1/languages']) {
        const res = await fetch(`${service.url}${url}`, { headers: { 'x-service-token': apiKey } });
        expect(res.status, url).toBe(200);
      }
    } finally {
      // The held write completes; the refused ones changed nothing.
      expect(await held.finish()).toMatch(/^HTTP\/1\.1 200 /);
    }
    const page = await (
      await fetch(`${service.url}/api/v2/translations?language=de&key=held`, {
        headers: { 'x-service-token': apiKey },
      })
    ).json();
    expect(page.data.map((t: { text: string }) => t.text)).toEqual(['held text']);
    // The slot is free again: a write goes through.
    expect((await patch('after')).status).toBe(200);
    expect(writes().running).toBe(0);
  });

  it('a queued write is admitted when the slot frees within its wait', async () => {
    // The held write of the test before counts in the measured service time (seconds): a few quick
    // writes bring it back down, so that a wait is measured within the bound again.
    for (let i = 0; i < 15; i++) expect((await patch(`quick ${i}`)).status).toBe(200);
    expect(writes().serviceMs).toBeLessThan(MAX_QUEUE_MS);
    const held = await holdWriteSlot('held again');
    const queued = patch('queued');
    for (let i = 0; writes().waiting === 0; i++) {
      if (i > 500) throw new Error('the write was never queued');
      await sleep(10);
    }
    expect(writes().waiting).toBe(1);
    expect(await held.finish()).toMatch(/^HTTP\/1\.1 200 /);
    const res = await queued;
    expect(res.status).toBe(200);
    expect((await res.json()).data.text).toBe('queued');
  });
});

/** A connected socket and the whole of what the server sends on it until it closes. */
async function openSocket(to: number): Promise<{ socket: Socket; response: Promise<string> }> {
  const socket = connect(to, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let data = '';
  socket.on('data', (chunk) => (data += chunk.toString()));
  const response = new Promise<string>((resolve) => socket.on('close', () => resolve(data)));
  return { socket, response };
}

describe("admission by the event loop's delay", () => {
  let starved: TestService;
  let key: string;

  beforeAll(async () => {
    starved = await startTestService({
      listen: true,
      worker: false,
      env: { ADMISSION: 'true', ADMISSION_MAX_LAG_MS: '200' },
    });
    ({ apiKey: key } = await (await starved.account()).project('Starved'));
  });
  afterAll(() => starved?.close());

  const languages = () => fetch(`${starved.url}/api/v1/languages`, { headers: { 'x-service-token': key } });

  it('refuses what was read while the loop was starved, answers health and readiness, admits again after', async () => {
    await expect.poll(async () => (await languages()).status, { timeout: 30_000, interval: 100 }).toBe(200);
    const to = Number(new URL(starved.url).port);
    const api = await Promise.all(Array.from({ length: 5 }, () => openSocket(to)));
    const health = await Promise.all(
      ['/healthz', '/readyz'].map(async (path) => ({ path, ...(await openSocket(to)) })),
    );
    // Sent now, read by the service only once this thread (its thread too) has been busy for 1.5 s.
    for (const { socket } of api)
      socket.write(
        `GET /api/v1/languages HTTP/1.1\r\nHost: localhost\r\nX-Service-Token: ${key}\r\nConnection: close\r\n\r\n`,
      );
    for (const { socket, path } of health)
      socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
    const until = performance.now() + 1500;
    while (performance.now() < until);

    for (const answer of await Promise.all(api.map((s) => s.response))) {
      expect(answer).toMatch(/^HTTP\/1\.1 503 /);
      expect(answer).toMatch(/\r\nretry-after: [1-9]\d*\r\n/i);
      expect(answer).toContain('"msg":"The service is at capacity for read requests');
    }
    for (const { path, response } of health) expect(await response, path).toMatch(/^HTTP\/1\.1 200 /);
    expect(starved.admission!.queues.read.running).toBe(0);
    // The loop on time again: admitted.
    await expect.poll(async () => (await languages()).status, { timeout: 30_000, interval: 100 }).toBe(200);
  });
});
