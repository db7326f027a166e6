// A project's automation rules: create, list, update, enable, delete. A rule
// is a trigger, filters (each empty for "any") and actions in order; the
// actions are checked by their kinds (actions.ts) when the rule is saved, so a
// run never finds a rule it cannot understand. Saving a rule is a SETTINGS
// change of the project (its activity log).
import { Cron } from 'croner';
import { prisma } from '../db.js';
import { badRequest, notFound } from '../errors.js';
import { AUTOMATION_TRIGGERS, openChange, type AutomationTrigger } from '../content/changes.js';
import type { AutomationRule } from '../generated/prisma/client.js';
import { validateActions, type ActionInput, type StoredAction } from './actions.js';

export const MAX_RULES_PER_PROJECT = 50;
export const MAX_ACTIONS_PER_RULE = 10;
const MAX_NAME = 200;
const MAX_FILTER_VALUES = 100;

/** Where a change came from, as a rule's source filter names it. */
export const AUTOMATION_SOURCES = ['CONSOLE', 'API', 'CLI', 'JOB', 'AUTOMATION'] as const;
export type AutomationSource = (typeof AUTOMATION_SOURCES)[number];
const REVIEW_STATUSES = ['REVIEWED', 'NOT_REVIEWED'];

export interface RuleView {
  id: number;
  projectId: number;
  name: string;
  enabled: boolean;
  trigger: AutomationTrigger;
  schedule: string | null;
  nextRunAt: Date | null;
  languages: string[];
  namespaces: string[];
  tags: string[];
  sources: AutomationSource[];
  reviewStatuses: string[];
  actions: StoredAction[];
  createdAt: Date;
  updatedAt: Date;
}

export interface RuleInput {
  name?: string | null;
  enabled?: boolean | null;
  trigger?: string | null;
  schedule?: string | null;
  languages?: readonly string[] | null;
  namespaces?: readonly string[] | null;
  tags?: readonly string[] | null;
  sources?: readonly string[] | null;
  reviewStatuses?: readonly string[] | null;
  actions?: readonly ActionInput[] | null;
}

export function ruleView(row: AutomationRule): RuleView {
  return {
    ...row,
    trigger: row.trigger as AutomationTrigger,
    sources: row.sources as AutomationSource[],
    actions: row.actions as unknown as StoredAction[],
  };
}

/** The next tick of a cron expression after `from` (UTC), or a clear refusal. */
export function nextTick(schedule: string, from = new Date()): Date {
  let cron: Cron;
  try {
    cron = new Cron(schedule, { timezone: 'UTC', paused: true });
  } catch (error) {
    throw badRequest(`schedule: ${(error as Error).message}`);
  }
  const next = cron.nextRun(from);
  if (!next) throw badRequest(`schedule '${schedule}' never fires again`);
  return next;
}

function strings(value: readonly string[] | null | undefined, field: string, allowed?: readonly string[]): string[] {
  const values = [...new Set((value ?? []).map((v) => v.trim()).filter((v) => v !== ''))];
  if (values.length > MAX_FILTER_VALUES) throw badRequest(`${field}: at most ${MAX_FILTER_VALUES} values`);
  const unknown = allowed ? values.filter((v) => !allowed.includes(v)) : [];
  if (unknown.length)
    throw badRequest(
      `${field}: unknown value${unknown.length > 1 ? 's' : ''} ${unknown.map((v) => `'${v}'`).join(', ')} (one of ${allowed!.join(', ')})`,
    );
  return values;
}

