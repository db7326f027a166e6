// A project's own settings of a language-model provider: base URL, model,
// extra headers (sealed: they may carry keys, e.g. Azure's api-key), how
// structured output is asked, prices per million tokens. Each field set wins
// over the instance's environment (src/mt/llm/config.ts); the API key is one of
// the project's provider keys (provider-keys.ts).
import { badRequest } from '../errors.js';
import { isSealed, open, seal } from '../auth/sealed-secrets.js';
import { ConfigError } from '../config.js';
import {
  headerProblem,
  isResponseFormat,
  llmBaseUrl,
  RESPONSE_FORMATS,
  type ProjectLlmSettings,
  type ResponseFormat,
} from '../mt/llm/config.js';
import type { LlmProviderId } from '../mt/types.js';
import { readSettings, updateSettings, type ProjectSettings } from '../projects/settings.js';

interface Stored {
  url?: string;
  model?: string;
  /** Sealed JSON object. */
  headers?: string;
  responseFormat?: ResponseFormat;
  priceInput?: number;
  priceOutput?: number;
  screenshots?: boolean;
}

/** An extra header, as the API takes it (a list: GraphQL's input types check its shape). */
export interface LlmHeader {
  name: string;
  value: string;
}

export interface LlmSettingsInput {
  url?: string | null;
  model?: string | null;
  headers?: readonly LlmHeader[] | null;
  responseFormat?: string | null;
  priceInput?: number | null;
  priceOutput?: number | null;
  screenshots?: boolean | null;
}

export interface LlmSettingsView {
  provider: LlmProviderId;
  url: string | null;
  model: string | null;
  /** Names only: values are never returned. */
  headerNames: string[];
  responseFormat: ResponseFormat | null;
  priceInput: number | null;
  priceOutput: number | null;
  screenshots: boolean | null;
}

const purpose = (projectId: number, provider: string) => `llm-headers:${projectId}:${provider}`;

function storedOf(settings: ProjectSettings, provider: LlmProviderId): Stored {
  return ((settings.llmProviders ?? {}) as Record<string, Stored>)[provider] ?? {};
}

function openHeaders(projectId: number, provider: LlmProviderId, stored: Stored): Record<string, string> {
  if (!stored.headers) return {};
  return JSON.parse(
    isSealed(stored.headers) ? open(stored.headers, purpose(projectId, provider)) : stored.headers,
  ) as Record<string, string>;
}

/** The project's settings of a provider, opened, for resolveLlmConfig. */
export function projectLlmSettings(
  projectId: number,
  settings: ProjectSettings,
  provider: LlmProviderId,
): ProjectLlmSettings {
  const stored = storedOf(settings, provider);
  return {
    url: stored.url,
    model: stored.model,
    headers: openHeaders(projectId, provider, stored),
    responseFormat: stored.responseFormat,
    priceInput: stored.priceInput,
    priceOutput: stored.priceOutput,
    screenshots: stored.screenshots,
  };
}

export async function readLlmSettings(projectId: number, provider: LlmProviderId): Promise<LlmSettingsView> {
  const settings = await readSettings(projectId);
  const stored = storedOf(settings, provider);
  return {
    provider,
    url: stored.url ?? null,
    model: stored.model ?? null,
    headerNames: Object.keys(openHeaders(projectId, provider, stored)),
    responseFormat: stored.responseFormat ?? null,
    priceInput: stored.priceInput ?? null,
    priceOutput: stored.priceOutput ?? null,
    screenshots: stored.screenshots ?? null,
  };
}

function price(value: number | null | undefined, field: string): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (!Number.isFinite(value) || value < 0 || value > 1e9)
    throw badRequest(`${field} must be a number from 0 to 1000000000 (per million tokens)`);
  return value;
}

/**
 * The headers as stored (name → value), or a 400 naming the header by its
 * place in the list: never its name or value, which may hold a key.
 */
function sealableHeaders(headers: readonly LlmHeader[]): Record<string, string> {
  const out: Record<string, string> = {};
  const seen = new Set<string>();
  headers.forEach(({ name, value }, i) => {
    const wrong = headerProblem(name, value);
    if (wrong) throw badRequest(`headers[${i}].${wrong.part} ${wrong.problem}`);
    if (seen.has(name.toLowerCase())) throw badRequest(`headers[${i}].name repeats the name of an earlier header`);
    seen.add(name.toLowerCase());
    out[name] = value;
  });
  return out;
}

/**
 * Replaces the project's settings of a provider (a field null or absent: the
 * instance's), except the headers: left out, the stored ones stay (their values
 * are never shown, so a form cannot send them back); null or an empty list removes them.
 */
export async function setLlmSettings(
  projectId: number,
  provider: LlmProviderId,
  input: LlmSettingsInput,
): Promise<LlmSettingsView> {
  const settings = await readSettings(projectId);
  const next: Stored = {};
  if (input.headers === undefined && storedOf(settings, provider).headers)
    next.headers = storedOf(settings, provider).headers;
  if (input.url?.trim()) {
    try {
      next.url = llmBaseUrl('url', input.url.trim());
    } catch (error) {
      if (error instanceof ConfigError) throw badRequest(error.message);
      throw error;
    }
    if (input.url.length > 2000) throw badRequest('url must have at most 2000 characters');
  }
  if (input.model?.trim()) {
    if (input.model.length > 200) throw badRequest('model must have at most 200 characters');
    next.model = input.model.trim();
  }
  if (input.headers) {
    const headers = sealableHeaders(input.headers);
    if (Object.keys(headers).length) next.headers = seal(JSON.stringify(headers), purpose(projectId, provider));
  }
  if (input.responseFormat) {
    if (!isResponseFormat(provider, input.responseFormat))
      throw badRequest(`responseFormat of ${provider} must be one of ${RESPONSE_FORMATS[provider].join(', ')}`);
    next.responseFormat = input.responseFormat;
  }
  if (input.screenshots !== null && input.screenshots !== undefined) next.screenshots = input.screenshots;
  next.priceInput = price(input.priceInput, 'priceInput');
  next.priceOutput = price(input.priceOutput, 'priceOutput');
  const all = {
    ...((settings.llmProviders as Record<string, Stored> | undefined) ?? {}),
    [provider]: JSON.parse(JSON.stringify(next)) as Stored,
  };
  await updateSettings(projectId, { llmProviders: all });
  return readLlmSettings(projectId, provider);
}
