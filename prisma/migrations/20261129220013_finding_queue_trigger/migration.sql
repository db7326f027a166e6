-- DropForeignKey
ALTER TABLE "FindingQueue" DROP CONSTRAINT "FindingQueue_keyId_languageId_fkey";

-- A deleted cell's queue entry goes with it, as the foreign key's ON DELETE CASCADE did, in one statement
-- per DELETE (also for the cells a key, language or project takes with it). The key's check cost a row lock
-- on the written cell for each queued one, on every write's path; this costs only deletions.
CREATE FUNCTION finding_queue_forget_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "FindingQueue" q USING gone g WHERE q."keyId" = g."keyId" AND q."languageId" = g."languageId";
  RETURN NULL;
END
$$;

CREATE TRIGGER "Translation_finding_queue_forget" AFTER DELETE ON "Translation"
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION finding_queue_forget_deleted();
