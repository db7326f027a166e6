// "Contains, ignoring case" in SQL: `column ILIKE '%text%'` with the text's own
// % _ and \ taken literally. ILIKE folds case as lower() does (the database's
// collation, so É matches é), and unlike strpos(lower(…)) a trigram index
// (pg_trgm on PostgreSQL, prisma/migrations/…_text_filter_trigram) can answer it.

/** The ILIKE pattern matching values that contain `text` (backslash is ILIKE's default escape). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
