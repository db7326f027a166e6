// Checks a parsed file against the field rules of the content model
// (src/content/translations/fields.ts, the key rules of src/content/keys/input.ts) before
// anything is written, so a bad file is refused as a whole with a message
// naming the problem. Text the database cannot store (U+0000, lone
// surrogates) is refused here rather than failing in the transaction.
import { badRequest } from '../errors.js';
import type { Bundle, BundleKey } from '../formats/model.js';
import { keyProblem, namespaceProblem } from '../content/keys/input.js';
import {
  identifierProblem,
  lengthProblem,
  LIMITS,
  storableTextProblem,
  type FieldName,
} from '../content/translations/fields.js';

const preview = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s);

const nameOf = (k: BundleKey) => `key ${preview(k.key)}`;

function check(problem: string | undefined): void {
  if (problem) throw badRequest(problem);
}

function checkText(value: string | undefined, field: FieldName, max?: number): void {
  if (value === undefined || value === null) return;
  check(storableTextProblem(value, field));
  if (max !== undefined) check(lengthProblem(value, field, max));
}

export function checkLanguageKey(key: unknown, field: string): void {
  check(identifierProblem(key, field, LIMITS.languageKey));
  checkText(key as string, field);
}

function checkCustomerKey(key: unknown, field: string): void {
  check(identifierProblem(key, field, LIMITS.customerKey));
  checkText(key as string, field);
}

export function checkTags(tags: readonly string[], field: string): void {
  if (tags.length > LIMITS.tags) throw badRequest(`${field} must hold at most ${LIMITS.tags} tags`);
  for (const tag of tags) {
    if (tag.trim() === '') throw badRequest(`${field} must not hold an empty tag`);
    checkText(tag, `tag ${preview(tag)}`, LIMITS.tag);
  }
}

/** `keysBefore`: keys of the file's earlier chunks, so a key's number in a message counts from the file's start. */
export function validateBundle(bundle: Bundle, keysBefore = 0): void {
  for (const language of bundle.languages) {
    checkLanguageKey(language.key, `The language key ${preview(String(language.key))}`);
    checkText(language.name, `The name of language ${preview(language.key)}`, LIMITS.languageName);
  }
  for (const customer of bundle.customers ?? []) {
    checkCustomerKey(customer.key, `The customer key ${preview(String(customer.key))}`);
    checkText(customer.description, `The description of customer ${preview(customer.key)}`, LIMITS.customerDescription);
  }
  // Names in messages are functions, built only for a value with a problem; each language
  // and customer key is checked once (a large file repeats them in every key). Nothing named is
  // made per key: run through tsx (the benchmarks, development), every named function made is
  // also given its name by a call (esbuild's keepNames), a cost per key.
  const languagesChecked = new Set<string>();
  const customersChecked = new Set<string>();
  const checkLanguage = (language: string, k: BundleKey) => {
    if (languagesChecked.has(language)) return;
    checkLanguageKey(language, `The language ${preview(language)} of ${nameOf(k)}`);
    languagesChecked.add(language);
  };
  bundle.keys.forEach((k, index) => {
    // The key rules of every path that creates keys (src/content/keys/input.ts).
    if (typeof k.key !== 'string' || k.key.trim() === '')
      throw badRequest(`Key #${keysBefore + index + 1} of the file has an empty name`);
    check(keyProblem(k.key, () => `The ${nameOf(k)}`));
    check(namespaceProblem(k.namespace, () => `The namespace of ${nameOf(k)}`));
    checkText(k.description, () => `The description of ${nameOf(k)}`, LIMITS.description);
    checkText(k.codeDescription, () => `The codeDescription of ${nameOf(k)}`, LIMITS.codeDescription);
    if (k.tags) checkTags(k.tags, `The tags of ${nameOf(k)}`);
    if (
      k.charactersLimit != null &&
      (!Number.isInteger(k.charactersLimit) || k.charactersLimit < 0 || k.charactersLimit > 2 ** 31 - 1)
    ) {
      throw badRequest(`The charactersLimit of ${nameOf(k)} must be a non-negative integer`);
    }
    for (const language in k.translations) {
      checkLanguage(language, k);
      checkText(k.translations[language]!.text, () => `The ${language} text of ${nameOf(k)}`);
    }
    for (const customer in k.customerTranslations ?? {}) {
      if (!customersChecked.has(customer)) {
        checkCustomerKey(customer, `The customer key ${preview(customer)} of ${nameOf(k)}`);
        customersChecked.add(customer);
      }
      const overrides = k.customerTranslations![customer]!;
      for (const language in overrides) {
        checkLanguage(language, k);
        checkText(
          overrides[language]!.text,
          () => `The ${language} text of customer ${preview(customer)} for ${nameOf(k)}`,
        );
      }
    }
  });
}
