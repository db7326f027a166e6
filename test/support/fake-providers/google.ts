// A fake of Google Cloud Translation Basic (v2) on loopback, for tests:
//   POST /language/translate/v2?key=KEY   (JSON or form body: q (repeated), target, source, format)
//   -> {"data": {"translations": [{"translatedText", "detectedSourceLanguage"?}]}}
// Errors as the real API: {"error": {"code", "message", "errors": [{"message", "domain", "reason"}], "status"}}.
// Checks the key (missing: 403, wrong: 400 API_KEY_INVALID), the languages,
// and the request limits (more than 128 segments: 400 "Too many text
// segments"; body over 100K bytes: 400). Deterministic "translation":
// "[<target>] " before the text; with format=html the text between tags
// (not inside translate="no" elements) is HTML-escaped the way Google
// answers (apostrophes as &#39;).
import type { ServerResponse } from 'node:http';
import { GOOGLE_LANGUAGES } from '../../../src/mt/languages.js';
import {
  mapTextNodes,
  sendJson,
  startFakeServer,
  type FakeServerBase,
  type RecordedRequest,
  type ScriptedFailure,
} from './common.js';

export const FAKE_GOOGLE_KEY = 'fake-google-key';

export interface GoogleTranslateCall {
  target: string;
  source?: string;
  format: 'html' | 'text';
}

export type GoogleTranslator = (text: string, call: GoogleTranslateCall) => string;

export interface FakeGoogleOptions {
  apiKey?: string;
  translate?: GoogleTranslator;
  maxSegments?: number;
  maxBodyBytes?: number;
}

export interface FakeGoogle extends FakeServerBase {
  apiKey: string;
  /** Replaces the translation function (undefined: the default prefixing one). */
  setTranslator(fn: GoogleTranslator | undefined): void;
  /** The translate requests received, with their parsed parameters. */
  translateCalls(): (GoogleTranslateCall & { q: string[]; key?: string })[];
}

