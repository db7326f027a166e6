// Vacuum and analyze of the embedded database. PGlite runs PostgreSQL as a
// single-user backend: no autovacuum launcher, so without this a table's dead
// row versions are never reclaimed (each REPLACE re-import leaves a dead
// version of every row it wrote: docs/benchmarks.md, "Figures behind constants
// in the code") and the planner never gets statistics. The service applies
// autovacuum's own rule, with the server's own settings (so a data directory's
// postgresql.conf tunes it as it would the launcher), every CHECK_MS:
//   vacuum  when dead rows > autovacuum_vacuum_threshold + autovacuum_vacuum_scale_factor × rows,
//           or rows inserted since the last vacuum > autovacuum_vacuum_insert_threshold
//              + autovacuum_vacuum_insert_scale_factor × rows (the visibility map, freezing),
//           or the table's oldest unfrozen transaction id is older than autovacuum_freeze_max_age;
//   analyze when rows changed since the last analyze > autovacuum_analyze_threshold
//              + autovacuum_analyze_scale_factor × rows.
// Each table is its own statement, between transactions (PGlite runs a
// statement only when no transaction holds it), so requests queue behind one
// table at a time, not behind all of them.
import type { PGlite } from '@electric-sql/pglite';
import { periodicPass, type PeriodicPass } from './periodic-pass.js';

const CHECK_MS = 60_000;

/** The tables due, by autovacuum's rule (pg_stat_all_tables; TOAST tables are vacuumed with theirs). */
const DUE = `
  WITH s AS (
    SELECT current_setting('autovacuum_vacuum_threshold')::float8 AS vt, current_setting('autovacuum_vacuum_scale_factor')::float8 AS vs,
           current_setting('autovacuum_vacuum_insert_threshold')::float8 AS it, current_setting('autovacuum_vacuum_insert_scale_factor')::float8 AS "is",
           current_setting('autovacuum_analyze_threshold')::float8 AS at, current_setting('autovacuum_analyze_scale_factor')::float8 AS "as",
           current_setting('autovacuum_freeze_max_age')::float8 AS fa
  ), t AS (
    SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) AS name, greatest(c.reltuples, 0) AS rows,
           st.n_dead_tup, st.n_ins_since_vacuum, st.n_mod_since_analyze, age(c.relfrozenxid) AS xid_age
      FROM pg_stat_all_tables st
      JOIN pg_class c ON c.oid = st.relid
      JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'm') AND n.nspname NOT IN ('pg_toast', 'information_schema') AND c.relpersistence = 'p'
  )
  SELECT name,
         (n_dead_tup > vt + vs * rows OR n_ins_since_vacuum > it + "is" * rows OR xid_age > fa) AS vacuum,
         n_mod_since_analyze > at + "as" * rows AS analyze
    FROM t, s
   WHERE n_dead_tup > vt + vs * rows OR n_ins_since_vacuum > it + "is" * rows OR xid_age > fa OR n_mod_since_analyze > at + "as" * rows
   ORDER BY name`;

export interface VacuumRun {
  vacuumed: string[];
  analyzed: string[];
}

export type Vacuum = PeriodicPass<VacuumRun>;

/** Checks every `checkMs` and vacuums and analyzes the tables due; check() answers which. */
export function startVacuum(pglite: PGlite, options: { checkMs?: number } = {}): Vacuum {
  return periodicPass('vacuum', options.checkMs ?? CHECK_MS, async (stopping) => {
    const run: VacuumRun = { vacuumed: [], analyzed: [] };
    const { rows } = await pglite.query<{ name: string; vacuum: boolean; analyze: boolean }>(DUE);
    for (const table of rows) {
      if (stopping()) break;
      await pglite.exec(
        table.vacuum ? `VACUUM ${table.analyze ? '(ANALYZE) ' : ''}${table.name}` : `ANALYZE ${table.name}`,
      );
      if (table.vacuum) run.vacuumed.push(table.name);
      if (table.analyze) run.analyzed.push(table.name);
    }
    return run;
  });
}
