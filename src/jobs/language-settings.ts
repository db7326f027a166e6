// Auto-translation settings per target language (the vendor's model): the
// provider, the source language (project key and provider code), the target
// language's provider code, formality, glossary and the options that carry
// over. A request that only names languages (the vendor's command-line client)
// is built from them (from-settings.ts).
//
// Each language's settings come from, in order: its saved row
// (AutoTranslationSetting, a null field taking the default); else its last
// auto-translation job (the newest by start, any final state: what "like last
// time" meant before settings existed, so existing projects keep it until
// someone saves); else the defaults: the instance's provider
// (src/mt/config.ts instanceProvider), the project's default language as
// source, codes made from the language keys (src/mt/languages.ts providerCodeFor).
import { Prisma } from '../generated/prisma/client.js';
import { prisma } from '../db.js';
import { badRequest, notFound } from '../errors.js';
import { openChange } from '../content/changes.js';
import { instanceProvider } from '../mt/config.js';
import { providerCodeFor } from '../mt/languages.js';
import {
  FORMALITY_VALUES,
  MtValidationError,
  isTranslationProviderId,
  type TranslationProviderId,
} from '../mt/types.js';
import { readSettings } from '../projects/settings.js';
import { providerForProject } from './provider.js';
import type { AutoTranslateRequest, JobOption } from './request.js';

/** Options that are settings of a language; FORCE_REPLACE is asked for each time. */
export const SETTING_OPTIONS = ['USE_TRANSLATION_KEYS', 'AUTO_PUBLISH'] as const satisfies readonly JobOption[];
export type SettingOption = (typeof SETTING_OPTIONS)[number];

export type SettingsOrigin = 'SAVED' | 'LAST_JOB' | 'DEFAULT';

/** The settings a job for one target language would use. */
export interface LanguageSettings {
  languageKey: string;
  origin: SettingsOrigin;
  translationProvider: TranslationProviderId | null;
  sourceProjectLanguage: string;
  sourceLanguage: string | null;
  targetLanguage: string | null;
  providerFormality: string | null;
  providerGlossaryId: string | null;
  options: SettingOption[];
  /** Another language is translated from this one: "every language" leaves it out. */
  isSource: boolean;
  /** Why no job can start for this language with these settings; null when one can. */
  problem: string | null;
}

/** What a person saves for a language: null (or absent) takes the default. */
export interface LanguageSettingsInput {
  translationProvider?: TranslationProviderId | null;
  sourceProjectLanguage?: string | null;
  sourceLanguage?: string | null;
  targetLanguage?: string | null;
  providerFormality?: string | null;
  providerGlossaryId?: string | null;
  options?: readonly string[] | null;
}

/** The request of the last auto-translation job of each target language that has one. */
export async function lastJobRequests(projectId: number): Promise<Map<string, AutoTranslateRequest>> {
  const rows = await prisma().$queryRaw<{ request: AutoTranslateRequest }[]>(Prisma.sql`
    /* jobs:last-per-language */
    SELECT DISTINCT ON (request->>'targetProjectLanguage') request
      FROM "Job" WHERE "projectId" = ${projectId} AND kind = 'AUTO_TRANSLATE' AND NOT (request ? 'skipped')
     ORDER BY request->>'targetProjectLanguage', "startedAt" DESC, id DESC`);
  return new Map(rows.map((r) => [r.request.targetProjectLanguage, r.request]));
}

const nonEmpty = (value: string | null | undefined) =>
  value === undefined || value === null || value.trim() === '' ? null : value.trim();

