// Runs one claimed auto-translation job: keys are taken in id order in
// batches; each batch is translated, written and checkpointed in one
// transaction, so a job resumed after a crash continues after the last
// committed batch (at most one batch is sent to the provider twice).
import { prisma } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';
import { arrayLiteral } from '../db/array-literal.js';
import { AppError } from '../errors.js';
import type { Job } from '../generated/prisma/client.js';
import { MtProviderError, isLlmProviderId } from '../mt/types.js';
import type { LlmClient } from '../mt/llm/client.js';
import { contextFor } from '../llm/context-settings.js';
import { projectMemoryScope } from '../llm/context.js';
import { pruneExchanges } from '../llm/log.js';
import { translateWithContext, type ContextualResult } from '../llm/translate.js';
import type { MemoryScope } from '../memory/scope.js';
import { translateTexts, type TranslateTextsResult } from '../mt/index.js';
import { writeTranslations } from '../content/translations/gate.js';
import { openChange } from '../content/changes.js';
import { announceChanges } from '../history/notify.js';
import { publishAfterWrite } from '../transfer/publish-after-import.js';
import type { Cell } from '../content/translations/store.js';
import type { AutoTranslateRequest } from './request.js';
import { llmClientForProject, providerForProject } from './provider.js';
import { publishJobEvent } from './events.js';
import { failJob, succeedJob } from './finish.js';
import { jobMessage, jobPart } from './messages.js';
import { addUsage, MAX_LISTED_FAILURES, summary, type Checkpoint } from './checkpoint.js';
import { fillFromMemory } from './memory-fill.js';
import { withBatchGlossary } from './glossary-handoff.js';

export class LeaseLostError extends Error {
  constructor() {
    super('The job lease was lost');
  }
}
export class JobCancelledError extends Error {
  constructor() {
    super('The job was cancelled');
  }
}

/** Keys per engine batch (the provider layer splits further by its own limits). */
const BATCH = 100;

interface Candidate {
  id: number;
  key: string;
  namespace: string;
  source: string;
}

interface CandidateFilter {
  projectId: number;
  sourceId: number;
  targetId: number;
  useKeys: boolean;
  force: boolean;
  /** The job's keys, as an array literal; null for all keys. */
  keyIds: string | null;
}

/**
 * Keys with something to translate. Locked keys are never sent to the
 * provider (they would be refused by the write gate anyway, after being paid
 * for): the count up front says how many were left out, for the summary.
 */
function candidateSql(name: Prisma.Sql, select: Prisma.Sql, filter: CandidateFilter, tail: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`${name}
    SELECT ${select}
            FROM "TranslationKey" k
            LEFT JOIN "Translation" src ON src."keyId" = k.id AND src."languageId" = ${filter.sourceId}
            LEFT JOIN "Translation" tgt ON tgt."keyId" = k.id AND tgt."languageId" = ${filter.targetId}
           WHERE k."projectId" = ${filter.projectId}
             AND (coalesce(src.text, '') <> '' OR ${filter.useKeys})
             AND (${filter.force} OR coalesce(tgt.text, '') = '')
             AND (${filter.keyIds}::int[] IS NULL OR k.id = ANY(${filter.keyIds}::int[]))
             ${tail}`;
}

