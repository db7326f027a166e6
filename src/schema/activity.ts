// The activity log, cell history, revert, history retention and live change
// subscriptions (src/history/).
import { builder } from '../builder.js';
import { badRequest, notFound } from '../errors.js';
import { resolveProject } from '../projects/access.js';
import { need } from '../teams/permissions.js';
import {
  activityEntry,
  ACTIVITY_PAGE,
  cellsOfActivity,
  listActivity,
  type ActivityEntry,
  type CellEvent,
} from '../history/activity-log.js';
import { CHANGE_KINDS, triggerOf, type ChangeKind } from '../content/changes.js';
import { cellHistory } from '../history/cell-history.js';
import { activityStream, REPLAY_LIMIT, translationChangeStream } from '../history/live.js';
import { ACTOR_KINDS, CHANGE_SOURCES, type ActorKind, type ChangeSource } from '../content/origin.js';
import { historyRetentionDays, setHistoryRetention } from '../history/retention.js';
import { cellChangeLanguage, revertCellChange, revertChange, type RevertResult } from '../history/revert.js';
import { isGlossaryChange, revertGlossaryChange } from '../glossary/revert.js';
import { KEPT_LISTED, type KeptEntity } from '../history/revert-created.js';
import { ReviewStatusEnum } from './translation.js';

export const ChangeKindEnum = builder.enumType('ChangeKind', {
  description: 'What an activity entry did (docs/history-and-webhooks.md).',
  values: CHANGE_KINDS as ChangeKind[],
});
export const ActorKindEnum = builder.enumType('ActorKind', {
  description:
    'ACCOUNT (personal token, basic credentials, console session), API_KEY (the project API key), JOB (an auto-translation job), SYSTEM.',
  values: ACTOR_KINDS as ActorKind[],
});
export const ChangeSourceEnum = builder.enumType('ChangeSource', {
  description: "API (REST), GRAPHQL, WEB (the console), CLI (the official command-line client's routes), SYSTEM.",
  values: CHANGE_SOURCES as ChangeSource[],
});

/** An id of a bigint row, as a decimal string. */
export function parseId(value: string, name: string): bigint {
  if (!/^\d{1,19}$/.test(value)) throw badRequest(`${name} must be a decimal id, got '${value}'`);
  return BigInt(value);
}

export const ActorType = builder
  .objectRef<{ kind: ActorKind; id: string | null; name: string | null; email: string | null }>('Actor')
  .implement({
    fields: (t) => ({
      kind: t.field({ type: ActorKindEnum, resolve: (a) => a.kind }),
      id: t.exposeString('id', {
        nullable: true,
        description: 'Account id or job id; null for the API key and the system.',
      }),
      name: t.exposeString('name', {
        nullable: true,
        description:
          "The account's display name (its e-mail address when it has none); null for the API key, a job and the system.",
      }),
      email: t.exposeString('email', { nullable: true, description: "The account's e-mail address." }),
    }),
  });

const actorOf = (e: {
  actorKind: ActorKind;
  actorId: string | null;
  actorName: string | null;
  actorEmail: string | null;
}) => ({ kind: e.actorKind, id: e.actorId, name: e.actorName, email: e.actorEmail });

export const CellChangeType = builder.objectRef<CellEvent>('CellChange').implement({
  description: 'One change of one translation cell: old → new text and review status, who, when, through what.',
  fields: (t) => ({
    id: t.field({
      type: 'ID',
      description: 'Increases with every change; give the last one seen as `after` when resubscribing.',
      resolve: (c) => String(c.id),
    }),
    activityId: t.field({ type: 'ID', resolve: (c) => String(c.activityId) }),
    key: t.exposeString('key'),
    namespace: t.exposeString('namespace'),
    language: t.exposeString('language', { nullable: true, description: 'null when the language was deleted since.' }),
    customerKey: t.exposeString('customer', {
      nullable: true,
      description: 'The customer of an override; null for base translations.',
    }),
    oldText: t.exposeString('oldText', { nullable: true, description: 'null: the cell had never been written.' }),
    newText: t.exposeString('newText'),
    oldReviewStatus: t.field({ type: ReviewStatusEnum, nullable: true, resolve: (c) => c.oldStatus }),
    newReviewStatus: t.field({ type: ReviewStatusEnum, resolve: (c) => c.newStatus }),
    at: t.field({ type: 'DateTime', resolve: (c) => c.at }),
    kind: t.field({ type: ChangeKindEnum, resolve: (c) => c.kind }),
    actor: t.field({ type: ActorType, resolve: actorOf }),
    source: t.field({ type: ChangeSourceEnum, resolve: (c) => c.source }),
  }),
});

