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
 * A key name's plural suffix (POSIX and JavaScript regular expression alike):
 * the key without it names the message whose forms the keys are.
 */
export const PLURAL_KEY_SUFFIX = '([_.]ordinal)?[_.](zero|one|two|few|many|other|plural)$';

/** The message a key is a plural form of (the key itself when it is none). */
export function pluralBase(key: string): string {
  return key.replace(new RegExp(PLURAL_KEY_SUFFIX), '');
}

/**
 * What makes two source texts the same for ambiguous-translation (as a SQL
 * regular expression removed before lower-casing): "Settings", "settings" and
 * "Settings:" are one source, which a language may well translate alike.
 */
export const SOURCE_END_MARKS = '[[:space:].:!?…。]+$';

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
  enabled: true,
  scope: 'project',
  run: () => [],
};

export const CONSISTENCY_CHECK_IDS: readonly string[] = [inconsistentTranslation.id, ambiguousTranslation.id];
