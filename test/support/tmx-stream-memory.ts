// Run by test/unit/formats/xml-stream.test.ts with a capped heap: streams a
// generated TMX file of 400,000 units (about 130 MB, never held whole, far
// more than the 64 MiB heap) through readTmx in batches of 5,000 pairs and
// prints what it read, the largest batch, the bytes, and the largest heap seen.
import { readTmx } from '../../src/formats/tmx.js';

const UNITS = 400_000;
let bytes = 0;

async function* file(): AsyncGenerator<Buffer> {
  const out = (s: string) => {
    const b = Buffer.from(s);
    bytes += b.length;
    return b;
  };
  yield out(
    '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE tmx SYSTEM "tmx14.dtd">\n<tmx version="1.4">\n  <header creationtool="gen" creationtoolversion="1" segtype="sentence" o-tmf="gen" adminlang="en" srclang="en" datatype="plaintext"/>\n  <body>\n',
  );
  for (let start = 0; start < UNITS; start += 1000) {
    let chunk = '';
    for (let i = start; i < start + 1000; i++)
      chunk += `    <tu tuid="unit-${i}" changedate="20240102T030405Z"><note>Note ${i}</note><prop type="x-project">memory &amp; more</prop>
      <tuv xml:lang="en"><seg>The English sentence number ${i}, long enough to look like a real segment.</seg></tuv>
      <tuv xml:lang="de"><seg>Der deutsche Satz Nummer ${i}, <ph x="1">&lt;b&gt;</ph>lang genug für ein Segment.</seg></tuv>
    </tu>\n`;
    yield out(chunk);
  }
  yield out('  </body>\n</tmx>\n');
}

let maxBatch = 0;
let maxHeap = 0;
let last = '';
const started = performance.now();
const read = await readTmx(file, { maxPairs: 10_000_000, batch: 5_000 }, async (pairs) => {
  maxBatch = Math.max(maxBatch, pairs.length);
  maxHeap = Math.max(maxHeap, process.memoryUsage().heapUsed);
  last = pairs.at(-1)!.tuid;
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