export const ActivityEntryType = builder.objectRef<ActivityEntry>('ActivityEntry').implement({
  description:
    'One entry of the activity log: a write or a project-level action, with counts; its cells are listed by `cells`.',
  fields: (t) => ({
    id: t.field({ type: 'ID', resolve: (e) => String(e.id) }),
    kind: t.field({ type: ChangeKindEnum, resolve: (e) => e.kind }),
    trigger: t.string({
      nullable: true,
      description: 'The webhook trigger it fired, if any.',
      resolve: (e) => triggerOf(e.kind, e.details),
    }),
    actor: t.field({ type: ActorType, resolve: actorOf }),
    accountName: t.string({
      nullable: true,
      description:
        "The display name of the account that made the change (the vendor's accountName); null when an API key, a job or the system made it.",
      resolve: (e) => e.actorName,
    }),
    source: t.field({ type: ChangeSourceEnum, resolve: (e) => e.source }),
    at: t.field({ type: 'DateTime', resolve: (e) => e.at }),
    cellsChanged: t.exposeInt('cells', { description: 'Translation cells written (each in the history).' }),
    edits: t.exposeInt('edits', {
      description: 'Other content edits: keys, languages, customers created, changed or deleted.',
    }),
    details: t.field({
      type: 'JSON',
      description: 'What the kind records: counts, job id, environment, changed fields.',
      resolve: (e) => e.details,
    }),
    revertOf: t.field({
      type: 'ID',
      nullable: true,
      description: 'For a REVERT of a whole change: the change reverted.',
      resolve: (e) => (e.revertOf === null ? null : String(e.revertOf)),
    }),
    cells: t.field({
      type: [CellChangeType],
      description: 'The cells this entry wrote, in the order written.',
      args: {
        page: t.arg.int({ required: false }),
        size: t.arg.int({
          required: false,
          description: `Default ${ACTIVITY_PAGE.defaultSize}, at most ${ACTIVITY_PAGE.maxSize}.`,
        }),
      },
      resolve: (e, args) => cellsOfActivity(e.projectId, e.id, args.page ?? 0, args.size ?? ACTIVITY_PAGE.defaultSize),
    }),
  }),
});

const ActivityPageType = builder
  .objectRef<{ entries: ActivityEntry[]; total: number; page: number; size: number }>('ActivityPage')
  .implement({
    fields: (t) => ({
      entries: t.field({ type: [ActivityEntryType], resolve: (p) => p.entries }),
      total: t.exposeInt('total', { description: 'Entries matching the filter.' }),
      page: t.exposeInt('page'),
      size: t.exposeInt('size'),
    }),
  });

const ActivityFilterInput = builder.inputType('ActivityFilter', {
  fields: (t) => ({
    actorKind: t.field({ type: ActorKindEnum, required: false }),
    actorId: t.string({ required: false, description: 'Account id or job id.' }),
    kinds: t.field({ type: [ChangeKindEnum], required: false }),
    from: t.field({ type: 'DateTime', required: false, description: 'Entries at or after this time.' }),
    to: t.field({ type: 'DateTime', required: false, description: 'Entries before this time.' }),
  }),
});

const CreatedKindEnum = builder.enumType('CreatedKind', { values: ['KEY', 'LANGUAGE', 'CUSTOMER'] as const });
const KeptReasonEnum = builder.enumType('KeptReason', {
  values: {
    WRITTEN_SINCE: { description: 'Another change wrote one of its texts.' },
    EDITED_SINCE: { description: "Renamed or edited (a key's settings) since." },
    LOCKED: { description: 'A locked key is never deleted.' },
    DEFAULT_LANGUAGE: { description: "The project's default language." },
    LAST_LANGUAGE: { description: 'A project keeps at least one language.' },
  } as const,
});
const RevertKeptType = builder.objectRef<KeptEntity>('RevertKept').implement({
  description: 'Something a reverted change created that its revert kept.',
  fields: (t) => ({
    kind: t.field({ type: CreatedKindEnum, resolve: (k) => k.kind }),
    key: t.exposeString('key', { description: 'The key, language or customer key.' }),
    namespace: t.exposeString('namespace', { description: "A key's namespace ('' otherwise)." }),
    reason: t.field({ type: KeptReasonEnum, resolve: (k) => k.reason }),
  }),
});

