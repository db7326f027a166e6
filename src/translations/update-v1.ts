// PATCH /api/v1/translations (deprecated, still served): sets translations of
// existing keys and languages. Per-element problems are failures in the
// answer, never a request error; the successful elements are written in one
// transaction of set-based statements.
import { prisma, type Db } from '../db.js';
import { describeKey } from '../keys/write.js';
import { openChange } from '../history/changes.js';
import { writeTranslations } from './gate.js';
import { refusalMessage } from './rules.js';
import { BULK_TRANSACTION, ensureKeys, ensureLanguages, type Cell } from './store.js';
import { at, checkElements, customerIds, describeProblems, elementKeyId, refusalsByElement, type V1Element } from './v1-elements.js';

export interface UpdateV1Result {
  /** Elements that replaced a non-empty translation. */
  numberOfUpdates: number;
  numberOfFailures: number;
  /** Elements that filled an empty cell (including cells of keys created by the request). */
  numberOfInserts: number;
  failures: string[];
}

export async function updateTranslationsV1(projectId: number, content: V1Element[], options: { createKeys: boolean }): Promise<UpdateV1Result> {
  const { valid, problems } = checkElements(content, { languageMustExist: true });
  const counts = await prisma().$transaction(async (tx) => {
    const languages = await ensureLanguages(tx, projectId, valid.map((e) => ({ key: e.language })), { create: false });
    const customers = await customerIds(tx, projectId, valid);
    const candidates = valid.filter((e) => {
      const problem = !languages.ids.has(e.language)
        ? `language '${e.language}' is not in the project`
        : e.customerKey !== null && !customers.has(e.customerKey)
          ? `customer '${e.customerKey}' not found`
          : e.text === null ? 'text is missing' : undefined;
      if (problem) problems.push(at(e.index, problem));
      return !problem;
    });
    const keys = await ensureKeys(tx, projectId, candidates, { create: options.createKeys, descriptions: candidates.map((e) => e.description) });
    const cells: (Cell & { index: number })[] = [];
    for (const e of candidates) {
      const keyId = elementKeyId(keys.ids, e);
      if (keyId === undefined) {
        problems.push(at(e.index, `${describeKey(e)} is not in the project`));
        continue;
      }
      cells.push({ index: e.index, keyId, languageId: languages.ids.get(e.language)!, customerId: e.customerKey ? customers.get(e.customerKey)! : null, text: e.text! });
    }
    // Each element is counted against the state before the request: filling an empty cell is an insert.
    const filled = await filledCells(tx, cells);
    // The write gate refuses cells of locked keys and texts over the key's charactersLimit: each is a failure of its element.
    const change = await openChange(tx, projectId, 'TRANSLATIONS', { operation: 'UPDATE_TRANSLATIONS_V1', elements: content.length });
    const written = await writeTranslations(tx, projectId, cells, { replace: true, listRefusals: cells.length, change });
    const refused = refusalsByElement(cells, written.refusals);
    for (const [index, refusal] of refused) problems.push(at(index, refusalMessage(refusal)));
    const accepted = cells.filter((c) => !refused.has(c.index));
    const updates = accepted.filter((c) => filled.has(cellId(c))).length;
    return { updates, inserts: accepted.length - updates };
  }, BULK_TRANSACTION);
  return {
    numberOfUpdates: counts.updates,
    numberOfFailures: problems.length,
    numberOfInserts: counts.inserts,
    failures: describeProblems(problems.sort((a, b) => a.index - b.index), Number.POSITIVE_INFINITY),
  };
}

const cellId = (c: Pick<Cell, 'keyId' | 'languageId' | 'customerId'>) => `${c.keyId}:${c.languageId}:${c.customerId ?? ''}`;

/** Which of the cells hold a non-empty text now (one statement per table). */
async function filledCells(tx: Db, cells: Cell[]): Promise<Set<string>> {
  const base = cells.filter((c) => c.customerId === null);
  const custom = cells.filter((c) => c.customerId !== null);
  const rows: { keyId: number; languageId: number; customerId: number | null }[] = [];
  if (base.length) {
    rows.push(...await tx.$queryRawUnsafe<typeof rows>(
      `SELECT t."keyId", t."languageId", NULL::int AS "customerId" FROM "Translation" t
         JOIN unnest($1::int[], $2::int[]) AS i(k, l) ON t."keyId" = i.k AND t."languageId" = i.l
        WHERE t.text <> ''`,
      base.map((c) => c.keyId), base.map((c) => c.languageId),
    ));
  }
  if (custom.length) {
    rows.push(...await tx.$queryRawUnsafe<typeof rows>(
      `SELECT t."keyId", t."languageId", t."customerId" FROM "CustomerTranslation" t
         JOIN unnest($1::int[], $2::int[], $3::int[]) AS i(k, l, c) ON t."keyId" = i.k AND t."languageId" = i.l AND t."customerId" = i.c
        WHERE t.text <> ''`,
      custom.map((c) => c.keyId), custom.map((c) => c.languageId), custom.map((c) => c.customerId),
    ));
  }
  return new Set(rows.map(cellId));
}
