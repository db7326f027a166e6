// TMX and TBX read as a stream (src/formats/xml-stream.ts): the same pairs
// and terms whatever the byte split, in batches of at most the asked size;
// the hostile-file rules of the whole-file reader (entities, depth, a time
// budget, the most pairs); and a heap that follows the batch, not the file.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../../src/formats/model.js';
import { readTmx, type TmxPair } from '../../../src/formats/tmx.js';
import { readTbx } from '../../../src/glossary/tbx.js';
import type { TermInput } from '../../../src/glossary/terms.js';

/** The bytes in pieces of `size` (1: every byte apart, splitting characters, tags and entity references). */
const pieces = (bytes: Buffer, size: number) =>
  async function* () {
    for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
  };

const HEADER =
  '<header srclang="en" segtype="sentence" datatype="plaintext" o-tmf="x" adminlang="en" creationtool="x" creationtoolversion="1"/>';
const TMX = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE tmx [<!ENTITY brand "Acme&#233;">]>
<tmx version="1.4">${HEADER}<body>
  <tu tuid="a" changedate="20240102T030405Z"><note>n</note><prop type="x">p &amp; q</prop>
    <tuv xml:lang="en"><seg>Hello &brand; 😀</seg></tuv><tuv xml:lang="de"><seg>Hallo <ph x="1">&lt;b/&gt;</ph><![CDATA[<i>]]></seg></tuv><tuv xml:lang="fr"><seg>Salut</seg></tuv></tu>
  <tu tuid="b"><tuv xml:lang="de"><seg>nur</seg></tuv></tu>
  <tu tuid="c"><tuv xml:lang="en"><seg>One</seg></tuv><tuv xml:lang="de"><seg>Eins</seg></tuv></tu>
</body></tmx>`;

async function tmxBatches(bytes: Buffer, size: number, batch: number, limits = {}) {
  const batches: TmxPair[][] = [];
  const summary = await readTmx(pieces(bytes, size), { maxPairs: 100, batch, ...limits }, async (pairs) => {
    batches.push(pairs);
  });
  return { summary, batches };
}

async function formatError(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FormatError);
  return (error as FormatError).message;
}

describe('TMX read as a stream', () => {
  it('gives the same pairs in batches of at most the asked size, whatever the byte split', async () => {
    const whole = await tmxBatches(Buffer.from(TMX), 1 << 20, 100);
    expect(whole.summary).toEqual({ srclang: 'en', pairs: 3, skipped: 1 });
    const pairs = whole.batches.flat();
    expect(pairs.map((p) => [p.tuid, p.targetLanguage, p.source, p.target])).toEqual([
      ['a', 'de', 'Hello Acmeé 😀', 'Hallo <b/><i>'],
      ['a', 'fr', 'Hello Acmeé 😀', 'Salut'],
      ['c', 'de', 'One', 'Eins'],
    ]);
    expect(pairs[0]).toMatchObject({
      targetXml: 'Hallo <ph x="1">&lt;b/&gt;</ph><![CDATA[<i>]]>',
      notes: ['n'],
      properties: [{ type: 'x', value: 'p & q' }],
      changedAt: new Date('2024-01-02T03:04:05Z'),
    });
    for (const size of [1, 2, 7, 64]) {
      const split = await tmxBatches(Buffer.from(TMX), size, 1);
      expect(split.batches.map((b) => b.length)).toEqual([1, 1, 1]);
      expect(split.batches.flat()).toEqual(pairs);
    }
    // UTF-16 with its BOM, split inside characters.
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(TMX.replace('UTF-8', 'UTF-16'), 'utf16le')]);
    expect((await tmxBatches(utf16, 3, 100)).batches.flat()).toEqual(pairs);
  });

  it('refuses what the whole-file reader refuses, and a file read for too long', async () => {
    const tmx = (seg: string, doctype = '') =>
      Buffer.from(
        `${doctype}<tmx version="1.4">${HEADER}<body><tu><tuv xml:lang="en"><seg>${seg}</seg></tuv><tuv xml:lang="de"><seg>x</seg></tuv></tu></body></tmx>`,
      );
    const laughs = `<!DOCTYPE tmx [<!ENTITY a "aaaaaaaaaa">${Array.from({ length: 9 }, (_, i) => `<!ENTITY ${String.fromCharCode(98 + i)} "${`&${String.fromCharCode(97 + i)};`.repeat(10)}">`).join('')}]>`;
    const read = (bytes: Buffer, limits = {}) => formatError(tmxBatches(bytes, 5, 100, limits));
    expect(await read(tmx('&j;', laughs))).toMatch(/Entity "e" expands to more than 16384 characters/);
    expect(await read(tmx('&x;', '<!DOCTYPE tmx [<!ENTITY x SYSTEM "file:///etc/passwd">]>'))).toMatch(
      /External entity "x" is not allowed/,
    );
    expect(await read(tmx('&x;', '<!DOCTYPE tmx [<!ENTITY % x "y">]>'))).toMatch(/Parameter entities/);
    // Every reference counts against one budget for the document.
    const many = tmx('&big;'.repeat(200), `<!DOCTYPE tmx [<!ENTITY big "${'b'.repeat(15_000)}">]>`);
    expect(await read(many)).toMatch(/Entity references expand to more than 2000000 characters/);
    // An inherited name of a plain object is no entity.
    expect(await read(tmx('&constructor;'))).toMatch(/reference to undefined entity &constructor;/);
    expect(await read(tmx(`${'<hi>'.repeat(70)}x${'</hi>'.repeat(70)}`))).toMatch(/nesting is deeper than 64 levels/);
    expect(await read(tmx('a\u0001b'))).toMatch(/Malformed XML: disallowed character/);
    expect(await read(tmx('x'), { maxPairs: 0 })).toMatch(/more than 0 translation pairs/);
    expect(await read(Buffer.from('<xliff version="1.2"><file/></xliff>'))).toMatch(/root element is <xliff>/);
    expect(await read(Buffer.from(`<tmx><body/>${HEADER}</tmx>`))).toMatch(/needs <header> and <body>/);
    expect(await read(Buffer.from(`<tmx>${HEADER}<body>`))).toMatch(/Malformed XML: unclosed tag: body/);
    // The time budget counts the reading, not the caller's writing of batches.
    const slow = Buffer.from(
      `<tmx>${HEADER}<body>${'<tu><tuv xml:lang="en"><seg>a</seg></tuv><tuv xml:lang="de"><seg>b</seg></tuv></tu>'.repeat(50)}</body></tmx>`,
    );
    const waited = await readTmx(pieces(slow, 1 << 20), { maxPairs: 100, batch: 10, maxSeconds: 0.05 }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 30));
    });
    expect(waited.pairs).toBe(50);
    const big = Buffer.from(
      `<tmx>${HEADER}<body>${'<!-- a comment the reader must still go through -->'.repeat(200_000)}</body></tmx>`,
    );
    expect(await read(big, { maxSeconds: 0.01 })).toMatch(/took longer than 0.01 seconds/);
  });

  it('parses a 400,000-unit file, generated as it is read, in a process whose heap is capped far below the file', () => {
    // The file is about 150 MB: as one string it could not even exist in a 64 MiB heap.
    const out = execFileSync(
      process.execPath,
      ['--max-old-space-size=64', '--import', 'tsx', 'test/support/tmx-stream-memory.ts'],
      { encoding: 'utf8', timeout: 240_000 },
    );
    const read = JSON.parse(out);
    expect(read).toMatchObject({ pairs: 400_000, skipped: 0, maxBatch: 5_000, last: 'unit-399999' });
    expect(read.megabytes).toBeGreaterThan(140);
  }, 250_000);
});

describe('TBX read as a stream', () => {
  const TBX = `<?xml version="1.0" encoding="windows-1254"?>
