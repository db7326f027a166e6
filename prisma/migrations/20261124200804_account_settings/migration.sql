-- AlterTable
ALTER TABLE "PersonalToken" ADD COLUMN     "expiresAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "Session" ADD COLUMN     "userAgent" TEXT NOT NULL DEFAULT '';
