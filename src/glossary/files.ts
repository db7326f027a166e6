// Glossary files in and out (docs/glossary.md): TBX (src/glossary/tbx.ts) and
// CSV (src/glossary/csv.ts). An import is all or nothing: the file is checked
// for what it plainly is (src/formats/sniff.ts), then one transaction reads it
// as a stream (a TBX file entry by entry, a CSV file row by row) and checks
// and writes its terms a batch at a time, so a fault anywhere in the file
// leaves the glossary as it was; a project's import is an entry of its
// activity log. Exports are stored like translation exports (a URL).
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { join } from 'node:path';
import type { Config } from '../config.js';
import type { Principal } from '../auth/principal.js';
import { prisma } from '../db.js';
import { badRequest, payloadTooLarge } from '../errors.js';
import { FormatError } from '../formats/model.js';
import { CONTENT_KIND_NAMES, sniffContent } from '../formats/sniff.js';
import { resolveProject } from '../projects/access.js';
import { storeExportFile, type ExportedFile } from '../transfer/export-files.js';
import { uploadHead } from '../transfer/parse-upload.js';
import type { UploadedFile } from '../transfer/uploaded-file.js';
import { reachGlossary, type GlossaryTarget } from './access.js';
import { amendChange } from '../content/changes.js';
import { csvHeader, csvRows, readGlossaryCsv } from './csv.js';
import { readTbx, writeTbx, type ExportTerm } from './tbx.js';
import {
  addMissingTranslations,
  checkTerm,
  logGlossaryChange,
  upsertTerms,
  type CheckedTerm,
  type TermInput,
} from './terms.js';

export type GlossaryFormat = 'TBX' | 'CSV';
/** The largest file read, the most terms it may give and the seconds its reading may take (it streams, a batch held at a time). */
export const GLOSSARY_LIMITS = { maxBytes: 20 * 1024 * 1024, maxTerms: 100_000, maxSeconds: 120 };

export interface GlossaryImportResult {
  created: number;
  updated: number;
  /** TBX concept entries without a term in the glossary's source language. */
  skipped: number;
}

function formatOf(file: UploadedFile, given: GlossaryFormat | null | undefined, head: Buffer): GlossaryFormat {
  const kind = sniffContent(head);
  const format =
    given ??
    (/\.(tbx|xml)$/i.test(file.name)
      ? 'TBX'
      : /\.(csv|txt)$/i.test(file.name)
        ? 'CSV'
        : kind === 'xml'
          ? 'TBX'
          : 'CSV');
  const reads = format === 'TBX' ? ['xml'] : ['csv', 'tsv', 'properties', 'strings'];
  if (kind !== undefined && !reads.includes(kind)) {
    throw badRequest(
      `${file.name}: the file looks like ${CONTENT_KIND_NAMES[kind]}, not a ${format === 'TBX' ? 'TBX termbase (XML)' : 'CSV glossary'}`,
    );
  }
  return format;
}

/** Terms of a batch, each (term, part of speech) once: a later row adds translations of languages the first lacks. */
function merged(terms: CheckedTerm[]): CheckedTerm[] {
  const byKey = new Map<string, CheckedTerm>();
  for (const t of terms) {
    const id = termKey(t);
    const first = byKey.get(id);
    if (!first) byKey.set(id, { ...t, translations: [...(t.translations ?? [])] });
    else
      for (const tr of t.translations ?? [])
        if (!first.translations!.some((x) => x.language === tr.language)) first.translations!.push(tr);
  }
  return [...byKey.values()];
}

const termKey = (t: CheckedTerm) => `${t.term}\u0000${t.partOfSpeech}`;

