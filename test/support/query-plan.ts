// Reading PostgreSQL's EXPLAIN (FORMAT JSON) output in tests that bound what a statement reads.

export type PlanNode = Record<string, unknown> & { Plans?: PlanNode[] };

/** Rows each scan read over all its loops, by "relation alias". */
export function rowsRead(plan: PlanNode, out = new Map<string, number>()): Map<string, number> {
  if (plan['Relation Name']) {
    const name = `${plan['Relation Name'] as string} ${plan['Alias'] as string}`;
    out.set(name, (out.get(name) ?? 0) + (plan['Actual Rows'] as number) * (plan['Actual Loops'] as number));
  }
  for (const child of plan.Plans ?? []) rowsRead(child, out);
  return out;
}

/** What preparedPlan needs of a transaction (Prisma's transaction client). */
interface RawTx {
  $executeRawUnsafe(query: string): Promise<number>;
  $queryRawUnsafe<T>(query: string): Promise<T>;
}

/** A parameter as an SQL literal: EXECUTE takes its arguments so (a utility statement has no parameters of its own). */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (Array.isArray(value)) {
    // An array's elements quoted as PostgreSQL's array syntax wants them (NULL bare).
    const element = (v: unknown) =>
      v === null || v === undefined ? 'NULL' : `"${String(v as string | number).replace(/["\\]/g, '\\$&')}"`;
    return literal(`{${value.map(element).join(',')}}`);
  }
  return `'${String(value as string | number | bigint | boolean).replaceAll("'", "''")}'`;
}

/**
 * The plan PostgreSQL runs a statement with when it is prepared (as the service's named statements are), made in
 * `mode` (a generic plan: made without the parameters' values, as kept after five runs), and run (EXPLAIN
 * ANALYZE), in the caller's transaction.
 */
export async function preparedPlan(
  tx: RawTx,
  statement: { text: string; values: unknown[] },
  mode: 'force_generic_plan' | 'force_custom_plan',
): Promise<PlanNode> {
  await tx.$executeRawUnsafe(`PREPARE planned_statement AS ${statement.text}`);
  await tx.$executeRawUnsafe(`SET LOCAL plan_cache_mode = ${mode}`);
  const [row] = await tx.$queryRawUnsafe<{ 'QUERY PLAN': unknown }[]>(
    `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE planned_statement(${statement.values.map(literal).join(', ')})`,
  );
  await tx.$executeRawUnsafe('DEALLOCATE planned_statement');
  const plan = row!['QUERY PLAN'];
  return ((typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan: PlanNode }[])[0]!.Plan;
}

/**
 * How PostgreSQL planned a prepared statement over several executions: the first statement's text prepared, run
 * once with each statement's values (the same text, other parameters), in the caller's transaction. Answers the
 * executions planned for their values (custom) and run on the generic plan, and each execution's rows.
 */
export async function planChoices<T>(
  tx: RawTx,
  statements: readonly { text: string; values: unknown[] }[],
): Promise<{ generic: number; custom: number; rows: T[][] }> {
  await tx.$executeRawUnsafe(`PREPARE counted_statement AS ${statements[0]!.text}`);
  const rows: T[][] = [];
  for (const statement of statements)
    rows.push(await tx.$queryRawUnsafe<T[]>(`EXECUTE counted_statement(${statement.values.map(literal).join(', ')})`));
  const [row] = await tx.$queryRawUnsafe<{ generic: number; custom: number }[]>(
    `SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements WHERE name = 'counted_statement'`,
  );
  await tx.$executeRawUnsafe('DEALLOCATE counted_statement');
  return { ...row!, rows };
}
