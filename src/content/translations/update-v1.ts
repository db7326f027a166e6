// PATCH /api/v1/translations (deprecated, still served): sets translations of
// existing keys and languages. Per-element problems are failures in the
// answer, never a request error. One element of a base cell whose key and
// language exist is one statement, its lookup with the gate's
// (writeNamedElement). Otherwise one lookup statement, then the successful
// elements are written by the gate's statement, which also opens the change
// (no transaction: one statement is atomic); with CREATE_KEY_IF_NOT_FOUND and
// a missing key, the keys are created first in one interactive transaction.
import { database } from '../../db.js';
import { growingTable } from '../../db/fresh-statistics.js';
import { describeKey } from '../keys/write.js';
import { refusalMessage } from './rules.js';
import { ensureKeys, keyRefId } from './store.js';
import {
  at,
  cellId,
  checkElements,
  describeProblems,
  elementKeyId,
  lookupElements,
  planElementWrite,
  refusalsByElement,
  runElementWrite,
  namedElementOf,
  writeNamedElement,
  type ElementCell,
  type Problem,
  type V1Element,
} from './v1-elements.js';

export interface UpdateV1Result {
  /** Elements that replaced a non-empty translation. */
  numberOfUpdates: number;
  numberOfFailures: number;
  /** Elements that filled an empty cell (including cells of keys created by the request). */
  numberOfInserts: number;
  failures: string[];
}

export async function updateTranslationsV1(
  projectId: number,
  content: V1Element[],
  options: { createKeys: boolean },
): Promise<UpdateV1Result> {
  const { valid, problems } = checkElements(content, { languageMustExist: true });
  // One base cell with a text, of a key and language that exist: its lookup and write are one statement.
  const only = namedElementOf(content, valid);
  const named =
    only &&
    (await writeNamedElement(projectId, only, {
      replace: true,
      touch: false,
      details: { operation: 'UPDATE_TRANSLATIONS_V1', elements: 1 },
    }));
  if (named) {
    problems.push(...named.problems);
    const accepted = named.problems.length ? 0 : 1;
    const updates = accepted && named.row.filled ? 1 : 0;
    return {
      numberOfUpdates: updates,
      numberOfFailures: problems.length,
      numberOfInserts: accepted - updates,
      failures: describeProblems(problems, Number.POSITIVE_INFINITY),
    };
  }
  // Each element is counted against the state before the request: filling an empty cell is an insert (`filled`).
  const found = await lookupElements(projectId, valid, { filled: true });
  const candidates = valid.filter((e) => {
    const problem = !found.languages.has(e.language)
      ? `language '${e.language}' is not in the project`
      : e.customerKey !== null && !found.customers.has(e.customerKey)
        ? `customer '${e.customerKey}' not found`
        : e.text === null
          ? 'text is missing'
          : undefined;
    if (problem) problems.push(at(e.index, problem));
    return !problem;
  });
  const plan = (keys: Map<string, number>) => {
    const cells: ElementCell[] = [];
    const missing: Problem[] = [];
    for (const e of candidates) {
      const keyId = elementKeyId(keys, e);
      if (keyId === undefined) missing.push(at(e.index, `${describeKey(e)} is not in the project`));
      else
        cells.push({
          index: e.index,
          keyId,
          languageId: found.languages.get(e.language)!,
          customerId: e.customerKey ? found.customers.get(e.customerKey)! : null,
          text: e.text!,
        });
    }
    const details = { operation: 'UPDATE_TRANSLATIONS_V1', elements: content.length };
    return {
      ...planElementWrite(projectId, cells, { id: found.changeId, projectId }, { replace: true, details }),
      cells,
      missing,
    };
  };
  const missingKeys = options.createKeys ? candidates.filter((e) => !found.keys.has(keyRefId(e))) : [];
  const { plan: write, rows } = await runElementWrite(
    !missingKeys.length
      ? plan(found.keys)
      : async (tx) => {
          const keys = await ensureKeys(tx, projectId, missingKeys, {
            create: true,
            descriptions: missingKeys.map((e) => e.description),
            change: { id: found.changeId },
          });
          // The gate's statements plan with the keys just created counted (src/db/fresh-statistics.ts).
          await growingTable(tx, database().kind, 'TranslationKey').grew(keys.created);
          return plan(new Map([...found.keys, ...keys.ids]));
        },
  );
  problems.push(...write.missing);
  // The write gate refuses cells of locked keys and texts over the key's charactersLimit: each is a failure of its element.
  const refused = refusalsByElement(write.cells, write.result(rows).refusals);
  for (const [index, refusal] of refused) problems.push(at(index, refusalMessage(refusal)));
  const accepted = write.cells.filter((c) => !refused.has(c.index));
  const updates = accepted.filter((c) => found.filled.has(cellId(c))).length;
  return {
    numberOfUpdates: updates,
    numberOfFailures: problems.length,
    numberOfInserts: accepted.length - updates,
    failures: describeProblems(
      problems.sort((a, b) => a.index - b.index),
      Number.POSITIVE_INFINITY,
    ),
  };
}
