// Auto-translation: start jobs (provider, source, targets in the provider's
// notation, options), follow each with a live progress bar (jobProgress),
// cancel, read the summary; the recent jobs; the settings per language
// (AutoTranslateSettings.tsx); the project's own provider keys, which are
// write-only (the service only says whether one is set).
import { useTranslation } from 'react-i18next';
import { formatDateTime, i18n } from './i18n';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useClient, useMutation, useQuery } from 'urql';
import { graphql, type ResultOf } from './graphql';
import { messageOf } from './feedback';
import { wordJobMessage } from './server-text';
import { AutoTranslateSettings } from './AutoTranslateSettings';
import { TranslationContextSection } from './TranslationContextSection';
import { LlmProviderSection } from './LlmProviderSection';
import { count } from './wording';
import { FailedTextList, JobModelLog } from './JobModelLog';

const LanguagesQuery = graphql(
  `query AutoTranslateLanguages($projectToken: String!) { project(projectToken: $projectToken) { languages { key name isDefault } } }`,
);
const JobsQuery = graphql(
  `query RecentJobs($projectToken: String!) { jobs(projectToken: $projectToken) { jobId state progress started finishedAt message messageText { id params } translationProvider sourceProjectLanguage targetProjectLanguage usage { model inputTokens outputTokens estimatedCost } } }`,
);
const JobQuery = graphql(
  `query OneJob($projectToken: String!, $jobId: String!) { job(projectToken: $projectToken, jobId: $jobId) { jobId state progress started finishedAt message messageText { id params } translationProvider sourceProjectLanguage targetProjectLanguage usage { model inputTokens outputTokens estimatedCost } failedTexts { key message } } }`,
);
const AutoTranslate = graphql(
  `mutation StartAutoTranslate($projectToken: String!, $input: AutoTranslateInput!) { autoTranslate(projectToken: $projectToken, input: $input) { jobId state progress started finishedAt message messageText { id params } translationProvider sourceProjectLanguage targetProjectLanguage usage { model inputTokens outputTokens estimatedCost } } }`,
);
const CancelJob = graphql(
  `mutation CancelJob($projectToken: String!, $jobId: String!) { cancelJob(projectToken: $projectToken, jobId: $jobId) { jobId state } }`,
);
const JobProgress = graphql(
  `subscription JobProgress($projectToken: String!, $jobId: String!) { jobProgress(projectToken: $projectToken, jobId: $jobId) { jobId state progress message sequence } }`,
);
const ProjectJobEvents = graphql(
  `subscription ProjectJobEvents($projectToken: String!) { projectJobEvents(projectToken: $projectToken) { jobId state } }`,
);
const ProviderKeys = graphql(
  `query ProviderKeys($projectToken: String!) { providerApiKeys(projectToken: $projectToken) { provider set } }`,
);
const SetProviderKey = graphql(
  `mutation SetProviderKey($projectToken: String!, $provider: TranslationProvider!, $apiKey: String) { setProviderApiKey(projectToken: $projectToken, provider: $provider, apiKey: $apiKey) }`,
);

type Job = ResultOf<typeof JobsQuery>['jobs'][number];
type Provider = 'MT_PROVIDER_A' | 'MT_PROVIDER_B' | 'PSEUDO' | 'LLM_OPENAI' | 'LLM_ANTHROPIC' | 'MEMORY';
type JobOption = 'USE_TRANSLATION_KEYS' | 'FORCE_REPLACE' | 'AUTO_PUBLISH';

const PROVIDERS: Provider[] = ['MT_PROVIDER_A', 'MT_PROVIDER_B', 'PSEUDO', 'LLM_OPENAI', 'LLM_ANTHROPIC', 'MEMORY'];
const providerName = (p: string | null) =>
  p
    ? (PROVIDERS as string[]).includes(p)
      ? i18n.t(`autoTranslate.provider.${p as Provider}`)
      : p
    : i18n.t('autoTranslate.noProvider');
const OPTIONS: JobOption[] = ['USE_TRANSLATION_KEYS', 'FORCE_REPLACE', 'AUTO_PUBLISH'];
const JOB_STATES = ['STARTED', 'SUCCESS', 'FAILED', 'CANCELLED'] as const;
const stateName = (state: string) =>
  (JOB_STATES as readonly string[]).includes(state)
    ? i18n.t(`autoTranslate.jobState.${state as (typeof JOB_STATES)[number]}`)
    : state;
