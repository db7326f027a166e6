-- AlterTable
ALTER TABLE "Environment" ADD COLUMN     "requireNoErrors" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "FindingQueue" (
    "keyId" INTEGER NOT NULL,
    "languageId" INTEGER NOT NULL,
    "projectId" INTEGER NOT NULL,
    "generation" INTEGER NOT NULL DEFAULT 1,
    "leasedUntil" TIMESTAMP(3),
    "leaseOwner" TEXT,

    CONSTRAINT "FindingQueue_pkey" PRIMARY KEY ("keyId","languageId")
);

-- CreateTable
CREATE TABLE "Finding" (
    "keyId" INTEGER NOT NULL,
    "languageId" INTEGER NOT NULL,
    "check" TEXT NOT NULL,
    "n" INTEGER NOT NULL DEFAULT 0,
    "projectId" INTEGER NOT NULL,
    "severity" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "spanStart" INTEGER,
    "spanEnd" INTEGER,
    "dismissed" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "Finding_pkey" PRIMARY KEY ("keyId","languageId","check","n")
);

-- CreateTable
CREATE TABLE "FindingDismissal" (
    "keyId" INTEGER NOT NULL,
    "languageId" INTEGER NOT NULL,
    "check" TEXT NOT NULL,
    "projectId" INTEGER NOT NULL,
    "textHash" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "activityId" BIGINT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FindingDismissal_pkey" PRIMARY KEY ("keyId","languageId","check")
);

-- CreateIndex
CREATE INDEX "Finding_projectId_severity_languageId_idx" ON "Finding"("projectId", "severity", "languageId");

-- CreateIndex
CREATE INDEX "Finding_projectId_check_languageId_idx" ON "Finding"("projectId", "check", "languageId");

-- AddForeignKey
ALTER TABLE "FindingQueue" ADD CONSTRAINT "FindingQueue_keyId_languageId_fkey" FOREIGN KEY ("keyId", "languageId") REFERENCES "Translation"("keyId", "languageId") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Finding" ADD CONSTRAINT "Finding_keyId_languageId_fkey" FOREIGN KEY ("keyId", "languageId") REFERENCES "Translation"("keyId", "languageId") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FindingDismissal" ADD CONSTRAINT "FindingDismissal_keyId_languageId_fkey" FOREIGN KEY ("keyId", "languageId") REFERENCES "Translation"("keyId", "languageId") ON DELETE CASCADE ON UPDATE CASCADE;
