-- Trigram indexes for the case-insensitive "contains" filters (ILIKE '%…%'): the editor's text and key filters and the v2 query's text filter.
-- pg_trgm ships with PostgreSQL (contrib, a trusted extension since 13: the database owner may create it).
-- PostgreSQL only: on the embedded PGlite (PostgreSQL compiled to WebAssembly), keeping these GIN indexes up to date
-- made a REPLACE re-import of 100,000 cells run for over ten minutes (about 11 s without them), so there the filters scan.
-- Declared here rather than in schema.prisma, which describes what every database has.
DO $$
BEGIN
  IF version() NOT LIKE '%wasm32%' THEN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE INDEX "Translation_text_idx" ON "Translation" USING GIN ("text" gin_trgm_ops);
    CREATE INDEX "TranslationKey_key_idx" ON "TranslationKey" USING GIN ("key" gin_trgm_ops);
  END IF;
END
$$;
