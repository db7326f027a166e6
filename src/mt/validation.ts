// Request rules shared by the providers. Messages name the field of the
// auto-translation job request they are about.
import { closestCode } from './languages.js';
import {
  MtValidationError,
  type ProviderCredentials,
  type TranslationProviderId,
  type TranslationRequest,
} from './types.js';

/** Empty strings count as absent. */
export function optional(value: string | undefined | null): string | undefined {
  return value === undefined || value === null || value === '' ? undefined : value;
}

export function checkCode(
  provider: TranslationProviderId,
  field: 'sourceLanguage' | 'targetLanguage',
  code: string,
  table: ReadonlySet<string>,
  notation: string,
): void {
  if (table.has(code)) return;
  const hint = closestCode(code, table);
  throw new MtValidationError(
    field,
    `${field} "${code}" is not a language code of ${provider}` +
      (hint ? `; did you mean "${hint}"?` : `; ${provider} uses ${notation}`),
  );
}

export function requireKey(provider: TranslationProviderId, credentials: ProviderCredentials): void {
  if (!credentials.apiKey) {
    throw new MtValidationError(
      'translationProvider',
      `${provider} has no API key: set ${provider}_API_KEY for the service or a provider key in the project settings`,
    );
  }
}

/** providerFormality and providerGlossaryId exist only for MT_PROVIDER_B. */
export function refuseProviderBOptions(provider: TranslationProviderId, request: TranslationRequest): void {
  if (optional(request.formality) !== undefined) {
    throw new MtValidationError(
      'providerFormality',
      `providerFormality is only supported by MT_PROVIDER_B, not by ${provider}`,
    );
  }
  if (optional(request.glossaryId) !== undefined) {
    throw new MtValidationError(
      'providerGlossaryId',
      `providerGlossaryId is only supported by MT_PROVIDER_B, not by ${provider}`,
    );
  }
}
