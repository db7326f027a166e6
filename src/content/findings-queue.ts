// The queue of keys whose cells' quality-check findings are computed again
// (docs/quality-checks.md, "Stored findings"). The write gate adds the keys of
// the cells it writes in its own statement (a CTE over its `written` rows), so
// a write and its queue entry commit together and cost one statement; the
// findings updater (src/findings/updater.ts) drains it in the background and
// checks every cell of a key it leases. Deleting keys queues the keys whose
// consistency findings name them (queueConsistencyNeighbours).
//
// One row per key (primary key): an import writes a key's languages together,
// so the write path adds a tenth of the rows a queue of cells did, and a source
// text that changes needs no entry for the key's other languages. A key queued
// again while the updater holds it gets a new generation and its lease is
// dropped: the updater removes only the generation it computed, so the newer
// texts are checked too. A key queued again while it waits, for languages its
// entry already names, is left as it is (the conflict still locks it, so no
// lease takes it before the write commits, and a lease after reads its
// texts): a file laid out by language (multi-language-json) names each key
// once per language, and rewriting the entry each time cost a PGlite re-import
// of 10,000 keys × 10 languages about 1.3 of its 6 s (docs/benchmarks.md, "The
// findings queue during an import").
//
// A key queued by a write of some of its cells names their languages
// (`languageIds`): the updater checks those cells only, as a cell's checks read
// its own text and its key's source. A write that includes the default
// language's text (the source of the others) queues the whole key (null), as
// does every other way of queuing; entries merged while queued keep the union.
import { Prisma } from '../generated/prisma/client.js';
import type { Db } from '../db.js';
import { arrayLiteral } from '../db/array-literal.js';
import { CONSISTENCY_CHECK_IDS } from '../checks/consistency.js';
import { afterWorkWakers } from './origin.js';

/**
 * A queued key again: a new generation, its lease dropped (the updater holding
 * the old one leaves it), the languages of both entries (null, every cell, if
 * either is); an entry not leased that already names the languages is not
 * rewritten: a lease always sets leasedUntil (updater.ts), so an entry without
 * one holds a generation no updater has read.
 */
const REQUEUE = Prisma.sql`ON CONFLICT ("keyId") DO UPDATE SET generation = q.generation + 1, "leasedUntil" = NULL, "leaseOwner" = NULL,
        "languageIds" = CASE WHEN q."languageIds" IS NULL OR EXCLUDED."languageIds" IS NULL THEN NULL
                             ELSE ARRAY(SELECT DISTINCT l FROM unnest(q."languageIds" || EXCLUDED."languageIds") AS l ORDER BY l) END
      WHERE q."leasedUntil" IS NOT NULL
         OR NOT (q."languageIds" IS NULL OR (EXCLUDED."languageIds" IS NOT NULL AND EXCLUDED."languageIds" <@ q."languageIds"))`;

/**
 * The queue's INSERT as a CTE body of the write gate's statement: the keys of
 * the gate's `written` rows with the languages written, or every language
 * (null) when the default language's text is among them, since it is the
 * source the others are checked against; `project` is the SQL of the project
 * id. `ordered`: the entries are written in the order of their keys, as
 * statements that may run side by side with others of their kind must lock
 * them (a group of one-cell writes: translations/cell-groups.ts).
 */
export function enqueueFindingsSql(project: Prisma.Sql, ordered = false): Prisma.Sql {
  // `written` holds each cell once; plain aggregates (no DISTINCT, no ORDER BY)
  // let the keys be grouped by hashing instead of sorting the import's rows.
  // An entry's languages come out in any order: REQUEUE sorts them when it merges.
  return Prisma.sql`INSERT INTO "FindingQueue" AS q ("keyId", "projectId", "languageIds")
      SELECT w."keyId", ${project},
             CASE WHEN bool_or(w."languageId" = (SELECT dl.id FROM "Language" dl WHERE dl."projectId" = ${project} AND dl."isDefault"))
                  THEN NULL ELSE array_agg(w."languageId") END
        FROM written w GROUP BY w."keyId"${ordered ? Prisma.sql` ORDER BY w."keyId"` : Prisma.empty}
      ${REQUEUE}`;
}

/**
 * The queue's INSERT of the keys a SELECT names (column "keyId" and
 * "projectId"), for the statements that queue keys of their own (the import's
 * key metadata).
 */
export function enqueueKeysSql(keys: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`INSERT INTO "FindingQueue" AS q ("keyId", "projectId")
     SELECT DISTINCT k."keyId", k."projectId" FROM (${keys}) k
     ${REQUEUE}`;
}

/**
 * Queues every key of a project with cells (or some of its keys): after its
 * check settings change, or a key's characters limit. One statement.
 */
export async function enqueueProject(db: Db, projectId: number, keyIds?: readonly number[]): Promise<number> {
  const keys = keyIds ? Prisma.sql`AND k.id = ANY(${[...keyIds]}::int[])` : Prisma.empty;
  return db.$executeRaw(Prisma.sql`/* findings:enqueue-project */
    ${enqueueKeysSql(Prisma.sql`SELECT k.id AS "keyId", k."projectId" FROM "TranslationKey" k
      WHERE k."projectId" = ${projectId} ${keys}
        AND (EXISTS (SELECT 1 FROM "Translation" t WHERE t."keyId" = k.id)
             OR EXISTS (SELECT 1 FROM "CustomerTranslation" o WHERE o."keyId" = k.id AND o.text <> ''))`)}`);
}

/**
 * Before keys are deleted (keys/delete.ts): the keys whose consistency
 * findings name them are checked again (their groups lose a member). Returns
 * how many keys it queued.
 */
export async function queueConsistencyNeighbours(db: Db, keyIds: readonly number[]): Promise<number> {
  if (!keyIds.length) return 0;
  const keys = arrayLiteral(keyIds);
  return db.$executeRaw(Prisma.sql`/* findings:consistency-neighbours */
    ${enqueueKeysSql(Prisma.sql`SELECT o."keyId", o."projectId" FROM (
      SELECT o.* FROM "ConsistencyMember" m JOIN "ConsistencyMember" o ON o."languageId" = m."languageId" AND o."sourceHash" = m."sourceHash"
       WHERE m."keyId" = ANY(${keys}::int[])
      UNION ALL
      SELECT o.* FROM "ConsistencyMember" m JOIN "ConsistencyMember" o ON o."languageId" = m."languageId" AND o."textHash" = m."textHash"
       WHERE m."keyId" = ANY(${keys}::int[])
    ) o
    WHERE o."keyId" <> ALL(${keys}::int[])
      AND EXISTS (SELECT 1 FROM "Finding" f WHERE f."keyId" = o."keyId" AND f."languageId" = o."languageId" AND f."customerId" = 0 AND f."check" = ANY(${arrayLiteral(CONSISTENCY_CHECK_IDS)}::text[]))`)}`);
}

const updaters = afterWorkWakers();

/** An updater of this process, woken after writes (registerWaker returns its removal). */
export const registerWaker = updaters.register;

/**
 * Called by the write gate (and the others that queue keys) as it queues: the
 * updaters of this process look at the queue once the work that queued has
 * ended (a request, a job: its transactions committed), instead of at their
 * next poll — once per piece of work, however many statements queued. Woken
 * before the commit, an updater's lease scan passes over the entries the
 * writer has not committed yet, competing with the write for nothing
 * (docs/quality-checks.md, "What it costs"). Outside such work: shortly after.
 */
export function noteQueued(): void {
  updaters.note();
}
