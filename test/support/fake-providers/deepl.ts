// A fake of the DeepL API v2 on loopback, for tests:
//   POST /v2/translate   Authorization: DeepL-Auth-Key KEY
//     JSON {text: [...], target_lang, source_lang?, formality?, glossary_id?, tag_handling?, ignore_tags?}
//     (or a form body with repeated `text`)
//     -> {"translations": [{"detected_source_language", "text"}]}
//   GET /v2/glossaries            -> {"glossaries": [...]}
//   GET /v2/glossaries/{id}       -> {glossary_id, name, ready, source_lang, target_lang, creation_time, entry_count}
//   POST /v2/glossaries           {name, source_lang, target_lang, entries (TSV), entries_format: "tsv"} -> 201 {glossary_id, …}
//   DELETE /v2/glossaries/{id}    -> 204
// The default translator applies a glossary's entries (source term -> target)
// before prefixing, so a test sees the glossary used.
// Errors are {"message": "..."} with DeepL's statuses: 403 authorization
// failed, 413 request too large (more than 50 texts or a body over 128 KiB),
// 400 bad parameters, 404 unknown glossary; scripted 429 / 456 / 5xx with
// failNext. Deterministic "translation": "[<target_lang>] " before the text,
// tags left as they are.
import type { ServerResponse } from 'node:http';
import { DEEPL_FORMALITY_TARGETS, DEEPL_SOURCE_LANGUAGES, DEEPL_TARGET_LANGUAGES } from '../../../src/mt/languages.js';
import {
  sendJson,
  startFakeServer,
  type FakeServerBase,
  type RecordedRequest,
  type ScriptedFailure,
} from './common.js';

export const FAKE_DEEPL_KEY = 'fake-deepl-key';

export interface FakeGlossary {
  glossary_id: string;
  name?: string;
  ready?: boolean;
  /** Lower-case base codes, as DeepL reports them: "en", "de". */
  source_lang: string;
  target_lang: string;
  entry_count?: number;
  creation_time?: string;
  /** The key that owns the glossary; other keys get 404. Default: any accepted key. */
  ownerKey?: string;
  /** Entries of a glossary created through the API. */
  entries?: [string, string][];
}

export interface DeeplTranslateCall {
  text: string[];
  target_lang: string;
  source_lang?: string;
  formality?: string;
  glossary_id?: string;
  tag_handling?: string;
  ignore_tags?: string | string[];
  authKey?: string;
}

export type DeeplTranslator = (text: string, call: DeeplTranslateCall) => string;

export interface FakeDeeplOptions {
  /** Accepted keys. Default [FAKE_DEEPL_KEY]. */
  authKeys?: string[];
  glossaries?: FakeGlossary[];
  translate?: DeeplTranslator;
  maxTexts?: number;
  maxBodyBytes?: number;
}

export interface FakeDeepl extends FakeServerBase {
  authKeys: string[];
  glossaries: Map<string, FakeGlossary>;
  addGlossary(glossary: FakeGlossary): void;
  setTranslator(fn: DeeplTranslator | undefined): void;
  /** The translate requests received, with their parameters. */
  translateCalls(): DeeplTranslateCall[];
}

export const defaultDeeplTranslator: DeeplTranslator = (text, call) => `[${call.target_lang}] ${text}`;

const applyEntries = (text: string, entries: [string, string][] | undefined) =>
  (entries ?? []).reduce((t, [from, to]) => t.split(from).join(to), text);

const DEFAULT_MESSAGES: Record<number, string> = {
  400: 'Bad request',
  403: 'Authorization failed. Please supply a valid auth_key parameter.',
  404: 'Not found',
  413: 'Request Entity Too Large',
  429: 'Too many requests',
  456: 'Quota exceeded',
  500: 'Internal server error',
  503: 'Service unavailable',
  529: 'Too many requests, DeepL servers are currently experiencing high load',
};

function authKeyOf(req: RecordedRequest): string | undefined {
  const header = req.headers.authorization;
  const m = header ? /^DeepL-Auth-Key\s+(.+)$/.exec(header) : null;
  return m?.[1]?.trim();
}

/** A request value as text (JSON bodies and form fields: strings, numbers, arrays of them). */
const asText = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

function callOf(req: RecordedRequest): DeeplTranslateCall {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const text = body.text === undefined ? [] : Array.isArray(body.text) ? body.text.map(asText) : [asText(body.text)];
  const str = (v: unknown) => (v === undefined ? undefined : asText(v));
  return {
    text,
    target_lang: asText(body.target_lang ?? ''),
    source_lang: str(body.source_lang),
    formality: str(body.formality),
    glossary_id: str(body.glossary_id),
    tag_handling: str(body.tag_handling),
    ignore_tags: body.ignore_tags as string | string[] | undefined,
    authKey: authKeyOf(req),
  };
}

