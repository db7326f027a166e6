// defineFormat: a FileFormat from its parser and writer. serialize(bundle) is
// derived from the writer, so an in-memory serialization and a streamed export
// give the same bytes for the same keys in the same order; a format that
// streams gets parse(bytes) from its parseStream, so an upload read whole and
// one read as a stream go through the same reader.
import type {
  Bundle,
  BundleKey,
  FileChunk,
  FileFormat,
  FormatWriter,
  SerializeOptions,
  WriterOutput,
} from './model.js';
import { pathSortKey } from './nested-keys.js';
import { inMemory } from './text-stream.js';

/** A format's parts: parse, or parseStream alone (parse is then derived from it). */
export type FormatDefinition = Omit<FileFormat, 'serialize' | 'parse' | 'parseStream'> &
  (
    | { parse: FileFormat['parse']; parseStream?: FileFormat['parseStream'] }
    | { parse?: undefined; parseStream: NonNullable<FileFormat['parseStream']> }
  );

/**
 * One file of a bundle as the export engine hands it to the writer: the
 * file's namespace, one key per name for formats without namespaces, the
 * namespaces of its keys, and the order the format needs.
 */
export function fileOf(
  format: FormatDefinition,
  bundle: Bundle,
  given: Omit<SerializeOptions, 'namespacesInFile'>,
): { keys: BundleKey[]; options: SerializeOptions } {
  let keys = given.namespace === undefined ? bundle.keys : bundle.keys.filter((k) => k.namespace === given.namespace);
  if (!format.namespaces && given.namespace === undefined) keys = oneKeyPerName(keys);
  const options: SerializeOptions = {
    ...given,
    namespacesInFile: namespacesOf(keys),
    customers: given.customers ?? bundle.customers,
  };
  const order = format.keyOrder?.(options);
  if (order === 'path') {
    const sortKeys = new Map(keys.map((k) => [k, pathSortKey(k.key)]));
    keys = [...keys].sort((a, b) => Buffer.compare(sortKeys.get(a)!, sortKeys.get(b)!));
  } else if (order === 'namespace') {
    keys = [...keys].sort((a, b) => compareCodePoints(a.namespace, b.namespace));
  }
  return { keys, options };
}

/** Code-point order, as PostgreSQL's COLLATE "C" sorts UTF-8 text. */
export function compareCodePoints(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** The distinct namespaces of some keys, in code-point order. */
export function namespacesOf(keys: readonly { namespace: string }[]): string[] {
  return [...new Set(keys.map((k) => k.namespace))].sort(compareCodePoints);
}

/** For each key name, the key of the namespace first in code-point order; file order is kept. */
export function oneKeyPerName<T extends { key: string; namespace: string }>(keys: readonly T[]): T[] {
  const chosen = new Map<string, T>();
  for (const key of keys) {
    const current = chosen.get(key.key);
    if (!current || compareCodePoints(key.namespace, current.namespace) < 0) chosen.set(key.key, key);
  }
  return keys.filter((k) => chosen.get(k.key) === k);
}

export function chunkBytes(chunk: FileChunk): Buffer {
  return typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
}

/** The bytes a writer gives for keys handed over in pages (serialize: one page). */
export async function writePages(writer: FormatWriter, pages: Iterable<readonly BundleKey[]>): Promise<Buffer> {
  const file = new SectionedChunks();
  for (const page of pages) file.add(await writer.write(page));
  file.add(await writer.end());
  return file.bytes();
}

/** Writer output collected in memory, section by section. */
class SectionedChunks {
  private readonly sections: Buffer[][] = [];
  add(output: WriterOutput): void {
    const chunks = typeof output === 'string' || Buffer.isBuffer(output) ? [output] : output.sections;
    chunks.forEach((chunk, i) => (this.sections[i] ??= []).push(chunkBytes(chunk)));
  }
  bytes(): Buffer {
    return Buffer.concat(this.sections.flat());
  }
}

export function defineFormat(definition: FormatDefinition): FileFormat {
  const { parseStream } = definition;
  return {
    ...definition,
    parse:
      definition.parse ??
      ((input, options) => wholeFile(parseStream!(inMemory(input), options, Number.POSITIVE_INFINITY))),
    async serialize(bundle, given) {
      const { keys, options } = fileOf(definition, bundle, given);
      return writePages(definition.writer(options), [keys]);
    },
  };
}

/** The one chunk of a file read with chunks of unbounded size. */
async function wholeFile(chunks: AsyncIterable<Bundle>): Promise<Bundle> {
  let whole: Bundle | undefined;
  for await (const chunk of chunks) whole ??= chunk;
  return whole!;
}
