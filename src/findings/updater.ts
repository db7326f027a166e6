// The findings updater (docs/quality-checks.md, "Stored findings"): drains the
// queue of keys the write gate fills (src/content/findings-queue.ts). Each
// round leases a batch of keys with FOR UPDATE SKIP LOCKED (two instances never
// take the same keys; a lease that runs out, its instance dead, is taken
// again), up to about `batch` cells, reads their cells (every cell of a key, or
// those of the languages its entry names) with their source text and project
// settings in the same statement, computes the checks in the worker pool
// (pool.ts; a handful of cells in this thread) and writes the batch's findings
// set-based: delete and insert, in one transaction, only for the keys whose queue entry is still the
// generation it computed; the entries go after the commit, in a statement of their own. A key's cells are its base translations and its
// customers' overrides with a text: an override is checked against its
// customer's source (the customer's own override of the default language, else
// the base one), as the editor checks it while it is typed.
import { Prisma } from '../generated/prisma/client.js';
import { prisma, shareProjectsContent, type Db } from '../db.js';
import { arrayLiteral } from '../db/array-literal.js';
import { activeChecks, type CheckSettings, type Dialect, type Severity } from '../checks/index.js';
import { CONSISTENCY_CHECK_IDS, ambiguousTranslation, inconsistentTranslation } from '../checks/consistency.js';
import { updateConsistency, type ConsistencySeverities } from './consistency.js';
import type { CheckCell, StoredFinding } from './check-worker.js';
import { checkSettingsOf, dialectOf } from './settings.js';
import { registerWaker } from '../content/findings-queue.js';
import { PollLoop } from '../poll-loop.js';
import { releaseStatementHistory } from '../db/statement-history.js';
import { HeapBound, releaseFreedMemory } from '../heap-slack.js';
import { checkBatchCells, closeCheckPool } from './pool.js';

export interface UpdaterOptions {
  owner: string;
  batch?: number;
  /** Batches in flight at once (config FINDINGS_LANES: 2 on PostgreSQL, 1 on the embedded database). */
  lanes?: number;
  /** Cells checked after which a drained queue gives the memory back (default RELEASE_AFTER_CELLS). */
  releaseAfterCells?: number;
  pollMs?: number;
  /**
   * The least time from one round's start to the next one's while there is no backlog (config FINDINGS_GAP_MS;
   * default 0, none): one-cell writes then share a round instead of starting one each.
   */
  gapMs?: number;
  leaseMs?: number;
  /** The heap below which no collection runs between rounds (default heap-slack's HEAP_FLOOR_BYTES; tests lower it). */
  heapFloorBytes?: number;
}

interface LeasedCell {
  keyId: number;
  languageId: number;
  /** The customer of an override; 0 for the base translation (Finding's customerId). */
  customerId: number;
  generation: number;
  /** The languages the key's entry names; null: every cell of the key (findings-queue.ts). */
  languageIds: number[] | null;
  projectId: number;
  text: string;
  source: string;
  language: string;
  sourceLanguage: string;
  charactersLimit: number | null;
  settings: unknown;
  hash: string;
  /** md5 of the source text; null when the key has none. */
  sourceHash: string | null;
}

/** A cell of a leased key as read; a key with no cell left comes as one row with a null language and text. */
type LeasedRow = Omit<LeasedCell, 'text' | 'languageId' | 'customerId'> & {
  text: string | null;
  languageId: number | null;
  customerId: number | null;
};

/** A queue entry as the lease took it. */
interface Entry {
  keyId: number;
  projectId: number;
  generation: number;
  languageIds: number[] | null;
}

const running = new Set<FindingsUpdater>();

/**
 * Cells checked since the last release after which a drained queue gives the
 * memory back (releaseAfterWork): an import's findings, not a single edit's.
 */
export const RELEASE_AFTER_CELLS = 10_000;

/**
 * Whether an updater of this process has its memory release due: a backlog's
 * cells checked, the release not yet run (it runs in the round that finds the
 * queue empty). The benchmark's settling waits for it (bench/lib/settle.ts).
 */
export function memoryReleaseDue(): boolean {
  for (const u of running) if (u.releaseDue) return true;
  return false;
}

/** The summed stats of this process's updaters (bench/scenarios/findings.ts). */
export function updaterStats(): FindingsUpdater['stats'] {
  const total = { cells: 0, rounds: 0, leases: 0, leaseMs: 0, checkMs: 0, writeMs: 0 };
  for (const u of running) for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += u.stats[k];
  return total;
}

