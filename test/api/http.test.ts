// Envelope and status mapping for everything that is not a successful call.
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
    const res = await fetch(`${service.url}/api/v2/projects`, { method: 'POST', headers: { authorization: account.token, 'content-type': 'application/json' }, body: '{"name":' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ status: 400, msg: expect.stringMatching(/JSON/) });
  });
  it('a wrong content type is a 415', async () => {
    const res = await fetch(`${service.url}/api/v2/projects`, { method: 'POST', headers: { authorization: account.token, 'content-type': 'text/plain' }, body: 'name=x' });
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
    const res = await service.request({ method: 'POST', url: '/api/v2/projects', headers: { authorization: account.token, 'content-type': 'application/json' }, payload: '{"name": "\\ud800"' });
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
});
