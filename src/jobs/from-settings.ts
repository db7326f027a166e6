// Jobs for languages named only by key (the vendor's command-line client:
// `{languageKeys, source, options}`), each configured by that language's
// auto-translation settings (language-settings.ts). A language its settings
// cannot serve (no provider, no code at the provider, refused options) is
// skipped and reported as a job that ended FAILED at once, saying why; the
// request is refused only when no language at all can be translated.
import { badRequest, notFound } from '../errors.js';
import { createAutoTranslateJobs, type SkippedTarget } from './create.js';
import { resolveLanguageSettings } from './language-settings.js';
import type { AutoTranslateInput, JobOption } from './request.js';

/**
 * Starts the jobs for `languageKeys`; empty: every language except the source
 * ones (those another language is translated from). `options` (FORCE_REPLACE
 * for `--force`) are added to the options each language's settings carry.
 * `idempotencyKey`: see createAutoTranslateJobs.
 */
export async function startJobsFromSettings(
  projectId: number,
  languageKeys: readonly string[],
  options?: readonly JobOption[] | null,
  only?: { keyIds: readonly number[] },
  idempotencyKey?: string,
) {
  const settings = await resolveLanguageSettings(projectId);
  let targets: typeof settings;
  if (languageKeys.length > 0) {
    const asked = [...new Set(languageKeys.map((k) => k.trim()).filter((k) => k !== ''))];
    const unknown = asked.filter((k) => !settings.some((s) => s.languageKey === k));
    if (unknown.length)
      throw notFound(
        `languageKeys: ${unknown.map((k) => `'${k}'`).join(', ')} ${unknown.length === 1 ? 'is not a language' : 'are not languages'} of this project`,
      );
    targets = asked.map((k) => settings.find((s) => s.languageKey === k)!);
  } else {
    targets = settings.filter((s) => !s.isSource && s.sourceProjectLanguage !== s.languageKey);
    if (targets.length === 0)
      throw badRequest('No language to auto-translate: the project has no language besides its source language');
  }
  const inputs: AutoTranslateInput[] = [];
  const skipped: SkippedTarget[] = [];
  for (const s of targets) {
    if (s.problem) {
      skipped.push({
        targetProjectLanguage: s.languageKey,
        translationProvider: s.translationProvider,
        targetLanguage: s.targetLanguage,
        sourceProjectLanguage: s.sourceProjectLanguage,
        reason: s.problem,
      });
      continue;
    }
    inputs.push({
      translationProvider: s.translationProvider!,
      targetProjectLanguage: s.languageKey,
      targetLanguage: s.targetLanguage!,
      sourceProjectLanguage: s.sourceProjectLanguage,
      sourceLanguage: s.sourceLanguage,
      providerGlossaryId: s.providerGlossaryId,
      providerFormality: s.providerFormality,
      options: [...new Set([...(options ?? []), ...s.options])],
      ...(only && { keyIds: only.keyIds }),
    });
  }
  return createAutoTranslateJobs(projectId, inputs, { skipped }, idempotencyKey);
}
