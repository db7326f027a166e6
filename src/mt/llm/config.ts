// Configuration of the language-model providers, per instance (environment)
// and per project (settings, sealed where secret). A project's own value wins
// over the instance's, field by field.
//
//   LLM_OPENAI_URL        base URL, default https://api.openai.com (Ollama: http://127.0.0.1:11434)
//   LLM_OPENAI_API_KEY    sent as Authorization: Bearer (optional: Ollama needs none)
//   LLM_OPENAI_MODEL      default gpt-4o-mini
//   LLM_OPENAI_HEADERS    JSON object of extra headers (Azure: {"api-key": "…"})
//   LLM_OPENAI_RESPONSE_FORMAT  json_schema (default) | json_object | none: how structured output is asked
//   LLM_ANTHROPIC_RESPONSE_FORMAT  tool (default: the reply is a forced tool call whose input follows the schema) | none
//   LLM_ANTHROPIC_URL     default https://api.anthropic.com
//   LLM_ANTHROPIC_API_KEY sent as x-api-key
//   LLM_ANTHROPIC_MODEL   default claude-sonnet-4-5
//   LLM_ANTHROPIC_VERSION anthropic-version header, default 2023-06-01
//   LLM_ANTHROPIC_HEADERS JSON object of extra headers
//   LLM_<P>_PRICE_INPUT / LLM_<P>_PRICE_OUTPUT   price per million tokens (any currency), for the job's estimate
//   LLM_<P>_PRICES        JSON object of prices by model, {"gpt-4o-mini": {"input": 0.15, "output": 0.6}}:
//                         the configured model's entry wins over the two above (a project's own prices win over both)
//   LLM_<P>_SCREENSHOTS   true | false: send the screenshots of a key as images (vision models); default true
//                         for the vendor's own URL, false for any other server (a text-only model would refuse them)
//   LLM_MAX_IMAGES        screenshots per request, default 4
//   LLM_ALLOW_PRIVATE     true: the model server may be on a loopback or private address (self-hosted)
//   LLM_TIMEOUT_MS        per request, default 120000
//   LLM_TOKEN_BUDGET      estimated input tokens per request, default 6000 (a token ≈ 4 characters)
//   LLM_MAX_OUTPUT_TOKENS default 4096
//   LLM_LOG_RETENTION_DAYS  how long prompts and replies are kept for the job's log, default 30
import { ConfigError } from '../../config.js';
import type { KeySource, LlmProviderId } from '../types.js';

/** How each protocol is asked for structured output. */
export const RESPONSE_FORMATS = {
  LLM_OPENAI: ['json_schema', 'json_object', 'none'],
  LLM_ANTHROPIC: ['tool', 'none'],
} as const satisfies Record<LlmProviderId, readonly string[]>;
export type ResponseFormat = (typeof RESPONSE_FORMATS)[LlmProviderId][number];

export function isResponseFormat(provider: LlmProviderId, value: string): value is ResponseFormat {
  return (RESPONSE_FORMATS[provider] as readonly string[]).includes(value);
}

export interface LlmConfig {
  provider: LlmProviderId;
  /** Base URL without the /v1/... path and without a trailing slash. */
  url: string;
  apiKey?: string;
  keySource: KeySource;
  model: string;
  headers: Record<string, string>;
  /** Structured output: json_schema, json_object or none (OpenAI-compatible); tool or none (Anthropic). */
  responseFormat: ResponseFormat;
  /** Anthropic only. */
  anthropicVersion: string;
  /** The whole request, first byte to last (a server that trickles its answer does not hold a job forever). */
  timeoutMs: number;
  allowPrivate: boolean;
  /** Send the key's screenshots as images. */
  screenshots: boolean;
  /** Images per request at most. */
  maxImages: number;
  /** Estimated input tokens per request (prompt included). */
  tokenBudget: number;
  maxOutputTokens: number;
  /** Per million tokens; undefined when not configured (no cost estimate). */
  price?: { input: number; output: number };
  logRetentionDays: number;
}

