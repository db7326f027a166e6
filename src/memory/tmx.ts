// TMX files in and out of a memory (docs/translation-memory.md): a project's
// own memory (its imported segments, and on export its texts too) or a shared
// memory. Importing is an owner's or administrator's act (MEMORY), or the
// shared memory's owner's; exporting is a read (EXPORT). An import is all or
// nothing: one transaction reads the file as a stream (src/formats/tmx.ts)
// and writes its segments a batch at a time, so a fault anywhere in the file
// leaves the memory as it was; a project's import is an entry of its activity
// log, written last in the same transaction with the count of pairs.
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { join } from 'node:path';
import type { Config } from '../config.js';
import { storeExportFile, type ExportedFile } from '../transfer/export-files.js';
import { Prisma } from '../generated/prisma/client.js';
import type { Principal } from '../auth/principal.js';
import { arrayLiteral } from '../db/array-literal.js';
import { prisma, type Db } from '../db.js';
import { badRequest, payloadTooLarge } from '../errors.js';
import { FormatError } from '../formats/model.js';
import { CONTENT_KIND_NAMES, sniffContent } from '../formats/sniff.js';
import { readTmx, tmxLanguage, writeTmx, type TmxPair } from '../formats/tmx.js';
import { openChange } from '../content/changes.js';
import { resolveProject } from '../projects/access.js';
import { uploadHead } from '../transfer/parse-upload.js';
import type { UploadedFile } from '../transfer/uploaded-file.js';
import { ownedMemory } from './shared.js';

/**
 * The largest TMX file read, the most pairs it may give and the seconds its
 * reading may take. The file streams (one batch of pairs held at a time);
 * the bounds keep one import's transaction short enough for everyone else.
 */
export const TMX_LIMITS = { maxBytes: 50 * 1024 * 1024, maxPairs: 500_000, maxSeconds: 120 };
const CHUNK = 5_000;

export type MemoryTarget =
  { memoryId: number; projectToken?: null } | { projectToken: string | null | undefined; memoryId?: null };

export interface TmxImportResult {
  imported: number;
  skipped: number;
}

export async function importTmx(
  principal: Principal,
  target: MemoryTarget,
  file: UploadedFile,
): Promise<TmxImportResult> {
  const owner =
    target.memoryId != null
      ? { memoryId: await ownedMemory(principal, target.memoryId), projectId: null }
      : { memoryId: null, projectId: await resolveProject(principal, target.projectToken, 'MEMORY') };
  if (file.size > TMX_LIMITS.maxBytes)
    throw payloadTooLarge(`A TMX file may have at most ${TMX_LIMITS.maxBytes} bytes`);
  if (file.size === 0) throw badRequest(`${file.name}: the file is empty`);
  const kind = sniffContent(await uploadHead(() => file.stream()));
  if (kind !== undefined && kind !== 'xml')
    throw badRequest(`${file.name}: the file looks like ${CONTENT_KIND_NAMES[kind]}, not a TMX file (XML)`);
  try {
    // The file is read inside the transaction, each batch written as it comes:
    // a fault anywhere in the file (a FormatError) rolls back the batches before it.
    return await prisma().$transaction(
      async (tx) => {
        const read = await readTmx(
          () => file.stream(),
          { ...TMX_LIMITS, batch: CHUNK },
          (pairs) => insertPairs(tx, owner, pairs),
        );
        if (owner.projectId !== null) {
          await openChange(tx, owner.projectId, 'IMPORT', {
            translationMemory: { file: file.name, format: 'tmx', pairs: read.pairs, skipped: read.skipped },
          });
        }
        return { imported: read.pairs, skipped: read.skipped };
      },
      { timeout: 600_000 },
    );
  } catch (error) {
    if (error instanceof FormatError) throw badRequest(`${file.name}: ${error.message}`);
    throw error;
  }
}