/** Every language of the project with the settings a job for it would use, in the project's language order. */
export async function resolveLanguageSettings(projectId: number): Promise<LanguageSettings[]> {
  const [languages, saved, last, projectSettings] = await Promise.all([
    prisma().language.findMany({
      where: { projectId },
      select: { id: true, key: true, isDefault: true },
      orderBy: [{ order: 'asc' }, { id: 'asc' }],
    }),
    prisma().autoTranslationSetting.findMany({ where: { projectId } }),
    lastJobRequests(projectId),
    readSettings(projectId),
  ]);
  const keyOf = new Map(languages.map((l) => [l.id, l.key]));
  const defaultSource = (languages.find((l) => l.isDefault) ?? languages[0])?.key ?? '';
  const fallbackProvider = instanceProvider(new Set(Object.keys(projectSettings.providerApiKeys ?? {})));
  const savedOf = new Map(saved.map((s) => [s.languageId, s]));

  const settings = languages.map((language): Omit<LanguageSettings, 'isSource' | 'problem'> => {
    const row = savedOf.get(language.id);
    const previous = last.get(language.key);
    if (!row && previous && languages.some((l) => l.key === previous.sourceProjectLanguage)) {
      return {
        languageKey: language.key,
        origin: 'LAST_JOB',
        translationProvider: previous.translationProvider,
        sourceProjectLanguage: previous.sourceProjectLanguage,
        sourceLanguage: previous.sourceLanguage ?? null,
        targetLanguage: previous.targetLanguage,
        providerFormality: previous.providerFormality ?? null,
        providerGlossaryId: previous.providerGlossaryId ?? null,
        options: (previous.options ?? []).filter((o): o is SettingOption =>
          (SETTING_OPTIONS as readonly string[]).includes(o),
        ),
      };
    }
    const provider =
      (row?.provider && isTranslationProviderId(row.provider) ? row.provider : null) ?? fallbackProvider ?? null;
    const source =
      (row?.sourceLanguageId !== null && row?.sourceLanguageId !== undefined
        ? keyOf.get(row.sourceLanguageId)
        : undefined) ?? defaultSource;
    return {
      languageKey: language.key,
      origin: row ? 'SAVED' : 'DEFAULT',
      translationProvider: provider,
      sourceProjectLanguage: source,
      sourceLanguage: row?.sourceCode ?? (provider ? (providerCodeFor(provider, source, 'source') ?? null) : null),
      targetLanguage:
        row?.targetCode ?? (provider ? (providerCodeFor(provider, language.key, 'target') ?? null) : null),
      providerFormality: row?.formality ?? null,
      providerGlossaryId: row?.glossaryId ?? null,
      options: (row?.options ?? []).filter((o): o is SettingOption =>
        (SETTING_OPTIONS as readonly string[]).includes(o),
      ),
    };
  });

  const sources = new Set(
    settings.filter((s) => s.sourceProjectLanguage !== s.languageKey).map((s) => s.sourceProjectLanguage),
  );
  const providers = new Map<TranslationProviderId, Awaited<ReturnType<typeof providerForProject>>['provider']>();
  const result: LanguageSettings[] = [];
  for (const s of settings) {
    let problem: string | null = null;
    if (s.sourceProjectLanguage === s.languageKey) {
      problem = `'${s.languageKey}' is the source language`;
    } else if (!s.translationProvider) {
      problem = `No translation provider for '${s.languageKey}': none is set in its auto-translation settings and the instance has none configured (MT_DEFAULT_PROVIDER, MT_PROVIDER_B_API_KEY or MT_PROVIDER_A_API_KEY)`;
    } else if (!s.targetLanguage) {
      problem = `${s.translationProvider} cannot translate into '${s.languageKey}': it has no language code for it; set the provider's code or another provider in the language's auto-translation settings`;
    } else {
      if (!providers.has(s.translationProvider))
        providers.set(s.translationProvider, (await providerForProject(projectId, s.translationProvider)).provider);
      try {
        providers.get(s.translationProvider)!.validateRequest({
          sourceLanguage: s.sourceLanguage ?? undefined,
          targetLanguage: s.targetLanguage,
          formality: s.providerFormality ?? undefined,
          glossaryId: s.providerGlossaryId ?? undefined,
        });
      } catch (error) {
        if (!(error instanceof MtValidationError)) throw error;
        problem = `${s.translationProvider} cannot translate into '${s.languageKey}': ${error.message}`;
      }
    }
    result.push({ ...s, isSource: sources.has(s.languageKey), problem });
  }
  return result;
}

