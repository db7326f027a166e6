// Automation rules of a project and their runs (src/automations/,
// docs/automations.md): list, create, update, enable, delete; the run log and
// reverting a run.
import { builder } from '../builder.js';
import { resolveProject } from '../projects/access.js';
import { need } from '../teams/permissions.js';
import { AUTOMATION_TRIGGERS, type AutomationTrigger } from '../content/changes.js';
import { ACTION_CELLS, ACTION_KINDS, type ActionLog, type StoredAction } from '../automations/actions.js';
import {
  AUTOMATION_SOURCES,
  createRule,
  deleteRule,
  getRule,
  listRules,
  updateRule,
  type RuleView,
} from '../automations/rules.js';
import { listRuns, revertRun, RUN_PAGE, type RunView } from '../automations/runs.js';
import { parseId, RevertResultType } from './activity.js';
import { ReviewStatusEnum } from './translation.js';

const TriggerEnum = builder.enumType('AutomationTrigger', {
  description:
    'What starts a rule: a change of texts, a key created, an import or an auto-translation that finished, a review status changed, or a schedule.',
  values: AUTOMATION_TRIGGERS as AutomationTrigger[],
});
const SourceEnum = builder.enumType('AutomationSource', {
  description:
    'Where a change came from: the console, the API (REST or GraphQL), the command-line client, a job, an automation.',
  values: AUTOMATION_SOURCES,
});
const ActionKindEnum = builder.enumType('AutomationActionKind', { values: ACTION_KINDS });
const CellsEnum = builder.enumType('AutomationActionCells', {
  description:
    'CHANGED: the cells whose change started the run; OTHER_LANGUAGES: the same keys in the other languages.',
  values: ACTION_CELLS,
});

const ActionType = builder.objectRef<StoredAction>('AutomationAction').implement({
  description: 'One action of a rule; the fields its kind uses are set.',
  fields: (t) => ({
    kind: t.field({ type: ActionKindEnum, resolve: (a) => a.kind }),
    languages: t.exposeStringList('languages', {
      description:
        'AUTO_TRANSLATE: target languages (empty: every language but the source ones). Others: the languages acted on (empty: any).',
    }),
    status: t.field({ type: ReviewStatusEnum, nullable: true, resolve: (a) => a.status ?? null }),
    cells: t.field({ type: CellsEnum, nullable: true, resolve: (a) => a.cells ?? null }),
    environment: t.string({ nullable: true, resolve: (a) => a.environment ?? null }),
    webhookId: t.int({ nullable: true, resolve: (a) => a.webhookId ?? null }),
    force: t.boolean({
      nullable: true,
      description: 'AUTO_TRANSLATE: replace existing translations too.',
      resolve: (a) => a.force ?? null,
    }),
  }),
});

const RuleType = builder.objectRef<RuleView>('AutomationRule').implement({
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name'),
    enabled: t.exposeBoolean('enabled'),
    trigger: t.field({ type: TriggerEnum, resolve: (r) => r.trigger }),
    schedule: t.exposeString('schedule', { nullable: true, description: 'SCHEDULE: a cron expression, in UTC.' }),
    nextRunAt: t.field({ type: 'DateTime', nullable: true, resolve: (r) => r.nextRunAt }),
    languages: t.exposeStringList('languages', { description: 'Filter: language keys (empty: any).' }),
    namespaces: t.exposeStringList('namespaces', { description: 'Filter: namespaces (empty: any).' }),
    tags: t.exposeStringList('tags', { description: 'Filter: keys with one of these tags (empty: any).' }),
    sources: t.field({
      type: [SourceEnum],
      description: 'Filter: where the change came from (empty: any).',
      resolve: (r) => r.sources,
    }),
    reviewStatuses: t.field({
      type: [ReviewStatusEnum],
      description: 'Filter: the review status the changed cells now have (empty: any).',
      resolve: (r) => r.reviewStatuses as ('REVIEWED' | 'NOT_REVIEWED')[],
    }),
    actions: t.field({ type: [ActionType], resolve: (r) => r.actions }),
    createdAt: t.field({ type: 'DateTime', resolve: (r) => r.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (r) => r.updatedAt }),
  }),
});

const ActionLogType = builder.objectRef<ActionLog>('AutomationActionLog').implement({
  description: 'What one action of a run did.',
  fields: (t) => ({
    kind: t.field({ type: ActionKindEnum, resolve: (l) => l.kind }),
    ok: t.exposeBoolean('ok'),
    summary: t.exposeString('summary'),
    cells: t.int({ nullable: true, description: 'Cells written.', resolve: (l) => l.cells ?? null }),
    jobIds: t.stringList({ description: 'Auto-translation jobs started.', resolve: (l) => l.jobIds ?? [] }),
    publicationId: t.int({ nullable: true, resolve: (l) => l.publicationId ?? null }),
    deliveryId: t.field({
      type: 'ID',
      nullable: true,
      description: 'The webhook delivery queued (see webhookDeliveries).',
      resolve: (l) => l.deliveryId ?? null,
    }),
  }),
});

