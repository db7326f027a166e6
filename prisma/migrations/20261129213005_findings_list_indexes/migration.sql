-- DropIndex
DROP INDEX "Finding_projectId_check_languageId_idx";

-- DropIndex
DROP INDEX "Finding_projectId_severity_languageId_idx";

-- CreateIndex
CREATE INDEX "Finding_projectId_severity_keyId_languageId_check_n_idx" ON "Finding"("projectId", "severity", "keyId", "languageId", "check", "n");

-- CreateIndex
CREATE INDEX "Finding_projectId_languageId_check_severity_dismissed_idx" ON "Finding"("projectId", "languageId", "check", "severity", "dismissed");
