// Apple .stringsdict (XML property list) plural rules.
//
//   key -> { NSStringLocalizedFormatKey: "Found %#@files@",
//            files: { NSStringFormatSpecTypeKey: NSStringPluralRuleType,
//                     NSStringFormatValueTypeKey: "d", one: "...", other: "..." } }
//
// Conventions (see apple-plurals.ts for the shared part):
// - Format `%#@files@` alone -> a whole-text ICU plural `{files, plural, ...}`
//   (the variable name is the ICU argument). Text around the variable, several
//   variables, or variables used inside another variable's branches -> ICU
//   text with the plurals embedded where their tokens were. A variable used in
//   several places must have the same branches everywhere; on export the first
//   occurrence defines it.
// - Token positions (`%1$#@x@`) and NSStringFormatValueTypeKey go to the key's
//   codeDescription (`Plural variables: {...}`), so export writes them back.
// - A format without variables is imported as plain text. Export writes only
//   keys whose text has a plural (or a device/width variant): plain texts
//   belong in Localizable.strings, which Apple reads alongside.
// - The number of a plural branch: `#` in ICU, `%lld` in the file (what
//   Xcode writes for an Int), or `%<type>` when the variable's recorded
//   NSStringFormatValueTypeKey is an integer type (`d` -> `%d`, so a file's
//   own `%d` comes back as `%d`). Import reads the first non-positional
//   integer placeholder of a branch (`%d`, `%i`, `%u`, `%ld`, `%lld`, ...) as
//   `#`; a literal `%` in a branch is `%%` in the file. See plural.ts.
// - NSStringDeviceSpecificRuleType -> `{device, select, iphone {...} ...}`,
//   NSStringVariableWidthRuleType -> `{width, select, ...}` (the same select
//   String Catalogs use for device variations).
// - Variables defined but not used by the format are dropped (Apple ignores
//   them too). Entries that are neither a plural nor a device/width rule are
//   skipped.
// - Descriptions: an XML comment right before a top-level <key> (plist readers
//   ignore comments); written with INCLUDE_DESCRIPTIONS (`--` becomes `- -`).
// - A key without a translation in the exported language is left out (the app
//   then falls back to its development language).
// - Export is streamed: the plist header, one entry per key, the footer. No
//   namespaces: a key name several namespaces share is written once.
// - Parsing goes through xml-safe.ts (no external entities, bounded expansion,
//   depth cap); the `plist` package is not used because it parses with a DOM
//   parser we would have to harden separately.
import {
  appleCategoryBranches,
  ExpansionBudget,
  decodeVarSpecs,
  encodeVarSpecs,
  expandTokens,
  inferValueType,
  isPluralCategory,
  variableToken,
  type VarSpec,
} from './apple-plurals.js';
import {
  buildIcuMessage,
  hasChoice,
  parseIcuMessage,
  plainText,
  type IcuChoice,
  type IcuPart,
} from './icu-embedded.js';
import { appleNumber, branchPartsFromPlatform, branchToPlatform } from './plural.js';
import { defineFormat } from './define.js';
import { entryWriter } from './entry-writer.js';
import type { Bundle, BundleKey, FileFormat, FormatWriter, ParseOptions, SerializeOptions } from './model.js';
import { FormatError } from './model.js';
import { escapeXmlText, parseXml, type XmlElement } from './xml-safe.js';

/** Where an element starts, for error messages. */
const at = (el: XmlElement): { line: number; column: number } => ({ line: el.line, column: el.column });

export const localizableStringsDict: FileFormat = defineFormat({
  id: 'localizable-strings-dict',
  multiLanguage: false,
  namespaces: false,
  extension: 'stringsdict',
  contentType: 'application/x-plist; charset=utf-8',
  parse: async (input, options) => parseStringsDict(input, options),
  writer: stringsDictWriter,
});

// --- Reading --------------------------------------------------------------------

