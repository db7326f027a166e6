// POST /api/v2/import and the importFile mutation: one file into one project,
// as one transaction. Everything that can refuse the request (format, size,
// options, customer, plan, the file itself) is checked before the transaction
// opens; the writes are set-based (write-bundle.ts) and translations go
// through the write gate: cells it refuses (locked key, over the key's
// charactersLimit) are counted in translationsRefused and described in
// warnings. PUBLISH_AFTER_IMPORT publishes _latest once the import has
// committed; a failed publication is a warning (publish-after-import.ts). A preview (previewImport,
// the CLI's upload-preview) runs the very same write and rolls it back, so the
// preview and the import can never disagree.
import { buffer } from 'node:stream/consumers';
import { withHeapBound } from '../heap-slack.js';
import { database, prisma, type Db } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';
import type { Bundle, BundleLanguage } from '../formats/model.js';
import { badRequest, payloadTooLarge } from '../errors.js';
import { languageNameOrDefault } from '../content/language-name.js';
import { assertPublishingAllowed } from '../plans/plans.js';
import { customerIdOf } from '../content/customers.js';
import { formatOf, type ImportOption } from './options.js';
import { checkUpload, parseUpload, streams, streamUpload, uploadHead } from './parse-upload.js';
import { readAhead } from './read-ahead.js';
import type { UploadedFile } from './uploaded-file.js';
import { checkLanguageKey, checkTags } from './validate-bundle.js';
import { CELL_CHUNK, writeBundles, type FoundInFile, type WriteBundleResult } from './write-bundle.js';
import { namespaceProblem } from '../content/keys/input.js';
import { amendChange, openChange } from '../content/changes.js';
import { publishAfterWrite } from './publish-after-import.js';
import { refusalMessage, refusalWarnings } from '../content/translations/rules.js';
import type { GateParts, RefusalReason } from '../content/translations/gate.js';
import { sweepScreenshotDeletions } from '../screenshots/sweep.js';

/** Large files on the embedded database take a while; a stuck transaction still ends. */
export const IMPORT_TRANSACTION_TIMEOUT_MS = 10 * 60_000;

export interface ImportRequest {
  projectId: number;
  uploadFormat: string;
  /** The uploaded file (a temp file, read as a stream when the parser needs its bytes: only then held in memory). */
  file: UploadedFile;
  options: readonly ImportOption[];
  languageKey?: string | null;
  /** The key of an existing customer: the file's translations become its overrides. */
  customerKey?: string | null;
  namespace?: string | null;
  tags?: readonly string[] | null;
  /** The file's path on the client (the CLI's `path`), recorded on its keys with INCLUDE_FILE_PATH. */
  filePath?: string | null;
  maxUploadBytes: number;
  /** Texts per chunk of a streamed file (IMPORT_CHUNK_CELLS; default CELL_CHUNK). */
  chunkCells?: number;
  /** The write gate's parts: only a benchmark's baseline leaves some out (default: all). */
  gateParts?: GateParts;
}

/** Longest recorded file path. */
export const MAX_FILE_PATH = 1000;

/** A client's file path as recorded: forward slashes, no leading `./`. */
export function normalizeFilePath(path: string): string {
  return path
    .trim()
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '');
}

/** A key named in a preview. */
export interface KeyAddressRef {
  key: string;
  namespace: string;
}

export interface ImportResult {
  numberOfKeysFound: number;
  numberOfUniqueKeysFound: number;
  foundLanguages: { key: string; name: string }[];
  keysCreated: number;
  languagesCreated: string[];
  translationsInserted: number;
  translationsUpdated: number;
  /** Keys deleted by DELETE_NOT_PRESENT_KEYS. */
  keysDeleted: number;
  /** Translations the write gate refused (locked key, over the key's charactersLimit): not written. */
  translationsRefused: number;
  published: boolean;
  /** What the client should know although the import succeeded: refused translations, a failed PUBLISH_AFTER_IMPORT. */
  warnings: string[];
}

/** Keys a preview lists by name: at most this many of each kind (the counts are exact). */
export const PREVIEW_LIST_LIMIT = 1000;

export interface KeyChanges {
  count: number;
  keys: KeyAddressRef[];
}

/** What an import would change, computed by running it and rolling it back. */
export interface ImportPreview {
  numberOfKeysFound: number;
  numberOfUniqueKeysFound: number;
  foundLanguages: { key: string; name: string }[];
  languagesToCreate: string[];
  keysToCreate: KeyChanges;
  keysToDelete: KeyChanges;
  translationsToInsert: number;
  translationsToUpdate: number;
  /** Translations the write gate would refuse (exact count). */
  translationsToRefuse: number;
  /** The first refused cells (DEFAULT_LISTED_REFUSALS), each with its reason. */
  refusals: PreviewRefusal[];
  /** The import's warnings about the refusals, worded as importFile words them. */
  warnings: string[];
}

/** A cell of the file the write gate would refuse. */
export interface PreviewRefusal extends KeyAddressRef {
  language: string;
  reason: RefusalReason;
  message: string;
}

