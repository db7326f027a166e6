// What the two wire protocols share: the prompt handed to them, the reply and
// usage read back, and how an HTTP status becomes an MtProviderError.
import { parseRetryAfter } from '../retry.js';
import { MtProviderError, type LlmProviderId } from '../types.js';
import type { LlmHttpAnswer } from './http.js';

/** An image sent with the prompt (a key's screenshot), base64. */
export interface PromptImage {
  mediaType: 'image/jpeg' | 'image/png' | 'image/webp';
  /** Base64 of the bytes. */
  data: string;
  width: number;
  height: number;
}

export interface LlmPrompt {
  system: string;
  user: string;
  /** Images the user message refers to as image 1, image 2, … in this order. */
  images?: readonly PromptImage[];
  /** JSON schema of the reply (structured output where the server supports it). */
  schema: Record<string, unknown>;
  /** Name of the schema (OpenAI's json_schema.name). */
  schemaName: string;
}

export interface LlmReply {
  /** The model's text (expected to be JSON). */
  content: string;
  inputTokens: number;
  outputTokens: number;
}

/** Errors of a model server: 429, 5xx (and Anthropic's 529) retried; the rest end the request. */
export function statusError(provider: LlmProviderId, answer: LlmHttpAnswer): MtProviderError {
  const body = answer.body as { error?: { message?: string; type?: string } | string; message?: string } | undefined;
  const message =
    (typeof body?.error === 'string' ? body.error : body?.error?.message) ??
    body?.message ??
    (answer.text.replace(/\s+/g, ' ').trim().slice(0, 200) || 'no message');
  const { status } = answer;
  const retryAfter: unknown = answer.headers['retry-after'];
  const retryAfterMs = parseRetryAfter(
    typeof retryAfter === 'string' ? retryAfter : Array.isArray(retryAfter) ? String(retryAfter[0]) : undefined,
  );
  if (status === 429 || status >= 500) {
    return new MtProviderError({
      provider,
      kind: 'retryable',
      reason: status === 429 ? 'rate_limit' : 'server',
      status,
      providerMessage: message,
      retryAfterMs,
    });
  }
  const reason =
    status === 401 || status === 403
      ? 'auth'
      : status === 404
        ? 'not_found'
        : status === 413
          ? 'too_large'
          : 'bad_request';
  return new MtProviderError({ provider, kind: 'fatal', reason, status, providerMessage: message });
}

export function badAnswer(provider: LlmProviderId, status: number, message: string): MtProviderError {
  return new MtProviderError({ provider, kind: 'retryable', reason: 'bad_response', status, providerMessage: message });
}

const int = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? Math.max(0, Math.round(v)) : 0);
export { int as tokenCount };

/** The prompt as the request log keeps it: each image's bytes replaced by what they were (the log stays small). */
export function promptForLog(prompt: LlmPrompt): LlmPrompt {
  if (!prompt.images?.length) return prompt;
  return {
    ...prompt,
    images: prompt.images.map((image, i) => ({
      ...image,
      data: `<image ${i + 1}: ${image.width}×${image.height} ${image.mediaType}, ${Math.round((image.data.length * 3) / 4 / 1024)} KiB, not kept>`,
    })),
  };
}