type PlistValue = string | PlistDict | PlistValue[] | number | boolean;
interface PlistDict {
  type: 'dict';
  entries: Map<string, PlistValue>;
}

const FORMAT_KEY = 'NSStringLocalizedFormatKey';
const SPEC_TYPE_KEY = 'NSStringFormatSpecTypeKey';
const VALUE_TYPE_KEY = 'NSStringFormatValueTypeKey';
const DEVICE_RULE = 'NSStringDeviceSpecificRuleType';
const WIDTH_RULE = 'NSStringVariableWidthRuleType';

function parseStringsDict(input: Buffer, options: ParseOptions): Bundle {
  const language = options.languageKey;
  if (!language) throw new FormatError('localizable-strings-dict files need a languageKey');
  const { root } = parseXml(input);
  if (root.name !== 'plist') throw new FormatError(`Not a property list: the root element is <${root.name}>`, at(root));
  const top = root.children.find((c): c is XmlElement => c.type === 'element');
  if (!top || top.name !== 'dict') throw new FormatError('A .stringsdict file must contain a <dict>', at(top ?? root));

  const keys = new Map<string, BundleKey>();
  const budget = new ExpansionBudget(input.length);
  let comment: string | undefined;
  let pendingKey: { name: string; description?: string; el: XmlElement } | undefined;
  for (const node of top.children) {
    if (node.type === 'comment') {
      comment = node.value.trim();
      continue;
    }
    if (node.type === 'text' || node.type === 'cdata') {
      if (node.value.trim()) throw new FormatError('Unexpected text inside <dict>', at(top));
      continue;
    }
    if (node.type !== 'element') continue;
    if (!pendingKey) {
      if (node.name !== 'key') throw new FormatError(`Expected <key> in <dict>, found <${node.name}>`, at(node));
      pendingKey = { name: textOf(node), description: comment, el: node };
      comment = undefined;
      continue;
    }
    const { name, description } = pendingKey;
    pendingKey = undefined;
    comment = undefined;
    const specs = new Map<string, VarSpec>();
    const text = entryText(name, readValue(node), specs, budget);
    if (text === null) continue;
    const key: BundleKey = { key: name, namespace: options.namespace ?? '', translations: { [language]: { text } } };
    if (description) key.description = description;
    const codeDescription = encodeVarSpecs(specs);
    if (codeDescription) key.codeDescription = codeDescription;
    keys.delete(name); // a repeated key: the last one wins, in its own position
    keys.set(name, key);
  }
  if (pendingKey) throw new FormatError(`<key>${pendingKey.name}</key> has no value`, at(pendingKey.el));
  return { keys: [...keys.values()], languages: [{ key: language }] };
}

function textOf(el: XmlElement): string {
  let out = '';
  for (const c of el.children) {
    if (c.type === 'text' || c.type === 'cdata') out += c.value;
    else if (c.type === 'element') throw new FormatError(`Unexpected <${c.name}> inside <${el.name}>`, at(c));
  }
  return out;
}

function readValue(el: XmlElement): PlistValue {
  switch (el.name) {
    case 'string':
    case 'date':
    case 'data':
      return textOf(el);
    case 'integer':
    case 'real':
      return Number(textOf(el).trim());
    case 'true':
      return true;
    case 'false':
      return false;
    case 'array':
      return el.children.filter((c): c is XmlElement => c.type === 'element').map(readValue);
    case 'dict': {
      const entries = new Map<string, PlistValue>();
      let key: string | undefined;
      for (const c of el.children) {
        if (c.type !== 'element') continue;
        if (key === undefined) {
          if (c.name !== 'key') throw new FormatError(`Expected <key> in <dict>, found <${c.name}>`, at(c));
          key = textOf(c);
        } else {
          entries.set(key, readValue(c));
          key = undefined;
        }
      }
      if (key !== undefined) throw new FormatError(`<key>${key}</key> has no value`, at(el));
      return { type: 'dict', entries };
    }
    default:
      throw new FormatError(`Unknown property list element <${el.name}>`, at(el));
  }
}

