-- CreateTable
CREATE TABLE "LlmExchange" (
    "id" BIGSERIAL NOT NULL,
    "projectId" INTEGER NOT NULL,
    "jobId" TEXT,
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "request" JSONB NOT NULL,
    "status" INTEGER NOT NULL,
    "reply" TEXT NOT NULL,
    "error" TEXT,
    "inputTokens" INTEGER NOT NULL DEFAULT 0,
    "outputTokens" INTEGER NOT NULL DEFAULT 0,
    "durationMs" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LlmExchange_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "LlmExchange_jobId_id_idx" ON "LlmExchange"("jobId", "id");

-- CreateIndex
CREATE INDEX "LlmExchange_createdAt_idx" ON "LlmExchange"("createdAt");

-- AddForeignKey
ALTER TABLE "LlmExchange" ADD CONSTRAINT "LlmExchange_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
