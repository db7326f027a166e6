// Writes a parsed file, a whole bundle or a streamed file's chunks
// (writeBundles), into a project inside the caller's transaction with
// set-based statements, chunk after chunk: languages, keys (created in file order for
// IMPORT_ORDER, last-seen touched), customers (simplelocalize-json),
// translation cells through the write gate (CELL_CHUNK per statement; a locked
// key or a text over its charactersLimit is refused and counted, never
// written), then key metadata and file path (INCLUDE_FILE_PATH), then the
// deletion of keys the file lacks (DELETE_NOT_PRESENT_KEYS), once all chunks
// are written. Cells are written before the metadata that sets a lock or a
// limit, so the lock and limit the key had before the import decide, not the
// ones the file sets.
import { database, type Db } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';
import { arrayLiteral } from '../db/array-literal.js';
import { releaseStatementHistory } from '../db/statement-history.js';
import type { Change } from '../content/changes.js';
import { removeKeys } from '../content/keys/delete.js';
import { enqueueKeysSql, noteQueued } from '../content/findings-queue.js';
import type { Bundle, BundleKey, BundleLanguage } from '../formats/model.js';
import {
  addRefusals,
  DEFAULT_LISTED_REFUSALS,
  writeTranslations,
  type GateParts,
  type GateResult,
  type Refusal,
} from '../content/translations/gate.js';
import { ensureKeys, keyRefId, type Cell } from '../content/translations/store.js';
import { ensureLanguages } from '../content/languages.js';
import { ensureCustomers } from '../content/customers.js';
import { growingTable } from '../db/fresh-statistics.js';

export interface WriteBundleOptions {
  /** The import's change: its cells are recorded in it. */
  change: Change;
  /** REPLACE_TRANSLATION_IF_FOUND: existing translations and key metadata are overwritten. */
  replace: boolean;
  /** Base translations of the file go to this customer's overrides. */
  customerId: number | null;
  /** Tags added to every key of the file. */
  tags: readonly string[];
  /** Translation cells per statement (CELL_CHUNK). */
  cellChunk?: number;
  /** The write gate's parts (a benchmark's baseline leaves some out; default: all). */
  gateParts?: GateParts;
  /**
   * DELETE_NOT_PRESENT_KEYS: keys of this scope (one namespace, or the whole
   * project when null) that the file lacks are deleted, with their
   * translations. Locked keys are kept.
   */
  deleteNotPresent?: { namespace: string | null };
  /** INCLUDE_FILE_PATH: the path of the uploaded file, recorded on every key of the file. */
  filePath?: string;
}

export interface WriteBundleResult {
  languageIds: Map<string, number>;
  languagesCreated: string[];
  keysCreated: number;
  translationsInserted: number;
  translationsUpdated: number;
  /** Cells the write gate refused, per reason (locked key, over the key's charactersLimit). */
  translationsRefused: GateResult['refused'];
  /** The first refused cells (at most DEFAULT_LISTED_REFUSALS). */
  refusals: Refusal[];
  /** Keys deleted by DELETE_NOT_PRESENT_KEYS, in import order. */
  deletedKeys: { key: string; namespace: string }[];
}

/** Languages of the file in file order, then any language only met in a translation. */
export function languagesOfBundle(bundle: Bundle): BundleLanguage[] {
  const found = new Map(bundle.languages.map((l) => [l.key, l]));
  for (const key of bundle.keys) {
    for (const language of Object.keys(key.translations))
      if (!found.has(language)) found.set(language, { key: language });
    for (const overrides of Object.values(key.customerTranslations ?? {})) {
      for (const language of Object.keys(overrides)) if (!found.has(language)) found.set(language, { key: language });
    }
  }
  return [...found.values()];
}

function customersOfBundle(bundle: Bundle): { key: string; description?: string }[] {
  const found = new Map((bundle.customers ?? []).map((c) => [c.key, c]));
  for (const key of bundle.keys) {
    for (const customer of Object.keys(key.customerTranslations ?? {}))
      if (!found.has(customer)) found.set(customer, { key: customer });
  }
  return [...found.values()];
}

const unique = (values: readonly string[]) => [...new Set(values)];
const NO_TAGS: string[] = [];

/**
 * Translation cells per statement and per chunk of a streamed file: large
 * enough to stay set-based, small enough to bound memory (what a chunk holds
 * is live while it is written, and V8 lets the heap grow to a multiple of
 * that); smaller chunks peaked lower at the same speed (docs/benchmarks.md,
 * "Figures behind constants in the code").
 */
