// Runs every quality check (src/checks/), on by default or not, over the real
// translation files of the shared corpus (/work/shared/corpus, SOURCES.md):
// each file read by the service's own format reader, each translated text
// paired with its source text (another language of the file, the key when the
// format keys by source text, the ResX comment holding the English source).
// Prints how many findings each check raises, and with --samples N, N
// findings of each check to look at (docs/quality-checks.md has the verdicts).
//
//   npx tsx scripts/quality-checks-corpus.ts [--samples 8] [--corpus DIR]
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHECKS, pairOf } from '../src/checks/index.js';
import { pluralBase, sourceIdentity } from '../src/checks/consistency.js';
import { registeredFormat } from '../src/formats/registry.js';
import type { Bundle } from '../src/formats/model.js';

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const CORPUS = option('--corpus') ?? process.env.CORPUS_DIR ?? '/work/shared/corpus';
const SAMPLES = Number(option('--samples') ?? 0);

interface Cell {
  file: string;
  key: string;
  source: string;
  target: string;
  sourceLanguage: string;
  targetLanguage: string;
}

async function read(file: string, format: string, languageKey?: string): Promise<Bundle> {
  const registered = registeredFormat(format);
  if (!registered) throw new Error(`no format ${format}`);
  return registered.format.parse(readFileSync(join(CORPUS, file)), { languageKey, options: new Set() });
}

/** Every other language of a bundle against the source language. */
function fromBundle(file: string, bundle: Bundle, sourceLanguage: string): Cell[] {
  const cells: Cell[] = [];
  for (const k of bundle.keys) {
    const source = k.translations[sourceLanguage]?.text ?? '';
    if (!source) continue;
    for (const [language, t] of Object.entries(k.translations)) {
      if (language !== sourceLanguage && t.text)
        cells.push({ file, key: k.key, source, target: t.text, sourceLanguage, targetLanguage: language });
    }
  }
  return cells;
}

/** Files whose keys are the source text (gettext msgid, Qt source, Magento CSV, Apple strings keyed by English). */
function keyedBySource(
  file: string,
  bundle: Bundle,
  sourceLanguage: string,
  of: (k: Bundle['keys'][number]) => string = (k) => k.key,
): Cell[] {
  const cells: Cell[] = [];
  for (const k of bundle.keys) {
    for (const [language, t] of Object.entries(k.translations)) {
      // The key is the singular source only: a plural's source (msgid_plural, numerus) is not in the key.
      if (t.text.startsWith('{count, plural,') && !of(k).includes('plural')) continue;
      if (t.text && of(k))
        cells.push({ file, key: k.key, source: of(k), target: t.text, sourceLanguage, targetLanguage: language });
    }
  }
  return cells;
}

/** Two single-language files of the same keys. */
async function twoFiles(
  sourceFile: string,
  targetFile: string,
  format: string,
  sourceLanguage: string,
  targetLanguage: string,
): Promise<Cell[]> {
  const source = await read(sourceFile, format, sourceLanguage);
  const target = await read(targetFile, format, targetLanguage);
  const texts = new Map(
    source.keys.map((k) => [`${k.namespace}\u0000${k.key}`, k.translations[sourceLanguage]?.text ?? '']),
  );
  const cells: Cell[] = [];
  for (const k of target.keys) {
    const s = texts.get(`${k.namespace}\u0000${k.key}`);
    const t = k.translations[targetLanguage]?.text;
    if (s && t) cells.push({ file: targetFile, key: k.key, source: s, target: t, sourceLanguage, targetLanguage });
  }
  return cells;
}

/** TMX: each translation unit's variants against its English one (no service reader: a light one here). */
function tmx(file: string): Cell[] {
  const text = readFileSync(join(CORPUS, file), 'utf8');
  const unescape = (s: string) =>
    s
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&');
  const cells: Cell[] = [];
  let n = 0;
  for (const tu of text.matchAll(/<tu[\s>][\s\S]*?<\/tu>/g)) {
    n++;
    const variants = [...tu[0].matchAll(/<tuv[^>]*xml:lang="([^"]+)"[^>]*>[\s\S]*?<seg>([\s\S]*?)<\/seg>/g)].map(
      (m) => ({ language: m[1]!, text: unescape(m[2]!.replace(/<[^>]+>/g, '')) }),
    );
    const source = variants.find((v) => /^en/i.test(v.language));
    if (!source) continue;
    for (const v of variants)
      if (v !== source && v.text)
        cells.push({
          file,
          key: String(n),
          source: source.text,
          target: v.text,
          sourceLanguage: source.language,
          targetLanguage: v.language,
        });
  }
  return cells;
}

