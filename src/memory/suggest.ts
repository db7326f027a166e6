// Translation-memory suggestions for one source text and one target language
// (docs/translation-memory.md). The memory is the instance's own texts — each
// key's text in its project's default language paired with its text in the
// target language, read from Translation as the write gate left it — and the
// segments imported from TMX files. Candidates come from an index of the
// source texts' words and word pairs for a query of two words or more, of
// their trigrams for one word ("MemoryTerm" and pg_trgm on PostgreSQL, the
// in-process index on PGlite), only among stored texts whose normalised length
// can reach the asked score (lengthWindow); their
// current source texts are read and scored by edit distance on the normalised
// texts, and those that can reach the score are read with their targets, best
// first until the best `limit` are known, with placeholders, numbers and tags
// of the query substituted into the suggested translation.
import { Prisma } from '../generated/prisma/client.js';
import { arrayLiteral } from '../db/array-literal.js';
import { prisma, type Db } from '../db.js';
import { badRequest } from '../errors.js';
import { currentIndex, inProcessIndex, type Candidate } from './ngram-index.js';
import {
  lengthWindow,
  normalise,
  scorerFor,
  substitute,
  UNBOUNDED,
  wordsOf,
  type Normalised,
  type Substitution,
} from './normalize.js';
import type { MemoryScope } from './scope.js';

export interface SuggestionQuery {
  /** The text to translate. */
  text: string;
  sourceLanguage: string;
  targetLanguage: string;
  /** The key being translated: its own cell is no suggestion, and matches from a key of the same name rank first. */
  key?: { id: number; key: string; namespace: string } | null;
  /** At most this many suggestions (default 10, at most 50). */
  limit?: number;
  /** Only suggestions scoring at least this (0–100, default 50). */
  minScore?: number;
}

export interface Suggestion {
  /** 0–100: 100 for the same text, or one differing only in tokens that were substituted. */
  score: number;
  /** The stored source text is the query, character for character. */
  exact: boolean;
  /** The suggested translation, with the query's tokens substituted. */
  text: string;
  /** The stored pair. */
  source: string;
  target: string;
  /** Placeholders, numbers and tags replaced in `text` (query's in place of the stored source's). */
  substitutions: Substitution[];
  /** The origin: a project's key, or an imported segment of a shared or project memory. */
  origin: {
    kind: 'PROJECT' | 'IMPORTED';
    projectId: number | null;
    projectName: string | null;
    keyId: number | null;
    key: string | null;
    namespace: string | null;
    languageId: number | null;
    language: string;
    memoryId: number | null;
    memoryName: string | null;
    segmentId: number | null;
    lastEditedAt: Date;
    /** Imported segments: the file's changeid / creationid. Project texts: read from the history on demand. */
    lastEditedBy: string | null;
    reviewed: boolean;
  };
  /** The key has the asked key's name and namespace (in whichever project). */
  sameKey: boolean;
}

/**
 * Candidates read per kind before scoring, the most similar first (by shared
 * words and word pairs, or trigrams). Every candidate is scored: either ranks
 * edit distance too loosely to keep only the first hundred
 * (docs/translation-memory.md, "Measured").
 */
export const CANDIDATES = 1000;
/**
 * Texts read per term of the query on each side of its length (the nearest
 * lengths first): a word of a common vocabulary is in a large share of the
 * texts, a word pair in few; the pairs rank the candidates, and this bounds
 * what a common word costs.
 */
export const PER_TERM = 300;
/** Terms of the query looked up at most (a long query's pairs first). */
const QUERY_TERMS = 200;
/** pg_trgm's default similarity threshold, used by the in-process index too. */
const TRIGRAM_THRESHOLD = 0.3;
const MAX_QUERY = 2000;