/** The stored fields of a rule from its input, merged over `existing` (update). */
async function parseRule(projectId: number, input: RuleInput, existing?: RuleView) {
  const name = (input.name ?? existing?.name ?? '').trim();
  if (!name) throw badRequest('name is required');
  if (name.length > MAX_NAME) throw badRequest(`name must have at most ${MAX_NAME} characters`);
  const trigger = (input.trigger ?? existing?.trigger) as AutomationTrigger | undefined;
  if (!trigger) throw badRequest('trigger is required');
  if (!AUTOMATION_TRIGGERS.includes(trigger))
    throw badRequest(`trigger must be one of ${AUTOMATION_TRIGGERS.join(', ')}`);
  const schedule = input.schedule !== undefined ? input.schedule?.trim() || null : (existing?.schedule ?? null);
  if (trigger === 'SCHEDULE' && !schedule)
    throw badRequest('schedule (a cron expression) is required for the SCHEDULE trigger');
  if (trigger !== 'SCHEDULE' && schedule) throw badRequest('schedule is only for the SCHEDULE trigger');
  const languages = input.languages !== undefined ? strings(input.languages, 'languages') : (existing?.languages ?? []);
  if (languages.length) {
    const known = new Set(
      (await prisma().language.findMany({ where: { projectId }, select: { key: true } })).map((l) => l.key),
    );
    const unknown = languages.filter((l) => !known.has(l));
    if (unknown.length) throw badRequest(`languages: ${unknown.map((l) => `'${l}'`).join(', ')} not in this project`);
  }
  const actionsInput = input.actions ?? (existing ? null : []);
  const actions = actionsInput === null ? existing!.actions : await validateActions(projectId, actionsInput);
  if (actions.length === 0) throw badRequest('a rule needs at least one action');
  if (actions.length > MAX_ACTIONS_PER_RULE) throw badRequest(`a rule has at most ${MAX_ACTIONS_PER_RULE} actions`);
  const enabled = input.enabled ?? existing?.enabled ?? true;
  return {
    name,
    enabled,
    trigger,
    schedule,
    nextRunAt: trigger === 'SCHEDULE' && enabled ? nextTick(schedule!) : null,
    languages,
    namespaces: input.namespaces !== undefined ? strings(input.namespaces, 'namespaces') : (existing?.namespaces ?? []),
    tags: input.tags !== undefined ? strings(input.tags, 'tags') : (existing?.tags ?? []),
    sources:
      input.sources !== undefined ? strings(input.sources, 'sources', AUTOMATION_SOURCES) : (existing?.sources ?? []),
    reviewStatuses:
      input.reviewStatuses !== undefined
        ? strings(input.reviewStatuses, 'reviewStatuses', REVIEW_STATUSES)
        : (existing?.reviewStatuses ?? []),
    actions: actions as object[],
  };
}

export async function listRules(projectId: number): Promise<RuleView[]> {
  return (await prisma().automationRule.findMany({ where: { projectId }, orderBy: { id: 'asc' } })).map(ruleView);
}

export async function getRule(projectId: number, id: number): Promise<RuleView> {
  const row = await prisma().automationRule.findFirst({ where: { id, projectId } });
  if (!row) throw notFound(`automation rule ${id} not found`);
  return ruleView(row);
}

export async function createRule(projectId: number, input: RuleInput): Promise<RuleView> {
  const data = await parseRule(projectId, input);
  return prisma().$transaction(async (tx) => {
    const count = await tx.automationRule.count({ where: { projectId } });
    if (count >= MAX_RULES_PER_PROJECT)
      throw badRequest(`A project has at most ${MAX_RULES_PER_PROJECT} automation rules`);
    const row = await tx.automationRule.create({ data: { projectId, ...data } });
    await openChange(tx, projectId, 'SETTINGS', {
      automation: { action: 'CREATE_RULE', ruleId: row.id, name: row.name },
    });
    return ruleView(row);
  });
}

export async function updateRule(projectId: number, id: number, input: RuleInput): Promise<RuleView> {
  const existing = await getRule(projectId, id);
  const data = await parseRule(projectId, input, existing);
  return prisma().$transaction(async (tx) => {
    const row = await tx.automationRule.update({ where: { id }, data: { ...data, updatedAt: new Date() } });
    await openChange(tx, projectId, 'SETTINGS', {
      automation: { action: 'UPDATE_RULE', ruleId: row.id, name: row.name },
    });
    return ruleView(row);
  });
}

export async function deleteRule(projectId: number, id: number): Promise<void> {
  const existing = await getRule(projectId, id);
  await prisma().$transaction(async (tx) => {
    // Its runs go with it (their changes stay in the activity log).
    await tx.automationRule.delete({ where: { id } });
    await openChange(tx, projectId, 'SETTINGS', {
      automation: { action: 'DELETE_RULE', ruleId: id, name: existing.name },
    });
  });
}