async function corpus(): Promise<Cell[]> {
  const cells: Cell[] = [];
  const add = async (what: string, load: () => Promise<Cell[]> | Cell[]) => {
    try {
      cells.push(...(await load()));
    } catch (error) {
      process.stderr.write(`skipped ${what}: ${(error as Error).message}\n`);
    }
  };
  await add('android', () =>
    twoFiles(
      'android/duckduckgo_autofill_values_strings.xml',
      'android/duckduckgo_autofill_values-ru_strings.xml',
      'android',
      'en',
      'ru',
    ),
  );
  await add('arb', () => twoFiles('arb/aves_app_en.arb', 'arb/aves_app_ckb.arb', 'arb', 'en', 'ckb'));
  await add('xcstrings', async () =>
    fromBundle(
      'xcstrings/coteditor_CommandBar.xcstrings',
      await read('xcstrings/coteditor_CommandBar.xcstrings', 'localizable-xcstrings'),
      'en',
    ),
  );
  await add('xliff ru', async () =>
    fromBundle(
      'xliff/symfony-validator_validators.ru.xlf',
      await read('xliff/symfony-validator_validators.ru.xlf', 'xliff-1.2'),
      'en',
    ),
  );
  await add('xliff de', async () =>
    fromBundle(
      'xliff/command-line-api_StaticCompletions_Strings.de.xlf',
      await read('xliff/command-line-api_StaticCompletions_Strings.de.xlf', 'xliff-1.2'),
      'en',
    ),
  );
  await add('po th', async () =>
    keyedBySource('po/gnome-clocks_th.po', await read('po/gnome-clocks_th.po', 'po-pot', 'th'), 'en'),
  );
  await add('po ar', async () =>
    keyedBySource('po/wtforms_ar.po', await read('po/wtforms_ar.po', 'po-pot', 'ar'), 'en'),
  );
  await add('qt ar', async () =>
    keyedBySource('qt-ts/lxqt-archiver_ar.ts', await read('qt-ts/lxqt-archiver_ar.ts', 'qt-linguist', 'ar'), 'en'),
  );
  await add('qt de', async () =>
    keyedBySource(
      'qt-ts/lxqt-panel_kbindicator_de.ts',
      await read('qt-ts/lxqt-panel_kbindicator_de.ts', 'qt-linguist', 'de'),
      'en',
    ),
  );
  await add('csv de', async () =>
    keyedBySource(
      'csv/mollie-magento2_de_DE.csv',
      await read('csv/mollie-magento2_de_DE.csv', 'csv-translations', 'de'),
      'en',
    ),
  );
  await add('strings de', async () =>
    keyedBySource(
      'localizable-strings/sparkle_de_Sparkle.strings',
      await read('localizable-strings/sparkle_de_Sparkle.strings', 'localizable-strings', 'de'),
      'en',
    ),
  );
  await add('json cs', async () =>
    keyedBySource(
      'json/actualbudget_cs.json',
      await read('json/actualbudget_cs.json', 'single-language-json', 'cs'),
      'en',
      (k) => k.key.replace(/_(zero|one|two|few|many|other)$/, ''),
    ),
  );
  await add('resx ar', async () =>
    keyedBySource(
      'resx/humanizer-v2.14.1_Resources.ar.resx',
      await read('resx/humanizer-v2.14.1_Resources.ar.resx', 'resx', 'ar'),
      'en',
      (k) => k.description ?? '',
    ),
  );
  for (const file of [
    'tmx/okapi_html_test.tmx',
    'tmx/omegat_test-match-stat-en-ca.tmx',
    'tmx/pontoon_valid_entries.tmx',
    'tmx/okapi_ImportTest2C.tmx',
  ]) {
    if (existsSync(join(CORPUS, file))) await add(file, () => tmx(file));
  }
  return cells;
}

