// What a run is about: the keys and cells of its triggering change that its
// rule's filters admit. Queuing a run (src/content/changes.ts) only knows the
// change's kind and origin; the cells, the keys it created and their
// namespaces and tags are read here, when the run is taken, from the change
// events (src/content/cell-events.ts). An empty match skips the run.
import { Prisma } from '../generated/prisma/client.js';
import { prisma } from '../db.js';
import { arrayLiteral } from '../db/array-literal.js';
import { cellEventsSql, selectEvents } from '../content/cell-events.js';
import type { AutomationTrigger } from '../content/changes.js';

/** What matching reads of a rule (a RuleView of rules.ts). */
export interface RuleFilters {
  trigger: AutomationTrigger;
  languages: readonly string[];
  namespaces: readonly string[];
  tags: readonly string[];
  reviewStatuses: readonly string[];
}

export interface Pair {
  keyId: number;
  languageId: number;
}

export interface Matched {
  /** Keys the run is about; null: not about particular keys (a schedule, an import or a job's end without filters). */
  keyIds: number[] | null;
  /** The cells the change wrote that the filters admit (for KEY_CREATED: the new keys' texts). */
  cells: Pair[];
  /** Why the run does nothing, when it does nothing. */
  skip?: string;
}

export interface TriggeringChange {
  id: bigint;
  kind: string;
  details: Record<string, unknown>;
}

const list = (values: readonly string[]) => Prisma.sql`${arrayLiteral(values)}::text[]`;

/** Filters on keys `k` (namespaces, tags) and languages `l`. */
function keyFilter(rule: RuleFilters) {
  return Prisma.sql`(cardinality(${list(rule.namespaces)}) = 0 OR k.namespace = ANY(${list(rule.namespaces)}))
    AND (cardinality(${list(rule.tags)}) = 0 OR k.tags && ${list(rule.tags)})`;
}

function languageFilter(rule: RuleFilters) {
  return Prisma.sql`(cardinality(${list(rule.languages)}) = 0 OR l.key = ANY(${list(rule.languages)}))`;
}

/** The base cells a change wrote (text changed, or review status changed) that the rule admits: one statement. */
async function changedCells(
  rule: RuleFilters,
  activityId: bigint,
  projectId: number,
  what: 'text' | 'status',
): Promise<Pair[]> {
  const events = cellEventsSql(selectEvents.ofActivity(Prisma.sql`${activityId}`, Prisma.sql`${projectId}`));
  const changed =
    what === 'text'
      ? Prisma.sql`c."oldText" IS DISTINCT FROM c."newText"`
      : Prisma.sql`c."oldStatus" IS DISTINCT FROM c."newStatus"`;
  return prisma().$queryRaw<Pair[]>(Prisma.sql`/* automations:changed-cells */
    SELECT DISTINCT c."keyId", c."languageId"
      FROM ${events} c
      JOIN "TranslationKey" k ON k.id = c."keyId"
      JOIN "Language" l ON l.id = c."languageId"
     WHERE c."customerId" IS NULL AND ${changed} AND ${keyFilter(rule)} AND ${languageFilter(rule)}
       AND (cardinality(${list(rule.reviewStatuses)}) = 0 OR c."newStatus"::text = ANY(${list(rule.reviewStatuses)}))
     ORDER BY 1, 2`);
}

/**
 * Keys the change created that the rule admits, with their non-empty texts in
 * the rule's languages (a language filter means: created with a text in one
 * of them). The created keys are found from the change's cells, and for a key
 * created alone (KEYS) by its name, so no scan of the project's keys is needed.
 */
async function createdKeys(rule: RuleFilters, change: TriggeringChange, projectId: number): Promise<Matched> {
  const events = cellEventsSql(selectEvents.ofActivity(Prisma.sql`${change.id}`, Prisma.sql`${projectId}`));
  const named =
    change.kind === 'KEYS' && change.details.action === 'CREATE_KEY' && typeof change.details.key === 'string'
      ? Prisma.sql`UNION SELECT id FROM "TranslationKey" WHERE "projectId" = ${projectId} AND namespace = ${typeof change.details.namespace === 'string' ? change.details.namespace : ''} AND key = ${change.details.key}`
      : Prisma.empty;
  const rows = await prisma().$queryRaw<(Pair & { text: boolean })[]>(Prisma.sql`/* automations:created-keys */
    WITH candidates AS (SELECT DISTINCT "keyId" AS id FROM ${events} c ${named})
    SELECT k.id AS "keyId", l.id AS "languageId", coalesce(t.text, '') <> '' AS text
      FROM candidates
      JOIN "TranslationKey" k ON k.id = candidates.id AND k."projectId" = ${projectId} AND k."createdByChange" = ${change.id}
      JOIN "Language" l ON l."projectId" = ${projectId} AND ${languageFilter(rule)}
      LEFT JOIN "Translation" t ON t."keyId" = k.id AND t."languageId" = l.id
     WHERE ${keyFilter(rule)}
     ORDER BY 1, 2`);
  const cells = rows.filter((r) => r.text).map(({ keyId, languageId }) => ({ keyId, languageId }));
  const keyIds = rule.languages.length
    ? [...new Set(cells.map((c) => c.keyId))]
    : [...new Set(rows.map((r) => r.keyId))];
  return keyIds.length ? { keyIds, cells } : { keyIds, cells, skip: 'no key created that the filters admit' };
}

const filtersKeys = (rule: RuleFilters) =>
  rule.languages.length + rule.namespaces.length + rule.tags.length + rule.reviewStatuses.length > 0;

/** The keys and cells a run of `rule` for `change` is about (null change: a schedule tick). */
export async function matchRun(
  rule: RuleFilters,
  projectId: number,
  change: TriggeringChange | null,
): Promise<Matched> {
  if (!change) return { keyIds: null, cells: [] };
  switch (rule.trigger) {
    case 'KEY_CREATED':
      return createdKeys(rule, change, projectId);
    case 'TEXTS_CHANGED':
    case 'REVIEW_STATUS_CHANGED': {
      const cells = await changedCells(
        rule,
        change.id,
        projectId,
        rule.trigger === 'TEXTS_CHANGED' ? 'text' : 'status',
      );
      const keyIds = [...new Set(cells.map((c) => c.keyId))];
      return cells.length ? { keyIds, cells } : { keyIds, cells, skip: 'no cell changed that the filters admit' };
    }
    case 'IMPORT_FINISHED':
    case 'AUTO_TRANSLATION_FINISHED': {
      // The cells of an import are its own change's; a job's are in the change its end names.
      const cellsOf =
        rule.trigger === 'IMPORT_FINISHED'
          ? change.id
          : typeof change.details.activityId === 'string'
            ? BigInt(change.details.activityId)
            : null;
      const cells = cellsOf === null ? [] : await changedCells(rule, cellsOf, projectId, 'text');
      const keyIds = [...new Set(cells.map((c) => c.keyId))];
      // Without filters the run is about the import or job as a whole (publish after every import).
      if (!filtersKeys(rule)) return { keyIds, cells };
      return cells.length ? { keyIds, cells } : { keyIds, cells, skip: 'no cell written that the filters admit' };
    }
    default:
      return { keyIds: null, cells: [] };
  }
}
