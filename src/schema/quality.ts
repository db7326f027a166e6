// Quality checks (src/checks/, src/findings/, docs/quality-checks.md): the
// stored findings of a project with their counts (CI, the console's Quality
// screen), the checks and their severities per project, dismissing a finding.
import { builder } from '../builder.js';
import { resolveProject } from '../projects/access.js';
import { need } from '../teams/permissions.js';
import { badRequest } from '../errors.js';
import { CHECKS, DIALECT_NAMES, DIALECTS, type Dialect, type Severity } from '../checks/index.js';
import { listFindings, type FindingCount, type FindingPage, type FindingRow } from '../findings/read.js';
import { dismissFinding, restoreFinding } from '../findings/dismiss.js';
import { readCheckSettings, updateCheckSettings } from '../findings/settings.js';
import { prisma } from '../db.js';
import { MessageTextType } from './message-text.js';

const FindingType = builder.objectRef<FindingRow>('QualityFinding').implement({
  description: 'A quality-check finding of a translation, as stored after its last write.',
  fields: (t) => ({
    key: t.exposeString('key'),
    namespace: t.exposeString('namespace'),
    languageCode: t.string({ resolve: (f) => f.language }),
    customerKey: t.exposeString('customerKey', {
      nullable: true,
      description: 'The customer whose override was checked; null for the base translation.',
    }),
    check: t.exposeString('check', { description: 'The check id (qualityChecks lists them).' }),
    severity: t.exposeString('severity', {
      description: 'error, warning or info, as the project sets it for the check.',
    }),
    message: t.exposeString('message', { description: 'What is wrong and what to do.' }),
    messageText: t.field({
      type: MessageTextType,
      nullable: true,
      description: 'The message as data (null for a finding stored before findings carried it).',
      resolve: (f) => f.messageText,
    }),
    spanStart: t.exposeInt('spanStart', {
      nullable: true,
      description: 'Where in the text (UTF-16 offsets); null when something is missing.',
    }),
    spanEnd: t.exposeInt('spanEnd', { nullable: true }),
    dismissed: t.exposeBoolean('dismissed', { description: 'Dismissed with a reason for the current text.' }),
    text: t.exposeString('text', { description: 'The translation (or override) as it is now.' }),
  }),
});

const CountType = builder.objectRef<FindingCount>('QualityFindingCount').implement({
  fields: (t) => ({
    languageCode: t.string({ resolve: (c) => c.language }),
    check: t.exposeString('check'),
    severity: t.exposeString('severity'),
    count: t.exposeInt('count', { description: 'Open findings.' }),
    dismissed: t.exposeInt('dismissed'),
  }),
});

const PageType = builder.objectRef<FindingPage>('QualityFindingPage').implement({
  fields: (t) => ({
    total: t.exposeInt('total', { description: 'Findings matching the filter (open ones unless includeDismissed).' }),
    errors: t.exposeInt('errors'),
    warnings: t.exposeInt('warnings'),
    infos: t.exposeInt('infos'),
    pending: t.exposeInt('pending', {
      description: 'Keys whose texts are still being checked: 0 when the figures are final.',
    }),
    counts: t.field({ type: [CountType], description: 'Per language, check and severity.', resolve: (p) => p.counts }),
    findings: t.field({
      type: [FindingType],
      description: 'A page, errors first, then by key (in creation order) and language.',
      resolve: (p) => p.findings,
    }),
  }),
});

interface CheckView {
  id: string;
  title: string;
  category: string;
  defaultSeverity: Severity;
  enabledByDefault: boolean;
  severity: Severity | null;
}

const CheckType = builder.objectRef<CheckView>('QualityCheck').implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    title: t.exposeString('title'),
    category: t.exposeString('category'),
    defaultSeverity: t.exposeString('defaultSeverity'),
    enabledByDefault: t.exposeBoolean('enabledByDefault'),
    severity: t.exposeString('severity', {
      nullable: true,
      description: "The project's severity; null when the check is off.",
    }),
  }),
});

const DialectType = builder.objectRef<{ id: Dialect; name: string }>('PlaceholderDialect').implement({
  description: 'A placeholder dialect: how the placeholder checks read texts.',
  fields: (t) => ({ id: t.exposeString('id'), name: t.exposeString('name') }),
});

