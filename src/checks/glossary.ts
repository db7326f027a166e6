// The glossary check (docs/glossary.md, docs/quality-checks.md): a term of the
// glossary found in the source whose required translation is missing from the
// translation, and a forbidden term used in the translation. Words are found
// as the glossary finds them (src/checks/glossary-match.ts: Intl.Segmenter word
// boundaries per language, case rules, the plural/inflection prefix rule), so
// "Datei" is found in "Dateien" and not in "Dateiname", and "cat" never in
// "concatenate".
//
// The check needs the glossary, which a Pair does not carry: callers that
// have it (they looked the terms up, e.g. with glossaryMatches) pass it as
// `glossary` on the pair (`{ ...pairOf(input), glossary }`) or call
// glossaryProblems directly; without it the check finds nothing.
import { compileMatcher, containsTerm, findTerms } from './glossary-match.js';
import type { CheckDefinition, Pair, Problem } from './types.js';
import { problem } from './messages.js';

export interface GlossaryCheckTerm {
  term: string;
  caseSensitive: boolean;
  abbreviation: boolean;
  forbidden: boolean;
  doNotTranslate: boolean;
  /** The term's translation for the target language (null: none given). */
  translation: string | null;
}

export type GlossaryPair = Pair & { glossary?: readonly GlossaryCheckTerm[] };

export function glossaryProblems(
  source: string,
  target: string,
  sourceLanguage: string,
  targetLanguage: string,
  terms: readonly GlossaryCheckTerm[],
): Problem[] {
  if (!terms.length || target.trim() === '') return [];
  const problems: Problem[] = [];
  const required = terms.map((t, id) => ({ ...t, id })).filter((t) => !t.forbidden);
  const inSource = findTerms(compileMatcher(required, sourceLanguage), source, sourceLanguage);
  const reported = new Set<number>();
  for (const { term } of inSource) {
    if (reported.has(term.id)) continue;
    reported.add(term.id);
    const expected = term.doNotTranslate ? term.term : term.translation;
    if (!expected) continue;
    if (
      !containsTerm(target, expected, targetLanguage, {
        caseSensitive: term.doNotTranslate || term.caseSensitive,
        exact: term.doNotTranslate || term.abbreviation,
      })
    ) {
      problems.push(
        term.doNotTranslate
          ? problem('glossary.keep', { term: term.term })
          : problem('glossary.missing', { term: term.term, translation: expected }),
      );
    }
  }
  for (const t of terms) {
    if (!t.forbidden) continue;
    const banned = t.translation ?? t.term;
    const found = containsTerm(target, banned, targetLanguage, {
      caseSensitive: t.caseSensitive,
      exact: t.abbreviation,
    });
    if (found)
      problems.push(problem('glossary.forbidden', { term: found.text }, { start: found.start, end: found.end }));
  }
  return problems;
}

export const glossaryCheck: CheckDefinition = {
  id: 'glossary',
  category: 'text',
  title: 'Glossary term not used / forbidden term used',
  severity: 'warning',
  enabled: true,
  run: (pair) => {
    const terms = (pair as GlossaryPair).glossary;
    return terms && pair.source !== ''
      ? glossaryProblems(pair.source, pair.target, pair.sourceLanguage, pair.targetLanguage, terms)
      : [];
  },
};
