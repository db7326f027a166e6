// Run by test/unit/formats/json-stream.test.ts with a capped heap: streams a
// generated multi-language JSON file of 50,000 keys × 10 languages (about
// 40 MB, never held whole) through multiLanguageJson.parseStream in chunks of
// 50,000 texts and prints what it read. Holding the file would exhaust the heap.
import { multiLanguageJson } from '../../src/formats/json.js';

const KEYS = 50_000;
const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'pl', 'pt-BR', 'nl', 'sv', 'cs'];

async function* file(): AsyncGenerator<Buffer> {
  yield Buffer.from('{');
  for (const [l, language] of LANGUAGES.entries()) {
    yield Buffer.from(`${l ? ',' : ''}\n  "${language}": {`);
    for (let start = 0; start < KEYS; start += 1000) {
      const lines: string[] = [];
      for (let i = start; i < start + 1000; i++)
        lines.push(
          `${i ? ',' : ''}\n    "section${i % 100}.key${i}": "The ${language} text number ${i}, long enough to look like a sentence"`,
        );
      yield Buffer.from(lines.join(''));
    }
    yield Buffer.from('\n  }');
  }
  yield Buffer.from('\n}\n');
}

let cells = 0;
let maxChunkCells = 0;
const keys = new Set<number>();
for await (const chunk of multiLanguageJson.parseStream!(file, { options: new Set() }, 50_000)) {
  let n = 0;
  for (const k of chunk.keys) {
    n += Object.keys(k.translations).length;
    keys.add(Number(k.key.slice(k.key.indexOf('key') + 3)));
  }
  cells += n;
  maxChunkCells = Math.max(maxChunkCells, n);
}
process.stdout.write(JSON.stringify({ cells, keys: keys.size, maxChunkCells }));
