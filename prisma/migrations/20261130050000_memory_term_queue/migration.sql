-- The word candidates of the translation memory ("MemoryTerm", migration 20261130010000_memory_terms) are brought
-- current off the write path (docs/translation-memory.md, "Keeping the terms current"). Kept by statement triggers,
-- they made writing 10,000 source texts into a memory of 2,000,000 pairs 6–10 times as slow as the "MemorySource"
-- insert alone: each text's ~17 terms land all over a 3.7M-entry index. Now the triggers note the written keys in
-- "MemoryTermQueue" (one small row each, appended to the queue's end), and the service's updater
-- (src/memory/term-updater.ts) brings their terms current in batches through memory_terms_catch_up(). A lookup
-- scores the queued keys' texts directly besides the candidates "MemoryTerm" gives (src/memory/suggest.ts), so a
-- text is found right after its write.
DO $$
BEGIN
  IF version() NOT LIKE '%wasm32%' THEN
    -- One row per write of a key's source text: the text whose terms "MemoryTerm" holds for it before that write
    -- (its language, length and text; null for a new key), which the updater deletes by recomputing them. No
    -- index but the primary key: the updater reads the queue in order, a lookup reads all of it.
    CREATE TABLE "MemoryTermQueue" (
      "id" BIGSERIAL PRIMARY KEY,
      "keyId" INTEGER NOT NULL,
      "languageId" INTEGER,
      "length" INTEGER,
      "text" TEXT
    );

    CREATE OR REPLACE FUNCTION memory_terms_inserted() RETURNS trigger LANGUAGE plpgsql AS $f$
    BEGIN
      INSERT INTO "MemoryTermQueue" ("keyId") SELECT "keyId" FROM inserted;
      RETURN NULL;
    END
    $f$;
    -- An update or a deletion: the old rows, whose terms go.
    CREATE OR REPLACE FUNCTION memory_terms_deleted() RETURNS trigger LANGUAGE plpgsql AS $f$
    BEGIN
      INSERT INTO "MemoryTermQueue" ("keyId", "languageId", "length", "text")
      SELECT "keyId", "languageId", length, text FROM deleted;
      RETURN NULL;
    END
    $f$;
    DROP TRIGGER "MemorySource_terms_updated" ON "MemorySource";
    CREATE TRIGGER "MemorySource_terms_updated" AFTER UPDATE ON "MemorySource"
      REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION memory_terms_deleted();
    DROP FUNCTION memory_terms_updated();

    -- One round of the updater: the terms of the first `batch` queue entries' keys brought current, in one
    -- transaction; returns the entries done (0: nothing to do now, or another session's round is under way).
    -- The keys' "MemorySource" rows are locked FOR SHARE first, so no write changes a text between reading it and
    -- the commit; a key a write holds (SKIP LOCKED) waits for a later round, which sees that write's own entry: the
    -- updater never waits for a writer, so it cannot deadlock with one. For each entry done the terms of its old
    -- text go, then the current text's terms go in (ON CONFLICT: an earlier round may have put some in already,
    -- when a write committed between its reading the queue and the text). A text's terms are put in only while the
    -- text is held, and the write that replaces it queues it as an old text afterwards: whatever the order of
    -- writes and rounds, the terms of a key end as its current text's.
    CREATE FUNCTION memory_terms_catch_up(batch integer) RETURNS integer LANGUAGE plpgsql VOLATILE AS $f$
    DECLARE
      seen bigint[];
      queued integer[];
      held integer[];
      present integer[];
      entries bigint[];
    BEGIN
      -- One round at a time across every instance (the number is this function's own).
      IF NOT pg_try_advisory_xact_lock(350001) THEN RETURN 0; END IF;
      SELECT array_agg(id), array_agg(DISTINCT "keyId") INTO seen, queued
        FROM (SELECT id, "keyId" FROM "MemoryTermQueue" ORDER BY id LIMIT batch) q;
      IF queued IS NULL THEN RETURN 0; END IF;
      SELECT coalesce(array_agg("keyId"), '{}') INTO held
        FROM (SELECT "keyId" FROM "MemorySource" WHERE "keyId" = ANY(queued) FOR SHARE SKIP LOCKED) s;
      SELECT coalesce(array_agg("keyId"), '{}') INTO present FROM "MemorySource" WHERE "keyId" = ANY(queued);
      -- Every entry of a held key this round can see (a write not yet committed queues its own for a later round);
      -- of a key with no text, the old texts, and the new-key entries seen before its text was found gone (a key
      -- inserted again since has a later entry, left for the round that finds its text).
      SELECT coalesce(array_agg(id), '{}') INTO entries FROM "MemoryTermQueue"
       WHERE "keyId" = ANY(held)
          OR ("keyId" = ANY(queued) AND NOT "keyId" = ANY(present) AND (text IS NOT NULL OR id = ANY(seen)));
      IF cardinality(entries) = 0 THEN RETURN 0; END IF;
      DELETE FROM "MemoryTerm" t
       USING (SELECT DISTINCT m.term, q."languageId", q.length, q."keyId"
                FROM "MemoryTermQueue" q, memory_terms(q.text) m WHERE q.id = ANY(entries)) o
       WHERE t.term = o.term AND t."languageId" = o."languageId" AND t.length = o.length AND t."keyId" = o."keyId";
      -- In the key's order: each leaf page of the index written once.
      INSERT INTO "MemoryTerm" ("term", "languageId", "length", "keyId")
      SELECT m.term, s."languageId", s.length, s."keyId" FROM "MemorySource" s, memory_terms(s.text) m
       WHERE s."keyId" = ANY(held) ORDER BY 1, 2, 3, 4 ON CONFLICT DO NOTHING;
      DELETE FROM "MemoryTermQueue" WHERE id = ANY(entries);
      RETURN cardinality(entries);
    END
    $f$;
  END IF;
END
$$;