export class FindingsUpdater {
  private readonly loop: PollLoop;
  private unregister: (() => void) | undefined;
  private readonly batch: number;
  private readonly pollMs: number;
  private readonly gapMs: number;
  private readonly leaseMs: number;
  private readonly lanes: number;
  /** Rounds under way (of this updater's lanes). */
  private inFlight = 0;
  /** Cells checked in backlog rounds (backlogRound) since the memory was last given back. */
  private sinceRelease = 0;
  /** Times the memory was given back after a drained queue (tests, the benchmark). */
  releases = 0;

  /** The memory is to be given back once the queue is found empty (releaseAfterWork). */
  get releaseDue(): boolean {
    return this.sinceRelease >= (this.options.releaseAfterCells ?? RELEASE_AFTER_CELLS);
  }
  /** The most rounds this updater had under way at once (tests: its lanes). */
  mostInFlight = 0;
  /**
   * Each round's rows, parameters and findings are garbage once it has
   * written, but they lived long enough to reach V8's old generation, which
   * V8 collects only once it has grown to a multiple of what the last
   * collection kept: during an import's findings the heap grew by 170 MiB of
   * them before V8 collected (docs/quality-checks.md, "Memory"). The bound
   * collects between rounds instead, as an import does between its chunks.
   */
  readonly heap: HeapBound;

  constructor(private readonly options: UpdaterOptions) {
    this.batch = options.batch ?? 2_000;
    this.pollMs = options.pollMs ?? 1_000;
    this.gapMs = options.gapMs ?? 0;
    this.leaseMs = options.leaseMs ?? 60_000;
    // Two lanes on PostgreSQL: while one batch is checked in the worker
    // threads, the other is leased or written, so neither the database nor the
    // threads wait for the other. The embedded database runs one statement at
    // a time in this process's thread, so a second lane overlaps little and
    // doubles what is held at once (docs/quality-checks.md, "Memory").
    this.lanes = Math.max(1, options.lanes ?? 2);
    this.heap = new HeapBound(options.heapFloorBytes);
    this.loop = new PollLoop({
      failure: 'findings update failed',
      sleepMs: () => this.pollMs,
      round: async () => {
        // A second lane only while a backlog drains. Without one (a busy service's one-cell writes), it leased the
        // few entries queued since the other lane's lease and then waited for that round's consistency lock
        // (consistency.ts): twice the rounds, each with the same statements for half the cells. The round under
        // way goes on once it ends, as it does for any write that woke the updater meanwhile.
        if (this.inFlight > 0 && !this.backlog) return false;
        this.mostInFlight = Math.max(this.mostInFlight, ++this.inFlight);
        try {
          // Each round costs the database about the same few statements whatever its cells (a lease, the
          // consistency groups, the findings): under a stream of one-cell writes, rounds back to back took a third
          // of the database's time (docs/benchmarks.md, "The findings updater's pace"). A backlog goes on at once.
          const wait = this.lastStart + this.gapMs - performance.now();
          if (!this.backlog && wait > 0) {
            await this.loop.pause(wait);
            if (this.loop.stopping) return false;
          }
          this.lastStart = performance.now();
          const wakes = this.wakes;
          const out = { drained: false };
          // A round that drained the queue is the last until a write wakes the updater (one that woke it
          // during the round, while no lane slept to hear it, is answered by the next round at once).
          return (await this.round(out)) > 0 && (!out.drained || this.wakes !== wakes);
        } finally {
          this.inFlight--;
        }
      },
      lanes: this.lanes,
    });
  }

  start(): void {
    this.unregister = registerWaker(() => this.wake());
    running.add(this);
    this.loop.start();
  }

  wake(): void {
    this.wakes++;
    this.loop.wake();
  }

  async stop(): Promise<void> {
    running.delete(this);
    this.unregister?.();
    await this.loop.stop();
  }

