import { prisma, type Db } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';
import { paymentRequired } from '../errors.js';
import { BUILT_IN_PLANS, type PlanLimits } from './catalogue.js';

export async function seedPlans(): Promise<void> {
  for (const plan of BUILT_IN_PLANS) {
    await prisma().plan.upsert({ where: { id: plan.id }, create: plan, update: {} });
  }
}

export async function upsertPlan(plan: PlanLimits): Promise<void> {
  await prisma().plan.upsert({ where: { id: plan.id }, create: plan, update: plan });
}

/** The plan of the account owning a project. */
export async function planOfProject(projectId: number, db: Db = prisma()): Promise<PlanLimits> {
  const rows = await db.$queryRaw<PlanLimits[]>(Prisma.sql`/* plans:of-project */
    SELECT pl.id, pl.name, pl."allowsPublishing", pl."maxCustomers", pl."maxProjects", pl."autoTranslation"
       FROM "Project" p JOIN "Account" a ON a.id = p."ownerId" JOIN "Plan" pl ON pl.id = a."planId"
      WHERE p.id = ${projectId}`);
  if (!rows[0]) throw new Error(`No plan for project ${projectId}`);
  return rows[0];
}

export async function assertPublishingAllowed(
  projectId: number,
  what = 'Publishing',
  db: Db = prisma(),
): Promise<void> {
  const plan = await planOfProject(projectId, db);
  if (!plan.allowsPublishing)
    throw paymentRequired(`${what} is not included in the ${plan.name} plan; it needs a paid plan`);
}