/** One batch of a file's pairs into the memory, set-based. */
async function insertPairs(
  tx: Db,
  owner: { memoryId: number | null; projectId: number | null },
  chunk: TmxPair[],
): Promise<void> {
  await tx.$executeRaw(Prisma.sql`/* memory:tmx-import */
    INSERT INTO "MemorySegment" ("memoryId", "projectId", "sourceLanguage", "targetLanguage", source, target, notes, properties, "changedAt", "changedBy", tuid)
    SELECT ${owner.memoryId}::int, ${owner.projectId}::int, sl, tl, s, t,
           coalesce((SELECT array_agg(n) FROM jsonb_array_elements_text(nj) n), '{}'), pj, ca, cb, tu
      FROM unnest(${arrayLiteral(chunk, (p) => p.sourceLanguage)}::text[], ${arrayLiteral(chunk, (p) => p.targetLanguage)}::text[],
                  ${arrayLiteral(chunk, (p) => p.source)}::text[], ${arrayLiteral(chunk, (p) => p.target)}::text[],
                  ${arrayLiteral(chunk, (p) => JSON.stringify(p.notes))}::jsonb[],
                  ${arrayLiteral(chunk, (p) => JSON.stringify({ props: p.properties, ...(p.sourceXml !== undefined && { sourceXml: p.sourceXml }), ...(p.targetXml !== undefined && { targetXml: p.targetXml }) }))}::jsonb[],
                  ${arrayLiteral(chunk, (p) => p.changedAt?.toISOString() ?? null)}::timestamp[], ${arrayLiteral(chunk, (p) => p.changedBy)}::text[],
                  ${arrayLiteral(chunk, (p) => p.tuid)}::text[])
        AS t(sl, tl, s, t, nj, pj, ca, cb, tu)`);
}

export interface TmxExportOptions {
  /** Only this pair of languages (codes as the memory stores them, or a project's language keys). */
  sourceLanguage?: string | null;
  targetLanguage?: string | null;
}

interface SegmentRow {
  id: number;
  tuid: string;
  sl: string;
  tl: string;
  source: string;
  target: string;
  notes: string[];
  properties: { props?: TmxPair['properties']; sourceXml?: string; targetXml?: string } | string;
  changedAt: Date | null;
  changedBy: string;
}

/**
 * The memory as TMX, written chunk by chunk to `write`: a shared memory's
 * imported segments, or a project's imported segments and its own texts
 * (default language → each other language).
 */
