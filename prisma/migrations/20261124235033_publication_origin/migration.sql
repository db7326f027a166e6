-- AlterTable
ALTER TABLE "Publication" ADD COLUMN     "actorId" TEXT,
ADD COLUMN     "actorKind" TEXT NOT NULL DEFAULT 'SYSTEM',
ADD COLUMN     "source" TEXT NOT NULL DEFAULT 'SYSTEM';

-- Publications made before this migration: their author from the activity entry written when each completed.
UPDATE "Publication" p SET "actorKind" = a."actorKind", "actorId" = a."actorId", "source" = a.source
  FROM "Activity" a
 WHERE a."projectId" = p."projectId" AND a.kind = 'PUBLICATION' AND a.details->>'publicationId' = p.id::text;
