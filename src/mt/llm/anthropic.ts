// Anthropic messages: POST {baseUrl}/v1/messages with x-api-key and
// anthropic-version. The system prompt goes in `system`. Structured output
// (responseFormat `tool`, the default): the reply schema is a tool the model
// must call (tool_choice), so its input is the JSON object; with `none` the
// reply's text blocks are joined and read as JSON (the prompt asks for it).
// Images (screenshots) go before the text, as Anthropic advises. Streaming off.
import type { LlmConfig } from './config.js';
import { postJson } from './http.js';
import { badAnswer, statusError, tokenCount, type LlmPrompt, type LlmReply } from './protocol.js';

export function anthropicBody(config: LlmConfig, prompt: LlmPrompt): Record<string, unknown> {
  const content = prompt.images?.length
    ? [
        ...prompt.images.map((image) => ({
          type: 'image',
          source: { type: 'base64', media_type: image.mediaType, data: image.data },
        })),
        { type: 'text', text: prompt.user },
      ]
    : prompt.user;
  const body: Record<string, unknown> = {
    model: config.model,
    max_tokens: config.maxOutputTokens,
    system: prompt.system,
    messages: [{ role: 'user', content }],
    stream: false,
    temperature: 0,
  };
  if (config.responseFormat === 'tool') {
    body.tools = [
      {
        name: prompt.schemaName,
        description: 'Return the result. Call this tool exactly once with the complete answer.',
        input_schema: prompt.schema,
      },
    ];
    body.tool_choice = { type: 'tool', name: prompt.schemaName };
  }
  return body;
}

export function anthropicHeaders(config: LlmConfig): Record<string, string> {
  return {
    ...config.headers,
    'anthropic-version': config.anthropicVersion,
    ...(config.apiKey ? { 'x-api-key': config.apiKey } : {}),
  };
}

export async function anthropicComplete(
  config: LlmConfig,
  body: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<LlmReply & { status: number; raw: string }> {
  const answer = await postJson(config.provider, `${config.url}/v1/messages`, body, anthropicHeaders(config), {
    timeoutMs: config.timeoutMs,
    allowPrivate: config.allowPrivate,
    signal,
  });
  if (answer.status < 200 || answer.status >= 300) throw statusError(config.provider, answer);
  const reply = answer.body as
    | {
        content?: { type?: string; text?: unknown; input?: unknown }[];
        stop_reason?: string;
        usage?: { input_tokens?: number; output_tokens?: number };
      }
    | undefined;
  const blocks = Array.isArray(reply?.content) ? reply.content : [];
  const call = blocks.find((b) => b?.type === 'tool_use' && b.input && typeof b.input === 'object');
  const texts = blocks.filter((b) => b?.type === 'text' && typeof b.text === 'string').map((b) => b.text as string);
  if (!call && texts.length === 0)
    throw badAnswer(
      config.provider,
      answer.status,
      `unexpected answer: no tool_use or text content${reply?.stop_reason ? ` (stop_reason ${reply.stop_reason})` : ''}`,
    );
  return {
    // The forced tool call's input is the structured answer; a server that ignored the tool answers in text.
    content: call ? JSON.stringify(call.input) : texts.join(''),
    inputTokens: tokenCount(reply?.usage?.input_tokens),
    outputTokens: tokenCount(reply?.usage?.output_tokens),
    status: answer.status,
    raw: answer.text,
  };
}
