// Machine-translation provider layer: the shapes shared by the providers
// (MT_PROVIDER_A = Google Cloud Translation Basic v2, MT_PROVIDER_B = DeepL
// API v2, PSEUDO = built-in offline pseudo-localization) and its two error
// types. Provider modules speak HTTP; translate.ts drives them (placeholders,
// batching, retries); the job engine only needs getProvider() + translateTexts().
import { AppError } from '../errors.js';

export const TRANSLATION_PROVIDER_IDS = [
  'MT_PROVIDER_A',
  'MT_PROVIDER_B',
  'PSEUDO',
  'LLM_OPENAI',
  'LLM_ANTHROPIC',
  'MEMORY',
] as const;
export type TranslationProviderId = (typeof TRANSLATION_PROVIDER_IDS)[number];

export function isTranslationProviderId(value: unknown): value is TranslationProviderId {
  return typeof value === 'string' && (TRANSLATION_PROVIDER_IDS as readonly string[]).includes(value);
}

/** Language-model providers (src/mt/llm/): OpenAI-compatible chat completions and Anthropic messages. */
export const LLM_PROVIDER_IDS = ['LLM_OPENAI', 'LLM_ANTHROPIC'] as const;
export type LlmProviderId = (typeof LLM_PROVIDER_IDS)[number];

export function isLlmProviderId(value: unknown): value is LlmProviderId {
  return value === 'LLM_OPENAI' || value === 'LLM_ANTHROPIC';
}

/** Where the API key in use came from: the project's settings, the service environment, or nowhere. */
export type KeySource = 'project' | 'environment' | 'none';

/** Endpoint and key of one provider, resolved by config.ts. */
export interface ProviderCredentials {
  /** Base URL of the provider's API (no trailing slash). */
  url: string;
  apiKey?: string;
  keySource: KeySource;
}

export const FORMALITY_VALUES = ['default', 'more', 'less', 'prefer_more', 'prefer_less'] as const;
export type Formality = (typeof FORMALITY_VALUES)[number];

/** What a job asks of a provider, in the provider's own language notation. */
export interface TranslationRequest {
  sourceLanguage?: string;
  targetLanguage: string;
  /** MT_PROVIDER_B only. */
  formality?: string;
  /** MT_PROVIDER_B only; needs sourceLanguage and the project's own key. */
  glossaryId?: string;
}

/** Options of one provider request (validated beforehand). */
export interface TranslateOptions {
  sourceLanguage?: string;
  targetLanguage: string;
  formality?: Formality;
  glossaryId?: string;
}

/** The markup the provider receives texts in (see placeholders.ts). */
export type Markup = 'xml' | 'html';

/** Request limits of a provider for one batch. */
export interface BatchLimits {
  /** Most texts in one request. */
  maxTexts: number;
  /** Most size units (bytes or characters, see sizeOf) for the texts of one request. */
  maxSize: number;
  /** Size of one text in the request, in the unit of maxSize. */
  sizeOf(text: string): number;
  /**
   * Largest single text the provider accepts, same unit. A text over maxSize
   * but within maxSingle is sent alone; a larger one is refused without sending.
   */
  maxSingle: number;
}

/** Glossary metadata as the dedicated provider reports it (DeepL GET /v2/glossaries/{id}). */
export interface GlossaryInfo {
  glossaryId: string;
  name: string;
  ready: boolean;
  sourceLang: string;
  targetLang: string;
  entryCount: number;
}

export interface TranslationProvider {
  readonly id: TranslationProviderId;
  readonly markup: Markup;
  /** Throws MtValidationError (naming the field) unless both codes are in the provider's notation. */
  validateLanguages(languages: { sourceLanguage?: string; targetLanguage: string }): void;
  /** Languages, formality and glossary rules, and the presence of a key; throws MtValidationError. */
  validateRequest(request: TranslationRequest): TranslateOptions;
  /** Looks the glossary up at the provider; throws MtValidationError when missing, not ready or of another language pair. */
  checkGlossary(
    glossaryId: string,
    sourceLanguage: string,
    targetLanguage: string,
    signal?: AbortSignal,
  ): Promise<GlossaryInfo>;
  /** Request limits for texts encoded in `markup` with these options. */
  batchLimits(options: TranslateOptions): BatchLimits;
  /**
   * One provider request, no retry: texts already encoded in `markup` (see
   * placeholders.ts), answers in the same order and markup. Throws MtProviderError.
   */
  translateBatch(texts: string[], options: TranslateOptions, signal?: AbortSignal): Promise<string[]>;
  /**
   * Providers that take a glossary (MT_PROVIDER_B): one made at the provider
   * from these entries for a job's batch (the project's terms found in its
   * texts), and its removal. Throws MtProviderError.
   */
  createGlossary?(
    entries: readonly GlossaryEntry[],
    sourceLanguage: string,
    targetLanguage: string,
    signal?: AbortSignal,
  ): Promise<{ glossaryId: string; remove(): Promise<void> }>;
}

/** A term and how it is to be translated (a glossary entry handed to a provider). */
export interface GlossaryEntry {
  source: string;
  target: string;
}

/** A request that cannot be served as given; maps to HTTP 400 with the message. */
export class MtValidationError extends AppError {
  constructor(
    public readonly field: string,
    message: string,
  ) {
    super('BAD_REQUEST', message, { field });
    this.name = 'MtValidationError';
  }
}

export type MtErrorReason =
  | 'rate_limit'
  | 'server'
  | 'network'
  | 'timeout'
  | 'quota'
  | 'auth'
  | 'bad_request'
  | 'too_large'
  | 'not_found'
  | 'bad_response';

/**
 * A provider answer other than success. `retryable` errors (429, 5xx, network)
 * are retried with backoff by retry.ts; `fatal` ones (quota, auth, refused
 * request) end the job, with `providerMessage` as the provider said it.
 */
export class MtProviderError extends Error {
  readonly provider: TranslationProviderId;
  readonly kind: 'retryable' | 'fatal';
  readonly reason: MtErrorReason;
  /** HTTP status, 0 when no answer arrived. */
  readonly status: number;
  readonly providerMessage: string;
  /** From Retry-After, when the provider sent one. */
  readonly retryAfterMs?: number;
  /** Language models: the tokens the failed call had already been billed for (its earlier attempts' replies). */
  spent?: { inputTokens: number; outputTokens: number; requests: number };

  constructor(init: {
    provider: TranslationProviderId;
    kind: 'retryable' | 'fatal';
    reason: MtErrorReason;
    status: number;
    providerMessage: string;
    retryAfterMs?: number;
    cause?: unknown;
  }) {
    super(`${init.provider}: ${init.providerMessage}${init.status ? ` (HTTP ${init.status})` : ''}`, {
      cause: init.cause,
    });
    this.name = 'MtProviderError';
    this.provider = init.provider;
    this.kind = init.kind;
    this.reason = init.reason;
    this.status = init.status;
    this.providerMessage = init.providerMessage;
    this.retryAfterMs = init.retryAfterMs;
  }
}
