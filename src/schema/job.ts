import { builder } from '../builder.js';
import { prisma } from '../db.js';
import { events, type JobEvent } from '../events/pubsub.js';
import { resolveProject } from '../projects/access.js';
import { need } from '../teams/permissions.js';
import { MessageTextType } from './message-text.js';
import type { MessageText } from '../message-text.js';
import { createAutoTranslateJobs } from '../jobs/create.js';
import {
  cancelJob,
  FINAL_STATES,
  JOB_LIST_LIMIT,
  JOB_STATUS_FILTERS,
  JOB_TYPES,
  jobListWhere,
  jobOfProject,
  jobTypeOf,
  type JobStatusFilter,
  type JobTypeName,
} from '../jobs/queries.js';
import { startJobsFromSettings } from '../jobs/from-settings.js';
import {
  resetLanguageSettings,
  resolveLanguageSettings,
  saveLanguageSettings,
  SETTING_OPTIONS,
  type LanguageSettings,
} from '../jobs/language-settings.js';
import { badRequest } from '../errors.js';
import { providerKeyStatus, setProviderApiKey } from '../jobs/provider-keys.js';
import { JOB_OPTIONS, type AutoTranslateRequest } from '../jobs/request.js';
import { TRANSLATION_PROVIDER_IDS } from '../mt/types.js';
import type { Checkpoint, LlmUsage } from '../jobs/checkpoint.js';
import { exchangesOfJob, JOB_LOG_LIMIT } from '../llm/log.js';

const JobUsageType = builder.objectRef<LlmUsage>('JobUsage').implement({
  description: 'Tokens a job used at one language-model provider and model (as the provider reported them).',
  fields: (t) => ({
    provider: t.exposeString('provider'),
    model: t.exposeString('model'),
    inputTokens: t.exposeInt('inputTokens'),
    outputTokens: t.exposeInt('outputTokens'),
    requests: t.exposeInt('requests', { description: 'HTTP requests, retries included.' }),
    estimatedCost: t.float({
      nullable: true,
      description:
        "From the prices per million tokens configured (LLM_<PROVIDER>_PRICE_INPUT / _OUTPUT or the project's); null when none is.",
      resolve: (u) => u.estimatedCost ?? null,
    }),
  }),
});

const JobFailureType = builder.objectRef<{ key: string; message: string }>('JobTextFailure').implement({
  description:
    'A text a language model could not translate acceptably (it failed the quality checks twice): left unwritten.',
  fields: (t) => ({ key: t.exposeString('key'), message: t.exposeString('message') }),
});

