// The consistency checks (docs/quality-checks.md, "Consistency"): a cell
// compared with the project's other cells of its language, not with its own
// source alone, so no pair of texts decides them. They are defined here with
// the others (id, severity, on by default, settings, dismissals) and computed
// by the findings updater in SQL, per group of cells (src/findings/consistency.ts):
//   - inconsistent-translation: keys with the same source text whose
//     translations in one language differ ("Save" → "Speichern" and "Sichern");
//   - ambiguous-translation: one language's text used for different source
//     texts ("Öffnen" for "Open" and "Close").
// Keys that are plural forms of one message (i18next `items_one`/`items_other`,
// `item`/`item_plural`) are not compared with each other: a language without
// that plural distinction translates them alike, and one with more forms
// translates the same source otherwise.
import type { CheckDefinition } from './types.js';

/**
 * A key name's plural suffix (POSIX and JavaScript regular expression alike,
 * matched ignoring case): the key without it names the message whose forms the
 * keys are. i18next `_one`…`_other`, `_plural`, `_ordinal_one`; Rails `.one`;
 * Humanizer's `_Singular`, `_Dual`, `_Plural`.
 */
export const PLURAL_KEY_SUFFIX = '([_.]ordinal)?[_.](zero|one|two|few|many|other|plural|singular|dual|paucal)$';

/** The message a key is a plural form of (the key itself when it is none). */
export function pluralBase(key: string): string {
  return key.replace(new RegExp(PLURAL_KEY_SUFFIX, 'i'), '');
}

/**
 * What makes two source texts the same for ambiguous-translation: markup
 * (a tag, an escaped tag), runs of white space, end marks and case aside,
 * "Settings", "settings:" and "Bring them from<br/>Google" / "Bring them from
 * Google" are one source, which a language may well translate alike. As SQL
 * regular expressions (sourceIdentitySql in src/findings/consistency.ts) and
 * in JavaScript (sourceIdentity), the same rules.
 */
export const SOURCE_MARKUP = '<[^>]*>|&lt;[^&]*&gt;';
export const SOURCE_END_MARKS = '[[:space:].:!?…。]+$';

export function sourceIdentity(text: string): string {
  return text
    .replace(new RegExp(SOURCE_MARKUP, 'g'), ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s.:!?…。]+$/u, '')
    .toLowerCase();
}

export const inconsistentTranslation: CheckDefinition = {
  id: 'inconsistent-translation',
  category: 'consistency',
  title: 'Same source text translated differently',
  severity: 'warning',
  enabled: true,
  scope: 'project',
  run: () => [],
};

export const ambiguousTranslation: CheckDefinition = {
  id: 'ambiguous-translation',
  category: 'consistency',
  title: 'Same translation for different source texts',
  severity: 'warning',
  // Off by default: on the corpus most of its findings are synonyms, abbreviations and spelling
  // variants translated alike (docs/quality-checks.md); the rest are real mistakes, worth turning it on for a review.
  enabled: false,
  scope: 'project',
  run: () => [],
};

export const CONSISTENCY_CHECK_IDS: readonly string[] = [inconsistentTranslation.id, ambiguousTranslation.id];
