// Customers of a project: owners of customer-specific translations. Overrides
// reference a customer by id, so a renamed customer keeps them; deleting a
// customer deletes its overrides (foreign-key cascade). The number of
// customers per project is limited by the owner's plan (checkCustomerLimit),
// for the two ways a customer is created: one by the API (createCustomer) and
// those a simplelocalize-json file brings, by its import (ensureCustomers).
// The `customerId` parameter of import and export names an existing customer:
// it is never created (customerIdOf).
import { lockProject, lockProjectContent, prisma, type Db } from '../db.js';
import { conflict, isUniqueViolation, notFound, paymentRequired, said } from '../errors.js';
import { planOfProject } from '../plans/plans.js';
import type { PlanLimits } from '../plans/catalogue.js';
import { Prisma } from '../generated/prisma/client.js';
import { arrayLiteral } from '../db/array-literal.js';
import { openChange, recordDeletedCells, type Change } from './changes.js';
import { identifier, LIMITS, optionalText } from './translations/fields.js';

export interface CustomerInput {
  key?: string | null;
  description?: string | null;
}

export async function customerOfProject(projectId: number, key: string) {
  const customer = await prisma().customer.findUnique({ where: { projectId_key: { projectId, key } } });
  if (!customer) throw notFound(said('customer-not-found', { customer: key }));
  return customer;
}

/** The id of a project's customer by key (404 when unknown), within a transaction when given one. */
export async function customerIdOf(projectId: number, key: string, db: Db = prisma()): Promise<number> {
  const rows = await db.$queryRaw<{ id: number }[]>(
    Prisma.sql`/* customers:id-of */ SELECT id FROM "Customer" WHERE "projectId" = ${projectId} AND key = ${key}`,
  );
  if (!rows[0]) throw notFound(said('customer-not-found', { customer: key }));
  return rows[0].id;
}

const duplicate = (key: string) => conflict(said('customer-exists', { customer: key }));

/**
 * The plan's customers per project, for `adding` more: 402 beyond it, worded
 * by `refusal`. The caller holds the project's lock (lockProject), so
 * creations within the project are serialized and concurrent ones cannot pass
 * the limit together.
 */
async function checkCustomerLimit(
  db: Db,
  projectId: number,
  adding: number,
  refusal: (plan: PlanLimits, existing: number) => string,
): Promise<void> {
  const plan = await planOfProject(projectId, db);
  if (plan.maxCustomers === null) return;
  const [{ count }] = (await db.$queryRaw<{ count: number }[]>(
    Prisma.sql`/* customers:count */ SELECT count(*)::int AS count FROM "Customer" WHERE "projectId" = ${projectId}`,
  )) as [{ count: number }];
  if (count + adding > plan.maxCustomers) throw paymentRequired(refusal(plan, count));
}

export async function createCustomer(projectId: number, input: CustomerInput): Promise<{ id: number }> {
  const key = identifier(input.key, 'key', LIMITS.customerKey);
  const description = optionalText(input.description, 'description', LIMITS.customerDescription) ?? '';
  try {
    return await prisma().$transaction(async (tx) => {
      await lockProject(tx, projectId);
      if (await tx.customer.findUnique({ where: { projectId_key: { projectId, key } }, select: { id: true } }))
        throw duplicate(key);
      await checkCustomerLimit(
        tx,
        projectId,
        1,
        (plan) => `The ${plan.name} plan allows at most ${plan.maxCustomers} customers per project (maxCustomers)`,
      );
      const change = await openChange(
        tx,
        projectId,
        'CUSTOMERS',
        { action: 'CREATE_CUSTOMER', customer: key },
        { edits: 1 },
      );
      return tx.customer.create({
        data: { projectId, key, description, createdByChange: change.id },
        select: { id: true },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(key);
    throw error;
  }
}

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
    await lockProject(db, projectId);
    await checkCustomerLimit(
      db,
      projectId,
      missing.length,
      (plan, count) =>
        `The ${plan.name} plan allows at most ${plan.maxCustomers} customers per project; the file brings ${missing.length} new customer(s) to the ${count} existing`,
    );
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

/** Renames the customer (its translations follow) and/or changes its description. */
export async function updateCustomer(
  projectId: number,
  currentKey: string,
  input: CustomerInput,
): Promise<{ id: number }> {
  const customer = await customerOfProject(projectId, currentKey);
  const key =
    input.key === undefined || input.key === null ? undefined : identifier(input.key, 'key', LIMITS.customerKey);
  const description = optionalText(input.description, 'description', LIMITS.customerDescription);
  try {
    await prisma().$transaction(async (tx) => {
      if (
        key !== undefined &&
        key !== customer.key &&
        (await tx.customer.findUnique({ where: { projectId_key: { projectId, key } }, select: { id: true } }))
      ) {
        throw duplicate(key);
      }
      await openChange(
        tx,
        projectId,
        'CUSTOMERS',
        {
          action: 'CHANGE_CUSTOMER',
          customer: customer.key,
          ...(key !== undefined && key !== customer.key ? { newKey: key } : {}),
        },
        { edits: 1 },
      );
      await tx.customer.update({
        where: { id: customer.id },
        data: { ...(key !== undefined ? { key } : {}), ...(description !== undefined ? { description } : {}) },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(key ?? currentKey);
    throw error;
  }
  return { id: customer.id };
}

/**
 * Deletes customers (by id) with their overrides, after recording the texts in
 * `change`; callers pick them in the same transaction.
 */
export async function removeCustomers(db: Db, change: Change, customerIds: number[]): Promise<void> {
  if (customerIds.length === 0) return;
  await lockProjectContent(db, change.projectId);
  await recordDeletedCells(db, change, { customerIds });
  await db.$executeRaw(
    Prisma.sql`/* customers:remove */ DELETE FROM "Customer" WHERE id = ANY(${arrayLiteral(customerIds)}::int[])`,
  );
}

export async function deleteCustomer(projectId: number, key: string): Promise<void> {
  await prisma().$transaction(async (tx) => {
    await lockProjectContent(tx, projectId);
    const { count } = await tx.customer.deleteMany({ where: { projectId, key } });
    if (count === 0) throw notFound(said('customer-not-found', { customer: key }));
    await openChange(tx, projectId, 'CUSTOMERS', { action: 'DELETE_CUSTOMER', customer: key }, { edits: 1 });
  });
}