/** Thrown inside a preview's transaction to roll it back, carrying what it found. */
class PreviewRollback extends Error {
  constructor(readonly preview: { written: Written; createdKeys: KeyAddressRef[] }) {
    super('preview rollback');
  }
}

function checkRequest(request: ImportRequest): void {
  if (request.file.size > request.maxUploadBytes) {
    throw payloadTooLarge(
      `The file has ${request.file.size} bytes; the limit is ${request.maxUploadBytes} bytes (MAX_UPLOAD_BYTES)`,
    );
  }
  if (request.languageKey) checkLanguageKey(request.languageKey, 'languageKey');
  if (request.namespace) {
    const problem = namespaceProblem(request.namespace);
    if (problem) throw badRequest(problem);
  }
  if (request.tags) checkTags(request.tags, 'tags');
  if (request.options.includes('DELETE_NOT_PRESENT_KEYS') && request.customerKey) {
    // A customer's file holds its overrides, usually of a few keys: deleting every other key of the project would be a disaster.
    throw badRequest(
      "importOptions DELETE_NOT_PRESENT_KEYS cannot be combined with customerId: a customer's file holds overrides, not the project's keys",
    );
  }
  if (request.options.includes('INCLUDE_FILE_PATH')) {
    const path = normalizeFilePath(request.filePath ?? '');
    if (!path) throw badRequest('importOptions INCLUDE_FILE_PATH needs the path of the file (path)');
    if (path.length > MAX_FILE_PATH) throw badRequest(`path must have at most ${MAX_FILE_PATH} characters`);
  }
}

interface Prepared {
  /** The file's bundles: one whole bundle, or a streamed file's chunks (read when the transaction writes them). */
  chunks: () => Iterable<Bundle> | AsyncIterable<Bundle>;
  options: Set<ImportOption>;
  customerId: number | null;
}

/**
 * Everything that can refuse the request before any transaction opens. A
 * whole-file format is parsed here; a streamed one (JSON, java-properties,
 * CSV, TSV, PO) is read inside the transaction, chunk by chunk, so a file
 * broken after its first chunks rolls back what they wrote.
 */
async function prepare(request: ImportRequest): Promise<Prepared> {
  const format = formatOf(request.uploadFormat, 'uploadFormat');
  checkRequest(request);
  const options = new Set(request.options);
  const customerId = request.customerKey ? await customerIdOf(request.projectId, request.customerKey) : null;
  if (options.has('PUBLISH_AFTER_IMPORT')) await assertPublishingAllowed(request.projectId, 'PUBLISH_AFTER_IMPORT');
  const parse = {
    format,
    languageKey: request.languageKey || undefined,
    namespace: request.namespace || undefined,
    options,
  };
  if (streams(format)) {
    checkUpload({ ...parse, size: request.file.size, head: await uploadHead(() => request.file.stream()) });
    const chunkCells = request.chunkCells ?? CELL_CHUNK;
    const read = () => streamUpload({ ...parse, open: () => request.file.stream(), chunkCells });
    // Read ahead where the database works in another process (PostgreSQL): the parse of the next chunk
    // overlaps its work. PGlite works in this thread, where a chunk read ahead only adds to the memory held
    // (docs/benchmarks.md, "Figures behind constants in the code").
    // What the written chunks leave is collected before the heap grows far past what is kept (src/heap-slack.ts).
    return {
      chunks: () => withHeapBound(database().kind === 'postgres' ? readAhead(read()) : read()),
      options,
      customerId,
    };
  }
  // The bytes are garbage once parsed: nothing keeps them through the write.
  const bundle = await parseUpload({ ...parse, data: await buffer(request.file.stream()) });
  return { chunks: () => [bundle], options, customerId };
}

type Written = WriteBundleResult & FoundInFile;

/** One import is one change: its cells are events of it, its counts in its details. */
async function write(db: Db, request: ImportRequest, { chunks, options, customerId }: Prepared): Promise<Written> {
  const change = await openChange(db, request.projectId, 'IMPORT', {
    uploadFormat: request.uploadFormat,
    fileName: request.file.name,
    options: [...options],
    customer: request.customerKey || null,
    namespace: request.namespace || null,
  });
  const written = await writeBundles(db, request.projectId, chunks(), {
    change,
    replace: options.has('REPLACE_TRANSLATION_IF_FOUND'),
    customerId,
    tags: request.tags ?? [],
    ...(request.chunkCells !== undefined && { cellChunk: request.chunkCells }),
    ...(request.gateParts && { gateParts: request.gateParts }),
    ...(options.has('DELETE_NOT_PRESENT_KEYS') && { deleteNotPresent: { namespace: request.namespace || null } }),
    ...(options.has('INCLUDE_FILE_PATH') && { filePath: normalizeFilePath(request.filePath ?? '') }),
  });
  await amendChange(
    db,
    change,
    {
      keysFound: written.keysFound,
      keysCreated: written.keysCreated,
      languagesCreated: written.languagesCreated,
      translationsInserted: written.translationsInserted,
      translationsUpdated: written.translationsUpdated,
      translationsRefused: written.translationsRefused,
      keysDeleted: written.deletedKeys.length,
      deletedKeys: written.deletedKeys.slice(0, 100),
    },
    written.keysCreated + written.languagesCreated.length + written.deletedKeys.length,
  );
  return written;
}