const SettingsType = builder
  .objectRef<{ checks: CheckView[]; placeholderDialect: Dialect }>('QualityCheckSettings')
  .implement({
    fields: (t) => ({
      checks: t.field({ type: [CheckType], resolve: (s) => s.checks }),
      placeholderDialect: t.exposeString('placeholderDialect', {
        description: `The project's placeholder dialect: ${DIALECTS.join(', ')}.`,
      }),
      placeholderDialects: t.field({
        type: [DialectType],
        description: 'The dialects placeholderDialect may be, with their names.',
        resolve: () => DIALECTS.map((id) => ({ id, name: DIALECT_NAMES[id] })),
      }),
    }),
  });

const CheckSettingInput = builder.inputType('QualityCheckSettingInput', {
  fields: (t) => ({
    check: t.string({ required: true }),
    severity: t.string({ required: false, description: 'error, warning, info or off; null: back to the default.' }),
  }),
});

async function settingsView(projectId: number) {
  const { checks, dialect } = await readCheckSettings(projectId);
  return {
    placeholderDialect: dialect,
    checks: CHECKS.map((c): CheckView => {
      const chosen = checks[c.id];
      const severity = chosen === 'off' ? null : (chosen ?? (c.enabled ? c.severity : null));
      return {
        id: c.id,
        title: c.title,
        category: c.category,
        defaultSeverity: c.severity,
        enabledByDefault: c.enabled,
        severity,
      };
    }),
  };
}

builder.queryFields((t) => ({
  qualityFindings: t.field({
    type: PageType,
    description:
      "The project's quality-check findings with their counts: for CI (fail the build on errors), the Quality screen and the editor's filters.",
    args: {
      projectToken: t.arg.string({ required: false }),
      languageCode: t.arg.string({ required: false }),
      severity: t.arg.string({ required: false, description: 'error, warning or info.' }),
      check: t.arg.string({ required: false, description: 'A check id.' }),
      customerKey: t.arg.string({
        required: false,
        description:
          "Only the findings of this customer's overrides. Without it: every finding, the base translations' and every customer's overrides' (customerKey says whose).",
      }),
      includeDismissed: t.arg.boolean({ required: false }),
      first: t.arg.int({ required: false, description: '0–1000, default 100.' }),
      offset: t.arg.int({ required: false }),
    },
    resolve: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('qualityFindings'));
      return listFindings(projectId, args, args);
    },
  }),
  qualityChecks: t.field({
    type: SettingsType,
    description: 'Every quality check with its severity in the project (null: off).',
    args: { projectToken: t.arg.string({ required: false }) },
    resolve: async (_root, args, ctx) =>
      settingsView(await resolveProject(ctx.principal, args.projectToken, need('qualityChecks'))),
  }),
}));

/** The cell and check a dismissal or restoration is about. */
const findingCellArgs = builder.args((t) => ({
  projectToken: t.string({ required: false }),
  key: t.string({ required: true }),
  namespace: t.string({ required: false }),
  languageCode: t.string({ required: true }),
  check: t.string({ required: true }),
  customerKey: t.string({ required: false, description: "That customer's override; none: the base translation." }),
}));

builder.mutationFields((t) => ({
  setQualityChecks: t.field({
    type: SettingsType,
    description:
      "Sets checks' severities (or off) and the placeholder dialect; findings follow (a check turned on is computed again in the background).",
    args: {
      projectToken: t.arg.string({ required: false }),
      checks: t.arg({ type: [CheckSettingInput], required: false }),
      placeholderDialect: t.arg.string({ required: false }),
    },
    resolve: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('setQualityChecks'));
      const patch: Record<string, Severity | 'off' | null> = {};
      for (const c of args.checks ?? []) patch[c.check] = (c.severity ?? null) as Severity | 'off' | null;
      if (args.placeholderDialect != null && !(DIALECTS as readonly string[]).includes(args.placeholderDialect))
        throw badRequest(`placeholderDialect: one of ${DIALECTS.join(', ')}`);
      await prisma().$transaction((tx) =>
        updateCheckSettings(tx, projectId, patch, (args.placeholderDialect ?? undefined) as Dialect | undefined),
      );
      return settingsView(projectId);
    },
  }),
  dismissQualityFinding: t.field({
    type: 'Int',
    description:
      "Dismisses a check's findings on a translation, with a reason (recorded in the activity log); a new text brings them back. Returns how many findings it dismissed.",
    args: { ...findingCellArgs, reason: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('dismissQualityFinding'), {
        languages: [args.languageCode],
      });
      return dismissFinding(projectId, args, args.reason);
    },
  }),
  restoreQualityFinding: t.field({
    type: 'Int',
    description: 'Takes a dismissal back (recorded in the activity log).',
    args: findingCellArgs,
    resolve: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('restoreQualityFinding'), {
        languages: [args.languageCode],
      });
      return restoreFinding(projectId, args);
    },
  }),
}));
