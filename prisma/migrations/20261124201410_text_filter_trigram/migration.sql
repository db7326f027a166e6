-- Trigram indexes for the case-insensitive "contains" filters (ILIKE '%…%'): the editor's text and key filters and the v2 query's text filter.
-- pg_trgm ships with PostgreSQL (contrib, a trusted extension since 13: the database owner may create it); the embedded PGlite loads it (src/db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- CreateIndex
CREATE INDEX "Translation_text_idx" ON "Translation" USING GIN ("text" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "TranslationKey_key_idx" ON "TranslationKey" USING GIN ("key" gin_trgm_ops);