const LlmExchangeType = builder.prismaObject('LlmExchange', {
  description:
    'One request to a language model and its reply (kept LLM_LOG_RETENTION_DAYS): the body sent, never the headers.',
  fields: (t) => ({
    provider: t.exposeString('provider'),
    model: t.exposeString('model'),
    request: t.field({ type: 'JSON', resolve: (e) => e.request }),
    status: t.exposeInt('status', { description: 'HTTP status; 0 when no answer arrived.' }),
    reply: t.exposeString('reply'),
    error: t.exposeString('error', { nullable: true }),
    inputTokens: t.exposeInt('inputTokens'),
    outputTokens: t.exposeInt('outputTokens'),
    durationMs: t.exposeInt('durationMs'),
    at: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

export const TranslationProviderEnum = builder.enumType('TranslationProvider', {
  description:
    'A machine-translation provider (docs/jobs.md); PSEUDO writes pseudo-translations, for testing layouts; MEMORY pre-translates from the translation memory (docs/translation-memory.md).',
  values: TRANSLATION_PROVIDER_IDS,
});

const JobOptionEnum = builder.enumType('JobOption', {
  description:
    'USE_TRANSLATION_KEYS: translate the key where the source text is empty; FORCE_REPLACE: overwrite existing translations; AUTO_PUBLISH: publish to _latest when done.',
  values: JOB_OPTIONS,
});

export const JobStateEnum = builder.enumType('JobState', {
  description: 'STARTED → SUCCESS | FAILED | CANCELLED (see docs/jobs.md).',
  values: ['STARTED', 'SUCCESS', 'FAILED', 'CANCELLED'] as const,
});

export const JobStatusFilterEnum = builder.enumType('JobStatusFilter', {
  description:
    "Statuses of the job list filter: RUNNING (the vendor's name) and STARTED are every job not finished yet (waiting for a worker or being worked on); SUCCESS, FAILED, CANCELLED the final states.",
  values: Object.keys(JOB_STATUS_FILTERS) as JobStatusFilter[],
});

export const JobKindEnum = builder.enumType('JobKind', {
  description: 'Types of job: AUTO_TRANSLATION (machine translation into one language).',
  values: Object.keys(JOB_TYPES) as JobTypeName[],
});

export const JobType = builder.prismaObject('Job', {
  description: 'An auto-translation job.',
  fields: (t) => ({
    jobId: t.exposeString('id'),
    type: t.field({ type: JobKindEnum, resolve: (j) => jobTypeOf(j.kind) }),
    state: t.field({ type: JobStateEnum, resolve: (j) => j.state }),
    progress: t.exposeFloat('progress', { description: 'Fraction: small at start, 1.0 when finished.' }),
    started: t.expose('startedAt', { type: 'DateTime' }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true }),
    message: t.exposeString('message'),
    messageText: t.field({
      type: [MessageTextType],
      nullable: true,
      description:
        "The message as data, its parts in order (the message joins them with '; '): null where it has no wording of its own (a provider's error) and for jobs that ended before jobs carried it.",
      resolve: (j) => j.messageText as MessageText[] | null,
    }),
    metadata: t.field({
      type: 'JSON',
      description: 'Empty at start; the contract metadata afterwards.',
      resolve: (j) => j.metadata,
    }),
    // From the accepted request, so a running job (empty metadata) still says what it does.
    translationProvider: t.field({
      type: TranslationProviderEnum,
      nullable: true,
      description: 'null only for a language skipped because no provider is configured for it.',
      resolve: (j) => (j.request as unknown as AutoTranslateRequest).translationProvider ?? null,
    }),
    sourceProjectLanguage: t.string({
      resolve: (j) => (j.request as unknown as AutoTranslateRequest).sourceProjectLanguage,
    }),
    targetProjectLanguage: t.string({
      resolve: (j) => (j.request as unknown as AutoTranslateRequest).targetProjectLanguage,
    }),
    usage: t.field({
      type: [JobUsageType],
      description:
        'Language models: tokens in and out per provider and model, with an estimated cost where prices are configured; empty for other providers.',
      resolve: (j) => Object.values((j.checkpoint as unknown as Checkpoint).llmUsage ?? {}),
    }),
    failedTexts: t.field({
      type: [JobFailureType],
      description:
        'Language models: the texts left unwritten because the answer failed the quality checks twice, and why (the first 100).',
      resolve: (j) => (j.checkpoint as unknown as Checkpoint).llmFailures ?? [],
    }),
    llmLog: t.field({
      type: [LlmExchangeType],
      description: `Language models: the job's requests and replies, oldest first (at most ${JOB_LOG_LIMIT}; kept LLM_LOG_RETENTION_DAYS).`,
      resolve: (j) => exchangesOfJob(j.id),
    }),
  }),
});

const JobEventType = builder.objectRef<JobEvent>('JobEvent').implement({
  description: 'A state change or progress step of a job.',
  fields: (t) => ({
    jobId: t.exposeString('jobId'),
    state: t.field({ type: JobStateEnum, resolve: (e) => e.state as 'STARTED' }),
    progress: t.exposeFloat('progress'),
    message: t.exposeString('message'),
    sequence: t.exposeInt('sequence', { description: 'Increases with every event of the job.' }),
    at: t.field({ type: 'DateTime', resolve: (e) => new Date(e.at) }),
  }),
});

const TargetInput = builder.inputType('AutoTranslateTarget', {
  fields: (t) => ({
    targetProjectLanguage: t.string({ required: true, description: 'Language key of the project.' }),
    targetLanguage: t.string({ required: true, description: "Language code in the provider's notation." }),
  }),
});

const AutoTranslateInput = builder.inputType('AutoTranslateInput', {
  fields: (t) => ({
    translationProvider: t.field({ type: TranslationProviderEnum, required: true }),
    targets: t.field({ type: [TargetInput], required: true, description: 'One job per target.' }),
    sourceProjectLanguage: t.string({ required: false, description: "Defaults to the project's default language." }),
    sourceLanguage: t.string({ required: false }),
    options: t.field({ type: [JobOptionEnum], required: false }),
    providerGlossaryId: t.string({ required: false }),
    providerFormality: t.string({ required: false }),
    memoryMinScore: t.int({
      required: false,
      description:
        'Fill cells from the translation memory first, with matches scoring at least this (50–100); the rest goes to the provider. With MEMORY (pre-translation) the default is 100 and nothing else is used.',
    }),
  }),
});

const BySettingsInput = builder.inputType('AutoTranslateBySettingsInput', {
  description:
    "Jobs configured by each language's auto-translation settings (the vendor command-line client's request).",
  fields: (t) => ({
    languageKeys: t.stringList({
      required: true,
      description:
        'Project languages to translate; empty: every language except the source ones (those another language is translated from). A language its settings cannot serve is skipped: reported as a job that ended FAILED saying why.',
    }),
    options: t.field({
      type: [JobOptionEnum],
      required: false,
      description: "Added to the options of each language's settings (FORCE_REPLACE only when given here).",
    }),
  }),
});

const SettingOptionEnum = builder.enumType('AutoTranslationSettingOption', {
  description: "Options kept in a language's auto-translation settings (FORCE_REPLACE is asked for with each request).",
  values: SETTING_OPTIONS,
});

const SettingsOriginEnum = builder.enumType('AutoTranslationSettingsOrigin', {
  description:
    "SAVED: set for the language; LAST_JOB: none saved, taken from the language's last job; DEFAULT: neither, the instance's provider and codes from the language key.",
  values: ['SAVED', 'LAST_JOB', 'DEFAULT'] as const,
});

const LanguageSettingsType = builder.objectRef<LanguageSettings>('AutoTranslationSettings').implement({
  description:
    'How a language is auto-translated when a request only names it (docs/jobs.md): the values a job would use now.',
  fields: (t) => ({
    languageKey: t.exposeString('languageKey'),
    origin: t.field({ type: SettingsOriginEnum, resolve: (s) => s.origin }),
    translationProvider: t.field({
      type: TranslationProviderEnum,
      nullable: true,
      description: 'null: none set and none configured for the instance.',
      resolve: (s) => s.translationProvider,
    }),
    sourceProjectLanguage: t.exposeString('sourceProjectLanguage'),
    sourceLanguage: t.exposeString('sourceLanguage', {
      nullable: true,
      description: "In the provider's notation; null: detected by the provider.",
    }),
    targetLanguage: t.exposeString('targetLanguage', {
      nullable: true,
      description: "In the provider's notation; null: the provider has no code for the language.",
    }),
    providerFormality: t.exposeString('providerFormality', { nullable: true }),
    providerGlossaryId: t.exposeString('providerGlossaryId', { nullable: true }),
    options: t.field({ type: [SettingOptionEnum], resolve: (s) => s.options }),
    isSource: t.exposeBoolean('isSource', {
      description: 'Another language is translated from this one: an empty languageKeys leaves it out.',
    }),
    problem: t.exposeString('problem', {
      nullable: true,
      description:
        'Why no job can start for the language with these settings (it would be skipped); null when one can.',
    }),
  }),
});

const SettingsInput = builder.inputType('AutoTranslationSettingsInput', {
  description: "A language's auto-translation settings; a field left out or null takes its default.",
  fields: (t) => ({
    translationProvider: t.field({
      type: TranslationProviderEnum,
      required: false,
      description: "Default: the instance's provider.",
    }),
    sourceProjectLanguage: t.string({ required: false, description: "Default: the project's default language." }),
    sourceLanguage: t.string({
      required: false,
      description: "The source in the provider's notation; default: made from the source language's key.",
    }),
    targetLanguage: t.string({
      required: false,
      description: "The target in the provider's notation; default: made from the language's key.",
    }),
    providerFormality: t.string({
      required: false,
      description: 'MT_PROVIDER_B: default, more, less, prefer_more, prefer_less.',
    }),
    providerGlossaryId: t.string({
      required: false,
      description: "MT_PROVIDER_B, with the project's own key and a source code.",
    }),
    options: t.field({ type: [SettingOptionEnum], required: false }),
  }),
});

const ProviderApiKeyStatusType = builder
  .objectRef<{ provider: (typeof TRANSLATION_PROVIDER_IDS)[number]; set: boolean }>('ProviderApiKeyStatus')
  .implement({
    description: 'Whether the project has its own API key of a provider (the key itself is write-only).',
    fields: (t) => ({
      provider: t.field({ type: TranslationProviderEnum, resolve: (s) => s.provider }),
      set: t.exposeBoolean('set'),
    }),
  });

builder.queryFields((t) => ({
  autoTranslationSettings: t.field({
    type: [LanguageSettingsType],
    description:
      "Every language of the project with the auto-translation settings a job for it would use, in the project's language order.",
    args: { projectToken: t.arg.string({ required: false }) },
    resolve: async (_root, args, ctx) =>
      resolveLanguageSettings(await resolveProject(ctx.principal, args.projectToken, need('autoTranslationSettings'))),
  }),
  providerApiKeys: t.field({
    type: [ProviderApiKeyStatusType],
    description:
      'The providers that take a project key (setProviderApiKey), each with whether one is set; no part of a key is ever returned.',
    args: { projectToken: t.arg.string({ required: false }) },
    resolve: async (_root, args, ctx) =>
      providerKeyStatus(await resolveProject(ctx.principal, args.projectToken, need('providerApiKeys'))),
  }),
  jobs: t.prismaField({
    type: [JobType],
    description: `Jobs of the project, newest first (at most ${JOB_LIST_LIMIT}), optionally only those of the given statuses and types.`,
    args: {
      projectToken: t.arg.string({ required: false }),
      status: t.arg({
        type: [JobStatusFilterEnum],
        required: false,
        description: 'Any of these statuses; none or empty: all.',
      }),
      type: t.arg({ type: [JobKindEnum], required: false, description: 'Any of these types; none or empty: all.' }),
    },
    resolve: async (query, _root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('jobs'));
      const where = jobListWhere(projectId, { status: args.status, type: args.type });
      return prisma().job.findMany({
        ...query,
        where,
        orderBy: [{ startedAt: 'desc' }, { id: 'asc' }],
        take: JOB_LIST_LIMIT,
      });
    },
  }),
  job: t.prismaField({
    type: JobType,
    args: { projectToken: t.arg.string({ required: false }), jobId: t.arg.string({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('job'));
      await jobOfProject(projectId, args.jobId);
      return prisma().job.findUniqueOrThrow({ ...query, where: { id: args.jobId } });
    },
  }),
}));

builder.mutationFields((t) => ({
  autoTranslate: t.prismaField({
    type: [JobType],
    description:
      'Starts one auto-translation job per target; answers at once with the jobs in state STARTED. Give exactly one of input (provider, languages and options spelled out: all or nothing) and bySettings (each language by its auto-translation settings; a language they cannot serve is a job FAILED at once, after the started ones).',
    args: {
      projectToken: t.arg.string({ required: false }),
      input: t.arg({ type: AutoTranslateInput, required: false }),
      bySettings: t.arg({ type: BySettingsInput, required: false }),
    },
    resolve: async (query, _root, { projectToken, input, bySettings }, ctx) => {
      const projectId = await resolveProject(ctx.principal, projectToken, need('autoTranslate'));
      if (!input === !bySettings) throw badRequest('Give exactly one of input and bySettings');
      let jobs;
      if (input) {
        const { targets, ...common } = input;
        jobs = await createAutoTranslateJobs(
          projectId,
          targets.map((target) => ({ ...common, ...target })),
        );
      } else {
        jobs = await startJobsFromSettings(projectId, bySettings!.languageKeys, bySettings!.options);
      }
      const rows = await prisma().job.findMany({ ...query, where: { id: { in: jobs.map((j) => j.id) } } });
      return jobs.map((j) => rows.find((r) => r.id === j.id)!);
    },
  }),
  cancelJob: t.prismaField({
    type: JobType,
    args: { projectToken: t.arg.string({ required: false }), jobId: t.arg.string({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('cancelJob'));
      await cancelJob(projectId, args.jobId);
      return prisma().job.findUniqueOrThrow({ ...query, where: { id: args.jobId } });
    },
  }),
  setAutoTranslationSettings: t.field({
    type: LanguageSettingsType,
    description:
      "Saves a language's auto-translation settings (replacing those saved before; a field left out takes its default) and answers what a job would now use.",
    args: {
      projectToken: t.arg.string({ required: false }),
      languageKey: t.arg.string({ required: true }),
      settings: t.arg({ type: SettingsInput, required: true }),
    },
    resolve: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('setAutoTranslationSettings'));
      await saveLanguageSettings(projectId, args.languageKey, args.settings);
      return (await resolveLanguageSettings(projectId)).find((s) => s.languageKey === args.languageKey)!;
    },
  }),
  resetAutoTranslationSettings: t.field({
    type: LanguageSettingsType,
    description:
      "Forgets a language's saved auto-translation settings: its last job's, else the defaults, apply again.",
    args: { projectToken: t.arg.string({ required: false }), languageKey: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('resetAutoTranslationSettings'));
      await resetLanguageSettings(projectId, args.languageKey);
      return (await resolveLanguageSettings(projectId)).find((s) => s.languageKey === args.languageKey)!;
    },
  }),
  setProviderApiKey: t.boolean({
    description: "Sets (or with null removes) the project's own API key of a provider; it is never shown again.",
    args: {
      projectToken: t.arg.string({ required: false }),
      provider: t.arg({ type: TranslationProviderEnum, required: true }),
      apiKey: t.arg.string({ required: false }),
    },
    resolve: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('setProviderApiKey'));
      await setProviderApiKey(projectId, args.provider, args.apiKey ?? null);
      return true;
    },
  }),
}));

