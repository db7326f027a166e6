-- The exports sorted NEWEST_KEYS_LAST / NEWEST_KEYS_FIRST page through a project's keys by (createdAt, importOrder).
-- Without an index in that order each page sorted every key past the cursor: 9.5 s for an export of 200,000 keys
-- against 2.9 s in import order. With it a page reads its keys from the index, forwards or backwards.
CREATE INDEX "TranslationKey_projectId_createdAt_importOrder_idx" ON "TranslationKey"("projectId", "createdAt", "importOrder");
