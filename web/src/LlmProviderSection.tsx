// The project's own language-model servers (docs/llm-translation.md): base
// URL, model, structured output, whether screenshots are sent as images,
// prices per million tokens and extra headers, each empty field taking the
// instance's setting. Header values are write-only (only their names come
// back), so leaving the headers field empty keeps them.
import { useTranslation } from 'react-i18next';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from './graphql';
import { messageOf } from './feedback';

type LlmProvider = 'LLM_OPENAI' | 'LLM_ANTHROPIC';

const SettingsQuery = graphql(`query LlmProviderSettings($projectToken: String!, $provider: LlmProvider!) {
  llmProviderSettings(projectToken: $projectToken, provider: $provider) { provider url model headerNames responseFormat priceInput priceOutput screenshots }
}`);
const SaveSettings =
  graphql(`mutation SaveLlmProviderSettings($projectToken: String!, $provider: LlmProvider!, $settings: LlmProviderSettingsInput!) {
  setLlmProviderSettings(projectToken: $projectToken, provider: $provider, settings: $settings) { provider url model headerNames responseFormat priceInput priceOutput screenshots }
}`);

const PROVIDERS: { id: LlmProvider; name: 'openai' | 'anthropic'; formats: string[]; urlHint: string }[] = [
  {
    id: 'LLM_OPENAI',
    name: 'openai',
    formats: ['json_schema', 'json_object', 'none'],
    urlHint: 'https://api.openai.com or http://ollama.internal:11434',
  },
  { id: 'LLM_ANTHROPIC', name: 'anthropic', formats: ['tool', 'none'], urlHint: 'https://api.anthropic.com' },
];

interface Draft {
  url: string;
  model: string;
  responseFormat: string;
  screenshots: '' | 'yes' | 'no';
  priceInput: string;
  priceOutput: string;
  headers: string;
  removeHeaders: boolean;
}

const EMPTY: Draft = {
  url: '',
  model: '',
  responseFormat: '',
  screenshots: '',
  priceInput: '',
  priceOutput: '',
  headers: '',
  removeHeaders: false,
};

/**
 * The field's JSON object as the API's list of headers; undefined when it is
 * not an object of texts. The service checks the names and values.
 */
function headerList(text: string): { name: string; value: string }[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const entries = Object.entries(parsed as Record<string, unknown>);
  if (entries.some(([, value]) => typeof value !== 'string')) return undefined;
  return entries.map(([name, value]) => ({ name, value: value as string }));
}

export function LlmProviderSection({ projectToken }: { projectToken: string }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="llm-servers-heading">
      <h2 id="llm-servers-heading">{t('llmServers.title')}</h2>
      <p className="hint">{t('llmServers.hint')}</p>
      {PROVIDERS.map((p) => (
        <ProviderForm key={p.id} projectToken={projectToken} provider={p} />
      ))}
    </section>
  );
}

