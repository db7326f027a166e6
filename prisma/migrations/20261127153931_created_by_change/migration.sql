-- The change that created a key, language or customer: reverting that change deletes what it created
-- (src/history/revert-created.ts). No foreign key: the creating statement may run before its change's row is
-- written (v1 POST opens its change in the gate's statement), and ids of pruned changes are never reused.
-- AlterTable
ALTER TABLE "Customer" ADD COLUMN     "createdByChange" BIGINT;

-- AlterTable
ALTER TABLE "Language" ADD COLUMN     "createdByChange" BIGINT;

-- AlterTable
ALTER TABLE "TranslationKey" ADD COLUMN     "createdByChange" BIGINT;
