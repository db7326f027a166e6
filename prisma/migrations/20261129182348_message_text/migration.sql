-- AlterTable
ALTER TABLE "Finding" ADD COLUMN     "messageText" JSONB;

-- AlterTable
ALTER TABLE "Job" ADD COLUMN     "messageText" JSONB;