const cells = await corpus();
const counts = new Map<string, { findings: number; cells: number }>();
const samples = new Map<string, string[]>();
const files = new Set(cells.map((c) => c.file));
for (const cell of cells) {
  const pair = pairOf(cell);
  for (const check of CHECKS) {
    const problems = check.run(pair);
    if (!problems.length) continue;
    const c = counts.get(check.id) ?? { findings: 0, cells: 0 };
    c.findings += problems.length;
    c.cells += 1;
    counts.set(check.id, c);
    const list = samples.get(check.id) ?? [];
    list.push(
      `  ${cell.file} [${cell.targetLanguage}] ${JSON.stringify(cell.key).slice(0, 60)}\n    source: ${JSON.stringify(cell.source).slice(0, 200)}\n    target: ${JSON.stringify(cell.target).slice(0, 200)}\n    → ${problems[0]!.message}`,
    );
    samples.set(check.id, list);
  }
}

// The consistency checks compare cells with each other: each file (one language of it) is a project here.
// The rules of src/findings/consistency.ts: the same source translated otherwise, the same translation for
// another source (markup, case, spaces and end marks aside), plural forms of one key name never compared.
const groups = new Map<string, Cell[]>();
for (const cell of cells) {
  const id = `${cell.file}\u0001${cell.targetLanguage}`;
  const list = groups.get(id);
  if (list) list.push(cell);
  else groups.set(id, [cell]);
}
const consistency = (
  id: string,
  by: (c: Cell) => string,
  differ: (a: Cell, b: Cell) => boolean,
  say: (others: Cell[]) => string,
) => {
  for (const list of groups.values()) {
    const byHash = new Map<string, Cell[]>();
    for (const c of list) byHash.set(by(c), [...(byHash.get(by(c)) ?? []), c]);
    for (const group of byHash.values()) {
      if (group.length < 2) continue;
      for (const cell of group) {
        const others = group.filter((o) => o !== cell && differ(cell, o) && pluralBase(o.key) !== pluralBase(cell.key));
        if (!others.length) continue;
        const c = counts.get(id) ?? { findings: 0, cells: 0 };
        c.findings += 1;
        c.cells += 1;
        counts.set(id, c);
        const samplesOf = samples.get(id) ?? [];
        samplesOf.push(
          `  ${cell.file} [${cell.targetLanguage}] ${JSON.stringify(cell.key).slice(0, 60)}\n    source: ${JSON.stringify(cell.source).slice(0, 200)}\n    target: ${JSON.stringify(cell.target).slice(0, 200)}\n    → ${say(others)}`,
        );
        samples.set(id, samplesOf);
      }
    }
  }
};
consistency(
  'inconsistent-translation',
  (c) => c.source,
  (a, b) => a.target !== b.target,
  (others) =>
    `translated otherwise in ${others
      .slice(0, 3)
      .map((o) => `${o.key} (${JSON.stringify(o.target).slice(0, 60)})`)
      .join(', ')}`,
);
consistency(
  'ambiguous-translation',
  (c) => c.target,
  (a, b) => sourceIdentity(a.source) !== sourceIdentity(b.source),
  (others) =>
    `the same translation for ${others
      .slice(0, 3)
      .map((o) => `${o.key} (${JSON.stringify(o.source).slice(0, 60)})`)
      .join(', ')}`,
);

process.stdout.write(
  `${cells.length} translated texts from ${files.size} files\n\n| check | default | severity | findings | texts |\n|---|---|---|---:|---:|\n`,
);
for (const check of CHECKS) {
  const c = counts.get(check.id) ?? { findings: 0, cells: 0 };
  process.stdout.write(
    `| \`${check.id}\` | ${check.enabled ? 'on' : 'off'} | ${check.severity} | ${c.findings} | ${c.cells} |\n`,
  );
}
if (SAMPLES > 0) {
  for (const check of CHECKS) {
    const list = samples.get(check.id) ?? [];
    if (!list.length) continue;
    process.stdout.write(`\n## ${check.id} (${list.length})\n`);
    // Spread over the list, not its head: the first file would fill it.
    const step = Math.max(1, Math.floor(list.length / SAMPLES));
    for (let i = 0; i < list.length && i / step < SAMPLES; i += step) process.stdout.write(`${list[i]}\n`);
  }
}
