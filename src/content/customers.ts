// Customers of a project: owners of customer-specific translations. Overrides
// reference a customer by id, so a renamed customer keeps them; deleting a
// customer deletes its overrides (foreign-key cascade). The number of
// customers per project is limited by the owner's plan.
import { lockProject, prisma, type Db } from '../db.js';
import { conflict, isUniqueViolation, notFound, paymentRequired } from '../errors.js';
import { planOfProject } from '../plans/plans.js';
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
  if (!customer) throw notFound(`customer '${key}' not found`);
  return customer;
}

/** The id of a project's customer by key (404 when unknown), within a transaction when given one. */
export async function customerIdOf(projectId: number, key: string, db: Db = prisma()): Promise<number> {
  const rows = await db.$queryRaw<{ id: number }[]>(
    Prisma.sql`/* customers:id-of */ SELECT id FROM "Customer" WHERE "projectId" = ${projectId} AND key = ${key}`,
  );
  if (!rows[0]) throw notFound(`customer '${key}' not found`);
  return rows[0].id;
}

const duplicate = (key: string) => conflict(`customer '${key}' already exists`);

export async function createCustomer(projectId: number, input: CustomerInput): Promise<{ id: number }> {
  const key = identifier(input.key, 'key', LIMITS.customerKey);
  const description = optionalText(input.description, 'description', LIMITS.customerDescription) ?? '';
  try {
    return await prisma().$transaction(async (tx) => {
      // Serializes creations within the project, so concurrent requests cannot pass the plan's limit together.
      await lockProject(tx, projectId);
      if (await tx.customer.findUnique({ where: { projectId_key: { projectId, key } }, select: { id: true } }))
        throw duplicate(key);
      const plan = await planOfProject(projectId, tx);
      if (plan.maxCustomers !== null && (await tx.customer.count({ where: { projectId } })) >= plan.maxCustomers) {
        throw paymentRequired(
          `The ${plan.name} plan allows at most ${plan.maxCustomers} customers per project (maxCustomers)`,
        );
      }
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
  await recordDeletedCells(db, change, { customerIds });
  await db.$executeRaw(
    Prisma.sql`/* customers:remove */ DELETE FROM "Customer" WHERE id = ANY(${arrayLiteral(customerIds)}::int[])`,
  );
}

export async function deleteCustomer(projectId: number, key: string): Promise<void> {
  await prisma().$transaction(async (tx) => {
    const { count } = await tx.customer.deleteMany({ where: { projectId, key } });
    if (count === 0) throw notFound(`customer '${key}' not found`);
    await openChange(tx, projectId, 'CUSTOMERS', { action: 'DELETE_CUSTOMER', customer: key }, { edits: 1 });
  });
}
