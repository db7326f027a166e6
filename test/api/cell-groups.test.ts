// One-cell writes that arrive together go as one statement of the write gate
// (a base cell's PATCH with its lookup: namedWrites of
// src/content/translations/update-one.ts; a v1 write after its grouped
// lookup: src/content/translations/cell-groups.ts), each still its own change: its
// Activity row with its cell count, its batch of events, its webhook
// deliveries, its findings entry and its own answer. A group whose statement
// fails is written again write by write; the same cell twice in a burst is
// written by two statements; a group held by a lock does not hold the writes
// of its project that come after it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prisma } from '../../src/db.js';
import { cellGroupStats } from '../../src/content/translations/cell-groups.js';
import { lookupGroupStats, namedWriteStats } from '../../src/content/translations/update-one.js';
import { namedElementStats, v1LookupGroupStats } from '../../src/content/translations/v1-elements.js';
import { SLOW_MS } from '../../src/db/statement-groups.js';
import { startTestService, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { storedCellEvents } from '../support/cell-events.js';

const KEYS = 40;

let service: TestService;
let api: ProjectApi;
let projectId: number;

/** The UPDATE_TRANSLATION changes of the project since `after` (an activity id), oldest first. */
async function changesAfter(after: bigint) {
  return prisma().activity.findMany({
    where: { projectId, id: { gt: after }, details: { path: ['operation'], equals: 'UPDATE_TRANSLATION' } },
    select: { id: true, cells: true },
    orderBy: { id: 'asc' },
  });
}

async function lastActivity(): Promise<bigint> {
  const last = await prisma().activity.findFirst({
    where: { projectId },
    orderBy: { id: 'desc' },
    select: { id: true },
  });
  return last?.id ?? 0n;
}

const patch = (key: string, language: string, text: string) =>
  api.patch('/api/v2/translations', { key, language, text });

describe('grouped one-cell writes', () => {
  beforeAll(async () => {
    service = await startTestService();
    api = await projectApi(service, await service.account(), 'Groups');
    const content = Array.from({ length: KEYS }, (_, i) => [
      { key: `k${i}`, language: 'en', text: `Source ${i}` },
      { key: `k${i}`, language: 'de', text: `Alt ${i}` },
    ]).flat();
    expect((await api.post('/api/v1/translations', { content })).status).toBe(200);
    projectId = (await prisma().translationKey.findFirstOrThrow({ where: { key: 'k0' } })).projectId;
    // Every change of the project queues a delivery: each grouped write must queue its own.
    expect((await api.post('/api/v2/webhooks', { url: 'http://127.0.0.1:9/hook', triggers: ['CHANGE'] })).status).toBe(
      200,
    );
  });
  afterAll(async () => service?.close());

  it('writes a burst in fewer statements than writes, each write its own change, events, delivery and answer', async () => {
    const after = await lastActivity();
    const before = namedWriteStats();
    // Source and translation cells alike: a source text queues its whole key for the checks.
    const writes = Array.from({ length: 30 }, (_, i) => ({
      key: `k${i}`,
      language: i % 3 === 0 ? 'en' : 'de',
      text: `Burst ${i}`,
    }));
    const answers = await Promise.all(writes.map((w) => patch(w.key, w.language, w.text)));
    answers.forEach((answer, i) => {
      expect(answer.status).toBe(200);
      expect(answer.data).toMatchObject({ ...writes[i], reviewStatus: 'NOT_REVIEWED' });
      expect(Date.parse(answer.data.lastModifiedAt)).toBeGreaterThan(0);
    });
    const stats = namedWriteStats();
    expect(stats.items - before.items).toBe(30);
    expect(stats.groups - before.groups).toBeGreaterThan(0);
    expect(stats.statements - before.statements).toBeLessThan(30);
    expect(stats.retried - before.retried).toBe(0);

    const changes = await changesAfter(after);
    expect(changes).toHaveLength(30);
    expect(changes.every((c) => c.cells === 1)).toBe(true);
    const written = new Set<string>();
    for (const change of changes) {
      const events = await storedCellEvents(prisma(), { activityId: change.id });
      expect(events).toHaveLength(1);
      const [event] = events;
      const i = Number(event!.key.slice(1));
      expect(event).toMatchObject({
        key: `k${i}`,
        newText: `Burst ${i}`,
        oldText: i % 3 === 0 ? `Source ${i}` : `Alt ${i}`,
      });
      written.add(event!.key);
    }
    expect(written.size).toBe(30);
    const deliveries = await prisma().webhookDelivery.groupBy({
      by: ['activityId'],
      where: { activityId: { in: changes.map((c) => c.id) } },
      _count: true,
    });
    expect(deliveries).toHaveLength(30);
    expect(deliveries.every((d) => d._count === 1)).toBe(true);
    const texts = (await api.get('/api/v2/translations?size=200')).data as {
      key: string;
      language: string;
      text: string;
    }[];
    for (const w of writes) expect(texts.find((t) => t.key === w.key && t.language === w.language)?.text).toBe(w.text);
  });

  it('writes a burst of PATCHes together with their lookups, each answered as alone: written, unknown key or language, locked, a customer', async () => {
    expect((await api.post('/api/v1/customers', { key: 'acme' })).status).toBe(200);
    expect((await api.patch('/api/v1/translation-keys?key=k38', { lock: true })).status).toBe(200);
    const [before, lookupsBefore, changesBefore] = [namedWriteStats(), lookupGroupStats(), await lastActivity()];
    const requests = [
      ...Array.from({ length: 8 }, (_, i) => ({ key: `k${i}`, language: 'de', text: `Looked up ${i}` })),
      { key: 'no-such-key', language: 'de', text: 'x' },
      { key: 'k1', language: 'xx', text: 'x' },
      { key: 'k38', language: 'de', text: 'locked' },
      { key: 'k2', language: 'de', customerId: 'acme', text: 'Acme 2' },
      { key: 'k3', language: 'de', customerId: 'nobody', text: 'x' },
      { key: 'k4', language: 'en', reviewStatus: 'REVIEWED' },
    ];
    const answers = await Promise.all(requests.map((r) => api.patch('/api/v2/translations', r)));
    const after = namedWriteStats();
    // The base cells' writes each in one statement with its lookup; a customer's override looks up first.
    expect(after.items - before.items).toBe(requests.length - 2);
    expect(after.groups - before.groups).toBeGreaterThan(0);
    expect(after.retried - before.retried).toBe(0);
    expect(lookupGroupStats().items - lookupsBefore.items).toBe(2);
    // A change for each write that went ahead: the eight texts, the override and the review status; none for the
    // unknown key, language or customer, nor for the locked key refused before its write.
    expect(await prisma().activity.count({ where: { projectId, id: { gt: changesBefore } } })).toBe(10);
    answers.slice(0, 8).forEach((answer, i) => {
      expect(answer.status).toBe(200);
      expect(answer.data).toMatchObject({ key: `k${i}`, language: 'de', text: `Looked up ${i}` });
    });
    expect(answers[8]).toMatchObject({ status: 404 });
    expect(answers[8]!.msg).toMatch(/no-such-key/);
    expect(answers[9]).toMatchObject({ status: 404 });
    expect(answers[9]!.msg).toMatch(/xx/);
    expect(answers[10]).toMatchObject({ status: 409 });
    expect(answers[10]!.msg).toMatch(/locked/);
    expect(answers[11]).toMatchObject({ status: 200, data: { key: 'k2', text: 'Acme 2' } });
    expect((await api.get('/api/v2/translations?key=k2&language=de&customerId=acme')).data[0].text).toBe('Acme 2');
    expect((await api.get('/api/v2/translations?key=k2&language=de')).data[0].text).toBe('Looked up 2');
    expect(answers[12]).toMatchObject({ status: 404 });
    expect(answers[12]!.msg).toMatch(/nobody/);
    expect(answers[13]).toMatchObject({ status: 200, data: { key: 'k4', language: 'en', reviewStatus: 'REVIEWED' } });
    expect(answers[13]!.data.text).toBe((await api.get('/api/v2/translations?key=k4&language=en')).data[0].text);
    expect((await api.get('/api/v2/translations?key=k38&language=de')).data[0].text).not.toBe('locked');
    expect((await api.patch('/api/v1/translation-keys?key=k38', { lock: false })).status).toBe(200);
  });

  it('queues each written cell for the quality checks, a source text its whole key', async () => {
    // The checks of the writes above are done first.
    for (let i = 0; i < 400 && (await prisma().findingQueue.count()) > 0; i++)
      await new Promise((r) => setTimeout(r, 25));
    const keyIds = new Map(
      (await prisma().translationKey.findMany({ where: { projectId } })).map((k) => [k.id, k.key] as const),
    );
    // Two source texts gain a placeholder (their German cells, not written, now miss it); ten German texts gain one.
    const writes = Array.from({ length: 12 }, (_, i) =>
      i < 2
        ? { key: `k${20 + i}`, language: 'en', text: `Source {name} ${i}` }
        : { key: `k${20 + i}`, language: 'de', text: `Hallo {name} ${i}` },
    );
    const answers = await Promise.all(writes.map((w) => patch(w.key, w.language, w.text)));
    for (const answer of answers) expect(answer.status).toBe(200);
    const expected = writes.map((w, i) => `${w.key}:${i < 2 ? 'placeholders-missing' : 'placeholders-extra'}`).sort();
    let found: string[] = [];
    for (let i = 0; i < 400; i++) {
      const findings = await prisma().finding.findMany({
        where: { projectId, check: { in: ['placeholders-missing', 'placeholders-extra'] } },
        select: { keyId: true, check: true },
      });
      found = findings.map((f) => `${keyIds.get(f.keyId)}:${f.check}`).sort();
      if (expected.every((e) => found.includes(e))) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(found).toEqual(expect.arrayContaining(expected));
  });

  it('writes the same cell twice in a burst by two statements, each its own change', async () => {
    const after = await lastActivity();
    const before = namedWriteStats();
    const answers = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => patch('k5', 'de', `Twice ${i}`)),
      ...Array.from({ length: 6 }, (_, i) => patch(`k${10 + i}`, 'de', `Once ${i}`)),
    ]);
    for (const answer of answers) expect(answer.status).toBe(200);
    expect(namedWriteStats().retried - before.retried).toBe(0);
    const changes = await changesAfter(after);
    expect(changes).toHaveLength(12);
    expect(changes.every((c) => c.cells === 1)).toBe(true);
    const final = (await api.get('/api/v2/translations?key=k5&language=de')).data[0].text as string;
    // The cell holds the text of the last of its changes, and that change's event says so.
    const events = await storedCellEvents(prisma(), { projectId });
    const last = events.filter((e) => e.key === 'k5' && e.newText.startsWith('Twice')).at(-1);
    expect(last?.newText).toBe(final);
  });

  it('groups one-cell v1 POSTs by their replace rule, each setting its key last-seen', async () => {
    const after = await lastActivity();
    const seenBefore = new Date();
    await new Promise((r) => setTimeout(r, 5));
    const before = namedElementStats();
    const post = (key: string, text: string, replace: boolean) =>
      api.post(`/api/v1/translations${replace ? '?importOptions=REPLACE_TRANSLATION_IF_FOUND' : ''}`, {
        content: [{ key, language: 'de', text }],
      });
    const answers = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => post(`k${30 + i}`, `Replaced ${i}`, true)),
      ...Array.from({ length: 10 }, (_, i) => post(`k${20 + i}`, `Kept? ${i}`, false)),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.data.processedWithWarnings).toBe(false);
    }
    const stats = namedElementStats();
    expect(stats.items - before.items).toBe(20);
    expect(stats.groups - before.groups).toBeGreaterThan(0);
    expect(stats.retried - before.retried).toBe(0);
    const texts = (await api.get('/api/v2/translations?language=de&size=200')).data as { key: string; text: string }[];
    const textOf = (key: string) => texts.find((t) => t.key === key)?.text;
    for (let i = 0; i < 10; i++) {
      expect(textOf(`k${30 + i}`)).toBe(`Replaced ${i}`);
      expect(textOf(`k${20 + i}`)).not.toBe(`Kept? ${i}`);
    }
    const changes = await prisma().activity.findMany({
      where: { projectId, id: { gt: after } },
      select: { cells: true, details: true },
    });
    expect(changes).toHaveLength(20);
    expect(changes.every((c) => (c.details as { operation: string }).operation === 'IMPORT_TRANSLATIONS_V1')).toBe(
      true,
    );
    expect(changes.map((c) => c.cells).sort()).toEqual([...Array(10).fill(0), ...Array(10).fill(1)]);
    const keys = await prisma().translationKey.findMany({
      where: { projectId, key: { in: Array.from({ length: 20 }, (_, i) => `k${20 + i}`) } },
      select: { lastSeenAt: true },
    });
    expect(keys).toHaveLength(20);
    for (const k of keys) expect(k.lastSeenAt!.getTime()).toBeGreaterThan(seenBefore.getTime());
  });

  it('writes a burst of v1 writes together, each answered as alone: a new key, unknown names, a customer', async () => {
    const [before, namedBefore] = [v1LookupGroupStats(), namedElementStats()];
    const replace = '/api/v1/translations?importOptions=REPLACE_TRANSLATION_IF_FOUND';
    const [fresh, ghost, acme, patched, missing, ...plain] = await Promise.all([
      api.post(replace, { content: [{ key: 'fresh', language: 'de', text: 'Neu' }] }),
      api.post(replace, { content: [{ key: 'k5', language: 'de', customerId: 'ghost', text: 'x' }] }),
      api.post(replace, { content: [{ key: 'k6', language: 'de', customerId: 'acme', text: 'Acme 6' }] }),
      api.patch('/api/v1/translations', { content: [{ key: 'k7', language: 'de', text: 'Patched 7' }] }),
      api.patch('/api/v1/translations', { content: [{ key: 'nope', language: 'de', text: 'x' }] }),
      ...Array.from({ length: 8 }, (_, i) =>
        api.post(replace, { content: [{ key: `k${10 + i}`, language: 'de', text: `Plain ${i}` }] }),
      ),
    ]);
    const after = v1LookupGroupStats();
    // Looked up: the new key and the unknown key (after their one-statement writes found no key) and the two customers'.
    expect(after.items - before.items).toBe(4);
    expect(after.retried - before.retried).toBe(0);
    // One statement with their lookups: the eight plain writes, the PATCH, and the first tries of the new and unknown keys.
    const named = namedElementStats();
    expect(named.items - namedBefore.items).toBe(11);
    expect(named.groups - namedBefore.groups).toBeGreaterThan(0);
    expect(named.retried - namedBefore.retried).toBe(0);
    expect(fresh!.data.processedWithWarnings).toBe(false);
    expect(ghost!.data.processedWithWarnings).toBe(true);
    expect(ghost!.data.message).toMatch(/customer 'ghost' not found/);
    expect(acme!.data.processedWithWarnings).toBe(false);
    expect(patched!.data).toEqual({ numberOfUpdates: 1, numberOfFailures: 0, numberOfInserts: 0, failures: [] });
    expect(missing!.data).toEqual({
      numberOfUpdates: 0,
      numberOfFailures: 1,
      numberOfInserts: 0,
      failures: ["content[0]: key 'nope' is not in the project"],
    });
    for (const answer of plain) expect(answer.data.processedWithWarnings).toBe(false);
    const text = async (query: string) => (await api.get(`/api/v2/translations?language=de&${query}`)).data[0]?.text;
    expect(await text('key=fresh')).toBe('Neu');
    expect(await text('key=k6&customerId=acme')).toBe('Acme 6');
    expect(await text('key=k7')).toBe('Patched 7');
    for (let i = 0; i < 8; i++) expect(await text(`key=k${10 + i}`)).toBe(`Plain ${i}`);
    // Each request opened its own change (the request naming only an unknown customer opened one too, with no cell).
    const ids = await prisma().activity.findMany({ where: { projectId }, orderBy: { id: 'desc' }, take: 13 });
    expect(new Set(ids.map((a) => a.id)).size).toBe(13);
  });

  it('writes a burst of one-cell v1 PATCHes with their lookups in fewer statements than writes', async () => {
    const after = await lastActivity();
    const before = namedElementStats();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        api.patch('/api/v1/translations', { content: [{ key: `k${i}`, language: 'de', text: `V1 patched ${i}` }] }),
      ),
    );
    for (const answer of answers)
      expect(answer.data).toEqual({ numberOfUpdates: 1, numberOfFailures: 0, numberOfInserts: 0, failures: [] });
    const stats = namedElementStats();
    expect(stats.items - before.items).toBe(12);
    expect(stats.groups - before.groups).toBeGreaterThan(0);
    expect(stats.statements - before.statements).toBeLessThan(12);
    const changes = await prisma().activity.findMany({
      where: { projectId, id: { gt: after } },
      select: { cells: true },
    });
    expect(changes.map((c) => c.cells)).toEqual(Array(12).fill(1));
    const texts = (await api.get('/api/v2/translations?language=de&size=200')).data as { key: string; text: string }[];
    for (let i = 0; i < 12; i++) expect(texts.find((t) => t.key === `k${i}`)?.text).toBe(`V1 patched ${i}`);
  });

  it('writes a burst of saves checked against the cell as read (expectedLastModifiedAt) in fewer gate statements than writes', async () => {
    const cell = async (key: string) =>
      (await api.gql(`{ translationKey(key: "${key}") { translations(languages: ["de"]) { lastModifiedAt } } }`)).data
        .translationKey.translations[0].lastModifiedAt as string;
    const versions = await Promise.all(Array.from({ length: 12 }, (_, i) => cell(`k${i}`)));
    const before = cellGroupStats();
    const answers = await Promise.all(
      versions.map((version, i) =>
        api.gql(`mutation ($input: UpdateTranslationInput!) { updateTranslation(input: $input) { text } }`, {
          input: { key: `k${i}`, language: 'de', text: `Checked ${i}`, expectedLastModifiedAt: version },
        }),
      ),
    );
    answers.forEach((answer, i) => expect(answer.data?.updateTranslation.text).toBe(`Checked ${i}`));
    const stats = cellGroupStats();
    expect(stats.items - before.items).toBe(12);
    expect(stats.statements - before.statements).toBeLessThan(12);
    expect(stats.retried - before.retried).toBe(0);
    // Stale now: refused with the cell as it is, nothing written.
    const stale = await api.gql(
      `mutation ($input: UpdateTranslationInput!) { updateTranslation(input: $input) { text } }`,
      { input: { key: 'k0', language: 'de', text: 'Stale', expectedLastModifiedAt: versions[0] } },
    );
    expect(stale.errors![0]).toMatchObject({ extensions: { code: 'CONFLICT', current: { text: 'Checked 0' } } });
  });

  it('writes a group again write by write when its statement fails', async () => {
    // Refuses any statement that opens more than one change: a group's, never a single write's.
    await prisma().$executeRawUnsafe(`CREATE FUNCTION refuse_groups() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF (SELECT count(*) FROM opened) > 1 THEN RAISE EXCEPTION 'a group'; END IF;
        RETURN NULL;
      END $$`);
    await prisma().$executeRawUnsafe(`CREATE TRIGGER refuse_groups AFTER INSERT ON "Activity"
      REFERENCING NEW TABLE AS opened FOR EACH STATEMENT EXECUTE FUNCTION refuse_groups()`);
    try {
      const after = await lastActivity();
      const before = namedWriteStats();
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => patch(`k${i}`, 'de', `Retried ${i}`)));
      answers.forEach((answer, i) => {
        expect(answer.status).toBe(200);
        expect(answer.data.text).toBe(`Retried ${i}`);
      });
      expect(namedWriteStats().retried - before.retried).toBeGreaterThan(0);
      const changes = await changesAfter(after);
      expect(changes).toHaveLength(20);
      expect(changes.every((c) => c.cells === 1)).toBe(true);
    } finally {
      await prisma().$executeRawUnsafe(`DROP TRIGGER refuse_groups ON "Activity"`);
      await prisma().$executeRawUnsafe(`DROP FUNCTION refuse_groups()`);
    }
  });

  it.runIf(process.env.TEST_DB_KIND === 'postgres')(
    'a write held by a lock does not hold the writes after it',
    async () => {
      const key = await prisma().translationKey.findFirstOrThrow({ where: { projectId, key: 'k1' } });
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let locked!: () => void;
      const isLocked = new Promise<void>((r) => (locked = r));
      // Another transaction holds the cell k1/de (as a long import would) until the writes behind it are answered.
      const holder = prisma().$transaction(
        async (tx) => {
          await tx.$queryRawUnsafe(
            `SELECT 1 FROM "Translation" t JOIN "Language" l ON l.id = t."languageId" WHERE t."keyId" = $1 AND l.key = 'de' FOR UPDATE OF t`,
            key.id,
          );
          locked();
          await held;
        },
        { timeout: 30_000 },
      );
      await isLocked;
      const blocked = patch('k1', 'de', 'After the lock');
      await new Promise((r) => setTimeout(r, 20));
      const others = Promise.all(Array.from({ length: 5 }, (_, i) => patch(`k${2 + i}`, 'de', `Meanwhile ${i}`)));
      // Answered while k1 is still locked, or not within 5 s: then they waited for it (the lock is let go either way).
      const first = await Promise.race([
        others.then(() => 'answered'),
        new Promise((r) => setTimeout(() => r('waited'), 5_000)),
      ]);
      release();
      await holder;
      expect(first).toBe('answered');
      for (const answer of await others) expect(answer.status).toBe(200);
      const answer = await blocked;
      expect(answer.status).toBe(200);
      expect(answer.data.text).toBe('After the lock');
      expect(SLOW_MS).toBeLessThan(5_000);
    },
  );
});
