// Creating auto-translation jobs: every request of a call is validated (our
// languages, the provider's notation and options, the glossary at the provider,
// the plan) before any job is written; then all jobs are inserted in one
// transaction and the worker is woken. Requests built from settings
// (from-settings.ts) skip a language whose request is refused instead of
// refusing them all: it is written as a job that ended FAILED, saying why.
// With an idempotency key (an automation's action: automation:<runId>:<index>)
// the jobs carry it, and a call whose key already has jobs returns those: a
// run taken over after its runner died between starting them and saving its
// log does not translate twice.
import { randomUUID } from 'node:crypto';
import { Prisma, type Job } from '../generated/prisma/client.js';
import { prisma, type Db } from '../db.js';
import { AppError, badRequest, paymentRequired } from '../errors.js';
import { isLlmProviderId, type TranslationProviderId } from '../mt/types.js';
import { planOfProject } from '../plans/plans.js';
import { normalizeRequest, type AutoTranslateInput, type AutoTranslateRequest } from './request.js';
import { llmClientForProject, providerForProject } from './provider.js';
import { publishJobEvent } from './events.js';
import { wakeWorkers } from './worker.js';
import { openChange } from '../content/changes.js';
import { currentOrigin } from '../content/origin.js';
import { jobMessage, jobPart } from './messages.js';

/** The small progress a new job shows (contract: "small value at start"). */
export const INITIAL_PROGRESS = 0.01;
/** A new job's message (the contract's 'OK'). */
const started = jobMessage(jobPart('started'));
const MAX_JOBS_PER_CALL = 50;

/** A target language left out of a request built from settings, and why. */
export interface SkippedTarget {
  targetProjectLanguage: string;
  translationProvider: TranslationProviderId | null;
  targetLanguage: string | null;
  sourceProjectLanguage: string;
  reason: string;
}

/**
 * Validates and creates the jobs. With `skipped` (requests built from
 * settings), a request refused as bad (400) joins those skipped, and the call
 * is refused only when nothing is left to start; otherwise one bad request
 * refuses all. With `idempotencyKey`, the jobs already created under that key
 * are returned instead, when there are any.
 */
export async function createAutoTranslateJobs(
  projectId: number,
  inputs: AutoTranslateInput[],
  settings?: { skipped: SkippedTarget[] },
  idempotencyKey?: string,
) {
  const skipped = settings ? [...settings.skipped] : [];
  if (inputs.length + skipped.length === 0)
    throw badRequest(settings ? 'At least one target language is required' : 'targets must name at least one language');
  if (inputs.length + skipped.length > MAX_JOBS_PER_CALL)
    throw badRequest(`At most ${MAX_JOBS_PER_CALL} target languages per request`);
  const plan = await planOfProject(projectId);
  if (!plan.autoTranslation) throw paymentRequired(`Auto-translation is not included in the ${plan.name} plan`);
  const requests: AutoTranslateRequest[] = [];
  for (const input of inputs) {
    let request: AutoTranslateRequest;
    try {
      request = await validatedRequest(projectId, input);
    } catch (error) {
      if (!settings || !(error instanceof AppError) || error.code !== 'BAD_REQUEST') throw error;
      skipped.push({
        targetProjectLanguage: input.targetProjectLanguage,
        translationProvider: input.translationProvider,
        targetLanguage: input.targetLanguage,
        sourceProjectLanguage: input.sourceProjectLanguage ?? '',
        reason: `${input.translationProvider} cannot translate into '${input.targetProjectLanguage}': ${error.message}`,
      });
      continue;
    }
    if (request.options.includes('AUTO_PUBLISH') && !plan.allowsPublishing) {
      throw paymentRequired(`AUTO_PUBLISH needs publishing, which is not included in the ${plan.name} plan`);
    }
    requests.push(request);
  }
  if (requests.length === 0)
    throw badRequest(`No language can be auto-translated: ${skipped.map((s) => s.reason).join('; ')}`);
  // The job acts for whoever started it: its writes are recorded as the job's, from the starter's source.
  const origin = currentOrigin() as object;
  const key = idempotencyKey ?? null;
  const { jobs, existed } = await prisma().$transaction(async (tx) => {
    if (key !== null) {
      const existing = await jobsOfKey(tx, projectId, key);
      if (existing.length)
        return {
          jobs: inTargetOrder(existing, [
            ...requests.map((r) => r.targetProjectLanguage),
            ...skipped.map((s) => s.targetProjectLanguage),
          ]),
          existed: true,
        };
    }
    const created = [];
    for (const request of requests) {
      const job = await tx.job.create({
        data: {
          id: randomUUID(),
          projectId,
          request: request as object,
          progress: INITIAL_PROGRESS,
          message: started.message,
          messageText: started.parts as object[],
          checkpoint: { sequence: 0 },
          origin: { ...origin },
          idempotencyKey: key,
        },
      });
      await openChange(tx, projectId, 'JOB_STARTED', {
        jobId: job.id,
        jobKind: job.kind,
        targetLanguage: request.targetProjectLanguage,
        provider: request.translationProvider,
      });
      created.push(job);
    }
    for (const target of skipped) created.push(await createSkippedJob(tx, projectId, target, origin, key));
    return { jobs: created, existed: false };
  });
  if (existed) return jobs;
  for (const job of jobs) publishJobEvent(job);
  wakeWorkers();
  return jobs;
}