/** Language codes compare without case and with `_` as `-`; `en` matches `en-us` and back. */
export function languageCode(key: string): string {
  return key.trim().toLowerCase().replace(/_/g, '-');
}
function sameLanguage(column: Prisma.Sql, code: string): Prisma.Sql {
  const primary = code.split('-')[0]!;
  return Prisma.sql`(lower(replace(${column}, '_', '-')) = ${code} OR lower(replace(${column}, '_', '-')) = ${primary} OR split_part(lower(replace(${column}, '_', '-')), '-', 1) = ${code})`;
}

interface KeyRow {
  keyId: number;
  projectId: number;
  projectName: string;
  key: string;
  namespace: string;
  source: string;
  target: string;
  languageId: number;
  language: string;
  lastModifiedAt: Date;
  reviewStatus: string;
}
interface SegmentRow {
  id: number;
  memoryId: number | null;
  memoryName: string | null;
  projectId: number | null;
  projectName: string | null;
  source: string;
  target: string;
  language: string;
  lastModifiedAt: Date;
  changedBy: string;
}

/** A candidate key's source text, read before anything else of it. */
interface SourceRow {
  keyId: number;
  text: string;
}

/**
 * The default languages of the scope's projects that are the query's source
 * language (one per project at most), as an array the candidates' statement
 * tests each row against: its index is scanned once, whatever the number of
 * projects.
 */
function sourceLanguageIds(scope: MemoryScope, q: SuggestionQuery): Prisma.Sql {
  return Prisma.sql`ARRAY(SELECT id FROM "Language"
     WHERE "projectId" = ANY(${arrayLiteral(scope.projectIds)}::int[]) AND "isDefault"
       AND ${sameLanguage(Prisma.sql`key`, languageCode(q.sourceLanguage))})`;
}

/**
 * The candidates' source texts on PostgreSQL, from "MemorySource" (the
 * default-language texts with their normalised lengths, kept by triggers:
 * migration 20261129190000_memory_sources) through its GiST index, which leads
 * with the length: the window bounds the part of the index read.
 */
function sourcesByIndex(
  db: Db,
  scope: MemoryScope,
  q: SuggestionQuery,
  window: { min: number; max: number },
): Promise<SourceRow[]> {
  return db.$queryRaw<SourceRow[]>(Prisma.sql`/* memory:key-candidates */
    SELECT s."keyId", s.text FROM "MemorySource" s
     WHERE s.length BETWEEN ${window.min}::int AND ${window.max}::int AND s.text % ${q.text}
       AND s."languageId" = ANY(${sourceLanguageIds(scope, q)})
       AND s."keyId" <> ${q.key?.id ?? 0}
     ORDER BY s.text <-> ${q.text} LIMIT ${CANDIDATES}`);
}

/**
 * The candidates' source texts on PostgreSQL for a query of two words or more,
 * from "MemoryTerm" (each source text's words, word pairs and pairs of words
 * one apart, derived from "MemorySource": migrations
 * 20261130010000_memory_terms and 20261130050000_memory_term_queue): the
 * texts in the length window sharing the most terms of the query (pairs weigh
 * more than words), those of the nearest length first among equals, by
 * memory_term_candidates() (migration 20261130050500_memory_term_candidates,
 * which says why it is a function). Each term of each source language is read
 * from the primary key alone, at most PER_TERM texts on each side of the
 * query's length. The terms are brought current off the write path
 * (term-updater.ts): the texts of the keys still queued for it, in the length
 * window, are candidates too, so a text is found right after its write (a
 * key both queued and indexed comes twice: reaching() keeps it once, where a
 * UNION cost the statement a hash of the thousand texts).
 */
