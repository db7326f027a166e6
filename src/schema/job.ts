import { builder } from '../builder.js';
import { prisma } from '../db.js';
import { events, type JobEvent } from '../events/pubsub.js';
import { resolveProject } from '../projects/access.js';
import { need } from '../teams/permissions.js';
import { createAutoTranslateJobs } from '../jobs/create.js';
import { cancelJob, FINAL_STATES, JOB_LIST_LIMIT, JOB_STATUS_FILTERS, JOB_TYPES, jobListWhere, jobOfProject, jobTypeOf, type JobStatusFilter, type JobTypeName } from '../jobs/queries.js';
import { likeLastJobInputs } from '../jobs/like-last.js';
import { badRequest } from '../errors.js';
import { providerKeyStatus, setProviderApiKey } from '../jobs/provider-keys.js';
import { JOB_OPTIONS, type AutoTranslateRequest } from '../jobs/request.js';
import { TRANSLATION_PROVIDER_IDS } from '../mt/types.js';

export const TranslationProviderEnum = builder.enumType('TranslationProvider', {
  description: 'A machine-translation provider (docs/jobs.md); PSEUDO writes pseudo-translations, for testing layouts.',
  values: TRANSLATION_PROVIDER_IDS,
});

const JobOptionEnum = builder.enumType('JobOption', {
  description: 'USE_TRANSLATION_KEYS: translate the key where the source text is empty; FORCE_REPLACE: overwrite existing translations; AUTO_PUBLISH: publish to _latest when done.',
  values: JOB_OPTIONS,
});

export const JobStateEnum = builder.enumType('JobState', {
  description: 'STARTED → SUCCESS | FAILED | CANCELLED (see docs/jobs.md).',
  values: ['STARTED', 'SUCCESS', 'FAILED', 'CANCELLED'] as const,
});

export const JobStatusFilterEnum = builder.enumType('JobStatusFilter', {
  description: 'Statuses of the job list filter: RUNNING (the vendor\'s name) and STARTED are every job not finished yet (waiting for a worker or being worked on); SUCCESS, FAILED, CANCELLED the final states.',
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
    metadata: t.field({ type: 'JSON', description: 'Empty at start; the contract metadata afterwards.', resolve: (j) => j.metadata }),
    // From the accepted request, so a running job (empty metadata) still says what it does.
    translationProvider: t.field({ type: TranslationProviderEnum, resolve: (j) => (j.request as unknown as AutoTranslateRequest).translationProvider }),
    sourceProjectLanguage: t.string({ resolve: (j) => (j.request as unknown as AutoTranslateRequest).sourceProjectLanguage }),
    targetProjectLanguage: t.string({ resolve: (j) => (j.request as unknown as AutoTranslateRequest).targetProjectLanguage }),
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
  }),
});

const LikeLastJobInput = builder.inputType('AutoTranslateLikeLastJobInput', {
  description: "Jobs configured like each language's last job (the vendor command-line client's request).",
  fields: (t) => ({
    languageKeys: t.stringList({
      required: true,
      description: "Project languages to translate; empty: every language except those that are the source of another language's last job. A language without a previous job is refused (400) naming it.",
    }),
    options: t.field({
      type: [JobOptionEnum],
      required: false,
      description: 'Added to USE_TRANSLATION_KEYS / AUTO_PUBLISH of the last job (FORCE_REPLACE only when given here).',
    }),
  }),
});

const ProviderApiKeyStatusType = builder.objectRef<{ provider: (typeof TRANSLATION_PROVIDER_IDS)[number]; set: boolean }>('ProviderApiKeyStatus').implement({
  description: 'Whether the project has its own API key of a provider (the key itself is write-only).',
  fields: (t) => ({
    provider: t.field({ type: TranslationProviderEnum, resolve: (s) => s.provider }),
    set: t.exposeBoolean('set'),
  }),
});

