// TMX 1.4b into and out of the translation memory: the real files of the
// corpus imported (encodings, inline codes, notes, properties), exported and
// read back with the same segments, notes and properties; their segments
// suggested; hostile files refused with nothing written, also when the fault
// comes after the first batches were written (the file streams into one
// transaction), and every limit (size, pairs, time) refused the same way.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { corpusPath } from '../support/corpus.js';
import { download, multipart } from '../support/transfer.js';
import { parseTmx } from '../../src/formats/tmx.js';
import { TMX_LIMITS } from '../../src/memory/tmx.js';

let service: TestService;
let owner: TestAccount;
beforeAll(async () => {
  service = await startTestService();
  owner = await service.account();
});
afterAll(() => service.close());

const FILES = [
  'okapi_ImportTest2C.tmx',
  'okapi_html_test.tmx',
  'okapi_tmxtest-attributes.out.tmx',
  'omegat_test-match-stat-en-ca.tmx',
  'pontoon_valid_entries.tmx',
];
const corpus = (name: string) => readFileSync(corpusPath('tmx', name));

async function upload(
  headers: Record<string, string>,
  variables: Record<string, unknown>,
  content: Buffer | string,
  name = 'memory.tmx',
) {
  const body = multipart([
    {
      name: 'operations',
      content: JSON.stringify({
        query:
          'mutation($p: String, $m: Int, $f: Upload!) { importTranslationMemory(projectToken: $p, memoryId: $m, file: $f) { imported skipped } }',
        variables: { ...variables, f: null },
      }),
    },
    { name: 'map', content: JSON.stringify({ 0: ['variables.f'] }) },
    { name: '0', fileName: name, content, contentType: 'application/xml' },
  ]);
  const res = await service.request({
    method: 'POST',
    url: '/graphql',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
  return res.json() as { data?: any; errors?: any[] };
}

async function exported(api: ProjectApi, variables: Record<string, unknown> = {}): Promise<Buffer> {
  const out = await service.request({
    method: 'POST',
    url: '/graphql',
    headers: { authorization: owner.token, 'content-type': 'application/json' },
    payload: {
      query:
        'mutation($p: String, $s: String, $t: String) { exportTranslationMemory(projectToken: $p, sourceLanguage: $s, targetLanguage: $t) { url fileName } }',
      variables: { p: api.projectToken, ...variables },
    },
  });
  const body = out.json();
  expect(body.errors).toBeUndefined();
  return download(service, body.data.exportTranslationMemory.url);
}

const segmentCount = async () => service.db.prisma.memorySegment.count();
const comparable = (pairs: Awaited<ReturnType<typeof parseTmx>>['pairs']) =>
  pairs.map((p) => ({
    s: p.source,
    t: p.target,
    sx: p.sourceXml,
    tx: p.targetXml,
    sl: p.sourceLanguage,
    tl: p.targetLanguage,
    n: p.notes,
    p: p.properties,
    tuid: p.tuid,
    by: p.changedBy,
    at: p.changedAt?.getTime() ?? null,
  }));

describe('TMX import and export', () => {
  it.each(FILES)(
    '%s: imported into a project memory and exported with the same segments, notes and properties',
    async (name) => {
      const api = await projectApi(service, owner, `TMX ${name}`);
      const original = await parseTmx(corpus(name), { maxPairs: 100_000 });
      expect(original.pairs.length).toBeGreaterThan(0);
      const result = await upload({ authorization: owner.token }, { p: api.projectToken }, corpus(name), name);
      expect(result.errors).toBeUndefined();
      expect(result.data.importTranslationMemory).toEqual({
        imported: original.pairs.length,
        skipped: original.skipped,
      });
      const back = await parseTmx(await exported(api), { maxPairs: 100_000 });
      expect(comparable(back.pairs)).toEqual(comparable(original.pairs));
    },
  );

  it('reads what the files say: encodings, inline codes, notes and properties', async () => {
    const kit = await parseTmx(corpus('okapi_ImportTest2C.tmx'), { maxPairs: 1000 });
    expect(kit.pairs.some((p) => p.notes.length > 0 && p.properties.length > 0)).toBe(true);
    expect(kit.pairs.some((p) => p.sourceXml?.includes('<bpt'))).toBe(true);
    const win1252 = await parseTmx(corpus('okapi_tmxtest-attributes.out.tmx'), { maxPairs: 1000 });
    expect(win1252.pairs.map((p) => p.target)).toContain('Une entrée dans la MT (file1, group1)');
    expect(win1252.pairs[1]!.properties).toEqual([
      { type: 'Txt::FileName', value: 'file1' },
      { type: 'Txt::GroupName', value: 'group1' },
    ]);
    const utf16 = await parseTmx(corpus('okapi_html_test.tmx'), { maxPairs: 1000 });
    expect(utf16.pairs[0]).toMatchObject({ sourceLanguage: 'en-us', targetLanguage: 'fr-fr' });
  });

  it('suggests imported segments with their origin, and records the import in the activity log', async () => {
    const api = await projectApi(service, owner, 'TMX suggestions');
    await api.post('/api/v1/languages', { key: 'ca' });
    expect(
      (
        await upload(
          { authorization: owner.token },
          { p: api.projectToken },
          corpus('omegat_test-match-stat-en-ca.tmx'),
        )
      ).errors,
    ).toBeUndefined();
    const original = (await parseTmx(corpus('omegat_test-match-stat-en-ca.tmx'), { maxPairs: 1000 })).pairs.find(
      (p) => p.source.includes('%{') && p.source.length > 20,
    )!;
    const res = await api.get(
      `/api/v2/translation-memory/suggestions?targetLanguage=ca&text=${encodeURIComponent(original.source)}`,
    );
    expect(res.status).toBe(200);
    expect(res.data.suggestions[0]).toMatchObject({
      score: 100,
      exact: true,
      text: original.target,
      origin: { kind: 'IMPORTED', projectName: 'TMX suggestions', language: 'ca' },
    });
    const [entry] = (await api.get('/api/v2/activity?size=1')).data;
    expect(entry).toMatchObject({ kind: 'IMPORT' });
  });

  it('a shared memory’s import needs its owner; a translator or an API key may not import into a project', async () => {
    const created = await service.request({
      method: 'POST',
      url: '/graphql',
      headers: { authorization: owner.token, 'content-type': 'application/json' },
      payload: { query: 'mutation { createSharedMemory(name: "TMX shared") { id } }' },
    });
    const memoryId = created.json().data.createSharedMemory.id;
    const ok = await upload({ authorization: owner.token }, { m: memoryId }, corpus('pontoon_valid_entries.tmx'));
    expect(ok.data.importTranslationMemory.imported).toBe(5);
    const stranger = await service.account();
    expect(
      (await upload({ authorization: stranger.token }, { m: memoryId }, corpus('pontoon_valid_entries.tmx')))
        .errors?.[0].extensions.code,
    ).toBe('NOT_FOUND');
    const api = await projectApi(service, owner, 'TMX key');
    expect(
      (await upload({ 'x-service-token': api.apiKey }, {}, corpus('pontoon_valid_entries.tmx'))).errors?.[0].extensions
        .code,
    ).toBe('FORBIDDEN');
  });
});

describe('hostile TMX files', () => {
  const HEADER =
    '<header srclang="en" segtype="sentence" datatype="plaintext" o-tmf="x" adminlang="en" creationtool="x" creationtoolversion="1"/>';
  const laughs = `<?xml version="1.0"?><!DOCTYPE tmx [<!ENTITY a "aaaaaaaaaa">${Array.from({ length: 9 }, (_, i) => `<!ENTITY ${String.fromCharCode(98 + i)} "${`&${String.fromCharCode(97 + i)};`.repeat(10)}">`).join('')}]>
<tmx version="1.4">${HEADER}<body><tu><tuv xml:lang="en"><seg>&j;</seg></tuv><tuv xml:lang="de"><seg>x</seg></tuv></tu></body></tmx>`;
  const external = `<?xml version="1.0"?><!DOCTYPE tmx [<!ENTITY x SYSTEM "file:///etc/passwd">]><tmx version="1.4">${HEADER}<body><tu><tuv xml:lang="en"><seg>&x;</seg></tuv><tuv xml:lang="de"><seg>x</seg></tuv></tu></body></tmx>`;
  const deep = `<tmx version="1.4">${HEADER}<body><tu><tuv xml:lang="en"><seg>${'<hi>'.repeat(100)}x${'</hi>'.repeat(100)}</seg></tuv><tuv xml:lang="de"><seg>x</seg></tuv></tu></body></tmx>`;
  const cases: [string, string][] = [
    ['billion laughs', laughs],
    ['an external entity', external],
    ['nesting 100 deep', deep],
    ['not TMX', '<xliff version="1.2"><file/></xliff>'],
    ['malformed', `<tmx version="1.4">${HEADER}<body><tu><tuv xml:lang="en"><seg>open`],
    [
      'a valid unit, then a broken one',
      `<tmx version="1.4">${HEADER}<body><tu><tuv xml:lang="en"><seg>fine</seg></tuv><tuv xml:lang="de"><seg>gut</seg></tuv></tu><tu><tuv xml:lang="en"></tuv><tuv xml:lang="de"><seg>x</seg></tuv></tu></body></tmx>`,
    ],
  ];
  it.each(cases)('%s: refused with 400, nothing written', async (_name, content) => {
    const api = await projectApi(service, owner, 'Hostile TMX');
    const before = await segmentCount();
    const activity = (await api.get('/api/v2/activity?size=10')).data.length;
    const out = await upload({ authorization: owner.token }, { p: api.projectToken }, content);
    expect(out.errors?.[0].extensions.code).toBe('BAD_REQUEST');
    expect(await segmentCount()).toBe(before);
    expect((await api.get('/api/v2/activity?size=10')).data.length).toBe(activity);
  });
});

describe('TMX files read as a stream', () => {
  const HEADER =
    '<header srclang="en" segtype="sentence" datatype="plaintext" o-tmf="x" adminlang="en" creationtool="x" creationtoolversion="1"/>';
  const units = (n: number) =>
    Array.from(
      { length: n },
      (_, i) =>
        `<tu tuid="u${i}"><tuv xml:lang="en"><seg>Sentence ${i}</seg></tuv><tuv xml:lang="de"><seg>Satz ${i}</seg></tuv></tu>\n`,
    ).join('');
  const tmx = (body: string, tail = '</body></tmx>') => `<tmx version="1.4">${HEADER}<body>\n${body}${tail}`;

  /** Imports `content` into a new project, expecting a refusal with `code`: nothing written, no activity entry. */
  async function refused(content: Buffer | string, code = 'BAD_REQUEST', name = 'memory.tmx') {
    const api = await projectApi(service, owner, 'Streamed TMX');
    const before = await segmentCount();
    const out = await upload({ authorization: owner.token }, { p: api.projectToken }, content, name);
    expect(out.errors?.[0].extensions.code).toBe(code);
    expect(await segmentCount()).toBe(before);
    expect((await api.get('/api/v2/activity?size=10')).data).toEqual([]);
    return out.errors![0].message as string;
  }

  it('a file valid for more than one batch, then broken, is refused whole: nothing of its first batches stays', async () => {
    // 12,000 pairs: two batches of 5,000 are written before the fault is read.
    expect(
      await refused(tmx(units(12_000) + '<tu><tuv xml:lang="en"></tuv><tuv xml:lang="de"><seg>x</seg></tuv></tu>')),
    ).toMatch(/a <tuv> without <seg>/);
    expect(await refused(tmx(units(12_000), '</body>'))).toMatch(/Malformed XML/);
    // The same units, whole, are imported, with one activity entry counting them.
    const api = await projectApi(service, owner, 'Streamed TMX whole');
    const out = await upload({ authorization: owner.token }, { p: api.projectToken }, tmx(units(12_000)));
    expect(out.data.importTranslationMemory).toEqual({ imported: 12_000, skipped: 0 });
    const project = await service.db.prisma.project.findFirstOrThrow({ where: { name: 'Streamed TMX whole' } });
    expect(await service.db.prisma.memorySegment.count({ where: { projectId: project.id } })).toBe(12_000);
    const log = (await api.get('/api/v2/activity?size=10')).data;
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ kind: 'IMPORT' });
  });

  it('a file that is not XML is refused naming what it looks like', async () => {
    expect(await refused('{"en": {"hello": "Hello"}}')).toMatch(/looks like JSON, not a TMX file/);
    expect(await refused(Buffer.from([0x50, 0x4b, 0x03, 0x04, ...Buffer.from('word/document.xml')]))).toMatch(
      /looks like a zip container/,
    );
    expect(await refused(Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)))).toMatch(
      /looks like binary data/,
    );
    expect(await refused('')).toMatch(/empty/);
  });

  it('the limits: size refused before reading, pairs, and the time reading may take', async () => {
    const saved = { ...TMX_LIMITS };
    try {
      TMX_LIMITS.maxBytes = 1000;
      expect(await refused(tmx(units(20)), 'PAYLOAD_TOO_LARGE')).toMatch(/at most 1000 bytes/);
      TMX_LIMITS.maxBytes = saved.maxBytes;
      TMX_LIMITS.maxPairs = 10;
      expect(await refused(tmx(units(11)))).toMatch(/more than 10 translation pairs/);
      TMX_LIMITS.maxPairs = saved.maxPairs;
      TMX_LIMITS.maxSeconds = 0;
      expect(await refused(tmx(units(100)))).toMatch(/took longer than 0 seconds/);
    } finally {
      Object.assign(TMX_LIMITS, saved);
    }
  });
});
