import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { projectApi } from '../support/project-api.js';

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const createCustomers = async (api: Awaited<ReturnType<typeof projectApi>>, count: number) => {
  for (let i = 0; i < count; i++) {
    const res = await api.post('/api/v1/customers', { key: `c${i}` });
    if (res.status !== 200) throw new Error(`customer ${i}: ${res.status} ${res.msg}`);
  }
};

describe('customers per project', () => {
  it('the free plan allows none: 402 naming the limit, nothing created', async () => {
    const api = await projectApi(service, await service.account({ plan: 'free' }), 'Free');
    const res = await api.post('/api/v1/customers', { key: 'acme' });
    expect(res.status).toBe(402);
    expect(res.msg).toBe('The Free plan allows at most 0 customers per project (maxCustomers)');
    expect((await api.get('/api/v1/customers')).data).toEqual([]);
    const gql = await api.gql('mutation { createCustomer(input: {key: "acme"}) { key } }');
    expect(gql.errors?.[0].extensions.code).toBe('PAYMENT_REQUIRED');
  });

  it('the default plan of new accounts (Business) allows 25 per project', async () => {
    const account = await service.account();
    const api = await projectApi(service, account, 'Business');
    await createCustomers(api, 25);
    const res = await api.post('/api/v1/customers', { key: 'one-too-many' });
    expect(res.status).toBe(402);
    expect(res.msg).toMatch(/The Business plan allows at most 25 customers per project/);
    expect((await api.get('/api/v1/customers')).data).toHaveLength(25);
    // The limit is per project: another project of the same account starts at 0.
    const second = await projectApi(service, account, 'Business 2');
    expect((await second.post('/api/v1/customers', { key: 'acme' })).status).toBe(200);
    // Deleting one makes room again.
    expect((await api.delete('/api/v1/customers/c0')).status).toBe(200);
    expect((await api.post('/api/v1/customers', { key: 'replacement' })).status).toBe(200);
  });

  it('the custom plan has no limit', async () => {
    const api = await projectApi(service, await service.account({ plan: 'custom' }), 'Custom');
    await createCustomers(api, 26);
    expect((await api.get('/api/v1/customers')).data).toHaveLength(26);
  });
});

describe('PUBLISH_AFTER_IMPORT', () => {
  const content = [
    { key: 'hello', language: 'en', text: 'Hello' },
    { key: 'hello', language: 'de', text: 'Hallo' },
  ];

  it('is refused on the free plan with 402 before anything is written', async () => {
    const api = await projectApi(service, await service.account({ plan: 'free' }), 'Free import');
    const res = await api.post('/api/v1/translations?importOptions=PUBLISH_AFTER_IMPORT', { content });
    expect(res.status).toBe(402);
    expect(res.msg).toMatch(/PUBLISH_AFTER_IMPORT is not included in the Free plan/);
    expect(await api.counters()).toMatchObject({ keys: 0, unpublishedChanges: 0 });
    expect((await api.get('/api/v1/languages')).data).toEqual([{ key: 'en', description: 'English' }]);
    // Without the option the same import is fine on the free plan.
    expect((await api.post('/api/v1/translations', { content })).status).toBe(200);
  });

  it('publishes to _latest after the import on a paid plan', async () => {
    const api = await projectApi(service, await service.account(), 'Published import');
    const res = await api.post('/api/v1/translations?importOptions=PUBLISH_AFTER_IMPORT', { content });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ uniqueKeysProcessed: 1, processedWithWarnings: false });
    expect(res.data.message).toMatch(/; published to _latest$/);
    expect(await api.counters()).toMatchObject({ keys: 1, unpublishedChanges: 0, translatedPercentage: 1 });
    const status = await api.get('/api/v2/environments/_latest');
    expect(status.data).toMatchObject({ numberOfKeys: 1, numberOfLanguages: 2, numberOfNonEmptyTranslations: 2 });
  });
});