function isDict(v: PlistValue | undefined): v is PlistDict {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && v.type === 'dict';
}

/** The ICU/plain text of one top-level entry, or null when it holds no text. */
function entryText(
  name: string,
  value: PlistValue,
  specs: Map<string, VarSpec>,
  budget: ExpansionBudget,
): string | null {
  if (typeof value === 'string') return value;
  if (!isDict(value)) return null;
  const parts = entryParts(name, value, specs, budget);
  if (!parts) return null;
  return hasChoice(parts) ? buildIcuMessage(parts) : plainText(parts, () => '');
}

function entryParts(
  key: string,
  dict: PlistDict,
  specs: Map<string, VarSpec>,
  budget: ExpansionBudget,
): IcuPart[] | null {
  const format = dict.entries.get(FORMAT_KEY);
  if (typeof format === 'string') {
    const expand = (text: string, chain: string[]): IcuPart[] =>
      expandTokens(text, (name, position) => {
        const v = dict.entries.get(name);
        // A variable that refers to itself (directly or not) stays a literal token.
        if (!isDict(v) || chain.includes(name)) return null;
        let size = 0;
        for (const b of v.entries.values()) if (typeof b === 'string') size += b.length;
        budget.spend(key, size);
        if (!specs.has(name)) {
          const type = v.entries.get(VALUE_TYPE_KEY);
          specs.set(name, { position, type: typeof type === 'string' ? type : undefined });
        }
        const branches: IcuChoice['branches'] = [];
        for (const [k, branch] of v.entries) {
          if (isPluralCategory(k) && typeof branch === 'string')
            branches.push({
              key: k,
              parts: branchPartsFromPlatform(expand(branch, [...chain, name]), appleNumber(specs.get(name)?.type)),
            });
        }
        if (!branches.length) return null;
        return { type: 'choice', kind: 'plural', argument: name, branches };
      });
    return expand(format, []);
  }
  for (const [rule, argument] of [
    [DEVICE_RULE, 'device'],
    [WIDTH_RULE, 'width'],
  ] as const) {
    const variants = dict.entries.get(rule);
    if (!isDict(variants)) continue;
    const branches: IcuChoice['branches'] = [];
    for (const [k, v] of variants.entries) {
      const parts =
        typeof v === 'string'
          ? v
            ? [{ type: 'text' as const, value: v }]
            : []
          : isDict(v)
            ? entryParts(key, v, specs, budget)
            : null;
      if (parts && /^[^\s{}]+$/.test(k)) branches.push({ key: k, parts });
    }
    if (branches.length) return [{ type: 'choice', kind: 'select', argument, branches }];
  }
  return null;
}

// --- Writing --------------------------------------------------------------------

const PLIST_HEADER = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
  '<plist version="1.0">',
  '<dict>',
  '',
].join('\n');

function stringsDictWriter(options: SerializeOptions): FormatWriter {
  const language = options.languages[0]?.key;
  if (!language) throw new FormatError('localizable-strings-dict export needs one language');
  const withDescriptions = options.options.has('INCLUDE_DESCRIPTIONS');
  const entries = (keys: readonly BundleKey[]): string => {
    const out: string[] = [];
    for (const key of keys) {
      const t = key.translations[language];
      // Only plurals (and device/width variants) belong here; plain texts go to Localizable.strings.
      if (!t || !isStringsDictText(t.text)) continue;
      if (withDescriptions && key.description) out.push(`\t<!-- ${xmlComment(key.description)} -->`);
      out.push(`\t<key>${escapeXmlText(key.key)}</key>`);
      writeEntry(out, t.text, decodeVarSpecs(key.codeDescription), '\t');
    }
    return out.map((line) => `${line}\n`).join('');
  };
  return entryWriter({ header: () => PLIST_HEADER, entries, footer: () => '</dict>\n</plist>\n' });
}