export async function startFakeDeepl(options: FakeDeeplOptions = {}): Promise<FakeDeepl> {
  const authKeys = options.authKeys ?? [FAKE_DEEPL_KEY];
  const maxTexts = options.maxTexts ?? 50;
  const maxBodyBytes = options.maxBodyBytes ?? 128 * 1024;
  const glossaries = new Map<string, FakeGlossary>((options.glossaries ?? []).map((g) => [g.glossary_id, g]));
  let translator: DeeplTranslator = options.translate ?? defaultDeeplTranslator;

  const fail = (res: ServerResponse, status: number, message?: string, headers?: Record<string, string>) =>
    sendJson(res, status, { message: message ?? DEFAULT_MESSAGES[status] ?? `HTTP ${status}` }, headers);

  const glossaryJson = (g: FakeGlossary) => ({
    glossary_id: g.glossary_id,
    name: g.name ?? g.glossary_id,
    ready: g.ready ?? true,
    source_lang: g.source_lang,
    target_lang: g.target_lang,
    creation_time: g.creation_time ?? '2024-01-01T00:00:00.000Z',
    entry_count: g.entry_count ?? 1,
  });

  const visible = (g: FakeGlossary | undefined, key: string) =>
    g && (!g.ownerKey || g.ownerKey === key) ? g : undefined;

  const handler = Object.assign(
    (req: RecordedRequest, res: ServerResponse, failure: ScriptedFailure | undefined) => {
      if (failure) return fail(res, failure.status, failure.message, failure.headers);
      const key = authKeyOf(req);
      if (!key || !authKeys.includes(key)) return fail(res, 403);

      const glossaryPath = /^\/v2\/glossaries(?:\/([^/]+))?$/.exec(req.path);
      if (glossaryPath && req.method === 'POST' && !glossaryPath[1]) {
        const body = (req.body ?? {}) as Record<string, unknown>;
        const entries = asText(body.entries ?? '')
          .split('\n')
          .filter(Boolean)
          .map((line) => line.split('\t') as [string, string]);
        if (body.entries_format !== 'tsv' || entries.some((e) => e.length !== 2 || !e[0] || !e[1]))
          return fail(res, 400, 'Invalid glossary entries provided');
        if (new Set(entries.map((e) => e[0])).size !== entries.length)
          return fail(res, 400, 'Invalid glossary entries provided: duplicate source');
        const glossary: FakeGlossary = {
          glossary_id: `created-${glossaries.size + 1}-${Date.now()}`,
          name: asText(body.name ?? ''),
          source_lang: asText(body.source_lang ?? ''),
          target_lang: asText(body.target_lang ?? ''),
          entry_count: entries.length,
          ownerKey: key,
          entries,
        };
        glossaries.set(glossary.glossary_id, glossary);
        return sendJson(res, 201, glossaryJson(glossary));
      }
      if (glossaryPath?.[1] && req.method === 'DELETE') {
        const g = visible(glossaries.get(decodeURIComponent(glossaryPath[1])), key);
        if (!g) return sendJson(res, 404, { message: 'Not found', detail: 'Glossary not found' });
        glossaries.delete(g.glossary_id);
        res.writeHead(204).end();
        return;
      }
      if (glossaryPath && req.method === 'GET') {
        if (!glossaryPath[1])
          return sendJson(res, 200, {
            glossaries: [...glossaries.values()].filter((g) => visible(g, key)).map(glossaryJson),
          });
        const g = visible(glossaries.get(decodeURIComponent(glossaryPath[1])), key);
        return g
          ? sendJson(res, 200, glossaryJson(g))
          : sendJson(res, 404, { message: 'Not found', detail: 'Glossary not found' });
      }
      if (req.path !== '/v2/translate') return fail(res, 404);
      if (req.method !== 'POST') return fail(res, 405, 'Method not allowed');

      if (Buffer.byteLength(req.rawBody) > maxBodyBytes) return fail(res, 413, 'Request Entity Too Large');
      const call = callOf(req);
      if (!call.text.length) return fail(res, 400, "Parameter 'text' not specified.");
      if (call.text.length > maxTexts) return fail(res, 413, `Too many texts: at most ${maxTexts} per request`);
      if (!DEEPL_TARGET_LANGUAGES.has(call.target_lang.toUpperCase()))
        return fail(res, 400, "Value for 'target_lang' not supported.");
      if (call.source_lang !== undefined && !DEEPL_SOURCE_LANGUAGES.has(call.source_lang.toUpperCase())) {
        return fail(res, 400, "Value for 'source_lang' not supported.");
      }
      if (call.formality !== undefined) {
        if (!['default', 'more', 'less', 'prefer_more', 'prefer_less'].includes(call.formality))
          return fail(res, 400, "Value for 'formality' not supported.");
        if (
          (call.formality === 'more' || call.formality === 'less') &&
          !DEEPL_FORMALITY_TARGETS.has(call.target_lang.toUpperCase())
        ) {
          return fail(res, 400, "'formality' is not supported for given 'target_lang'.");
        }
      }
      if (call.glossary_id !== undefined) {
        if (call.source_lang === undefined)
          return fail(res, 400, 'Use of a glossary requires the source_lang parameter to be set.');
        const g = visible(glossaries.get(call.glossary_id), key);
        if (!g) return sendJson(res, 404, { message: 'Not found', detail: 'Glossary not found' });
        const base = (c: string) => c.split('-')[0]!.toLowerCase();
        if (base(call.source_lang) !== g.source_lang || base(call.target_lang) !== g.target_lang) {
          return fail(res, 400, "Language pair of the glossary doesn't match the language pair of the request.");
        }
      }
      sendJson(res, 200, {
        translations: call.text.map((t) => ({
          detected_source_language: (call.source_lang ?? 'EN').toUpperCase(),
          text: translator(
            applyEntries(t, call.glossary_id ? glossaries.get(call.glossary_id)?.entries : undefined),
            call,
          ),
        })),
      });
    },
    {
      endpointOf: (req: RecordedRequest) =>
        req.path === '/v2/translate'
          ? ('translate' as const)
          : req.path.startsWith('/v2/glossaries')
            ? ('glossaries' as const)
            : ('other' as const),
    },
  );

  const base = await startFakeServer(handler);
  return {
    ...base,
    authKeys,
    glossaries,
    addGlossary(glossary) {
      glossaries.set(glossary.glossary_id, glossary);
    },
    setTranslator(fn) {
      translator = fn ?? defaultDeeplTranslator;
    },
    translateCalls() {
      return base.requests.filter((r) => r.path === '/v2/translate').map(callOf);
    },
  };
}
