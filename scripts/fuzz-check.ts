// One fuzz case, judged: the file goes through the parser as an import does
// (parse, then the bundle checks and text options of src/transfer), and when
// it is accepted, through the format's writer and parser again. The outcome
// says whether the service would answer well:
// - accepted / rejected: a bundle, or a FormatError (the import's 400);
// - untyped: any other exception from the parser (its message would reach the
//   user as "Cannot read properties of undefined"), or a bundle the later
//   steps cannot take (a non-string text, a key that is not a string: a 500);
// - export-failed: the writer throws on data its own parser accepted;
// - round-trip: parse → export → parse gives other texts than the first parse.
// Hangs, heap exhaustion and crashes are judged by the runner around this.
import { AppError } from '../src/errors.js';
import {
  FormatError,
  type Bundle,
  type BundleLanguage,
  type ImportOption as ParserOption,
} from '../src/formats/model.js';
import { parseIcuPlural, pluralCategories, toIcuPlural } from '../src/formats/plural.js';
import { isStringsDictText } from '../src/formats/stringsdict.js';
import { holdsSeveralLanguages, registeredFormat, type RegisteredFormat } from '../src/formats/registry.js';
import type { ImportOption } from '../src/transfer/options.js';
import { parserOptions } from '../src/transfer/options.js';
import { applyTextOptions } from '../src/transfer/text-options.js';
import { validateBundle } from '../src/transfer/validate-bundle.js';

export interface FuzzInput {
  formatId: string;
  bytes: Buffer;
  languageKey?: string;
  /** Import options (the parser's and the text options). */
  options: ImportOption[];
}

/** What the check decides, and what the runner adds: a hang (time limit), heap (out of memory) or crash (the process died). */
export type Verdict = 'accepted' | 'rejected' | 'untyped' | 'export-failed' | 'round-trip' | 'hang' | 'heap' | 'crash';
/** The verdicts that fail a run. */
export const FINDINGS: readonly Verdict[] = ['untyped', 'export-failed', 'round-trip', 'hang', 'heap', 'crash'];

export interface CheckResult {
  verdict: Verdict;
  /** Milliseconds in the first parse. */
  parseMs: number;
  detail?: string;
  /** Keys of an accepted file. */
  keys?: number;
}

const describeError = (error: unknown) =>
  error instanceof Error ? `${error.constructor.name}: ${error.message}`.slice(0, 500) : String(error).slice(0, 500);

