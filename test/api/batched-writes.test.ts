// Concurrent one-cell writes (src/content/translations/batched-writes.ts): on PGlite
// those that arrive together go as one transaction, each still answered with
// its own result or its own error, and each recorded as its own change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prisma } from '../../src/db.js';
import { runBatched } from '../../src/content/translations/batched-writes.js';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';

describe('concurrent one-cell writes', () => {
  let service: TestService;
  let account: TestAccount;
  let api: ProjectApi;
  beforeAll(async () => {
    service = await startTestService();
    account = await service.account();
    api = await projectApi(service, account, 'Batched');
    const content = Array.from({ length: 20 }, (_, i) => ({ key: `k${i}`, language: 'en', text: `old ${i}` }));
    expect((await api.post('/api/v1/translations', { content })).status).toBe(200);
  });
  afterAll(async () => service?.close());

  it('answers each of 20 simultaneous PATCHes with its own cell, one change each, a locked key refused alone', async () => {
    expect((await api.patch('/api/v1/translation-keys?key=k7', { lock: true })).status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api.patch('/api/v2/translations', { key: `k${i}`, language: 'en', text: `new ${i}` }),
      ),
    );
    answers.forEach((answer, i) => {
      if (i === 7) {
        expect(answer.status).toBe(409);
        expect(answer.msg).toMatch(/locked/);
      } else {
        expect(answer.status).toBe(200);
        expect(answer.data).toMatchObject({ key: `k${i}`, language: 'en', text: `new ${i}` });
      }
    });
    const texts = (await api.get('/api/v2/translations?language=en&size=100')).data
      .map((t: any) => `${t.key}=${t.text}`)
      .sort();
    expect(texts).toContain('k7=old 7');
    expect(texts).toContain('k19=new 19');
    const changes = await prisma().activity.findMany({
      where: { details: { path: ['operation'], equals: 'UPDATE_TRANSLATION' } },
      select: { cells: true },
    });
    expect(changes).toHaveLength(19);
    expect(changes.every((c) => c.cells === 1)).toBe(true);
  });

  it('a failing write of a group fails alone; the others are written and answered', async () => {
    const write = (text: string) => () => [
      prisma().$executeRawUnsafe(`UPDATE "Translation" SET text = $1 WHERE text = $2`, text, 'new 3'),
    ];
    const failing = () => [
      prisma().$queryRawUnsafe(`SELECT 1 / (SELECT count(*) FROM "Translation" WHERE text = 'no such text')::int`),
    ];
    const results = await Promise.allSettled([
      runBatched(write('newer 3')),
      runBatched(failing),
      runBatched(() => [prisma().$queryRawUnsafe(`SELECT 42 AS n`)]),
    ]);
    expect(results[0]).toMatchObject({ status: 'fulfilled', value: [1] });
    expect(results[1]!.status).toBe('rejected');
    expect(results[2]).toMatchObject({ status: 'fulfilled', value: [[{ n: 42 }]] });
    expect((await api.get('/api/v2/translations?key=k3&language=en')).data[0].text).toBe('newer 3');
  });
});
