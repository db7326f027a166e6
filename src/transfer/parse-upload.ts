// Reads an uploaded file into a Bundle, before any transaction opens. Whatever
// goes wrong while parsing (a FormatError with its line, or any exception a
// parser lets escape, a stack overflow included) is a 400 naming the format:
// a bad file never answers 500.
import { AppError, badRequest } from '../errors.js';
import type { Bundle } from '../formats/model.js';
import { holdsSeveralLanguages, type RegisteredFormat } from '../formats/registry.js';
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

export async function parseUpload({ format, data, languageKey, namespace, options }: ParseUploadRequest): Promise<Bundle> {
  const id = format.format.id;
  if (data.length === 0) throw badRequest('The file is empty');
  if (!languageKey && !format.languageInFile && !holdsSeveralLanguages(format, options)) {
    const layouts = format.multiLanguageLayouts ? ' (or import it with the MULTI_LANGUAGE option when it holds several)' : '';
    throw badRequest(`languageKey is required: ${id} is a single-language format${layouts}`);
  }
  let bundle: Bundle;
  try {
    bundle = await format.format.parse(data, { languageKey, namespace, options: parserOptions(options) });
  } catch (error) {
    throw parseFailure(id, error);
  }
  // The request's namespace is the default of keys the file gives none.
  if (namespace) for (const key of bundle.keys) if (key.namespace === '') key.namespace = namespace;
  validateBundle(bundle);
  applyTextOptions(bundle, options);
  return bundle;
}
