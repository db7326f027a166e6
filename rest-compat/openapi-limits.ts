// The limits the domain enforces on input fields and path parameters, stated
// in the OpenAPI description (the domain's LIMITS are the one source: a change
// there changes the description).
import { LIMITS } from '../src/content/translations/fields.js';
import type { JsonSchema } from './route.js';

const text = (maxLength: number): JsonSchema => ({ maxLength });
const tags: JsonSchema = { maxItems: LIMITS.tags, items: { maxLength: LIMITS.tag } };

/** GraphQL input type → field → schema keywords added to the field's schema. */
const customer = { key: text(LIMITS.customerKey), description: text(LIMITS.customerDescription) };
const language = { key: text(LIMITS.languageKey), name: text(LIMITS.languageName) };
const key = {
  key: text(LIMITS.key),
  namespace: text(LIMITS.namespace),
  description: text(LIMITS.description),
  codeDescription: text(LIMITS.codeDescription),
  tags,
  charactersLimit: { minimum: -1, description: 'At most this many characters per translation; -1 clears the limit' },
};

export const INPUT_FIELD_LIMITS: Record<string, Record<string, JsonSchema>> = {
  CreateCustomerInput: customer,
  UpdateCustomerInput: customer,
  CreateLanguageInput: language,
  UpdateLanguageInput: language,
  CreateTranslationKeyInput: key,
  UpdateTranslationKeyInput: key,
  TranslationKeyRefInput: { key: text(LIMITS.key), namespace: text(LIMITS.namespace) },
  TranslationElementInput: {
    key: text(LIMITS.key),
    namespace: text(LIMITS.namespace),
    language: text(LIMITS.languageKey),
    description: text(LIMITS.description),
  },
};

/** Path parameter → its schema. */
export const PATH_PARAMETERS: Record<string, JsonSchema> = {
  customerKey: { type: 'string', maxLength: LIMITS.customerKey },
  languageKey: { type: 'string', maxLength: LIMITS.languageKey },
  environmentKey: { type: 'string', description: '_latest, _production or a custom environment key' },
  jobId: { type: 'string' },
};