export async function runJob(job: Job, context: { owner: string; signal: AbortSignal }): Promise<void> {
  const request = job.request as unknown as AutoTranslateRequest;
  const useKeys = request.options.includes('USE_TRANSLATION_KEYS');
  const force = request.options.includes('FORCE_REPLACE');
  const languages = await prisma().language.findMany({
    where: { projectId: job.projectId, key: { in: [request.sourceProjectLanguage, request.targetProjectLanguage] } },
  });
  const source = languages.find((l) => l.key === request.sourceProjectLanguage);
  const target = languages.find((l) => l.key === request.targetProjectLanguage);
  if (!source || !target) {
    await failJob(
      job,
      context.owner,
      `Language ${!source ? request.sourceProjectLanguage : request.targetProjectLanguage} no longer exists in the project`,
    );
    return;
  }
  const { provider } = await providerForProject(job.projectId, request.translationProvider);
  const options = provider.validateRequest({
    sourceLanguage: request.sourceLanguage,
    targetLanguage: request.targetLanguage,
    formality: request.providerFormality,
    glossaryId: request.providerGlossaryId,
  });
  // Language models translate each text with its context (src/llm/), checked before it is written.
  let llm:
    | {
        client: LlmClient;
        scope: MemoryScope;
        header: { projectDescription: string; style: string; sourceLanguage: string; targetLanguage: string };
      }
    | undefined;
  if (isLlmProviderId(request.translationProvider)) {
    let client: LlmClient;
    try {
      client = await llmClientForProject(job.projectId, request.translationProvider, { jobId: job.id });
    } catch (error) {
      // A configuration the operator or the project got wrong: retrying the job would not help.
      if (!(error instanceof AppError)) throw error;
      await failJob(job, context.owner, error.message);
      return;
    }
    await pruneExchanges(client.config.logRetentionDays);
    const told = await contextFor(job.projectId, target.id);
    llm = {
      client,
      scope: await projectMemoryScope(job.projectId),
      header: {
        projectDescription: told.description,
        style: told.style,
        sourceLanguage: request.sourceLanguage ?? source.key,
        targetLanguage: request.targetLanguage,
      },
    };
  }
  // The memory first (memoryMinScore), or only (MEMORY: pre-translation).
  const memory =
    request.memoryMinScore !== undefined
      ? { scope: llm?.scope ?? (await projectMemoryScope(job.projectId)), minScore: request.memoryMinScore }
      : undefined;
  const memoryOnly = request.translationProvider === 'MEMORY';
  const saved = (job.checkpoint ?? {}) as unknown as Partial<Checkpoint>;
  const checkpoint: Checkpoint = { texts: 0, characters: 0, ...saved, sequence: saved.sequence ?? 0 };
  const filter: CandidateFilter = {
    projectId: job.projectId,
    sourceId: source.id,
    targetId: target.id,
    useKeys,
    force,
    keyIds: request.keyIds ? arrayLiteral(request.keyIds, (id) => id) : null,
  };
  if (checkpoint.total === undefined) {
    const [row] = await prisma().$queryRaw<{ n: number; locked: number }[]>(
      candidateSql(
        Prisma.sql`/* jobs:count-candidates */`,
        Prisma.sql`count(*) FILTER (WHERE NOT k.lock)::int AS n, count(*) FILTER (WHERE k.lock)::int AS locked`,
        filter,
        Prisma.empty,
      ),
    );
    checkpoint.total = row!.n;
    checkpoint.skippedLocked = row!.locked;
    checkpoint.processed = 0;
  }

  for (;;) {
    if (context.signal.aborted) throw context.signal.reason;
    const read = await prisma().$queryRaw<Candidate[]>(
      candidateSql(
        Prisma.sql`/* jobs:candidates */`,
        Prisma.sql`k.id, k.key, k.namespace, coalesce(src.text, '') AS source`,
        filter,
        Prisma.sql`AND NOT k.lock AND k.id > ${checkpoint.cursor ?? 0} ORDER BY k.id LIMIT ${BATCH}`,
      ),
    );
    if (read.length === 0) break;
    const textOf = (c: Candidate) => (c.source !== '' ? c.source : c.key);
    const fromMemory = memory
      ? await fillFromMemory(
          memory.scope,
          { source: source.key, target: target.key },
          read.map((c) => ({ id: c.id, key: c.key, namespace: c.namespace, text: textOf(c) })),
          memory.minScore,
        )
      : new Map<number, { text: string; score: number }>();
    // What the provider is asked for: the keys the memory did not fill (none for MEMORY itself).
    const batch = memoryOnly ? [] : read.filter((c) => !fromMemory.has(c.id));
    const texts = batch.map(textOf);
    let result: TranslateTextsResult | undefined;
    let contextual: ContextualResult | undefined;
    /** Glossary terms handed to the provider with this batch. */
    let glossaryTerms = 0;
    try {
      if (batch.length === 0) {
        // Nothing left for the provider.
      } else if (llm) {
        contextual = await translateWithContext({
          client: llm.client,
          header: llm.header,
          scope: llm.scope,
          signal: context.signal,
          pair: {
            projectId: job.projectId,
            sourceLanguageId: source.id,
            sourceLanguage: source.key,
            targetLanguageId: target.id,
            targetLanguage: target.key,
          },
          keys: batch.map((c, i) => ({ id: c.id, source: texts[i]! })),
        });
      } else {
        result = await withBatchGlossary(
          provider,
          { id: job.id, projectId: job.projectId, sourceKey: source.key, targetKey: target.key },
          texts,
          options,
          (batchOptions, terms) => {
            glossaryTerms = terms;
            return translateTexts(provider, texts, batchOptions, { signal: context.signal });
          },
          context.signal,
        );
      }
    } catch (error) {
      if (error instanceof MtProviderError && !context.signal.aborted) {
        // The failed batch's requests were billed too: they count in the job's usage.
        if (llm && error.spent?.requests) {
          const usage = addUsage(checkpoint.llmUsage, llm.client.config, error.spent);
          await prisma().$executeRaw(Prisma.sql`/* jobs:record-failed-usage */
            UPDATE "Job" SET checkpoint = jsonb_set(checkpoint, '{llmUsage}', ${JSON.stringify(usage)}::jsonb), "updatedAt" = now()
             WHERE id = ${job.id} AND "leaseOwner" = ${context.owner} AND state = 'STARTED'`);
        }
        await failJob(job, context.owner, `${request.translationProvider}: ${error.providerMessage ?? error.message}`);
        return;
      }
      throw error;
    }
    // A memory match is a proposal like a machine's: never reviewed.
    const cells: Cell[] = read
      .filter((c) => fromMemory.has(c.id))
      .map((c) => ({
        keyId: c.id,
        languageId: target.id,
        customerId: null,
        text: fromMemory.get(c.id)!.text,
        reviewStatus: 'NOT_REVIEWED' as const,
      }));
    const noMatch = memoryOnly ? read.length - fromMemory.size : 0;
    let failed = 0;
    let characters = result?.stats.characters ?? 0;
    const failures: { key: string; message: string }[] = [];
    if (contextual) {
      for (const [i, candidate] of batch.entries()) {
        const outcome = contextual.outcomes.get(candidate.id);
        if (outcome?.ok) {
          // A model's text is a proposal: never reviewed, whatever the cell was.
          cells.push({
            keyId: candidate.id,
            languageId: target.id,
            customerId: null,
            text: outcome.text,
            reviewStatus: 'NOT_REVIEWED',
          });
          characters += [...texts[i]!].length;
        } else {
          failed++;
          failures.push({ key: candidate.key, message: outcome?.message ?? 'the key was not found' });
        }
      }
    } else {
      (result?.outcomes ?? []).forEach((outcome, i) => {
        if (!outcome.ok) {
          failed++;
          return;
        }
        cells.push({ keyId: batch[i]!.id, languageId: target.id, customerId: null, text: outcome.text });
      });
    }
    const cursor = read[read.length - 1]!.id;
    const processed = (checkpoint.processed ?? 0) + read.length;
    const progress = Math.min(0.99, Math.max(job.progress, processed / Math.max(1, checkpoint.total)));
    // The callback leaves `checkpoint` alone until the transaction has committed: a
    // transaction whose connection was lost is replayed from the start (src/db/connection-loss.ts).
    const { updated, next } = await prisma().$transaction(async (tx) => {
      // The write gate refuses texts over the key's charactersLimit (and keys locked since the batch was read): counted, not written.
      // The first committed batch opens the job's change; later batches (and a resumed job) add to it.
      const change = checkpoint.activityId
        ? { id: BigInt(checkpoint.activityId), projectId: job.projectId }
        : await openChange(tx, job.projectId, 'AUTO_TRANSLATION', {
            jobId: job.id,
            targetLanguage: request.targetProjectLanguage,
            provider: request.translationProvider,
            ...(llm && { model: llm.client.config.model }),
          });
      const written = await writeTranslations(tx, job.projectId, cells, {
        replace: force ? true : 'empty',
        listRefusals: 0,
        change,
      });
      const next = {
        ...checkpoint,
        activityId: String(change.id),
        cursor,
        processed,
        texts: checkpoint.texts + cells.length - written.refused.LOCKED - written.refused.CHARACTERS_LIMIT,
        characters: checkpoint.characters + characters,
        skippedOverLimit: (checkpoint.skippedOverLimit ?? 0) + written.refused.CHARACTERS_LIMIT,
        skippedLocked: (checkpoint.skippedLocked ?? 0) + written.refused.LOCKED,
        failedTexts: (checkpoint.failedTexts ?? 0) + failed,
        ...(glossaryTerms > 0 && { glossaryTerms: (checkpoint.glossaryTerms ?? 0) + glossaryTerms }),
        ...(memory && {
          memoryFilled: (checkpoint.memoryFilled ?? 0) + fromMemory.size,
          memoryNoMatch: (checkpoint.memoryNoMatch ?? 0) + noMatch,
        }),
        sequence: checkpoint.sequence + 1,
        ...(llm &&
          contextual && {
            llmUsage: addUsage(checkpoint.llmUsage, llm.client.config, contextual.usage),
            llmFailures: [...(checkpoint.llmFailures ?? []), ...failures].slice(0, MAX_LISTED_FAILURES),
            llmRetriedTexts: (checkpoint.llmRetriedTexts ?? 0) + contextual.retriedTexts,
          }),
      };
      const rows = await tx.$queryRaw<Job[]>(Prisma.sql`/* jobs:checkpoint */
        UPDATE "Job" SET checkpoint = ${JSON.stringify(next)}::jsonb, progress = ${progress}, "updatedAt" = now()
          WHERE id = ${job.id} AND "leaseOwner" = ${context.owner} AND state = 'STARTED' RETURNING *`);
      // Another worker owns the job now: roll this batch back.
      if (!rows[0]) throw new LeaseLostError();
      return { updated: rows[0], next };
    });
    Object.assign(checkpoint, next);
    publishJobEvent(updated);
    // Live editors see the batch now, not when the job ends.
    await announceChanges([{ projectId: job.projectId, id: BigInt(checkpoint.activityId!) }]);
    if (updated.cancelRequested) throw new JobCancelledError();
  }

  await succeedJob(job, context.owner, summary(checkpoint), {
    targetProjectLanguage: request.targetProjectLanguage,
    targetLanguage: request.targetLanguage,
    sourceType: useKeys ? 'TRANSLATIONS_OR_KEYS' : 'TRANSLATIONS',
    options: request.options.join(','),
    translationProvider: request.translationProvider,
    sourceProjectLanguage: request.sourceProjectLanguage,
    sourceLanguage: request.sourceLanguage ?? '',
  });
  if (request.options.includes('AUTO_PUBLISH')) await autoPublish(job);
}

/** AUTO_PUBLISH: after success, publish _latest (src/transfer/publish-after-import.ts); a failure is noted on the job. */
async function autoPublish(job: Job): Promise<void> {
  const outcome = await publishAfterWrite(job.projectId, 'AUTO_PUBLISH');
  if (outcome.published) return;
  const done = await prisma().job.findUniqueOrThrow({ where: { id: job.id } });
  const note = jobMessage(jobPart('not-published', { code: outcome.code, reason: outcome.reason }));
  await prisma().job.update({
    where: { id: job.id },
    data: {
      message: `${done.message}; ${note.message}`,
      messageText: done.messageText ? [...(done.messageText as object[]), ...note.parts] : undefined,
    },
  });
}