  /**
   * One batch: lease, check, write. Returns the number of cells leased, and keys without cells (0: the queue is
   * empty); `out.drained`: it leased every entry there was from the queue's start.
   */
  async round(out?: { drained: boolean }): Promise<number> {
    const started = performance.now();
    const from = this.after;
    // The keys looked at: enough for `batch` cells at the last batch's cells per key, and a quarter more.
    const candidates = Math.max(1, Math.ceil((this.batch / this.cellsPerKey) * 1.25));
    const leasedCells = await this.lease(candidates);
    // A key whose cells were deleted after it was queued, its transaction not yet committed when the
    // deletion's trigger ran (the queue has no foreign key: prisma/schema.prisma): it goes now.
    const gone = leasedCells.filter((c) => c.text === null);
    if (gone.length) await dropGone(gone);
    const cells = leasedCells.filter((c): c is LeasedCell => c.text !== null);
    if (!leasedCells.length) {
      // Back to the start of the queue: the keys before the cursor may have been queued again.
      if (this.after !== undefined) {
        this.after = undefined;
        return this.round(out);
      }
      this.backlog = false;
      await this.releaseAfterWork();
      return 0;
    }
    const keys = new Set(leasedCells.map((c) => c.keyId)).size;
    // Fewer cells than the batch and fewer keys than looked at: no entry is left after the last one leased
    // (but those another lane holds). The next round starts from the queue's start; a round that began
    // there has drained the queue, and the next one would only lease nothing (findings rounds are one
    // lease, not three, per edit).
    const exhausted = leasedCells.length < this.batch && keys < candidates;
    this.after = exhausted ? undefined : leasedCells[leasedCells.length - 1]!.keyId;
    // A backlog found: the other lane, which stood aside while there was none, starts at once.
    if (!exhausted && !this.backlog) this.loop.wake();
    this.backlog = !exhausted;
    if (out) out.drained = exhausted && from === undefined;
    this.cellsPerKey = Math.max(1, leasedCells.length / keys);
    if (!cells.length) return leasedCells.length;
    const leased = performance.now();
    const projects = new Map<number, number>();
    const settings: CheckSettings[] = [];
    const dialects: Dialect[] = [];
    const batch: CheckCell[] = cells.map((c) => {
      let index = projects.get(c.projectId);
      if (index === undefined) {
        index = settings.length;
        projects.set(c.projectId, index);
        settings.push(checkSettingsOf(c.settings));
        dialects.push(dialectOf(c.settings));
      }
      const own = c.language === c.sourceLanguage;
      return [index, own ? '' : c.source, c.text, c.sourceLanguage, c.language, c.charactersLimit, dialects[index]!];
    });
    const findings = await checkBatchCells({ settings, cells: batch });
    const checked = performance.now();
    // One transaction. The consistency checks first: once a cell leaves the queue (writeFindings), its groups are up
    // to date too. They compare base translations only (an override is one customer's exception, not the project's usage).
    const consistencyCells = cells
      .filter((c) => c.customerId === 0)
      .map((c) => ({
        keyId: c.keyId,
        languageId: c.languageId,
        projectId: c.projectId,
        textHash: c.hash,
        sourceHash: c.language === c.sourceLanguage || c.text === '' || c.source === '' ? null : c.sourceHash,
      }));
    await prisma().$transaction(async (tx) => {
      // Before it writes: a deletion in these projects (a purge, keys, a language) waits for the round, or the
      // round for it, never each for the other (src/db.ts, lockProjectContent).
      await shareProjectsContent(tx, projects.keys());
      await updateConsistency(tx, consistencyCells, consistencySeverities(cells));
      await storeFindings(cells, findings, tx);
    });
    await dequeue(leasedOf(cells));
    // Only a backlog's rounds (those that left entries behind: an import's cells) count towards giving the memory
    // back: a service's steady one-cell writes left rounds of a few hundred cells each, which added up (on the
    // embedded database, under writes at 16 clients, the queue was seldom empty between them; a round there
    // often held more than half a batch) and every 10,000 cells of them stopped the busy process for a
    // memory-reducing collection of 0.2–0.3 s (docs/benchmarks.md, "Giving the memory back after an import").
    const backlogRound = !exhausted;
    if (backlogRound) this.sinceRelease += cells.length;
    this.stats.cells += cells.length;
    this.stats.rounds++;
    this.stats.leaseMs += leased - started;
    this.stats.checkMs += checked - leased;
    this.stats.writeMs += performance.now() - checked;
    // Only while a backlog drains: the heap is the process's, and on a busy service it is past the floor with the
    // requests' garbage, where a full collection after each round of a few cells stopped the process for
    // 0.2–0.6 s for nothing the round left (the overload soak).
    if (backlogRound) this.heap.check();
    return cells.length;
  }

  /**
   * The queue is empty after a large run (an import's cells): the worker
   * threads end now rather than after their idle timeout, Prisma's debug
   * history lets the batches' parameters go (src/db/statement-history.ts), and
   * V8 and glibc give back what the batches freed.
   */
  private async releaseAfterWork(): Promise<void> {
    if (!this.releaseDue) return;
    // The threads are the process's: another round's batch (this updater's other lane, another updater's) may be in them.
    let inFlight = 0;
    for (const u of running) inFlight += u.inFlight;
    if (inFlight > 1) return;
    this.sinceRelease = 0;
    await closeCheckPool();
    releaseStatementHistory();
    releaseFreedMemory();
    this.releases++;
  }