/** What a project may set for a provider (settings.llmProviders; the API key is stored with the other provider keys). */
export interface ProjectLlmSettings {
  url?: string | null;
  model?: string | null;
  /** Opened (the stored form is sealed). */
  headers?: Record<string, string> | null;
  responseFormat?: ResponseFormat | null;
  priceInput?: number | null;
  priceOutput?: number | null;
  screenshots?: boolean | null;
}

const DEFAULTS = {
  LLM_OPENAI: { url: 'https://api.openai.com', model: 'gpt-4o-mini' },
  LLM_ANTHROPIC: { url: 'https://api.anthropic.com', model: 'claude-sonnet-4-5' },
} as const;

/** A base URL as given (the API root or the full endpoint), checked and cut to the root. */
export function llmBaseUrl(name: string, raw: string): string {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new ConfigError(`${name} must use http: or https:, got "${parsed.protocol}"`);
  if (parsed.search || parsed.hash || parsed.username || parsed.password)
    throw new ConfigError(`${name} must not have a query, fragment or credentials`);
  return raw
    .trim()
    .replace(/\/+$/, '')
    .replace(/\/v1(\/chat\/completions|\/messages)?$/, '');
}

/** An HTTP field name (RFC 9110 token), at most 100 characters. */
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;
/** What Node's HTTP client sends as a header value: no control character but tab, nothing past U+00FF. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** Headers the client sets itself. */
const RESERVED_HEADERS = ['host', 'content-length', 'content-type'];

/**
 * What is wrong with an extra header (the instance's or a project's): the
 * part and why, in words that never quote the name or the value (either may
 * hold a key); undefined when it can be sent.
 */
export function headerProblem(name: string, value: string): { part: 'name' | 'value'; problem: string } | undefined {
  if (!HEADER_NAME.test(name))
    return { part: 'name', problem: "must be a header name: at most 100 letters, digits or !#$%&'*+.^_`|~-" };
  if (RESERVED_HEADERS.includes(name.toLowerCase()))
    return { part: 'name', problem: 'may not be Host, Content-Length or Content-Type (the client sets them)' };
  if (!HEADER_VALUE.test(value))
    return { part: 'value', problem: 'may not hold a line break or another control character' };
  return undefined;
}

export function parseHeaders(name: string, raw: string | undefined): Record<string, string> {
  if (!raw?.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new ConfigError(`${name} must be a JSON object of header names and values`);
  }
  if (
    !value ||
    typeof value !== 'object' ||
    Array.isArray(value) ||
    Object.values(value).some((v) => typeof v !== 'string')
  ) {
    throw new ConfigError(`${name} must be a JSON object of header names and string values`);
  }
  const headers = value as Record<string, string>;
  Object.entries(headers).forEach(([header, text], i) => {
    const wrong = headerProblem(header, text);
    if (wrong) throw new ConfigError(`${name}: the ${wrong.part} of header ${i + 1} ${wrong.problem}`);
  });
  return headers;
}

function num(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max)
    throw new ConfigError(`${name} must be a number from ${min} to ${max}, got "${raw}"`);
  return n;
}

/** The instance's prices by model (LLM_<P>_PRICES). */
export function parsePrices(name: string, raw: string | undefined): Map<string, { input: number; output: number }> {
  const prices = new Map<string, { input: number; output: number }>();
  if (!raw?.trim()) return prices;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new ConfigError(
      `${name} must be a JSON object of models and prices, {"model": {"input": 0.15, "output": 0.6}}`,
    );
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new ConfigError(`${name} must be a JSON object of models and prices`);
  const ok = (n: unknown) => typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= 1e9;
  for (const [model, entry] of Object.entries(value)) {
    const { input, output } = (entry ?? {}) as { input?: unknown; output?: unknown };
    if (!ok(input) || !ok(output))
      throw new ConfigError(
        `${name}: the price of "${model}" must be {"input": n, "output": n}, numbers from 0 to 1000000000 per million tokens`,
      );
    prices.set(model, { input: input as number, output: output as number });
  }
  return prices;
}

