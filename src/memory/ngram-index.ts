// The embedded database's trigram index of the memory's source texts, kept in
// this process (docs/translation-memory.md). On PGlite a pg_trgm GIN index
// kept current during bulk writes made a re-import many times slower
// (docs/benchmarks.md, "Figures behind constants in the code"), so the write
// path only notes which keys it wrote (`noteWrittenKeys` of
// src/content/written-keys.ts, one call in the write gate: a Set insert per
// cell here) and the index reads those keys' texts again before the next
// lookup. PGlite belongs to one process, so every write
// passes through here. It only proposes candidates: the lookup reads each
// candidate's current text from the database and scores that, so an entry
// that went stale (a deleted key or project, another default language) can
// cost a candidate, never give a wrong answer.
import { Prisma } from '../generated/prisma/client.js';
import { arrayLiteral } from '../db/array-literal.js';
import { database, databaseIfOpen, type Db } from '../db.js';
import type { Database } from '../db/client.js';
import { listenToWrittenTexts } from '../content/written-keys.js';
import { normalise, trigramsOf, wordTerms } from './normalize.js';

/** A document: a key's source text (ref = key id) or an imported segment (ref = -segment id). */
interface Candidate {
  ref: number;
  similarity: number;
  /** The text as indexed (the current one: the index reads written keys again before a search). */
  text: string;
}

class NgramIndex {
  private refs: number[] = [];
  /** The project (> 0) or shared memory (< 0, negated) a document belongs to. */
  private owners: number[] = [];
  private sizes: number[] = [];
  /** Normalised lengths (normalisedLength), for the lookup's length window. */
  private lengths: number[] = [];
  /** The texts, so that candidates are scored without reading them again (PGlite reads a row at a time). */
  private texts: string[] = [];
  private alive: boolean[] = [];
  private byRef = new Map<number, number>();
  private postings = new Map<string, number[]>();
  /** Word terms (wordTerms: words, word pairs, pairs one apart) → documents. */
  private wordPostings = new Map<string, number[]>();
  private counts = new Uint16Array(0);
  private dead = 0;
  /** Keys written since the last refresh. */
  readonly dirtyKeys = new Set<number>();
  segmentsAfter = 0;

  set(ref: number, owner: number, text: string): void {
    this.remove(ref);
    const normalised = normalise(text).text;
    const grams = trigramsOf(normalised);
    if (!grams.size) return;
    const ord = this.refs.length;
    this.refs.push(ref);
    this.owners.push(owner);
    this.sizes.push(grams.size);
    this.lengths.push([...normalised].length);
    this.texts.push(text);
    this.alive.push(true);
    this.byRef.set(ref, ord);
    for (const g of grams) {
      const list = this.postings.get(g);
      if (list) list.push(ord);
      else this.postings.set(g, [ord]);
    }
    for (const term of wordTerms(normalised).keys()) {
      const list = this.wordPostings.get(term);
      if (list) list.push(ord);
      else this.wordPostings.set(term, [ord]);
    }
  }

  remove(ref: number): void {
    const ord = this.byRef.get(ref);
    if (ord === undefined) return;
    this.alive[ord] = false;
    this.byRef.delete(ref);
    this.dead++;
  }

  get live(): number {
    return this.byRef.size;
  }

  /** Whether dropped documents outnumber live ones (then a rebuild is cheaper than carrying them). */
  get wasteful(): boolean {
    return this.dead > 10_000 && this.dead > this.byRef.size;
  }

  /**
   * The documents of allowed owners whose normalised length is within `window`
   * sharing the most trigrams with `text` (pg_trgm's similarity), best first.
   */
  search(
    text: string,
    allowed: (owner: number) => boolean,
    limit: number,
    threshold: number,
    window: { min: number; max: number },
  ): Candidate[] {
    const grams = trigramsOf(normalise(text).text);
    if (!grams.size) return [];
    if (this.counts.length < this.refs.length)
      this.counts = new Uint16Array(Math.max(this.refs.length, this.counts.length * 2, 1024));
    const counts = this.counts;
    const touched: number[] = [];
    for (const g of grams) {
      for (const ord of this.postings.get(g) ?? []) {
        if (counts[ord]++ === 0) touched.push(ord);
      }
    }
    const found: Candidate[] = [];
    for (const ord of touched) {
      const shared = counts[ord]!;
      counts[ord] = 0;
      const length = this.lengths[ord]!;
      if (!this.alive[ord] || length < window.min || length > window.max || !allowed(this.owners[ord]!)) continue;
      const similarity = shared / (grams.size + this.sizes[ord]! - shared);
      if (similarity >= threshold) found.push({ ref: this.refs[ord]!, similarity, text: this.texts[ord]! });
    }
    found.sort((a, b) => b.similarity - a.similarity);
    return found.slice(0, limit);
  }

