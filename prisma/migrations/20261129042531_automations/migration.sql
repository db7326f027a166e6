-- CreateTable
CREATE TABLE "AutomationRule" (
    "id" SERIAL NOT NULL,
    "projectId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "trigger" TEXT NOT NULL,
    "schedule" TEXT,
    "nextRunAt" TIMESTAMP(3),
    "languages" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "namespaces" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "sources" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "reviewStatuses" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "actions" JSONB NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AutomationRule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AutomationRun" (
    "id" BIGSERIAL NOT NULL,
    "ruleId" INTEGER NOT NULL,
    "projectId" INTEGER NOT NULL,
    "activityId" BIGINT,
    "tick" TIMESTAMP(3),
    "trigger" TEXT NOT NULL,
    "depth" INTEGER NOT NULL DEFAULT 1,
    "state" TEXT NOT NULL DEFAULT 'PENDING',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "leaseOwner" TEXT,
    "leaseExpiresAt" TIMESTAMP(3),
    "log" JSONB NOT NULL DEFAULT '[]',
    "committed" BOOLEAN NOT NULL DEFAULT false,
    "changeId" BIGINT,
    "revertedBy" BIGINT,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "AutomationRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AutomationRule_projectId_idx" ON "AutomationRule"("projectId");

-- CreateIndex
CREATE INDEX "AutomationRule_nextRunAt_idx" ON "AutomationRule"("nextRunAt");

-- CreateIndex
CREATE INDEX "AutomationRun_state_createdAt_idx" ON "AutomationRun"("state", "createdAt");

-- CreateIndex
CREATE INDEX "AutomationRun_projectId_id_idx" ON "AutomationRun"("projectId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "AutomationRun_ruleId_activityId_key" ON "AutomationRun"("ruleId", "activityId");

-- CreateIndex
CREATE UNIQUE INDEX "AutomationRun_ruleId_tick_key" ON "AutomationRun"("ruleId", "tick");

-- AddForeignKey
ALTER TABLE "AutomationRule" ADD CONSTRAINT "AutomationRule_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AutomationRun" ADD CONSTRAINT "AutomationRun_ruleId_fkey" FOREIGN KEY ("ruleId") REFERENCES "AutomationRule"("id") ON DELETE CASCADE ON UPDATE CASCADE;
