-- CreateTable
CREATE TABLE "GitConnection" (
    "id" SERIAL NOT NULL,
    "projectId" INTEGER NOT NULL,
    "remoteUrl" TEXT NOT NULL,
    "authKind" TEXT NOT NULL,
    "tokenSealed" TEXT,
    "tokenUser" TEXT NOT NULL DEFAULT 'git',
    "deployKeySealed" TEXT,
    "deployPublicKey" TEXT,
    "sshKnownHosts" TEXT NOT NULL DEFAULT '',
    "branch" TEXT NOT NULL DEFAULT 'main',
    "pathPattern" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "pullScope" TEXT NOT NULL DEFAULT 'SOURCE',
    "pushBranch" TEXT NOT NULL,
    "forgeKind" TEXT NOT NULL DEFAULT 'NONE',
    "forgeApiUrl" TEXT,
    "forgeRepository" TEXT NOT NULL DEFAULT '',
    "webhookSecretSealed" TEXT NOT NULL,
    "pushSchedule" TEXT,
    "lastScheduledAt" TIMESTAMP(3),
    "lastPulledCommit" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "GitConnection_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GitSyncRun" (
    "id" SERIAL NOT NULL,
    "connectionId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'RUNNING',
    "commit" TEXT,
    "message" TEXT NOT NULL DEFAULT '',
    "details" JSONB NOT NULL DEFAULT '{}',
    "pullRequestUrl" TEXT,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "GitSyncRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "GitConnection_projectId_key" ON "GitConnection"("projectId");

-- CreateIndex
CREATE INDEX "GitSyncRun_connectionId_id_idx" ON "GitSyncRun"("connectionId", "id");

-- AddForeignKey
ALTER TABLE "GitConnection" ADD CONSTRAINT "GitConnection_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GitSyncRun" ADD CONSTRAINT "GitSyncRun_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "GitConnection"("id") ON DELETE CASCADE ON UPDATE CASCADE;
