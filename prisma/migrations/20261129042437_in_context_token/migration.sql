-- CreateTable
CREATE TABLE "InContextToken" (
    "id" SERIAL NOT NULL,
    "projectId" INTEGER NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "tokenHash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "languageIds" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "capture" BOOLEAN NOT NULL DEFAULT false,
    "createdById" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "revokedAt" TIMESTAMP(3),
    "lastUsedAt" TIMESTAMP(3),

    CONSTRAINT "InContextToken_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "InContextToken_tokenHash_key" ON "InContextToken"("tokenHash");

-- CreateIndex
CREATE INDEX "InContextToken_projectId_idx" ON "InContextToken"("projectId");

-- AddForeignKey
ALTER TABLE "InContextToken" ADD CONSTRAINT "InContextToken_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InContextToken" ADD CONSTRAINT "InContextToken_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "Account"("id") ON DELETE SET NULL ON UPDATE CASCADE;