export const CELL_CHUNK = 10_000;
/**
 * On the embedded database, whose memory is the process's own: what a
 * statement needs inside PGlite stays resident once touched, so its chunks are
 * smaller (docs/benchmarks.md, "Figures behind constants in the code").
 */
export const EMBEDDED_CELL_CHUNK = 5_000;

function hasRepeatedKeys(keys: readonly BundleKey[]): boolean {
  const seen = new Set<string>();
  for (const k of keys) {
    const id = keyRefId(k);
    if (seen.has(id)) return true;
    seen.add(id);
  }
  return false;
}

/**
 * Key metadata of the file: it fills fields still at their default; with
 * `replace` it overwrites them. Tags are always merged (existing ones first).
 * Only rows whose values change are written.
 */
async function writeKeyMetadata(
  db: Db,
  keys: BundleKey[],
  ids: Map<string, number>,
  options: WriteBundleOptions,
): Promise<void> {
  const rows = new Map<number, BundleKey & { mergedTags: string[] }>();
  for (const k of keys) {
    const id = ids.get(keyRefId(k))!;
    if (rows.has(id)) continue;
    // Most keys of a large file have no tags: no arrays or sets made for them.
    const mergedTags = k.tags?.length || options.tags.length ? unique([...(k.tags ?? []), ...options.tags]) : NO_TAGS;
    const hasMetadata =
      !!k.description ||
      !!k.codeDescription ||
      mergedTags.length > 0 ||
      k.charactersLimit != null ||
      k.lock !== undefined ||
      k.deprecated !== undefined;
    if (hasMetadata) rows.set(id, { ...k, mergedTags });
  }
  if (rows.size === 0) return;
  const list = [...rows.entries()];
  const [keyIdList, descriptions, codeDescriptions, tags, limits, locks, deprecated] = [
    arrayLiteral(list, ([id]) => id),
    arrayLiteral(list, ([, k]) => k.description ?? null),
    arrayLiteral(list, ([, k]) => k.codeDescription ?? null),
    arrayLiteral(list, ([, k]) => JSON.stringify(k.mergedTags)),
    arrayLiteral(list, ([, k]) => k.charactersLimit ?? null),
    arrayLiteral(list, ([, k]) => k.lock ?? null),
    arrayLiteral(list, ([, k]) => k.deprecated ?? null),
  ];
  const replace = Prisma.sql`${options.replace}::boolean`;
  const requeued = await db.$executeRaw(
    Prisma.sql`/* import:key-metadata */ WITH input AS (
       SELECT * FROM unnest(${keyIdList}::int[], ${descriptions}::text[], ${codeDescriptions}::text[], ${tags}::text[], ${limits}::int[], ${locks}::boolean[], ${deprecated}::boolean[])
         AS t(id, description, code_description, tags, characters_limit, lock, deprecated)
     ), computed AS (
       SELECT tk.id,
              CASE WHEN coalesce(i.description, '') <> '' AND (${replace} OR tk.description = '') THEN i.description ELSE tk.description END AS description,
              CASE WHEN coalesce(i.code_description, '') <> '' AND (${replace} OR tk."codeDescription" = '') THEN i.code_description ELSE tk."codeDescription" END AS code_description,
              tk.tags || ARRAY(SELECT e.x FROM jsonb_array_elements_text(i.tags::jsonb) WITH ORDINALITY AS e(x, o) WHERE e.x <> ALL(tk.tags) ORDER BY e.o) AS tags,
              CASE WHEN i.characters_limit IS NOT NULL AND (${replace} OR tk."charactersLimit" IS NULL) THEN i.characters_limit ELSE tk."charactersLimit" END AS characters_limit,
              CASE WHEN i.lock IS NOT NULL AND (${replace} OR NOT tk.lock) THEN i.lock ELSE tk.lock END AS lock,
              CASE WHEN i.deprecated IS NOT NULL AND (${replace} OR NOT tk.deprecated) THEN i.deprecated ELSE tk.deprecated END AS deprecated,
              tk."charactersLimit" AS old_limit
         FROM input i JOIN "TranslationKey" tk ON tk.id = i.id
     ), updated AS (
     UPDATE "TranslationKey" tk
        SET description = c.description, "codeDescription" = c.code_description, tags = c.tags,
            "charactersLimit" = c.characters_limit, lock = c.lock, deprecated = c.deprecated,
            "deprecatedAt" = CASE WHEN NOT c.deprecated THEN NULL WHEN tk.deprecated THEN tk."deprecatedAt" ELSE now() END,
            "modifiedAt" = now()
       FROM computed c
      WHERE tk.id = c.id
        AND (tk.description, tk."codeDescription", tk.tags, tk."charactersLimit", tk.lock, tk.deprecated)
            IS DISTINCT FROM (c.description, c.code_description, c.tags, c.characters_limit, c.lock, c.deprecated)
     RETURNING tk.id, tk."projectId", c.old_limit IS DISTINCT FROM c.characters_limit AS limit_changed
     )
     -- A new characters limit: the key's cells are checked again (the limit check reads it; docs/quality-checks.md).
     ${enqueueKeysSql(Prisma.sql`SELECT u.id AS "keyId", u."projectId" FROM updated u
        WHERE u.limit_changed AND EXISTS (SELECT 1 FROM "Translation" t WHERE t."keyId" = u.id)`)}`,
  );
  if (requeued) noteQueued();
}

