// A language-model client: one protocol (openai.ts, anthropic.ts) with the
// retries of the other providers (retry.ts: 429, 5xx, timeouts, network and
// unreadable replies, with backoff, never sooner than Retry-After), the reply
// read as a JSON object, and every attempt reported to `onExchange` (the
// job's log) with the body sent and the reply, never the headers (keys) nor
// the images' bytes. A call that fails for good still says which tokens its
// attempts were billed for (MtProviderError.spent).
import { withRetry, type RetryOptions } from '../retry.js';
import { MtProviderError } from '../types.js';
import { anthropicBody, anthropicComplete } from './anthropic.js';
import type { LlmConfig } from './config.js';
import { openAiBody, openAiComplete } from './openai.js';
import { badAnswer, promptForLog, type LlmPrompt } from './protocol.js';

export interface LlmExchange {
  provider: string;
  model: string;
  /** The JSON body sent (no headers). */
  request: Record<string, unknown>;
  /** HTTP status; 0 when none arrived. */
  status: number;
  /** The reply as received, or the error. */
  reply: string;
  inputTokens: number;
  outputTokens: number;
  durationMs: number;
  error: string | null;
}

export interface LlmResult<T> {
  value: T;
  inputTokens: number;
  outputTokens: number;
  requests: number;
}

export interface LlmClient {
  readonly config: LlmConfig;
  /**
   * Sends the prompt and reads the reply as a JSON object, checked by `read`
   * (which throws an Error naming what is wrong: retried like a bad answer).
   */
  completeJson<T>(prompt: LlmPrompt, read: (json: unknown) => T, signal?: AbortSignal): Promise<LlmResult<T>>;
}

/** The JSON object of a reply: as is, inside a ```json fence, or the outermost {...}. */
export function jsonOfReply(content: string): unknown {
  const trimmed = content.trim();
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(trimmed);
  const candidates = [fenced?.[1] ?? trimmed];
  const start = trimmed.indexOf('{');
  const end = trimmed.lastIndexOf('}');
  if (start >= 0 && end > start) candidates.push(trimmed.slice(start, end + 1));
  for (const candidate of candidates) {
    try {
      return JSON.parse(candidate);
    } catch {
      // next
    }
  }
  throw new Error('the reply is not JSON');
}

export function createLlmClient(
  config: LlmConfig,
  hooks: { onExchange?: (exchange: LlmExchange) => void | Promise<void>; retry?: Omit<RetryOptions, 'signal'> } = {},
): LlmClient {
  return {
    config,
    async completeJson(prompt, read, signal) {
      const bodyOf = (p: LlmPrompt) =>
        config.provider === 'LLM_OPENAI' ? openAiBody(config, p) : anthropicBody(config, p);
      const body = bodyOf(prompt);
      const logged = prompt.images?.length ? bodyOf(promptForLog(prompt)) : body;
      let inputTokens = 0;
      let outputTokens = 0;
      let requests = 0;
      const attempt = async () => {
        requests++;
        const started = Date.now();
        const record = async (
          status: number,
          reply: string,
          tokens: { in: number; out: number },
          error: string | null,
        ) => {
          await hooks.onExchange?.({
            provider: config.provider,
            model: config.model,
            request: logged,
            status,
            reply,
            inputTokens: tokens.in,
            outputTokens: tokens.out,
            durationMs: Date.now() - started,
            error,
          });
        };
        let answer;
        try {
          answer =
            config.provider === 'LLM_OPENAI'
              ? await openAiComplete(config, body, signal)
              : await anthropicComplete(config, body, signal);
        } catch (error) {
          if (error instanceof MtProviderError) await record(error.status, '', { in: 0, out: 0 }, error.message);
          throw error;
        }
        // Tokens are paid for whether or not the reply is usable.
        inputTokens += answer.inputTokens;
        outputTokens += answer.outputTokens;
        try {
          const parsed = read(jsonOfReply(answer.content));
          await record(answer.status, answer.raw, { in: answer.inputTokens, out: answer.outputTokens }, null);
          return parsed;
        } catch (error) {
          const message = `unusable reply: ${(error as Error).message}`;
          await record(answer.status, answer.raw, { in: answer.inputTokens, out: answer.outputTokens }, message);
          throw badAnswer(config.provider, answer.status, message);
        }
      };
      let value;
      try {
        value = await withRetry(attempt, { maxAttempts: 4, ...hooks.retry, signal });
      } catch (error) {
        if (error instanceof MtProviderError) error.spent = { inputTokens, outputTokens, requests };
        throw error;
      }
      return { value, inputTokens, outputTokens, requests };
    },
  };
}
