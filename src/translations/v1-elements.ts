// The elements of the deprecated v1 translation endpoints (POST and PATCH
// /api/v1/translations), checked one by one: a bad element is reported with
// its position and never fails the others. Lookups of languages, customers
// and key guards are one statement each, whatever the number of elements.
import type { Db } from '../db.js';
import { NEXT_CHANGE_ID } from '../history/changes.js';
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

/** What the elements name that exists now, by name, and the id of the change a write opens. */
export interface ElementLookup {
  /** keyRefId → id */
  keys: Map<string, number>;
  /** language key → id */
  languages: Map<string, number>;
  /** customer key → id */
  customers: Map<string, number>;
  /** Taken from the Activity sequence (NEXT_CHANGE_ID): the write opens its change with it. */
  changeId: bigint;
}

const LOOKUP = `
  SELECT (SELECT coalesce(json_agg(json_build_array(k.id, k.namespace, k.key)), '[]')
            FROM "TranslationKey" k JOIN unnest($2::text[], $3::text[]) AS t(ns, name) ON k.namespace = t.ns AND k.key = t.name
           WHERE k."projectId" = $1)::text AS keys,
         (SELECT coalesce(json_agg(json_build_array(l.id, l.key)), '[]') FROM "Language" l WHERE l."projectId" = $1 AND l.key = ANY($4::text[]))::text AS languages,
         (SELECT coalesce(json_agg(json_build_array(c.id, c.key)), '[]') FROM "Customer" c WHERE c."projectId" = $1 AND c.key = ANY($5::text[]))::text AS customers,
         ${NEXT_CHANGE_ID} AS change_id`;

/**
 * One statement, whatever the number of elements: the ids of the keys,
 * languages and customers the elements name that exist, and the id of the
 * change the write will open (so that opening it can go in the write's batch).
 */
export async function lookupElements(db: Db, projectId: number, elements: readonly ValidElement[]): Promise<ElementLookup> {
  const keys = [...new Map(elements.map((e) => [keyRefId(e), e])).values()];
  const languages = [...new Set(elements.map((e) => e.language))];
  const customers = [...new Set(elements.map((e) => e.customerKey).filter((k): k is string => k !== null))];
  const [row] = await db.$queryRawUnsafe<{ keys: string; languages: string; customers: string; change_id: bigint }[]>(
    LOOKUP, projectId, keys.map((k) => k.namespace), keys.map((k) => k.key), languages, customers,
  );
  const pairs = (json: string) => (JSON.parse(json) as [number, string][]).map(([id, key]) => [key, id] as const);
  return {
    keys: new Map((JSON.parse(row!.keys) as [number, string, string][]).map(([id, namespace, key]) => [keyRefId({ namespace, key }), id])),
    languages: new Map(pairs(row!.languages)),
    customers: new Map(pairs(row!.customers)),
    changeId: BigInt(row!.change_id),
  };
}

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
