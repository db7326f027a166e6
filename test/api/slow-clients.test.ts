// Slow clients (src/http/timeouts.ts): stalled headers, a body shorter than its
// Content-Length, a body trickled past the whole-request bound and an idle
// keep-alive connection are each closed (with a 408 in the envelope when an
// answer can still be sent), while a body sent slowly but steadily goes
// through. Raw sockets on loopback against small configured timeouts.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { loadConfig } from '../../src/config.js';

let service: TestService;
let apiKey: string;
let port: number;

beforeAll(async () => {
  service = await startTestService({
    listen: true,
    worker: false,
    env: {
      HEADERS_TIMEOUT_MS: '600',
      BODY_IDLE_TIMEOUT_MS: '600',
      REQUEST_TIMEOUT_MS: '4000',
      KEEP_ALIVE_TIMEOUT_MS: '500',
    },
  });
  ({ apiKey } = await (await service.account()).project('Slow clients'));
  port = Number(new URL(service.url).port);
});
afterAll(() => service.close());

/** A raw connection: what it received, and when the server closed it (ms after opening). */
function open(): { socket: Socket; closed: Promise<{ data: string; ms: number }> } {
  const started = performance.now();
  const socket = connect(port, '127.0.0.1');
  let data = '';
  socket.on('data', (chunk) => (data += chunk.toString('latin1')));
  socket.on('error', () => {});
  const closed = new Promise<{ data: string; ms: number }>((resolve) =>
    socket.on('close', () => resolve({ data, ms: performance.now() - started })),
  );
  return { socket, closed };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const bodyOf = (data: string) => JSON.parse(data.slice(data.indexOf('\r\n\r\n') + 4));

describe('slow clients are disconnected', () => {
  it('headers that stall: closed after HEADERS_TIMEOUT_MS with a 408', async () => {
    const { socket, closed } = open();
    socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n');
    const { data, ms } = await closed;
    expect(data).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(data)).toEqual({ msg: 'The request was not received in time', status: 408 });
    expect(ms).toBeGreaterThan(500);
    expect(ms).toBeLessThan(5000);
  });

  it('a body shorter than its Content-Length: closed after BODY_IDLE_TIMEOUT_MS with a 408, nothing created', async () => {
    const { socket, closed } = open();
    const body = JSON.stringify({ key: 'never', description: 'x'.repeat(50) });
    socket.write(
      `POST /api/v1/translation-keys HTTP/1.1\r\nHost: localhost\r\nX-Service-Token: ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${body.length + 100}\r\n\r\n${body}`,
    );
    const { data, ms } = await closed;
    expect(data).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(data).status).toBe(408);
    expect(ms).toBeGreaterThan(500);
    expect(ms).toBeLessThan(3000);
    const keys = await fetch(`${service.url}/api/v1/translation-keys`, { headers: { 'x-service-token': apiKey } });
    expect(((await keys.json()) as any).data.keys ?? []).toEqual([]);
  });

  it('a chunked body that stalls (no Content-Length): closed after BODY_IDLE_TIMEOUT_MS with a 408', async () => {
    const { socket, closed } = open();
    const chunk = JSON.stringify({ key: 'chunked', description: 'x' });
    socket.write(
      `POST /api/v1/translation-keys HTTP/1.1\r\nHost: localhost\r\nX-Service-Token: ${apiKey}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunk.length.toString(16)}\r\n${chunk}\r\n`,
    );
    const { data, ms } = await closed;
    expect(data).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeGreaterThan(500);
    expect(ms).toBeLessThan(3000);
  });

  it('a request without a body gets no body watch (no timer per GET); one with a body does', async () => {
    // The watch polls every BODY_IDLE_TIMEOUT_MS / 4 (150 ms here).
    const timers = vi.spyOn(globalThis, 'setInterval');
    const watches = () => timers.mock.calls.filter(([, ms]) => ms === 150).length;
    try {
      const read = await fetch(`${service.url}/api/v1/languages`, { headers: { 'x-service-token': apiKey } });
      expect(read.status).toBe(200);
      expect(watches()).toBe(0);
      const write = await fetch(`${service.url}/api/v1/translation-keys`, {
        method: 'POST',
        headers: { 'x-service-token': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ key: 'watched' }),
      });
      expect(write.status).toBe(200);
      expect(watches()).toBe(1);
    } finally {
      timers.mockRestore();
    }
  });

  it('a body sent slowly but steadily (pauses under BODY_IDLE_TIMEOUT_MS, longer in all) goes through', async () => {
    const { socket, closed } = open();
    const body = Buffer.from(JSON.stringify({ key: 'slow', description: 'y'.repeat(40) }));
    socket.write(
      `POST /api/v1/translation-keys HTTP/1.1\r\nHost: localhost\r\nX-Service-Token: ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    const pieces = 8;
    const size = Math.ceil(body.length / pieces);
    for (let i = 0; i < pieces; i++) {
      await sleep(300);
      socket.write(body.subarray(i * size, (i + 1) * size));
    }
    const { data, ms } = await closed;
    expect(ms).toBeGreaterThan(2000);
    expect(data).toMatch(/^HTTP\/1\.1 200 /);
    expect(bodyOf(data).status).toBe(200);
  });

  it('a body trickled past REQUEST_TIMEOUT_MS is cut with a 408', async () => {
    const { socket, closed } = open();
    socket.write(
      `POST /api/v1/translation-keys HTTP/1.1\r\nHost: localhost\r\nX-Service-Token: ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"key":"trickle","description":"`,
    );
    let stop = false;
    const trickle = (async () => {
      while (!stop && !socket.destroyed) {
        socket.write('z');
        await sleep(200);
      }
    })();
    const { data, ms } = await closed;
    stop = true;
    await trickle;
    expect(data).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeGreaterThan(3500);
    expect(ms).toBeLessThan(9000);
  });

  it('an idle keep-alive connection is closed after KEEP_ALIVE_TIMEOUT_MS', async () => {
    const { socket, closed } = open();
    socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
    const { data, ms } = await closed;
    expect(data).toMatch(/^HTTP\/1\.1 200 /);
    expect(ms).toBeGreaterThan(400);
    expect(ms).toBeLessThan(3000);
  });

  it('defaults: generous for real clients', () => {
    expect(loadConfig({}).timeouts).toEqual({
      headersMs: 20_000,
      bodyIdleMs: 30_000,
      requestMs: 900_000,
      keepAliveMs: 72_000,
    });
  });
});