function sourcesByTerms(
  db: Db,
  scope: MemoryScope,
  q: SuggestionQuery,
  length: number,
  window: { min: number; max: number },
): Promise<SourceRow[]> {
  const languages = sourceLanguageIds(scope, q);
  const exclude = q.key?.id ?? 0;
  return db.$queryRaw<SourceRow[]>(Prisma.sql`/* memory:key-candidates-by-terms */
    SELECT s."keyId", s.text
      FROM memory_term_candidates(${q.text}, ${languages}, ${length}::int, ${window.min}::int, ${window.max}::int,
             ${exclude}::int, ${PER_TERM}::int, ${QUERY_TERMS}::int, ${CANDIDATES}::int) best
      JOIN "MemorySource" s ON s."keyId" = best."keyId"
    UNION ALL
    SELECT s."keyId", s.text FROM "MemorySource" s
     WHERE s."keyId" IN (SELECT "keyId" FROM "MemoryTermQueue") AND s."keyId" <> ${exclude}::int
       AND s.length BETWEEN ${window.min}::int AND ${window.max}::int AND s."languageId" = ANY(${languages})`);
}

/** A normalised stored text's score against the query (normalize.ts, scorerFor). */
type Scorer = (stored: string) => number;

/** A candidate key with the most its source can score. */
interface Reaching {
  keyId: number;
  bound: number;
}

/**
 * The candidates whose source can reach minScore (one edit distance per
 * distinct text), best first: the edit distance's score, or 100 for a text
 * equal to the query once normalised (99 if a token cannot be carried over).
 */
function reaching(query: Normalised, score: Scorer, sources: SourceRow[], minScore: number): Reaching[] {
  const bounds = new Map<string, number>();
  const keys: Reaching[] = [];
  const seen = new Set<number>();
  for (const s of sources) {
    if (seen.has(s.keyId)) continue;
    seen.add(s.keyId);
    let bound = bounds.get(s.text);
    if (bound === undefined) {
      const stored = normalise(s.text).text;
      bound = stored === query.text ? 100 : Math.min(99, score(stored));
      bounds.set(s.text, bound);
    }
    if (bound >= minScore) keys.push({ keyId: s.keyId, bound });
  }
  return keys.sort((a, b) => b.bound - a.bound);
}

/**
 * The kept keys' source and target texts, each target row by its primary key;
 * of the keys of one score under 100, only the `perScore` rows rank() puts
 * first among them (the same key, reviewed, most recently edited: rows of one
 * score differ in nothing else when their texts are those scored), so that a
 * one-letter change of a common word, which ties with a hundred stored texts,
 * reads ten targets rather than all of them.
 */
function keyMatches(
  db: Db,
  scope: MemoryScope,
  q: SuggestionQuery,
  keys: Reaching[],
  perScore: number,
): Promise<KeyRow[]> {
  const projects = arrayLiteral(scope.projectIds);
  // The same key ranks first among equals: its name is read for every row only when a key was asked for.
  const named = q.key
    ? {
        join: Prisma.sql`JOIN "TranslationKey" n ON n.id = s."keyId"`,
        first: Prisma.sql`(n.key = ${q.key.key} AND n.namespace = ${q.key.namespace}) DESC,`,
      }
    : { join: Prisma.empty, first: Prisma.empty };
  const keyIds = arrayLiteral(keys.map((k) => k.keyId));
  return db.$queryRaw<KeyRow[]>(Prisma.sql`/* memory:key-matches */
    WITH tl AS MATERIALIZED (
      SELECT id, key, "projectId" FROM "Language"
       WHERE "projectId" = ANY(${projects}::int[]) AND ${sameLanguage(Prisma.sql`key`, languageCode(q.targetLanguage))}
    ),
    b AS (SELECT * FROM unnest(${keyIds}::int[], ${arrayLiteral(keys.map((k) => k.bound))}::int[]) AS b("keyId", bound)),
    m AS (
      SELECT s."keyId", s."projectId", s.text AS source, t.text AS target, t."languageId", tl.key AS language,
             t."lastModifiedAt", t."reviewStatus", b.bound,
             row_number() OVER (PARTITION BY b.bound ORDER BY ${named.first} t."reviewStatus"::text = 'REVIEWED' DESC,
               t."lastModifiedAt" DESC, s."keyId", t."languageId") AS place
        FROM "Translation" s
        JOIN b ON b."keyId" = s."keyId"
        JOIN tl ON tl."projectId" = s."projectId" AND tl.id <> s."languageId"
        JOIN "Translation" t ON t."keyId" = s."keyId" AND t."languageId" = tl.id AND t.text <> ''
        ${named.join}
       WHERE s."keyId" = ANY(${keyIds}::int[]) AND s."languageId" = ANY(${sourceLanguageIds(scope, q)})
    )
    SELECT m."keyId", m."projectId", p.name AS "projectName", k.key, k.namespace, m.source, m.target, m."languageId",
           m.language, m."lastModifiedAt", m."reviewStatus"::text AS "reviewStatus"
      FROM m
      JOIN "TranslationKey" k ON k.id = m."keyId"
      JOIN "Project" p ON p.id = m."projectId"
     WHERE m.bound >= 100 OR m.place <= ${perScore}::int`);
}

