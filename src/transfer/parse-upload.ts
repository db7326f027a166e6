// Reads an uploaded file into a Bundle, before any transaction opens, or, for
// the formats that stream (JSON, java-properties, CSV, TSV, PO:
// FileFormat.parseStream), into chunks read inside the import's transaction
// as they are written. Whatever goes wrong while parsing (a FormatError with
// its line, or any exception a parser lets escape, a stack overflow included)
// is a 400 naming the format: a bad file never answers 500. Each bundle or
// chunk then gets the same treatment: namespace default, validateBundle, text
// options. Before any of it, a file plainly of another kind than the format
// reads (a JSON file uploaded as java-properties) is refused, naming both
// (src/formats/sniff.ts).
import { AppError, badRequest } from '../errors.js';
import type { Bundle, OpenFile } from '../formats/model.js';
import { holdsSeveralLanguages, type RegisteredFormat } from '../formats/registry.js';
import { contentMismatch, SNIFF_BYTES } from '../formats/sniff.js';
import { parserOptions, type ImportOption } from './options.js';
import { applyTextOptions } from './text-options.js';
import { validateBundle } from './validate-bundle.js';

export interface ParseUploadRequest {
  format: RegisteredFormat;
  data: Buffer;
  languageKey?: string;
  namespace?: string;
  options: ReadonlySet<ImportOption>;
}

function parseFailure(formatId: string, error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    return badRequest(`The file is not a valid ${formatId} file: it is nested too deeply`);
  }
  const message = error instanceof Error ? error.message : String(error);
  return badRequest(`The file is not a valid ${formatId} file: ${message}`);
}

/**
 * The checks that need no parsing: an empty file, a file plainly of another
 * kind than the format reads (`head`: its first bytes), a single-language file
 * without its language.
 */
export function checkUpload({
  format,
  size,
  head,
  languageKey,
  options,
}: {
  format: RegisteredFormat;
  size: number;
  head: Uint8Array;
  languageKey?: string;
  options: ReadonlySet<ImportOption>;
}): void {
  if (size === 0) throw badRequest('The file is empty');
  const mismatch = contentMismatch(head, format.format.id, format.reads);
  if (mismatch) throw badRequest(mismatch);
  if (!languageKey && !format.languageInFile && !holdsSeveralLanguages(format, options)) {
    const layouts = format.multiLanguageLayouts
      ? ' (or import it with the MULTI_LANGUAGE option when it holds several)'
      : '';
    throw badRequest(`languageKey is required: ${format.format.id} is a single-language format${layouts}`);
  }
}

/** The first bytes of an upload, as much as checkUpload looks at. */
export async function uploadHead(open: OpenFile): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop early closes the stream.
  for await (const chunk of open()) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= SNIFF_BYTES) break;
  }
  return Buffer.concat(chunks).subarray(0, SNIFF_BYTES);
}

/** What the importer does to every parsed bundle, whole file or chunk: namespace default, validation, text options. */
function finish(
  bundle: Bundle,
  namespace: string | undefined,
  options: ReadonlySet<ImportOption>,
  keysBefore = 0,
): Bundle {
  // The request's namespace is the default of keys the file gives none.
  if (namespace) for (const key of bundle.keys) if (key.namespace === '') key.namespace = namespace;
  validateBundle(bundle, keysBefore);
  applyTextOptions(bundle, options);
  return bundle;
}

export async function parseUpload({
  format,
  data,
  languageKey,
  namespace,
  options,
}: ParseUploadRequest): Promise<Bundle> {
  checkUpload({ format, size: data.length, head: data.subarray(0, SNIFF_BYTES), languageKey, options });
  let bundle: Bundle;
  try {
    bundle = await format.format.parse(data, { languageKey, namespace, options: parserOptions(options) });
  } catch (error) {
    throw parseFailure(format.format.id, error);
  }
  return finish(bundle, namespace, options);
}

/** A format that reads an upload as it streams in (FileFormat.parseStream). */
export const streams = (format: RegisteredFormat): boolean => format.format.parseStream !== undefined;

export interface StreamUploadRequest extends Omit<ParseUploadRequest, 'data'> {
  /** Reads the upload from its start (a format may read it more than once). */
  open: OpenFile;
  /** Texts per chunk. */
  chunkCells: number;
}

/**
 * The upload as chunks, each checked and finished as a whole file is; a
 * failure at any point (the file broken at its very end included) is the same
 * 400 parseUpload gives. checkUpload has run before.
 */
export async function* streamUpload({
  format,
  open,
  languageKey,
  namespace,
  options,
  chunkCells,
}: StreamUploadRequest): AsyncGenerator<Bundle> {
  const chunks = format.format.parseStream!(
    open,
    { languageKey, namespace, options: parserOptions(options) },
    chunkCells,
  )[Symbol.asyncIterator]();
  // Keys of the chunks before, for the numbers in messages (a JSON key met again in a later chunk counts again).
  let keysBefore = 0;
  for (;;) {
    let next: IteratorResult<Bundle>;
    try {
      next = await chunks.next();
    } catch (error) {
      throw parseFailure(format.format.id, error);
    }
    if (next.done) return;
    yield finish(next.value, namespace, options, keysBefore);
    keysBefore += next.value.keys.length;
  }
}
