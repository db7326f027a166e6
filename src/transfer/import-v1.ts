// POST /api/v1/translations (deprecated, still served): adds translations,
// creating missing keys and languages (behaviour rules 1–7 of the contract).
// Set-based, whatever the number of elements; visible as soon as the request
// returns. A request of one base cell of a key and language that exist is one
// statement, its lookup with the gate's (writeNamedElement). Otherwise, when
// the elements name keys and languages that exist: one lookup, then one
// batched transaction (no round trip waits on another inside it): last-seen,
// and the gate's statement, which opens the change, writes the cells, their
// change events and last-modified. Only when something must be created is the
// transaction interactive: the new ids come first.
import { database } from '../db.js';
import { growingTable } from '../db/fresh-statistics.js';
import { assertPublishingAllowed } from '../plans/plans.js';
import type { Change } from '../content/changes.js';
import { publishAfterWrite } from './publish-after-import.js';
import { refusalMessage } from '../content/translations/rules.js';
import { ensureKeys, keyRefId } from '../content/translations/store.js';
import { ensureLanguages } from '../content/languages.js';
import {
  at,
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
  type ElementLookup,
  type Problem,
  type V1Element,
  type ValidElement,
} from '../content/translations/v1-elements.js';
import type { GateResult } from '../content/translations/gate.js';

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

export async function importTranslationsV1(
  projectId: number,
  content: V1Element[],
  options: ImportV1Options,
): Promise<ImportV1Result> {
  // Rule 7: the plan is checked before anything is written.
  if (options.publish) await assertPublishingAllowed(projectId, 'PUBLISH_AFTER_IMPORT');
  const { valid, problems } = checkElements(content, { languageMustExist: false });
  // One base cell with a text to write, of a key and language that exist: its lookup and write are one statement.
  const only = namedElementOf(content, valid);
  const named =
    only &&
    (only.text !== '' || options.replace) &&
    (await writeNamedElement(projectId, only, {
      replace: options.replace,
      touch: true,
      details: { operation: 'IMPORT_TRANSLATIONS_V1', elements: 1 },
    }));
  if (named) {
    problems.push(...named.problems);
    return answer(options, [only], { keys: 0, languages: [] }, named.row, problems, projectId);
  }
  const found = await lookupElements(projectId, valid);
  // Rule 5: an unknown customer is not created; its element is skipped.
  const accepted = valid.filter((e) => {
    if (e.customerKey === null || found.customers.has(e.customerKey)) return true;
    problems.push(at(e.index, `customer '${e.customerKey}' not found; customers are not created automatically`));
    return false;
  });
  const change: Change = { id: found.changeId, projectId };
  const missingLanguages = [...new Set(accepted.map((e) => e.language))].filter((l) => !found.languages.has(l));
  const missingKeys = accepted.filter((e) => !found.keys.has(keyRefId(e)));
  const plan = (
    ids: Pick<ElementLookup, 'keys' | 'languages'>,
    created = { keys: 0, languages: [] as string[], touched: false },
  ) => {
    const cells: ElementCell[] = [];
    for (const e of accepted) {
      // Without REPLACE an empty text could change nothing; an element without text only registers its key.
      if (e.text === null || (e.text === '' && !options.replace)) continue;
      cells.push({
        index: e.index,
        keyId: elementKeyId(ids.keys, e)!,
        languageId: ids.languages.get(e.language)!,
        customerId: e.customerKey ? found.customers.get(e.customerKey)! : null,
        text: e.text,
      });
    }
    // Keys and languages created are recorded in the change: its details and its edit count.
    const edits = created.keys + created.languages.length;
    const details = {
      operation: 'IMPORT_TRANSLATIONS_V1',
      elements: content.length,
      ...(edits ? { keysCreated: created.keys, languagesCreated: created.languages } : {}),
    };
    // Rule 4: existing translations are replaced only with REPLACE_TRANSLATION_IF_FOUND; rule 2: every key's last-seen.
    const write = planElementWrite(projectId, cells, change, {
      replace: options.replace,
      details,
      edits,
      touchKeyIds: created.touched ? [] : [...new Set(accepted.map((e) => elementKeyId(ids.keys, e)!))],
    });
    return { ...write, cells, created };
  };
  const { plan: write, rows } = await runElementWrite(
    !missingLanguages.length && !missingKeys.length
      ? plan(found)
      : async (tx) => {
          // Rules 1 and 3: missing languages and keys are created (keys in the order of the elements).
          const languages = missingLanguages.length
            ? await ensureLanguages(
                tx,
                projectId,
                missingLanguages.map((key) => ({ key })),
                { create: true, change },
              )
            : { ids: new Map<string, number>(), created: [] };
          // Rule 2 then comes with the keys' ids (the statement after their creation sets last-seen and returns them).
          const keys = missingKeys.length
            ? await ensureKeys(tx, projectId, accepted, {
                create: true,
                touchLastSeen: true,
                descriptions: accepted.map((e) => e.description),
                change,
              })
            : null;
          // The gate's statements plan with the keys just created counted (src/db/fresh-statistics.ts).
          if (keys) await growingTable(tx, database().kind, 'TranslationKey').grew(keys.created);
          return plan(
            { keys: keys?.ids ?? found.keys, languages: new Map([...found.languages, ...languages.ids]) },
            { keys: keys?.created ?? 0, languages: languages.created, touched: keys !== null },
          );
        },
  );
  // The write gate refuses cells of locked keys and texts over the key's charactersLimit: each is a warning of its element.
  const outcome = { created: write.created, written: write.result(rows) };
  for (const [index, refusal] of refusalsByElement(write.cells, outcome.written.refusals))
    problems.push(at(index, refusalMessage(refusal)));
  return answer(options, accepted, outcome.created, outcome.written, problems, projectId);
}

/** The answer of a v1 write: its counts and warnings; the publication after it, if asked for. */
async function answer(
  options: ImportV1Options,
  accepted: readonly ValidElement[],
  created: { keys: number; languages: string[] },
  written: Pick<GateResult, 'inserted' | 'updated'>,
  problems: Problem[],
  projectId: number,
): Promise<ImportV1Result> {
  const parts = [
    `${plural(new Set(accepted.map(keyRefId)).size, 'unique key')} processed`,
    `${plural(created.keys, 'key')} created`,
    created.languages.length ? `languages created: ${created.languages.join(', ')}` : '',
    `${plural(written.inserted, 'translation')} added`,
    `${written.updated} replaced`,
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
  return {
    uniqueKeysProcessed: new Set(accepted.map(keyRefId)).size,
    processedWithWarnings: problems.length > 0,
    message,
  };
}
