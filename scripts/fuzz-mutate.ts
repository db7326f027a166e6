// The mutations of the fuzzer: byte-level damage (bit flips, truncation,
// repetition, splices), the tokens that carry each format's structure, and
// re-encodings. Everything is drawn from a seeded generator, so a case number
// and a seed always give the same bytes (a finding can be replayed).
import JSZip from 'jszip';

/** A small fast PRNG (mulberry32): deterministic, good enough to pick mutations. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** The case's own generator: seed and case number mixed so neighbouring cases differ. */
export function caseRandom(seed: number, caseNumber: number): Random {
  return new Random(Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(caseNumber + 1, 0xc2b2ae35));
}

/** Mutated files stay under this size: the fuzzer looks for bugs, not for slow big files. */
export const MAX_MUTANT_BYTES = 512 * 1024;

// Tokens that open, close or escape something in the formats' syntaxes. Any
// format gets all of them (a JSON token inside YAML is a good test too), its
// own family more often.
const XML_TOKENS = [
  '<',
  '>',
  '</',
  '/>',
  '&',
  '&amp;',
  '&lt;',
  '&#0;',
  '&#xD800;',
  '&#x10FFFF;',
  '&#99999999;',
  '&undefined;',
  '<![CDATA[',
  ']]>',
  '<!--',
  '-->',
  '<?xml version="1.0"?>',
  '<!DOCTYPE r [<!ENTITY a "aaaaaaaa">]>',
  '&a;',
  '<!ENTITY',
  'xml:space="preserve"',
  '"',
  "'",
  '=',
  '<plurals name="p">',
  '<item quantity="one">',
  '<string name="">',
  '<trans-unit id="x">',
  '<source>',
  '<target>',
  '<unit id="u"><segment><source>s</source></segment></unit>',
  '<message numerus="yes">',
  '<numerusform>',
  '<data name="a">',
  '<value>',
  '<dict>',
  '<key>NSStringLocalizedFormatKey</key>',
  '<string>%#@v@</string>',
  '<key>',
  '<array>',
  'xmlns="urn:oasis:names:tc:xliff:document:1.2"',
];
const JSON_TOKENS = [
  '{',
  '}',
  '[',
  ']',
  '"',
  ':',
  ',',
  '\\',
  '\\u0000',
  '\\ud800',
  '\\uDFFF',
  '\\"',
  'null',
  'true',
  '1e999',
  '-0',
  '{"":""}',
  '"__proto__"',
  '"constructor"',
  '{"a":{"b":{"c":"d"}}}',
  '[[[[[[[[',
  '"@@locale":"de"',
  '"@key":{"description":"d"}',
  '"message":',
  '"localizations":{',
  '"stringUnit":{"state":"translated","value":"v"}',
  '"variations":{"plural":{',
];
const ICU_TOKENS = [
  '{',
  '}',
  "'",
  "''",
  '#',
  '{count, plural, one {# x} other {# y}}',
  '{n, select, a {x} other {y}}',
  '{n, selectordinal, one {#st} other {#th}}',
  '{count, plural, =0 {none} other {#}}',
  '{a}',
  '{, plural, }',
  '{count, plural, offset:1 other {#}}',
  '%1$s',
  '%d',
  '%@',
  '%#@x@',
  '{{x}}',
  '$t(x)',
];
const LINE_TOKENS = [
  '\n',
  '\r\n',
  '\r',
  '\\\n',
  '\\',
  '\\n',
  '\\u00e9',
  '\\uZZZZ',
  '=',
  ':',
  '#',
  '!',
  '"',
  '";',
  '/*',
  '*/',
  '//',
  'msgid ""',
  'msgstr ""',
  'msgctxt "c"',
  'msgid_plural "p"',
  'msgstr[0] ""',
  'msgstr[99] ""',
  '#, fuzzy',
  '#~ ',
  '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"',
  '"Language: de\\n"',
  'key = "value";',
  '\t',
  ',',
  ';',
  '\u2028',
  '\ufeff',
];
const YAML_TOKENS = [
  '- ',
  '? ',
  ': ',
  '&a ',
  '*a',
  '!!binary ',
  '!!str ',
  '<<: *a',
  '---',
  '...',
  '|',
  '>-',
  '%YAML 1.2',
  '{',
  '[',
  '#',
  "'",
  '"',
  'null',
  '~',
  '2001-12-14',
  '0x1F',
  '.inf',
  'yes',
];
const CODE_TOKENS = [
  '<?php',
  '?>',
  'return [',
  'array(',
  '=>',
  "'",
  '"',
  '\\',
  '$x',
  '.',
  '__(',
  'export default {',
  'module.exports = {',
  '}',
  ';',
  '`',
  '${x}',
  '/*',
  '*/',
  '//',
  '...x',
  '[x]:',
  'function(){}',
  '0x10',
  '1_000',
];
const CSV_TOKENS = [',', ';', '\t', '"', '""', '\n', '\r\n', 'key,en,de', 'namespace', 'description', '=1+1', '\ufeff'];