function segmentMatches(
  db: Db,
  scope: MemoryScope,
  q: SuggestionQuery,
  from: { candidates: Prisma.Sql; order: Prisma.Sql },
): Promise<SegmentRow[]> {
  const { candidates, order } = from;
  return db.$queryRaw<SegmentRow[]>(Prisma.sql`/* memory:segment-matches */
    SELECT g.id, g."memoryId", m.name AS "memoryName", g."projectId", p.name AS "projectName", g.source, g.target,
           g."targetLanguage" AS language, coalesce(g."changedAt", g."createdAt") AS "lastModifiedAt", g."changedBy"
      FROM "MemorySegment" g
      LEFT JOIN "TranslationMemory" m ON m.id = g."memoryId"
      LEFT JOIN "Project" p ON p.id = g."projectId"
     WHERE ${candidates}
       AND (g."memoryId" = ANY(${arrayLiteral(scope.memoryIds)}::int[]) OR g."projectId" = ANY(${arrayLiteral(scope.projectIds)}::int[]))
       AND ${sameLanguage(Prisma.sql`g."sourceLanguage"`, languageCode(q.sourceLanguage))}
       AND ${sameLanguage(Prisma.sql`g."targetLanguage"`, languageCode(q.targetLanguage))}
     ${order} LIMIT ${CANDIDATES}`);
}

/** The stored pairs whose source text is close to the query's, read with their current texts. */
async function candidates(
  db: Db,
  scope: MemoryScope,
  q: SuggestionQuery,
  query: Normalised,
  score: Scorer,
  minScore: number,
  limit: number,
): Promise<{ keys: KeyRow[]; segments: SegmentRow[] }> {
  const length = [...query.text].length;
  const window = lengthWindow(length, minScore);
  // Words and word pairs for a query of two words or more; trigrams for one word (a typo in it shares no word),
  // and when the words found no text that can reach the score (every word misspelt).
  const byWords = wordsOf(query.text).length >= 2;
  if (inProcessIndex()) {
    const index = await currentIndex(db);
    const projects = new Set(scope.projectIds);
    const memories = new Set(scope.memoryIds);
    const allowed = (owner: number) => (owner > 0 ? projects.has(owner) : memories.has(-owner));
    const byTrigrams = () => index.search(q.text, allowed, CANDIDATES * 2, TRIGRAM_THRESHOLD, window);
    // Scored from the index's own texts: only the keys that can reach minScore are read (keyMatches checks their
    // source language and reads their current texts, which are scored again).
    const keySources = (found: Candidate[]) =>
      reaching(
        query,
        score,
        found.filter((c) => c.ref > 0 && c.ref !== q.key?.id).map((c) => ({ keyId: c.ref, text: c.text })),
        minScore,
      );
    // As many word candidates as PostgreSQL reads.
    let found = byWords ? index.searchWords(q.text, allowed, CANDIDATES, window) : byTrigrams();
    let reached = keySources(found);
    if (byWords && !reached.length && !found.some((c) => c.ref < 0)) {
      found = byTrigrams();
      reached = keySources(found);
    }
    const segmentIds = found.filter((c) => c.ref < 0).map((c) => -c.ref);
    const keys = await keysReaching(db, scope, q, query, score, limit, reached);
    const segments = segmentIds.length
      ? await segmentMatches(db, scope, q, {
          candidates: Prisma.sql`g.id = ANY(${arrayLiteral(segmentIds)}::int[])`,
          order: Prisma.empty,
        })
      : [];
    return { keys, segments };
  }
  const keySources = async () => {
    if (byWords) {
      const reached = reaching(query, score, await sourcesByTerms(db, scope, q, length, window), minScore);
      if (reached.length) return reached;
    }
    return reaching(query, score, await sourcesByIndex(db, scope, q, window), minScore);
  };
  // The two kinds side by side: on a pool, each on its own connection.
  const [keys, segments] = await Promise.all([
    keySources().then((reached) => keysReaching(db, scope, q, query, score, limit, reached)),
    (async () =>
      scope.memoryIds.length || (await hasSegments(db, scope))
        ? segmentMatches(db, scope, q, {
            candidates: Prisma.sql`memory_length(g.source) BETWEEN ${window.min}::int AND ${window.max}::int AND g.source % ${q.text}`,
            order: Prisma.sql`ORDER BY g.source <-> ${q.text}`,
          })
        : [])(),
  ]);
  return { keys, segments };
}