  /**
   * The queue is read in primary-key order from after the last batch: a scan
   * from its start would pass over every entry removed since the table was
   * last vacuumed, which after a large import is most of it.
   */
  private after: number | undefined;
  /**
   * Whether the last lease left entries behind (or none has run: both lanes start together): only then does a
   * second lane start a round beside another.
   */
  private backlog = true;
  /** When the last round started (performance.now()). */
  private lastStart = -Infinity;
  /** Times the updater was woken (a round that drained the queue goes on if it was woken meanwhile). */
  private wakes = 0;
  /** Cells per key of the last batch: how many keys the next lease looks at for `batch` cells. */
  private cellsPerKey = 1;

  /** Where this updater's time went (bench/scenarios/findings.ts). */
  readonly stats = { cells: 0, rounds: 0, leases: 0, leaseMs: 0, checkMs: 0, writeMs: 0 };

  /**
   * Two statements: the entries leased, then their cells. The entries' rows are locked while the lease runs, and
   * a write queuing one of the keys again waits for it: read in the same statement, the cells held them 5–13 ms a
   * round under one-cell writes at 16 clients (docs/benchmarks.md, "The findings round's queue entries").
   */
  private async lease(candidates: number): Promise<LeasedRow[]> {
    this.stats.leases++;
    const after = this.after !== undefined ? Prisma.sql`AND "keyId" > ${this.after}` : Prisma.empty;
    const entries = await prisma().$queryRaw<Entry[]>(Prisma.sql`/* findings:lease */
        -- By row address (a TID scan): a join with the picked keys would read the whole queue each time.
        UPDATE "FindingQueue" q SET "leasedUntil" = now() + make_interval(secs => ${this.leaseMs / 1000}), "leaseOwner" = ${this.options.owner}
         WHERE q.ctid = ANY(ARRAY(
           -- The keys in order up to about the batch's cells (the first one whatever its count): what a round holds.
           SELECT c.ctid FROM (
             SELECT e.ctid, sum(e.cells) OVER (ORDER BY e."keyId") - e.cells AS before
               FROM (SELECT f.ctid, f."keyId", (${cellsOfKey(Prisma.sql`f`)}) + (${overridesOfKey(Prisma.sql`f`)}) AS cells
                       FROM "FindingQueue" f
                      WHERE ("leasedUntil" IS NULL OR "leasedUntil" < now()) ${after}
                      ORDER BY "keyId"
                      LIMIT ${candidates} FOR UPDATE SKIP LOCKED) e
           ) c WHERE c.before < ${this.batch}))
        RETURNING q."keyId", q."projectId", q.generation, q."languageIds"`);
    if (!entries.length) return [];
    // The entries as leased (a write may have queued a key again since: the round's findings of it are then not
    // stored, storeFindings), their languages as array literals (an array of arrays is no column of unnest).
    return prisma().$queryRaw<LeasedRow[]>(Prisma.sql`/* findings:lease-cells */
      WITH leased AS (
        SELECT e."keyId", e."projectId", e.generation, e.languages::int[] AS "languageIds"
          FROM unnest(${arrayLiteral(entries, (e) => e.keyId)}::int[], ${arrayLiteral(entries, (e) => e.projectId)}::int[],
                      ${arrayLiteral(entries, (e) => e.generation)}::int[],
                      ${arrayLiteral(entries, (e) => (e.languageIds ? arrayLiteral(e.languageIds) : null))}::text[])
               AS e("keyId", "projectId", generation, languages)
      )
      SELECT l."keyId", t."languageId", t."customerId", l.generation, l."languageIds", l."projectId", t.text, md5(t.text) AS hash,
             coalesce(so.text, s.text, '') AS source, md5(coalesce(so.text, s.text)) AS "sourceHash",
             t.language, coalesce(dl.key, t.language) AS "sourceLanguage", k."charactersLimit", p.settings
        FROM leased l
        -- Outer joins: a key with no cell left comes back as one row with a null text (round drops it).
        LEFT JOIN LATERAL (
          ${cellsOfKey(Prisma.sql`l`, Prisma.sql`t."languageId", 0 AS "customerId", t."projectId", t.text, lang.key AS language`)}
          UNION ALL
          ${overridesOfKey(Prisma.sql`l`, Prisma.sql`o."languageId", o."customerId", o."projectId", o.text, (SELECT lang.key FROM "Language" lang WHERE lang.id = o."languageId")`)}
        ) t ON true
        LEFT JOIN "TranslationKey" k ON k.id = l."keyId"
        LEFT JOIN "Project" p ON p.id = l."projectId"
        LEFT JOIN "Language" dl ON dl."projectId" = l."projectId" AND dl."isDefault"
        LEFT JOIN "Translation" s ON s."keyId" = l."keyId" AND s."languageId" = dl.id
        -- An override's source: its customer's override of the default language, where it has a text.
        LEFT JOIN "CustomerTranslation" so ON t."customerId" <> 0 AND so."keyId" = l."keyId" AND so."languageId" = dl.id
                                          AND so."customerId" = t."customerId" AND so.text <> ''
       ORDER BY l."keyId", t."languageId", t."customerId"`);
  }
}

