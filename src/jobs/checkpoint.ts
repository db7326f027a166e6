// The progress an auto-translation job records after each committed batch,
// and the summary message built from it. Shared by the runner (run.ts), which
// writes it, and the final state changes (finish.ts), which need neither the
// other nor the runner.
import { jobMessage, jobPart, type JobMessage } from './messages.js';

export interface Checkpoint {
  sequence: number;
  /** Last key id whose batch is committed. */
  cursor?: number;
  total?: number;
  processed?: number;
  texts: number;
  characters: number;
  /** Translations the write gate refused: longer than their key's charactersLimit. */
  skippedOverLimit?: number;
  /** Keys not translated because they are locked (counted up front, plus any the write gate refused). */
  skippedLocked?: number;
  /** Texts the provider layer could not translate safely (lost placeholders, too large). */
  failedTexts?: number;
  /** The job's change (activity id): every batch records its cells in it, so the job can be reverted as one. */
  activityId?: string;
  /** Language models: tokens per provider and model ("provider model"), with the estimated cost when prices are configured. */
  llmUsage?: Record<string, LlmUsage>;
  /** Language models: the first texts left unwritten because the answer failed the checks twice, and why. */
  llmFailures?: { key: string; message: string }[];
  /** Language models: texts that passed the checks on the second attempt. */
  llmRetriedTexts?: number;
  /** Cells filled from the translation memory (memoryMinScore, MEMORY). */
  memoryFilled?: number;
  /** MEMORY: keys without a match at the score (left as they were). */
  memoryNoMatch?: number;
  /** Glossary terms handed to the provider with the batches (counted per batch). */
  glossaryTerms?: number;
}

export interface LlmUsage {
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  requests: number;
  /** In the unit of the configured prices; absent when none is configured. */
  estimatedCost?: number;
}

export const MAX_LISTED_FAILURES = 100;

/** The job's usage with one more batch's added (cost from prices per million tokens). */
export function addUsage(
  current: Record<string, LlmUsage> | undefined,
  config: { provider: string; model: string; price?: { input: number; output: number } },
  batch: { inputTokens: number; outputTokens: number; requests: number },
): Record<string, LlmUsage> {
  const id = `${config.provider} ${config.model}`;
  const before = current?.[id] ?? {
    provider: config.provider,
    model: config.model,
    inputTokens: 0,
    outputTokens: 0,
    requests: 0,
  };
  const next: LlmUsage = {
    ...before,
    inputTokens: before.inputTokens + batch.inputTokens,
    outputTokens: before.outputTokens + batch.outputTokens,
    requests: before.requests + batch.requests,
  };
  if (config.price)
    next.estimatedCost = (next.inputTokens * config.price.input + next.outputTokens * config.price.output) / 1_000_000;
  return { ...current, [id]: next };
}

/** Summary message of a finished job (contract: number of texts and characters translated), in parts. */
export function summary(checkpoint: Checkpoint): JobMessage {
  const parts = [jobPart('translated', { count: checkpoint.texts, characters: checkpoint.characters })];
  if (checkpoint.memoryFilled !== undefined) parts.push(jobPart('from-memory', { count: checkpoint.memoryFilled }));
  if (checkpoint.memoryNoMatch) parts.push(jobPart('no-memory-match', { count: checkpoint.memoryNoMatch }));
  if (checkpoint.glossaryTerms) parts.push(jobPart('glossary-terms', { count: checkpoint.glossaryTerms }));
  if (checkpoint.skippedOverLimit) parts.push(jobPart('over-limit', { count: checkpoint.skippedOverLimit }));
  if (checkpoint.skippedLocked) parts.push(jobPart('locked', { count: checkpoint.skippedLocked }));
  if (checkpoint.failedTexts) {
    // The model's reasons stay in the service's words (the checks' messages, as the model was told them).
    const named = (checkpoint.llmFailures ?? [])
      .slice(0, 3)
      .map((f) => `${f.key}: ${f.message}`)
      .join(' | ');
    parts.push(
      checkpoint.llmUsage
        ? jobPart('model-failed', {
            count: checkpoint.failedTexts,
            failures: `${named}${checkpoint.failedTexts > 3 ? ' | …' : ''}`,
          })
        : jobPart('provider-failed', { count: checkpoint.failedTexts }),
    );
  }
  return jobMessage(...parts);
}
