// Run by test/unit/formats/xml-stream.test.ts with a capped heap: streams a
// generated TBX file of 400,000 concept entries (about 140 MB, never held
// whole, far more than the 64 MiB heap) through readTbx in batches of 2,000
// terms and prints what it read, the largest batch, the bytes, and the
// largest heap seen.
import { readTbx } from '../../src/glossary/tbx.js';

const ENTRIES = 400_000;
let bytes = 0;

async function* file(): AsyncGenerator<Buffer> {
  const out = (s: string) => {
    const b = Buffer.from(s);
    bytes += b.length;
    return b;
  };
  yield out(
    '<?xml version="1.0" encoding="UTF-8"?>\n<martif type="TBX-Basic" xml:lang="en">\n  <martifHeader><fileDesc><sourceDesc><p>generated</p></sourceDesc></fileDesc></martifHeader>\n  <text>\n    <body>\n',
  );
  for (let start = 0; start < ENTRIES; start += 1000) {
    let chunk = '';
    for (let i = start; i < start + 1000; i++)
      chunk += `      <termEntry id="c${i}"><descrip type="definition">The definition of concept ${i} &amp; its use.</descrip>
        <langSet xml:lang="en"><tig><term>term number ${i}</term><termNote type="partOfSpeech">noun</termNote></tig></langSet>
        <langSet xml:lang="de"><tig><term>Begriff Nummer ${i}</term></tig></langSet>
      </termEntry>\n`;
    yield out(chunk);
  }
  yield out('    </body>\n  </text>\n</martif>\n');
}

let maxBatch = 0;
let maxHeap = 0;
let last = '';
const started = performance.now();
const read = await readTbx(file, 'en', { maxTerms: 10_000_000, batch: 2_000 }, async (terms) => {
  maxBatch = Math.max(maxBatch, terms.length);
  maxHeap = Math.max(maxHeap, process.memoryUsage().heapUsed);
  last = terms.at(-1)!.term;
});
process.stdout.write(
  JSON.stringify({
    ...read,
    maxBatch,
    last,
    megabytes: Math.round(bytes / 1e6),
    maxHeapMiB: Math.round(maxHeap / 2 ** 20),
    seconds: Math.round((performance.now() - started) / 100) / 10,
  }),
);
