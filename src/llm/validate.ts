// A model's translation is checked with the project's quality checks
// (src/checks/) before anything is written: every finding of severity
// `error` blocks it — placeholders missing, extra or changed, ICU syntax,
// plural categories the target language needs, tags, the characters limit,
// blank text, and the glossary's terms found in the source (a required
// translation missing, a forbidden term used). Warnings (punctuation, spacing) do not.
import { runChecks } from '../checks/index.js';
import { glossaryProblems, type GlossaryCheckTerm } from '../checks/glossary.js';

export interface TextToCheck {
  source: string;
  target: string;
  sourceLanguage: string;
  targetLanguage: string;
  charactersLimit: number | null;
  /** The glossary terms found in the source (KeyContext.glossary). */
  glossary?: readonly GlossaryCheckTerm[];
}

/** What is wrong with the translation, one sentence per problem; empty when it may be written. */
export function blockingProblems(input: TextToCheck): string[] {
  if (input.target.trim() === '') return ['the translation is empty'];
  return runChecks({ ...input, dialect: 'auto' })
    .filter((f) => f.severity === 'error')
    .map((f) => `${f.check}: ${f.message}`)
    .concat(
      glossaryProblems(
        input.source,
        input.target,
        input.sourceLanguage,
        input.targetLanguage,
        input.glossary ?? [],
      ).map((p) => `glossary: ${p.message}`),
    );
}