<martif type="TBX-Basic" xml:lang="en"><martifHeader><fileDesc><sourceDesc><p>x</p></sourceDesc></fileDesc></martifHeader><text><body>
<termEntry><descrip type="definition">d</descrip><langSet xml:lang="en"><tig><term>gear</term><termNote type="partOfSpeech">noun</termNote></tig></langSet><langSet xml:lang="tr"><tig><term>di\u015Fli</term></tig></langSet></termEntry>
<termEntry><langSet xml:lang="de"><tig><term>nur</term></tig></langSet></termEntry>
<termEntry><langSet xml:lang="en"><tig><term>shaft</term></tig></langSet></termEntry>
</body></text></martif>`;
  // windows-1254 bytes: ş is 0xFE there.
  const bytes = Buffer.from(TBX.replace('\u015F', '\u00FE'), 'latin1');

  it('gives the same terms in batches of at most the asked size, whatever the byte split, in the declared encoding', async () => {
    for (const size of [1, 3, 1 << 20]) {
      const batches: TermInput[][] = [];
      const summary = await readTbx(pieces(bytes, size), 'en', { maxTerms: 10, batch: 1 }, async (terms) => {
        batches.push(terms);
      });
      expect(summary).toEqual({ language: 'en', terms: 2, skipped: 1 });
      expect(batches.map((b) => b.map((t) => [t.term, t.partOfSpeech, t.description, t.translations]))).toEqual([
        [['gear', 'noun', 'd', [{ language: 'tr', text: 'di\u015Fli' }]]],
        [['shaft', '', '', []]],
      ]);
    }
  });

  it('refuses a file deeper than 32 levels, too many terms, and one read for too long', async () => {
    const read = (input: string, limits = {}) =>
      formatError(readTbx(pieces(Buffer.from(input), 4), 'en', { maxTerms: 1, ...limits }, async () => {}));
    expect(
      await read(
        `<martif><text><body><termEntry>${'<descripGrp>'.repeat(30)}${'</descripGrp>'.repeat(30)}</termEntry></body></text></martif>`,
      ),
    ).toMatch(/nesting is deeper than 32 levels/);
    expect(await read(TBX.replace(/ encoding="windows-1254"/, ''))).toMatch(/more than 1 terms/);
    expect(await read(TBX.replace(/ encoding="windows-1254"/, ''), { maxTerms: 10, maxSeconds: 0 })).toMatch(
      /took longer than 0 seconds/,
    );
  });

  it('parses a 400,000-entry file, generated as it is read, in a process whose heap is capped far below the file', () => {
    const out = execFileSync(
      process.execPath,
      ['--max-old-space-size=64', '--import', 'tsx', 'test/support/tbx-stream-memory.ts'],
      { encoding: 'utf8', timeout: 240_000 },
    );
    const read = JSON.parse(out);
    expect(read).toMatchObject({ terms: 400_000, skipped: 0, maxBatch: 2_000, last: 'term number 399999' });
    expect(read.megabytes).toBeGreaterThan(130);
  }, 250_000);
});
