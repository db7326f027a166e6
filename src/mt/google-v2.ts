// MT_PROVIDER_A: Google Cloud Translation, Basic edition (v2).
//   POST {url}/language/translate/v2?key=API_KEY
//   {"q": ["…", …], "target": "de", "source": "en", "format": "html"}
//   -> {"data": {"translations": [{"translatedText": "…", "detectedSourceLanguage": "en"}]}}
// Errors: {"error": {"code", "message", "errors": [{"reason", "domain", "message"}], "status"}}.
// 403 with reason dailyLimitExceeded (daily quota) ends the job; 429 and
// 403 userRateLimitExceeded / rateLimitExceeded (per-minute quota) and 5xx
// are retried. Limits (Cloud Translation "Quotas and limits"): at most 128
// text segments per request, about 5,000 characters (code points) per
// request recommended; a Basic request body must stay under 100K bytes.
import { codePoints } from './batching.js';
import { send, excerpt, type HttpOptions, translationsOf } from './http.js';
import { GOOGLE_LANGUAGES } from './languages.js';
import { parseRetryAfter } from './retry.js';
import {
  MtProviderError,
  MtValidationError,
  type ProviderCredentials,
  type TranslateOptions,
  type TranslationProvider,
  type TranslationRequest,
} from './types.js';
import { checkCode, optional, refuseProviderBOptions, requireKey } from './validation.js';

const PROVIDER = 'MT_PROVIDER_A';
export const GOOGLE_MAX_SEGMENTS = 128;
export const GOOGLE_MAX_CHARS = 5_000;
/** A single text beyond this is not sent (keeps one request under the 100K-byte limit). */
export const GOOGLE_MAX_SINGLE_CHARS = 30_000;
const NOTATION = 'ISO-639 codes as listed by the provider, e.g. "de", "pt-BR", "zh-CN"';

const RATE_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded', 'RATE_LIMIT_EXCEEDED']);
const QUOTA_REASONS = new Set([
  'dailyLimitExceeded',
  'dailyLimitExceededUnreg',
  'quotaExceeded',
  'billingNotEnabled',
  'RESOURCE_EXHAUSTED',
]);
const KEY_REASONS = new Set(['keyInvalid', 'keyExpired', 'API_KEY_INVALID', 'API_KEY_EXPIRED']);

interface GoogleErrorBody {
  error?: {
    code?: number;
    message?: string;
    status?: string;
    errors?: { reason?: string; message?: string }[];
    details?: { reason?: string }[];
  };
}

export function googleError(status: number, body: unknown, text: string, headers: Headers): MtProviderError {
  const err = (body as GoogleErrorBody | undefined)?.error;
  const providerMessage = err?.message || excerpt(text) || `HTTP ${status}`;
  const reasons = new Set<string>(
    [...(err?.errors ?? []).map((e) => e.reason), ...(err?.details ?? []).map((d) => d.reason)].filter(
      (r): r is string => !!r,
    ),
  );
  const has = (set: Set<string>) => [...reasons].some((r) => set.has(r));
  const base = {
    provider: PROVIDER,
    status,
    providerMessage,
    retryAfterMs: parseRetryAfter(headers.get('retry-after')),
  } as const;
  if (status === 429 || (status === 403 && has(RATE_REASONS)))
    return new MtProviderError({ ...base, kind: 'retryable', reason: 'rate_limit' });
  if (status >= 500) return new MtProviderError({ ...base, kind: 'retryable', reason: 'server' });
  if (status === 403 && has(QUOTA_REASONS)) return new MtProviderError({ ...base, kind: 'fatal', reason: 'quota' });
  if (status === 401 || status === 403) return new MtProviderError({ ...base, kind: 'fatal', reason: 'auth' });
  if (status === 400 && (has(KEY_REASONS) || /API key/i.test(providerMessage)))
    return new MtProviderError({ ...base, kind: 'fatal', reason: 'auth' });
  if (status === 413) return new MtProviderError({ ...base, kind: 'fatal', reason: 'too_large' });
  if (status === 404) return new MtProviderError({ ...base, kind: 'fatal', reason: 'not_found' });
  return new MtProviderError({ ...base, kind: 'fatal', reason: 'bad_request' });
}

export function createGoogleProvider(credentials: ProviderCredentials, http: HttpOptions = {}): TranslationProvider {
  const provider: TranslationProvider = {
    id: PROVIDER,
    markup: 'html',

    validateLanguages({ sourceLanguage, targetLanguage }) {
      checkCode(PROVIDER, 'targetLanguage', targetLanguage, GOOGLE_LANGUAGES, NOTATION);
      const source = optional(sourceLanguage);
      if (source !== undefined) checkCode(PROVIDER, 'sourceLanguage', source, GOOGLE_LANGUAGES, NOTATION);
    },

    validateRequest(request: TranslationRequest): TranslateOptions {
      provider.validateLanguages(request);
      refuseProviderBOptions(PROVIDER, request);
      requireKey(PROVIDER, credentials);
      return { targetLanguage: request.targetLanguage, sourceLanguage: optional(request.sourceLanguage) };
    },

    async checkGlossary() {
      throw new MtValidationError(
        'providerGlossaryId',
        `providerGlossaryId is only supported by MT_PROVIDER_B, not by ${PROVIDER}`,
      );
    },

    batchLimits() {
      return {
        maxTexts: GOOGLE_MAX_SEGMENTS,
        maxSize: GOOGLE_MAX_CHARS,
        sizeOf: codePoints,
        maxSingle: GOOGLE_MAX_SINGLE_CHARS,
      };
    },

    async translateBatch(texts, options, signal) {
      if (!texts.length) return [];
      const url = `${credentials.url}/language/translate/v2?key=${encodeURIComponent(credentials.apiKey ?? '')}`;
      const body: Record<string, unknown> = { q: texts, target: options.targetLanguage, format: 'html' };
      if (options.sourceLanguage) body.source = options.sourceLanguage;
      const answer = await send(
        PROVIDER,
        url,
        { method: 'POST', headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: JSON.stringify(body) },
        http,
        signal,
      );
      if (answer.status !== 200) throw googleError(answer.status, answer.body, answer.text, answer.headers);
      const translations = (answer.body as { data?: { translations?: { translatedText?: unknown }[] } } | undefined)
        ?.data?.translations;
      return translationsOf(PROVIDER, answer.status, translations, texts.length, 'translatedText');
    },
  };
  return provider;
}
