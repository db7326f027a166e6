// Creating auto-translation jobs: every request of a call is validated (our
// languages, the provider's notation and options, the glossary at the provider,
// the plan) before any job is written; then all jobs are inserted in one
// transaction and the worker is woken.
import { randomUUID } from 'node:crypto';
import { prisma } from '../db.js';
import { badRequest, paymentRequired } from '../errors.js';
import { planOfProject } from '../plans/plans.js';
import { normalizeRequest, type AutoTranslateInput, type AutoTranslateRequest } from './request.js';
import { providerForProject } from './provider.js';
import { publishJobEvent } from './events.js';
import { wakeWorkers } from './worker.js';
import { openChange } from '../history/changes.js';
import { currentOrigin } from '../history/origin.js';

/** The small progress a new job shows (contract: "small value at start"). */
export const INITIAL_PROGRESS = 0.01;
const MAX_JOBS_PER_CALL = 50;

export async function createAutoTranslateJobs(projectId: number, inputs: AutoTranslateInput[]) {
  if (inputs.length === 0) throw badRequest('At least one target language is required');
  if (inputs.length > MAX_JOBS_PER_CALL) throw badRequest(`At most ${MAX_JOBS_PER_CALL} target languages per request`);
  const plan = await planOfProject(projectId);
  if (!plan.autoTranslation) throw paymentRequired(`Auto-translation is not included in the ${plan.name} plan`);
  const requests: AutoTranslateRequest[] = [];
  for (const input of inputs) {
    const request = await normalizeRequest(projectId, input);
    if (request.options.includes('AUTO_PUBLISH') && !plan.allowsPublishing) {
      throw paymentRequired(`AUTO_PUBLISH needs publishing, which is not included in the ${plan.name} plan`);
    }
    const { provider } = await providerForProject(projectId, request.translationProvider);
    const options = provider.validateRequest({
      sourceLanguage: request.sourceLanguage,
      targetLanguage: request.targetLanguage,
      formality: request.providerFormality,
      glossaryId: request.providerGlossaryId,
    });
    // validateRequest refuses a glossary without the project's own key or a source language.
    if (options.glossaryId) await provider.checkGlossary(options.glossaryId, options.sourceLanguage!, options.targetLanguage);
    requests.push(request);
  }
  // The job acts for whoever started it: its writes are recorded as the job's, from the starter's source.
  const origin = currentOrigin();
  const jobs = await prisma().$transaction(async (tx) => {
    const created = [];
    for (const request of requests) {
      const job = await tx.job.create({
        data: { id: randomUUID(), projectId, request: request as object, progress: INITIAL_PROGRESS, message: 'OK', checkpoint: { sequence: 0 }, origin: { ...origin } },
      });
      await openChange(tx, projectId, 'JOB_STARTED', { jobId: job.id, jobKind: job.kind, targetLanguage: request.targetProjectLanguage, provider: request.translationProvider });
      created.push(job);
    }
    return created;
  });
  for (const job of jobs) publishJobEvent(job);
  wakeWorkers();
  return jobs;
}
