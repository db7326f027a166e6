// The FormatWriter of a text file made of a header, one entry per key and a
// footer (PO, .strings, .properties, CSV, JSON documents, ...). The header
// goes out with the first chunk, from write() or, when no key came, from end().
import type { BundleKey, FormatWriter } from './model.js';

export interface FileParts {
  /** Text before the first entry ('' when the file has none). */
  header?(): string;
  /** The text of one page of keys; may keep small state such as "first entry written". */
  entries(keys: readonly BundleKey[]): string;
  /** Text after the last entry. */
  footer?(): string;
}

export function entryWriter(parts: FileParts): FormatWriter {
  let started = false;
  const start = (): string => {
    if (started) return '';
    started = true;
    return parts.header?.() ?? '';
  };
  return {
    write: (keys) => start() + parts.entries(keys),
    end: () => start() + (parts.footer?.() ?? ''),
  };
}
