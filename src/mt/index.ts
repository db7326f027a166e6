// Machine-translation providers. A job does, in order:
//   const credentials = resolveCredentials(id, { projectApiKey });   // config.ts
//   const provider = getProvider(id, credentials);
//   const options = provider.validateRequest({ sourceLanguage, targetLanguage, formality, glossaryId }); // 400 on error
//   if (options.glossaryId) await provider.checkGlossary(options.glossaryId, options.sourceLanguage!, options.targetLanguage);
//   const { outcomes, stats } = await translateTexts(provider, texts, options, { signal, onText, onProgress });
import { resolveCredentials } from './config.js';
import { createDeeplProvider } from './deepl.js';
import { createGoogleProvider } from './google-v2.js';
import type { HttpOptions } from './http.js';
import { createPseudoProvider } from './pseudo.js';
import { createLlmProvider } from './llm/provider.js';
import { createMemoryProvider } from './memory-provider.js';
import {
  MtValidationError,
  TRANSLATION_PROVIDER_IDS,
  isLlmProviderId,
  isTranslationProviderId,
  type ProviderCredentials,
  type TranslationProvider,
  type TranslationProviderId,
} from './types.js';

export function getProvider(
  id: TranslationProviderId,
  credentials?: ProviderCredentials,
  http: HttpOptions = {},
): TranslationProvider {
  if (!isTranslationProviderId(id)) {
    throw new MtValidationError(
      'translationProvider',
      `translationProvider "${String(id)}" is not one of ${TRANSLATION_PROVIDER_IDS.join(', ')}`,
    );
  }
  if (isLlmProviderId(id)) return createLlmProvider(id);
  if (id === 'MEMORY') return createMemoryProvider();
  const creds = credentials ?? resolveCredentials(id);
  if (id === 'MT_PROVIDER_A') return createGoogleProvider(creds, http);
  if (id === 'MT_PROVIDER_B') return createDeeplProvider(creds, http);
  return createPseudoProvider();
}

export * from './types.js';
export {
  resolveCredentials,
  isDeeplFreeKey,
  DEEPL_FREE_URL,
  DEEPL_PRO_URL,
  GOOGLE_DEFAULT_URL,
  type CredentialSources,
} from './config.js';
export {
  translateTexts,
  type TextOutcome,
  type TextFailure,
  type TranslateTextsOptions,
  type TranslateTextsResult,
  type TranslateProgress,
} from './translate.js';
export { pseudoLocalize } from './pseudo.js';
export { withRetry, type RetryOptions } from './retry.js';
export type { HttpOptions } from './http.js';
export {
  GOOGLE_LANGUAGES,
  DEEPL_SOURCE_LANGUAGES,
  DEEPL_TARGET_LANGUAGES,
  DEEPL_FORMALITY_TARGETS,
  providerCodeFor,
} from './languages.js';
