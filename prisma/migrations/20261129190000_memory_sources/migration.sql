-- The translation memory's source texts on PostgreSQL (docs/translation-memory.md, "The trigram index on each
-- database"). A suggestion's score is one minus the edit distance over the longer normalised text, so a stored text
-- can reach the asked minimum score only if its normalised length is within a window around the query's
-- (src/memory/normalize.ts, lengthWindow). The lookup searches a GiST trigram index led by that length, over the
-- default-language texts alone, instead of the text filter's GIN index over every language's text.

-- The length of a text as src/memory/normalize.ts normalises it (each tag, placeholder and number one character,
-- whitespace runs one space, ends trimmed): the same patterns, with \w, \d and \s spelled out as JavaScript reads
-- them. test/api/memory-length-window.test.ts checks the two agree. On both databases (a function costs nothing
-- until called); the table, triggers and indexes below are PostgreSQL's only.
CREATE FUNCTION memory_length(t text) RETURNS integer LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $f$
  SELECT char_length(btrim(regexp_replace(regexp_replace(t,
    '</?[A-Za-z][A-Za-z0-9_:.-]*(?:[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff][^<>]*)?/?>'
    || '|\{\{[^{}]*\}\}|\{[^{}]*\}|\$\{[^{}]*\}|%(?:\([A-Za-z0-9_]+\))?(?:[0-9]+\$)?[-+ 0#]*[0-9]*(?:\.[0-9]+)?[sdifuxXeEgGcp@]'
    || '|[0-9]+(?:[.,][0-9]+)*', 'x', 'g'),
    '[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+', ' ', 'g'), ' '))
$f$;

-- PostgreSQL only: PGlite keeps the memory's n-gram index in process (src/memory/ngram-index.ts), and a trigram
-- index kept current during its bulk writes was measured far too slow there (migration 20261124201410).
-- "MemorySource" is derived data, like an index: each key's text in its project's default language with its
-- normalised length, written only by the triggers below, so every path that writes Translation (the write gate,
-- deletions, another default language) keeps it current in the same statement, on every instance.
DO $$
BEGIN
  IF version() NOT LIKE '%wasm32%' THEN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE EXTENSION IF NOT EXISTS btree_gist;

    CREATE TABLE "MemorySource" (
      "keyId" INTEGER NOT NULL PRIMARY KEY,
      "languageId" INTEGER NOT NULL,
      "projectId" INTEGER NOT NULL,
      "text" TEXT NOT NULL,
      "length" INTEGER NOT NULL
    );
    INSERT INTO "MemorySource" ("keyId", "languageId", "projectId", "text", "length")
    SELECT t."keyId", t."languageId", t."projectId", t.text, memory_length(t.text)
      FROM "Translation" t JOIN "Language" l ON l.id = t."languageId" AND l."isDefault";
    -- Length first: a lookup reads only the texts of lengths that can reach its minimum score.
    CREATE INDEX "MemorySource_length_text_idx" ON "MemorySource" USING GIST ("length", "text" gist_trgm_ops);

    CREATE FUNCTION memory_sources_written() RETURNS trigger LANGUAGE plpgsql AS $f$
    BEGIN
      INSERT INTO "MemorySource" ("keyId", "languageId", "projectId", "text", "length")
      SELECT w."keyId", w."languageId", w."projectId", w.text, memory_length(w.text)
        FROM written w JOIN "Language" l ON l.id = w."languageId" AND l."isDefault"
      ON CONFLICT ("keyId") DO UPDATE
        SET "languageId" = EXCLUDED."languageId", "projectId" = EXCLUDED."projectId",
            "text" = EXCLUDED."text", "length" = EXCLUDED."length"
        WHERE "MemorySource"."text" IS DISTINCT FROM EXCLUDED."text"
           OR "MemorySource"."languageId" <> EXCLUDED."languageId";
      RETURN NULL;
    END
    $f$;
    CREATE FUNCTION memory_sources_deleted() RETURNS trigger LANGUAGE plpgsql AS $f$
    BEGIN
      DELETE FROM "MemorySource" m USING deleted d WHERE m."keyId" = d."keyId" AND m."languageId" = d."languageId";
      RETURN NULL;
    END
    $f$;
    -- Statement-level with transition tables: one set-based statement per write, whatever its number of cells.
    CREATE TRIGGER "Translation_memory_inserted" AFTER INSERT ON "Translation"
      REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION memory_sources_written();
    CREATE TRIGGER "Translation_memory_updated" AFTER UPDATE ON "Translation"
      REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION memory_sources_written();
    CREATE TRIGGER "Translation_memory_deleted" AFTER DELETE ON "Translation"
      REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION memory_sources_deleted();

    -- Another default language: its texts become the sources, the former default's stop being ones.
    CREATE FUNCTION memory_sources_default_changed() RETURNS trigger LANGUAGE plpgsql AS $f$
    BEGIN
      IF NEW."isDefault" THEN
        INSERT INTO "MemorySource" ("keyId", "languageId", "projectId", "text", "length")
        SELECT t."keyId", t."languageId", t."projectId", t.text, memory_length(t.text)
          FROM "Translation" t WHERE t."languageId" = NEW.id
        ON CONFLICT ("keyId") DO UPDATE
          SET "languageId" = EXCLUDED."languageId", "projectId" = EXCLUDED."projectId",
              "text" = EXCLUDED."text", "length" = EXCLUDED."length";
      ELSE
        DELETE FROM "MemorySource" WHERE "languageId" = NEW.id;
      END IF;
      RETURN NULL;
    END
    $f$;
    CREATE TRIGGER "Language_memory_default" AFTER UPDATE OF "isDefault" ON "Language"
      FOR EACH ROW WHEN (OLD."isDefault" IS DISTINCT FROM NEW."isDefault")
      EXECUTE FUNCTION memory_sources_default_changed();


    -- Imported segments: the same window over an expression index (their rows are written by the TMX import only).
    DROP INDEX IF EXISTS "MemorySegment_source_idx";
    CREATE INDEX "MemorySegment_length_source_idx" ON "MemorySegment"
      USING GIST (memory_length("source"), "source" gist_trgm_ops);
  END IF;
END
$$;
