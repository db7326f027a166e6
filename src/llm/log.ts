// The log of language-model requests (LlmExchange): each prompt and reply of a
// job or an editor request, so a bad result can be explained. Kept for
// LLM_LOG_RETENTION_DAYS (pruned when a job or request starts).
import { Prisma } from '../generated/prisma/client.js';
import { prisma } from '../db.js';
import type { LlmExchange } from '../mt/llm/client.js';

export async function recordExchange(projectId: number, jobId: string | null, exchange: LlmExchange): Promise<void> {
  await prisma().llmExchange.create({
    data: {
      projectId,
      jobId,
      provider: exchange.provider,
      model: exchange.model,
      request: exchange.request as Prisma.InputJsonValue,
      status: exchange.status,
      reply: exchange.reply,
      error: exchange.error,
      inputTokens: exchange.inputTokens,
      outputTokens: exchange.outputTokens,
      durationMs: exchange.durationMs,
    },
  });
}

/** Deletes exchanges older than the retention (days; 0 keeps none past this call). */
export async function pruneExchanges(retentionDays: number): Promise<number> {
  return prisma().$executeRaw(Prisma.sql`/* llm:prune-log */
    DELETE FROM "LlmExchange" WHERE "createdAt" < now() - make_interval(days => ${retentionDays}::int)`);
}

export const JOB_LOG_LIMIT = 200;

export async function exchangesOfJob(jobId: string) {
  return prisma().llmExchange.findMany({ where: { jobId }, orderBy: { id: 'asc' }, take: JOB_LOG_LIMIT });
}
