// MT_PROVIDER_B: DeepL API v2.
//   POST {url}/v2/translate   Authorization: DeepL-Auth-Key KEY
//   {"text": ["…", …], "target_lang": "DE", "source_lang": "EN", "formality": "more",
//    "glossary_id": "…", "tag_handling": "xml", "ignore_tags": ["x"]}
//   -> {"translations": [{"detected_source_language": "EN", "text": "…"}]}
//   GET {url}/v2/glossaries/{id}
//   -> {"glossary_id", "name", "ready", "source_lang": "en", "target_lang": "de", "creation_time", "entry_count"}
//   POST {url}/v2/glossaries {"name", "source_lang", "target_lang", "entries" (TSV), "entries_format": "tsv"}
//   -> 201 {"glossary_id", …};  DELETE {url}/v2/glossaries/{id} -> 204
//   (a job's own glossary of the project's terms found in a batch: createGlossary)
// Errors carry {"message": "…"}: 429 too many requests and 5xx (incl. 529)
// are retried; 456 quota exceeded, 403 authorization failed, 413 request too
// large and 400 end the job. Limits: at most 50 texts and 128 KiB of request
// body per request. Keys ending in ":fx" belong to api-free.deepl.com (config.ts).
import { jsonElementBytes } from './batching.js';
import { send, excerpt, type HttpOptions, translationsOf } from './http.js';
import {
  DEEPL_FORMALITY_TARGETS,
  DEEPL_SOURCE_LANGUAGES,
  DEEPL_TARGET_LANGUAGES,
  deeplGlossaryLanguage,
} from './languages.js';
import { parseRetryAfter, withRetry } from './retry.js';
import {
  FORMALITY_VALUES,
  MtProviderError,
  MtValidationError,
  type Formality,
  type GlossaryInfo,
  type ProviderCredentials,
  type TranslateOptions,
  type TranslationProvider,
  type TranslationRequest,
} from './types.js';
import { checkCode, optional, requireKey } from './validation.js';

const PROVIDER = 'MT_PROVIDER_B';
export const DEEPL_MAX_TEXTS = 50;
export const DEEPL_MAX_BODY_BYTES = 128 * 1024;
/** Room left in each request for what JSON.stringify does not predict (none expected). */
const BODY_SLACK = 256;
const GLOSSARY_ID = /^[A-Za-z0-9-]{1,100}$/;

export function deeplError(status: number, body: unknown, text: string, headers: Headers): MtProviderError {
  const b = body as { message?: string; detail?: string } | undefined;
  const message = b?.message ? (b.detail ? `${b.message}: ${b.detail}` : b.message) : excerpt(text);
  const defaults: Record<number, string> = {
    403: 'Authorization failed',
    413: 'Request entity too large',
    429: 'Too many requests',
    456: 'Quota exceeded',
  };
  const providerMessage = message || defaults[status] || `HTTP ${status}`;
  const base = {
    provider: PROVIDER,
    status,
    providerMessage,
    retryAfterMs: parseRetryAfter(headers.get('retry-after')),
  } as const;
  if (status === 429) return new MtProviderError({ ...base, kind: 'retryable', reason: 'rate_limit' });
  if (status >= 500) return new MtProviderError({ ...base, kind: 'retryable', reason: 'server' });
  if (status === 456) return new MtProviderError({ ...base, kind: 'fatal', reason: 'quota' });
  if (status === 401 || status === 403) return new MtProviderError({ ...base, kind: 'fatal', reason: 'auth' });
  if (status === 413 || status === 414) return new MtProviderError({ ...base, kind: 'fatal', reason: 'too_large' });
  if (status === 404) return new MtProviderError({ ...base, kind: 'fatal', reason: 'not_found' });
  return new MtProviderError({ ...base, kind: 'fatal', reason: 'bad_request' });
}

function requestBody(texts: string[], options: TranslateOptions): Record<string, unknown> {
  const body: Record<string, unknown> = { text: texts, target_lang: options.targetLanguage };
  if (options.sourceLanguage) body.source_lang = options.sourceLanguage;
  if (options.formality && options.formality !== 'default') body.formality = options.formality;
  if (options.glossaryId) body.glossary_id = options.glossaryId;
  body.tag_handling = 'xml';
  body.ignore_tags = ['x'];
  return body;
}

