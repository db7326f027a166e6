// Xcode String Catalogs (.xcstrings, JSON).
//
//   { "sourceLanguage": "en", "version": "1.0",
//     "strings": { "key": { "comment": "...", "extractionState": "manual",
//       "localizations": { "de": { "stringUnit": { "state": "translated", "value": "..." } } } } } }
//
// Conventions:
// - `variations.plural` -> whole-text ICU plural `{count, plural, one {...} other {...}}`;
//   `variations.device` -> `{device, select, iphone {...} mac {...} other {...}}`.
//   Variations nest (device -> plural) and so do the ICU arguments.
// - `substitutions` (`"%#@files@ in %#@dirs@"` + plural per variable) -> ICU
//   text with the plurals embedded, as for .stringsdict; argNum, the token's
//   position and formatSpecifier go to the key's codeDescription
//   (apple-plurals.ts). On export a whole-text plural becomes a substitution
//   only when codeDescription says its argument was one; otherwise variations.
// - `comment` <-> description (written with INCLUDE_DESCRIPTIONS).
// - States. Review is the team's workflow in this service, not the app's:
//   Xcode's `needs_review` is shown as a warning and a non-empty text is used
//   by the app whatever its state, so export writes every non-empty text as
//   `translated` (REVIEWED and NOT_REVIEWED alike) and leaves an empty one
//   out (no localization: Xcode's "untranslated", the app falls back to the
//   source language). So review status does not round-trip through the file:
//   import gives a translation whose string units are all `translated` no
//   review status (the service's own status is kept, NOT_REVIEWED for a new
//   one), and one with any other state (`needs_review`, `new`, `stale`) is
//   NOT_REVIEWED, so a state a translator set in Xcode is not lost.
// - The number of a plural (a `variations.plural` case or a substitution):
//   `#` in ICU, `%lld` in the catalog (what Xcode writes for an Int), or the
//   substitution's integer formatSpecifier (`d` -> `%d`). Import reads the
//   first non-positional integer placeholder of a case (`%d`, `%lld`, `%li`,
//   `%u`...) as `#`; a literal `%` in a case is `%%`. See plural.ts.
// - `extractionState: "stale"` <-> deprecated. Other extraction states are kept
//   as a tag `extractionState:<value>` and `shouldTranslate: false` as the tag
//   `shouldTranslate:false`, both written back on export.
// - A key without a localization for the source language is imported without
//   a source translation (Xcode shows the key itself); nothing is invented.
// - Export: version "1.0", keys in the order given (the export engine sorts),
//   the properties of each entry and the languages sorted as Xcode writes
//   them, Xcode's `"key" : value` layout. The source language is the default
//   language among `languages`, else the first. A language without a
//   translation of a key gets no localization (Xcode's "untranslated").
// - String Catalogs have no namespaces; a key present in several namespaces is
//   written once (the export engine hands over one key per name).
// - Export is streamed: "sourceLanguage" (known from the options) and the
//   opening of "strings", one member per key, then "version" after them (the
//   properties stay in Xcode's sorted order).
import {
  appleCategoryBranches,
  decodeVarSpecs,
  encodeVarSpecs,
  ExpansionBudget,
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
import {
  APPLE_NUMBER,
  appleNumber,
  branchPartsFromPlatform,
  branchToPlatform,
  type NumberPlaceholder,
} from './plural.js';
import { defineFormat } from './define.js';
import { entryWriter } from './entry-writer.js';
import { JsonMembers, type JsonLayout } from './json-object-writer.js';
import { isJsonObject, parseJson } from './json-safe.js';
import type {
  Bundle,
  BundleKey,
  BundleLanguage,
  BundleTranslation,
  FileFormat,
  FormatWriter,
  ParseOptions,
  ReviewStatus,
  SerializeOptions,
} from './model.js';
import { FormatError } from './model.js';

export const localizableXcstrings: FileFormat = defineFormat({
  id: 'localizable-xcstrings',
  multiLanguage: true,
  namespaces: false,
  extension: 'xcstrings',
  contentType: 'application/json; charset=utf-8',
  parse: async (input, options) => parseXcstrings(input, options),
  writer: xcstringsWriter,
});

type Json = Record<string, unknown>;

const EXTRACTION_TAG = 'extractionState:';
const NO_TRANSLATE_TAG = 'shouldTranslate:false';

// --- Reading --------------------------------------------------------------------

function parseXcstrings(input: Buffer, options: ParseOptions): Bundle {
  const doc = parseJson(input);
  if (!isJsonObject(doc)) throw new FormatError('A String Catalog must be a JSON object');
  const source = doc.sourceLanguage;
  if (typeof source !== 'string' || !source) throw new FormatError('A String Catalog needs a "sourceLanguage"');
  const strings = doc.strings ?? {};
  if (!isJsonObject(strings)) throw new FormatError('"strings" must be an object');

  const languages: BundleLanguage[] = [{ key: source, isDefault: true }];
  const seen = new Set([source]);
  const budget = new ExpansionBudget(input.length);
  const keys: BundleKey[] = [];
  for (const [name, entry] of Object.entries(strings)) {
    if (!isJsonObject(entry)) throw new FormatError(`strings[${JSON.stringify(name)}] must be an object`);
    const key: BundleKey = { key: name, namespace: options.namespace ?? '', translations: {} };
    if (typeof entry.comment === 'string') key.description = entry.comment;
    const tags: string[] = [];
    if (entry.extractionState === 'stale') key.deprecated = true;
    else if (typeof entry.extractionState === 'string') tags.push(EXTRACTION_TAG + entry.extractionState);
    if (entry.shouldTranslate === false) tags.push(NO_TRANSLATE_TAG);
    if (tags.length) key.tags = tags;

    const localizations = entry.localizations ?? {};
    if (!isJsonObject(localizations))
      throw new FormatError(`strings[${JSON.stringify(name)}].localizations must be an object`);
    const specs = new Map<string, VarSpec>();
    for (const [lang, loc] of Object.entries(localizations)) {
      if (!isJsonObject(loc))
        throw new FormatError(
          `strings[${JSON.stringify(name)}].localizations[${JSON.stringify(lang)}] must be an object`,
        );
      const reader = new LocalizationReader(name, loc, specs, budget);
      const parts = reader.parts(loc, []);
      if (!parts) continue;
      const translation: BundleTranslation = {
        text: hasChoice(parts) ? buildIcuMessage(parts) : plainText(parts, () => ''),
      };
      const status = reader.status();
      if (status) translation.reviewStatus = status;
      key.translations[lang] = translation;
      if (!seen.has(lang)) {
        seen.add(lang);
        languages.push({ key: lang });
      }
    }
    const codeDescription = encodeVarSpecs(specs);
    if (codeDescription) key.codeDescription = codeDescription;
    keys.push(key);
  }
  return { keys, languages };
}

class LocalizationReader {
  private states: string[] = [];
  private readonly sizes = new Map<string, number>();
  private readonly substitutions: Json;

  constructor(
    private readonly key: string,
    loc: Json,
    private readonly specs: Map<string, VarSpec>,
    private readonly budget: ExpansionBudget,
  ) {
    this.substitutions = isJsonObject(loc.substitutions) ? loc.substitutions : {};
  }

  /** The message of a localization (or of one of its variations), null when it has none. */
  parts(loc: Json, chain: string[], number?: NumberPlaceholder): IcuPart[] | null {
    const variations = loc.variations;
    if (isJsonObject(variations)) {
      for (const [kind, argument] of [
        ['plural', 'count'],
        ['device', 'device'],
      ] as const) {
        const cases = variations[kind];
        if (!isJsonObject(cases)) continue;
        const branches: IcuChoice['branches'] = [];
        for (const [k, v] of Object.entries(cases)) {
          if (kind === 'plural' ? !isPluralCategory(k) : !/^[^\s{}]+$/.test(k)) continue;
          const parts = isJsonObject(v) ? this.parts(v, chain, kind === 'plural' ? APPLE_NUMBER : undefined) : null;
          if (parts) branches.push({ key: k, parts });
        }
        if (branches.length)
          return [{ type: 'choice', kind: kind === 'plural' ? 'plural' : 'select', argument, branches }];
      }
    }
    const unit = loc.stringUnit;
    if (!isJsonObject(unit) || typeof unit.value !== 'string') return null;
    if (typeof unit.state === 'string') this.states.push(unit.state);
    const parts = this.expand(unit.value, chain);
    return number ? branchPartsFromPlatform(parts, number) : parts;
  }

  private expand(value: string, chain: string[]): IcuPart[] {
    return expandTokens(value, (name, position) => {
      const sub = Object.hasOwn(this.substitutions, name) ? this.substitutions[name] : undefined;
      if (!isJsonObject(sub) || chain.includes(name)) return null;
      const cases = isJsonObject(sub.variations) && isJsonObject(sub.variations.plural) ? sub.variations.plural : null;
      if (!cases) return null;
      if (!this.specs.has(name)) {
        this.specs.set(name, {
          position,
          type: typeof sub.formatSpecifier === 'string' ? sub.formatSpecifier : undefined,
          argNum: typeof sub.argNum === 'number' ? sub.argNum : undefined,
        });
      }
      let size = this.sizes.get(name);
      if (size === undefined) this.sizes.set(name, (size = JSON.stringify(cases).length));
      this.budget.spend(this.key, size);
      const branches: IcuChoice['branches'] = [];
      for (const [k, v] of Object.entries(cases)) {
        if (!isPluralCategory(k) || !isJsonObject(v)) continue;
        const parts = this.parts(v, [...chain, name], appleNumber(this.specs.get(name)?.type));
        if (parts) branches.push({ key: k, parts });
      }
      return branches.length ? { type: 'choice', kind: 'plural', argument: name, branches } : null;
    });
  }

  status(): ReviewStatus | undefined {
    if (!this.states.length) return undefined;
    return this.states.every((s) => s === 'translated') ? undefined : 'NOT_REVIEWED';
  }
}

// --- Writing --------------------------------------------------------------------

/** Xcode's JSON layout (see formatXcodeJson), for streamed objects. */
const XCODE_LAYOUT: JsonLayout = { colon: ' : ', emptyInside: (indent) => `\n\n${indent}`, value: formatXcodeJson };

function xcstringsWriter(options: SerializeOptions): FormatWriter {
  const source = (options.languages.find((l) => l.isDefault) ?? options.languages[0])?.key;
  if (!source) throw new FormatError('localizable-xcstrings export needs at least one language');
  const languages = [...new Set(options.languages.map((l) => l.key))].sort(xcodeOrder);
  const withDescriptions = options.options.has('INCLUDE_DESCRIPTIONS');

  const entryOf = (key: BundleKey): Json => {
    const entry: Json = {};
    if (withDescriptions && key.description) entry.comment = key.description;
    const extraction = key.deprecated
      ? 'stale'
      : key.tags?.find((t) => t.startsWith(EXTRACTION_TAG))?.slice(EXTRACTION_TAG.length);
    if (extraction && (extraction !== 'stale' || key.deprecated)) entry.extractionState = extraction;
    const specs = decodeVarSpecs(key.codeDescription);
    const localizations: Json = {};
    for (const lang of languages) {
      const t = key.translations[lang];
      if (t && t.text !== '') localizations[lang] = new LocalizationWriter(specs, 'translated').localization(t.text);
    }
    if (Object.keys(localizations).length) entry.localizations = localizations;
    if (key.tags?.includes(NO_TRANSLATE_TAG)) entry.shouldTranslate = false;
    return entry;
  };

  // The top-level members in Xcode's (sorted) order; "strings" grows key by key, in the given order.
  const doc = new JsonMembers('object', '', XCODE_LAYOUT);
  const strings = new JsonMembers('object', doc.inner, XCODE_LAYOUT);
  return entryWriter({
    header: () => doc.open() + doc.member('sourceLanguage', source) + doc.name('strings') + strings.open(),
    entries: (keys) => keys.map((k) => strings.member(k.key, entryOf(k))).join(''),
    footer: () => strings.close() + doc.member('version', '1.0') + doc.close(),
  });
}

class LocalizationWriter {
  private readonly substitutions = new Map<string, Json>();
  constructor(
    private readonly specs: Map<string, VarSpec>,
    private readonly state: string,
  ) {}

  localization(text: string): Json {
    const parts = parseIcuMessage(text);
    if (!parts || !hasChoice(parts)) return { stringUnit: this.unit(text) };
    const loc = this.fromParts(parts);
    if (this.substitutions.size) loc.substitutions = Object.fromEntries(this.substitutions);
    return loc;
  }

  private unit(value: string): Json {
    return { state: this.state, value };
  }

  private fromParts(parts: IcuPart[], number?: NumberPlaceholder): Json {
    const only = parts.length === 1 && parts[0]!.type === 'choice' ? parts[0] : undefined;
    if (only && only.kind !== 'select' && this.specs.get(only.argument)?.argNum == null) {
      const plural: Json = {};
      for (const b of appleCategoryBranches(only.branches)) plural[b.key] = this.fromParts(b.parts, APPLE_NUMBER);
      return { variations: { plural } };
    }
    if (only && only.kind === 'select' && only.argument === 'device') {
      const device: Json = {};
      for (const b of only.branches) device[b.key] = this.fromParts(b.parts);
      return { variations: { device } };
    }
    return { stringUnit: this.unit(this.render(parts, number)) };
  }

  /**
   * Plain text with plurals replaced by substitution tokens (registered on
   * the way); in a plural case (`number` given) `#` is the number.
   */
  private render(parts: IcuPart[], number?: NumberPlaceholder): string {
    const choice = (c: IcuChoice): string => {
      if (c.kind === 'select') return buildIcuMessage([c]);
      const spec = this.specs.get(c.argument);
      if (!this.substitutions.has(c.argument)) {
        const sub: Json = {};
        this.substitutions.set(c.argument, sub);
        const plural: Json = {};
        const texts: string[] = [];
        const hasNumber = c.branches.some((b) => b.parts.some((p) => p.type === 'number'));
        const type = spec?.type ?? (hasNumber ? 'lld' : undefined);
        for (const b of appleCategoryBranches(c.branches)) {
          const value = this.render(b.parts, appleNumber(type));
          texts.push(value);
          plural[b.key] = { stringUnit: this.unit(value) };
        }
        const position = spec?.position ? parseInt(spec.position, 10) : NaN;
        sub.argNum = spec?.argNum ?? (Number.isNaN(position) ? this.substitutions.size : position);
        sub.formatSpecifier = type ?? inferValueType(texts);
        sub.variations = { plural };
      }
      return variableToken(c.argument, spec);
    };
    return number ? branchToPlatform(parts, number, choice) : plainText(parts, choice);
  }
}

/** Xcode's property order: case-insensitive (zh-Hans, zh-Hant, zh-HK). */
function xcodeOrder(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

/** JSON as Xcode writes String Catalogs: two-space indent, `"key" : value`, properties sorted, no final newline. */
function formatXcodeJson(value: unknown, indent: string): string {
  if (Array.isArray(value)) {
    if (!value.length) return '[]';
    const inner = indent + '  ';
    return `[\n${value.map((v) => inner + formatXcodeJson(v, inner)).join(',\n')}\n${indent}]`;
  }
  if (isJsonObject(value)) {
    const entries = Object.entries(value).sort(([a], [b]) => xcodeOrder(a, b));
    if (!entries.length) return '{\n\n' + indent + '}';
    const inner = indent + '  ';
    return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)} : ${formatXcodeJson(v, inner)}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}
