-- The word candidates of a lookup (src/memory/suggest.ts, sourcesByTerms) in one function, planned with bitmap scans
-- off. The query's terms come from a CTE, so the planner estimates every term's texts at the average (about 140 in
-- the length window at 2,000,000 pairs) and read each with a bitmap scan and a sort rather than the primary key in
-- the length's order up to the limit: a common word's 3,000 texts read from the heap, 15 times for a 40-character
-- query (170 ms of the statement's 200; 8 ms in order, from the index alone). A function's SET applies to the
-- planning of its body and to nothing else.
DO $$
BEGIN
  IF version() NOT LIKE '%wasm32%' THEN
    -- The keys whose texts in the length window share the most terms of the query (pairs weigh more than words),
    -- those of the nearest length first among equals: for each term and source language at most `per_term` texts on
    -- each side of the query's length, the nearest first, then in the key's order (the primary key's own order: the
    -- same texts whatever the plan, where the length alone left which of equal lengths to the plan).
    CREATE FUNCTION memory_term_candidates(query text, languages integer[], query_length integer, min_length integer,
      max_length integer, exclude integer, per_term integer, query_terms integer, candidates integer)
    RETURNS TABLE ("keyId" integer) LANGUAGE sql STABLE PARALLEL SAFE
    SET enable_bitmapscan = off
    AS $f$
      WITH q AS MATERIALIZED (SELECT term, weight FROM memory_terms(query) ORDER BY weight DESC LIMIT query_terms),
      hits AS (
        SELECT h."keyId", h.length, q.weight
          FROM q CROSS JOIN unnest(languages) AS l(id)
         CROSS JOIN LATERAL (
           (SELECT t."keyId", t.length FROM "MemoryTerm" t
             WHERE t.term = q.term AND t."languageId" = l.id
               AND t.length BETWEEN greatest(min_length, query_length) AND max_length
             ORDER BY t.length ASC, t."keyId" ASC LIMIT per_term)
           UNION ALL
           (SELECT t."keyId", t.length FROM "MemoryTerm" t
             WHERE t.term = q.term AND t."languageId" = l.id
               AND t.length BETWEEN min_length AND least(max_length, query_length - 1)
             ORDER BY t.length DESC, t."keyId" DESC LIMIT per_term)) h
      )
      SELECT h."keyId" FROM hits h WHERE h."keyId" <> exclude
       GROUP BY h."keyId", h.length ORDER BY sum(h.weight) DESC, abs(h.length - query_length), h."keyId" LIMIT candidates
    $f$;
    -- The queue is read whole by every lookup and emptied by deletes: vacuumed soon after a batch leaves it.
    ALTER TABLE "MemoryTermQueue" SET (autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_scale_factor = 0);
  END IF;
END
$$;