// Field by field: the project's price, the instance's price of this model, the instance's price of the provider.
function price(
  env: NodeJS.ProcessEnv,
  prefix: string,
  model: string,
  project?: ProjectLlmSettings | null,
): LlmConfig['price'] {
  const byModel = parsePrices(`${prefix}_PRICES`, env[`${prefix}_PRICES`]).get(model);
  const input =
    project?.priceInput ??
    byModel?.input ??
    (env[`${prefix}_PRICE_INPUT`]?.trim() ? num(env, `${prefix}_PRICE_INPUT`, 0, 0, 1e9) : undefined);
  const output =
    project?.priceOutput ??
    byModel?.output ??
    (env[`${prefix}_PRICE_OUTPUT`]?.trim() ? num(env, `${prefix}_PRICE_OUTPUT`, 0, 0, 1e9) : undefined);
  return input === undefined && output === undefined ? undefined : { input: input ?? 0, output: output ?? 0 };
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean | undefined {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return undefined;
  if (['1', 'true', 'yes'].includes(raw)) return true;
  if (['0', 'false', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

export function resolveLlmConfig(
  provider: LlmProviderId,
  sources: { projectApiKey?: string | null; project?: ProjectLlmSettings | null; env?: NodeJS.ProcessEnv } = {},
): LlmConfig {
  const env = sources.env ?? process.env;
  const prefix = provider;
  const project = sources.project ?? {};
  const projectKey = sources.projectApiKey?.trim() || undefined;
  const envKey = env[`${prefix}_API_KEY`]?.trim() || undefined;
  const responseFormat =
    project.responseFormat ?? env[`${prefix}_RESPONSE_FORMAT`]?.trim() ?? RESPONSE_FORMATS[provider][0];
  if (!isResponseFormat(provider, responseFormat))
    throw new ConfigError(`${prefix}_RESPONSE_FORMAT must be one of ${RESPONSE_FORMATS[provider].join(', ')}`);
  const url = project.url
    ? llmBaseUrl('url', project.url)
    : env[`${prefix}_URL`]?.trim()
      ? llmBaseUrl(`${prefix}_URL`, env[`${prefix}_URL`]!)
      : DEFAULTS[provider].url;
  const model = project.model?.trim() || env[`${prefix}_MODEL`]?.trim() || DEFAULTS[provider].model;
  return {
    provider,
    url,
    apiKey: projectKey ?? envKey,
    keySource: projectKey ? 'project' : envKey ? 'environment' : 'none',
    model,
    // The project's headers are added to the instance's (same name: the project's).
    headers: { ...parseHeaders(`${prefix}_HEADERS`, env[`${prefix}_HEADERS`]), ...(project.headers ?? {}) },
    responseFormat,
    anthropicVersion: env.LLM_ANTHROPIC_VERSION?.trim() || '2023-06-01',
    timeoutMs: num(env, 'LLM_TIMEOUT_MS', 120_000, 100, 3_600_000),
    allowPrivate: ['1', 'true', 'yes'].includes((env.LLM_ALLOW_PRIVATE ?? '').trim().toLowerCase()),
    // The vendors' own servers see images; a self-hosted one may be text-only.
    screenshots: project.screenshots ?? flag(env, `${prefix}_SCREENSHOTS`) ?? url === DEFAULTS[provider].url,
    maxImages: num(env, 'LLM_MAX_IMAGES', 4, 0, 20),
    tokenBudget: num(env, 'LLM_TOKEN_BUDGET', 6_000, 200, 2_000_000),
    maxOutputTokens: num(env, 'LLM_MAX_OUTPUT_TOKENS', 4_096, 16, 1_000_000),
    price: price(env, prefix, model, project),
    logRetentionDays: num(env, 'LLM_LOG_RETENTION_DAYS', 30, 0, 3650),
  };
}

/** Rough token count of a text: a token is about four characters of English (documented in docs/llm-translation.md). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
