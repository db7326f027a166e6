// Anthropic messages: POST {baseUrl}/v1/messages with x-api-key and
// anthropic-version. The system prompt goes in `system`; the reply's text
// blocks are joined and read as JSON (the prompt asks for it). Streaming off.
import type { LlmConfig } from './config.js';
import { postJson } from './http.js';
import { badAnswer, statusError, tokenCount, type LlmPrompt, type LlmReply } from './protocol.js';

export function anthropicBody(config: LlmConfig, prompt: LlmPrompt): Record<string, unknown> {
  return {
    model: config.model,
    max_tokens: config.maxOutputTokens,
    system: prompt.system,
    messages: [{ role: 'user', content: prompt.user }],
    stream: false,
    temperature: 0,
  };
}

export function anthropicHeaders(config: LlmConfig): Record<string, string> {
  return { ...config.headers, 'anthropic-version': config.anthropicVersion, ...(config.apiKey ? { 'x-api-key': config.apiKey } : {}) };
}

export async function anthropicComplete(config: LlmConfig, body: Record<string, unknown>, signal?: AbortSignal): Promise<LlmReply & { status: number; raw: string }> {
  const answer = await postJson(config.provider, `${config.url}/v1/messages`, body, anthropicHeaders(config), { timeoutMs: config.timeoutMs, allowPrivate: config.allowPrivate, signal });
  if (answer.status < 200 || answer.status >= 300) throw statusError(config.provider, answer);
  const reply = answer.body as { content?: { type?: string; text?: unknown }[]; usage?: { input_tokens?: number; output_tokens?: number } } | undefined;
  const texts = Array.isArray(reply?.content) ? reply.content.filter((b) => b?.type === 'text' && typeof b.text === 'string').map((b) => b.text as string) : [];
  if (texts.length === 0) throw badAnswer(config.provider, answer.status, 'unexpected answer: no text content');
  return {
    content: texts.join(''),
    inputTokens: tokenCount(reply?.usage?.input_tokens),
    outputTokens: tokenCount(reply?.usage?.output_tokens),
    status: answer.status,
    raw: answer.text,
  };
}