/**
 * The jobs created under `key`, read holding a transaction-scoped advisory
 * lock on it: a run taken over while its first runner is still creating them
 * waits for that transaction and then finds them.
 */
async function jobsOfKey(tx: Db, projectId: number, key: string): Promise<Job[]> {
  await tx.$executeRaw(
    Prisma.sql`/* jobs:idempotency-lock */ SELECT pg_advisory_xact_lock(hashtextextended(${`job:${key}`}, 0))`,
  );
  return tx.job.findMany({ where: { projectId, idempotencyKey: key } });
}

/** Jobs in the order their languages were asked for (the order a first call returned them in). */
function inTargetOrder(jobs: Job[], targets: string[]): Job[] {
  const rank = (job: Job) => {
    const at = targets.indexOf((job.request as { targetProjectLanguage?: string }).targetProjectLanguage ?? '');
    return at === -1 ? targets.length : at;
  };
  return [...jobs].sort((a, b) => rank(a) - rank(b));
}

async function validatedRequest(projectId: number, input: AutoTranslateInput): Promise<AutoTranslateRequest> {
  const request = await normalizeRequest(projectId, input);
  const { provider } = await providerForProject(projectId, request.translationProvider);
  // A language model's configuration (URL, headers, prices, response format) is refused now, not when the job runs.
  if (isLlmProviderId(request.translationProvider))
    await llmClientForProject(projectId, request.translationProvider, { jobId: null });
  const options = provider.validateRequest({
    sourceLanguage: request.sourceLanguage,
    targetLanguage: request.targetLanguage,
    formality: request.providerFormality,
    glossaryId: request.providerGlossaryId,
  });
  // validateRequest refuses a glossary without the project's own key or a source language.
  if (options.glossaryId)
    await provider.checkGlossary(options.glossaryId, options.sourceLanguage!, options.targetLanguage);
  return request;
}

/**
 * A skipped language's report: a job that ended FAILED when it was created
 * (no worker takes it; the client's RUNNING poll does not wait for it), its
 * message saying why, its metadata what it would have used.
 */
async function createSkippedJob(
  tx: Db,
  projectId: number,
  target: SkippedTarget,
  origin: object,
  idempotencyKey: string | null,
) {
  const { message, parts } = jobMessage(jobPart('skipped', { reason: target.reason }));
  const job = await tx.job.create({
    data: {
      id: randomUUID(),
      projectId,
      state: 'FAILED',
      progress: 0,
      message,
      messageText: parts as object[],
      finishedAt: new Date(),
      checkpoint: { sequence: 1 },
      origin: { ...origin },
      idempotencyKey,
      request: { ...target, options: [], skipped: true },
      metadata: {
        targetProjectLanguage: target.targetProjectLanguage,
        targetLanguage: target.targetLanguage ?? '',
        sourceType: 'TRANSLATIONS',
        options: '',
        translationProvider: target.translationProvider ?? '',
        sourceProjectLanguage: target.sourceProjectLanguage,
        sourceLanguage: '',
      },
    },
  });
  await openChange(tx, projectId, 'JOB_FINISHED', {
    jobId: job.id,
    jobKind: job.kind,
    state: job.state,
    message,
    messageText: parts,
    activityId: null,
  });
  return job;
}
