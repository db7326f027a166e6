// POST /api/v2/import and the importFile mutation: one file into one project,
// as one transaction. Everything that can refuse the request (format, size,
// options, customer, plan, the file itself) is checked before the transaction
// opens; the writes are set-based (write-bundle.ts). PUBLISH_AFTER_IMPORT
// publishes _latest once the import has committed.
import { prisma } from '../db.js';
import { AppError, badRequest, payloadTooLarge } from '../errors.js';
import { assertPublishingAllowed } from '../plans/plans.js';
import { customerIdOf } from '../customers/customers.js';
import { formatOf, type ImportOption } from './options.js';
import { parseUpload } from './parse-upload.js';
import { checkLanguageKey, checkTags } from './validate-bundle.js';
import { languagesOfBundle, writeBundle } from './write-bundle.js';
import { LIMITS, lengthProblem } from '../translations/fields.js';

/** Large files on the embedded database take a while; a stuck transaction still ends. */
export const IMPORT_TRANSACTION_TIMEOUT_MS = 10 * 60_000;

export interface ImportRequest {
  projectId: number;
  uploadFormat: string;
  /** The uploaded file: its size, and its bytes read when the parser needs them (only then held in memory). */
  file: { size: number; bytes(): Promise<Buffer> };
  options: readonly ImportOption[];
  languageKey?: string | null;
  /** The key of an existing customer: the file's translations become its overrides. */
  customerKey?: string | null;
  namespace?: string | null;
  tags?: readonly string[] | null;
  maxUploadBytes: number;
}

export interface ImportResult {
  numberOfKeysFound: number;
  numberOfUniqueKeysFound: number;
  foundLanguages: { key: string; name: string }[];
  keysCreated: number;
  languagesCreated: string[];
  translationsInserted: number;
  translationsUpdated: number;
  published: boolean;
}

function checkRequest(request: ImportRequest): void {
  if (request.file.size > request.maxUploadBytes) {
    throw payloadTooLarge(`The file has ${request.file.size} bytes; the limit is ${request.maxUploadBytes} bytes (MAX_UPLOAD_BYTES)`);
  }
  if (request.languageKey) checkLanguageKey(request.languageKey, 'languageKey');
  if (request.namespace) {
    const problem = lengthProblem(request.namespace, 'namespace', LIMITS.namespace);
    if (problem) throw badRequest(problem);
  }
  if (request.tags) checkTags(request.tags, 'tags');
}

/** After the commit: publish _latest through the hosting domain (loaded lazily: it is large and rarely needed here). */
async function publishLatest(projectId: number): Promise<void> {
  try {
    const { publishEnvironment } = await import('../hosting/publish.js');
    await publishEnvironment({ projectId, environmentKey: '_latest' });
  } catch (error) {
    // The import stays committed: say so, with the status of the refusal.
    const reason = error instanceof Error ? error.message : String(error);
    const code = error instanceof AppError ? error.code : 'INTERNAL';
    throw new AppError(code, `The file was imported, but publishing after import failed: ${reason}`);
  }
}

export async function importFile(request: ImportRequest): Promise<ImportResult> {
  const format = formatOf(request.uploadFormat, 'uploadFormat');
  checkRequest(request);
  const options = new Set(request.options);
  const { projectId } = request;
  const customerId = request.customerKey ? await customerIdOf(projectId, request.customerKey) : null;
  const publish = options.has('PUBLISH_AFTER_IMPORT');
  if (publish) await assertPublishingAllowed(projectId, 'PUBLISH_AFTER_IMPORT');

  // The bytes are garbage once parsed: nothing keeps them through the write.
  const bundle = await parseUpload({
    format,
    data: await request.file.bytes(),
    languageKey: request.languageKey || undefined,
    namespace: request.namespace || undefined,
    options,
  });

  const written = await prisma().$transaction(
    (tx) => writeBundle(tx, projectId, bundle, { replace: options.has('REPLACE_TRANSLATION_IF_FOUND'), customerId, tags: request.tags ?? [] }),
    { timeout: IMPORT_TRANSACTION_TIMEOUT_MS, maxWait: IMPORT_TRANSACTION_TIMEOUT_MS },
  );

  const found = languagesOfBundle(bundle);
  const names = await prisma().language.findMany({ where: { projectId, key: { in: found.map((l) => l.key) } }, select: { key: true, name: true } });
  const nameOf = new Map(names.map((l) => [l.key, l.name]));
  const result: ImportResult = {
    numberOfKeysFound: bundle.keys.length,
    numberOfUniqueKeysFound: new Set(bundle.keys.map((k) => `${k.namespace}\u0000${k.key}`)).size,
    foundLanguages: found.map((l) => ({ key: l.key, name: nameOf.get(l.key) || l.name || '' })),
    keysCreated: written.keysCreated,
    languagesCreated: written.languagesCreated,
    translationsInserted: written.translationsInserted,
    translationsUpdated: written.translationsUpdated,
    published: false,
  };
  if (publish) {
    await publishLatest(projectId);
    result.published = true;
  }
  return result;
}