/**
 * The cells of a queue entry (`entry`: its alias), as the key's project's
 * languages looked up in Translation's primary key: a plan of lookups whatever
 * the statistics say. Joined on the key alone, stale statistics (a table
 * grown by imports since it was last analysed) made PostgreSQL read the whole
 * table twice per lease, and a JIT-compiled plan cost hundreds of
 * milliseconds on every poll, also while an import's entries were not yet
 * committed.
 */
function cellsOfKey(entry: Prisma.Sql, columns: Prisma.Sql = Prisma.sql`count(*)`): Prisma.Sql {
  return Prisma.sql`SELECT ${columns} FROM "Language" lang
    JOIN "Translation" t ON t."keyId" = ${entry}."keyId" AND t."languageId" = lang.id
   WHERE lang."projectId" = ${entry}."projectId" AND ${ofEntryLanguages(entry)}`;
}

/** Whether `lang` is one of the languages a queue entry names (all when it names none). */
function ofEntryLanguages(entry: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(${entry}."languageIds" IS NULL OR lang.id = ANY(${entry}."languageIds"))`;
}

/**
 * The overrides with a text of a queue entry's key (an empty one is no text to
 * check: the customer sees the base), by the key's prefix of
 * CustomerTranslation's primary key: one probe per key. No join: a lookup of
 * the override's language joined here was planned as a memo that depends on
 * the entry, set up again for every key, overrides or none.
 */
function overridesOfKey(entry: Prisma.Sql, columns: Prisma.Sql = Prisma.sql`count(*)`): Prisma.Sql {
  return Prisma.sql`SELECT ${columns} FROM "CustomerTranslation" o
   WHERE o."keyId" = ${entry}."keyId" AND o.text <> ''
     AND (${entry}."languageIds" IS NULL OR o."languageId" = ANY(${entry}."languageIds"))`;
}

/**
 * Removes the leased entries of keys with no cell left to check (of the
 * generation leased; in the languages the entry names), with what findings
 * they had: an override emptied (the customer sees the base again) where the
 * key has no base cell.
 */
async function dropGone(gone: readonly LeasedRow[]): Promise<void> {
  await prisma().$transaction(async (tx) => {
    await shareProjectsContent(
      tx,
      gone.map((c) => c.projectId),
    );
    await tx.$executeRaw(Prisma.sql`/* findings:drop-gone */
    WITH dropped AS (
      DELETE FROM "FindingQueue" q
       USING unnest(${arrayLiteral(gone, (c) => c.keyId)}::int[], ${arrayLiteral(gone, (c) => c.generation)}::int[]) AS d(key_id, generation)
       WHERE q."keyId" = d.key_id AND q.generation = d.generation
         AND NOT EXISTS (SELECT 1 FROM "Translation" t WHERE t."keyId" = d.key_id
                            AND (q."languageIds" IS NULL OR t."languageId" = ANY(q."languageIds")))
         AND NOT EXISTS (SELECT 1 FROM "CustomerTranslation" o WHERE o."keyId" = d.key_id AND o.text <> ''
                            AND (q."languageIds" IS NULL OR o."languageId" = ANY(q."languageIds")))
      RETURNING q."keyId", q."languageIds"
    )
    DELETE FROM "Finding" f USING dropped
     WHERE f."keyId" = dropped."keyId" AND (dropped."languageIds" IS NULL OR f."languageId" = ANY(dropped."languageIds"))`);
  });
}

/** The consistency checks' severities of the batch's projects (null: off). */
function consistencySeverities(cells: readonly LeasedCell[]): Map<number, ConsistencySeverities> {
  const out = new Map<number, ConsistencySeverities>();
  for (const c of cells) {
    if (out.has(c.projectId)) continue;
    const active = activeChecks(checkSettingsOf(c.settings));
    const severity = (id: string): Severity | null => active.find((a) => a.definition.id === id)?.severity ?? null;
    out.set(c.projectId, {
      inconsistent: severity(inconsistentTranslation.id),
      ambiguous: severity(ambiguousTranslation.id),
    });
  }
  return out;
}

/** A finding's primary key: key, language, customer, check, n. */
type FindingId = readonly [keyId: number, languageId: number, customerId: number, check: string, n: number];

/** The keys leased and the generation of each key's entry read (cells of a key share it). */
type Leased = readonly [keyId: number, generation: number][];

/** The (key, generation) pairs of a round's cells. */
const leasedOf = (cells: readonly LeasedCell[]): Leased => [
  ...new Map(cells.map((c) => [c.keyId, c.generation])).entries(),
];

/**
 * The keys among `leased` whose queue entry is still the generation leased (no write has queued them since). Used
 * as `= ANY(ARRAY(…))`: the array is made once per statement. As `IN (…)`, planned for the ten rows PostgreSQL
 * guesses of an unnest, each cell's key joined the whole list again: 6–11 ms of a round of 300 cells.
 */
function stillLeasedSql(leased: Leased): Prisma.Sql {
  return Prisma.sql`SELECT e."keyId" FROM "FindingQueue" e
      JOIN unnest(${arrayLiteral(leased, ([keyId]) => keyId)}::int[], ${arrayLiteral(leased, ([, generation]) => generation)}::int[]) AS l(key_id, generation)
        ON e."keyId" = l.key_id AND e.generation = l.generation`;
}

/**
 * The old findings of the cells cleared (key, language; null: every language
 * of the key), of the keys whose entry is still the generation leased, but
 * those `kept` (the round found them again): what the round's new findings
 * replace (storeFindings).
 */
export function clearFindingsSql(
  leased: Leased,
  cleared: readonly [number, number | null][],
  kept: readonly FindingId[] = [],
): Prisma.Sql {
  // The findings the round finds again stay as they are (the insert updates one that changed): a one-cell write's
  // cells mostly keep theirs, and deleting and inserting each again cost the table and its three indexes a row
  // version each time.
  const keep = kept.length
    ? // NOT IN, not NOT EXISTS: a hashed subplan, read once (none of the columns is null). NOT EXISTS was planned
      // as a nested loop that read the list again for each old finding.
      Prisma.sql`AND (x."keyId", x."languageId", x."customerId", x."check", x.n) NOT IN (
          SELECT * FROM unnest(${arrayLiteral(kept, (k) => k[0])}::int[], ${arrayLiteral(kept, (k) => k[1])}::int[], ${arrayLiteral(kept, (k) => k[2])}::int[],
                               ${arrayLiteral(kept, (k) => k[3])}::text[], ${arrayLiteral(kept, (k) => k[4])}::int[]))`
    : Prisma.empty;
  return Prisma.sql`/* findings:clear */
    DELETE FROM "Finding" f
     USING (
       -- Each key's findings from the primary key's index, in a subquery that holds that lookup alone (OFFSET 0):
       -- joined with the list as one statement, a plan made without the table's column statistics (a table no
       -- ANALYZE has read yet) took a hash join over every finding in the database, 13 ms a round at 500,000.
       SELECT x."keyId", x."languageId", x."customerId", x."check", x.n
         FROM unnest(${arrayLiteral(cleared, ([keyId]) => keyId)}::int[], ${arrayLiteral(cleared, ([, languageId]) => languageId)}::int[]) AS d(key_id, language_id)
         CROSS JOIN LATERAL (
           SELECT g."keyId", g."languageId", g."customerId", g."check", g.n FROM "Finding" g
            WHERE g."keyId" = d.key_id AND (d.language_id IS NULL OR g."languageId" = d.language_id)
              -- The consistency checks' findings are updateConsistency's (consistency.ts).
              AND g."check" <> ALL(${arrayLiteral(CONSISTENCY_CHECK_IDS)}::text[])
           OFFSET 0) x
        WHERE d.key_id = ANY(ARRAY(${stillLeasedSql(leased)})) ${keep}) x
     WHERE (f."keyId", f."languageId", f."customerId", f."check", f.n) = (x."keyId", x."languageId", x."customerId", x."check", x.n)`;
}

/**
 * Removes the round's queue entries (key, generation), after its findings
 * have committed, in a statement of its own: an entry's row is locked only
 * while this statement runs. Removed inside the round's transaction, the
 * rows stayed locked until its commit, and every one-cell write queuing one
 * of those keys again waited for it (a statement of a group of writes, and
 * the group's lane behind it): 73 waits of 5–330 ms, median 11 ms, in 20 s
 * of one-cell writes at 16 clients, the writes' p99 (docs/benchmarks.md,
 * "The findings round's queue entries"). An entry a write holds, being
 * queued again (a new generation), stays, and this statement does not wait
 * for the write. A round that ends between its commit and this statement
 * leaves its entries leased: they are leased again once the lease runs out,
 * and their findings computed again.
 */
async function dequeue(leased: Leased): Promise<void> {
  await prisma().$executeRaw(Prisma.sql`/* findings:dequeue */
    DELETE FROM "FindingQueue" q WHERE q.ctid = ANY(ARRAY(
      SELECT e.ctid FROM "FindingQueue" e
        JOIN unnest(${arrayLiteral(leased, ([keyId]) => keyId)}::int[], ${arrayLiteral(leased, ([, generation]) => generation)}::int[]) AS d(key_id, generation)
          ON e."keyId" = d.key_id AND e.generation = d.generation
         FOR UPDATE OF e SKIP LOCKED))`);
}

/**
 * Writes the findings of leased cells and removes their queue entries:
 * storeFindings in a transaction of its own, then the entries (dequeue).
 */
export async function writeFindings(cells: readonly LeasedCell[], findings: readonly StoredFinding[][]): Promise<void> {
  await prisma().$transaction((tx) => storeFindings(cells, findings, tx));
  await dequeue(leasedOf(cells));
}

/**
 * Writes the findings of leased cells, in the round's transaction `tx`, for
 * the keys whose queue entry is still the generation computed: their old
 * findings in the languages leased go (every cell of them was read: an
 * override emptied since has none now) but those found again, which stay
 * (updated where they changed), and the new ones are inserted, dismissed
 * where a dismissal of the same check holds for the same text. A
 * key queued again meanwhile keeps its cells' old findings until the updater
 * reaches it again. Reads the queue without locking it: a write queuing a key
 * again never waits for the round, nor the round for the write (the entries
 * go after the commit: dequeue). The cells with findings are held (FOR KEY
 * SHARE, as a foreign key's check would) until the commit, so a deletion of
 * one (its key, language or customer) waits and its trigger then takes the
 * findings written here; a cell deleted before gets none. Two statements; one
 * when no cell has a finding.
 */
export async function storeFindings(
  cells: readonly LeasedCell[],
  findings: readonly StoredFinding[][],
  tx: Db,
): Promise<void> {
  const rows: { cell: LeasedCell; f: StoredFinding; n: number }[] = [];
  cells.forEach((cell, i) => {
    const seen = new Map<string, number>();
    for (const f of findings[i] ?? []) {
      const n = seen.get(f[0]) ?? 0;
      seen.set(f[0], n + 1);
      rows.push({ cell, f, n });
    }
  });
  const leased = leasedOf(cells);
  // The findings cleared: (key, language) of the languages each entry names, (key, null) for every cell of a key.
  const cleared: [number, number | null][] = [];
  for (const [keyId, languageIds] of new Map(cells.map((c) => [c.keyId, c.languageIds])))
    for (const languageId of languageIds ?? [null]) cleared.push([keyId, languageId]);
  await tx.$executeRaw(
    clearFindingsSql(
      leased,
      cleared,
      rows.map((r): FindingId => [r.cell.keyId, r.cell.languageId, r.cell.customerId, r.f[0], r.n]),
    ),
  );
  if (!rows.length) return;
  const withFindings = [...new Set(rows.map((r) => r.cell))];
  const base = withFindings.filter((c) => c.customerId === 0);
  const overrides = withFindings.filter((c) => c.customerId !== 0);
  await tx.$executeRaw(Prisma.sql`/* findings:insert */
    -- Each held cell by its primary key, in a subquery of its own (a locking one is never flattened): as a join, a
    -- project of 20,000 cells had the whole table read and hashed for a round's 200 cells.
    WITH held_base AS (
      SELECT t."keyId", t."languageId"
        FROM unnest(${arrayLiteral(base, (c) => c.keyId)}::int[], ${arrayLiteral(base, (c) => c.languageId)}::int[]) AS d(key_id, language_id)
        CROSS JOIN LATERAL (SELECT t."keyId", t."languageId" FROM "Translation" t
                             WHERE t."keyId" = d.key_id AND t."languageId" = d.language_id FOR KEY SHARE OF t) t
    ), held_overrides AS (
      SELECT o."keyId", o."languageId", o."customerId"
        FROM unnest(${arrayLiteral(overrides, (c) => c.keyId)}::int[], ${arrayLiteral(overrides, (c) => c.languageId)}::int[],
                    ${arrayLiteral(overrides, (c) => c.customerId)}::int[]) AS d(key_id, language_id, customer_id)
        CROSS JOIN LATERAL (SELECT o."keyId", o."languageId", o."customerId" FROM "CustomerTranslation" o
                             WHERE o."keyId" = d.key_id AND o."languageId" = d.language_id AND o."customerId" = d.customer_id
                               FOR KEY SHARE OF o) o
    )
    INSERT INTO "Finding" ("keyId", "languageId", "customerId", "check", n, "projectId", severity, message, "messageText", "spanStart", "spanEnd", dismissed)
    SELECT x.key_id, x.language_id, x.customer_id, x.check, x.n, x.project_id, x.severity, x.message, x.message_text, x.span_start, x.span_end, d."keyId" IS NOT NULL
      FROM unnest(${arrayLiteral(rows, (r) => r.cell.keyId)}::int[], ${arrayLiteral(rows, (r) => r.cell.languageId)}::int[],
                  ${arrayLiteral(rows, (r) => r.cell.customerId)}::int[], ${arrayLiteral(rows, (r) => r.cell.projectId)}::int[],
                  ${arrayLiteral(rows, (r) => r.f[0])}::text[], ${arrayLiteral(rows, (r) => r.n)}::int[], ${arrayLiteral(rows, (r) => r.f[1])}::text[],
                  ${arrayLiteral(rows, (r) => r.f[2])}::text[], ${arrayLiteral(rows, (r) => (r.f[5] ? JSON.stringify(r.f[5]) : null))}::jsonb[],
                  ${arrayLiteral(rows, (r) => r.f[3])}::int[], ${arrayLiteral(rows, (r) => r.f[4])}::int[], ${arrayLiteral(rows, (r) => r.cell.hash)}::text[])
           AS x(key_id, language_id, customer_id, project_id, "check", n, severity, message, message_text, span_start, span_end, hash)
      LEFT JOIN "FindingDismissal" d ON d."keyId" = x.key_id AND d."languageId" = x.language_id AND d."customerId" = x.customer_id
                                    AND d."check" = x.check AND d."textHash" = x.hash
     WHERE x.key_id = ANY(ARRAY(${stillLeasedSql(leased)}))
       -- The cell is still there (held): one deleted since it was leased gets no findings.
       AND CASE WHEN x.customer_id = 0
                THEN EXISTS (SELECT 1 FROM held_base h WHERE h."keyId" = x.key_id AND h."languageId" = x.language_id)
                ELSE EXISTS (SELECT 1 FROM held_overrides h WHERE h."keyId" = x.key_id AND h."languageId" = x.language_id AND h."customerId" = x.customer_id)
           END
    ON CONFLICT ("keyId", "languageId", "customerId", "check", n) DO UPDATE
      SET "projectId" = EXCLUDED."projectId", severity = EXCLUDED.severity, message = EXCLUDED.message,
          "messageText" = EXCLUDED."messageText", "spanStart" = EXCLUDED."spanStart", "spanEnd" = EXCLUDED."spanEnd",
          dismissed = EXCLUDED.dismissed
      -- A finding found again as it was is not written again.
      WHERE ("Finding"."projectId", "Finding".severity, "Finding".message, "Finding"."messageText", "Finding"."spanStart",
             "Finding"."spanEnd", "Finding".dismissed)
            IS DISTINCT FROM (EXCLUDED."projectId", EXCLUDED.severity, EXCLUDED.message, EXCLUDED."messageText",
                              EXCLUDED."spanStart", EXCLUDED."spanEnd", EXCLUDED.dismissed)`);
}

/** Keys waiting in the queue (all projects, or one). */
export async function pendingFindings(projectId?: number): Promise<number> {
  const where = projectId === undefined ? Prisma.empty : Prisma.sql`WHERE "projectId" = ${projectId}`;
  const [row] = await prisma().$queryRaw<{ n: number }[]>(
    Prisma.sql`/* findings:pending */ SELECT count(*)::int AS n FROM "FindingQueue" ${where}`,
  );
  return row?.n ?? 0;
}
