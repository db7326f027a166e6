-- The findings queue holds keys, not cells (docs/quality-checks.md, "Stored findings"): an import writes a
-- key's languages together, so one row per key is a tenth of the rows on the write path, and the updater
-- checks all of a key's cells (the consistency and plural checks read the source anyway).
ALTER TABLE "FindingQueue" DROP CONSTRAINT "FindingQueue_pkey";

-- One entry per key is left (its leases dropped: the cells are checked again from the start).
DELETE FROM "FindingQueue" a USING "FindingQueue" b WHERE a."keyId" = b."keyId" AND a."languageId" > b."languageId";
UPDATE "FindingQueue" SET "leasedUntil" = NULL, "leaseOwner" = NULL;

ALTER TABLE "FindingQueue" DROP COLUMN "languageId";
ALTER TABLE "FindingQueue" ADD CONSTRAINT "FindingQueue_pkey" PRIMARY KEY ("keyId");

-- A key whose last cell is deleted leaves the queue in the deleting statement (a key deleted takes its cells:
-- their foreign key). A key that keeps cells stays queued: the updater checks the ones left.
CREATE OR REPLACE FUNCTION finding_queue_forget_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "FindingQueue" q USING (SELECT DISTINCT "keyId" FROM gone) g
   WHERE q."keyId" = g."keyId" AND NOT EXISTS (SELECT 1 FROM "Translation" t WHERE t."keyId" = g."keyId");
  RETURN NULL;
END
$$;
