// Auto-translation settings per language: what a job uses when a request only
// names the language (the vendor's command-line client, `auto-translate`).
// A table of every language with the provider, source and codes a job would
// use now, where they come from (saved, the last job, the defaults) and why a
// language would be skipped; a form to save or reset one language's settings.
import { Trans, useTranslation } from 'react-i18next';
import { i18n } from './i18n';
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql, type ResultOf } from './graphql';
import { messageOf } from './feedback';

const SettingsQuery = graphql(`query AutoTranslationSettings($projectToken: String!) {
  autoTranslationSettings(projectToken: $projectToken) { languageKey origin translationProvider sourceProjectLanguage sourceLanguage targetLanguage providerFormality providerGlossaryId options isSource problem }
  project(projectToken: $projectToken) { myRole languages { key name } }
}`);
const SaveSettings =
  graphql(`mutation SaveAutoTranslationSettings($projectToken: String!, $languageKey: String!, $settings: AutoTranslationSettingsInput!) {
  setAutoTranslationSettings(projectToken: $projectToken, languageKey: $languageKey, settings: $settings) { languageKey origin }
}`);
const ResetSettings = graphql(`mutation ResetAutoTranslationSettings($projectToken: String!, $languageKey: String!) {
  resetAutoTranslationSettings(projectToken: $projectToken, languageKey: $languageKey) { languageKey origin }
}`);

type Settings = ResultOf<typeof SettingsQuery>['autoTranslationSettings'][number];
type Provider = 'MT_PROVIDER_A' | 'MT_PROVIDER_B' | 'PSEUDO' | 'LLM_OPENAI' | 'LLM_ANTHROPIC';
type SettingOption = 'USE_TRANSLATION_KEYS' | 'AUTO_PUBLISH';

const PROVIDERS: Provider[] = ['MT_PROVIDER_A', 'MT_PROVIDER_B', 'PSEUDO', 'LLM_OPENAI', 'LLM_ANTHROPIC'];
const providerName = (p: string | null) =>
  p
    ? (PROVIDERS as string[]).includes(p)
      ? i18n.t(`autoSettings.provider.${p as Provider}`)
      : p
    : i18n.t('autoSettings.none');
const ORIGINS = ['SAVED', 'LAST_JOB', 'DEFAULT'] as const;
const originName = (origin: string) =>
  (ORIGINS as readonly string[]).includes(origin)
    ? i18n.t(`autoSettings.origin.${origin as (typeof ORIGINS)[number]}`)
    : origin;
const OPTIONS: SettingOption[] = ['USE_TRANSLATION_KEYS', 'AUTO_PUBLISH'];