/** Problems of a bundle that no later step expects (each would surface as a 500). */
export function shapeProblem(bundle: unknown): string | undefined {
  const b = bundle as Bundle;
  if (!b || !Array.isArray(b.keys) || !Array.isArray(b.languages))
    return 'the parser returned no keys/languages arrays';
  for (const language of b.languages)
    if (typeof language?.key !== 'string') return `a language key is ${typeof language?.key}`;
  for (const key of b.keys) {
    if (typeof key?.key !== 'string') return `a key name is ${typeof key?.key}`;
    if (typeof key.namespace !== 'string')
      return `the namespace of ${JSON.stringify(key.key)} is ${typeof key.namespace}`;
    for (const field of ['description', 'codeDescription'] as const) {
      if (key[field] !== undefined && typeof key[field] !== 'string')
        return `the ${field} of ${JSON.stringify(key.key)} is ${typeof key[field]}`;
    }
    if (key.tags !== undefined && (!Array.isArray(key.tags) || key.tags.some((t) => typeof t !== 'string')))
      return `the tags of ${JSON.stringify(key.key)} are not strings`;
    if (!key.translations || typeof key.translations !== 'object')
      return `the translations of ${JSON.stringify(key.key)} are missing`;
    const translations = [
      ...Object.values(key.translations),
      ...Object.values(key.customerTranslations ?? {}).flatMap((o) => Object.values(o)),
    ];
    for (const t of translations)
      if (typeof t?.text !== 'string') return `a text of ${JSON.stringify(key.key)} is ${typeof t?.text}`;
  }
  return undefined;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A key, namespace or text that is not well-formed UTF-16 (a lone surrogate), or undefined. */
export function unstorableText(bundle: Bundle): string | undefined {
  const bad = (s: string | undefined) => s !== undefined && LONE_SURROGATE.test(s);
  for (const language of bundle.languages)
    if (bad(language.key) || bad(language.name)) return `language ${JSON.stringify(language.key)}`;
  for (const key of bundle.keys) {
    if (bad(key.key) || bad(key.namespace) || bad(key.description) || bad(key.codeDescription))
      return `key ${JSON.stringify(key.key)} (name, namespace or description)`;
    for (const [language, t] of Object.entries(key.translations))
      if (bad(language) || bad(t.text))
        return `the ${language} text of ${JSON.stringify(key.key)}: ${JSON.stringify(t.text).slice(0, 120)}`;
  }
  return undefined;
}

/**
 * A text as what it shows in its language: in an ICU plural, a category whose branch is the
 * same as `other` says nothing `other` does not (ICU falls back to it), so
 * `{n, plural, one {X} other {X}}` and `{n, plural, other {X}}` are one text.
 * (A gettext or Qt file must write every form of its language; read back, the
 * forms are there with other's text.)
 */
const COUNT_PLACEHOLDER = /%(?:hh|h|ll|l|q|j|z|t)?[diu]/g;

export function meaningOf(text: string, language: string): string {
  const plural = parseIcuPlural(text);
  if (!plural) return text;
  // A category the language does not have is never chosen (`one` in Thai):
  // gettext and Qt, which write the language's forms, rightly drop it.
  const categories = new Set<string>(pluralCategories(language));
  // A printf count placeholder stored in a branch (`%d` where `#` was meant)
  // is written as it is by the platform formats and read back as `#`: the
  // documented normalization of plural.ts, not a loss.
  const branches = Object.fromEntries(
    Object.entries(plural.forms).map(([category, branch]) => [category, branch.replace(COUNT_PLACEHOLDER, '#')]),
  );
  const forms = Object.fromEntries(
    Object.entries(branches).filter(
      ([category, branch]) =>
        category === 'other' || category.startsWith('=') || (branch !== branches.other && categories.has(category)),
    ),
  );
  return toIcuPlural(forms, plural.argument);
}

/** key → language → text, as an import would store it (an empty text is no translation; the last of a repeated key wins). */
export function contentOf(bundle: Bundle, languages: readonly string[]): Map<string, Map<string, string>> {
  const content = new Map<string, Map<string, string>>();
  for (const key of bundle.keys) {
    const id = `${key.namespace}\u0000${key.key}`;
    const texts = content.get(id) ?? new Map<string, string>();
    for (const language of languages) {
      const text = key.translations[language]?.text;
      if (text) texts.set(language, meaningOf(text, language));
    }
    if (texts.size) content.set(id, texts);
  }
  return content;
}

const firstDifference = (a: string, b: string) => {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i;
};
/** Up to 80 characters of a text around an offset, quoted. */
const excerpt = (text: string, at: number) =>
  `${at > 40 ? '…' : ''}${JSON.stringify(text.slice(Math.max(0, at - 40), at + 40))}${at + 40 < text.length ? '…' : ''}`;

function pluralsOnly(content: Map<string, Map<string, string>>): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const [id, texts] of content) {
    const plurals = new Map([...texts].filter(([, text]) => isStringsDictText(text)));
    if (plurals.size) out.set(id, plurals);
  }
  return out;
}

/** The first difference between two contents, or undefined. */
export function contentDifference(
  before: Map<string, Map<string, string>>,
  after: Map<string, Map<string, string>>,
): string | undefined {
  const show = (id: string) => JSON.stringify(id.replace('\u0000', '/'));
  for (const [id, texts] of before) {
    const other = after.get(id);
    if (!other) return `key ${show(id)} is lost`;
    for (const [language, text] of texts) {
      const now = other.get(language);
      if (now !== text)
        return `key ${show(id)} ${language}: ${now === undefined ? `${excerpt(text, 0)} is lost` : `${excerpt(text, firstDifference(text, now))} became ${excerpt(now, firstDifference(text, now))}`}`;
    }
    if (other.size > texts.size)
      return `key ${show(id)} gained languages ${[...other.keys()].filter((l) => !texts.has(l)).join(', ')}`;
  }
  for (const id of after.keys()) if (!before.has(id)) return `key ${show(id)} appeared`;
  return undefined;
}

