-- CreateTable
CREATE TABLE "ConsistencyMember" (
    "keyId" INTEGER NOT NULL,
    "languageId" INTEGER NOT NULL,
    "projectId" INTEGER NOT NULL,
    "textHash" TEXT NOT NULL,
    "sourceHash" TEXT NOT NULL,

    CONSTRAINT "ConsistencyMember_pkey" PRIMARY KEY ("keyId","languageId")
);

-- CreateIndex
CREATE INDEX "ConsistencyMember_languageId_sourceHash_idx" ON "ConsistencyMember"("languageId", "sourceHash");

-- CreateIndex
CREATE INDEX "ConsistencyMember_languageId_textHash_idx" ON "ConsistencyMember"("languageId", "textHash");

-- AddForeignKey
ALTER TABLE "ConsistencyMember" ADD CONSTRAINT "ConsistencyMember_keyId_languageId_fkey" FOREIGN KEY ("keyId", "languageId") REFERENCES "Translation"("keyId", "languageId") ON DELETE CASCADE ON UPDATE CASCADE;
