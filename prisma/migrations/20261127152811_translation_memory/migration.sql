-- CreateTable
CREATE TABLE "TranslationMemory" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "ownerId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TranslationMemory_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TranslationMemoryLink" (
    "memoryId" INTEGER NOT NULL,
    "projectId" INTEGER NOT NULL,
    "shares" BOOLEAN NOT NULL DEFAULT false,
    "reads" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TranslationMemoryLink_pkey" PRIMARY KEY ("memoryId","projectId")
);

-- CreateTable
CREATE TABLE "MemorySegment" (
    "id" SERIAL NOT NULL,
    "memoryId" INTEGER,
    "projectId" INTEGER,
    "sourceLanguage" TEXT NOT NULL,
    "targetLanguage" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "notes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "properties" JSONB NOT NULL DEFAULT '[]',
    "changedAt" TIMESTAMP(3),
    "changedBy" TEXT NOT NULL DEFAULT '',
    "tuid" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MemorySegment_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "TranslationMemoryLink_projectId_idx" ON "TranslationMemoryLink"("projectId");

-- CreateIndex
CREATE INDEX "MemorySegment_memoryId_sourceLanguage_targetLanguage_idx" ON "MemorySegment"("memoryId", "sourceLanguage", "targetLanguage");

-- CreateIndex
CREATE INDEX "MemorySegment_projectId_sourceLanguage_targetLanguage_idx" ON "MemorySegment"("projectId", "sourceLanguage", "targetLanguage");

-- AddForeignKey
ALTER TABLE "TranslationMemoryLink" ADD CONSTRAINT "TranslationMemoryLink_memoryId_fkey" FOREIGN KEY ("memoryId") REFERENCES "TranslationMemory"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TranslationMemoryLink" ADD CONSTRAINT "TranslationMemoryLink_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MemorySegment" ADD CONSTRAINT "MemorySegment_memoryId_fkey" FOREIGN KEY ("memoryId") REFERENCES "TranslationMemory"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MemorySegment" ADD CONSTRAINT "MemorySegment_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Fuzzy matching of imported segments on PostgreSQL (a project's own texts use "Translation_text_idx" of the
-- text-filter migration). Not on PGlite, where the memory keeps its own n-gram index in process
-- (src/memory/ngram-index.ts; docs/translation-memory.md says why).
DO $$
BEGIN
  IF version() NOT LIKE '%wasm32%' THEN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE INDEX "MemorySegment_source_idx" ON "MemorySegment" USING GIN ("source" gin_trgm_ops);
  END IF;
END
$$;
