// A small soak in npm test (bench/soak.ts is the full one): many concurrent
// writes of one project, each acknowledged write present afterwards and no
// answer but 200. Prisma's default transaction wait (2 s for a connection)
// once turned a busy pool into 500s here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';

const WRITES = 600;
let service: TestService;
let apiKey: string;

beforeAll(async () => {
  // The write path under 600 writes at once, every one admitted: shedding under overload is
  // test/api/admission.test.ts's (ADMISSION=false, the default, admits everything at once).
  service = await startTestService({ env: { RATE_LIMIT_PER_MINUTE: '0', ADMISSION: 'false' } });
  const account = await service.account();
  ({ apiKey } = await account.project('soak'));
  const headers = { 'x-service-token': apiKey, 'content-type': 'application/json' };
  await service.request({ method: 'POST', url: '/api/v1/languages', headers, payload: { key: 'de', name: 'German' } });
  const content = Array.from({ length: WRITES }, (_, i) => ({ key: `k${i}`, language: 'de', text: 'seed' }));
  expect(
    (await service.request({ method: 'POST', url: '/api/v1/translations', headers, payload: { content } })).statusCode,
  ).toBe(200);
});
afterAll(() => service?.close());

describe('concurrent writes on one project', () => {
  it(`${WRITES} v2 PATCHes and v1 POSTs at once: all answered 200, all stored`, { timeout: 120_000 }, async () => {
    const headers = { 'x-service-token': apiKey, 'content-type': 'application/json' };
    const answers = await Promise.all(
      Array.from({ length: WRITES }, (_, i) =>
        i % 2
          ? service.request({
              method: 'PATCH',
              url: '/api/v2/translations',
              headers,
              payload: { key: `k${i}`, language: 'de', text: `patched ${i}` },
            })
          : service.request({
              method: 'POST',
              url: '/api/v1/translations',
              headers,
              payload: { content: [{ key: `new${i}`, language: 'de', text: `posted ${i}` }] },
            }),
      ),
    );
    expect(answers.filter((a) => a.statusCode !== 200).map((a) => `${a.statusCode} ${a.body}`)).toEqual([]);
    const stored = new Map<string, string>();
    for (let page = 0; ; page++) {
      const res = await service.request({ url: `/api/v2/translations?language=de&size=500&page=${page}`, headers });
      const cells = res.json().data as { key: string; text: string }[];
      for (const c of cells) stored.set(c.key, c.text);
      if (cells.length < 500) break;
    }
    for (let i = 0; i < WRITES; i++)
      expect(i % 2 ? stored.get(`k${i}`) : stored.get(`new${i}`)).toBe(i % 2 ? `patched ${i}` : `posted ${i}`);
  });
});
