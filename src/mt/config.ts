// Endpoint URL and API key of each provider. From the environment:
//   MT_PROVIDER_A_URL, MT_PROVIDER_A_API_KEY   (Google Cloud Translation v2)
//   MT_PROVIDER_B_URL, MT_PROVIDER_B_API_KEY   (DeepL API v2)
// A key stored in the project's settings takes precedence over the
// environment's. URLs default to the providers' public endpoints; a DeepL key
// ending in ":fx" is a DeepL API Free key and goes to api-free.deepl.com
// unless MT_PROVIDER_B_URL says otherwise.
import { ConfigError } from '../config.js';
import {
  TRANSLATION_PROVIDER_IDS,
  isTranslationProviderId,
  type ProviderCredentials,
  type TranslationProviderId,
} from './types.js';

export const GOOGLE_DEFAULT_URL = 'https://translation.googleapis.com';
export const DEEPL_PRO_URL = 'https://api.deepl.com';
export const DEEPL_FREE_URL = 'https://api-free.deepl.com';

const ENV_NAMES = {
  MT_PROVIDER_A: { url: 'MT_PROVIDER_A_URL', key: 'MT_PROVIDER_A_API_KEY' },
  MT_PROVIDER_B: { url: 'MT_PROVIDER_B_URL', key: 'MT_PROVIDER_B_API_KEY' },
} as const;

export interface CredentialSources {
  /** The provider key from the project's settings, if the project has one. */
  projectApiKey?: string | null;
  env?: NodeJS.ProcessEnv;
}

function baseUrl(name: string, raw: string, suffixes: RegExp): string {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ConfigError(`${name} must use http: or https:, got "${parsed.protocol}"`);
  }
  if (parsed.search || parsed.hash) throw new ConfigError(`${name} must not have a query or fragment`);
  // Accept the API's base URL as well as the full translate endpoint.
  return raw.replace(/\/+$/, '').replace(suffixes, '');
}

/** True for a DeepL API Free key. */
export function isDeeplFreeKey(key: string | undefined): boolean {
  return !!key && key.endsWith(':fx');
}

export function resolveCredentials(
  provider: TranslationProviderId,
  sources: CredentialSources = {},
): ProviderCredentials {
  if (provider === 'PSEUDO') return { url: 'pseudo:', keySource: 'none' };
  if (provider === 'MEMORY') return { url: 'memory:', keySource: 'none' };
  // Language models have their own configuration (src/mt/llm/config.ts).
  if (provider === 'LLM_OPENAI' || provider === 'LLM_ANTHROPIC') return { url: 'llm:', keySource: 'none' };
  const env = sources.env ?? process.env;
  const names = ENV_NAMES[provider];
  const projectKey = sources.projectApiKey?.trim() || undefined;
  const envKey = env[names.key]?.trim() || undefined;
  const apiKey = projectKey ?? envKey;
  const keySource = projectKey ? 'project' : envKey ? 'environment' : 'none';
  const rawUrl = env[names.url]?.trim() || undefined;
  let url: string;
  if (provider === 'MT_PROVIDER_A') {
    url = rawUrl ? baseUrl(names.url, rawUrl, /\/language\/translate\/v2$/) : GOOGLE_DEFAULT_URL;
  } else {
    url = rawUrl
      ? baseUrl(names.url, rawUrl, /\/v2(\/translate)?$/)
      : isDeeplFreeKey(apiKey)
        ? DEEPL_FREE_URL
        : DEEPL_PRO_URL;
  }
  return { url, apiKey, keySource };
}

/**
 * The instance's provider, for languages whose auto-translation settings name
 * none: MT_DEFAULT_PROVIDER when set, else the first external provider that
 * has a key (the project's own or the service's), the dedicated one first:
 * MT_PROVIDER_B, then MT_PROVIDER_A. Undefined when none has a key: PSEUDO
 * is never chosen unasked (it would write pseudo-text into real languages).
 */
export function instanceProvider(
  projectKeys: ReadonlySet<string>,
  env: NodeJS.ProcessEnv = process.env,
): TranslationProviderId | undefined {
  const configured = env.MT_DEFAULT_PROVIDER?.trim();
  if (configured) {
    if (!isTranslationProviderId(configured))
      throw new ConfigError(
        `MT_DEFAULT_PROVIDER must be one of ${TRANSLATION_PROVIDER_IDS.join(', ')}, got "${configured}"`,
      );
    return configured;
  }
  return (['MT_PROVIDER_B', 'MT_PROVIDER_A'] as const).find(
    (id) => projectKeys.has(id) || !!env[ENV_NAMES[id].key]?.trim(),
  );
}