export const defaultGoogleTranslator: GoogleTranslator = (text, call) => {
  const prefix = `[${call.target}] `;
  if (call.format === 'text') return prefix + text;
  return prefix + mapTextNodes(text, (t) => t.replace(/'/g, '&#39;'));
};

const DEFAULT_FAILURES: Record<number, { message: string; reason: string; status: string; domain: string }> = {
  400: { message: 'Invalid Value', reason: 'invalid', status: 'INVALID_ARGUMENT', domain: 'global' },
  403: {
    message: 'Daily Limit Exceeded',
    reason: 'dailyLimitExceeded',
    status: 'PERMISSION_DENIED',
    domain: 'usageLimits',
  },
  429: {
    message: 'Resource has been exhausted (e.g. check quota).',
    reason: 'rateLimitExceeded',
    status: 'RESOURCE_EXHAUSTED',
    domain: 'global',
  },
  500: { message: 'Internal error encountered.', reason: 'backendError', status: 'INTERNAL', domain: 'global' },
  503: {
    message: 'The service is currently unavailable.',
    reason: 'backendError',
    status: 'UNAVAILABLE',
    domain: 'global',
  },
};

export function googleErrorBody(
  code: number,
  message: string,
  reason: string,
  status = 'INVALID_ARGUMENT',
  domain = 'global',
) {
  return { error: { code, message, errors: [{ message, domain, reason }], status } };
}

/** A request value as text (JSON bodies and form fields: strings, numbers, arrays of them). */
const asText = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

function params(req: RecordedRequest): {
  q: string[];
  target?: string;
  source?: string;
  format?: string;
  key?: string;
} {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const pick = (name: string): unknown => body[name] ?? req.query[name];
  const list = (v: unknown): string[] => (v === undefined ? [] : Array.isArray(v) ? v.map(asText) : [asText(v)]);
  const one = (v: unknown): string | undefined =>
    v === undefined ? undefined : Array.isArray(v) ? asText(v[0]) : asText(v);
  return {
    q: list(pick('q')),
    target: one(pick('target')),
    source: one(pick('source')),
    format: one(pick('format')),
    key: one(req.query.key) ?? one(req.headers['x-goog-api-key']),
  };
}

export async function startFakeGoogle(options: FakeGoogleOptions = {}): Promise<FakeGoogle> {
  const apiKey = options.apiKey ?? FAKE_GOOGLE_KEY;
  const maxSegments = options.maxSegments ?? 128;
  const maxBodyBytes = options.maxBodyBytes ?? 100 * 1024;
  let translator: GoogleTranslator = options.translate ?? defaultGoogleTranslator;

  const error = (
    res: ServerResponse,
    code: number,
    message: string,
    reason: string,
    status?: string,
    headers?: Record<string, string>,
  ) => sendJson(res, code, googleErrorBody(code, message, reason, status), headers);

  const handler = Object.assign(
    (req: RecordedRequest, res: ServerResponse, failure: ScriptedFailure | undefined) => {
      if (failure) {
        const d = DEFAULT_FAILURES[failure.status] ?? {
          message: `HTTP ${failure.status}`,
          reason: 'backendError',
          status: 'UNKNOWN',
          domain: 'global',
        };
        const message = failure.message ?? d.message;
        const body = {
          error: {
            code: failure.status,
            message,
            errors: [{ message, domain: d.domain, reason: failure.reason ?? d.reason }],
            status: d.status,
          },
        };
        return sendJson(res, failure.status, body, failure.headers);
      }
      if (req.path !== '/language/translate/v2') return error(res, 404, 'Not Found', 'notFound', 'NOT_FOUND');
      if (req.method !== 'POST' && req.method !== 'GET') return error(res, 405, 'Method Not Allowed', 'badRequest');
      const p = params(req);
      if (!p.key) return error(res, 403, 'The request is missing a valid API key.', 'forbidden', 'PERMISSION_DENIED');
      if (p.key !== apiKey) {
        const message = 'API key not valid. Please pass a valid API key.';
        return sendJson(res, 400, {
          error: {
            code: 400,
            message,
            errors: [{ message, domain: 'global', reason: 'badRequest' }],
            status: 'INVALID_ARGUMENT',
            details: [
              {
                '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
                reason: 'API_KEY_INVALID',
                domain: 'googleapis.com',
              },
            ],
          },
        });
      }
      if (Buffer.byteLength(req.rawBody) > maxBodyBytes) {
        return error(res, 400, `Request payload size exceeds the limit: ${maxBodyBytes} bytes.`, 'badRequest');
      }
      if (!p.q.length) return error(res, 400, 'Required Text', 'required');
      if (!p.target) return error(res, 400, 'Required Target', 'required');
      if (p.q.length > maxSegments) return error(res, 400, 'Too many text segments', 'invalid');
      if (!GOOGLE_LANGUAGES.has(p.target) || (p.source !== undefined && !GOOGLE_LANGUAGES.has(p.source))) {
        return error(res, 400, 'Invalid Value', 'invalid');
      }
      const format = p.format === 'text' ? 'text' : 'html';
      const call: GoogleTranslateCall = { target: p.target, source: p.source, format };
      sendJson(res, 200, {
        data: {
          translations: p.q.map((q) => ({
            translatedText: translator(q, call),
            ...(p.source ? {} : { detectedSourceLanguage: 'en' }),
          })),
        },
      });
    },
    {
      endpointOf: (req: RecordedRequest) =>
        req.path === '/language/translate/v2' ? ('translate' as const) : ('other' as const),
    },
  );

  const base = await startFakeServer(handler);
  return {
    ...base,
    apiKey,
    setTranslator(fn) {
      translator = fn ?? defaultGoogleTranslator;
    },
    translateCalls() {
      return base.requests
        .filter((r) => r.path === '/language/translate/v2')
        .map((r) => {
          const p = params(r);
          return {
            q: p.q,
            target: p.target ?? '',
            source: p.source,
            format: p.format === 'text' ? 'text' : 'html',
            key: p.key,
          };
        });
    },
  };
}