export async function importGlossary(
  principal: Principal,
  target: GlossaryTarget,
  file: UploadedFile,
  format?: GlossaryFormat | null,
): Promise<GlossaryImportResult> {
  const glossary = await reachGlossary(principal, target, 'write');
  if (file.size > GLOSSARY_LIMITS.maxBytes)
    throw payloadTooLarge(`A glossary file may have at most ${GLOSSARY_LIMITS.maxBytes} bytes`);
  const chosen = formatOf(file, format, await uploadHead(() => file.stream()));
  const details = { file: file.name, format: chosen.toLowerCase() };
  try {
    // The file is read inside the transaction, each batch written as it comes:
    // a fault anywhere in the file rolls back the batches before it.
    return await prisma().$transaction(
      async (tx) => {
        const change = await logGlossaryChange(tx, glossary, details, 'IMPORT');
        // Each (term, part of speech) of the file counts once: the first
        // reading wins, a later one adds the translations it lacks (as
        // within a batch, merged()); only the keys are kept across batches.
        const written = new Set<string>();
        const result = { created: 0, updated: 0, skipped: 0 };
        let read = 0;
        const onBatch = async (terms: TermInput[]) => {
          const checked = merged(terms.map((t, i) => checkTerm(t, `${file.name}, term ${read + i + 1}`)));
          read += terms.length;
          const fresh = checked.filter((t) => !written.has(termKey(t)));
          const repeated = checked.filter((t) => written.has(termKey(t)));
          for (const t of fresh) written.add(termKey(t));
          const upserted = await upsertTerms(tx, glossary.glossaryId, fresh, change);
          result.created += upserted.created;
          result.updated += upserted.updated;
          await addMissingTranslations(tx, glossary.glossaryId, repeated, change);
        };
        const open = () => file.stream();
        if (chosen === 'TBX')
          result.skipped = (await readTbx(open, glossary.sourceLanguage, GLOSSARY_LIMITS, onBatch)).skipped;
        else await readGlossaryCsv(open, GLOSSARY_LIMITS, onBatch);
        if (!written.size)
          throw badRequest(
            `${file.name}: no term${chosen === 'TBX' ? ` in the glossary's source language (${glossary.sourceLanguage || 'any'})` : ''}`,
          );
        if (change)
          await amendChange(tx, change, {
            glossary: { ...details, terms: written.size, glossaryId: glossary.glossaryId },
          });
        return result;
      },
      { timeout: 600_000 },
    );
  } catch (error) {
    if (error instanceof FormatError) throw badRequest(`${file.name}: ${error.message}`);
    throw error;
  }
}

const CHUNK = 2000;

async function* termChunks(glossaryId: number): AsyncGenerator<ExportTerm[]> {
  let after = 0;
  for (;;) {
    const rows = await prisma().glossaryTerm.findMany({
      where: { glossaryId, id: { gt: after } },
      orderBy: { id: 'asc' },
      take: CHUNK,
      select: {
        id: true,
        term: true,
        description: true,
        partOfSpeech: true,
        forbidden: true,
        doNotTranslate: true,
        caseSensitive: true,
        abbreviation: true,
        translations: { select: { language: true, text: true }, orderBy: { language: 'asc' } },
      },
    });
    if (!rows.length) return;
    after = rows.at(-1)!.id;
    yield rows;
  }
}

/** The glossary as a file, written chunk by chunk. */
export async function writeGlossary(
  glossaryId: number,
  format: GlossaryFormat,
  write: (chunk: string) => void | Promise<void>,
): Promise<void> {
  const g = await prisma().glossary.findUniqueOrThrow({
    where: { id: glossaryId },
    select: { name: true, sourceLanguage: true },
  });
  if (format === 'TBX') return writeTbx(g.name, g.sourceLanguage, termChunks(glossaryId), write);
  const languages = (
    await prisma().glossaryTranslation.findMany({
      where: { term: { glossaryId } },
      distinct: ['language'],
      select: { language: true },
      orderBy: { language: 'asc' },
    })
  ).map((l) => l.language);
  await write(csvHeader(languages));
  for await (const chunk of termChunks(glossaryId)) await write(csvRows(chunk, languages));
}

/**
 * A glossary as a file stored as an export of the project (a download URL):
 * the project's own, or a shared one linked to it (glossaryId).
 */
export async function exportGlossaryFile(
  principal: Principal,
  config: Config,
  target: GlossaryTarget,
  format: GlossaryFormat,
): Promise<ExportedFile> {
  const projectId = await resolveProject(principal, target.projectToken, 'EXPORT');
  const glossary = await reachGlossary(principal, target, 'export');
  const temp = join(config.dataDir, 'tmp');
  await mkdir(temp, { recursive: true });
  const dir = await mkdtemp(join(temp, 'glossary-'));
  try {
    const path = join(dir, 'glossary');
    const out = createWriteStream(path);
    const done = new Promise<void>((resolve, reject) => {
      out.on('finish', resolve);
      out.on('error', reject);
    });
    await writeGlossary(glossary.glossaryId, format, async (chunk) => {
      if (!out.write(chunk)) await once(out, 'drain');
    });
    out.end();
    await done;
    const tbx = format === 'TBX';
    return await storeExportFile(config, projectId, {
      fileName: tbx ? 'glossary.tbx' : 'glossary.csv',
      contentType: tbx ? 'application/x-tbx+xml' : 'text/csv',
      path,
      size: (await stat(path)).size,
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
