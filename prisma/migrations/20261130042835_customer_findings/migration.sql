-- DropForeignKey
ALTER TABLE "Finding" DROP CONSTRAINT "Finding_keyId_languageId_fkey";

-- DropForeignKey
ALTER TABLE "FindingDismissal" DROP CONSTRAINT "FindingDismissal_keyId_languageId_fkey";

-- DropIndex
DROP INDEX "Finding_projectId_languageId_check_severity_dismissed_idx";

-- DropIndex
DROP INDEX "Finding_projectId_severity_keyId_languageId_check_n_idx";

-- AlterTable
ALTER TABLE "Finding" DROP CONSTRAINT "Finding_pkey",
ADD COLUMN     "customerId" INTEGER NOT NULL DEFAULT 0,
ADD CONSTRAINT "Finding_pkey" PRIMARY KEY ("keyId", "languageId", "customerId", "check", "n");

-- AlterTable
ALTER TABLE "FindingDismissal" DROP CONSTRAINT "FindingDismissal_pkey",
ADD COLUMN     "customerId" INTEGER NOT NULL DEFAULT 0,
ADD CONSTRAINT "FindingDismissal_pkey" PRIMARY KEY ("keyId", "languageId", "customerId", "check");

-- CreateIndex
CREATE INDEX "Finding_projectId_severity_keyId_languageId_customerId_chec_idx" ON "Finding"("projectId", "severity", "keyId", "languageId", "customerId", "check", "n");

-- CreateIndex
CREATE INDEX "Finding_projectId_languageId_check_severity_dismissed_custo_idx" ON "Finding"("projectId", "languageId", "check", "severity", "dismissed", "customerId");

-- A cell's findings and dismissals go with it, in the statement that deletes it (also for the cells a key,
-- language, customer or project takes with it): a base cell's by the trigger that already takes its key off
-- the queue, an override's by a trigger of its own. A foreign key cannot do it: an override has no row in
-- Translation, and the customer's 0 of a base cell no row in CustomerTranslation.
CREATE OR REPLACE FUNCTION finding_queue_forget_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "FindingQueue" q USING (SELECT DISTINCT "keyId" FROM gone) g
   WHERE q."keyId" = g."keyId" AND NOT EXISTS (SELECT 1 FROM "Translation" t WHERE t."keyId" = g."keyId")
     AND NOT EXISTS (SELECT 1 FROM "CustomerTranslation" o WHERE o."keyId" = g."keyId");
  DELETE FROM "Finding" f USING gone g
   WHERE f."keyId" = g."keyId" AND f."languageId" = g."languageId" AND f."customerId" = 0;
  DELETE FROM "FindingDismissal" d USING gone g
   WHERE d."keyId" = g."keyId" AND d."languageId" = g."languageId" AND d."customerId" = 0;
  RETURN NULL;
END
$$;

CREATE FUNCTION finding_forget_deleted_override() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "Finding" f USING gone g
   WHERE f."keyId" = g."keyId" AND f."languageId" = g."languageId" AND f."customerId" = g."customerId";
  DELETE FROM "FindingDismissal" d USING gone g
   WHERE d."keyId" = g."keyId" AND d."languageId" = g."languageId" AND d."customerId" = g."customerId";
  DELETE FROM "FindingQueue" q USING (SELECT DISTINCT "keyId" FROM gone) g
   WHERE q."keyId" = g."keyId" AND NOT EXISTS (SELECT 1 FROM "Translation" t WHERE t."keyId" = g."keyId")
     AND NOT EXISTS (SELECT 1 FROM "CustomerTranslation" o WHERE o."keyId" = g."keyId");
  RETURN NULL;
END
$$;

CREATE TRIGGER "CustomerTranslation_findings_forget" AFTER DELETE ON "CustomerTranslation"
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION finding_forget_deleted_override();