/** The languages a file written from the bundle holds, as the export engine would choose them. */
function exportLanguages(
  format: RegisteredFormat,
  bundle: Bundle,
  input: FuzzInput,
  options: ReadonlySet<string>,
): BundleLanguage[] {
  const found = new Map(bundle.languages.map((l) => [l.key, l]));
  for (const key of bundle.keys)
    for (const language of Object.keys(key.translations))
      if (!found.has(language)) found.set(language, { key: language });
  const all = [...found.values()];
  if (format.bilingual || holdsSeveralLanguages(format, options))
    return all.map((l, i) => ({ key: l.key, name: l.name, isDefault: i === 0 }));
  const one = input.languageKey ?? all[0]?.key;
  return one === undefined ? [] : [{ key: one, isDefault: true }];
}

/** Parse options of the format (namespace left to the file). */
const parseOptions = (input: FuzzInput) => ({
  languageKey: input.languageKey,
  options: parserOptions(input.options) as Set<ParserOption>,
});

/** Judges one input; `format` defaults to the registered format of input.formatId (tests hand in others). */
export async function check(
  input: FuzzInput,
  format: RegisteredFormat | undefined = registeredFormat(input.formatId),
): Promise<CheckResult> {
  if (!format) throw new Error(`unknown format ${input.formatId}`);
  const started = performance.now();
  let bundle: Bundle;
  try {
    bundle = await format.format.parse(input.bytes, parseOptions(input));
  } catch (error) {
    const parseMs = performance.now() - started;
    // A stack overflow on deep nesting is caught and answered 400 by the import (parse-upload.ts).
    if (
      error instanceof FormatError ||
      error instanceof AppError ||
      (error instanceof RangeError && /call stack/i.test(error.message))
    )
      return { verdict: 'rejected', parseMs, detail: describeError(error) };
    return { verdict: 'untyped', parseMs, detail: `parse threw ${describeError(error)}` };
  }
  const parseMs = performance.now() - started;
  const problem = shapeProblem(bundle);
  if (problem) return { verdict: 'untyped', parseMs, detail: problem };
  // The import's own checks: a 400 is a clean refusal, anything else a 500.
  try {
    validateBundle(bundle);
  } catch (error) {
    if (error instanceof AppError) return { verdict: 'rejected', parseMs, detail: describeError(error) };
    return { verdict: 'untyped', parseMs, detail: `validateBundle threw ${describeError(error)}` };
  }
  // PostgreSQL stores UTF-8: a lone surrogate would be stored as U+FFFD, a silent change.
  const unstorable = unstorableText(bundle);
  if (unstorable)
    return { verdict: 'round-trip', parseMs, detail: `accepted, but cannot be stored as it is: ${unstorable}` };
  const exportOptions = new Set(
    input.options.filter((o) => o === 'MULTI_LANGUAGE' || o === 'LANGUAGES_NESTED' || o === 'SHEETS_AS_NAMESPACES'),
  );
  const languages = exportLanguages(format, bundle, input, exportOptions);
  let before = contentOf(
    bundle,
    languages.map((l) => l.key),
  );

  let exported: Buffer;
  try {
    exported = await format.format.serialize(bundle, { languages, options: exportOptions });
  } catch (error) {
    if (error instanceof FormatError)
      return {
        verdict: 'accepted',
        parseMs,
        keys: bundle.keys.length,
        detail: `export refused: ${describeError(error)}`,
      };
    return { verdict: 'export-failed', parseMs, detail: describeError(error) };
  }
  let again: Bundle;
  try {
    again = await format.format.parse(
      exported,
      parseOptions({
        ...input,
        languageKey:
          input.languageKey ??
          (format.bilingual || holdsSeveralLanguages(format, exportOptions) ? undefined : languages[0]?.key),
      }),
    );
  } catch (error) {
    return { verdict: 'round-trip', parseMs, detail: `the export does not parse: ${describeError(error)}` };
  }
  let after = contentOf(
    again,
    languages.map((l) => l.key),
  );
  // A .stringsdict holds plurals (and device/width variants) only: its writer leaves plain texts to Localizable.strings.
  if (format.format.id === 'localizable-strings-dict') {
    before = pluralsOnly(before);
    after = pluralsOnly(after);
  }
  const difference = contentDifference(before, after);
  if (difference) return { verdict: 'round-trip', parseMs, detail: difference };

  // The text options run after parsing, on any bundle the checks let through.
  try {
    applyTextOptions(bundle, new Set(input.options));
  } catch (error) {
    return { verdict: 'untyped', parseMs, detail: `applyTextOptions threw ${describeError(error)}` };
  }
  return { verdict: 'accepted', parseMs, keys: bundle.keys.length };
}
