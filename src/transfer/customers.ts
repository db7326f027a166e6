// Customers a simplelocalize-json file brings are created by its import, in
// one statement, within the plan's customers per project. (The `customerId`
// parameter of import and export names an existing customer: it is never
// created, see src/customers/customers.ts customerIdOf.)
import type { Db } from '../db.js';
import { paymentRequired } from '../errors.js';
import { planOfProject } from '../plans/plans.js';

/** Customer key → id, creating the missing ones (402 beyond the plan's customers per project). */
export async function ensureCustomers(
  db: Db,
  projectId: number,
  customers: { key: string; description?: string }[],
  change: { id: bigint } | null,
): Promise<Map<string, number>> {
  const unique = [...new Map(customers.map((c) => [c.key, c])).values()];
  if (unique.length === 0) return new Map();
  const existing = await db.$queryRawUnsafe<{ key: string }[]>(
    `SELECT key FROM "Customer" WHERE "projectId" = $1 AND key = ANY($2::text[])`,
    projectId,
    unique.map((c) => c.key),
  );
  const known = new Set(existing.map((r) => r.key));
  const missing = unique.filter((c) => !known.has(c.key));
  if (missing.length > 0) {
    // Serializes customer creation within the project (as createCustomer does), so the limit holds under concurrency.
    await db.$queryRawUnsafe(`SELECT id FROM "Project" WHERE id = $1 FOR UPDATE`, projectId);
    const plan = await planOfProject(projectId, db);
    if (plan.maxCustomers != null) {
      const [{ count }] = (await db.$queryRawUnsafe<{ count: number }[]>(
        `SELECT count(*)::int AS count FROM "Customer" WHERE "projectId" = $1`,
        projectId,
      )) as [{ count: number }];
      if (count + missing.length > plan.maxCustomers) {
        throw paymentRequired(
          `The ${plan.name} plan allows at most ${plan.maxCustomers} customers per project; the file brings ${missing.length} new customer(s) to the ${count} existing`,
        );
      }
    }
    await db.$executeRawUnsafe(
      `INSERT INTO "Customer" ("projectId", key, description, "createdByChange")
       SELECT $1, k, coalesce(d, ''), $4::bigint FROM unnest($2::text[], $3::text[]) AS t(k, d)
       ON CONFLICT ("projectId", key) DO NOTHING`,
      projectId,
      missing.map((c) => c.key),
      missing.map((c) => c.description ?? null),
      change?.id ?? null,
    );
  }
  const rows = await db.$queryRawUnsafe<{ id: number; key: string }[]>(
    `SELECT id, key FROM "Customer" WHERE "projectId" = $1 AND key = ANY($2::text[])`,
    projectId,
    unique.map((c) => c.key),
  );
  return new Map(rows.map((r) => [r.key, r.id]));
}
