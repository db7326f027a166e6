-- Auto-translation settings per target language (src/jobs/language-settings.ts). Projects keep no row until
-- someone saves one: until then a language's last job gives its values, computed when read.
-- CreateTable
CREATE TABLE "AutoTranslationSetting" (
    "languageId" INTEGER NOT NULL,
    "projectId" INTEGER NOT NULL,
    "provider" TEXT,
    "sourceLanguageId" INTEGER,
    "sourceCode" TEXT,
    "targetCode" TEXT,
    "formality" TEXT,
    "glossaryId" TEXT,
    "options" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AutoTranslationSetting_pkey" PRIMARY KEY ("languageId")
);

-- CreateIndex
CREATE INDEX "AutoTranslationSetting_projectId_idx" ON "AutoTranslationSetting"("projectId");

-- AddForeignKey
ALTER TABLE "AutoTranslationSetting" ADD CONSTRAINT "AutoTranslationSetting_languageId_fkey" FOREIGN KEY ("languageId") REFERENCES "Language"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AutoTranslationSetting" ADD CONSTRAINT "AutoTranslationSetting_sourceLanguageId_fkey" FOREIGN KEY ("sourceLanguageId") REFERENCES "Language"("id") ON DELETE SET NULL ON UPDATE CASCADE;
