// Auto-translation "like last time": the vendor's command-line client sends
// only language keys and options; the provider, the source language (project
// and provider notation), the target language in provider notation, the
// glossary and the formality of each target language are those of that
// language's last auto-translation job (any final state; the newest by start).
import { prisma } from '../db.js';
import { badRequest, notFound } from '../errors.js';
import { type AutoTranslateInput, type AutoTranslateRequest, type JobOption } from './request.js';

/** Options that are settings of a language's translation and carry over from its last job; FORCE_REPLACE is asked for each time. */
const CARRIED_OPTIONS: readonly JobOption[] = ['USE_TRANSLATION_KEYS', 'AUTO_PUBLISH'];

/** The request of the last auto-translation job of each project language that has one. */
export async function lastJobRequests(projectId: number): Promise<Map<string, AutoTranslateRequest>> {
  const rows = await prisma().$queryRawUnsafe<{ request: AutoTranslateRequest }[]>(
    `SELECT DISTINCT ON (request->>'targetProjectLanguage') request
       FROM "Job" WHERE "projectId" = $1 AND kind = 'AUTO_TRANSLATE'
      ORDER BY request->>'targetProjectLanguage', "startedAt" DESC, id DESC`,
    projectId,
  );
  return new Map(rows.map((r) => [r.request.targetProjectLanguage, r.request]));
}

/**
 * The job requests for `languageKeys` (every language when empty), each like
 * that language's last job, with `options` added. With an empty list, the
 * languages that are the source of one of those jobs are left out (a language
 * is not translated from itself). A language without a previous job is a 400
 * naming it: nothing says which provider and notation to use.
 */
export async function likeLastJobInputs(projectId: number, languageKeys: readonly string[], options?: readonly JobOption[] | null): Promise<AutoTranslateInput[]> {
  const asked = options ?? [];
  const languages = (await prisma().language.findMany({ where: { projectId }, select: { key: true }, orderBy: [{ order: 'asc' }, { id: 'asc' }] })).map((l) => l.key);
  const last = await lastJobRequests(projectId);
  let targets: string[];
  if (languageKeys.length > 0) {
    targets = [...new Set(languageKeys.map((k) => k.trim()).filter((k) => k !== ''))];
    const unknown = targets.filter((k) => !languages.includes(k));
    if (unknown.length) throw notFound(`languageKeys: ${unknown.map((k) => `'${k}'`).join(', ')} ${unknown.length === 1 ? 'is not a language' : 'are not languages'} of this project`);
  } else {
    const sources = new Set(languages.filter((k) => last.has(k)).map((k) => last.get(k)!.sourceProjectLanguage));
    targets = languages.filter((k) => !sources.has(k));
  }
  const without = targets.filter((k) => !last.has(k));
  if (without.length) {
    throw badRequest(
      `No previous auto-translation job for ${without.length === 1 ? 'language' : 'languages'} ${without.map((k) => `'${k}'`).join(', ')}: ` +
      'nothing says which provider and language codes to use. Start one job for it with translationProvider and targetLanguage (POST /api/v1/jobs/auto-translate), or leave it out of languageKeys.',
    );
  }
  if (targets.length === 0) throw badRequest('No language to auto-translate: every language of the project is the source of another language\'s last job');
  return targets.map((language) => {
    const previous = last.get(language)!;
    const carried = (previous.options ?? []).filter((o) => CARRIED_OPTIONS.includes(o));
    return {
      translationProvider: previous.translationProvider,
      targetProjectLanguage: previous.targetProjectLanguage,
      targetLanguage: previous.targetLanguage,
      sourceProjectLanguage: previous.sourceProjectLanguage,
      sourceLanguage: previous.sourceLanguage,
      providerGlossaryId: previous.providerGlossaryId,
      providerFormality: previous.providerFormality,
      options: [...new Set([...asked, ...carried])],
    };
  });
}
