import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';

let service: TestService;
let api: ProjectApi;

beforeAll(async () => {
  service = await startTestService();
  api = await projectApi(service, await service.account(), 'Customers');
  await api.post('/api/v1/languages', { key: 'de' });
  await api.post('/api/v1/translation-keys', { key: 'title' });
  await api.patch('/api/v2/translations', { key: 'title', language: 'en', text: 'Title' });
});
afterAll(() => service.close());

const customers = async () => (await api.get('/api/v1/customers')).data;

describe('POST /api/v1/customers', () => {
  it('creates a customer and answers it', async () => {
    expect(await api.post('/api/v1/customers', { key: 'acme', description: 'Acme Corp.' })).toEqual({
      status: 200,
      msg: 'OK',
      data: { key: 'acme', description: 'Acme Corp.' },
    });
    expect((await api.post('/api/v1/customers', { key: 'beta' })).data).toEqual({ key: 'beta', description: '' });
  });

  it.each([
    ['a missing key', { description: 'x' }, 400, /key is required/],
    ['an empty key', { key: '' }, 400, /key is required/],
    ['a key over 40 characters', { key: 'c'.repeat(41) }, 400, /key must have at most 40 characters/],
    [
      'a description over 255 characters',
      { key: 'long', description: 'd'.repeat(256) },
      400,
      /description must have at most 255 characters/,
    ],
    ['a key with whitespace', { key: 'a b' }, 400, /key must not contain whitespace/],
    ['a non-string description', { key: 'num', description: 5 }, 400, /description/],
    ['an existing key', { key: 'acme' }, 409, /customer 'acme' already exists/],
  ])('refuses %s and changes nothing', async (_case, payload, status, msg) => {
    const before = await customers();
    const res = await api.post('/api/v1/customers', payload);
    expect(res.status).toBe(status);
    expect(res.msg).toMatch(msg);
    expect(await customers()).toEqual(before);
  });

  it('accepts exactly 40 and 255 characters', async () => {
    const key = 'c'.repeat(40);
    expect((await api.post('/api/v1/customers', { key, description: 'd'.repeat(255) })).status).toBe(200);
    expect((await api.delete(`/api/v1/customers/${key}`)).status).toBe(200);
  });
});

describe('GET /api/v1/customers', () => {
  it('lists the customers by key', async () => {
    expect(await customers()).toEqual([
      { key: 'acme', description: 'Acme Corp.' },
      { key: 'beta', description: '' },
    ]);
  });

  it('gets one customer, 404 for a missing one', async () => {
    expect(await api.get('/api/v1/customers/acme')).toEqual({
      status: 200,
      msg: 'OK',
      data: { key: 'acme', description: 'Acme Corp.' },
    });
    const missing = await api.get('/api/v1/customers/nobody');
    expect(missing.status).toBe(404);
    expect(missing.msg).toMatch(/customer 'nobody' not found/);
  });

  it('keeps projects apart', async () => {
    const other = await projectApi(service, await service.account(), 'Other');
    expect((await other.get('/api/v1/customers')).data).toEqual([]);
    expect((await other.get('/api/v1/customers/acme')).status).toBe(404);
    expect((await other.delete('/api/v1/customers/acme')).status).toBe(404);
    expect((await other.patch('/api/v1/customers/acme', { description: 'x' })).status).toBe(404);
    expect((await service.request({ url: '/api/v1/customers' })).statusCode).toBe(403);
  });
});

describe('customer-specific translations through a customer rename and delete', () => {
  it('renames a customer; its translations follow and the base stays unchanged', async () => {
    expect(
      (
        await api.patch('/api/v2/translations', {
          key: 'title',
          language: 'en',
          customerId: 'acme',
          text: 'Acme title',
        })
      ).status,
    ).toBe(200);
    const before = await api.counters();
    const res = await api.patch('/api/v1/customers/acme', { key: 'acme-inc', description: 'Acme Inc.' });
    expect(res).toEqual({ status: 200, msg: 'OK', data: { key: 'acme-inc', description: 'Acme Inc.' } });
    expect((await api.get('/api/v2/translations?key=title&language=en&customerId=acme-inc')).data).toMatchObject([
      { text: 'Acme title', customerId: 'acme-inc' },
    ]);
    expect((await api.get('/api/v2/translations?key=title&language=en')).data).toMatchObject([
      { text: 'Title', customerId: null },
    ]);
    expect((await api.get('/api/v2/translations?customerId=acme')).status).toBe(404);
    expect(await api.counters()).toEqual(before);
  });

  it('changes only the description when only it is given', async () => {
    expect((await api.patch('/api/v1/customers/beta', { description: 'Beta Ltd.' })).data).toEqual({
      key: 'beta',
      description: 'Beta Ltd.',
    });
  });

  it.each([
    ['a rename to an existing key', 'beta', { key: 'acme-inc' }, 409, /customer 'acme-inc' already exists/],
    ['a missing customer', 'nobody', { description: 'x' }, 404, /customer 'nobody' not found/],
    ['a too long key', 'beta', { key: 'x'.repeat(41) }, 400, /key must have at most 40/],
    ['a too long description', 'beta', { description: 'x'.repeat(256) }, 400, /description must have at most 255/],
  ])('refuses %s', async (_case, customer, payload, status, msg) => {
    const before = await customers();
    const res = await api.patch(`/api/v1/customers/${customer}`, payload);
    expect(res.status).toBe(status);
    expect(res.msg).toMatch(msg);
    expect(await customers()).toEqual(before);
  });

  it('deletes a customer with its translations, leaving the base unchanged', async () => {
    const res = await api.delete('/api/v1/customers/acme-inc');
    expect(res).toEqual({ status: 200, msg: 'OK' });
    expect(await customers()).toEqual([{ key: 'beta', description: 'Beta Ltd.' }]);
    expect(await service.db.prisma.customerTranslation.count()).toBe(0);
    expect((await api.get('/api/v2/translations?key=title&language=en')).data).toMatchObject([{ text: 'Title' }]);
    expect((await api.delete('/api/v1/customers/acme-inc')).status).toBe(404);
  });
});