function checkedString(value: string | null | undefined, field: string, max: number): string | null {
  const s = nonEmpty(value);
  if (s !== null && s.length > max) throw badRequest(`${field} must have at most ${max} characters`);
  return s;
}

/**
 * Saves a language's settings, replacing what was saved before (each field
 * null or absent: its default). Codes are checked against the notation of the
 * provider that will use them, when there is one; the glossary and the
 * provider key are checked when a job starts.
 */
export async function saveLanguageSettings(
  projectId: number,
  languageKey: string,
  input: LanguageSettingsInput,
): Promise<void> {
  const languages = await prisma().language.findMany({ where: { projectId }, select: { id: true, key: true } });
  const language = languages.find((l) => l.key === languageKey);
  if (!language) throw notFound(`Language '${languageKey}' not found`);
  const sourceKey = nonEmpty(input.sourceProjectLanguage);
  const source = sourceKey === null ? null : languages.find((l) => l.key === sourceKey);
  if (source === undefined) throw notFound(`sourceProjectLanguage '${sourceKey}' is not a language of this project`);
  if (source?.id === language.id)
    throw badRequest('sourceProjectLanguage must differ from the language translated into');
  const provider = input.translationProvider ?? null;
  const sourceCode = checkedString(input.sourceLanguage, 'sourceLanguage', 100);
  const targetCode = checkedString(input.targetLanguage, 'targetLanguage', 100);
  const formality = checkedString(input.providerFormality, 'providerFormality', 20);
  if (formality !== null && !(FORMALITY_VALUES as readonly string[]).includes(formality))
    throw badRequest(`providerFormality must be one of ${FORMALITY_VALUES.join(', ')}`);
  const glossaryId = checkedString(input.providerGlossaryId, 'providerGlossaryId', 200);
  const options = [...new Set(input.options ?? [])];
  const wrong = options.filter((o) => !(SETTING_OPTIONS as readonly string[]).includes(o));
  if (wrong.length)
    throw badRequest(
      `options may hold ${SETTING_OPTIONS.join(', ')} (FORCE_REPLACE is asked for with each request); got ${wrong.join(', ')}`,
    );
  // Codes given are checked in the notation of the provider that will use them (the instance's when none is set).
  const user =
    provider ?? instanceProvider(new Set(Object.keys((await readSettings(projectId)).providerApiKeys ?? {})));
  if (user && (targetCode || sourceCode)) {
    const { provider: mt } = await providerForProject(projectId, user);
    mt.validateLanguages({
      sourceLanguage: sourceCode ?? undefined,
      targetLanguage: targetCode ?? providerCodeFor(user, languageKey, 'target') ?? languageKey,
    });
  }
  const data = {
    provider,
    sourceLanguageId: source?.id ?? null,
    sourceCode,
    targetCode,
    formality,
    glossaryId,
    options,
    updatedAt: new Date(),
  };
  await prisma().$transaction(async (tx) => {
    await tx.autoTranslationSetting.upsert({
      where: { languageId: language.id },
      create: { languageId: language.id, projectId, ...data },
      update: data,
    });
    await openChange(tx, projectId, 'SETTINGS', { settings: ['autoTranslation'], language: languageKey });
  });
}

/** Forgets a language's saved settings: its last job's, else the defaults, apply again. */
export async function resetLanguageSettings(projectId: number, languageKey: string): Promise<void> {
  const language = await prisma().language.findFirst({ where: { projectId, key: languageKey }, select: { id: true } });
  if (!language) throw notFound(`Language '${languageKey}' not found`);
  await prisma().$transaction(async (tx) => {
    const { count } = await tx.autoTranslationSetting.deleteMany({ where: { languageId: language.id } });
    if (count)
      await openChange(tx, projectId, 'SETTINGS', {
        settings: ['autoTranslation'],
        language: languageKey,
        reset: true,
      });
  });
}
