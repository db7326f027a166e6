// Envelope and status mapping for everything that is not a successful call.
import { get, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, startTestService, type TestAccount, type TestService } from '../support/service.js';

let service: TestService;
let account: TestAccount;
beforeAll(async () => {
  service = await startTestService({ listen: true });
  account = await service.account();
});
afterAll(() => service.close());

describe('HTTP errors use the envelope', () => {
  it('malformed JSON is a 400', async () => {
    const res = await fetch(`${service.url}/api/v2/projects`, {
      method: 'POST',
      headers: { authorization: account.token, 'content-type': 'application/json' },
      body: '{"name":',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ status: 400, msg: expect.stringMatching(/JSON/) });
  });
  it('a wrong content type is a 415', async () => {
    const res = await fetch(`${service.url}/api/v2/projects`, {
      method: 'POST',
      headers: { authorization: account.token, 'content-type': 'text/plain' },
      body: 'name=x',
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ status: 415, msg: expect.stringMatching(/content type/) });
  });
  it('an unknown path is a 404', async () => {
    const res = await fetch(`${service.url}/api/v2/nothing-here`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ status: 404, msg: 'No endpoint GET /api/v2/nothing-here' });
  });
  it('an unknown method on a known path is a 405 with Allow', async () => {
    const res = await fetch(`${service.url}/api/v2/projects`, { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, POST');
    expect((await res.json()).status).toBe(405);
  });
  it('never shows a stack trace', async () => {
    const res = await service.request({
      method: 'POST',
      url: '/api/v2/projects',
      headers: { authorization: account.token, 'content-type': 'application/json' },
      payload: '{"name": "\\ud800"',
    });
    expect(res.body).not.toMatch(/at .*\.ts:\d+/);
    envelope(res);
  });
});

describe('health', () => {
  it('reports liveness and database readiness', async () => {
    expect(await (await fetch(`${service.url}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${service.url}/readyz`);
    expect(ready.status).toBe(200);
    expect((await ready.json()).checks.database).toBe('ok');
  });
});

describe('GraphQL over HTTP', () => {
  it('serves GraphiQL to a browser', async () => {
    const res = await fetch(`${service.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/graphiql/i);
  });

  it('sends a JSON answer whole, with its length', async () => {
    const { apiKey } = await account.project('Whole answers');
    const res = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { 'x-service-token': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ languages { key } }' }),
    });
    const body = Buffer.from(await res.arrayBuffer());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/(graphql-response\+)?json/);
    expect(res.headers.get('transfer-encoding')).toBeNull();
    expect(Number(res.headers.get('content-length'))).toBe(body.length);
    expect(JSON.parse(body.toString())).toEqual({ data: { languages: [{ key: 'en' }] } });
  });

  it('streams a subscription over server-sent events as its events happen', async () => {
    const { apiKey } = await account.project('Event stream');
    const headers = { 'x-service-token': apiKey, 'content-type': 'application/json' };
    const abort = new AbortController();
    const res = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { ...headers, accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription { translationChanges { key newText } }' }),
      signal: abort.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let received = '';
    // The first event can only be sent once the stream is open and answered: the write comes after the headers.
    const written = await fetch(`${service.url}/api/v1/translations`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ content: [{ key: 'streamed.key', language: 'en', text: 'Sent while streaming' }] }),
    });
    expect(written.status).toBe(200);
    while (!received.includes('Sent while streaming')) {
      const { value, done } = await reader.read();
      if (done) break;
      received += value;
    }
    abort.abort();
    expect(received).toMatch(/^event: next\ndata: .*"key":"streamed.key","newText":"Sent while streaming"/m);
  });
});

describe('the web console files', () => {
  it('are sent compressed to browsers that accept it (brotli first, then gzip), cached by their hashed names', async () => {
    const html = await (await fetch(`${service.url}/`)).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const plain = await fetch(`${service.url}${script}`, { headers: { 'accept-encoding': 'identity' } });
    const body = Buffer.from(await plain.arrayBuffer());
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    for (const [accepted, encoding] of [
      ['br, gzip', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      // fetch would decode it: the raw bytes are read through node:http.
      const { headers, bytes } = await new Promise<{ headers: IncomingHttpHeaders; bytes: Buffer }>(
        (resolve, reject) => {
          get(`${service.url}${script}`, { headers: { 'accept-encoding': accepted } }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ headers: res.headers, bytes: Buffer.concat(chunks) }));
          }).on('error', reject);
        },
      );
      expect(headers['content-encoding']).toBe(encoding);
      expect(headers.vary).toMatch(/accept-encoding/i);
      expect(bytes.length).toBeLessThan(body.length / 2);
      expect((encoding === 'br' ? brotliDecompressSync(bytes) : gunzipSync(bytes)).equals(body)).toBe(true);
    }
  });
});

describe('the web console code', () => {
  it('loads the editor with the console and every other screen as a chunk of its own', async () => {
    const html = await (await fetch(`${service.url}/`)).text();
    const entry = await (await fetch(`${service.url}${/src="(\/assets\/[^"]+\.js)"/.exec(html)![1]}`)).text();
    // The entry names the screens' chunks (fetched on first use) and holds none of their code: the
    // publication gate's control (its text is the translation key gate.require) is in the hosting chunk only.
    const hosting = /["'](\.?\/?(?:assets\/)?HostingScreen-[\w-]+\.js)["']/.exec(entry)?.[1];
    expect(hosting).toBeDefined();
    expect(entry).not.toContain('gate.require');
    const chunk = await fetch(`${service.url}/assets/${hosting!.split('/').pop()}`);
    expect(chunk.status).toBe(200);
    expect(await chunk.text()).toMatch(/[`'"]gate\.require[`'"]/);
  });
});
