// Help beside the cell being edited, without a click (docs/translation-memory.md,
// docs/glossary.md): the source text with its glossary terms marked (their
// required translation on hover and listed), what the glossary check finds in
// the draft, and the translation memory's best matches; Alt+1…3 (or a click)
// puts a match into the draft. The buttons keep the focus in the text box, so
// using them does not end the edit.
import { useTranslation } from 'react-i18next';
import { i18n } from './i18n';
import { useEffect, type ReactNode } from 'react';
import { useQuery } from 'urql';
import { graphql } from './graphql';
import { glossaryProblems } from '../../src/checks/glossary';

const Suggestions =
  graphql(`query CellMemorySuggestions($projectToken: String!, $key: String!, $namespace: String, $targetLanguage: String!) {
  memorySuggestions(projectToken: $projectToken, key: $key, namespace: $namespace, targetLanguage: $targetLanguage, limit: 3, minScore: 70) {
    suggestions { score text origin { kind projectName key memoryName } }
  }
}`);
const Terms = graphql(`query CellGlossaryTerms($projectToken: String!, $text: String!, $targetLanguage: String!) {
  glossaryMatches(projectToken: $projectToken, text: $text, targetLanguage: $targetLanguage) {
    termId term description forbidden doNotTranslate caseSensitive abbreviation translation start end text
  }
}`);

/** The shortcut of the n-th suggestion (Alt+1…); by physical key, so layouts where Alt+digit types a character work too. */
const SHORTCUT_CODES = ['Digit1', 'Digit2', 'Digit3'];

export function CellHelp({
  projectToken,
  keyName,
  namespace,
  language,
  source,
  sourceLanguage,
  draft,
  onInsert,
}: {
  projectToken: string;
  keyName: string;
  namespace: string;
  language: string;
  /** The default language's text of the key. */
  source: string;
  sourceLanguage: string;
  draft: string;
  onInsert(text: string): void;
}) {
  const { t } = useTranslation();
  const isSource = language === sourceLanguage;
  const [memory] = useQuery({
    query: Suggestions,
    variables: { projectToken, key: keyName, namespace, targetLanguage: language },
    pause: isSource || !source.trim(),
  });
  const [glossary] = useQuery({
    query: Terms,
    variables: { projectToken, text: source, targetLanguage: language },
    pause: isSource || !source.trim(),
  });
  const suggestions = memory.data?.memorySuggestions.suggestions ?? [];
  const terms = glossary.data?.glossaryMatches ?? [];

  useEffect(() => {
    if (suggestions.length === 0) return;
    const onKey = (event: KeyboardEvent) => {
      const n = SHORTCUT_CODES.indexOf(event.code);
      if (!event.altKey || event.ctrlKey || event.metaKey || n < 0 || !suggestions[n]) return;
      event.preventDefault();
      onInsert(suggestions[n]!.text);
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [suggestions, onInsert]);

  if (isSource || (suggestions.length === 0 && terms.length === 0)) return null;
  const problems = terms.length ? glossaryProblems(source, draft, sourceLanguage, language, terms) : [];
  return (
    <div className="cell-help" role="region" aria-label={t('cellHelp.label')}>
      {terms.length > 0 && (
        <section aria-label={t('cellHelp.terms')}>
          <p className="source-marked" lang={sourceLanguage}>
            {markTerms(source, terms)}
          </p>
          <ul className="terms">
            {terms.map((term) => (
              <li key={term.termId}>
                <strong>{term.term}</strong> →{' '}
                {term.forbidden
                  ? t('cellHelp.forbidden')
                  : term.doNotTranslate
                    ? t('cellHelp.keep')
                    : (term.translation ?? t('cellHelp.noTranslation'))}
                {term.description && <span className="hint"> ({term.description})</span>}
              </li>
            ))}
          </ul>
          {problems.map((p) => (
            <p key={p.message} className="problem">
              {p.message}
            </p>
          ))}
        </section>
      )}
      {suggestions.length > 0 && (
        <section aria-label={t('cellHelp.memory')}>
          <ol className="suggestions">
            {suggestions.map((s, i) => (
              <li key={`${i}:${s.text}`}>
                <button
                  type="button"
                  onMouseDown={(e) => e.preventDefault()}
                  onClick={() => onInsert(s.text)}
                  aria-keyshortcuts={`Alt+${i + 1}`}
                  title={t('cellHelp.insertMatch')}
                >
                  <kbd>Alt+{i + 1}</kbd> <span lang={language}>{s.text}</span>
                </button>
                <span className="score">{t('cellHelp.score', { score: s.score })}</span>
                <span className="hint">
                  {' '}
                  {s.origin.kind === 'IMPORTED'
                    ? (s.origin.memoryName ?? t('cellHelp.importedMemory'))
                    : `${s.origin.projectName ?? ''} · ${s.origin.key ?? ''}`}
                </span>
              </li>
            ))}
          </ol>
        </section>
      )}
    </div>
  );
}

/** The source with each first occurrence of a term marked, its required translation on hover. */
function markTerms(
  source: string,
  terms: readonly {
    termId: number;
    start: number;
    end: number;
    translation: string | null;
    forbidden: boolean;
    doNotTranslate: boolean;
  }[],
): ReactNode[] {
  const out: ReactNode[] = [];
  let at = 0;
  for (const t of [...terms].sort((a, b) => a.start - b.start)) {
    if (t.start < at) continue;
    out.push(source.slice(at, t.start));
    const hint = t.forbidden
      ? i18n.t('cellHelp.forbiddenTerm')
      : t.doNotTranslate
        ? i18n.t('cellHelp.keep')
        : t.translation
          ? i18n.t('cellHelp.translateAs', { translation: t.translation })
          : i18n.t('cellHelp.glossaryTerm');
    out.push(
      <mark key={t.termId} title={hint}>
        {source.slice(t.start, t.end)}
      </mark>,
    );
    at = t.end;
  }
  out.push(source.slice(at));
  return out;
}