/** A glossary change's revert, in the shape of a change's (its terms counted as reverted and changed since). */
function glossaryRevertAsResult(r: {
  activityId: bigint;
  restored: number;
  changedSince: number;
}): RevertResult & { glossaryTerms: true } {
  return {
    activityId: r.activityId,
    reverted: r.restored,
    changedSince: r.changedSince,
    refused: { LOCKED: 0, CHARACTERS_LIMIT: 0 } as RevertResult['refused'],
    gone: 0,
    deletedKeys: 0,
    deletedLanguages: [],
    deletedCustomers: [],
    removed: 0,
    kept: [],
    keptCount: 0,
    glossaryTerms: true,
  };
}

export const RevertResultType = builder
  .objectRef<RevertResult & { glossaryTerms?: boolean }>('RevertResult')
  .implement({
    fields: (t) => ({
      unit: t.string({
        description: 'What reverted and changedSince count: CELLS, or GLOSSARY_TERMS for a change of the glossary.',
        resolve: (r) => (r.glossaryTerms ? 'GLOSSARY_TERMS' : 'CELLS'),
      }),
      activityId: t.field({
        type: 'ID',
        description: 'The REVERT entry of the activity log.',
        resolve: (r) => String(r.activityId),
      }),
      reverted: t.exposeInt('reverted', { description: 'Cells written back.' }),
      changedSince: t.exposeInt('changedSince', {
        description: 'Cells changed after the reverted change: kept as they are.',
      }),
      refusedLocked: t.int({ description: 'Cells of locked keys: not written.', resolve: (r) => r.refused.LOCKED }),
      refusedCharactersLimit: t.int({
        description: "Earlier texts over their key's charactersLimit: not written.",
        resolve: (r) => r.refused.CHARACTERS_LIMIT,
      }),
      gone: t.exposeInt('gone', { description: 'Cells whose key, language or customer was deleted since.' }),
      deletedKeys: t.exposeInt('deletedKeys', {
        description: 'Keys the change created, deleted by the revert with their texts.',
      }),
      deletedLanguages: t.exposeStringList('deletedLanguages', {
        description: 'Languages (keys) the change created, deleted by the revert with their texts.',
      }),
      deletedCustomers: t.exposeStringList('deletedCustomers', {
        description: 'Customers (keys) the change created, deleted by the revert with their texts.',
      }),
      removed: t.exposeInt('removed', {
        description:
          'Cells that went with the deleted keys, languages and customers (their texts are in the history of the revert).',
      }),
      kept: t.field({
        type: [RevertKeptType],
        description: `Keys, languages and customers the change created that the revert kept, with why: the first ${KEPT_LISTED}.`,
        resolve: (r) => r.kept,
      }),
      keptCount: t.exposeInt('keptCount', {
        description: 'How many keys, languages and customers the change created were kept.',
      }),
    }),
  });

