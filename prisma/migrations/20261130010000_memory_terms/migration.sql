-- Word candidates for the translation memory on PostgreSQL (docs/translation-memory.md, "Candidates"). Over texts
-- drawn from a common vocabulary every long text shares most of its trigrams with every other, so the trigram index
-- of "MemorySource" could not prune a long query (it read nearly all of it) and its similarity threshold dropped
-- close matches. "MemoryTerm" is an inverted index of each source text's words, word pairs and pairs of words one
-- apart: a text differing from the query by a word still shares most of its pairs, and a pair is rare.

-- The words of a text as the memory compares it: placeholders, numbers and tags (src/memory/normalize.ts, the same
-- patterns as memory_length) and every run of characters other than letters and digits separate words; lower case.
-- The query's words are read by the same function, so the two sides agree whatever the language.
CREATE FUNCTION memory_words(t text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $f$
  SELECT array_remove(regexp_split_to_array(lower(regexp_replace(t,
    '</?[A-Za-z][A-Za-z0-9_:.-]*(?:[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff][^<>]*)?/?>'
    || '|\{\{[^{}]*\}\}|\{[^{}]*\}|\$\{[^{}]*\}|%(?:\([A-Za-z0-9_]+\))?(?:[0-9]+\$)?[-+ 0#]*[0-9]*(?:\.[0-9]+)?[sdifuxXeEgGcp@]'
    || '|[0-9]+(?:[.,][0-9]+)*', ' ', 'g')), '[^[:alnum:]]+'), '')
$f$;

-- A term's number: the first 32 bits of its md5 (hashtext is not promised to stay the same across major versions,
-- and a stored term must match the query's after an upgrade).
CREATE FUNCTION memory_term_hash(s text) RETURNS integer LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $f$
  SELECT ('x' || left(md5(s), 8))::bit(32)::integer
$f$;

-- A text's terms, each a hash (memory_term_hash) with the weight a shared one counts for when candidates are ranked: a word 1,
-- two words one after the other 3, two words with one between them 2 (what is left of "a b c" when b is replaced);
-- each once. A loop: the same in SQL (generate_subscripts, GROUP BY) cost ten times as much on the write path.
CREATE FUNCTION memory_terms(t text) RETURNS TABLE (term integer, weight integer)
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  w text[] := memory_words(t);
  n integer := cardinality(w);
  seen integer[] := '{}';
  h integer;
BEGIN
  FOR i IN 1 .. n LOOP
    FOR k IN 0 .. 2 LOOP
      CONTINUE WHEN i + k > n;
      h := memory_term_hash(CASE k WHEN 0 THEN w[i] WHEN 1 THEN w[i] || ' ' || w[i + 1] ELSE w[i] || ' _ ' || w[i + 2] END);
      CONTINUE WHEN h = ANY (seen);
      seen := seen || h;
      term := h;
      weight := CASE k WHEN 0 THEN 1 WHEN 1 THEN 3 ELSE 2 END;
      RETURN NEXT;
    END LOOP;
  END LOOP;
END
$$;

DO $$
BEGIN
  IF version() NOT LIKE '%wasm32%' THEN
    -- Derived from "MemorySource" by the triggers below, as that table is from "Translation". The primary key is the
    -- lookup's index: one term of one default language, its texts by normalised length, read from the index alone,
    -- the lengths nearest the query's first. Deleting a text's terms computes them again from its old text, so the
    -- deletion probes the same key (no second index to keep on the write path).
    CREATE TABLE "MemoryTerm" (
      "term" INTEGER NOT NULL,
      "languageId" INTEGER NOT NULL,
      "length" INTEGER NOT NULL,
      "keyId" INTEGER NOT NULL
    );
    INSERT INTO "MemoryTerm" ("term", "languageId", "length", "keyId")
    SELECT m.term, s."languageId", s.length, s."keyId" FROM "MemorySource" s, memory_terms(s.text) m;
    -- Built once over the rows rather than kept during the insert.
    ALTER TABLE "MemoryTerm" ADD PRIMARY KEY ("term", "languageId", "length", "keyId");

    CREATE FUNCTION memory_terms_inserted() RETURNS trigger LANGUAGE plpgsql AS $f$
    BEGIN
      INSERT INTO "MemoryTerm" ("term", "languageId", "length", "keyId")
      SELECT m.term, n."languageId", n.length, n."keyId" FROM inserted n, memory_terms(n.text) m ORDER BY 1, 2, 3, 4;
      RETURN NULL;
    END
    $f$;
    CREATE FUNCTION memory_terms_deleted() RETURNS trigger LANGUAGE plpgsql AS $f$
    BEGIN
      DELETE FROM "MemoryTerm" t USING deleted o, memory_terms(o.text) m
       WHERE t.term = m.term AND t."languageId" = o."languageId" AND t.length = o.length AND t."keyId" = o."keyId";
      RETURN NULL;
    END
    $f$;
    CREATE FUNCTION memory_terms_updated() RETURNS trigger LANGUAGE plpgsql AS $f$
    BEGIN
      DELETE FROM "MemoryTerm" t USING deleted o, memory_terms(o.text) m
       WHERE t.term = m.term AND t."languageId" = o."languageId" AND t.length = o.length AND t."keyId" = o."keyId";
      INSERT INTO "MemoryTerm" ("term", "languageId", "length", "keyId")
      SELECT m.term, n."languageId", n.length, n."keyId" FROM inserted n, memory_terms(n.text) m ORDER BY 1, 2, 3, 4;
      RETURN NULL;
    END
    $f$;
    -- Statement-level with transition tables, like "MemorySource"'s own: one set-based statement per write. The rows
    -- go in in the key's order: a text's terms land all over the index, and in order each leaf page is written once
    -- per statement (10,000 texts into 2,000,000: 9 s against 15–22 s unordered, under load).
    CREATE TRIGGER "MemorySource_terms_inserted" AFTER INSERT ON "MemorySource"
      REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION memory_terms_inserted();
    CREATE TRIGGER "MemorySource_terms_updated" AFTER UPDATE ON "MemorySource"
      REFERENCING OLD TABLE AS deleted NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION memory_terms_updated();
    CREATE TRIGGER "MemorySource_terms_deleted" AFTER DELETE ON "MemorySource"
      REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION memory_terms_deleted();
  END IF;
END
$$;
