// POST /api/v1/translations (deprecated, still served): adds translations,
// creating missing keys and languages (behaviour rules 1–7 of the contract).
// Set-based, whatever the number of elements; visible as soon as the request
// returns. The usual request names keys and languages that exist: one lookup,
// then one batched transaction (no round trip waits on another inside it):
// last-seen, and the gate's statement, which opens the change, writes the
// cells, their change events and last-modified. Only when something must be
// created is the transaction interactive: the new ids come first.
import { prisma, type Db } from '../db.js';
import { assertPublishingAllowed } from '../plans/plans.js';
import { gateStatements, type Row } from './gate.js';
import { openChangeParams, openChangeQuery, type Change } from '../history/changes.js';
import { runBatched } from './batched-writes.js';
import { publishAfterWrite } from './publish-after-import.js';
import { refusalMessage } from './rules.js';
import { BULK_TRANSACTION, ensureKeys, ensureLanguages, keyRefId, type Cell } from './store.js';
import { at, checkElements, describeProblems, elementKeyId, lookupElements, refusalsByElement, type ElementLookup, type ValidElement, type V1Element } from './v1-elements.js';

export interface ImportV1Options {
  /** REPLACE_TRANSLATION_IF_FOUND */
  replace: boolean;
  /** PUBLISH_AFTER_IMPORT */
  publish: boolean;
}

