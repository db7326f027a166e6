// POST /api/v1/translations (deprecated, still served): adds translations,
// creating missing keys and languages (behaviour rules 1–7 of the contract).
// One transaction of set-based statements, whatever the number of elements;
// visible as soon as the request returns.
import { prisma } from '../db.js';
import { assertPublishingAllowed } from '../plans/plans.js';
import { writeTranslations } from './gate.js';
import { amendChange, openChange } from '../history/changes.js';
import { publishAfterWrite } from './publish-after-import.js';
import { refusalMessage } from './rules.js';
import { BULK_TRANSACTION, ensureKeys, ensureLanguages, keyRefId, type Cell } from './store.js';
import { at, checkElements, customerIds, describeProblems, elementKeyId, refusalsByElement, type V1Element } from './v1-elements.js';

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
  const outcome = await prisma().$transaction(async (tx) => {
    const change = await openChange(tx, projectId, 'TRANSLATIONS', { operation: 'IMPORT_TRANSLATIONS_V1', elements: content.length });
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
    const cells: (Cell & { index: number })[] = [];
    for (const e of accepted) {
      // Without REPLACE an empty text could change nothing; an element without text only registers its key.
      if (e.text === null || (e.text === '' && !options.replace)) continue;
      const keyId = elementKeyId(keys.ids, e)!;
      cells.push({ index: e.index, keyId, languageId: languages.ids.get(e.language)!, customerId: e.customerKey ? customers.get(e.customerKey)! : null, text: e.text });
    }
    // Rule 4: existing translations are replaced only with REPLACE_TRANSLATION_IF_FOUND.
    // The write gate refuses cells of locked keys and texts over the key's charactersLimit: each is a warning of its element.
    const written = await writeTranslations(tx, projectId, cells, { replace: options.replace, listRefusals: cells.length, change });
    if (keys.created || languages.created.length) await amendChange(tx, change, { keysCreated: keys.created, languagesCreated: languages.created }, keys.created + languages.created.length);
    for (const [index, refusal] of refusalsByElement(cells, written.refusals)) problems.push(at(index, refusalMessage(refusal)));
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
  return { uniqueKeysProcessed: outcome.uniqueKeys, processedWithWarnings: problems.length > 0, message };
}
