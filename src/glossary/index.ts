// The glossary (docs/glossary.md): terms per project or shared between
// projects, matched in texts on word boundaries.
import { matchesIn, projectMatcher, type GlossaryMatch } from './matches.js';

export type { GlossaryMatch, GlossaryTermRecord } from './matches.js';
export { translationFor, baseLanguage } from './matches.js';

/**
 * The glossary terms that occur in `text`, for a prompt or a provider's
 * glossary: ONLY the terms found (never the whole glossary), one entry per
 * term in text order, each with its translation for `targetLanguage` (null
 * when the glossary has none; the term itself when it is not to be
 * translated) and its flags (`forbidden`: must not be used;
 * `doNotTranslate`: keep as written).
 *
 * Reads the glossaries the project uses — its own and the shared ones linked
 * to it — whose source language has the same base language as
 * `sourceLanguage`. Matching is on word boundaries (Intl.Segmenter), case-
 * insensitive unless a term says otherwise, with a prefix rule for plurals
 * and inflections (src/checks/glossary-match.ts). No permission check: the caller
 * has already reached the project (a job, a resolver that resolved it).
 * Compiled glossaries are cached while they do not change (one small query
 * per call checks that): compiling is what costs, matching a sentence is
 * cheap (docs/benchmarks.md, "Figures behind constants in the code").
 */
export async function glossaryMatches(
  projectId: number,
  sourceLanguage: string,
  targetLanguage: string,
  text: string,
): Promise<GlossaryMatch[]> {
  const matcher = await projectMatcher(projectId, sourceLanguage);
  return matchesIn(matcher, sourceLanguage, targetLanguage, text);
}

/** glossaryMatches of many texts (a job's batch): the glossaries are read once. */
export async function glossaryMatchesOfTexts(
  projectId: number,
  sourceLanguage: string,
  targetLanguage: string,
  texts: readonly string[],
): Promise<GlossaryMatch[][]> {
  const matcher = await projectMatcher(projectId, sourceLanguage);
  return texts.map((text) => matchesIn(matcher, sourceLanguage, targetLanguage, text));
}