const FINAL = new Set(['SUCCESS', 'FAILED', 'CANCELLED']);

/** A first guess of a project language's code in the provider's notation (the service names the closest code when it is wrong). */
function providerCode(provider: Provider, key: string): string {
  const [language = key, region] = key.split(/[-_]/);
  // Language models take the BCP 47 tag as it is.
  if (provider === 'LLM_OPENAI' || provider === 'LLM_ANTHROPIC' || provider === 'MEMORY') return key;
  if (provider === 'MT_PROVIDER_B') return (region ? `${language}-${region}` : language).toUpperCase();
  return region ? `${language.toLowerCase()}-${region.toUpperCase()}` : language.toLowerCase();
}

/** A language model's tokens (and estimated cost) for the job's summary; empty for other providers. */
const usageText = (
  usage:
    readonly { model: string; inputTokens: number; outputTokens: number; estimatedCost: number | null }[] | undefined,
) =>
  (usage ?? [])
    .map((u) =>
      u.estimatedCost !== null
        ? i18n.t('autoTranslate.usageCost', {
            model: u.model,
            input: u.inputTokens,
            output: u.outputTokens,
            cost: u.estimatedCost,
          })
        : i18n.t('autoTranslate.usage', { model: u.model, input: u.inputTokens, output: u.outputTokens }),
    )
    .join('; ');

const percent = (progress: number) => Math.round(progress * 100);
const time = (iso: string | null | undefined) => (iso ? formatDateTime(iso) : '—');

