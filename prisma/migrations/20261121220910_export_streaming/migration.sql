-- CreateTable
CREATE TABLE "ExportKeyOrder" (
    "runId" TEXT NOT NULL,
    "sortKey" BYTEA NOT NULL,
    "keyId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ExportKeyOrder_pkey" PRIMARY KEY ("runId","sortKey")
);

-- CreateIndex
CREATE INDEX "ExportKeyOrder_createdAt_idx" ON "ExportKeyOrder"("createdAt");

-- CreateIndex
CREATE INDEX "TranslationKey_projectId_key_idx" ON "TranslationKey"("projectId", "key");
