// Writes a bundle through a format's writer in pages of the given sizes, as
// the export engine does, to compare with format.serialize (one page).
import { fileOf, writePages } from '../../../../src/formats/define.js';
import type { Bundle, FileFormat, SerializeOptions } from '../../../../src/formats/model.js';

export async function serializeInPages(
  format: FileFormat,
  bundle: Bundle,
  options: Omit<SerializeOptions, 'namespacesInFile'>,
  pageSizes: readonly number[],
): Promise<Buffer> {
  const file = fileOf(format, bundle, options);
  return writePages(format.writer(file.options), pagesOf(file.keys, pageSizes));
}

/** Splits keys into pages whose sizes cycle through `sizes` (0: an empty page). */
export function pagesOf<T>(keys: readonly T[], sizes: readonly number[]): T[][] {
  const out: T[][] = [];
  let at = 0;
  for (let i = 0; at < keys.length; i++) {
    const size = sizes[i % sizes.length]!;
    out.push(keys.slice(at, at + size));
    at += size;
  }
  return out;
}

/** Page sizes that cover empty pages, single keys and uneven splits. */
export const PAGE_PATTERNS: readonly (readonly number[])[] = [[1], [0, 2, 1], [3, 0, 5], [1000]];
