// Validation of auto-translation requests (v1 body, v2 targets, GraphQL input)
// into one normalized shape, before any job is created.
import { prisma } from '../db.js';
import { badRequest, notFound } from '../errors.js';
import type { TranslationProviderId } from '../mt/types.js';

export const JOB_OPTIONS = ['USE_TRANSLATION_KEYS', 'FORCE_REPLACE', 'AUTO_PUBLISH'] as const;
export type JobOption = (typeof JOB_OPTIONS)[number];

export interface AutoTranslateInput {
  translationProvider: TranslationProviderId;
  targetProjectLanguage: string;
  targetLanguage: string;
  sourceProjectLanguage?: string | null;
  sourceLanguage?: string | null;
  options?: readonly JobOption[] | null;
  providerGlossaryId?: string | null;
  providerFormality?: string | null;
  /** Fill from the translation memory first, with matches scoring at least this (50–100); MEMORY: default 100. */
  memoryMinScore?: number | null;
  /** Only these keys (an automation's changed keys); all keys when absent. */
  keyIds?: readonly number[] | null;
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
  memoryMinScore?: number;
  keyIds?: number[];
}

function optionalString(value: string | null | undefined, field: string, max = 100): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (value.length > max) throw badRequest(`${field} must have at most ${max} characters`);
  return value.trim();
}

function requiredString(value: string, field: string): string {
  const s = optionalString(value, field);
  if (!s) throw badRequest(`${field} is required`);
  return s;
}

/** Normalizes one request against the project's languages (the provider checks its own notation later). */
export async function normalizeRequest(projectId: number, input: AutoTranslateInput): Promise<AutoTranslateRequest> {
  const targetProjectLanguage = requiredString(input.targetProjectLanguage, 'targetProjectLanguage');
  const targetLanguage = requiredString(input.targetLanguage, 'targetLanguage');
  const options = [...new Set(input.options ?? [])];
  const languages = await prisma().language.findMany({
    where: { projectId },
    select: { key: true, isDefault: true },
    orderBy: [{ order: 'asc' }, { id: 'asc' }],
  });
  const keys = new Set(languages.map((l) => l.key));
  if (!keys.has(targetProjectLanguage))
    throw notFound(`targetProjectLanguage '${targetProjectLanguage}' is not a language of this project`);
  const sourceProjectLanguage =
    optionalString(input.sourceProjectLanguage, 'sourceProjectLanguage') ??
    (languages.find((l) => l.isDefault) ?? languages[0])?.key;
  if (!sourceProjectLanguage || !keys.has(sourceProjectLanguage))
    throw notFound(`sourceProjectLanguage '${sourceProjectLanguage}' is not a language of this project`);
  if (sourceProjectLanguage === targetProjectLanguage)
    throw badRequest('sourceProjectLanguage and targetProjectLanguage must differ');
  const providerGlossaryId = optionalString(input.providerGlossaryId, 'providerGlossaryId', 200);
  const providerFormality = optionalString(input.providerFormality, 'providerFormality', 20);
  const memoryMinScore = input.memoryMinScore ?? (input.translationProvider === 'MEMORY' ? 100 : undefined);
  if (
    memoryMinScore !== undefined &&
    (!Number.isInteger(memoryMinScore) || memoryMinScore < 50 || memoryMinScore > 100)
  ) {
    throw badRequest(`memoryMinScore must be a whole number from 50 to 100, got ${memoryMinScore}`);
  }
  // The memory pairs each text of the default language with its translations: only that side can be looked up.
  if (memoryMinScore !== undefined && sourceProjectLanguage !== languages.find((l) => l.isDefault)?.key) {
    throw badRequest(
      `The translation memory is looked up from the default language; sourceProjectLanguage '${sourceProjectLanguage}' is not it`,
    );
  }
  return {
    translationProvider: input.translationProvider,
    targetProjectLanguage,
    targetLanguage,
    sourceProjectLanguage,
    sourceLanguage: optionalString(input.sourceLanguage, 'sourceLanguage'),
    options,
    providerGlossaryId,
    providerFormality,
    ...(memoryMinScore !== undefined && { memoryMinScore }),
    ...(input.keyIds && { keyIds: [...new Set(input.keyIds)] }),
  };
}
