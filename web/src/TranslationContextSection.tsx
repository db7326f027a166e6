// What language models are told about the project (docs/llm-translation.md):
// its description and each language's style instructions (formality, tone,
// terms to keep). Owners and administrators edit them; others read them.
import { useEffect, useState, type FormEvent } from 'react';
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
  const [{ data, error }, refetch] = useQuery({ query: ContextQuery, variables: { projectToken } });
  const [, save] = useMutation(SaveContext);
  const [description, setDescription] = useState('');
  const [styles, setStyles] = useState<Record<string, string>>({});
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState('');
  useEffect(() => {
    if (!data) return;
    setDescription(data.translationContext.description);
    setStyles(Object.fromEntries(data.translationContext.styles.map((s) => [s.languageKey, s.instructions])));
  }, [data]);
  const targets = (data?.project.languages ?? []).filter((l) => !l.isDefault);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await save({
      projectToken,
      description,
      styles: targets.map((l) => ({ languageKey: l.key, instructions: styles[l.key] ?? '' })),
    });
    if (result.error) return setFailure(messageOf(result.error));
    setFailure('');
    setStatus('Saved what language models are told');
    refetch({ requestPolicy: 'network-only' });
  };
  return (
    <section aria-labelledby="context-heading">
      <h2 id="context-heading">What language models are told</h2>
      <p className="hint">
        Sent with every text translated by a language model (LLM_OPENAI, LLM_ANTHROPIC), with the key's description,
        limit and neighbours.
      </p>
      {error && (
        <p role="alert" className="error">
          {messageOf(error)}
        </p>
      )}
      {data && (
        <form onSubmit={submit} aria-label="Language model context">
          <label>
            Project description
            <textarea value={description} maxLength={4000} onChange={(e) => setDescription(e.target.value)} />
          </label>
          {targets.map((l) => (
            <label key={l.key}>
              Style for {l.name || l.key} ({l.key})
              <textarea
                value={styles[l.key] ?? ''}
                maxLength={2000}
                placeholder="Formality, tone, terms to keep"
                onChange={(e) => setStyles((s) => ({ ...s, [l.key]: e.target.value }))}
              />
            </label>
          ))}
          <button type="submit">Save context</button>
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