builder.queryFields((t) => ({
  activity: t.field({
    type: ActivityPageType,
    description: "The project's activity log, newest first, one page at a time.",
    args: {
      projectToken: t.arg.string({ required: false }),
      filter: t.arg({ type: ActivityFilterInput, required: false }),
      page: t.arg.int({ required: false, description: 'From 0.' }),
      size: t.arg.int({
        required: false,
        description: `Default ${ACTIVITY_PAGE.defaultSize}, at most ${ACTIVITY_PAGE.maxSize}.`,
      }),
    },
    resolve: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('activity'));
      const page = args.page ?? 0;
      const size = args.size ?? ACTIVITY_PAGE.defaultSize;
      return { ...(await listActivity(projectId, args.filter ?? {}, page, size)), page, size };
    },
  }),
  activityEntry: t.field({
    type: ActivityEntryType,
    description: 'One entry of the activity log.',
    args: { projectToken: t.arg.string({ required: false }), id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const id = parseId(String(args.id), 'id');
      const entry = await activityEntry(
        await resolveProject(ctx.principal, args.projectToken, need('activityEntry')),
        id,
      );
      if (!entry) throw notFound(`activity entry ${id} not found`);
      return entry;
    },
  }),
  translationHistory: t.field({
    type: [CellChangeType],
    description: "Every change of one cell (the base translation, or a customer's override), newest first.",
    args: {
      projectToken: t.arg.string({ required: false }),
      key: t.arg.string({ required: true }),
      namespace: t.arg.string({ required: false }),
      language: t.arg.string({ required: true }),
      customerKey: t.arg.string({ required: false, description: "That customer's override." }),
      page: t.arg.int({ required: false }),
      size: t.arg.int({
        required: false,
        description: `Default ${ACTIVITY_PAGE.defaultSize}, at most ${ACTIVITY_PAGE.maxSize}.`,
      }),
    },
    resolve: async (_root, args, ctx) =>
      cellHistory(
        await resolveProject(ctx.principal, args.projectToken, need('translationHistory')),
        { key: args.key, namespace: args.namespace ?? '', language: args.language, customer: args.customerKey || null },
        args.page ?? 0,
        args.size ?? ACTIVITY_PAGE.defaultSize,
      ),
  }),
  historyRetentionDays: t.int({
    nullable: true,
    description: 'Days change events are kept; null: kept forever (the default).',
    args: { projectToken: t.arg.string({ required: false }) },
    resolve: async (_root, args, ctx) =>
      historyRetentionDays(await resolveProject(ctx.principal, args.projectToken, need('historyRetentionDays'))),
  }),
}));

builder.mutationFields((t) => ({
  revertChange: t.field({
    type: RevertResultType,
    description:
      'Reverts every cell a change (an import, a job, a bulk write …) wrote (a change of the glossary: every term it touched, where unchanged since; unit GLOSSARY_TERMS), in one transaction, where the cell still holds what the change wrote, and deletes the keys, languages and customers it created unless another change wrote or edited them since (kept). Locks and character limits apply. Recorded as a REVERT change.',
    args: { projectToken: t.arg.string({ required: false }), activityId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('revertChange'));
      const activityId = parseId(String(args.activityId), 'activityId');
      // A change of the glossary has terms, not cells: its own revert (src/glossary/revert.ts).
      if (await isGlossaryChange(projectId, activityId))
        return glossaryRevertAsResult(await revertGlossaryChange(projectId, activityId));
      return revertChange(projectId, activityId);
    },
  }),
  revertTranslation: t.field({
    type: RevertResultType,
    description:
      'Sets one cell back to the value it had before the given change of it (a CellChange id). A locked key is a CONFLICT, a text over the limit a BAD_REQUEST. Recorded as a REVERT change.',
    args: { projectToken: t.arg.string({ required: false }), cellChangeId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const id = parseId(String(args.cellChangeId), 'cellChangeId');
      // A translator limited to some languages reverts only cells of those languages.
      const readable = await resolveProject(ctx.principal, args.projectToken, 'READ_TEXTS');
      const language = await cellChangeLanguage(readable, id);
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('revertTranslation'), {
        languages: language ? [language] : [],
      });
      return revertCellChange(projectId, id);
    },
  }),
  setHistoryRetention: t.int({
    nullable: true,
    description:
      'Keeps change events this many days (older ones are pruned; current texts stay); null keeps everything.',
    args: { projectToken: t.arg.string({ required: false }), days: t.arg.int({ required: false }) },
    resolve: async (_root, args, ctx) =>
      setHistoryRetention(
        await resolveProject(ctx.principal, args.projectToken, need('setHistoryRetention')),
        args.days ?? null,
      ),
  }),
}));

builder.subscriptionFields((t) => ({
  translationChanges: t.field({
    type: CellChangeType,
    description: `Every translation cell change of the project as it commits. With \`after\` (the last id seen), the changes missed since are sent first (at most ${REPLAY_LIMIT}; further behind, an error asks to reload).`,
    args: { projectToken: t.arg.string({ required: false }), after: t.arg.id({ required: false }) },
    subscribe: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('translationChanges'));
      return translationChangeStream(projectId, args.after == null ? null : parseId(String(args.after), 'after'));
    },
    resolve: (event) => event,
  }),
  projectActivity: t.field({
    type: ActivityEntryType,
    description: "The project's activity entries as they commit.",
    args: { projectToken: t.arg.string({ required: false }) },
    subscribe: async (_root, args, ctx) =>
      activityStream(await resolveProject(ctx.principal, args.projectToken, need('projectActivity'))),
    resolve: (event) => event,
  }),
}));