/**
 * The rows of the candidate keys whose source can reach minScore (`keys`, best
 * first: reaching()), read best first, `limit` keys at a time (with every key
 * of the same score as the last), until `limit` of the rows read outscore
 * every key not read: most candidates of a loose match are never read with
 * their targets, and of the keys of one score under 100 only the first
 * `limit` rows in rank()'s order (keyMatches). Those stand for the rest only
 * if their texts still score what their candidates did: a text changed
 * between the two reads has the batch read whole.
 */
async function keysReaching(
  db: Db,
  scope: MemoryScope,
  q: SuggestionQuery,
  query: Normalised,
  score: Scorer,
  limit: number,
  keys: Reaching[],
): Promise<KeyRow[]> {
  const bound = new Map(keys.map((k) => [k.keyId, k.bound]));
  // What a row read scores at least: its bound, but 99 for a text equal only once normalised.
  const lowest = (r: KeyRow) => {
    const b = bound.get(r.keyId) ?? 0;
    return b === 100 && r.source !== q.text ? 99 : b;
  };
  // A row's source as scored now: its bound, unless the text changed after its candidate was read.
  const asScored = (r: KeyRow) => {
    const stored = normalise(r.source).text;
    return stored === query.text ? 100 : Math.min(99, score(stored));
  };
  const rows: KeyRow[] = [];
  for (let from = 0; from < keys.length;) {
    let to = Math.min(keys.length, from + limit);
    while (to < keys.length && keys[to]!.bound === keys[to - 1]!.bound) to++;
    const batch = keys.slice(from, to);
    let read = await keyMatches(db, scope, q, batch, limit);
    // The first rows of a score stand for all of its keys only if they score it: else all of them are read.
    if (read.some((r) => asScored(r) !== bound.get(r.keyId))) read = await keyMatches(db, scope, q, batch, UNBOUNDED);
    rows.push(...read);
    from = to;
    const next = keys[from]?.bound;
    if (next !== undefined && rows.filter((r) => lowest(r) > next).length >= limit) break;
  }
  return rows;
}

/** Whether any project in scope has imported segments of its own (most have none: one index probe saves a trigram scan). */
async function hasSegments(db: Db, scope: MemoryScope): Promise<boolean> {
  const [row] = await db.$queryRaw<{ any: boolean }[]>(Prisma.sql`/* memory:has-segments */
    SELECT EXISTS (SELECT 1 FROM "MemorySegment" WHERE "projectId" = ANY(${arrayLiteral(scope.projectIds)}::int[])) AS any`);
  return !!row?.any;
}