function ProviderForm({ projectToken, provider }: { projectToken: string; provider: (typeof PROVIDERS)[number] }) {
  const { t } = useTranslation();
  const name = t(`llmServers.${provider.name}`);
  const [{ data, error }] = useQuery({ query: SettingsQuery, variables: { projectToken, provider: provider.id } });
  const [, save] = useMutation(SaveSettings);
  // Until the stored settings are shown the fields are read-only: showing them replaces the fields.
  const loading = !data;
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [headerNames, setHeaderNames] = useState<string[]>([]);
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState('');
  // What is in the form now, for a save's answer to tell whether the user typed while it was on its way.
  const current = useRef(draft);
  current.current = draft;
  const show = (s: NonNullable<typeof data>['llmProviderSettings']) => {
    setDraft({
      ...EMPTY,
      url: s.url ?? '',
      model: s.model ?? '',
      responseFormat: s.responseFormat ?? '',
      screenshots: s.screenshots === null ? '' : s.screenshots ? 'yes' : 'no',
      priceInput: s.priceInput === null ? '' : String(s.priceInput),
      priceOutput: s.priceOutput === null ? '' : String(s.priceOutput),
    });
    setHeaderNames(s.headerNames);
  };
  useEffect(() => {
    if (data) show(data.llmProviderSettings);
  }, [data]);
  const set = <K extends keyof Draft>(field: K, value: Draft[K]) => {
    setStatus('');
    setDraft((d) => ({ ...d, [field]: value }));
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const sent = draft;
    let headers: { name: string; value: string }[] | null | undefined;
    if (draft.removeHeaders) headers = null;
    else if (draft.headers.trim()) {
      headers = headerList(draft.headers);
      if (!headers) return setFailure(t('llmServers.badHeaders'));
    }
    const price = (text: string) => (text.trim() === '' ? null : Number(text));
    const result = await save({
      projectToken,
      provider: provider.id,
      settings: {
        url: draft.url.trim() || null,
        model: draft.model.trim() || null,
        responseFormat: draft.responseFormat || null,
        screenshots: draft.screenshots === '' ? null : draft.screenshots === 'yes',
        priceInput: price(draft.priceInput),
        priceOutput: price(draft.priceOutput),
        ...(headers !== undefined && { headers }),
      },
    });
    if (result.error) return setFailure(messageOf(result.error));
    if (!result.data) return;
    setFailure('');
    // The saved settings replace the form, unless it was edited meanwhile: then the edits stay, unsaved.
    if (current.current !== sent) return setHeaderNames(result.data.setLlmProviderSettings.headerNames);
    show(result.data.setLlmProviderSettings);
    setStatus(t('llmServers.saved', { name }));
  };
  const id = provider.id.toLowerCase();
  if (error) {
    return error.graphQLErrors[0]?.extensions?.code === 'FORBIDDEN' ? (
      <p>{t('llmServers.forbidden')}</p>
    ) : (
      <p role="alert" className="error">
        {messageOf(error)}
      </p>
    );
  }
  return (
    <form onSubmit={submit} aria-labelledby={`${id}-heading`} className="llm-provider">
      <h3 id={`${id}-heading`}>{name}</h3>
      <label>
        {t('llmServers.url')}
        <input
          type="url"
          value={draft.url}
          maxLength={2000}
          placeholder={provider.urlHint}
          disabled={loading}
          onChange={(e) => set('url', e.target.value)}
        />
      </label>
      <label>
        {t('llmServers.model')}
        <input
          value={draft.model}
          maxLength={200}
          placeholder={t('llmServers.modelPlaceholder')}
          disabled={loading}
          onChange={(e) => set('model', e.target.value)}
        />
      </label>
      <label>
        {t('llmServers.format')}
        <select value={draft.responseFormat} disabled={loading} onChange={(e) => set('responseFormat', e.target.value)}>
          <option value="">{t('llmServers.serviceSetting')}</option>
          {provider.formats.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('llmServers.screenshots')}
        <select
          value={draft.screenshots}
          disabled={loading}
          onChange={(e) => set('screenshots', e.target.value as Draft['screenshots'])}
        >
          <option value="">{t('llmServers.serviceSetting')}</option>
          <option value="yes">{t('llmServers.yes')}</option>
          <option value="no">{t('llmServers.no')}</option>
        </select>
      </label>
      <label>
        {t('llmServers.priceInput')}
        <input
          type="number"
          min={0}
          step="any"
          value={draft.priceInput}
          disabled={loading}
          onChange={(e) => set('priceInput', e.target.value)}
        />
      </label>
      <label>
        {t('llmServers.priceOutput')}
        <input
          type="number"
          min={0}
          step="any"
          value={draft.priceOutput}
          disabled={loading}
          onChange={(e) => set('priceOutput', e.target.value)}
        />
      </label>
      <label>
        {t('llmServers.headers')}
        <textarea
          value={draft.headers}
          maxLength={10000}
          rows={2}
          disabled={loading || draft.removeHeaders}
          placeholder={
            headerNames.length ? t('llmServers.headersSet', { names: headerNames.join(', ') }) : '{"api-key": "…"}'
          }
          onChange={(e) => set('headers', e.target.value)}
        />
      </label>
      {headerNames.length > 0 && (
        <label className="check">
          <input
            type="checkbox"
            checked={draft.removeHeaders}
            onChange={(e) => set('removeHeaders', e.target.checked)}
          />{' '}
          {t('llmServers.removeHeaders', { names: headerNames.join(', ') })}
        </label>
      )}
      <button type="submit" disabled={loading}>
        {t('llmServers.save', { name })}
      </button>
      <p role="status" className="status">
        {status}
      </p>
      {failure && (
        <p role="alert" className="error">
          {failure}
        </p>
      )}
    </form>
  );
}
