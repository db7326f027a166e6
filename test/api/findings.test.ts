// Stored quality-check findings (docs/quality-checks.md): the write gate
// queues the cells it writes, the updater computes their findings in its
// worker threads and stores them; a source change checks the key's other
// languages again, once; a dismissal holds until the text changes; severities
// per project; the CI query and REST endpoint; the publication gate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';

let service: TestService;
let owner: TestAccount;
let api: ProjectApi;
let projectId: number;

async function settled(): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if ((await service.db.prisma.findingQueue.count()) === 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('findings still pending');
}

async function stored(key: string, language: string) {
  const rows = await service.db.prisma.finding.findMany({
    where: { projectId, translation: { key: { key }, language: { key: language } } },
    orderBy: [{ check: 'asc' }, { n: 'asc' }],
  });
  return rows.map((r) => `${r.check}:${r.severity}${r.dismissed ? ':dismissed' : ''}`);
}

beforeAll(async () => {
  service = await startTestService({ env: { FINDINGS_POLL_MS: '50', LOG_LEVEL: 'error' } });
  owner = await service.account();
  api = await projectApi(service, owner, 'Findings');
  await api.post('/api/v1/languages', { key: 'de' });
  await api.post('/api/v1/languages', { key: 'fr' });
  projectId = (await service.db.prisma.project.findFirstOrThrow({ where: { projectToken: api.projectToken } })).id;
});
afterAll(() => service.close());

describe('findings stored on write', () => {
  it('stores the findings of written cells, computed off the request path', async () => {
    const res = await api.post('/api/v1/translations', { content: [
      { key: 'greet', language: 'en', text: 'Hello {name}!' },
      { key: 'greet', language: 'de', text: 'Hallo!' },
      { key: 'greet', language: 'fr', text: 'Bonjour {name} !' },
      { key: 'ok', language: 'en', text: 'Fine' },
      { key: 'ok', language: 'de', text: 'Gut' },
    ] });
    expect(res.msg + res.status).toBe('OK200');
    await settled();
    expect(await stored('greet', 'de')).toEqual(['placeholders-missing:error']);
    expect(await stored('greet', 'fr')).toEqual([]);
    expect(await stored('ok', 'de')).toEqual([]);
  });

  it('a source change checks the other languages again, each once', async () => {
    const queued: { keyId: number; languageId: number; generation: number }[] = [];
    expect((await api.patch('/api/v2/translations', { key: 'greet', language: 'en', text: 'Hello {user}!' })).status).toBe(200);
    queued.push(...await service.db.prisma.findingQueue.findMany({ select: { keyId: true, languageId: true, generation: true } }));
    // en itself, de and fr: three cells, each queued once (generation 1) unless the updater was already there.
    expect(new Set(queued.map((q) => `${q.keyId}:${q.languageId}`)).size).toBeLessThanOrEqual(3);
    await settled();
    expect(await stored('greet', 'de')).toEqual(['placeholders-missing:error']);
    expect(await stored('greet', 'fr')).toEqual(['placeholders-extra:error', 'placeholders-missing:error']);
  });
});
