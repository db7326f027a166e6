// What language models are told about the project (docs/llm-translation.md):
// its description and each language's style instructions (formality, tone,
// terms to keep). Owners and administrators edit them; others read them.
import { useTranslation } from 'react-i18next';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from './graphql';
import { messageOf } from './feedback';

const ContextQuery = graphql(`query TranslationContext($projectToken: String!) {
  translationContext(projectToken: $projectToken) { description styles { languageKey instructions } }
  project(projectToken: $projectToken) { languages { key name isDefault } }
}`);
const SaveContext =
  graphql(`mutation SaveTranslationContext($projectToken: String!, $description: String, $styles: [LanguageStyleInput!]) {
  setTranslationContext(projectToken: $projectToken, description: $description, styles: $styles) { description styles { languageKey instructions } }
}`);

export function TranslationContextSection({ projectToken }: { projectToken: string }) {
  const { t } = useTranslation();
  const [{ data, error }] = useQuery({ query: ContextQuery, variables: { projectToken } });
  const [, save] = useMutation(SaveContext);
  const [description, setDescription] = useState('');
  const [styles, setStyles] = useState<Record<string, string>>({});
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState('');
  type Context = NonNullable<typeof data>['translationContext'];
  const show = (context: Context) => {
    setDescription(context.description);
    setStyles(Object.fromEntries(context.styles.map((s) => [s.languageKey, s.instructions])));
  };
  useEffect(() => {
    if (data) show(data.translationContext);
  }, [data]);
  // What is in the form now, for a save's answer to tell whether the user typed while it was on its way.
  const current = useRef({ description, styles });
  current.current = { description, styles };
  const targets = (data?.project.languages ?? []).filter((l) => !l.isDefault);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const sent = current.current;
    const result = await save({
      projectToken,
      description,
      styles: targets.map((l) => ({ languageKey: l.key, instructions: styles[l.key] ?? '' })),
    });
    if (result.error) return setFailure(messageOf(result.error));
    if (!result.data) return;
    setFailure('');
    // The saved context replaces the form, unless it was edited meanwhile: then the edits stay, unsaved.
    if (current.current.description === sent.description && current.current.styles === sent.styles)
      show(result.data.setTranslationContext);
    setStatus(t('llmContext.saved'));
  };
  return (
    <section aria-labelledby="context-heading">
      <h2 id="context-heading">{t('llmContext.title')}</h2>
      <p className="hint">{t('llmContext.hint')}</p>
      {error && (
        <p role="alert" className="error">
          {messageOf(error)}
        </p>
      )}
      {data && (
        <form onSubmit={submit} aria-label={t('llmContext.form')}>
          <label>
            {t('llmContext.description')}
            <textarea value={description} maxLength={4000} onChange={(e) => setDescription(e.target.value)} />
          </label>
          {targets.map((l) => (
            <label key={l.key}>
              {t('llmContext.styleFor', { name: l.name || l.key, code: l.key })}
              <textarea
                value={styles[l.key] ?? ''}
                maxLength={2000}
                placeholder={t('llmContext.stylePlaceholder')}
                onChange={(e) => setStyles((s) => ({ ...s, [l.key]: e.target.value }))}
              />
            </label>
          ))}
          <button type="submit">{t('llmContext.save')}</button>
        </form>
      )}
      <p role="status" className="status">
        {status}
      </p>
      {failure && (
        <p role="alert" className="error">
          {failure}
        </p>
      )}
    </section>
  );
}
