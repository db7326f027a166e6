// Run by test/unit/formats/line-stream.test.ts with a capped heap: streams a
// generated file (about 40 MB, never held whole) of the format given as the
// argument through its parseStream in chunks of 10,000 texts, every pass
// included, and prints what it read. Holding the file would exhaust the heap.
// csv-translations: 50,000 keys × 10 languages; java-properties and po-pot:
// 200,000 keys with long texts (properties hold every key name in a first
// pass, to find those given twice; CSV and PO in the last one, to refuse them).
import { csvTranslations } from '../../src/formats/csv.js';
import { javaProperties } from '../../src/formats/java-properties.js';
import { poPot } from '../../src/formats/po.js';

const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'pl', 'pt-BR', 'nl', 'sv', 'cs'];
const format = { 'java-properties': javaProperties, 'po-pot': poPot }[process.argv[2]!] ?? csvTranslations;
const KEYS = format === csvTranslations ? 50_000 : 200_000;
// A chunk of single-language keys costs a key object per text: smaller chunks keep the heap cap well below the file.
const CHUNK_CELLS = 10_000;

async function* file(): AsyncGenerator<Buffer> {
  if (format === csvTranslations) yield Buffer.from(`key,${LANGUAGES.join(',')},description\n`);
  for (let start = 0; start < KEYS; start += 1000) {
    const lines: string[] = [];
    for (let i = start; i < start + 1000; i++) {
      if (format === csvTranslations) {
        lines.push(
          `section${i % 100}.key${i},${LANGUAGES.map((l) => `"The ${l} text number ${i}, long enough to look like a sentence"`).join(',')},\n`,
        );
      } else if (format === poPot) {
        lines.push(
          `# A comment about key ${i}\nmsgid "section${i % 100}.key${i}"\nmsgstr "The text number ${i}, long enough to look like a sentence, "\n"continued on a second line with an escape \\t and more words to make it long"\n\n`,
        );
      } else {
        lines.push(
          `# A comment about key ${i}\nsection${i % 100}.key${i} = The text number ${i}, long enough to look like a sentence, \\\n    continued on a second line with an escape \\u00e9 and more words to make it long\n`,
        );
      }
    }
    yield Buffer.from(lines.join(''));
  }
}

let cells = 0;
let maxChunkCells = 0;
for await (const chunk of format.parseStream!(file, { languageKey: 'en', options: new Set() }, CHUNK_CELLS)) {
  let n = 0;
  for (const k of chunk.keys) n += Object.keys(k.translations).length;
  cells += n;
  maxChunkCells = Math.max(maxChunkCells, n);
}
process.stdout.write(JSON.stringify({ cells, maxChunkCells }));
