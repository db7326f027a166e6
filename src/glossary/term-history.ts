// The read side of a project glossary's history (history.ts writes it): every
// change of the project's activity log that touched one term, newest first,
// with the term as the change found and left it. Read through the project's
// log, so a term of another project (or of a shared glossary, which has no
// log) has no history here; a deleted term keeps its history (its changes
// outlive it), which is how a deletion is undone.
import { Prisma } from '../generated/prisma/client.js';
import { prisma } from '../db.js';
import { activityEntry, type ActivityEntry } from '../history/activity-log.js';
import type { GlossaryTermFields } from './term-fields.js';

/** A term as a change found or left it: its stored fields and translations. */
export type TermSnapshot = Omit<GlossaryTermFields, 'id'> & { translations: { language: string; text: string }[] };

export interface TermHistoryEntry {
  change: ActivityEntry;
  /** Null: the change created the term. */
  before: TermSnapshot | null;
  /** Null: the change deleted the term. */
  after: TermSnapshot | null;
}

/** The most changes listed for one term (a term edited more often shows its latest). */
export const TERM_HISTORY_LIMIT = 100;

/** A text field of a stored snapshot ('' when absent). */
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function snapshot(value: Prisma.JsonValue | null): TermSnapshot | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  const translations = (v.translations ?? {}) as Record<string, string>;
  return {
    term: text(v.term),
    description: text(v.description),
    partOfSpeech: text(v.partOfSpeech),
    forbidden: v.forbidden === true,
    doNotTranslate: v.doNotTranslate === true,
    caseSensitive: v.caseSensitive === true,
    abbreviation: v.abbreviation === true,
    translations: Object.keys(translations)
      .sort()
      .map((language) => ({ language, text: String(translations[language]) })),
  };
}

/** The changes of the project's log that touched the term, newest first. */
export async function termHistory(projectId: number, termId: number): Promise<TermHistoryEntry[]> {
  const rows = await prisma().$queryRaw<
    { activityId: bigint; before: Prisma.JsonValue | null; after: Prisma.JsonValue | null }[]
  >(Prisma.sql`/* glossary:term-history */
    SELECT c."activityId", c.before, c.after
      FROM "GlossaryTermChange" c JOIN "Activity" a ON a.id = c."activityId" AND a."projectId" = ${projectId}
     WHERE c."termId" = ${termId}
     ORDER BY c."activityId" DESC
     LIMIT ${TERM_HISTORY_LIMIT}`);
  const out: TermHistoryEntry[] = [];
  for (const row of rows) {
    const change = await activityEntry(projectId, row.activityId);
    if (change) out.push({ change, before: snapshot(row.before), after: snapshot(row.after) });
  }
  return out;
}
