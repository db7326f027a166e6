// Bulk statements take their columns as arrays (`unnest($2::text[], …)`).
// Passed as JavaScript arrays, every element is walked and copied by each
// layer under us: Prisma's raw-argument serialization and interpretation, its
// driver adapter's argument mapping, then pg's own array serialization, which
// builds the literal one concatenation at a time: for a large import, about
// half of all the bytes it allocated (docs/benchmarks.md, "Figures behind
// constants in the code"). As one text in PostgreSQL's array syntax the layers pass a
// single string through, and the statement's cast (`$2::text[]`, `$2::int[]`)
// parses it, the same on PostgreSQL and PGlite.

export type ArrayElement = string | number | boolean | null | undefined;

const NEEDS_ESCAPE = /["\\]/g;

function element(value: ArrayElement): string {
  if (value === null || value === undefined) return 'NULL';
  // Every text is quoted: an unquoted element would be trimmed, and NULL, {} or , would be read as syntax.
  if (typeof value === 'string') return `"${value.replace(NEEDS_ESCAPE, '\\$&')}"`;
  if (typeof value === 'number' && !Number.isFinite(value))
    throw new Error(`not a finite number in an array parameter: ${value}`);
  return String(value);
}

/** `values` (or `value` of each item) as a PostgreSQL array literal, for a parameter the statement casts to its array type. */
export function arrayLiteral(values: readonly ArrayElement[]): string;
export function arrayLiteral<T>(items: readonly T[], value: (item: T) => ArrayElement): string;
export function arrayLiteral<T>(items: readonly T[], value?: (item: T) => ArrayElement): string {
  return `{${items.map(value ? (item) => element(value(item)) : (item) => element(item as ArrayElement)).join(',')}}`;
}
