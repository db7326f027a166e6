-- AlterTable
ALTER TABLE "TranslationKey" ADD COLUMN     "filePath" TEXT NOT NULL DEFAULT '';
