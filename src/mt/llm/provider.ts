// The language models seen as a TranslationProvider: what request validation
// (job creation, per-language settings) needs. The translation itself is not
// a batch of bare strings: jobs hand the model each text with its context
// (src/llm/), so translateBatch is never called for these providers.
import {
  MtProviderError,
  MtValidationError,
  type LlmProviderId,
  type TranslationProvider,
  type TranslateOptions,
  type TranslationRequest,
} from '../types.js';

function isLanguageTag(code: string): boolean {
  try {
    return Intl.getCanonicalLocales(code.replace(/_/g, '-')).length === 1;
  } catch {
    return false;
  }
}

export function createLlmProvider(id: LlmProviderId): TranslationProvider {
  const validateLanguages = ({
    sourceLanguage,
    targetLanguage,
  }: {
    sourceLanguage?: string;
    targetLanguage: string;
  }) => {
    if (!isLanguageTag(targetLanguage))
      throw new MtValidationError(
        'targetLanguage',
        `targetLanguage "${targetLanguage}" is not a BCP 47 language tag (${id} takes tags such as de, pt-BR, zh-Hant)`,
      );
    if (sourceLanguage !== undefined && !isLanguageTag(sourceLanguage))
      throw new MtValidationError('sourceLanguage', `sourceLanguage "${sourceLanguage}" is not a BCP 47 language tag`);
  };
  return {
    id,
    markup: 'xml',
    validateLanguages,
    validateRequest(request: TranslationRequest): TranslateOptions {
      validateLanguages(request);
      if (request.formality)
        throw new MtValidationError(
          'providerFormality',
          `providerFormality is for MT_PROVIDER_B only; ${id} follows the language's style instructions (setTranslationContext)`,
        );
      if (request.glossaryId)
        throw new MtValidationError('providerGlossaryId', `providerGlossaryId is for MT_PROVIDER_B only`);
      return { sourceLanguage: request.sourceLanguage, targetLanguage: request.targetLanguage };
    },
    async checkGlossary() {
      throw new MtValidationError('providerGlossaryId', `providerGlossaryId is for MT_PROVIDER_B only`);
    },
    batchLimits() {
      return { maxTexts: 100, maxSize: 1_000_000, sizeOf: (t: string) => t.length, maxSingle: 1_000_000 };
    },
    async translateBatch() {
      throw new MtProviderError({
        provider: id,
        kind: 'fatal',
        reason: 'bad_request',
        status: 0,
        providerMessage: 'language models translate with context (src/llm/), not bare batches',
      });
    },
  };
}
