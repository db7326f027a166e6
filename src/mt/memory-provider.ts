// MEMORY: pre-translation from the translation memory (docs/translation-memory.md).
// No outside service: a job with this provider fills each empty cell from the
// memory's best match at or above its score (default 100 %), through the
// write gate like every job. The filling itself is in src/jobs/memory-fill.ts,
// which also serves other providers' "memory first" (memoryMinScore); so
// translateBatch is never called for it.
import {
  MtProviderError,
  MtValidationError,
  type TranslateOptions,
  type TranslationProvider,
  type TranslationRequest,
} from './types.js';

export function createMemoryProvider(): TranslationProvider {
  const validateLanguages = () => {};
  return {
    id: 'MEMORY',
    markup: 'xml',
    validateLanguages,
    validateRequest(request: TranslationRequest): TranslateOptions {
      if (request.formality)
        throw new MtValidationError('providerFormality', 'providerFormality is for MT_PROVIDER_B only');
      if (request.glossaryId)
        throw new MtValidationError('providerGlossaryId', 'providerGlossaryId is for MT_PROVIDER_B only');
      return { sourceLanguage: request.sourceLanguage, targetLanguage: request.targetLanguage };
    },
    async checkGlossary() {
      throw new MtValidationError('providerGlossaryId', 'providerGlossaryId is for MT_PROVIDER_B only');
    },
    batchLimits() {
      return { maxTexts: 100, maxSize: 1_000_000, sizeOf: (t: string) => t.length, maxSingle: 1_000_000 };
    },
    async translateBatch() {
      throw new MtProviderError({
        provider: 'MEMORY',
        kind: 'fatal',
        reason: 'bad_request',
        status: 0,
        providerMessage: 'the memory fills cells from its matches (src/jobs/memory-fill.ts), not from bare batches',
      });
    },
  };
}
