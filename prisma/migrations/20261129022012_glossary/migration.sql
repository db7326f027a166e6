-- CreateTable
CREATE TABLE "Glossary" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "sourceLanguage" TEXT NOT NULL,
    "projectId" INTEGER,
    "ownerId" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Glossary_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GlossaryLink" (
    "glossaryId" INTEGER NOT NULL,
    "projectId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "GlossaryLink_pkey" PRIMARY KEY ("glossaryId","projectId")
);

-- CreateTable
CREATE TABLE "GlossaryTerm" (
    "id" SERIAL NOT NULL,
    "glossaryId" INTEGER NOT NULL,
    "term" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "partOfSpeech" TEXT NOT NULL DEFAULT '',
    "forbidden" BOOLEAN NOT NULL DEFAULT false,
    "doNotTranslate" BOOLEAN NOT NULL DEFAULT false,
    "caseSensitive" BOOLEAN NOT NULL DEFAULT false,
    "abbreviation" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "GlossaryTerm_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GlossaryTranslation" (
    "termId" INTEGER NOT NULL,
    "language" TEXT NOT NULL,
    "text" TEXT NOT NULL,

    CONSTRAINT "GlossaryTranslation_pkey" PRIMARY KEY ("termId","language")
);

-- CreateIndex
CREATE UNIQUE INDEX "Glossary_projectId_key" ON "Glossary"("projectId");

-- CreateIndex
CREATE INDEX "GlossaryLink_projectId_idx" ON "GlossaryLink"("projectId");

-- CreateIndex
CREATE UNIQUE INDEX "GlossaryTerm_glossaryId_term_partOfSpeech_key" ON "GlossaryTerm"("glossaryId", "term", "partOfSpeech");

-- AddForeignKey
ALTER TABLE "Glossary" ADD CONSTRAINT "Glossary_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GlossaryLink" ADD CONSTRAINT "GlossaryLink_glossaryId_fkey" FOREIGN KEY ("glossaryId") REFERENCES "Glossary"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GlossaryLink" ADD CONSTRAINT "GlossaryLink_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GlossaryTerm" ADD CONSTRAINT "GlossaryTerm_glossaryId_fkey" FOREIGN KEY ("glossaryId") REFERENCES "Glossary"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GlossaryTranslation" ADD CONSTRAINT "GlossaryTranslation_termId_fkey" FOREIGN KEY ("termId") REFERENCES "GlossaryTerm"("id") ON DELETE CASCADE ON UPDATE CASCADE;
