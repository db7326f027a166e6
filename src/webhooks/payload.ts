// The body of a delivery, as the vendor's users know it: trigger, project,
// account, job and environment, and changes[] — each written cell
// (CHANGE_TRANSLATION) and each key action (CREATE_KEY, CHANGE_KEY,
// DELETE_KEY) — capped at MAX_CHANGES with the total in changesCount.
import { prisma } from '../db.js';
import { activityEntry, cellsOfActivity } from '../history/activity-log.js';

/** Changes listed in one payload; changesCount always has the total. */
export const MAX_CHANGES = 500;

export interface PayloadChange {
  action: 'CREATE_KEY' | 'CHANGE_KEY' | 'DELETE_KEY' | 'CHANGE_TRANSLATION';
  key: string;
  namespace: string;
  languageKey?: string | null;
  customerKey?: string | null;
  oldTranslation?: string | null;
  newTranslation?: string;
  oldReviewStatus?: string | null;
  reviewStatus?: string;
}

export interface Payload {
  deliveryId: string;
  trigger: string;
  projectToken: string;
  projectName: string;
  accountName: string | null;
  jobId: string | null;
  environment: string | null;
  activityId: string | null;
  kind: string | null;
  at: string;
  actor: { kind: string; id: string | null; name: string | null; email: string | null } | null;
  source: string | null;
  details: Record<string, unknown>;
  changes: PayloadChange[];
  changesCount: number;
  changesTruncated: boolean;
}

function keyActions(details: Record<string, unknown>): PayloadChange[] {
  const action = details.action;
  if (action === 'CREATE_KEY' || action === 'CHANGE_KEY')
    return [
      { action, key: String(details.key), namespace: typeof details.namespace === 'string' ? details.namespace : '' },
    ];
  if (action === 'DELETE_KEY' && Array.isArray(details.keys)) {
    return (details.keys as { key: string; namespace: string }[]).map((k) => ({
      action: 'DELETE_KEY' as const,
      key: k.key,
      namespace: k.namespace,
    }));
  }
  return [];
}

/** The payload of a delivery; undefined when its activity is gone (pruned by retention). */
export async function buildPayload(
  delivery: { id: bigint; trigger: string; activityId: bigint | null },
  projectId: number,
): Promise<Payload | undefined> {
  const project = await prisma().project.findUniqueOrThrow({
    where: { id: projectId },
    select: {
      projectToken: true,
      name: true,
      members: { where: { role: 'OWNER' }, take: 1, select: { account: { select: { email: true, name: true } } } },
    },
  });
  const base = {
    deliveryId: String(delivery.id),
    trigger: delivery.trigger,
    projectToken: project.projectToken,
    projectName: project.name,
    // The account that made the change (below); a test delivery names the owner.
    accountName: project.members[0] ? project.members[0].account.name || project.members[0].account.email : null,
  };
  if (delivery.activityId === null) {
    return {
      ...base,
      jobId: null,
      environment: null,
      activityId: null,
      kind: null,
      at: new Date().toISOString(),
      actor: null,
      source: null,
      details: {},
      changes: [],
      changesCount: 0,
      changesTruncated: false,
    };
  }
  const entry = await activityEntry(projectId, delivery.activityId);
  if (!entry) return undefined;
  const actions = keyActions(entry.details);
  const keyActionCount =
    entry.details.action === 'DELETE_KEY' ? Number(entry.details.count ?? actions.length) : actions.length;
  const cells =
    entry.cells > 0 && actions.length < MAX_CHANGES
      ? await cellsOfActivity(projectId, entry.id, 0, MAX_CHANGES - actions.length)
      : [];
  const changes: PayloadChange[] = [
    ...actions.slice(0, MAX_CHANGES),
    ...cells.map((c) => ({
      action: 'CHANGE_TRANSLATION' as const,
      key: c.key,
      namespace: c.namespace,
      languageKey: c.language,
      customerKey: c.customer,
      oldTranslation: c.oldText,
      newTranslation: c.newText,
      oldReviewStatus: c.oldStatus,
      reviewStatus: c.newStatus,
    })),
  ];
  const changesCount = keyActionCount + entry.cells;
  return {
    ...base,
    ...(entry.actorKind === 'ACCOUNT' && { accountName: entry.actorName }),
    jobId: typeof entry.details.jobId === 'string' ? entry.details.jobId : null,
    environment: typeof entry.details.environment === 'string' ? entry.details.environment : null,
    activityId: String(entry.id),
    kind: entry.kind,
    at: entry.at.toISOString(),
    actor: { kind: entry.actorKind, id: entry.actorId, name: entry.actorName, email: entry.actorEmail },
    source: entry.source,
    details: entry.details,
    changes,
    changesCount,
    changesTruncated: changes.length < changesCount,
  };
}