export function AutoTranslateScreen({ projectToken }: { projectToken: string }) {
  const { t } = useTranslation();
  const client = useClient();
  const [{ data: meta }] = useQuery({ query: LanguagesQuery, variables: { projectToken } });
  const [{ data: jobsData, error: jobsError }, refetchJobs] = useQuery({
    query: JobsQuery,
    variables: { projectToken },
  });
  // Jobs started here, followed live until they end and kept with their summary (newest first).
  const [watched, setWatched] = useState<string[]>([]);
  const refreshJobs = () => refetchJobs({ requestPolicy: 'network-only' });

  // The recent list follows every job of the project (also those started elsewhere): read again when one starts or ends.
  const listed = useRef(new Set<string>());
  listed.current = new Set(jobsData?.jobs.map((j) => j.jobId));
  useEffect(() => {
    const subscription = client.subscription(ProjectJobEvents, { projectToken }).subscribe((result) => {
      const event = result.data?.projectJobEvents;
      if (event && (FINAL.has(event.state) || !listed.current.has(event.jobId))) refreshJobs();
    });
    return () => subscription.unsubscribe();
  }, [client, projectToken]);

  const languages = meta?.project.languages ?? [];
  // A card per job started here and per job seen running, wherever it was started; it stays with its summary.
  useEffect(() => {
    const running = jobsData?.jobs.filter((j) => j.state === 'STARTED').map((j) => j.jobId) ?? [];
    setWatched((w) => {
      const added = running.filter((id) => !w.includes(id));
      return added.length ? [...added, ...w] : w;
    });
  }, [jobsData]);
  const cards = watched.slice(0, 20);
  return (
    <main className="ops auto-translate">
      <h1>{t('autoTranslate.title')}</h1>
      {languages.length > 0 && (
        <StartForm
          projectToken={projectToken}
          languages={languages}
          onStarted={(jobs) => {
            setWatched((w) => [...jobs.map((j) => j.jobId).filter((id) => !w.includes(id)), ...w]);
            refreshJobs();
          }}
        />
      )}
      {cards.length > 0 && (
        <section aria-labelledby="running-heading">
          <h2 id="running-heading">{t('autoTranslate.running')}</h2>
          <ul className="job-cards">
            {cards.map((jobId) => (
              <JobCard key={jobId} projectToken={projectToken} jobId={jobId} onFinished={refreshJobs} />
            ))}
          </ul>
        </section>
      )}
      <AutoTranslateSettings projectToken={projectToken} />
      <TranslationContextSection projectToken={projectToken} />
      <LlmProviderSection projectToken={projectToken} />
      <ProviderKeysSection projectToken={projectToken} />
      <section aria-labelledby="recent-heading">
        <h2 id="recent-heading">{t('autoTranslate.recent')}</h2>
        {jobsError && (
          <p role="alert" className="error">
            {messageOf(jobsError)}
          </p>
        )}
        {jobsData && jobsData.jobs.length === 0 && <p>{t('autoTranslate.noJob')}</p>}
        {jobsData && jobsData.jobs.length > 0 && (
          <table className="data-table">
            <caption className="visually-hidden">{t('autoTranslate.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('autoTranslate.started')}</th>
                <th scope="col">{t('autoTranslate.languages')}</th>
                <th scope="col">{t('autoTranslate.providerColumn')}</th>
                <th scope="col">{t('autoTranslate.state')}</th>
                <th scope="col">{t('autoTranslate.progress')}</th>
                <th scope="col">{t('autoTranslate.summary')}</th>
              </tr>
            </thead>
            <tbody>
              {jobsData.jobs.slice(0, 50).map((job) => (
                <tr key={job.jobId}>
                  <td>{time(job.started)}</td>
                  <td>
                    {job.sourceProjectLanguage} → {job.targetProjectLanguage}
                  </td>
                  <td>{providerName(job.translationProvider)}</td>
                  <td>
                    <span className={`state state-${job.state.toLowerCase()}`}>{stateName(job.state)}</span>
                  </td>
                  <td>{t('dashboard.percent', { value: percent(job.progress) })}</td>
                  <td>
                    {wordJobMessage(job.messageText, job.message)}
                    {usageText(job.usage) && (
                      <>
                        <br />
                        <span className="job-usage">{usageText(job.usage)}</span>
                        <JobModelLog
                          projectToken={projectToken}
                          jobId={job.jobId}
                          name={`${job.sourceProjectLanguage} → ${job.targetProjectLanguage}, ${time(job.started)}`}
                        />
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </main>
  );
}

function StartForm({
  projectToken,
  languages,
  onStarted,
}: {
  projectToken: string;
  languages: { key: string; name: string; isDefault: boolean }[];
  onStarted: (jobs: Job[]) => void;
}) {
  const { t } = useTranslation();
  const [provider, setProvider] = useState<Provider>('MT_PROVIDER_A');
  const [source, setSource] = useState(() => languages.find((l) => l.isDefault)?.key ?? languages[0]!.key);
  const [sourceCode, setSourceCode] = useState('');
  const [targets, setTargets] = useState<Record<string, boolean>>({});
  const [codes, setCodes] = useState<Record<string, string>>({});
  const [options, setOptions] = useState<JobOption[]>([]);
  const [formality, setFormality] = useState('');
  const [glossary, setGlossary] = useState('');
  // Empty: the memory is not used (MEMORY: 100).
  const [memoryScore, setMemoryScore] = useState('');
  const [error, setError] = useState('');
  const [starting, setStarting] = useState(false);
  const [, start] = useMutation(AutoTranslate);
  const candidates = languages.filter((l) => l.key !== source);
  const codeOf = (key: string) => codes[key] ?? providerCode(provider, key);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const chosen = candidates.filter((l) => targets[l.key]);
    if (chosen.length === 0) return setError(t('autoTranslate.chooseTarget'));
    setStarting(true);
    const result = await start({
      projectToken,
      input: {
        translationProvider: provider,
        sourceProjectLanguage: source,
        sourceLanguage: sourceCode.trim() || null,
        targets: chosen.map((l) => ({ targetProjectLanguage: l.key, targetLanguage: codeOf(l.key) })),
        options,
        ...(provider === 'MT_PROVIDER_B'
          ? { providerFormality: formality || null, providerGlossaryId: glossary.trim() || null }
          : {}),
        memoryMinScore: memoryScore === '' ? null : Number(memoryScore),
      },
    });
    setStarting(false);
    if (result.error) return setError(messageOf(result.error));
    setError('');
    onStarted(result.data!.autoTranslate);
  };

  return (
    <form className="ops-form" onSubmit={submit} aria-labelledby="start-heading">
      <h2 id="start-heading">{t('autoTranslate.newJob')}</h2>
      <div className="ops-row">
        <label>
          {t('autoTranslate.providerLabel')}
          <select
            value={provider}
            onChange={(e) => {
              setProvider(e.target.value as Provider);
              setCodes({});
              setMemoryScore('');
            }}
          >
            {PROVIDERS.map((id) => (
              <option key={id} value={id}>
                {providerName(id)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('autoTranslate.sourceLanguage')}
          <select value={source} onChange={(e) => setSource(e.target.value)}>
            {languages.map((l) => (
              <option key={l.key} value={l.key}>
                {l.name || l.key} ({l.key})
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('autoTranslate.sourceCode')}
          <input
            value={sourceCode}
            onChange={(e) => setSourceCode(e.target.value)}
            maxLength={100}
            placeholder={provider === 'PSEUDO' ? '' : providerCode(provider, source)}
          />
        </label>
      </div>
      <fieldset>
        <legend>{t('autoTranslate.targets')}</legend>
        {candidates.length === 0 && <p>{t('autoTranslate.addSecond')}</p>}
        {candidates.map((l) => (
          <div key={l.key} className="target">
            <label className="check">
              <input
                type="checkbox"
                checked={!!targets[l.key]}
                onChange={(e) => setTargets((all) => ({ ...all, [l.key]: e.target.checked }))}
              />
              {l.name || l.key} ({l.key})
            </label>
            <input
              aria-label={t('autoTranslate.codeFor', { name: l.name || l.key, code: l.key })}
              value={codeOf(l.key)}
              onChange={(e) => setCodes((c) => ({ ...c, [l.key]: e.target.value }))}
              maxLength={100}
            />
          </div>
        ))}
      </fieldset>
      <fieldset>
        <legend>{t('autoTranslate.options')}</legend>
        {OPTIONS.map((id) => (
          <label key={id} className="check">
            <input
              type="checkbox"
              checked={options.includes(id)}
              onChange={(e) => setOptions((o) => (e.target.checked ? [...o, id] : o.filter((x) => x !== id)))}
            />
            {t(`autoTranslate.option.${id}`)}
          </label>
        ))}
      </fieldset>
      <div className="ops-row">
        <label>
          {provider === 'MEMORY' ? t('autoTranslate.fromMemory') : t('autoTranslate.memoryFirst')}
          <select value={memoryScore} onChange={(e) => setMemoryScore(e.target.value)}>
            <option value="">{provider === 'MEMORY' ? t('autoTranslate.exact') : t('autoTranslate.noMemory')}</option>
            {(provider === 'MEMORY' ? ['95', '90', '85', '80', '75'] : ['100', '95', '90', '85', '80', '75']).map(
              (score) => (
                <option key={score} value={score}>
                  {provider === 'MEMORY'
                    ? t('autoTranslate.score', { score: Number(score) })
                    : t('autoTranslate.matchesOf', { score: Number(score) })}
                </option>
              ),
            )}
          </select>
        </label>
      </div>
      {provider === 'MT_PROVIDER_B' && (
        <div className="ops-row">
          <label>
            {t('autoTranslate.formality')}
            <select value={formality} onChange={(e) => setFormality(e.target.value)}>
              <option value="">{t('autoTranslate.providerDefault')}</option>
              {['default', 'more', 'less', 'prefer_more', 'prefer_less'].map((f) => (
                <option key={f} value={f}>
                  {f}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('autoTranslate.glossary')}
            <input value={glossary} onChange={(e) => setGlossary(e.target.value)} maxLength={100} />
          </label>
        </div>
      )}
      <div className="ops-row">
        <button type="submit" disabled={starting}>
          {t('autoTranslate.start')}
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

/** One job followed live: the current state first, then every change, until the final state. */
function JobCard({ projectToken, jobId, onFinished }: { projectToken: string; jobId: string; onFinished: () => void }) {
  const { t } = useTranslation();
  const client = useClient();
  const [live, setLive] = useState<{ state: string; progress: number; message: string } | undefined>();
  const [job, setJob] = useState<ResultOf<typeof JobQuery>['job'] | undefined>();
  const [error, setError] = useState('');
  const [, cancel] = useMutation(CancelJob);

  useEffect(() => {
    void client
      .query(JobQuery, { projectToken, jobId })
      .toPromise()
      .then((r) => r.data && setJob(r.data.job));
    const subscription = client.subscription(JobProgress, { projectToken, jobId }).subscribe((result) => {
      const event = result.data?.jobProgress;
      if (!event) return;
      setLive(event);
      if (FINAL.has(event.state)) {
        // The final job row carries the summary the event's message has, and the finish time.
        void client
          .query(JobQuery, { projectToken, jobId })
          .toPromise()
          .then((r) => r.data && setJob(r.data.job));
        onFinished();
      }
    });
    return () => subscription.unsubscribe();
  }, [client, projectToken, jobId]);

  const state = live?.state ?? job?.state ?? 'STARTED';
  const progress = live?.progress ?? job?.progress ?? 0;
  const finished = FINAL.has(state);
  // The job row has the final message as data too (the live event only its English sentence).
  const message = finished && job ? wordJobMessage(job.messageText, job.message) : (live?.message ?? '');
  const name = job ? `${job.sourceProjectLanguage} → ${job.targetProjectLanguage}` : jobId;
  const doCancel = async () => {
    const result = await cancel({ projectToken, jobId });
    setError(result.error ? messageOf(result.error) : '');
  };
  return (
    <li className="job-card" aria-label={t('autoTranslate.job', { name })}>
      <div className="job-head">
        <strong>{name}</strong>
        {job && <span>{providerName(job.translationProvider)}</span>}
        <span className={`state state-${state.toLowerCase()}`}>{stateName(state)}</span>
        {!finished && (
          <button type="button" className="danger" onClick={doCancel}>
            {t('autoTranslate.cancel')}
          </button>
        )}
      </div>
      <progress max={100} value={percent(progress)} aria-label={t('autoTranslate.progressOf', { name })}>
        {t('dashboard.percent', { value: percent(progress) })}
      </progress>
      <p className="job-summary" role={finished ? 'status' : undefined}>
        {finished
          ? t(
              state === 'SUCCESS'
                ? 'autoTranslate.done'
                : state === 'FAILED'
                  ? 'autoTranslate.failed'
                  : 'autoTranslate.cancelled',
              { message },
            )
          : t('dashboard.percent', { value: percent(progress) })}
      </p>
      {finished && usageText(job?.usage) && <p className="job-usage">{usageText(job?.usage)}</p>}
      {finished && !!job?.failedTexts.length && (
        <details className="job-failures">
          <summary>{t('autoTranslate.untranslated', { texts: count(job.failedTexts.length, 'text') })}</summary>
          <FailedTextList failures={job.failedTexts} />
        </details>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </li>
  );
}

function ProviderKeysSection({ projectToken }: { projectToken: string }) {
  const { t } = useTranslation();
  const [{ data, error }, refetch] = useQuery({ query: ProviderKeys, variables: { projectToken } });
  const [, save] = useMutation(SetProviderKey);
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [message, setMessage] = useState('');
  const [failure, setFailure] = useState('');
  const write = async (provider: Provider, apiKey: string | null) => {
    const result = await save({ projectToken, provider, apiKey });
    if (result.error) return setFailure(messageOf(result.error));
    setFailure('');
    setDrafts((d) => ({ ...d, [provider]: '' }));
    setMessage(
      t(apiKey === null ? 'autoTranslate.keyRemoved' : 'autoTranslate.keySaved', { provider: providerName(provider) }),
    );
    refetch({ requestPolicy: 'network-only' });
  };
  return (
    <section aria-labelledby="keys-heading" className="provider-keys">
      <h2 id="keys-heading">{t('autoTranslate.keys')}</h2>
      <p className="hint">{t('autoTranslate.keysHint')}</p>
      {error &&
        (error.graphQLErrors[0]?.extensions?.code === 'FORBIDDEN' ? (
          <p>{t('autoTranslate.keysForbidden')}</p>
        ) : (
          <p role="alert" className="error">
            {messageOf(error)}
          </p>
        ))}
      <ul>
        {data?.providerApiKeys.map(({ provider, set }) => (
          <li key={provider}>
            <form
              onSubmit={(e) => {
                e.preventDefault();
                if (drafts[provider]?.trim()) void write(provider, drafts[provider]!);
              }}
            >
              <span className="provider-name">{providerName(provider)}</span>
              <span className={`key-state ${set ? 'set' : 'unset'}`}>
                {set ? t('autoTranslate.keySet') : t('autoTranslate.keyNotSet')}
              </span>
              <input
                type="password"
                autoComplete="off"
                maxLength={500}
                placeholder={set ? t('autoTranslate.newKey') : t('autoTranslate.key')}
                value={drafts[provider] ?? ''}
                onChange={(e) => setDrafts((d) => ({ ...d, [provider]: e.target.value }))}
                aria-label={t('autoTranslate.apiKeyOf', { provider: providerName(provider) })}
              />
              <button type="submit">{t('autoTranslate.saveKey')}</button>
              {set && (
                <button type="button" className="danger" onClick={() => void write(provider, null)}>
                  {t('autoTranslate.removeKey')}
                </button>
              )}
            </form>
          </li>
        ))}
      </ul>
      <p role="status" className="status">
        {message}
      </p>
      {failure && (
        <p role="alert" className="error">
          {failure}
        </p>
      )}
    </section>
  );
}
