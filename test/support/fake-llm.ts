// A model server on 127.0.0.1 speaking both language-model protocols:
// OpenAI-compatible chat completions (POST /v1/chat/completions) and Anthropic
// messages (POST /v1/messages). Every request is recorded; answers come from a
// script (status, raw body, headers, delay) or, by default, translate each
// item of the prompt's JSON document with `translate` (keeping its text
// otherwise) and report fixed token usage (INPUT_TOKENS / OUTPUT_TOKENS per request).
// A user message may be a list of parts (text and images, as vision models
// take them): the text part is the document, the images are kept. Anthropic
// requests with a forced tool are answered with a tool_use block, as the real
// server does.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export const INPUT_TOKENS = 1000;
export const OUTPUT_TOKENS = 50;

export interface LlmRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
  /** The prompt's JSON document (the user message), parsed. */
  document: any;
  system: string;
  /** Images of the user message: media type and bytes. */
  images: { mediaType: string; bytes: Buffer }[];
}

export interface Scripted {
  status?: number;
  /** Replaces the whole HTTP body. */
  raw?: string;
  /** Replaces the model's text content (the body is built around it). */
  content?: string;
  headers?: Record<string, string>;
  delayMs?: number;
  /** Sends the body one byte every this many milliseconds (a server that trickles its answer). */
  trickleMs?: number;
}

export interface FakeLlm {
  url: string;
  requests: LlmRequest[];
  /** Answers the next requests, in order, before the default. */
  script: Scripted[];
  /** The default translation of an item of a translation prompt. */
  translate: (item: any, document: any) => string;
  reset(): void;
  close(): Promise<void>;
}

function isJsonObject(text: string): boolean {
  try {
    const value = JSON.parse(text);
    return !!value && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
}

export async function startFakeLlm(): Promise<FakeLlm> {
  const fake: FakeLlm = {
    url: '',
    requests: [],
    script: [],
    translate: (item, document) => `[${document.targetLanguage}] ${item.source}`,
    reset() {
      fake.requests.length = 0;
      fake.script.length = 0;
      fake.translate = (item, document) => `[${document.targetLanguage}] ${item.source}`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      const anthropic = req.url === '/v1/messages';
      const system: string = anthropic
        ? body.system
        : (body.messages?.find((m: any) => m.role === 'system')?.content ?? '');
      const content = body.messages?.find((m: any) => m.role === 'user')?.content ?? '';
      const parts: any[] = Array.isArray(content) ? content : [{ type: 'text', text: content }];
      const user: string = parts.find((p) => p.type === 'text')?.text ?? '';
      const images = parts.flatMap((p) => {
        if (p.type === 'image')
          return [{ mediaType: p.source.media_type as string, bytes: Buffer.from(p.source.data, 'base64') }];
        const url = p.type === 'image_url' ? /^data:([^;]+);base64,(.*)$/s.exec(p.image_url.url) : null;
        return url ? [{ mediaType: url[1]!, bytes: Buffer.from(url[2]!, 'base64') }] : [];
      });
      let document: any;
      try {
        document = JSON.parse(user);
      } catch {
        document = undefined;
      }
      fake.requests.push({ path: req.url ?? '', headers: req.headers, body, document, system, images });
      const step = fake.script.shift() ?? {};
      const answer = () => {
        if (res.destroyed) return;
        const status = step.status ?? 200;
        let content = step.content;
        if (content === undefined) {
          content = document?.items
            ? JSON.stringify({
                translations: document.items.map((item: any) => ({
                  id: item.id,
                  text: fake.translate(item, document),
                })),
              })
            : JSON.stringify({ text: `[rewritten] ${document?.text}` });
        }
        const payload =
          step.raw ??
          (status !== 200
            ? JSON.stringify(
                anthropic
                  ? { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } }
                  : { error: { message: 'slow down', type: 'rate_limit' } },
              )
            : JSON.stringify(
                anthropic
                  ? {
                      id: 'msg_1',
                      type: 'message',
                      role: 'assistant',
                      model: body.model,
                      // A forced tool is answered with its input (a reply that is not JSON stays text, as a confused model's would).
                      content:
                        body.tool_choice?.type === 'tool' && isJsonObject(content)
                          ? [
                              {
                                type: 'tool_use',
                                id: 'toolu_1',
                                name: body.tool_choice.name,
                                input: JSON.parse(content),
                              },
                            ]
                          : [{ type: 'text', text: content }],
                      stop_reason: body.tool_choice ? 'tool_use' : 'end_turn',
                      usage: { input_tokens: INPUT_TOKENS, output_tokens: OUTPUT_TOKENS },
                    }
                  : {
                      id: 'chatcmpl-1',
                      object: 'chat.completion',
                      model: body.model,
                      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
                      usage: {
                        prompt_tokens: INPUT_TOKENS,
                        completion_tokens: OUTPUT_TOKENS,
                        total_tokens: INPUT_TOKENS + OUTPUT_TOKENS,
                      },
                    },
              ));
        res.writeHead(status, { 'content-type': 'application/json', ...step.headers });
        if (!step.trickleMs) {
          res.end(payload);
          return;
        }
        let sent = 0;
        const timer = setInterval(() => {
          if (res.destroyed || sent >= payload.length) {
            clearInterval(timer);
            if (!res.destroyed) res.end();
            return;
          }
          res.write(payload[sent++]);
        }, step.trickleMs);
      };
      if (step.delayMs) setTimeout(answer, step.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
