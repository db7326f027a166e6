// The elements of the deprecated v1 translation endpoints (POST and PATCH
// /api/v1/translations), checked one by one: a bad element is reported with
// its position and never fails the others. Lookups of languages, customers
// and key guards are one statement each, whatever the number of elements.
import type { Db } from '../db.js';
import { keyProblem, namespaceProblem } from '../keys/input.js';
import { identifierProblem, LIMITS, lengthProblem } from './fields.js';
import type { Refusal } from './gate.js';
import type { Cell } from './store.js';
import { keyRefId } from './store.js';

export interface V1Element {
  key: string;
  language: string;
  text?: string | null;
  namespace?: string | null;
  description?: string | null;
  customerKey?: string | null;
}

export interface ValidElement {
  index: number;
  key: string;
  namespace: string;
  language: string;
  /** null: the element carries no text. */
  text: string | null;
  description: string | null;
  customerKey: string | null;
}

export interface Problem { index: number; message: string }

export const at = (index: number, message: string): Problem => ({ index, message });

/** content[i]: message, listing at most `max` problems. */
export function describeProblems(problems: Problem[], max = 20): string[] {
  const lines = problems.slice(0, max).map((p) => `content[${p.index}]: ${p.message}`);
  if (problems.length > max) lines.push(`and ${problems.length - max} more`);
  return lines;
}

/** Checks the shape of each element: key and language present, lengths within the contract. */
export function checkElements(content: V1Element[], options: { languageMustExist: boolean }): { valid: ValidElement[]; problems: Problem[] } {
  const valid: ValidElement[] = [];
  const problems: Problem[] = [];
  content.forEach((element, index) => {
    const { key, language } = element;
    const namespace = element.namespace ?? '';
    if (key.trim() === '') return problems.push(at(index, 'key is empty'));
    if (language === '') return problems.push(at(index, 'language is empty'));
    const problem = keyProblem(key)
      ?? namespaceProblem(namespace)
      // A language that must already exist is reported as missing from the project instead.
      ?? (options.languageMustExist ? undefined : identifierProblem(language, 'language', LIMITS.languageKey))
      ?? (element.description ? lengthProblem(element.description, 'description', LIMITS.description) : undefined);
    if (problem) return problems.push(at(index, problem));
    valid.push({
      index,
      key,
      namespace,
      language,
      text: element.text ?? null,
      description: element.description || null,
      customerKey: element.customerKey || null,
    });
  });
  return { valid, problems };
}

/** Customer key → id for the customers the elements name. */
export async function customerIds(db: Db, projectId: number, elements: ValidElement[]): Promise<Map<string, number>> {
  const keys = [...new Set(elements.map((e) => e.customerKey).filter((k): k is string => k !== null))];
  if (keys.length === 0) return new Map();
  const rows = await db.$queryRawUnsafe<{ id: number; key: string }[]>(
    `SELECT id, key FROM "Customer" WHERE "projectId" = $1 AND key = ANY($2::text[])`, projectId, keys,
  );
  return new Map(rows.map((r) => [r.key, r.id]));
}

/** Lock and charactersLimit of those of the given keys that have either, by id. */
/**
 * The gate's refusals by element index: every element whose cell was refused
 * (an element given twice shares its cell's refusal).
 */
export function refusalsByElement(cells: readonly (Cell & { index: number })[], refusals: readonly Refusal[]): Map<number, Refusal> {
  const byCell = new Map(refusals.map((r) => [`${r.keyId}:${r.languageId}:${r.customerId ?? ''}`, r]));
  const found = new Map<number, Refusal>();
  for (const c of cells) {
    const refusal = byCell.get(`${c.keyId}:${c.languageId}:${c.customerId ?? ''}`);
    if (refusal) found.set(c.index, refusal);
  }
  return found;
}

export const elementKeyId = (ids: Map<string, number>, e: ValidElement) => ids.get(keyRefId(e));
