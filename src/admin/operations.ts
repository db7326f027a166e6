// The operator's administration: accounts, personal tokens and plans. The
// command line runs these directly on the database when it may open it, and
// through the running service's admin API (src/http/admin.ts) otherwise;
// both take the same inputs and give the same answers.
import { prisma } from '../db.js';
import { badRequest, notFound } from '../errors.js';
import { createAccount as create, createPersonalToken, setAccountPlan } from '../accounts/accounts.js';
import { upsertPlan } from '../plans/plans.js';
import type { PlanLimits } from '../plans/catalogue.js';

export interface PlanInput {
  id: string;
  name: string;
  allowsPublishing: boolean;
  /** null: no limit. */
  maxCustomers: number | null;
  maxProjects: number | null;
}

export function createAccount(
  input: { email: string; password: string; plan?: string },
  defaultPlan: string,
): Promise<{ id: number; email: string }> {
  return create({ email: input.email, password: input.password, planId: input.plan }, defaultPlan);
}

export async function setPlan(input: { email: string; plan: string }): Promise<{ email: string; plan: string }> {
  await setAccountPlan(input.email, input.plan);
  return { email: input.email.toLowerCase(), plan: input.plan };
}

/** A new personal token of the account, shown this once (only its hash is kept). */
export async function createToken(input: { email: string; name?: string }): Promise<{ token: string }> {
  const account = await prisma().account.findUnique({
    where: { email: input.email.trim().toLowerCase() },
    select: { id: true },
  });
  if (!account) throw notFound(`No account with e-mail ${input.email}`);
  return { token: await createPersonalToken(account.id, input.name ?? 'cli') };
}

export function listPlans(): Promise<PlanLimits[]> {
  return prisma().plan.findMany({ orderBy: { id: 'asc' } });
}

export async function savePlan(input: PlanInput): Promise<PlanLimits> {
  if (!/^[a-z0-9][a-z0-9_-]{0,39}$/.test(input.id))
    throw badRequest('id must be 1-40 lowercase letters, digits, _ or -');
  if (!input.name.trim()) throw badRequest('name must not be empty');
  for (const limit of ['maxCustomers', 'maxProjects'] as const) {
    const value = input[limit];
    if (value !== null && (!Number.isInteger(value) || value < 0))
      throw badRequest(`${limit} must be a whole number or null (unlimited)`);
  }
  const plan: PlanLimits = { ...input, name: input.name.trim(), autoTranslation: true };
  await upsertPlan(plan);
  return plan;
}
