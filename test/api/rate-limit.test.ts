import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, startTestService, type TestAccount, type TestService } from '../support/service.js';

let service: TestService;
let account: TestAccount;
beforeAll(async () => {
  service = await startTestService({ env: { RATE_LIMIT_PER_MINUTE: '5' } });
  account = await service.account();
});
afterAll(() => service.close());

describe('request rate limit', () => {
  it('answers 429 with Retry-After once a credential exceeds its requests per minute', async () => {
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 7; i++) {
      last = await service.request({ url: '/api/v2/projects', headers: { authorization: account.token } });
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(envelope(last!).msg).toMatch(/Too many requests: at most 5 per minute/);
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
  });
  it('counts each credential on its own and leaves health checks alone', async () => {
    const other = await service.account();
    expect(
      (await service.request({ url: '/api/v2/projects', headers: { authorization: other.token } })).statusCode,
    ).toBe(200);
    for (let i = 0; i < 10; i++) expect((await service.request({ url: '/healthz' })).statusCode).toBe(200);
  });
});