/** Current state first, then every later event in order, ending with the final state. */
async function* jobEventStream(projectId: number, jobId: string): AsyncGenerator<JobEvent> {
  const iterator: AsyncIterator<JobEvent> = events().subscribe('job', jobId)[Symbol.asyncIterator]();
  // Start listening before reading the current state, so no event falls in between.
  let pending = iterator.next();
  try {
    const job = await jobOfProject(projectId, jobId);
    let last = Number((job.checkpoint as { sequence?: number }).sequence ?? 0);
    yield {
      jobId,
      projectId,
      state: job.state,
      progress: job.progress,
      message: job.message,
      sequence: last,
      at: job.updatedAt.toISOString(),
    };
    if (FINAL_STATES.has(job.state)) return;
    for (;;) {
      const next = await pending;
      if (next.done) return;
      const value: JobEvent = next.value;
      pending = iterator.next();
      if (value.sequence <= last) continue;
      last = value.sequence;
      yield value;
      if (FINAL_STATES.has(value.state)) return;
    }
  } finally {
    await iterator.return?.();
  }
}

builder.subscriptionFields((t) => ({
  jobProgress: t.field({
    type: JobEventType,
    description:
      "One job's state and progress: the current state first, then every change, ending with the final state.",
    args: { projectToken: t.arg.string({ required: false }), jobId: t.arg.string({ required: true }) },
    subscribe: async (_root, args, ctx) =>
      jobEventStream(await resolveProject(ctx.principal, args.projectToken, need('jobProgress')), args.jobId),
    resolve: (event) => event,
  }),
  projectJobEvents: t.field({
    type: JobEventType,
    description: 'Every job event of the project.',
    args: { projectToken: t.arg.string({ required: false }) },
    subscribe: async (_root, args, ctx) =>
      events().subscribe(
        'project-jobs',
        await resolveProject(ctx.principal, args.projectToken, need('projectJobEvents')),
      ),
    resolve: (event) => event,
  }),
}));
