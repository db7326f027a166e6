// Customers a simplelocalize-json file brings are created by its import, in
// one statement, within the plan's customers per project. (The `customerId`
// parameter of import and export names an existing customer: it is never
// created, see src/content/customers.ts customerIdOf.)
import { lockProject, type Db } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';
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
  const existing = await db.$queryRaw<{ key: string }[]>(
    Prisma.sql`/* customers:existing */ SELECT key FROM "Customer" WHERE "projectId" = ${projectId} AND key = ANY(${unique.map((c) => c.key)}::text[])`,
  );
  const known = new Set(existing.map((r) => r.key));
  const missing = unique.filter((c) => !known.has(c.key));
  if (missing.length > 0) {
    // Serializes customer creation within the project (as createCustomer does), so the limit holds under concurrency.
    await lockProject(db, projectId);
    const plan = await planOfProject(projectId, db);
    if (plan.maxCustomers != null) {
      const [{ count }] = (await db.$queryRaw<{ count: number }[]>(
        Prisma.sql`/* customers:count */ SELECT count(*)::int AS count FROM "Customer" WHERE "projectId" = ${projectId}`,
      )) as [{ count: number }];
      if (count + missing.length > plan.maxCustomers) {
        throw paymentRequired(
          `The ${plan.name} plan allows at most ${plan.maxCustomers} customers per project; the file brings ${missing.length} new customer(s) to the ${count} existing`,
        );
      }
    }
    await db.$executeRaw(
      Prisma.sql`/* customers:create */ INSERT INTO "Customer" ("projectId", key, description, "createdByChange")
       SELECT ${projectId}::int, k, coalesce(d, ''), ${change?.id ?? null}::bigint
         FROM unnest(${missing.map((c) => c.key)}::text[], ${missing.map((c) => c.description ?? null)}::text[]) AS t(k, d)
       ON CONFLICT ("projectId", key) DO NOTHING`,
    );
  }
  const rows = await db.$queryRaw<{ id: number; key: string }[]>(
    Prisma.sql`/* customers:ids */ SELECT id, key FROM "Customer" WHERE "projectId" = ${projectId} AND key = ANY(${unique.map((c) => c.key)}::text[])`,
  );
  return new Map(rows.map((r) => [r.key, r.id]));
}