/** Suggestions for a text, best first (see Suggestion for the ranking's fields). */
export async function suggest(scope: MemoryScope, q: SuggestionQuery, db: Db = prisma()): Promise<Suggestion[]> {
  const limit = q.limit ?? 10;
  const minScore = q.minScore ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 50) throw badRequest('limit: between 1 and 50');
  if (!Number.isFinite(minScore) || minScore < 0 || minScore > 100) throw badRequest('minScore: between 0 and 100');
  if ([...q.text].length > MAX_QUERY) throw badRequest(`text: at most ${MAX_QUERY} characters`);
  if (!q.text.trim()) return [];
  const query = normalise(q.text);
  const score = scorerFor(query.text);
  const found = await candidates(db, scope, q, query, score, minScore, limit);
  const out: Suggestion[] = [];
  const add = (s: Suggestion | null) => {
    if (s) out.push(s);
  };
  for (const r of found.keys) {
    add(
      scored(query, score, q, minScore, r.source, r.target, {
        kind: 'PROJECT',
        projectId: r.projectId,
        projectName: r.projectName,
        keyId: r.keyId,
        key: r.key,
        namespace: r.namespace,
        languageId: r.languageId,
        language: r.language,
        memoryId: null,
        memoryName: null,
        segmentId: null,
        lastEditedAt: r.lastModifiedAt,
        lastEditedBy: null,
        reviewed: r.reviewStatus === 'REVIEWED',
      }),
    );
  }
  for (const r of found.segments) {
    add(
      scored(query, score, q, minScore, r.source, r.target, {
        kind: 'IMPORTED',
        projectId: r.projectId,
        projectName: r.projectName,
        keyId: null,
        key: null,
        namespace: null,
        languageId: null,
        language: r.language,
        memoryId: r.memoryId,
        memoryName: r.memoryName,
        segmentId: r.id,
        lastEditedAt: r.lastModifiedAt,
        lastEditedBy: r.changedBy || null,
        reviewed: false,
      }),
    );
  }
  return rank(out).slice(0, limit);
}

/** The suggestion a stored pair makes, or null when it scores under minScore. */
function scored(
  query: Normalised,
  score: Scorer,
  q: SuggestionQuery,
  minScore: number,
  source: string,
  target: string,
  origin: Suggestion['origin'],
): Suggestion | null {
  const sameKey = !!q.key && origin.key === q.key.key && origin.namespace === q.key.namespace;
  if (source === q.text)
    return { score: 100, exact: true, text: target, source, target, substitutions: [], origin, sameKey };
  const stored = normalise(source);
  const equal = stored.text === query.text;
  // Every candidate is scored; the substitution is worked out only for those that can be kept. An equal normalised
  // text scores 100 or 99 depending on the substitution, so only a differing one can be dropped before it.
  // A text differing once normalised scores the edit distance's score, at most 99.
  const fuzzy = equal ? 99 : Math.min(99, score(stored.text));
  if (!equal && fuzzy < minScore) return null;
  const sub = substitute(query, stored, target);
  // 100 only when the normalised texts are equal and every differing token was carried into the translation.
  const final = equal && sub.complete ? 100 : fuzzy;
  if (final < minScore) return null;
  return {
    score: final,
    exact: false,
    text: sub.text,
    source,
    target,
    substitutions: sub.substitutions,
    origin,
    sameKey,
  };
}

/** Best first: score, then an exact match from the same key, any exact match, the same key, reviewed, most recent. */
export function rank(list: Suggestion[]): Suggestion[] {
  const flags = (s: Suggestion) => [
    s.score,
    s.exact && s.sameKey ? 1 : 0,
    s.exact ? 1 : 0,
    s.sameKey ? 1 : 0,
    s.origin.reviewed ? 1 : 0,
    s.origin.lastEditedAt.getTime(),
  ];
  return list.sort((a, b) => {
    const x = flags(a);
    const y = flags(b);
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return y[i]! - x[i]!;
    return 0;
  });
}