export function createDeeplProvider(credentials: ProviderCredentials, http: HttpOptions = {}): TranslationProvider {
  const headers = () => ({ Authorization: `DeepL-Auth-Key ${credentials.apiKey ?? ''}` });

  const provider: TranslationProvider = {
    id: PROVIDER,
    markup: 'xml',

    validateLanguages({ sourceLanguage, targetLanguage }) {
      checkCode(
        PROVIDER,
        'targetLanguage',
        targetLanguage,
        DEEPL_TARGET_LANGUAGES,
        'upper-case codes such as "DE", "EN-US", "PT-BR", "ZH-HANS"',
      );
      const source = optional(sourceLanguage);
      if (source === undefined) return;
      const base = source.split('-')[0]!;
      if (source.includes('-') && DEEPL_SOURCE_LANGUAGES.has(base)) {
        throw new MtValidationError(
          'sourceLanguage',
          `sourceLanguage "${source}" is not a language code of ${PROVIDER}: source languages have no regional variant, use "${base}"`,
        );
      }
      checkCode(
        PROVIDER,
        'sourceLanguage',
        source,
        DEEPL_SOURCE_LANGUAGES,
        'upper-case codes without region such as "EN", "DE", "PT"',
      );
    },

    validateRequest(request: TranslationRequest): TranslateOptions {
      provider.validateLanguages(request);
      const sourceLanguage = optional(request.sourceLanguage);
      const target = request.targetLanguage;
      const formality = optional(request.formality);
      if (formality !== undefined) {
        if (!(FORMALITY_VALUES as readonly string[]).includes(formality)) {
          throw new MtValidationError(
            'providerFormality',
            `providerFormality "${formality}" is not one of ${FORMALITY_VALUES.join(', ')}`,
          );
        }
        if ((formality === 'more' || formality === 'less') && !DEEPL_FORMALITY_TARGETS.has(target)) {
          throw new MtValidationError(
            'providerFormality',
            `providerFormality "${formality}" is not available for targetLanguage "${target}"; ${PROVIDER} supports it for ` +
              `${[...DEEPL_FORMALITY_TARGETS].join(', ')} (prefer_more / prefer_less fall back to the default elsewhere)`,
          );
        }
      }
      const glossaryId = optional(request.glossaryId);
      if (glossaryId !== undefined) {
        if (!GLOSSARY_ID.test(glossaryId)) {
          throw new MtValidationError(
            'providerGlossaryId',
            `providerGlossaryId "${glossaryId}" is not a glossary id of ${PROVIDER}`,
          );
        }
        if (sourceLanguage === undefined) {
          throw new MtValidationError(
            'providerGlossaryId',
            'providerGlossaryId needs sourceLanguage: a glossary is for one language pair',
          );
        }
        if (credentials.keySource !== 'project') {
          throw new MtValidationError(
            'providerGlossaryId',
            `providerGlossaryId needs the project's own ${PROVIDER} key in the project settings (glossaries belong to that key's account)`,
          );
        }
      }
      requireKey(PROVIDER, credentials);
      return { targetLanguage: target, sourceLanguage, formality: formality as Formality | undefined, glossaryId };
    },

    async checkGlossary(glossaryId, sourceLanguage, targetLanguage, signal): Promise<GlossaryInfo> {
      provider.validateRequest({ glossaryId, sourceLanguage, targetLanguage });
      const url = `${credentials.url}/v2/glossaries/${encodeURIComponent(glossaryId)}`;
      const answer = await withRetry(
        async () => {
          const a = await send(PROVIDER, url, { method: 'GET', headers: headers() }, http, signal);
          if (a.status !== 200) {
            const error = deeplError(a.status, a.body, a.text, a.headers);
            if (error.kind === 'retryable') throw error;
          }
          return a;
        },
        { maxAttempts: 3, baseDelayMs: 200, ...http.retry, signal },
      );
      if (answer.status !== 200) {
        const error = deeplError(answer.status, answer.body, answer.text, answer.headers);
        if (answer.status === 404) {
          throw new MtValidationError(
            'providerGlossaryId',
            `providerGlossaryId "${glossaryId}" was not found with the project's ${PROVIDER} key`,
          );
        }
        if (error.reason === 'auth') {
          throw new MtValidationError(
            'providerGlossaryId',
            `${PROVIDER} refused the project's key while looking up glossary "${glossaryId}": ${error.providerMessage}`,
          );
        }
        if (answer.status === 400) {
          throw new MtValidationError(
            'providerGlossaryId',
            `${PROVIDER} refused glossary "${glossaryId}": ${error.providerMessage}`,
          );
        }
        throw error;
      }
      const g = answer.body as Record<string, unknown> | undefined;
      if (!g || typeof g.source_lang !== 'string' || typeof g.target_lang !== 'string') {
        throw new MtProviderError({
          provider: PROVIDER,
          kind: 'fatal',
          reason: 'bad_response',
          status: 200,
          providerMessage: 'unexpected glossary answer',
        });
      }
      const info: GlossaryInfo = {
        // JSON scalars of DeepL's answer (an id and a name).
        // eslint-disable-next-line @typescript-eslint/no-base-to-string
        glossaryId: String(g.glossary_id ?? glossaryId),
        // eslint-disable-next-line @typescript-eslint/no-base-to-string
        name: String(g.name ?? ''),
        ready: g.ready !== false,
        sourceLang: g.source_lang,
        targetLang: g.target_lang,
        entryCount: Number(g.entry_count ?? 0),
      };
      const wantSource = deeplGlossaryLanguage(sourceLanguage);
      const wantTarget = deeplGlossaryLanguage(targetLanguage);
      if (info.sourceLang.toLowerCase() !== wantSource || info.targetLang.toLowerCase() !== wantTarget) {
        throw new MtValidationError(
          'providerGlossaryId',
          `glossary "${glossaryId}"${info.name ? ` (${info.name})` : ''} is for ${info.sourceLang} -> ${info.targetLang}, ` +
            `but the job translates ${sourceLanguage} -> ${targetLanguage} (${wantSource} -> ${wantTarget})`,
        );
      }
      if (!info.ready) {
        throw new MtValidationError(
          'providerGlossaryId',
          `glossary "${glossaryId}" is not ready yet at ${PROVIDER}; try again shortly`,
        );
      }
      return info;
    },

    async createGlossary(entries, sourceLanguage, targetLanguage, signal) {
      // TSV: a tab or line break inside a term would split its entry; DeepL refuses duplicate sources.
      const seen = new Set<string>();
      const rows = entries.filter((e) => {
        if (!e.source.trim() || !e.target.trim() || /[\t\r\n]/.test(e.source + e.target) || seen.has(e.source))
          return false;
        seen.add(e.source);
        return true;
      });
      const body = {
        name: 'localization-service job glossary',
        source_lang: deeplGlossaryLanguage(sourceLanguage),
        target_lang: deeplGlossaryLanguage(targetLanguage),
        entries: rows.map((e) => `${e.source.trim()}\t${e.target.trim()}`).join('\n'),
        entries_format: 'tsv',
      };
      const answer = await withRetry(
        async () => {
          const a = await send(
            PROVIDER,
            `${credentials.url}/v2/glossaries`,
            {
              method: 'POST',
              headers: { ...headers(), 'content-type': 'application/json' },
              body: JSON.stringify(body),
            },
            http,
            signal,
          );
          if (a.status !== 201 && a.status !== 200) throw deeplError(a.status, a.body, a.text, a.headers);
          return a;
        },
        { maxAttempts: 3, baseDelayMs: 200, ...http.retry, signal },
      );
      const glossaryId = (answer.body as { glossary_id?: unknown } | undefined)?.glossary_id;
      if (typeof glossaryId !== 'string' || !GLOSSARY_ID.test(glossaryId)) {
        throw new MtProviderError({
          provider: PROVIDER,
          kind: 'fatal',
          reason: 'bad_response',
          status: answer.status,
          providerMessage: 'unexpected answer to the glossary creation',
        });
      }
      return {
        glossaryId,
        async remove() {
          await send(
            PROVIDER,
            `${credentials.url}/v2/glossaries/${encodeURIComponent(glossaryId)}`,
            { method: 'DELETE', headers: headers() },
            http,
          );
        },
      };
    },

    batchLimits(options) {
      const overhead = Buffer.byteLength(JSON.stringify(requestBody([], options)), 'utf8');
      const maxSize = DEEPL_MAX_BODY_BYTES - overhead - BODY_SLACK;
      return { maxTexts: DEEPL_MAX_TEXTS, maxSize, sizeOf: jsonElementBytes, maxSingle: maxSize };
    },

    async translateBatch(texts, options, signal) {
      if (!texts.length) return [];
      const answer = await send(
        PROVIDER,
        `${credentials.url}/v2/translate`,
        {
          method: 'POST',
          headers: { ...headers(), 'Content-Type': 'application/json' },
          body: JSON.stringify(requestBody(texts, options)),
        },
        http,
        signal,
      );
      if (answer.status !== 200) throw deeplError(answer.status, answer.body, answer.text, answer.headers);
      const translations = (answer.body as { translations?: { text?: unknown }[] } | undefined)?.translations;
      return translationsOf(PROVIDER, answer.status, translations, texts.length, 'text');
    },
  };
  return provider;
}