export async function exportTmx(
  principal: Principal,
  target: MemoryTarget,
  options: TmxExportOptions,
  write: (chunk: string) => void | Promise<void>,
): Promise<void> {
  const owner =
    target.memoryId != null
      ? { memoryId: await ownedMemory(principal, target.memoryId), projectId: null }
      : { memoryId: null, projectId: await resolveProject(principal, target.projectToken, 'EXPORT') };
  const sl = options.sourceLanguage ? tmxLanguage(options.sourceLanguage) : null;
  const tl = options.targetLanguage ? tmxLanguage(options.targetLanguage) : null;
  const ownerSql =
    owner.memoryId !== null
      ? Prisma.sql`g."memoryId" = ${owner.memoryId}`
      : Prisma.sql`g."projectId" = ${owner.projectId}`;
  async function* chunks(): AsyncGenerator<TmxPair[]> {
    let after = 0;
    for (;;) {
      const rows = await prisma().$queryRaw<SegmentRow[]>(Prisma.sql`/* memory:tmx-export-segments */
        SELECT id, tuid, "sourceLanguage" AS sl, "targetLanguage" AS tl, source, target, notes, properties, "changedAt", "changedBy"
          FROM "MemorySegment" g WHERE ${ownerSql} AND id > ${after}
           AND (${sl}::text IS NULL OR "sourceLanguage" = ${sl}) AND (${tl}::text IS NULL OR "targetLanguage" = ${tl})
         ORDER BY id LIMIT ${CHUNK}`);
      if (!rows.length) break;
      after = rows.at(-1)!.id;
      yield rows.map((r) => {
        const props =
          typeof r.properties === 'string'
            ? (JSON.parse(r.properties) as Exclude<SegmentRow['properties'], string>)
            : r.properties;
        return {
          tuid: r.tuid,
          sourceLanguage: r.sl,
          targetLanguage: r.tl,
          source: r.source,
          target: r.target,
          notes: r.notes ?? [],
          properties: props?.props ?? [],
          ...(props?.sourceXml !== undefined && { sourceXml: props.sourceXml }),
          ...(props?.targetXml !== undefined && { targetXml: props.targetXml }),
          changedAt: r.changedAt,
          changedBy: r.changedBy,
        };
      });
    }
    if (owner.projectId === null) return;
    let afterKey = 0;
    for (;;) {
      const keys = await prisma().$queryRaw<{ id: number }[]>(Prisma.sql`/* memory:tmx-export-keys */
        SELECT id FROM "TranslationKey" WHERE "projectId" = ${owner.projectId} AND id > ${afterKey} ORDER BY id LIMIT ${CHUNK}`);
      if (!keys.length) break;
      afterKey = keys.at(-1)!.id;
      const rows = await prisma().$queryRaw<
        {
          keyId: number;
          key: string;
          namespace: string;
          sl: string;
          tl: string;
          source: string;
          target: string;
          at: Date;
        }[]
      >(Prisma.sql`/* memory:tmx-export-texts */
        SELECT s."keyId", k.key, k.namespace, sl.key AS sl, tl.key AS tl, s.text AS source, t.text AS target, t."lastModifiedAt" AS at
          FROM "Translation" s
          JOIN "Language" sl ON sl.id = s."languageId" AND sl."isDefault"
          JOIN "Translation" t ON t."keyId" = s."keyId" AND t."languageId" <> sl.id AND t.text <> ''
          JOIN "Language" tl ON tl.id = t."languageId"
          JOIN "TranslationKey" k ON k.id = s."keyId"
         WHERE s."keyId" = ANY(${arrayLiteral(keys, (k) => k.id)}::int[]) AND s.text <> ''
         ORDER BY s."keyId", tl."order", tl.id`);
      const pairs = rows
        .filter((r) => (!sl || tmxLanguage(r.sl) === sl) && (!tl || tmxLanguage(r.tl) === tl))
        .map((r) => ({
          tuid: r.namespace ? `${r.namespace}:${r.key}` : r.key,
          sourceLanguage: r.sl,
          targetLanguage: r.tl,
          source: r.source,
          target: r.target,
          notes: [],
          properties: [
            { type: 'x-key', value: r.key },
            ...(r.namespace ? [{ type: 'x-namespace', value: r.namespace }] : []),
          ],
          changedAt: r.at,
          changedBy: '',
        }));
      if (pairs.length) yield pairs;
    }
  }
  await writeTmx(chunks(), sl ?? '*all*', write);
}

/** A project's memory as a TMX file, stored as an export (a download URL, like the translation exports). */
export async function exportTmxFile(
  principal: Principal,
  config: Config,
  projectToken: string | null | undefined,
  options: TmxExportOptions,
): Promise<ExportedFile> {
  const projectId = await resolveProject(principal, projectToken, 'EXPORT');
  const temp = join(config.dataDir, 'tmp');
  await mkdir(temp, { recursive: true });
  const dir = await mkdtemp(join(temp, 'tmx-'));
  try {
    const path = join(dir, 'memory.tmx');
    const out = createWriteStream(path);
    const done = new Promise<void>((resolve, reject) => {
      out.on('finish', resolve);
      out.on('error', reject);
    });
    await exportTmx(principal, { projectToken }, options, async (chunk) => {
      if (!out.write(chunk)) await once(out, 'drain');
    });
    out.end();
    await done;
    const pair = [options.sourceLanguage, options.targetLanguage].filter(Boolean).join('-');
    return await storeExportFile(config, projectId, {
      fileName: `translation-memory${pair ? `-${pair}` : ''}.tmx`,
      contentType: 'application/x-tmx+xml',
      path,
      size: (await stat(path)).size,
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
