// Validation of auto-translation requests (v1 body, v2 targets, GraphQL input)
// into one normalized shape, before any job is created.
import { prisma } from '../db.js';
import { badRequest, notFound } from '../errors.js';
import { isTranslationProviderId, TRANSLATION_PROVIDER_IDS, type TranslationProviderId } from '../mt/types.js';

export const JOB_OPTIONS = ['USE_TRANSLATION_KEYS', 'FORCE_REPLACE', 'AUTO_PUBLISH'] as const;
export type JobOption = (typeof JOB_OPTIONS)[number];

export interface AutoTranslateInput {
  translationProvider: unknown;
  targetProjectLanguage: unknown;
  targetLanguage: unknown;
  sourceProjectLanguage?: unknown;
  sourceLanguage?: unknown;
  options?: unknown;
  providerGlossaryId?: unknown;
  providerFormality?: unknown;
}

/** What a job row keeps in `request`. */
export interface AutoTranslateRequest {
  translationProvider: TranslationProviderId;
  targetProjectLanguage: string;
  targetLanguage: string;
  sourceProjectLanguage: string;
  sourceLanguage?: string;
  options: JobOption[];
  providerGlossaryId?: string;
  providerFormality?: string;
}

function optionalString(value: unknown, field: string, max = 100): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw badRequest(`${field} must be a string`);
  if (value.length > max) throw badRequest(`${field} must have at most ${max} characters`);
  return value.trim();
}

function requiredString(value: unknown, field: string): string {
  const s = optionalString(value, field);
  if (!s) throw badRequest(`${field} is required`);
  return s;
}

/** Normalizes one request against the project's languages (the provider checks its own notation later). */
export async function normalizeRequest(projectId: number, input: AutoTranslateInput): Promise<AutoTranslateRequest> {
  if (!isTranslationProviderId(input.translationProvider)) {
    throw badRequest(`translationProvider must be one of ${TRANSLATION_PROVIDER_IDS.join(', ')}`);
  }
  const targetProjectLanguage = requiredString(input.targetProjectLanguage, 'targetProjectLanguage');
  const targetLanguage = requiredString(input.targetLanguage, 'targetLanguage');
  let options: JobOption[] = [];
  if (input.options !== undefined && input.options !== null) {
    if (!Array.isArray(input.options) || input.options.some((o) => typeof o !== 'string')) throw badRequest('options must be an array of strings');
    const unknown = input.options.filter((o) => !(JOB_OPTIONS as readonly string[]).includes(o));
    if (unknown.length) throw badRequest(`options: unknown value '${unknown[0]}'; allowed: ${JOB_OPTIONS.join(', ')}`);
    options = [...new Set(input.options as JobOption[])];
  }
  const languages = await prisma().language.findMany({ where: { projectId }, select: { key: true, isDefault: true }, orderBy: [{ order: 'asc' }, { id: 'asc' }] });
  const keys = new Set(languages.map((l) => l.key));
  if (!keys.has(targetProjectLanguage)) throw notFound(`targetProjectLanguage '${targetProjectLanguage}' is not a language of this project`);
  const sourceProjectLanguage = optionalString(input.sourceProjectLanguage, 'sourceProjectLanguage') ?? (languages.find((l) => l.isDefault) ?? languages[0])?.key;
  if (!sourceProjectLanguage || !keys.has(sourceProjectLanguage)) throw notFound(`sourceProjectLanguage '${sourceProjectLanguage}' is not a language of this project`);
  if (sourceProjectLanguage === targetProjectLanguage) throw badRequest('sourceProjectLanguage and targetProjectLanguage must differ');
  const providerGlossaryId = optionalString(input.providerGlossaryId, 'providerGlossaryId', 200);
  const providerFormality = optionalString(input.providerFormality, 'providerFormality', 20);
  return {
    translationProvider: input.translationProvider,
    targetProjectLanguage,
    targetLanguage,
    sourceProjectLanguage,
    sourceLanguage: optionalString(input.sourceLanguage, 'sourceLanguage'),
    options,
    providerGlossaryId,
    providerFormality,
  };
}
