// Updating one translation cell (PATCH /api/v2/translations): any existing key
// and language of the project has a cell, possibly empty. Text and/or review
// status are set; with a customer, its override is written and the base
// translation stays unchanged.
import { prisma } from '../db.js';
import { AppError, badRequest, conflict, notFound } from '../errors.js';
import { namespaceOrDefault, requireKeyName } from '../keys/input.js';
import { describeKey } from '../keys/write.js';
import { customerIdOf } from '../customers/customers.js';
import { cellsOfKeys, type TranslationCell } from './cells.js';
import { openChange } from '../history/changes.js';
import { writeTranslations } from './gate.js';
import { refusalMessage } from './rules.js';
import type { ReviewStatus } from './store.js';

export interface UpdateTranslationInput {
  key: string;
  namespace?: string | null;
  language: string;
  customerKey?: string | null;
  text?: string | null;
  reviewStatus?: ReviewStatus | null;
  /** The cell's lastModifiedAt the writer last read (epoch 0: never written); absent: no check. */
  expectedLastModifiedAt?: Date | null;
}

function parse(input: UpdateTranslationInput) {
  const key = requireKeyName(input.key);
  const namespace = namespaceOrDefault(input.namespace);
  if (input.language === '') throw badRequest('language is required');
  const text = input.text ?? undefined;
  const reviewStatus = input.reviewStatus ?? undefined;
  if (text === undefined && reviewStatus === undefined) throw badRequest('text or reviewStatus is required');
  return { key, namespace, language: input.language, customerKey: input.customerKey || null, text, reviewStatus };
}

export async function updateTranslation(projectId: number, input: UpdateTranslationInput): Promise<TranslationCell> {
  const request = parse(input);
  const address = { key: request.key, namespace: request.namespace };
  const { keyId, customer } = await prisma().$transaction(async (tx) => {
    const key = await tx.translationKey.findUnique({ where: { projectId_namespace_key: { projectId, ...address } } });
    if (!key) throw notFound(`${describeKey(address)} not found`);
    const language = await tx.language.findUnique({ where: { projectId_key: { projectId, key: request.language } }, select: { id: true } });
    if (!language) throw notFound(`language '${request.language}' not found`);
    const customer = request.customerKey ? { id: await customerIdOf(projectId, request.customerKey, tx), key: request.customerKey } : null;
    const current = customer
      ? await tx.customerTranslation.findUnique({ where: { keyId_languageId_customerId: { keyId: key.id, languageId: language.id, customerId: customer.id } } })
      : await tx.translation.findUnique({ where: { keyId_languageId: { keyId: key.id, languageId: language.id } } });
    // Optimistic concurrency (the web console): refuse to overwrite a cell that changed since the writer read it.
    if (input.expectedLastModifiedAt) {
      const actual = current?.lastModifiedAt?.getTime() ?? 0;
      if (actual !== input.expectedLastModifiedAt.getTime()) {
        throw new AppError('CONFLICT', `${describeKey(address)} in '${request.language}' changed since it was read`, {
          current: { text: current?.text ?? '', reviewStatus: current?.reviewStatus ?? 'NOT_REVIEWED', lastModifiedAt: current?.lastModifiedAt?.toISOString() ?? null },
        });
      }
    }
    // An empty override means "use the base translation": there is no customer text to review.
    if (customer && request.text === undefined && !current?.text) {
      throw notFound(`customer '${customer.key}' has no translation of ${describeKey(address)} in '${request.language}'; send text to create one`);
    }
    const change = await openChange(tx, projectId, 'TRANSLATIONS', { operation: 'UPDATE_TRANSLATION' });
    const written = await writeTranslations(tx, projectId, [{
      keyId: key.id,
      languageId: language.id,
      customerId: customer?.id ?? null,
      text: request.text ?? current?.text ?? '',
      reviewStatus: request.reviewStatus,
    }], { replace: true, change });
    // The gate refused the cell: nothing was written; a locked key is a conflict, a text too long a bad request.
    const [refusal] = written.refusals;
    if (refusal) throw refusal.reason === 'LOCKED' ? conflict(refusalMessage(refusal)) : badRequest(refusalMessage(refusal));
    return { keyId: key.id, customer };
  });
  const [cell] = await cellsOfKeys(projectId, [keyId], customer, { language: request.language });
  return cell!;
}