export const TOKENS: Record<string, readonly string[]> = {
  XML_TOKENS,
  JSON_TOKENS,
  ICU_TOKENS,
  LINE_TOKENS,
  YAML_TOKENS,
  CODE_TOKENS,
  CSV_TOKENS,
};

/** The token families most relevant to a format, by file extension. */
export function tokenFamiliesOf(extension: string): (keyof typeof TOKENS)[] {
  switch (extension) {
    case 'xml':
    case 'resx':
    case 'resw':
    case 'xlf':
    case 'ts':
    case 'stringsdict':
    case 'xlsx':
      return ['XML_TOKENS', 'ICU_TOKENS'];
    case 'json':
    case 'arb':
    case 'xcstrings':
      return ['JSON_TOKENS', 'ICU_TOKENS'];
    case 'yml':
      return ['YAML_TOKENS', 'ICU_TOKENS'];
    case 'php':
    case 'js':
      return ['CODE_TOKENS', 'ICU_TOKENS'];
    case 'csv':
    case 'tsv':
      return ['CSV_TOKENS', 'ICU_TOKENS'];
    default:
      return ['LINE_TOKENS', 'ICU_TOKENS'];
  }
}

const INTERESTING_BYTES = [
  0x00, 0x01, 0x0a, 0x0d, 0x1f, 0x22, 0x27, 0x3c, 0x3e, 0x5c, 0x7b, 0x7d, 0x7f, 0x80, 0xbf, 0xc0, 0xc3, 0xed, 0xef,
  0xf0, 0xf4, 0xf8, 0xfe, 0xff,
];
// Broken and unusual UTF-8: lone continuation bytes, overlong forms, a UTF-16
// surrogate encoded in UTF-8 (CESU), a cut 4-byte sequence, BOMs, U+FFFE.
const BYTE_SEQUENCES = [
  [0x80],
  [0xc0, 0xaf],
  [0xe0, 0x80, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf0, 0x9f, 0x98],
  [0xf4, 0x90, 0x80, 0x80],
  [0xef, 0xbb, 0xbf],
  [0xff, 0xfe],
  [0xfe, 0xff],
  [0xef, 0xbf, 0xbe],
  [0xe2, 0x80, 0xa8],
  [0x00, 0x00],
];

export type Mutation = (input: Buffer, random: Random, context: MutationContext) => Buffer;

export interface MutationContext {
  /** Token families of the format under test. */
  families: readonly (keyof typeof TOKENS)[];
  /** Other inputs of the same format, for splices. */
  donors: readonly Buffer[];
}

const position = (input: Buffer, random: Random) => random.int(input.length + 1);

function bitFlips(input: Buffer, random: Random): Buffer {
  const out = Buffer.from(input);
  if (out.length === 0) return out;
  for (let n = 1 + random.int(8); n > 0; n--) out[random.int(out.length)]! ^= 1 << random.int(8);
  return out;
}

function interestingBytes(input: Buffer, random: Random): Buffer {
  const out = Buffer.from(input);
  if (out.length === 0) return Buffer.from([random.pick(INTERESTING_BYTES)]);
  for (let n = 1 + random.int(4); n > 0; n--) out[random.int(out.length)] = random.pick(INTERESTING_BYTES);
  return out;
}

function truncate(input: Buffer, random: Random): Buffer {
  return input.subarray(0, position(input, random));
}

function deleteSlice(input: Buffer, random: Random): Buffer {
  const start = position(input, random);
  const end = Math.min(input.length, start + 1 + random.int(Math.max(1, input.length >> 3)));
  return Buffer.concat([input.subarray(0, start), input.subarray(end)]);
}

/** A slice written again and again in place: deep nesting, long lines, many keys. */
function repeatSlice(input: Buffer, random: Random): Buffer {
  const start = position(input, random);
  const length = 1 + random.int(Math.min(64, Math.max(1, input.length - start)));
  const slice = input.subarray(start, start + length);
  if (slice.length === 0) return input;
  const times = random.pick([2, 3, 16, 100, 1000, 10_000]);
  const repeated = Buffer.alloc(
    Math.min(
      slice.length * times,
      MAX_MUTANT_BYTES - input.length > 0 ? MAX_MUTANT_BYTES - input.length : slice.length,
    ),
  );
  for (let at = 0; at < repeated.length; at += slice.length) slice.copy(repeated, at);
  return Buffer.concat([input.subarray(0, start), repeated, input.subarray(start)]);
}

