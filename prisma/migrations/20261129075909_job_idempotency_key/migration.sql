-- AlterTable
ALTER TABLE "Job" ADD COLUMN     "idempotencyKey" TEXT;

-- AlterTable
ALTER TABLE "Publication" ADD COLUMN     "idempotencyKey" TEXT;

-- CreateIndex
CREATE INDEX "Job_idempotencyKey_idx" ON "Job"("idempotencyKey");

-- CreateIndex
CREATE UNIQUE INDEX "Publication_idempotencyKey_key" ON "Publication"("idempotencyKey");