  /**
   * The documents of allowed owners whose normalised length is within `window`
   * sharing the most word terms with `text` (weighed as wordTerms gives them),
   * the nearest length first among equals: what "MemoryTerm" gives on
   * PostgreSQL (src/memory/suggest.ts, sourcesByTerms). `similarity` is the
   * weight shared.
   */
  searchWords(
    text: string,
    allowed: (owner: number) => boolean,
    limit: number,
    window: { min: number; max: number },
  ): Candidate[] {
    const normalised = normalise(text).text;
    const length = [...normalised].length;
    if (this.counts.length < this.refs.length)
      this.counts = new Uint16Array(Math.max(this.refs.length, this.counts.length * 2, 1024));
    const weights = this.counts;
    const touched: number[] = [];
    for (const [term, weight] of wordTerms(normalised)) {
      for (const ord of this.wordPostings.get(term) ?? []) {
        if (weights[ord] === 0) touched.push(ord);
        weights[ord] = Math.min(65_535, weights[ord]! + weight);
      }
    }
    const found: (Candidate & { distance: number })[] = [];
    for (const ord of touched) {
      const weight = weights[ord]!;
      weights[ord] = 0;
      const size = this.lengths[ord]!;
      if (!this.alive[ord] || size < window.min || size > window.max || !allowed(this.owners[ord]!)) continue;
      found.push({
        ref: this.refs[ord]!,
        similarity: weight,
        text: this.texts[ord]!,
        distance: Math.abs(size - length),
      });
    }
    found.sort((a, b) => b.similarity - a.similarity || a.distance - b.distance);
    return found.slice(0, limit).map(({ ref, similarity, text }) => ({ ref, similarity, text }));
  }
}

interface Held {
  index: NgramIndex;
  loading?: Promise<void>;
}

const indexes = new WeakMap<Database, Held>();

/** The source texts of keys: each key's text in its project's default language. */
const SOURCE_TEXTS = Prisma.sql`SELECT s."keyId" AS ref, s."projectId" AS owner, s.text
  FROM "Translation" s JOIN "Language" l ON l.id = s."languageId" AND l."isDefault"
 WHERE s.text <> ''`;

async function loadSegments(db: Db, index: NgramIndex): Promise<void> {
  const rows = await db.$queryRaw<
    { id: number; owner: number; source: string }[]
  >(Prisma.sql`/* memory:index-segments */
    SELECT id, coalesce("projectId", -"memoryId") AS owner, source FROM "MemorySegment" WHERE id > ${index.segmentsAfter} ORDER BY id`);
  for (const r of rows) {
    index.set(-r.id, r.owner, r.source);
    index.segmentsAfter = r.id;
  }
}

async function build(db: Db): Promise<NgramIndex> {
  const index = new NgramIndex();
  const rows = await db.$queryRaw<{ ref: number; owner: number; text: string }[]>(
    Prisma.sql`/* memory:index-build */ ${SOURCE_TEXTS}`,
  );
  for (const r of rows) index.set(r.ref, r.owner, r.text);
  await loadSegments(db, index);
  return index;
}

/** Whether this process keeps the memory's index (the embedded database) rather than asking pg_trgm. */
export function inProcessIndex(): boolean {
  return database().kind === 'pglite';
}

/**
 * The keys of the base cells the write gate was given (it need not know which
 * were written): their source texts are read again before the next lookup.
 * Nothing to do while no index was built.
 */
function markWrittenKeys(keyIds: Iterable<number>): void {
  // A test or script may write through the gate with a client of its own,
  // with no database of the process open (and so no index).
  const db = databaseIfOpen();
  const held = db && indexes.get(db);
  if (!held) return;
  for (const id of keyIds) held.index.dirtyKeys.add(id);
}

/** Drops the index (another default language changes every source text of a project): rebuilt on the next lookup. */
function forgetMemoryIndex(): void {
  indexes.delete(database());
}

// Heard from when this module loads, so before any index can exist.
listenToWrittenTexts({ keysWritten: markWrittenKeys, sourceTextsReplaced: forgetMemoryIndex });

/** The index, built on first use and brought up to date with the writes noted since. */
export async function currentIndex(db: Db): Promise<NgramIndex> {
  const owner = database();
  let held = indexes.get(owner);
  if (!held || held.index.wasteful) {
    const fresh: Held = { index: new NgramIndex() };
    fresh.loading = build(db).then((index) => {
      // Writes noted while it was read stay noted.
      for (const id of fresh.index.dirtyKeys) index.dirtyKeys.add(id);
      fresh.index = index;
    });
    indexes.set(owner, fresh);
    held = fresh;
  }
  if (held.loading) {
    try {
      await held.loading;
    } catch (error) {
      if (indexes.get(owner) === held) indexes.delete(owner);
      throw error;
    } finally {
      held.loading = undefined;
    }
  }
  const index = held.index;
  if (index.dirtyKeys.size) {
    const keys = [...index.dirtyKeys];
    index.dirtyKeys.clear();
    const rows = await db.$queryRaw<
      { ref: number; owner: number; text: string }[]
    >(Prisma.sql`/* memory:index-refresh */
      ${SOURCE_TEXTS} AND s."keyId" = ANY(${arrayLiteral(keys)}::int[])`);
    const seen = new Set<number>();
    for (const r of rows) {
      index.set(r.ref, r.owner, r.text);
      seen.add(r.ref);
    }
    for (const k of keys) if (!seen.has(k)) index.remove(k);
  }
  await loadSegments(db, index);
  return index;
}

export type { NgramIndex, Candidate };
