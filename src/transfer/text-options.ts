// The import options that rewrite texts whatever the format, applied once to
// the parsed Bundle (the parsers leave texts as the file has them):
// - UNESCAPE_NEW_LINES: the two characters `\n` (and `\r\n`) become a line break;
// - UNESCAPE_SINGLE_QUOTES: `\'` becomes `'`;
// - TRIM_LEADING_TRAILING_SPACES: white space at both ends is removed, after
//   unescaping, so an escaped trailing line break is trimmed too.
// Key names, descriptions and customer overrides' keys are left alone; customer
// overrides' texts get the same treatment as base texts.
import type { Bundle, BundleTranslation } from '../formats/model.js';
import type { ImportOption } from './options.js';

type TextRewrite = (text: string) => string;

function rewriteOf(options: ReadonlySet<ImportOption>): TextRewrite | null {
  const steps: TextRewrite[] = [];
  if (options.has('UNESCAPE_NEW_LINES')) steps.push((t) => t.replace(/\\r\\n|\\n/g, '\n'));
  if (options.has('UNESCAPE_SINGLE_QUOTES')) steps.push((t) => t.replace(/\\'/g, "'"));
  if (options.has('TRIM_LEADING_TRAILING_SPACES')) steps.push((t) => t.trim());
  if (steps.length === 0) return null;
  return (text) => steps.reduce((t, step) => step(t), text);
}

function rewriteAll(translations: Record<string, BundleTranslation>, rewrite: TextRewrite): void {
  for (const translation of Object.values(translations)) translation.text = rewrite(translation.text);
}

/** Applies the text options to the bundle in place. */
export function applyTextOptions(bundle: Bundle, options: ReadonlySet<ImportOption>): void {
  const rewrite = rewriteOf(options);
  if (!rewrite) return;
  for (const key of bundle.keys) {
    rewriteAll(key.translations, rewrite);
    for (const overrides of Object.values(key.customerTranslations ?? {})) rewriteAll(overrides, rewrite);
  }
}