async function foundLanguages(projectId: number, found: BundleLanguage[]): Promise<{ key: string; name: string }[]> {
  const names = await prisma().language.findMany({
    where: { projectId, key: { in: found.map((l) => l.key) } },
    select: { key: true, name: true },
  });
  const nameOf = new Map(names.map((l) => [l.key, l.name]));
  // A language still to create is shown with the name it will get.
  return found.map((l) => ({ key: l.key, name: nameOf.get(l.key) || languageNameOrDefault(l.key, l.name) }));
}

const TRANSACTION = { timeout: IMPORT_TRANSACTION_TIMEOUT_MS, maxWait: IMPORT_TRANSACTION_TIMEOUT_MS };

export async function importFile(request: ImportRequest): Promise<ImportResult> {
  const prepared = await prepare(request);
  const { projectId } = request;
  const { options } = prepared;
  const written = await prisma().$transaction((tx) => write(tx, request, prepared), TRANSACTION);
  // DELETE_NOT_PRESENT_KEYS: the storage folders of screenshots that went with the keys.
  if (written.deletedKeys.length > 0) await sweepScreenshotDeletions();
  const result: ImportResult = {
    numberOfKeysFound: written.keysFound,
    numberOfUniqueKeysFound: written.uniqueKeysFound,
    foundLanguages: await foundLanguages(projectId, written.languagesFound),
    keysCreated: written.keysCreated,
    languagesCreated: written.languagesCreated,
    translationsInserted: written.translationsInserted,
    translationsUpdated: written.translationsUpdated,
    keysDeleted: written.deletedKeys.length,
    translationsRefused: written.translationsRefused.LOCKED + written.translationsRefused.CHARACTERS_LIMIT,
    published: false,
    warnings: refusalWarnings(written.translationsRefused, written.refusals),
  };
  if (options.has('PUBLISH_AFTER_IMPORT')) {
    const outcome = await publishAfterWrite(projectId);
    result.published = outcome.published;
    if (!outcome.published) result.warnings.push(outcome.warning);
  }
  return result;
}

/**
 * What importFile would change, without changing anything: the same checks,
 * the same write in a transaction that is then rolled back. Nothing is
 * published.
 */
export async function previewImport(request: ImportRequest): Promise<ImportPreview> {
  const prepared = await prepare(request);
  const { projectId } = request;
  let found: PreviewRollback['preview'] | undefined;
  try {
    await prisma().$transaction(async (tx) => {
      // Keys created by this transaction: written by it (xmin) with a higher id than any before it
      // (the file's existing keys are written too, their last-seen date).
      const [{ max }] = (await tx.$queryRaw<{ max: number }[]>(
        Prisma.sql`/* import:preview-max-key */ SELECT coalesce(max(id), 0)::int AS max FROM "TranslationKey"`,
      )) as [{ max: number }];
      const written = await write(tx, request, prepared);
      const createdKeys = await tx.$queryRaw<KeyAddressRef[]>(
        Prisma.sql`/* import:preview-created-keys */ SELECT key, namespace FROM "TranslationKey"
          WHERE "projectId" = ${projectId} AND id > ${max} AND xmin = xid(pg_current_xact_id())
          ORDER BY "importOrder" LIMIT ${PREVIEW_LIST_LIMIT}`,
      );
      throw new PreviewRollback({ written, createdKeys });
    }, TRANSACTION);
  } catch (error) {
    if (!(error instanceof PreviewRollback)) throw error;
    found = error.preview;
  }
  const { written, createdKeys } = found!;
  const languageOf = new Map([...written.languageIds].map(([key, id]) => [id, key]));
  return {
    numberOfKeysFound: written.keysFound,
    numberOfUniqueKeysFound: written.uniqueKeysFound,
    foundLanguages: await foundLanguages(projectId, written.languagesFound),
    languagesToCreate: written.languagesCreated,
    keysToCreate: { count: written.keysCreated, keys: createdKeys },
    keysToDelete: { count: written.deletedKeys.length, keys: written.deletedKeys.slice(0, PREVIEW_LIST_LIMIT) },
    translationsToInsert: written.translationsInserted,
    translationsToUpdate: written.translationsUpdated,
    translationsToRefuse: written.translationsRefused.LOCKED + written.translationsRefused.CHARACTERS_LIMIT,
    refusals: written.refusals.map((r) => ({
      key: r.key,
      namespace: r.namespace,
      language: languageOf.get(r.languageId) ?? '',
      reason: r.reason,
      message: refusalMessage(r),
    })),
    warnings: refusalWarnings(written.translationsRefused, written.refusals),
  };
}
