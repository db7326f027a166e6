-- The paged lists read along an index in their order, the id (their tie-break) included: the keys' sorts and
-- the activity log (read backwards). The former (projectId, importOrder) and (projectId, at) indexes are prefixes.
DROP INDEX "TranslationKey_projectId_importOrder_idx";
CREATE INDEX "TranslationKey_projectId_importOrder_id_idx" ON "TranslationKey"("projectId", "importOrder", "id");
CREATE INDEX "TranslationKey_projectId_lastSeenAt_id_idx" ON "TranslationKey"("projectId", "lastSeenAt" DESC, "id");
CREATE INDEX "TranslationKey_projectId_modifiedAt_id_idx" ON "TranslationKey"("projectId", "modifiedAt" DESC, "id");
CREATE INDEX "TranslationKey_projectId_createdAt_id_idx" ON "TranslationKey"("projectId", "createdAt" DESC, "id");
DROP INDEX "Activity_projectId_at_idx";
CREATE INDEX "Activity_projectId_at_id_idx" ON "Activity"("projectId", "at", "id");