export interface ImportV1Result {
  uniqueKeysProcessed: number;
  processedWithWarnings: boolean;
  message: string;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export async function importTranslationsV1(projectId: number, content: V1Element[], options: ImportV1Options): Promise<ImportV1Result> {
  // Rule 7: the plan is checked before anything is written.
  if (options.publish) await assertPublishingAllowed(projectId, 'PUBLISH_AFTER_IMPORT');
  const { valid, problems } = checkElements(content, { languageMustExist: false });
  const found = await lookupElements(prisma(), projectId, valid);
  // Rule 5: an unknown customer is not created; its element is skipped.
  const accepted = valid.filter((e) => {
    if (e.customerKey === null || found.customers.has(e.customerKey)) return true;
    problems.push(at(e.index, `customer '${e.customerKey}' not found; customers are not created automatically`));
    return false;
  });
  const change: Change = { id: found.changeId, projectId };
  const missingLanguages = [...new Set(accepted.map((e) => e.language))].filter((l) => !found.languages.has(l));
  const missingKeys = accepted.filter((e) => !found.keys.has(keyRefId(e)));
  let write: ReturnType<typeof planWrite>;
  let rows: unknown[];
  if (!missingLanguages.length && !missingKeys.length) {
    write = planWrite(projectId, accepted, found, change, { ...options, elements: content.length });
    rows = await runBatched(() => write.statements(prisma()));
  } else {
    rows = await prisma().$transaction(async (tx) => {
      // Rules 1 and 3: missing languages and keys are created (keys in the order of the elements).
      const languages = missingLanguages.length ? await ensureLanguages(tx, projectId, missingLanguages.map((key) => ({ key })), { create: true }) : { ids: new Map(), created: [] };
      // Rule 2 then comes with the keys' ids (the statement after their creation sets last-seen and returns them).
      const keys = missingKeys.length ? await ensureKeys(tx, projectId, accepted, { create: true, touchLastSeen: true, descriptions: accepted.map((e) => e.description) }) : null;
      const ids = { keys: keys?.ids ?? found.keys, languages: new Map([...found.languages, ...languages.ids]), customers: found.customers };
      write = planWrite(projectId, accepted, ids, change, { ...options, elements: content.length, touched: keys !== null }, { keys: keys?.created ?? 0, languages: languages.created });
      const results: unknown[] = [];
      for (const statement of write.statements(tx)) results.push(await statement);
      return results;
    }, BULK_TRANSACTION);
  }
  const outcome = write!.result(rows);
  for (const [index, refusal] of refusalsByElement(outcome.cells, outcome.written.refusals)) problems.push(at(index, refusalMessage(refusal)));

  const parts = [
    `${plural(new Set(accepted.map(keyRefId)).size, 'unique key')} processed`,
    `${plural(outcome.created.keys, 'key')} created`,
    outcome.created.languages.length ? `languages created: ${outcome.created.languages.join(', ')}` : '',
    `${plural(outcome.written.inserted, 'translation')} added`,
    `${outcome.written.updated} replaced`,
  ].filter(Boolean);
  let message = parts.join(', ');
  if (options.publish) {
    // The import is committed; a failed publication is a warning (publish-after-import.ts).
    const published = await publishAfterWrite(projectId);
    if (published.published) message += '; published to _latest';
    else problems.push({ index: -1, message: published.warning });
  }
  if (problems.length) {
    const elementProblems = problems.filter((p) => p.index >= 0).sort((a, b) => a.index - b.index);
    const other = problems.filter((p) => p.index < 0).map((p) => p.message);
    message += `; ${plural(problems.length, 'warning')}: ${[...describeProblems(elementProblems), ...other].join('; ')}`;
  }
  return { uniqueKeysProcessed: new Set(accepted.map(keyRefId)).size, processedWithWarnings: problems.length > 0, message };
}

/**
 * The write of the accepted elements, given the ids of their keys, languages
 * and customers: rule 2, every key's last-seen (unless `touched`: set with
 * the keys' creation); the change; rule 4 and the
 * gate's rules, through the gate, which records each written cell in the
 * change. The change is opened by the gate's own statement when the cells are
 * of one table (always, for one element), otherwise by a statement of its
 * own. `statements` builds them, not yet sent (again for a retry: a statement
 * runs once); `result` reads their answers.
 */
function planWrite(
  projectId: number, accepted: readonly ValidElement[], ids: Pick<ElementLookup, 'keys' | 'languages' | 'customers'>,
  change: Change, options: ImportV1Options & { elements: number; touched?: boolean }, created = { keys: 0, languages: [] as string[] },
) {
  const keyIds = [...new Set(accepted.map((e) => elementKeyId(ids.keys, e)!))];
  const cells: (Cell & { index: number })[] = [];
  for (const e of accepted) {
    // Without REPLACE an empty text could change nothing; an element without text only registers its key.
    if (e.text === null || (e.text === '' && !options.replace)) continue;
    cells.push({ index: e.index, keyId: elementKeyId(ids.keys, e)!, languageId: ids.languages.get(e.language)!, customerId: e.customerKey ? ids.customers.get(e.customerKey)! : null, text: e.text });
  }
  // Keys and languages created are recorded in the change: its details and its edit count.
  const edits = created.keys + created.languages.length;
  const details = { operation: 'IMPORT_TRANSLATIONS_V1', elements: options.elements, ...(edits ? { keysCreated: created.keys, languagesCreated: created.languages } : {}) };
  const opening = openChangeParams(change, 'TRANSLATIONS', details, { edits });
  const oneTable = cells.length > 0 && cells.every((c) => (c.customerId === null) === (cells[0]!.customerId === null));
  const touching = keyIds.length > 0 && !options.touched;
  const gate = (db: Db) => gateStatements(db, projectId, cells, { replace: options.replace, listRefusals: cells.length, change, ...(oneTable ? { opening } : {}) });
  return {
    statements: (db: Db) => [
      ...(touching ? [db.$executeRawUnsafe(`UPDATE "TranslationKey" SET "lastSeenAt" = now() WHERE "projectId" = $1 AND id = ANY($2::int[])`, projectId, keyIds)] : []),
      ...(oneTable ? [] : [openChangeQuery(db, opening)]),
      ...gate(db).statements,
    ],
    result: (rows: unknown[]) => ({ cells, created, written: gate(prisma()).result(rows.slice((touching ? 1 : 0) + (oneTable ? 0 : 1)) as Row[][]) }),
  };
}
