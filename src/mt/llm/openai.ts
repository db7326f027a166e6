// OpenAI-compatible chat completions: POST {baseUrl}/v1/chat/completions, as
// OpenAI, Azure OpenAI (with an api-key header), Ollama, vLLM, llama.cpp's
// server and LM Studio speak it. Structured output: response_format
// json_schema (strict) where configured, json_object, or none (the prompt asks
// for JSON and the reply is read as JSON either way). Streaming off.
import type { LlmConfig } from './config.js';
import { postJson } from './http.js';
import { badAnswer, statusError, tokenCount, type LlmPrompt, type LlmReply } from './protocol.js';

export function openAiBody(config: LlmConfig, prompt: LlmPrompt): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: config.model,
    messages: [
      { role: 'system', content: prompt.system },
      {
        role: 'user',
        // Vision models take the images as data URLs beside the text.
        content: prompt.images?.length
          ? [
              { type: 'text', text: prompt.user },
              ...prompt.images.map((image) => ({
                type: 'image_url',
                image_url: { url: `data:${image.mediaType};base64,${image.data}` },
              })),
            ]
          : prompt.user,
      },
    ],
    stream: false,
    temperature: 0,
    max_tokens: config.maxOutputTokens,
  };
  if (config.responseFormat === 'json_schema')
    body.response_format = {
      type: 'json_schema',
      json_schema: { name: prompt.schemaName, strict: true, schema: prompt.schema },
    };
  else if (config.responseFormat === 'json_object') body.response_format = { type: 'json_object' };
  return body;
}

export function openAiHeaders(config: LlmConfig): Record<string, string> {
  return { ...config.headers, ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) };
}

export async function openAiComplete(
  config: LlmConfig,
  body: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<LlmReply & { status: number; raw: string }> {
  const answer = await postJson(config.provider, `${config.url}/v1/chat/completions`, body, openAiHeaders(config), {
    timeoutMs: config.timeoutMs,
    allowPrivate: config.allowPrivate,
    signal,
  });
  if (answer.status < 200 || answer.status >= 300) throw statusError(config.provider, answer);
  const reply = answer.body as
    | {
        choices?: { message?: { content?: unknown; refusal?: unknown }; finish_reason?: string }[];
        usage?: { prompt_tokens?: number; completion_tokens?: number };
      }
    | undefined;
  const choice = reply?.choices?.[0];
  if (typeof choice?.message?.refusal === 'string' && choice.message.refusal)
    throw badAnswer(config.provider, answer.status, `the model refused: ${choice.message.refusal}`);
  if (typeof choice?.message?.content !== 'string')
    throw badAnswer(config.provider, answer.status, 'unexpected answer: no choices[0].message.content');
  return {
    content: choice.message.content,
    inputTokens: tokenCount(reply?.usage?.prompt_tokens),
    outputTokens: tokenCount(reply?.usage?.completion_tokens),
    status: answer.status,
    raw: answer.text,
  };
}
