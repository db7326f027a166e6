-- CreateTable
CREATE TABLE "Screenshot" (
    "id" SERIAL NOT NULL,
    "projectId" INTEGER NOT NULL,
    "storageFolder" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "mimeType" TEXT NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "bytes" INTEGER NOT NULL,
    "thumbnailWidth" INTEGER NOT NULL,
    "thumbnailHeight" INTEGER NOT NULL,
    "thumbnailBytes" INTEGER NOT NULL,
    "createdById" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Screenshot_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "KeyScreenshot" (
    "id" SERIAL NOT NULL,
    "keyId" INTEGER NOT NULL,
    "screenshotId" INTEGER NOT NULL,
    "x" INTEGER NOT NULL,
    "y" INTEGER NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "KeyScreenshot_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ScreenshotDeletion" (
    "folder" TEXT NOT NULL,
    "notBefore" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ScreenshotDeletion_pkey" PRIMARY KEY ("folder")
);

-- CreateIndex
CREATE UNIQUE INDEX "Screenshot_storageFolder_key" ON "Screenshot"("storageFolder");

-- CreateIndex
CREATE INDEX "Screenshot_projectId_id_idx" ON "Screenshot"("projectId", "id");

-- CreateIndex
CREATE INDEX "KeyScreenshot_keyId_idx" ON "KeyScreenshot"("keyId");

-- CreateIndex
CREATE INDEX "KeyScreenshot_screenshotId_idx" ON "KeyScreenshot"("screenshotId");

-- CreateIndex
CREATE INDEX "ScreenshotDeletion_notBefore_idx" ON "ScreenshotDeletion"("notBefore");

-- AddForeignKey
ALTER TABLE "Screenshot" ADD CONSTRAINT "Screenshot_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Screenshot" ADD CONSTRAINT "Screenshot_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "Account"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "KeyScreenshot" ADD CONSTRAINT "KeyScreenshot_keyId_fkey" FOREIGN KEY ("keyId") REFERENCES "TranslationKey"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "KeyScreenshot" ADD CONSTRAINT "KeyScreenshot_screenshotId_fkey" FOREIGN KEY ("screenshotId") REFERENCES "Screenshot"("id") ON DELETE CASCADE ON UPDATE CASCADE;
