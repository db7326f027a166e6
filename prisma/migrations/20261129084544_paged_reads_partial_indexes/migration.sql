-- The filtered pages of GET /api/v2/translations (src/translations/cells.ts, matchCount): a key's cells with a text,
-- and its reviewed cells, counted from an index alone, key by key, along the walk to the page's first key.
-- CreateIndex
CREATE INDEX "Translation_filled_idx" ON "Translation"("keyId", "languageId") WHERE (text <> '');

-- CreateIndex
CREATE INDEX "Translation_reviewed_idx" ON "Translation"("keyId", "languageId") WHERE ("reviewStatus" = 'REVIEWED');
