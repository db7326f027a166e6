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