function writeEntry(out: string[], text: string, specs: Map<string, VarSpec>, indent: string): void {
  const parts = parseIcuMessage(text);
  const i1 = `${indent}\t`;
  const i2 = `${i1}\t`;
  out.push(`${indent}<dict>`);
  const single = parts?.length === 1 && parts[0]!.type === 'choice' ? parts[0] : undefined;
  const rule =
    single?.kind === 'select'
      ? ({ device: DEVICE_RULE, width: WIDTH_RULE } as Record<string, string>)[single.argument]
      : undefined;
  if (single && rule) {
    out.push(`${i1}<key>${rule}</key>`, `${i1}<dict>`);
    for (const b of single.branches)
      out.push(
        `${i2}<key>${escapeXmlText(b.key)}</key>`,
        `${i2}<string>${escapeXmlText(plainText(b.parts, (c) => buildIcuMessage([c])))}</string>`,
      );
    out.push(`${i1}</dict>`);
  } else if (!parts || !hasChoice(parts)) {
    out.push(`${i1}<key>${FORMAT_KEY}</key>`, `${i1}<string>${escapeXmlText(text)}</string>`);
  } else {
    const vars = new Map<string, { type: string; branches: [string, string][] }>();
    const variable = (c: IcuChoice): string => {
      if (c.kind === 'select') return buildIcuMessage([c]);
      if (!vars.has(c.argument)) {
        const entry = { type: '', branches: [] as [string, string][] };
        vars.set(c.argument, entry);
        // `#` is written as %lld (what Xcode writes for an Int), or as the recorded value type.
        const recorded = specs.get(c.argument)?.type;
        const hasNumber = c.branches.some((b) => b.parts.some((p) => p.type === 'number'));
        const type = recorded ?? (hasNumber ? 'lld' : undefined);
        entry.branches = appleCategoryBranches(c.branches).map((b) => [
          b.key,
          branchToPlatform(b.parts, appleNumber(type), variable),
        ]);
        entry.type = type ?? inferValueType(entry.branches.map((b) => b[1]));
      }
      return variableToken(c.argument, specs.get(c.argument));
    };
    const format = plainText(parts, variable);
    out.push(`${i1}<key>${FORMAT_KEY}</key>`, `${i1}<string>${escapeXmlText(format)}</string>`);
    for (const [name, v] of vars) {
      out.push(
        `${i1}<key>${escapeXmlText(name)}</key>`,
        `${i1}<dict>`,
        `${i2}<key>${SPEC_TYPE_KEY}</key>`,
        `${i2}<string>NSStringPluralRuleType</string>`,
        `${i2}<key>${VALUE_TYPE_KEY}</key>`,
        `${i2}<string>${escapeXmlText(v.type)}</string>`,
      );
      for (const [cat, branch] of v.branches)
        out.push(`${i2}<key>${cat}</key>`, `${i2}<string>${escapeXmlText(branch)}</string>`);
      out.push(`${i1}</dict>`);
    }
  }
  out.push(`${indent}</dict>`);
}

/** A plural (anywhere in the text) or a device/width variant: what a .stringsdict entry is for. */
export function isStringsDictText(text: string): boolean {
  const parts = parseIcuMessage(text);
  if (!parts || !hasChoice(parts)) return false;
  const single = parts.length === 1 && parts[0]!.type === 'choice' ? parts[0] : undefined;
  return (
    single?.kind !== 'select' ||
    single.argument === 'device' ||
    single.argument === 'width' ||
    parts.some(containsPlural)
  );
}

function containsPlural(part: IcuPart): boolean {
  return part.type === 'choice' && (part.kind !== 'select' || part.branches.some((b) => b.parts.some(containsPlural)));
}

function xmlComment(s: string): string {
  return s.replace(/-(?=-)/g, '- ').replace(/-$/, '- ');
}