builder.queryFields((t) => ({
  providerApiKeys: t.field({
    type: [ProviderApiKeyStatusType],
    description: 'The providers that take a project key (setProviderApiKey), each with whether one is set; no part of a key is ever returned.',
    args: { projectToken: t.arg.string({ required: false }) },
    resolve: async (_root, args, ctx) => providerKeyStatus(await resolveProject(ctx.principal, args.projectToken, need('providerApiKeys'))),
  }),
  jobs: t.prismaField({
    type: [JobType],
    description: `Jobs of the project, newest first (at most ${JOB_LIST_LIMIT}), optionally only those of the given statuses and types.`,
    args: {
      projectToken: t.arg.string({ required: false }),
      status: t.arg({ type: [JobStatusFilterEnum], required: false, description: 'Any of these statuses; none or empty: all.' }),
      type: t.arg({ type: [JobKindEnum], required: false, description: 'Any of these types; none or empty: all.' }),
    },
    resolve: async (query, _root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('jobs'));
      const where = jobListWhere(projectId, { status: args.status, type: args.type });
      return prisma().job.findMany({ ...query, where, orderBy: [{ startedAt: 'desc' }, { id: 'asc' }], take: JOB_LIST_LIMIT });
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
    description: "Starts one auto-translation job per target; answers at once with the jobs in state STARTED. Give exactly one of input (provider, languages and options spelled out) and likeLastJob (each language like its last job).",
    args: {
      projectToken: t.arg.string({ required: false }),
      input: t.arg({ type: AutoTranslateInput, required: false }),
      likeLastJob: t.arg({ type: LikeLastJobInput, required: false }),
    },
    resolve: async (query, _root, { projectToken, input, likeLastJob }, ctx) => {
      const projectId = await resolveProject(ctx.principal, projectToken, need('autoTranslate'));
      if (!input === !likeLastJob) throw badRequest('Give exactly one of input and likeLastJob');
      let requests;
      if (input) {
        const { targets, ...common } = input;
        requests = targets.map((target) => ({ ...common, ...target }));
      } else {
        requests = await likeLastJobInputs(projectId, likeLastJob!.languageKeys, likeLastJob!.options);
      }
      const jobs = await createAutoTranslateJobs(projectId, requests);
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
  setProviderApiKey: t.boolean({
    description: "Sets (or with null removes) the project's own API key of a provider; it is never shown again.",
    args: { projectToken: t.arg.string({ required: false }), provider: t.arg({ type: TranslationProviderEnum, required: true }), apiKey: t.arg.string({ required: false }) },
    resolve: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('setProviderApiKey'));
      await setProviderApiKey(projectId, args.provider, args.apiKey ?? null);
      return true;
    },
  }),
}));

/** Current state first, then every later event in order, ending with the final state. */
async function* jobEventStream(projectId: number, jobId: string): AsyncGenerator<JobEvent> {
  const iterator = events().subscribe('job', jobId)[Symbol.asyncIterator]();
  // Start listening before reading the current state, so no event falls in between.
  let pending = iterator.next();
  try {
    const job = await jobOfProject(projectId, jobId);
    let last = Number((job.checkpoint as { sequence?: number }).sequence ?? 0);
    yield { jobId, projectId, state: job.state, progress: job.progress, message: job.message, sequence: last, at: job.updatedAt.toISOString() };
    if (FINAL_STATES.has(job.state)) return;
    for (;;) {
      const { value, done } = await pending;
      if (done) return;
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
    description: "One job's state and progress: the current state first, then every change, ending with the final state.",
    args: { projectToken: t.arg.string({ required: false }), jobId: t.arg.string({ required: true }) },
    subscribe: async (_root, args, ctx) => jobEventStream(await resolveProject(ctx.principal, args.projectToken, need('jobProgress')), args.jobId),
    resolve: (event) => event,
  }),
  projectJobEvents: t.field({
    type: JobEventType,
    description: 'Every job event of the project.',
    args: { projectToken: t.arg.string({ required: false }) },
    subscribe: async (_root, args, ctx) => events().subscribe('project-jobs', await resolveProject(ctx.principal, args.projectToken, need('projectJobEvents'))),
    resolve: (event) => event,
  }),
}));
