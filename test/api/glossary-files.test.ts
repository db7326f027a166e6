// Glossary files: the real TBX files of the corpus (TBX 2008 with 14
// languages, Microsoft-style entries, windows-1254) imported and exported with
// the same terms, descriptions, parts of speech and translations; TBX v3 and
// CSV read and written; over GraphQL uploads and the REST routes; files that
// are not glossaries, and hostile ones, refused with a 4xx and nothing written,
// also when the fault comes after the first batches were written (the file
// streams into one transaction), and every limit (size, terms, time) the same way.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { corpusPath } from '../support/corpus.js';
import { download, multipart } from '../support/transfer.js';
import { parseTbx } from '../../src/glossary/tbx.js';
import { parseGlossaryCsv } from '../../src/glossary/csv.js';
import { GLOSSARY_LIMITS } from '../../src/glossary/files.js';

let service: TestService;
let owner: TestAccount;
beforeAll(async () => {
  service = await startTestService();
  owner = await service.account();
});
afterAll(() => service.close());

const FILES = ['okapi_medtronic_TBX.tbx', 'pontoon_valid_mozilla_terminology.tbx', 'okapi_test02_win1254.tbx'];
const corpus = (name: string) => readFileSync(corpusPath('tbx', name));

async function upload(
  headers: Record<string, string>,
  variables: Record<string, unknown>,
  content: Buffer | string,
  name: string,
) {
  const body = multipart([
    {
      name: 'operations',
      content: JSON.stringify({
        query:
          'mutation($p: String, $g: Int, $f: Upload!, $format: GlossaryFormat) { importGlossary(projectToken: $p, glossaryId: $g, file: $f, format: $format) { created updated skipped } }',
        variables: { ...variables, f: null },
      }),
    },
    { name: 'map', content: JSON.stringify({ 0: ['variables.f'] }) },
    { name: '0', fileName: name, content, contentType: 'application/octet-stream' },
  ]);
  const res = await service.request({
    method: 'POST',
    url: '/graphql',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
  return { status: res.statusCode, ...(res.json() as { data?: any; errors?: any[] }) };
}

async function exported(api: ProjectApi, format: 'TBX' | 'CSV'): Promise<Buffer> {
  const out = await api.gql('mutation($f: GlossaryFormat!) { exportGlossary(format: $f) { url fileName } }', {
    f: format,
  });
  expect(out.errors).toBeUndefined();
  return download(service, out.data.exportGlossary.url);
}

/** What a term is, comparable across files: text, description, part of speech, flags, translations by language. */
const comparable = (
  terms: {
    term: string;
    description?: string | null;
    partOfSpeech?: string | null;
    forbidden?: boolean | null;
    translations?: { language: string; text: string }[] | null;
  }[],
) =>
  terms
    .map((t) => ({
      term: t.term,
      description: t.description ?? '',
      pos: t.partOfSpeech ?? '',
      forbidden: !!t.forbidden,
      translations: Object.fromEntries((t.translations ?? []).map((x) => [x.language, x.text])),
    }))
    .sort((a, b) => a.term.localeCompare(b.term) || a.pos.localeCompare(b.pos));

describe('TBX import and export', () => {
  it.each(FILES)(
    '%s: imported and exported with the same terms, descriptions, parts of speech and translations',
    async (name) => {
      const api = await projectApi(service, owner, `TBX ${name}`);
      const original = await parseTbx(corpus(name), 'en', { maxTerms: 10_000 });
      expect(original.terms.length).toBeGreaterThan(0);
      const result = await upload({ authorization: owner.token }, { p: api.projectToken }, corpus(name), name);
      expect(result.errors).toBeUndefined();
      expect(result.data.importGlossary).toEqual({
        created: original.terms.length,
        updated: 0,
        skipped: original.skipped,
      });
      const back = await parseTbx(await exported(api, 'TBX'), 'en', { maxTerms: 10_000 });
      expect(comparable(back.terms)).toEqual(comparable(original.terms));
      // And again: the same file a second time updates, creates nothing.
      expect(
        (await upload({ authorization: owner.token }, { p: api.projectToken }, corpus(name), name)).data.importGlossary,
      ).toMatchObject({ created: 0, updated: original.terms.length });
    },
  );

  it('reads what the files say: languages, definitions, parts of speech, statuses, windows-1254', async () => {
    const medtronic = await parseTbx(corpus('okapi_medtronic_TBX.tbx'), 'en', { maxTerms: 1000 });
    const patient = medtronic.terms.find((t) => t.term === 'patient identifier')!;
    expect(patient).toMatchObject({ partOfSpeech: 'noun' });
    expect(patient.description).toMatch(
      /^the capability of a distance telemetry enabled programmer to remotely identify/,
    );
    // 14 languages besides English; the second "da" section (German terms in the sample) adds nothing.
    expect(patient.translations!.map((t) => t.language).sort()).toEqual([
      'cs',
      'da',
      'el',
      'es',
      'fi',
      'fr',
      'hu',
      'it',
      'nl',
      'no',
      'pl',
      'pt',
      'sv',
    ]);
    expect(patient.translations!.find((t) => t.language === 'fr')!.text).toBe('identifiant patient');
    const mozilla = await parseTbx(corpus('pontoon_valid_mozilla_terminology.tbx'), 'en', { maxTerms: 1000 });
    expect(
      mozilla.terms
        .filter((t) => t.term === 'abuse')
        .map((t) => t.partOfSpeech)
        .sort(),
    ).toEqual(['Noun', 'Verb']);
    expect(mozilla.terms[0]).toMatchObject({
      term: 'abnormality',
      translations: [{ language: 'pl', text: 'nieprawidłowość' }],
    });
    const turkish = await parseTbx(corpus('okapi_test02_win1254.tbx'), 'en', { maxTerms: 10 });
    expect(turkish.terms).toEqual([
      expect.objectContaining({
        term: 'term with: éá and İı',
        translations: [{ language: 'tr', text: 'tr term with: éá and İı' }],
      }),
    ]);
  });

  it('reads TBX v3 core (conceptEntry, langSec, termSec) with our flags', async () => {
    const v3 = `<?xml version="1.0" encoding="UTF-8"?>
<tbx style="dct" type="TBX-Core" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2"><tbxHeader><fileDesc><sourceDesc><p>v3</p></sourceDesc></fileDesc></tbxHeader>
<text><body><conceptEntry id="c1"><descrip type="definition">A stored document</descrip>
<langSec xml:lang="en"><termSec><term>file</term><termNote type="partOfSpeech">noun</termNote></termSec></langSec>
<langSec xml:lang="de"><termSec><term>Datei</term></termSec></langSec></conceptEntry>
<conceptEntry id="c2"><langSec xml:lang="en"><termSec><term>kill</term><termNote type="administrativeStatus">deprecatedTerm-admn-sts</termNote></termSec></langSec></conceptEntry>
<conceptEntry id="c3"><langSec xml:lang="fr"><termSec><term>seulement</term></termSec></langSec></conceptEntry></body></text></tbx>`;
    const parsed = await parseTbx(Buffer.from(v3), 'en-US', { maxTerms: 10 });
    expect(comparable(parsed.terms)).toEqual([
      { term: 'file', description: 'A stored document', pos: 'noun', forbidden: false, translations: { de: 'Datei' } },
      { term: 'kill', description: '', pos: '', forbidden: true, translations: {} },
    ]);
    expect(parsed.skipped).toBe(1);
  });
});

describe('CSV import and export', () => {
  it('reads term, description, flags and one column per language, and writes the same back', async () => {
    const api = await projectApi(service, owner, 'CSV glossary');
    const csv =
      'term,description,partOfSpeech,forbidden,doNotTranslate,de,fr\nfile,"A document, on disk",noun,,,Datei,fichier\nAcme,,,no,yes,,\nkill,,,yes,,,\n';
    const result = await upload({ 'x-service-token': api.apiKey }, {}, csv, 'terms.csv');
    expect(result.errors).toBeUndefined();
    expect(result.data.importGlossary).toEqual({ created: 3, updated: 0, skipped: 0 });
    const back = (await parseGlossaryCsv(await exported(api, 'CSV'), { maxTerms: 10 })).terms;
    expect(comparable(back)).toEqual(comparable((await parseGlossaryCsv(Buffer.from(csv), { maxTerms: 10 })).terms));
    expect(back.find((t) => t.term === 'Acme')).toMatchObject({ doNotTranslate: true, forbidden: false });
  });
});

describe('REST', () => {
  it('imports, lists, matches and exports through /api/v2/glossary', async () => {
    const api = await projectApi(service, owner, 'REST glossary');
    const body = multipart([
      { name: 'file', fileName: 'mozilla.tbx', content: corpus('pontoon_valid_mozilla_terminology.tbx') },
    ]);
    const res = await service.request({
      method: 'POST',
      url: '/api/v2/glossary/import',
      headers: { 'x-service-token': api.apiKey, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.created).toBeGreaterThan(1);
    const list = await api.get('/api/v2/glossary/terms?search=abuse');
    expect(list.data.terms.map((t: any) => [t.term, t.partOfSpeech])).toEqual([
      ['abuse', 'Noun'],
      ['abuse', 'Verb'],
    ]);
    const matches = await api.get(
      `/api/v2/glossary/matches?targetLanguage=pl&text=${encodeURIComponent('Report abuse of an abnormality')}`,
    );
    expect(matches.data.map((m: any) => m.text)).toEqual(['abuse', 'abuse', 'abnormality']);
    const exportedFile = await api.get('/api/v2/glossary/export?format=TBX');
    expect(exportedFile.status).toBe(200);
    expect((await download(service, exportedFile.data.url)).toString()).toContain('<term>nieprawidłowość</term>');
    // The import is one change of the activity log: reverting it takes back every term it created.
    const change = (await api.get('/api/v2/activity?size=1')).data[0];
    expect(change.kind).toBe('IMPORT');
    const reverted = await service.request({
      method: 'POST',
      url: '/graphql',
      headers: { authorization: owner.token, 'content-type': 'application/json' },
      payload: {
        query:
          'mutation($p: String, $id: ID!) { revertChange(projectToken: $p, activityId: $id) { unit reverted changedSince } }',
        variables: { p: api.projectToken, id: change.id },
      },
    });
    expect(reverted.json().data.revertChange).toEqual({
      unit: 'GLOSSARY_TERMS',
      reverted: res.json().data.created,
      changedSince: 0,
    });
    expect((await api.get('/api/v2/glossary/terms')).data.total).toBe(0);
    // The flags filter the list.
    for (const input of ['{ term: "kill switch", forbidden: true }', '{ term: "dashboard" }']) {
      expect((await api.gql(`mutation { createGlossaryTerm(input: ${input}) { id } }`)).errors).toBeUndefined();
    }
    expect((await api.get('/api/v2/glossary/terms?forbidden=true')).data.terms.map((t: any) => t.term)).toEqual([
      'kill switch',
    ]);
    expect((await api.get('/api/v2/glossary/terms?forbidden=false')).data.terms.map((t: any) => t.term)).toEqual([
      'dashboard',
    ]);
    expect((await api.get('/api/v2/glossary/terms?forbidden=yes')).status).toBe(400);
  });
});

describe('bad files', () => {
  const refused = async (content: Buffer | string, name: string, format?: string) => {
    const api = await projectApi(service, owner, `Bad ${name}`);
    const before = await service.db.prisma.glossaryTerm.count();
    const out = await upload(
      { authorization: owner.token },
      { p: api.projectToken, ...(format && { format }) },
      content,
      name,
    );
    expect(out.data).toBeNull();
    expect(await service.db.prisma.glossaryTerm.count()).toBe(before);
    return { code: out.errors?.[0]?.extensions?.code, message: out.errors?.[0]?.message as string };
  };

  it('names what a file looks like when it is not a glossary', async () => {
    expect(await refused('{"hello": "world"}', 'terms.tbx')).toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('looks like JSON'),
    });
    expect(
      await refused('<?xml version="1.0"?><resources><string name="a">b</string></resources>', 'strings.tbx'),
    ).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('<resources>') });
    expect(await refused(readFileSync(corpusPath('tmx', 'pontoon_valid_entries.tmx')), 'memory.tbx')).toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('<tmx>'),
    });
    expect(await refused('<?xml version="1.0"?><martif/>', 'x.csv', 'CSV')).toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('looks like XML'),
    });
    expect(await refused('description,de\nx,y\n', 'x.csv')).toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('no "term" column'),
    });
  });

  it('refuses hostile XML and bad terms whole, writing nothing', async () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE martif [<!ENTITY a "aaaaaaaaaa">${Array.from({ length: 9 }, (_, i) => `<!ENTITY ${'b'.repeat(i + 1)} "${`&${i ? 'b'.repeat(i) : 'a'};`.repeat(10)}">`).join('')}]><martif><text><body><termEntry><langSet xml:lang="en"><tig><term>&bbbbbbbbb;</term></tig></langSet></termEntry></body></text></martif>`;
    expect((await refused(laughs, 'laughs.tbx')).code).toBe('BAD_REQUEST');
    const external =
      '<?xml version="1.0"?><!DOCTYPE martif [<!ENTITY x SYSTEM "file:///etc/passwd">]><martif><text><body/></text></martif>';
    expect((await refused(external, 'external.tbx')).code).toBe('BAD_REQUEST');
    expect((await refused('term,de\nok,gut\nbad,"' + 'x'.repeat(600) + '"\n', 'long.csv')).message).toMatch(
      /term 2: translations.de: at most 500/,
    );
  });
});

describe('glossary files read as a stream', () => {
  const entries = (n: number, from = 0) =>
    Array.from(
      { length: n },
      (_, i) =>
        `<termEntry><langSet xml:lang="en"><tig><term>term ${from + i}</term></tig></langSet><langSet xml:lang="de"><tig><term>Begriff ${from + i}</term></tig></langSet></termEntry>\n`,
    ).join('');
  const tbx = (body: string, tail = '</body></text></martif>') =>
    `<?xml version="1.0"?><martif type="TBX-Basic" xml:lang="en"><text><body>\n${body}${tail}`;
  const rows = (n: number) => Array.from({ length: n }, (_, i) => `term ${i},Begriff ${i}\n`).join('');

  /** Imports into a new project, expecting a refusal with `code`: no term written, no activity entry. */
  async function refused(content: Buffer | string, name: string, code = 'BAD_REQUEST') {
    const api = await projectApi(service, owner, `Streamed ${name}`);
    const before = await service.db.prisma.glossaryTerm.count();
    const out = await upload({ authorization: owner.token }, { p: api.projectToken }, content, name);
    expect(out.errors?.[0]?.extensions?.code).toBe(code);
    expect(await service.db.prisma.glossaryTerm.count()).toBe(before);
    expect((await api.get('/api/v2/activity?size=10')).data).toEqual([]);
    return out.errors![0].message as string;
  }

  it('a file valid for more than one batch, then broken, is refused whole: nothing of its first batches stays', async () => {
    // 5,000 terms: two batches of 2,000 are written before the fault is read.
    expect(
      await refused(
        tbx(entries(5_000) + '<termEntry><langSet xml:lang="en"><tig><term>x</tig></langSet></termEntry>'),
        'broken.tbx',
      ),
    ).toMatch(/Malformed XML/);
    expect(
      await refused(`term,de,forbidden\n${rows(5_000).replace(/\n/g, ',no\n')}bad,x,maybe\n`, 'broken.csv'),
    ).toMatch(/line 5002, forbidden: "maybe" is not yes or no/);
    expect(await refused(`term,de\n${rows(5_000)}${'x'.repeat(600)},y\n`, 'long.csv')).toMatch(
      /term 5001: term: at most 500/,
    );
  });

  it('a term given again in a later batch keeps its first reading and adds the languages it lacked', async () => {
    const api = await projectApi(service, owner, 'Streamed repeats');
    const repeat =
      '<termEntry><descrip type="definition">second</descrip><langSet xml:lang="en"><tig><term>term 1</term></tig></langSet><langSet xml:lang="de"><tig><term>Zweiter</term></tig></langSet><langSet xml:lang="fr"><tig><term>terme 1</term></tig></langSet></termEntry>';
    const out = await upload(
      { authorization: owner.token },
      { p: api.projectToken },
      tbx(entries(4_500) + repeat),
      'r.tbx',
    );
    expect(out.errors).toBeUndefined();
    expect(out.data.importGlossary).toEqual({ created: 4_500, updated: 0, skipped: 0 });
    const listed = await api.get('/api/v2/glossary/terms?search=terme%201');
    expect(listed.data.terms).toMatchObject([
      {
        term: 'term 1',
        description: '',
        translations: [
          { language: 'de', text: 'Begriff 1' },
          { language: 'fr', text: 'terme 1' },
        ],
      },
    ]);
    // One change, counting each term once; reverting it takes back every term.
    const [change] = (await api.get('/api/v2/activity?size=10')).data;
    expect(change).toMatchObject({ kind: 'IMPORT' });
    const reverted = await service.request({
      method: 'POST',
      url: '/graphql',
      headers: { authorization: owner.token, 'content-type': 'application/json' },
      payload: {
        query: 'mutation($p: String, $id: ID!) { revertChange(projectToken: $p, activityId: $id) { reverted } }',
        variables: { p: api.projectToken, id: change.id },
      },
    });
    expect(reverted.json().data.revertChange.reverted).toBe(4_500);
  });

  it('files of another kind are refused naming what they look like', async () => {
    expect(await refused(Buffer.from([0x50, 0x4b, 0x03, 0x04, ...Buffer.from('xl/workbook.xml')]), 'g.tbx')).toMatch(
      /looks like a zip container/,
    );
    expect(await refused(Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)), 'g.csv')).toMatch(
      /looks like binary data/,
    );
  });

  it('the limits: size refused before reading, terms, and the time reading may take', async () => {
    const saved = { ...GLOSSARY_LIMITS };
    try {
      GLOSSARY_LIMITS.maxBytes = 1000;
      expect(await refused(tbx(entries(20)), 'big.tbx', 'PAYLOAD_TOO_LARGE')).toMatch(/at most 1000 bytes/);
      GLOSSARY_LIMITS.maxBytes = saved.maxBytes;
      GLOSSARY_LIMITS.maxTerms = 10;
      expect(await refused(tbx(entries(11)), 'many.tbx')).toMatch(/more than 10 terms/);
      expect(await refused(`term,de\n${rows(11)}`, 'many.csv')).toMatch(/more than 10 terms/);
      GLOSSARY_LIMITS.maxTerms = saved.maxTerms;
      GLOSSARY_LIMITS.maxSeconds = 0;
      expect(await refused(tbx(entries(100)), 'slow.tbx')).toMatch(/took longer than 0 seconds/);
      expect(await refused(`term,de\n${rows(100)}`, 'slow.csv')).toMatch(/took longer than 0 seconds/);
    } finally {
      Object.assign(GLOSSARY_LIMITS, saved);
    }
  });
});
