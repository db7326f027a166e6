// The consistency checks' findings (src/checks/consistency.ts,
// docs/quality-checks.md "Consistency"): computed set-based in SQL by the
// findings updater, for the groups of cells its batch touches, never for a
// whole project at once.
//
// A group is one language's cells with the same source text (md5 of the
// key's default-language text: inconsistent-translation) or with the same
// text (md5 of the cell's text: ambiguous-translation). ConsistencyMember
// holds each cell's two hashes as the updater last read them; a batch's
// cells touch their new groups and the groups they leave (their old member
// rows). Every member of a touched group gets its finding again: one per cell
// and check, naming up to three other keys. Runs under one advisory lock (to
// the end of the updater's round transaction), so
// two batches (two lanes, two instances) never compute a group from
// different states. A deleted key's groups are queued again by the content
// model (queueConsistencyNeighbours, src/content/findings-queue.ts).
import { Prisma } from '../generated/prisma/client.js';
import type { Db } from '../db.js';
import { arrayLiteral } from '../db/array-literal.js';
import { CONSISTENCY_CHECK_IDS, PLURAL_KEY_SUFFIX, SOURCE_END_MARKS, SOURCE_MARKUP } from '../checks/consistency.js';
import type { Severity } from '../checks/index.js';

export interface ConsistencyCell {
  keyId: number;
  languageId: number;
  projectId: number;
  /** md5 of the cell's text. */
  textHash: string;
  /** md5 of the key's source text; null when the cell is no member (the default language, an empty text or source). */
  sourceHash: string | null;
}

/** A project's severity of each consistency check; null: off. */
export interface ConsistencySeverities {
  inconsistent: Severity | null;
  ambiguous: Severity | null;
}

/** sourceIdentity (src/checks/consistency.ts) in SQL. */
function sourceIdentitySql(text: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`lower(regexp_replace(btrim(regexp_replace(regexp_replace(${text}, ${SOURCE_MARKUP}, ' ', 'g'), '[[:space:]]+', ' ', 'g')), ${SOURCE_END_MARKS}, ''))`;
}

interface Group {
  languageId: number;
  kind: 'source' | 'text';
  hash: string;
}

/** The groups as a relation (language_id, kind, hash). */
function groupsSql(groups: readonly Group[]): Prisma.Sql {
  return Prisma.sql`SELECT * FROM unnest(${arrayLiteral(groups, (g) => g.languageId)}::int[], ${arrayLiteral(groups, (g) => g.kind)}::text[],
                                         ${arrayLiteral(groups, (g) => g.hash)}::text[]) AS g(language_id, kind, hash)`;
}

/** Names shown in a message; the rest are counted. */
const NAMED = 3;
/** Characters of another key's text quoted in a message. */
const QUOTED = 40;

/**
 * Updates the batch's memberships and the findings of every group they touch,
 * in the caller's transaction (`tx`: the round's, which then writes the
 * cells' other findings); `severities` has every project of the batch.
 */
