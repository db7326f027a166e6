// Deletions racing the findings updater (PostgreSQL: several connections at
// once). An edit queues its key's findings; a deletion right after it (a
// purge, keys, a language, a customer) deletes the cells, and with them their
// consistency members and findings, while the updater's round writes those.
// Each waited for the other and PostgreSQL ended the deletion as a deadlock: a
// 500, about one purge in ten (src/db.ts, lockProjectContent).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { seedTranslations } from '../support/content.js';

let service: TestService;

describe.runIf(process.env.TEST_DB_KIND === 'postgres')(
  'a deletion right after edits, beside the findings updater',
  () => {
    beforeAll(async () => {
      service = await startTestService();
    });
    afterAll(() => service?.close());

    /** A project with 30 keys in two languages and a customer, and edits that queue findings; returns its API key. */
    async function editedProject(name: string): Promise<Record<string, string>> {
      const account = await service.account();
      const { apiKey, projectToken } = await account.project(name);
      const headers = { 'x-service-token': apiKey };
      const customer = await service.request({
        method: 'POST',
        url: '/api/v1/customers',
        headers,
        payload: { key: 'acme', description: 'Acme' },
      });
      expect(customer.statusCode).toBe(200);
      const texts: Record<string, string> = {};
      for (let k = 0; k < 30; k++) texts[`k${k}`] = `Hello {name} ${k}`;
      await seedTranslations(service.db, { projectToken, translations: { en: texts, de: texts } });
      for (let k = 0; k < 5; k++) {
        const res = await service.request({
          method: 'PATCH',
          url: '/api/v2/translations',
          headers,
          payload: { key: `k${k}`, language: 'en', customerId: 'acme', text: `Hi Acme ${k}` },
        });
        expect(res.statusCode).toBe(200);
      }
      return headers;
    }

    const deletions: [string, (headers: Record<string, string>) => Promise<{ statusCode: number; body: string }>][] = [
      [
        'purge',
        (headers) => service.request({ method: 'DELETE', url: '/api/v1/translations/purge?source=CLI', headers }),
      ],
      [
        'keys',
        (headers) =>
          service.request({
            method: 'DELETE',
            url: '/api/v1/translation-keys/bulk',
            headers,
            payload: { translationKeys: Array.from({ length: 20 }, (_, k) => ({ key: `k${k}`, namespace: '' })) },
          }),
      ],
      ['a language', (headers) => service.request({ method: 'DELETE', url: '/api/v1/languages/de', headers })],
      ['a customer', (headers) => service.request({ method: 'DELETE', url: '/api/v1/customers/acme', headers })],
    ];

    for (const [what, remove] of deletions) {
      it(`deleting ${what} answers 200 every time`, async () => {
        const failed: string[] = [];
        for (let i = 0; i < 25; i++) {
          const headers = await editedProject(`${what} ${i}`);
          const res = await remove(headers);
          if (res.statusCode !== 200) failed.push(`${i}: ${res.statusCode} ${res.body}`);
        }
        expect(failed).toEqual([]);
      }, 240_000);
    }
  },
);