/** What a written file held: its counts, as the import result reports them. */
export interface FoundInFile {
  /** Keys of the file (a key given twice in a whole bundle counts twice; a key met again in a later chunk does not). */
  keysFound: number;
  /** Distinct keys (namespace and name) of the file. */
  uniqueKeysFound: number;
  /** Languages of the file in file order, then any language only met in a translation (languagesOfBundle over the chunks). */
  languagesFound: BundleLanguage[];
}

/** A whole bundle: one chunk. */
export async function writeBundle(
  db: Db,
  projectId: number,
  bundle: Bundle,
  options: WriteBundleOptions,
): Promise<WriteBundleResult & FoundInFile> {
  return writeBundles(db, projectId, [bundle], options);
}

/**
 * Writes a file given as chunks (FileFormat.parseStream, or one whole bundle)
 * as they come, each as a whole bundle is written: its languages, keys,
 * customers, cells and key metadata. Across chunks it keeps the ids of the
 * keys written (for DELETE_NOT_PRESENT_KEYS and the counts), the languages and
 * customers, and the metadata that sets a lock or a charactersLimit: that is
 * written after every chunk's cells, so the lock and limit a key had before
 * the import decide for all of its cells.
 */
export async function writeBundles(
  db: Db,
  projectId: number,
  chunks: Iterable<Bundle> | AsyncIterable<Bundle>,
  options: WriteBundleOptions,
): Promise<WriteBundleResult & FoundInFile> {
  const languageIds = new Map<string, number>();
  const languagesFound = new Map<string, BundleLanguage>();
  const languagesCreated: string[] = [];
  const customerIds = new Map<string, number>();
  // Every key written so far, by keyRefId. A file laid out by language names each key again in
  // every language's chunk: known keys are not looked up, created or touched again.
  const keyIds = new Map<string, number>();
  let keysCreated = 0;
  const keyStatistics = growingTable(db, database().kind, 'TranslationKey');
  let keysFound = 0;
  // An empty text in a file is "no translation": it never erases one.
  const written = { inserted: 0, updated: 0 };
  const refused: GateResult['refused'] = { LOCKED: 0, CHARACTERS_LIMIT: 0 };
  const refusals: Refusal[] = [];
  const lockingMetadata: BundleKey[][] = [];
  for await (const bundle of chunks) {
    const newLanguages = languagesOfBundle(bundle).filter((l) => !languagesFound.has(l.key));
    for (const l of newLanguages) languagesFound.set(l.key, l);
    if (newLanguages.length > 0) {
      const languages = await ensureLanguages(db, projectId, newLanguages, { create: true, change: options.change });
      for (const [key, id] of languages.ids) languageIds.set(key, id);
      languagesCreated.push(...languages.created);
    }
    if (bundle.keys.length === 0) continue;
    const refs = bundle.keys.map(keyRefId);
    const fresh = bundle.keys.filter((_, i) => !keyIds.has(refs[i]!));
    keysFound += fresh.length;
    if (fresh.length > 0) {
      const { ids, created } = await ensureKeys(
        db,
        projectId,
        fresh.map((k) => ({ key: k.key, namespace: k.namespace })),
        {
          create: true,
          touchLastSeen: true,
          descriptions: fresh.map((k) => k.description || null),
          change: options.change,
        },
      );
      keysCreated += created;
      for (const [ref, id] of ids) keyIds.set(ref, id);
      // The gate's statements plan with the keys just created counted (src/db/fresh-statistics.ts).
      await keyStatistics.grew(created);
    }
    const newCustomers = customersOfBundle(bundle).filter((c) => !customerIds.has(c.key));
    if (newCustomers.length > 0)
      for (const [key, id] of await ensureCustomers(db, projectId, newCustomers, options.change))
        customerIds.set(key, id);

    // Cells go out in chunks, so a large file never has all its cells (and their
    // statement parameters) in memory at once. A key given twice in the bundle
    // keeps the whole-file rule (its last text wins), so such a bundle is one chunk.
    const chunkSize = hasRepeatedKeys(bundle.keys) ? Number.POSITIVE_INFINITY : (options.cellChunk ?? CELL_CHUNK);
    let cells: Cell[] = [];
    const flush = async () => {
      const result = await writeTranslations(db, projectId, cells, {
        replace: options.replace,
        listRefusals: DEFAULT_LISTED_REFUSALS - refusals.length,
        change: options.change,
        ...(options.gateParts && { parts: options.gateParts }),
      });
      written.inserted += result.inserted;
      written.updated += result.updated;
      addRefusals(refused, result.refused);
      refusals.push(...result.refusals);
      cells = [];
    };
    for (const [i, k] of bundle.keys.entries()) {
      const keyId = keyIds.get(refs[i]!)!;
      for (const [language, t] of Object.entries(k.translations)) {
        if (t.text === '') continue;
        cells.push({
          keyId,
          languageId: languageIds.get(language)!,
          customerId: options.customerId,
          text: t.text,
          reviewStatus: t.reviewStatus,
        });
      }
      for (const [customer, overrides] of Object.entries(k.customerTranslations ?? {})) {
        for (const [language, t] of Object.entries(overrides)) {
          if (t.text === '') continue;
          cells.push({
            keyId,
            languageId: languageIds.get(language)!,
            customerId: customerIds.get(customer)!,
            text: t.text,
            reviewStatus: t.reviewStatus,
          });
        }
      }
      if (cells.length >= chunkSize) await flush();
    }
    if (cells.length > 0) await flush();
    const locking = bundle.keys.filter(setsLockOrLimit);
    if (locking.length > 0) lockingMetadata.push(locking);
    await writeKeyMetadata(
      db,
      locking.length > 0 ? bundle.keys.filter((k) => !setsLockOrLimit(k)) : bundle.keys,
      keyIds,
      options,
    );
    if (options.filePath !== undefined) {
      const ids = arrayLiteral([...new Set(refs.map((ref) => keyIds.get(ref)!))]);
      await db.$executeRaw(
        Prisma.sql`/* import:file-path */ UPDATE "TranslationKey" SET "filePath" = ${options.filePath}
          WHERE id = ANY(${ids}::int[]) AND "filePath" <> ${options.filePath}`,
      );
    }
    // The chunk's statement parameters would otherwise outlive it (statement-history.ts).
    releaseStatementHistory();
  }
  for (const keys of lockingMetadata) await writeKeyMetadata(db, keys, keyIds, options);
  const deletedKeys = options.deleteNotPresent
    ? await deleteNotPresent(db, projectId, [...keyIds.values()], options.deleteNotPresent.namespace, options.change)
    : [];
  return {
    languageIds,
    languagesCreated,
    keysCreated,
    translationsInserted: written.inserted,
    translationsUpdated: written.updated,
    translationsRefused: refused,
    refusals,
    deletedKeys,
    keysFound,
    uniqueKeysFound: keyIds.size,
    languagesFound: [...languagesFound.values()],
  };
}

/** Key metadata the write gate reads: written after all the file's cells. */
const setsLockOrLimit = (k: BundleKey) => k.lock !== undefined || k.charactersLimit != null;

/** Deletes the unlocked keys of the scope that are not among `keep` (the file's keys); returns them in import order. */
async function deleteNotPresent(
  db: Db,
  projectId: number,
  keep: number[],
  namespace: string | null,
  change: Change,
): Promise<{ key: string; namespace: string }[]> {
  const doomed = await db.$queryRaw<{ id: number }[]>(
    // An anti-join (hashed), not `id <> ALL(...)`, which compares every key with every kept id.
    Prisma.sql`/* import:keys-not-present */ SELECT tk.id FROM "TranslationKey" tk
      WHERE tk."projectId" = ${projectId} AND (${namespace}::text IS NULL OR tk.namespace = ${namespace}::text) AND NOT tk.lock
        AND NOT EXISTS (SELECT 1 FROM unnest(${arrayLiteral(keep)}::int[]) AS kept(id) WHERE kept.id = tk.id)
      FOR UPDATE OF tk`,
  );
  // removeKeys records their texts in the import's history before they go.
  return removeKeys(
    db,
    change,
    doomed.map((k) => k.id),
  );
}
