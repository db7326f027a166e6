// POST /api/v1/translations (deprecated, still served): adds translations,
// creating missing keys and languages (behaviour rules 1–7 of the contract).
// One transaction of set-based statements, whatever the number of elements;
// visible as soon as the request returns.
import { prisma } from '../db.js';
import { AppError } from '../errors.js';
import { assertPublishingAllowed } from '../plans/plans.js';
import { lockProblem, limitProblem } from './rules.js';
import { BULK_TRANSACTION, ensureKeys, ensureLanguages, keyRefId, upsertTranslations, type Cell } from './store.js';
import { at, checkElements, customerIds, describeProblems, elementKeyId, keyGuards, type V1Element } from './v1-elements.js';

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

type Publisher = (options: { projectId: number; environmentKey: string }) => Promise<unknown>;

/** The hosting domain's publish function, loaded only when an import asks to publish. */
async function loadPublisher(): Promise<Publisher> {
  try {
    return (await import('../hosting/publish.js')).publishEnvironment;
  } catch (error) {
    throw new AppError('INTERNAL', `PUBLISH_AFTER_IMPORT is unavailable: the hosting module could not be loaded (${(error as Error).message})`);
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export async function importTranslationsV1(projectId: number, content: V1Element[], options: ImportV1Options): Promise<ImportV1Result> {
  // Rule 7: the plan is checked before anything is written.
  if (options.publish) await assertPublishingAllowed(projectId, 'PUBLISH_AFTER_IMPORT');
  const publish = options.publish ? await loadPublisher() : undefined;
  const { valid, problems } = checkElements(content, { languageMustExist: false });
  const outcome = await prisma().$transaction(async (tx) => {
    const customers = await customerIds(tx, projectId, valid);
    // Rule 5: an unknown customer is not created; its element is skipped.
    const accepted = valid.filter((e) => {
      if (e.customerKey === null || customers.has(e.customerKey)) return true;
      problems.push(at(e.index, `customer '${e.customerKey}' not found; customers are not created automatically`));
      return false;
    });
    // Rules 1–3: missing languages and keys are created; every key's last-seen is updated.
    const languages = await ensureLanguages(tx, projectId, accepted.map((e) => ({ key: e.language })), { create: true });
    const keys = await ensureKeys(tx, projectId, accepted, { create: true, touchLastSeen: true, descriptions: accepted.map((e) => e.description) });
    const guards = await keyGuards(tx, accepted.map((e) => elementKeyId(keys.ids, e)!));
    const cells: Cell[] = [];
    for (const e of accepted) {
      // Without REPLACE an empty text could change nothing; an element without text only registers its key.
      if (e.text === null || (e.text === '' && !options.replace)) continue;
      const keyId = elementKeyId(keys.ids, e)!;
      const guard = guards.get(keyId);
      const problem = guard && (lockProblem(guard) ?? limitProblem(guard, e.text));
      if (problem) {
        problems.push(at(e.index, problem));
        continue;
      }
      cells.push({ keyId, languageId: languages.ids.get(e.language)!, customerId: e.customerKey ? customers.get(e.customerKey)! : null, text: e.text });
    }
    // Rule 4: existing translations are replaced only with REPLACE_TRANSLATION_IF_FOUND.
    const written = await upsertTranslations(tx, projectId, cells, { replace: options.replace });
    return { uniqueKeys: new Set(accepted.map(keyRefId)).size, createdKeys: keys.created, createdLanguages: languages.created, written };
  }, BULK_TRANSACTION);

  const parts = [
    `${plural(outcome.uniqueKeys, 'unique key')} processed`,
    `${plural(outcome.createdKeys, 'key')} created`,
    outcome.createdLanguages.length ? `languages created: ${outcome.createdLanguages.join(', ')}` : '',
    `${plural(outcome.written.inserted, 'translation')} added`,
    `${outcome.written.updated} replaced`,
  ].filter(Boolean);
  let message = parts.join(', ');
  if (publish) {
    try {
      await publish({ projectId, environmentKey: '_latest' });
      message += '; published to _latest';
    } catch (error) {
      // The import is committed; a failed publication is reported, not turned into a failed request.
      problems.push({ index: -1, message: `PUBLISH_AFTER_IMPORT failed: ${(error as Error).message}` });
    }
  }
  if (problems.length) {
    const elementProblems = problems.filter((p) => p.index >= 0).sort((a, b) => a.index - b.index);
    const other = problems.filter((p) => p.index < 0).map((p) => p.message);
    message += `; ${plural(problems.length, 'warning')}: ${[...describeProblems(elementProblems), ...other].join('; ')}`;
  }
  return { uniqueKeysProcessed: outcome.uniqueKeys, processedWithWarnings: problems.length > 0, message };
}
