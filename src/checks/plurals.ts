// Plural forms as the target language needs them (CLDR, through
// Intl.PluralRules). Every platform's plural (Android <plurals>, gettext
// msgstr[n], .stringsdict, Qt numerus, xcstrings) is stored as an ICU plural
// message (src/formats/plural.ts), so one reading covers them all.
//
// A category is needed when a whole number up to 1000 falls in it, plus
// `other` (ICU requires it): French, Spanish, Italian and Portuguese have a
// `many` for millions and Czech a `many` for fractions; a message without
// them falls back to `other` correctly for counts of things, so they are
// neither missing nor superfluous. An exact selector covers a category when
// it holds all the category's numbers (`=1` is Polish `one`, not Russian `one`).
import { TYPE, type MessageFormatElement, type PluralElement } from '@formatjs/icu-messageformat-parser';

export interface PluralNeeds {
  /** Categories whole numbers fall in, and `other`. */
  needed: string[];
  /** Every category of the language (the needed ones and those only fractions or millions reach). */
  all: string[];
  /** The numbers up to 1000 of each category, to see whether exact selectors cover it. */
  numbers: Map<string, number[]>;
}

const needsMemo = new Map<string, PluralNeeds>();

export function pluralNeeds(language: string, ordinal = false): PluralNeeds {
  const id = `${ordinal ? 'o' : 'c'}:${language}`;
  let needs = needsMemo.get(id);
  if (!needs) {
    let rules: Intl.PluralRules;
    try {
      rules = new Intl.PluralRules(language.replace(/_/g, '-'), { type: ordinal ? 'ordinal' : 'cardinal' });
    } catch {
      rules = new Intl.PluralRules('en', { type: ordinal ? 'ordinal' : 'cardinal' });
    }
    const numbers = new Map<string, number[]>();
    for (let n = 0; n <= 1000; n++) {
      const category = rules.select(n);
      const list = numbers.get(category);
      if (list) list.push(n);
      else numbers.set(category, [n]);
    }
    const all = rules.resolvedOptions().pluralCategories as string[];
    const order = ['zero', 'one', 'two', 'few', 'many', 'other'];
    const needed = order.filter((c) => numbers.has(c) || c === 'other');
    needs = { needed, all: order.filter((c) => all.includes(c)), numbers };
    needsMemo.set(id, needs);
  }
  return needs;
}

/** The plural and selectordinal arguments of an ICU message, nested ones included. */
export function pluralElements(elements: MessageFormatElement[] | null, into: PluralElement[] = []): PluralElement[] {
  for (const element of elements ?? []) {
    if (element.type === TYPE.plural) into.push(element);
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      for (const option of Object.values(element.options)) pluralElements(option.value, into);
    }
    if (element.type === TYPE.tag) pluralElements(element.children, into);
  }
  return into;
}

export interface PluralProblem {
  kind: 'missing' | 'empty' | 'superfluous' | 'pound';
  argument: string;
  categories: string[];
  element: PluralElement;
}

function covered(category: string, exact: Set<number>, needs: PluralNeeds): boolean {
  const numbers = needs.numbers.get(category) ?? [];
  return numbers.length > 0 && numbers.length <= 3 && numbers.every((n) => exact.has(n));
}

function isEmpty(elements: MessageFormatElement[]): boolean {
  return elements.every((e) => e.type === TYPE.literal && e.value.trim() === '');
}

function usesNumber(elements: MessageFormatElement[], argument: string): boolean {
  return elements.some(
    (e) =>
      e.type === TYPE.pound ||
      ((e.type === TYPE.argument || e.type === TYPE.number) && e.value === argument) ||
      (e.type === TYPE.tag && usesNumber(e.children, argument)),
  );
}

/** Missing and superfluous categories, and forms that lost the number, of each plural of the target. */
export function pluralProblems(
  source: MessageFormatElement[] | null,
  target: MessageFormatElement[] | null,
  sourceLanguage: string,
  targetLanguage: string,
): PluralProblem[] {
  const problems: PluralProblem[] = [];
  const sourcePlurals = pluralElements(source);
  for (const element of pluralElements(target)) {
    const ordinal = element.pluralType === 'ordinal';
    const needs = pluralNeeds(targetLanguage, ordinal);
    const keys = Object.keys(element.options);
    const exact = new Set(keys.filter((k) => /^=\d+$/.test(k)).map((k) => Number(k.slice(1))));
    const categories = keys.filter((k) => !k.startsWith('='));
    const missing = needs.needed.filter((c) => !categories.includes(c) && !covered(c, exact, needs));
    if (missing.length) problems.push({ kind: 'missing', argument: element.value, categories: missing, element });
    // A category the source has though its language does not use it either is a platform's convention
    // (Apple's `zero` for exactly 0, written back to the file), not the translator's doing.
    const sourceElement = sourcePlurals.find((p) => p.value === element.value && p.pluralType === element.pluralType);
    const sourceConvention = (c: string) =>
      !!sourceElement && c in sourceElement.options && !pluralNeeds(sourceLanguage, ordinal).all.includes(c);
    const superfluous = categories.filter((c) => !needs.all.includes(c) && !sourceConvention(c));
    if (superfluous.length)
      problems.push({ kind: 'superfluous', argument: element.value, categories: superfluous, element });
    // A form left empty where the source's is not.
    const empty = categories.filter(
      (c) =>
        needs.all.includes(c) &&
        isEmpty(element.options[c]!.value) &&
        !(sourceElement && c in sourceElement.options && isEmpty(sourceElement.options[c]!.value)),
    );
    if (empty.length) problems.push({ kind: 'empty', argument: element.value, categories: empty, element });
    // The number: if the source's forms show it, a form for many numbers must too (a form for one number,
    // such as English `one` or `=0`, may say it in words).
    if (
      sourceElement &&
      Object.entries(sourceElement.options).some(
        ([k, o]) => !k.startsWith('=') && k !== 'one' && usesNumber(o.value, element.value),
      )
    ) {
      const lost = categories.filter(
        (c) =>
          needs.all.includes(c) &&
          (needs.numbers.get(c)?.length ?? 2) > 1 &&
          !isEmpty(element.options[c]!.value) &&
          !usesNumber(element.options[c]!.value, element.value),
      );
      if (lost.length) problems.push({ kind: 'pound', argument: element.value, categories: lost, element });
    }
  }
  return problems;
}
