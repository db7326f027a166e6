// The terms of a project's glossaries that occur in a text: loads the
// glossaries the project reads (its own and the shared ones linked to it),
// compiles them once (src/checks/glossary-match.ts) and keeps the compiled matcher
// while the glossaries do not change.
import { Prisma } from '../generated/prisma/client.js';
import { prisma } from '../db.js';
import { glossariesOfProject } from './access.js';
import { compileMatcher, findTerms, type Matcher } from '../checks/glossary-match.js';
import type { GlossaryTermFields } from './term-fields.js';

export interface GlossaryTermRecord extends GlossaryTermFields {
  glossaryId: number;
  /** Language key → translation. */
  translations: Record<string, string>;
}

export interface GlossaryMatch {
  term: GlossaryTermRecord;
  /** The translation for the target language: its own, its base language's (de for de-CH), the term itself when it is not to be translated; null when the glossary has none. */
  translation: string | null;
  /** Where the term occurs in the text (UTF-16 offsets, end excluded), first occurrence. */
  start: number;
  end: number;
  /** The text as written there. */
  text: string;
  /** How many times it occurs. */
  occurrences: number;
}

/** The primary subtag, lower case: how glossary languages are compared (en-US's glossary matches en). */
export function baseLanguage(key: string): string {
  return key.split(/[-_@]/)[0]!.toLowerCase();
}

/** The term's translation for a target language, as GlossaryMatch.translation says. */
export function translationFor(
  term: Pick<GlossaryTermRecord, 'term' | 'doNotTranslate' | 'translations'>,
  targetLanguage: string,
): string | null {
  const own = term.translations[targetLanguage];
  if (own) return own;
  const lower = targetLanguage.toLowerCase().replace(/_/g, '-');
  const base = baseLanguage(targetLanguage);
  let fallback: string | null = null;
  for (const [language, text] of Object.entries(term.translations)) {
    const l = language.toLowerCase().replace(/_/g, '-');
    if (l === lower) return text;
    if (!fallback && l === base) fallback = text;
  }
  if (!fallback)
    for (const [language, text] of Object.entries(term.translations)) if (baseLanguage(language) === base) return text;
  return fallback ?? (term.doNotTranslate ? term.term : null);
}

interface CacheEntry {
  stamp: string;
  matcher: Matcher<GlossaryTermRecord>;
}

// Compiled matchers by glossary set and source language; a few projects' worth.
const cache = new Map<string, CacheEntry>();
const CACHE_SIZE = 32;

async function stampOf(ids: number[]): Promise<string> {
  const [row] = await prisma().$queryRaw<
    { n: bigint; s: bigint | null; at: Date | null }[]
  >(Prisma.sql`/* glossary:stamp */
    SELECT count(*) AS n, sum(id) AS s, max("updatedAt") AS at FROM "GlossaryTerm" WHERE "glossaryId" = ANY(${ids}::int[])`);
  return `${row?.n ?? 0}:${row?.s ?? 0}:${row?.at?.getTime() ?? 0}`;
}

async function loadTerms(ids: number[]): Promise<GlossaryTermRecord[]> {
  const rows = await prisma().glossaryTerm.findMany({
    where: { glossaryId: { in: ids } },
    select: {
      id: true,
      glossaryId: true,
      term: true,
      description: true,
      partOfSpeech: true,
      forbidden: true,
      doNotTranslate: true,
      caseSensitive: true,
      abbreviation: true,
      translations: { select: { language: true, text: true } },
    },
    orderBy: { id: 'asc' },
  });
  return rows.map(({ translations, ...t }) => ({
    ...t,
    translations: Object.fromEntries(translations.map((tr) => [tr.language, tr.text])),
  }));
}

/** The compiled terms of the project's glossaries written in the source language. */
export async function projectMatcher(projectId: number, sourceLanguage: string): Promise<Matcher<GlossaryTermRecord>> {
  const base = baseLanguage(sourceLanguage);
  const ids = (await glossariesOfProject(projectId))
    .filter((g) => !g.sourceLanguage || baseLanguage(g.sourceLanguage) === base)
    .map((g) => g.id);
  const id = `${ids.join(',')}|${base}`;
  if (!ids.length) return compileMatcher([], sourceLanguage);
  const stamp = await stampOf(ids);
  const found = cache.get(id);
  if (found?.stamp === stamp) {
    cache.delete(id);
    cache.set(id, found);
    return found.matcher;
  }
  const matcher = compileMatcher(await loadTerms(ids), sourceLanguage);
  cache.set(id, { stamp, matcher });
  while (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return matcher;
}

/** The matches of a compiled glossary in a text, one per term, in text order. */
export function matchesIn(
  matcher: Matcher<GlossaryTermRecord>,
  sourceLanguage: string,
  targetLanguage: string,
  text: string,
): GlossaryMatch[] {
  const byTerm = new Map<number, GlossaryMatch>();
  for (const o of findTerms(matcher, text, sourceLanguage)) {
    const seen = byTerm.get(o.term.id);
    if (seen) seen.occurrences++;
    else
      byTerm.set(o.term.id, {
        term: o.term,
        translation: translationFor(o.term, targetLanguage),
        start: o.start,
        end: o.end,
        text: o.text,
        occurrences: 1,
      });
  }
  return [...byTerm.values()];
}