export async function updateConsistency(
  tx: Db,
  cells: readonly ConsistencyCell[],
  severities: ReadonlyMap<number, ConsistencySeverities>,
): Promise<void> {
  if (!cells.length) return;
  const keys = arrayLiteral(cells, (c) => c.keyId);
  const languages = arrayLiteral(cells, (c) => c.languageId);
  const members = cells.filter((c) => c.sourceHash !== null);
  await tx.$executeRaw(
    Prisma.sql`/* findings:consistency-lock */ SELECT pg_advisory_xact_lock(hashtextextended('findings:consistency', 0))`,
  );
  // One statement: the batch's cells' memberships as they were (the groups they may leave), those of cells that are
  // no member any more removed, and the members' hashes written in place where they changed (a delete of every
  // membership and an insert of each again, two statements, took 22 ms of a round of ~450 cells under one-cell
  // writes; this one 16). A cell deleted since it was leased is no member: it is joined, by the primary key in a
  // subquery the planner keeps (OFFSET 0; as a join, a project of 20,000 cells had the whole table read and hashed
  // for a round's 200).
  const left = await tx.$queryRaw<
    { languageId: number; sourceHash: string; textHash: string }[]
  >(Prisma.sql`/* findings:consistency-members */
    WITH cells AS (
      SELECT * FROM unnest(${keys}::int[], ${languages}::int[], ${arrayLiteral(cells, (c) => c.textHash)}::text[],
                           ${arrayLiteral(cells, (c) => c.sourceHash)}::text[]) AS d(key_id, language_id, text_hash, source_hash)
    ), old AS (
      SELECT m.* FROM cells d
       CROSS JOIN LATERAL (SELECT m."languageId", m."sourceHash", m."textHash" FROM "ConsistencyMember" m
                            WHERE m."keyId" = d.key_id AND m."languageId" = d.language_id OFFSET 0) m
    ), gone AS (
      DELETE FROM "ConsistencyMember" m USING cells d
       WHERE d.source_hash IS NULL AND m."keyId" = d.key_id AND m."languageId" = d.language_id
    ), joined AS (
      INSERT INTO "ConsistencyMember" AS m ("keyId", "languageId", "projectId", "textHash", "sourceHash")
      SELECT d.key_id, d.language_id, t."projectId", d.text_hash, d.source_hash FROM cells d
       CROSS JOIN LATERAL (SELECT t."projectId" FROM "Translation" t
                            WHERE t."keyId" = d.key_id AND t."languageId" = d.language_id OFFSET 0) t
       WHERE d.source_hash IS NOT NULL
      ON CONFLICT ("keyId", "languageId") DO UPDATE SET "textHash" = EXCLUDED."textHash", "sourceHash" = EXCLUDED."sourceHash"
       WHERE (m."textHash", m."sourceHash") IS DISTINCT FROM (EXCLUDED."textHash", EXCLUDED."sourceHash")
    )
    SELECT * FROM old`);
  // Only the groups of a check that is on in their language's project: the insert makes no finding for one that is
  // off, and no member holds one (turning a check off deletes its findings: settings.ts). A check off by default
  // (ambiguous-translation) thus costs its groups' lookups in neither statement. The batch's own cells lose the
  // findings of both checks below, whatever the settings.
  const projectOf = new Map(cells.map((c) => [c.languageId, c.projectId]));
  const checked = (g: Group) => {
    const s = severities.get(projectOf.get(g.languageId)!);
    return Boolean(g.kind === 'source' ? s?.inconsistent : s?.ambiguous);
  };
  const groups = new Map<string, Group>();
  const touch = (g: Group) => {
    if (checked(g)) groups.set(`${g.languageId}\u0001${g.kind}\u0001${g.hash}`, g);
  };
  for (const m of left) {
    touch({ languageId: m.languageId, kind: 'source', hash: m.sourceHash });
    touch({ languageId: m.languageId, kind: 'text', hash: m.textHash });
  }
  for (const c of members) {
    touch({ languageId: c.languageId, kind: 'source', hash: c.sourceHash! });
    touch({ languageId: c.languageId, kind: 'text', hash: c.textHash });
  }
  const touched = [...groups.values()];
  // The batch's cells lose their findings (a cell that is no member any more keeps none), and so do the members of
  // its live groups, which the statement returns: a group with another member than a cell of the batch, or with two
  // (members of groups the batch's cells left, or of groups they joined). Most of a stream of one-cell writes' groups
  // are one cell's alone, with no finding to clear or make: looked up once here, they cost the insert below nothing.
  const live = await tx.$queryRaw<Group[]>(Prisma.sql`/* findings:consistency-clear */
    WITH touched AS (${groupsSql(touched)}),
    batch AS (SELECT * FROM unnest(${keys}::int[], ${languages}::int[]) AS d(key_id, language_id)),
    live AS (
      SELECT g.* FROM touched g
       CROSS JOIN LATERAL (
         SELECT count(*) AS n, bool_or(NOT EXISTS (SELECT 1 FROM batch b WHERE b.key_id = m."keyId" AND b.language_id = m."languageId")) AS other
           FROM (SELECT m."keyId", m."languageId" FROM "ConsistencyMember" m
                  WHERE g.kind = 'source' AND m."languageId" = g.language_id AND m."sourceHash" = g.hash
                 UNION ALL
                 SELECT m."keyId", m."languageId" FROM "ConsistencyMember" m
                  WHERE g.kind = 'text' AND m."languageId" = g.language_id AND m."textHash" = g.hash
                 LIMIT 2) m) c
       WHERE c.n = 2 OR c.other
    ), cleared AS (
      SELECT m."keyId", m."languageId", ${CONSISTENCY_CHECK_IDS[0]}::text AS "check"
        FROM live g JOIN "ConsistencyMember" m ON g.kind = 'source' AND m."languageId" = g.language_id AND m."sourceHash" = g.hash
      UNION
      SELECT m."keyId", m."languageId", ${CONSISTENCY_CHECK_IDS[1]}::text
        FROM live g JOIN "ConsistencyMember" m ON g.kind = 'text' AND m."languageId" = g.language_id AND m."textHash" = g.hash
      UNION
      SELECT d.key_id, d.language_id, c.id FROM batch d CROSS JOIN unnest(${arrayLiteral(CONSISTENCY_CHECK_IDS)}::text[]) AS c(id)
    ), doomed AS MATERIALIZED (
      -- The cleared findings there are, each by the primary key, read once (MATERIALIZED: a plan that took the
      -- table for one row ran the lookups again for each finding it held, 2 s a round).
      SELECT g.* FROM cleared x
       CROSS JOIN LATERAL (SELECT g."keyId", g."languageId", g."check" FROM "Finding" g
                            WHERE g."keyId" = x."keyId" AND g."languageId" = x."languageId" AND g."customerId" = 0
                              AND g."check" = x."check" AND g.n = 0 OFFSET 0) g
    ), gone AS (
      DELETE FROM "Finding" f USING doomed y
       WHERE (f."keyId", f."languageId", f."customerId", f."check", f.n) = (y."keyId", y."languageId", 0, y."check", 0)
    )
    SELECT language_id AS "languageId", kind, hash FROM live`);
  if (!live.length) return;
  const projects = [...severities.entries()].filter(([, s]) => s.inconsistent || s.ambiguous);
  if (!projects.length) return;
  await tx.$executeRaw(Prisma.sql`/* findings:consistency-insert */
    WITH touched AS (${groupsSql(live)}),
    severity AS (
      SELECT * FROM unnest(${arrayLiteral(projects, ([id]) => id)}::int[], ${arrayLiteral(projects, ([, s]) => s.inconsistent)}::text[],
                           ${arrayLiteral(projects, ([, s]) => s.ambiguous)}::text[]) AS s(project_id, inconsistent, ambiguous)
    ), members AS (
      -- Same source text: the cells differ by their translation.
      SELECT ${CONSISTENCY_CHECK_IDS[0]}::text AS "check", g.language_id, g.hash, m."keyId" AS key_id, m."projectId" AS project_id,
             m."textHash" AS text_hash, m."textHash" AS variant, t.text AS label, k.key, k.namespace, s.inconsistent AS severity
        FROM touched g
        JOIN "ConsistencyMember" m ON g.kind = 'source' AND m."languageId" = g.language_id AND m."sourceHash" = g.hash
        JOIN severity s ON s.project_id = m."projectId" AND s.inconsistent IS NOT NULL
        JOIN "Translation" t ON t."keyId" = m."keyId" AND t."languageId" = m."languageId"
        JOIN "TranslationKey" k ON k.id = m."keyId"
      UNION ALL
      -- Same translation: the cells differ by their source text (its case and end marks aside).
      SELECT ${CONSISTENCY_CHECK_IDS[1]}::text, g.language_id, g.hash, m."keyId", m."projectId",
             m."textHash", md5(${sourceIdentitySql(Prisma.sql`src.text`)}), src.text, k.key, k.namespace, s.ambiguous
        FROM touched g
        JOIN "ConsistencyMember" m ON g.kind = 'text' AND m."languageId" = g.language_id AND m."textHash" = g.hash
        JOIN severity s ON s.project_id = m."projectId" AND s.ambiguous IS NOT NULL
        JOIN "Language" dl ON dl."projectId" = m."projectId" AND dl."isDefault"
        JOIN "Translation" src ON src."keyId" = m."keyId" AND src."languageId" = dl.id
        JOIN "TranslationKey" k ON k.id = m."keyId"
    ), based AS (
      -- Plural forms of one message (items_one, items_other) are not compared with each other.
      SELECT x.*, x.namespace || E'\\n' || regexp_replace(x.key, ${PLURAL_KEY_SUFFIX}, '', 'i') AS base FROM members x
    ), ranked AS (
      SELECT b.*,
             count(*) OVER (PARTITION BY "check", language_id, hash) AS group_n,
             count(*) OVER (PARTITION BY "check", language_id, hash, variant) AS variant_n,
             count(*) OVER (PARTITION BY "check", language_id, hash, base) AS base_n,
             count(*) OVER (PARTITION BY "check", language_id, hash, base, variant) AS base_variant_n,
             row_number() OVER (PARTITION BY "check", language_id, hash, variant ORDER BY namespace, key) AS nth
        FROM based b
    ), flagged AS (
      -- The other keys of the group that differ, plural siblings aside.
      SELECT r.*, (group_n - variant_n - (base_n - base_variant_n))::int AS others FROM ranked r
       WHERE group_n - variant_n - (base_n - base_variant_n) > 0
    ), picked AS (
      -- The keys named: the first few of each other variant, then the first few of those.
      SELECT f."check", f.language_id, f.key_id, f.project_id, f.text_hash, f.severity, f.others, o.namespace AS o_namespace, o.key AS o_key, o.label AS o_label,
             row_number() OVER (PARTITION BY f."check", f.language_id, f.key_id ORDER BY o.namespace, o.key) AS pick
        FROM flagged f
        LEFT JOIN ranked o ON o."check" = f."check" AND o.language_id = f.language_id AND o.hash = f.hash AND o.nth <= ${NAMED}::int
                          AND o.variant <> f.variant AND o.base <> f.base
    ), messages AS (
      SELECT "check", language_id, key_id, project_id, text_hash, severity, others,
             string_agg(format('%s ("%s")', CASE WHEN o_namespace = '' THEN o_key ELSE o_namespace || ':' || o_key END,
                               CASE WHEN char_length(o_label) > ${QUOTED}::int THEN left(o_label, ${QUOTED - 1}::int) || '…' ELSE o_label END),
                        ', ' ORDER BY o_namespace, o_key) FILTER (WHERE pick <= ${NAMED}::int AND o_key IS NOT NULL) AS names,
             (count(*) FILTER (WHERE pick <= ${NAMED}::int AND o_key IS NOT NULL))::int AS shown
        FROM picked
       GROUP BY "check", language_id, key_id, project_id, text_hash, severity, others
    )
    INSERT INTO "Finding" ("keyId", "languageId", "check", n, "projectId", severity, message, "messageText", "spanStart", "spanEnd", dismissed)
    SELECT x.key_id, x.language_id, x."check", 0, x.project_id, x.severity,
           CASE x."check" WHEN ${CONSISTENCY_CHECK_IDS[0]} THEN 'The same source text is translated otherwise in ' ELSE 'The same translation stands for another source text in ' END
           || concat_ws(' and ', x.names, CASE WHEN x.others > x.shown THEN (x.others - x.shown)::text || CASE WHEN x.shown > 0 THEN ' more' ELSE '' END || CASE WHEN x.others - x.shown = 1 THEN ' key' ELSE ' keys' END END)
           || CASE x."check" WHEN ${CONSISTENCY_CHECK_IDS[0]} THEN ': use one translation, or dismiss if the keys mean different things'
              ELSE ': translate each source text as it says, or dismiss if they mean the same' END,
           -- The same message as data (src/checks/messages.ts: <check>.keys, .keys-and-more, .counted).
           jsonb_build_object(
             'id', x."check" || CASE WHEN x.shown = 0 THEN '.counted' WHEN x.others > x.shown THEN '.keys-and-more' ELSE '.keys' END,
             'params', jsonb_strip_nulls(jsonb_build_object(
               'keys', x.names,
               'count', CASE WHEN x.others > x.shown THEN x.others - x.shown END))),
           NULL, NULL, d."keyId" IS NOT NULL
      FROM messages x
      LEFT JOIN "FindingDismissal" d ON d."keyId" = x.key_id AND d."languageId" = x.language_id AND d."customerId" = 0
                                    AND d."check" = x."check" AND d."textHash" = x.text_hash
    ON CONFLICT ("keyId", "languageId", "customerId", "check", n) DO UPDATE SET severity = EXCLUDED.severity, message = EXCLUDED.message, "messageText" = EXCLUDED."messageText", dismissed = EXCLUDED.dismissed`);
}