const RunType = builder.objectRef<RunView>('AutomationRun').implement({
  fields: (t) => ({
    id: t.field({ type: 'ID', resolve: (r) => String(r.id) }),
    ruleId: t.exposeInt('ruleId'),
    ruleName: t.exposeString('ruleName'),
    trigger: t.field({ type: TriggerEnum, resolve: (r) => r.trigger as AutomationTrigger }),
    activityId: t.field({
      type: 'ID',
      nullable: true,
      description: 'The change that started the run; null for a schedule.',
      resolve: (r) => (r.activityId === null ? null : String(r.activityId)),
    }),
    tick: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'The schedule tick it ran for.',
      resolve: (r) => r.tick,
    }),
    depth: t.exposeInt('depth', {
      description: '1 for a change by a person or program; one more for each rule in a chain.',
    }),
    state: t.exposeString('state', { description: 'PENDING, RUNNING, DONE, FAILED.' }),
    attempts: t.exposeInt('attempts'),
    actions: t.field({ type: [ActionLogType], resolve: (r) => r.log }),
    changeId: t.field({
      type: 'ID',
      nullable: true,
      description: 'The change holding the texts the run wrote.',
      resolve: (r) => (r.changeId === null ? null : String(r.changeId)),
    }),
    revertedBy: t.field({
      type: 'ID',
      nullable: true,
      description: 'The REVERT change that undid the run.',
      resolve: (r) => (r.revertedBy === null ? null : String(r.revertedBy)),
    }),
    error: t.exposeString('error', { nullable: true }),
    createdAt: t.field({ type: 'DateTime', resolve: (r) => r.createdAt }),
    finishedAt: t.field({ type: 'DateTime', nullable: true, resolve: (r) => r.finishedAt }),
  }),
});

const ActionInput = builder.inputType('AutomationActionInput', {
  fields: (t) => ({
    kind: t.field({ type: ActionKindEnum, required: true }),
    languages: t.stringList({ required: false }),
    status: t.field({ type: ReviewStatusEnum, required: false, description: 'SET_REVIEW_STATUS.' }),
    cells: t.field({ type: CellsEnum, required: false, description: 'SET_REVIEW_STATUS; default CHANGED.' }),
    environment: t.string({ required: false, description: 'PUBLISH; default _latest.' }),
    webhookId: t.int({ required: false, description: "WEBHOOK: one of the project's webhooks." }),
    force: t.boolean({ required: false, description: 'AUTO_TRANSLATE: replace existing translations too.' }),
  }),
});

const RuleInput = builder.inputType('AutomationRuleInput', {
  description: 'On update, omitted fields keep their value.',
  fields: (t) => ({
    name: t.string({ required: false }),
    enabled: t.boolean({ required: false }),
    trigger: t.field({ type: TriggerEnum, required: false }),
    schedule: t.string({ required: false }),
    languages: t.stringList({ required: false }),
    namespaces: t.stringList({ required: false }),
    tags: t.stringList({ required: false }),
    sources: t.field({ type: [SourceEnum], required: false }),
    reviewStatuses: t.field({ type: [ReviewStatusEnum], required: false }),
    actions: t.field({ type: [ActionInput], required: false }),
  }),
});

builder.queryFields((t) => ({
  automationRules: t.field({
    type: [RuleType],
    args: { projectToken: t.arg.string({ required: false }) },
    resolve: async (_root, args, ctx) =>
      listRules(await resolveProject(ctx.principal, args.projectToken, need('automationRules'))),
  }),
  automationRule: t.field({
    type: RuleType,
    args: { projectToken: t.arg.string({ required: false }), id: t.arg.int({ required: true }) },
    resolve: async (_root, args, ctx) =>
      getRule(await resolveProject(ctx.principal, args.projectToken, need('automationRule')), args.id),
  }),
  automationRuns: t.field({
    type: [RunType],
    description: 'The runs of the project (or of one rule), newest first.',
    args: {
      projectToken: t.arg.string({ required: false }),
      ruleId: t.arg.int({ required: false }),
      page: t.arg.int({ required: false }),
      size: t.arg.int({
        required: false,
        description: `Default ${RUN_PAGE.defaultSize}, at most ${RUN_PAGE.maxSize}.`,
      }),
    },
    resolve: async (_root, args, ctx) =>
      listRuns(await resolveProject(ctx.principal, args.projectToken, need('automationRuns')), args),
  }),
}));

builder.mutationFields((t) => ({
  createAutomationRule: t.field({
    type: RuleType,
    args: { projectToken: t.arg.string({ required: false }), input: t.arg({ type: RuleInput, required: true }) },
    resolve: async (_root, args, ctx) =>
      createRule(await resolveProject(ctx.principal, args.projectToken, need('createAutomationRule')), args.input),
  }),
  updateAutomationRule: t.field({
    type: RuleType,
    args: {
      projectToken: t.arg.string({ required: false }),
      id: t.arg.int({ required: true }),
      input: t.arg({ type: RuleInput, required: true }),
    },
    resolve: async (_root, args, ctx) =>
      updateRule(
        await resolveProject(ctx.principal, args.projectToken, need('updateAutomationRule')),
        args.id,
        args.input,
      ),
  }),
  setAutomationRuleEnabled: t.field({
    type: RuleType,
    args: {
      projectToken: t.arg.string({ required: false }),
      id: t.arg.int({ required: true }),
      enabled: t.arg.boolean({ required: true }),
    },
    resolve: async (_root, args, ctx) =>
      updateRule(await resolveProject(ctx.principal, args.projectToken, need('setAutomationRuleEnabled')), args.id, {
        enabled: args.enabled,
      }),
  }),
  deleteAutomationRule: t.boolean({
    args: { projectToken: t.arg.string({ required: false }), id: t.arg.int({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await deleteRule(await resolveProject(ctx.principal, args.projectToken, need('deleteAutomationRule')), args.id);
      return true;
    },
  }),
  revertAutomationRun: t.field({
    type: RevertResultType,
    description:
      'Reverts the texts a run wrote (its own change and its auto-translation jobs) as one REVERT change, where no one changed them since.',
    args: { projectToken: t.arg.string({ required: false }), id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) =>
      revertRun(
        await resolveProject(ctx.principal, args.projectToken, need('revertAutomationRun')),
        parseId(String(args.id), 'id'),
      ),
  }),
}));