export function AutoTranslateSettings({ projectToken }: { projectToken: string }) {
  const { t } = useTranslation();
  const [{ data, error }, refetch] = useQuery({ query: SettingsQuery, variables: { projectToken } });
  const [editing, setEditing] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const refresh = () => refetch({ requestPolicy: 'network-only' });
  const languages = data?.project.languages ?? [];
  const nameOf = (key: string) => `${languages.find((l) => l.key === key)?.name || key} (${key})`;
  const canEdit = data?.project.myRole === 'OWNER' || data?.project.myRole === 'ADMIN';
  const current = data?.autoTranslationSettings.find((s) => s.languageKey === editing);
  return (
    <section aria-labelledby="language-settings-heading">
      <h2 id="language-settings-heading">{t('autoSettings.title')}</h2>
      <p className="hint">
        <Trans i18nKey="autoSettings.hint" components={{ code: <code /> }} />
      </p>
      {error && (
        <p role="alert" className="error">
          {messageOf(error)}
        </p>
      )}
      {data && (
        <table className="data-table">
          <caption className="visually-hidden">{t('autoSettings.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('autoSettings.language')}</th>
              <th scope="col">{t('autoSettings.providerColumn')}</th>
              <th scope="col">{t('autoSettings.from')}</th>
              <th scope="col">{t('autoSettings.codes')}</th>
              <th scope="col">{t('autoSettings.options')}</th>
              <th scope="col">{t('autoSettings.settings')}</th>
              <th scope="col">{t('autoSettings.status')}</th>
              {canEdit && (
                <th scope="col">
                  <span className="visually-hidden">{t('common.actions')}</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {data.autoTranslationSettings.map((s) => (
              <tr key={s.languageKey}>
                <th scope="row">{nameOf(s.languageKey)}</th>
                <td>{s.sourceProjectLanguage === s.languageKey ? '—' : providerName(s.translationProvider)}</td>
                <td>{s.sourceProjectLanguage === s.languageKey ? '—' : s.sourceProjectLanguage}</td>
                <td>
                  {s.sourceProjectLanguage === s.languageKey
                    ? '—'
                    : `${s.sourceLanguage ?? t('autoSettings.detected')} → ${s.targetLanguage ?? t('autoSettings.noneCode')}${s.providerFormality ? t('autoSettings.formality', { value: s.providerFormality }) : ''}${s.providerGlossaryId ? t('autoSettings.glossary', { value: s.providerGlossaryId }) : ''}`}
                </td>
                <td>{s.options.join(', ')}</td>
                <td>{originName(s.origin)}</td>
                <td>
                  {s.isSource ? (
                    t('autoSettings.sourceLanguage')
                  ) : s.problem ? (
                    <span className="error">{t('autoSettings.skipped', { problem: s.problem })}</span>
                  ) : (
                    t('autoSettings.ready')
                  )}
                </td>
                {canEdit && (
                  <td>
                    <button
                      type="button"
                      onClick={() => {
                        setEditing(s.languageKey);
                        setStatus('');
                      }}
                      aria-label={t('autoSettings.editLabel', { name: nameOf(s.languageKey) })}
                    >
                      {t('autoSettings.edit')}
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {canEdit && current && (
        <SettingsForm
          key={`${current.languageKey}:${current.origin}`}
          projectToken={projectToken}
          settings={current}
          languages={languages}
          title={nameOf(current.languageKey)}
          onDone={(message) => {
            setStatus(message);
            setEditing(null);
            refresh();
          }}
          onCancel={() => setEditing(null)}
        />
      )}
      <p role="status" className="status">
        {status}
      </p>
    </section>
  );
}

function SettingsForm({
  projectToken,
  settings,
  languages,
  title,
  onDone,
  onCancel,
}: {
  projectToken: string;
  settings: Settings;
  languages: { key: string; name: string }[];
  title: string;
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const self = settings.sourceProjectLanguage === settings.languageKey;
  const [provider, setProvider] = useState<string>(
    settings.origin === 'DEFAULT' ? '' : (settings.translationProvider ?? ''),
  );
  const [source, setSource] = useState(self ? '' : settings.sourceProjectLanguage);
  const [sourceCode, setSourceCode] = useState(settings.sourceLanguage ?? '');
  const [targetCode, setTargetCode] = useState(settings.targetLanguage ?? '');
  const [formality, setFormality] = useState(settings.providerFormality ?? '');
  const [glossary, setGlossary] = useState(settings.providerGlossaryId ?? '');
  const [options, setOptions] = useState<SettingOption[]>(settings.options as SettingOption[]);
  const [error, setError] = useState('');
  const [, save] = useMutation(SaveSettings);
  const [, reset] = useMutation(ResetSettings);
  const changeProvider = (value: string) => {
    // Codes are in each provider's notation: a new provider starts again from the language keys.
    setProvider(value);
    setSourceCode('');
    setTargetCode('');
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await save({
      projectToken,
      languageKey: settings.languageKey,
      settings: {
        translationProvider: (provider || null) as Provider | null,
        sourceProjectLanguage: source || null,
        sourceLanguage: sourceCode.trim() || null,
        targetLanguage: targetCode.trim() || null,
        providerFormality: formality || null,
        providerGlossaryId: glossary.trim() || null,
        options,
      },
    });
    if (result.error) return setError(messageOf(result.error));
    onDone(t('autoSettings.saved', { name: title }));
  };
  const doReset = async () => {
    const result = await reset({ projectToken, languageKey: settings.languageKey });
    if (result.error) return setError(messageOf(result.error));
    onDone(t('autoSettings.reset', { name: title }));
  };

  return (
    <form className="ops-form" onSubmit={submit} aria-labelledby="language-settings-form-heading">
      <h3 id="language-settings-form-heading">{t('autoSettings.formTitle', { name: title })}</h3>
      <div className="ops-row">
        <label>
          {t('autoSettings.providerLabel')}
          <select value={provider} onChange={(e) => changeProvider(e.target.value)}>
            <option value="">{t('autoSettings.serviceDefault')}</option>
            {PROVIDERS.map((id) => (
              <option key={id} value={id}>
                {providerName(id)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('autoSettings.translateFrom')}
          <select value={source} onChange={(e) => setSource(e.target.value)}>
            <option value="">{t('autoSettings.projectDefault')}</option>
            {languages
              .filter((l) => l.key !== settings.languageKey)
              .map((l) => (
                <option key={l.key} value={l.key}>
                  {l.name || l.key} ({l.key})
                </option>
              ))}
          </select>
        </label>
      </div>
      <div className="ops-row">
        <label>
          {t('autoSettings.sourceCode')}
          <input
            value={sourceCode}
            onChange={(e) => setSourceCode(e.target.value)}
            maxLength={100}
            placeholder={t('autoSettings.sourceCodePlaceholder')}
          />
        </label>
        <label>
          {t('autoSettings.targetCode')}
          <input
            value={targetCode}
            onChange={(e) => setTargetCode(e.target.value)}
            maxLength={100}
            placeholder={t('autoSettings.targetCodePlaceholder')}
          />
        </label>
        <label>
          {t('autoSettings.formalityLabel')}
          <select value={formality} onChange={(e) => setFormality(e.target.value)}>
            <option value="">{t('autoSettings.providerDefault')}</option>
            {['default', 'more', 'less', 'prefer_more', 'prefer_less'].map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('autoSettings.glossaryId')}
          <input value={glossary} onChange={(e) => setGlossary(e.target.value)} maxLength={200} />
        </label>
      </div>
      <fieldset>
        <legend>{t('autoSettings.options')}</legend>
        {OPTIONS.map((id) => (
          <label key={id} className="check">
            <input
              type="checkbox"
              checked={options.includes(id)}
              onChange={(e) => setOptions((o) => (e.target.checked ? [...o, id] : o.filter((x) => x !== id)))}
            />
            {t(`autoSettings.option.${id}`)}
          </label>
        ))}
      </fieldset>
      <p className="hint">{t('autoSettings.providerHint')}</p>
      <div className="ops-row">
        <button type="submit">{t('autoSettings.save')}</button>
        {settings.origin === 'SAVED' && (
          <button type="button" onClick={doReset}>
            {t('autoSettings.resetButton')}
          </button>
        )}
        <button type="button" onClick={onCancel}>
          {t('common.cancel')}
        </button>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
      </div>
    </form>
  );
}