function insertToken(input: Buffer, random: Random, context: MutationContext): Buffer {
  const family = random.chance(0.8)
    ? random.pick(context.families)
    : random.pick(Object.keys(TOKENS) as (keyof typeof TOKENS)[]);
  const token = Buffer.from(random.pick(TOKENS[family]!), 'utf8');
  const at = position(input, random);
  // Sometimes the token replaces what was there, sometimes it is inserted.
  const end = random.chance(0.3) ? Math.min(input.length, at + token.length) : at;
  return Buffer.concat([input.subarray(0, at), token, input.subarray(end)]);
}

function insertBytes(input: Buffer, random: Random): Buffer {
  const at = position(input, random);
  return Buffer.concat([input.subarray(0, at), Buffer.from(random.pick(BYTE_SEQUENCES)), input.subarray(at)]);
}

/** Half of this file, half of another of the same format. */
function splice(input: Buffer, random: Random, context: MutationContext): Buffer {
  if (context.donors.length === 0) return input;
  const donor = random.pick(context.donors);
  return Buffer.concat([input.subarray(0, position(input, random)), donor.subarray(random.int(donor.length + 1))]);
}

/** The whole file in another encoding: UTF-16 with or without BOM, Latin-1, a UTF-8 BOM. */
function reencode(input: Buffer, random: Random): Buffer {
  const text = input.toString('utf8');
  switch (random.int(5)) {
    case 0:
      return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    case 1:
      return Buffer.from(text, 'utf16le');
    case 2: {
      const le = Buffer.from(text, 'utf16le');
      return Buffer.concat([Buffer.from([0xfe, 0xff]), le.swap16()]);
    }
    case 3:
      return Buffer.from(text, 'latin1');
    default:
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), input]);
  }
}

export const MUTATIONS: Record<string, Mutation> = {
  bitFlips,
  interestingBytes,
  truncate,
  deleteSlice,
  repeatSlice,
  insertToken,
  insertBytes,
  splice,
  reencode,
};
const WEIGHTED: [string, number][] = [
  ['bitFlips', 3],
  ['interestingBytes', 2],
  ['truncate', 2],
  ['deleteSlice', 2],
  ['repeatSlice', 2],
  ['insertToken', 5],
  ['insertBytes', 1],
  ['splice', 1],
  ['reencode', 1],
];
const TOTAL_WEIGHT = WEIGHTED.reduce((sum, [, w]) => sum + w, 0);

function pickMutation(random: Random): string {
  let r = random.int(TOTAL_WEIGHT);
  for (const [name, weight] of WEIGHTED) if ((r -= weight) < 0) return name;
  return 'bitFlips';
}

/** One to four stacked mutations; returns the bytes and the names applied. */
export function mutate(input: Buffer, random: Random, context: MutationContext): { bytes: Buffer; applied: string[] } {
  let bytes = input;
  const applied: string[] = [];
  for (let n = 1 + random.int(random.chance(0.7) ? 2 : 4); n > 0; n--) {
    const name = pickMutation(random);
    bytes = MUTATIONS[name]!(bytes, random, context);
    if (bytes.length > MAX_MUTANT_BYTES) bytes = bytes.subarray(0, MAX_MUTANT_BYTES);
    applied.push(name);
  }
  return { bytes, applied };
}

/**
 * A workbook mutated inside: one of its XML parts (sheet, shared strings,
 * workbook, content types) is damaged with the text mutations and the archive
 * zipped again, so the damage reaches the spreadsheet reader and not only the
 * zip reader's checksum test.
 */
export async function mutateZipEntry(
  input: Buffer,
  random: Random,
  context: MutationContext,
): Promise<{ bytes: Buffer; applied: string[] }> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(input);
  } catch {
    return mutate(input, random, context);
  }
  const names = Object.keys(zip.files)
    .filter((name) => !zip.files[name]!.dir)
    .sort();
  if (names.length === 0) return mutate(input, random, context);
  const name = random.pick(names);
  const original = await zip.file(name)!.async('nodebuffer');
  const xmlContext = { ...context, families: ['XML_TOKENS', 'ICU_TOKENS'] as (keyof typeof TOKENS)[], donors: [] };
  const { bytes, applied } = random.chance(0.1)
    ? { bytes: Buffer.alloc(0), applied: ['emptyEntry'] }
    : mutate(original, random, xmlContext);
  if (random.chance(0.1)) zip.remove(name);
  else zip.file(name, bytes);
  const out = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
  return { bytes: out, applied: applied.map((a) => `${name}:${a}`) };
}
