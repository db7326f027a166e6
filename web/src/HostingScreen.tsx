// Hosting: the environments in publication order (custom ones reordered by
// drag and drop or the move buttons, through setEnvironmentOrder), each with
// its served status and CDN files and a Publish button with live progress
// (publicationProgress) and its quality-check gate (PublicationGate.tsx);
// creating and editing custom environments; the publication history.
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatNumber, i18n } from './i18n';
import { useEffect, useState, type DragEvent, type FormEvent } from 'react';
import { useClient, useMutation, useQuery } from 'urql';
import { graphql, type ResultOf } from './graphql';
import { count } from './wording';
import { ConnectApp } from './ConnectApp';
import { GateRefusalPanel, QualityGateToggle, gateRefusalOf, type GateRefusal } from './PublicationGate';
import { checkTitle, wordError, wordFailure } from './server-text';

const EnvironmentsQuery = graphql(`
  query HostingEnvironments($projectToken: String!) {
    environments(projectToken: $projectToken) {
      key name color builtIn position source publishing url requireNoErrors
      lastPublication { version label completedAt }
    }
  }
`);
const StatusQuery = graphql(`
  query HostingStatus($projectToken: String!, $key: String!) {
    environmentStatus(projectToken: $projectToken, key: $key) {
      numberOfKeys numberOfLanguages numberOfNonEmptyTranslations createdAt version
      resources { link size language namespace customer url }
    }
  }
`);
/** The checks' titles (for the gate's refusal) and whether the viewer is the owner (who may publish over it). */
const GateContextQuery = graphql(`
  query HostingGateContext($projectToken: String!) {
    qualityChecks(projectToken: $projectToken) { checks { id title } }
    project(projectToken: $projectToken) { myRole }
  }
`);
const PublicationsQuery = graphql(`
  query HostingPublications($projectToken: String!) {
    publications(projectToken: $projectToken, limit: 50) {
      id environmentKey source state message label createdAt completedAt changeSource
      publishedBy { kind name }
    }
  }
`);
const Publish = graphql(
  `mutation HostingPublish($projectToken: String!, $key: String!, $label: String, $override: Boolean) { publishEnvironment(projectToken: $projectToken, key: $key, label: $label, overrideQualityGate: $override) { version } }`,
);
const CreateEnvironment = graphql(
  `mutation HostingCreate($projectToken: String!, $key: String!, $name: String!, $color: String) { createEnvironment(projectToken: $projectToken, key: $key, name: $name, color: $color) { key } }`,
);
const UpdateEnvironment = graphql(
  `mutation HostingUpdate($projectToken: String!, $key: String!, $name: String, $color: String) { updateEnvironment(projectToken: $projectToken, key: $key, name: $name, color: $color) { key } }`,
);
const SetOrder = graphql(
  `mutation HostingOrder($projectToken: String!, $keys: [String!]!) { setEnvironmentOrder(projectToken: $projectToken, keys: $keys) { key } }`,
);
const Progress = graphql(`
  subscription HostingProgress($projectToken: String!) {
    publicationProgress(projectToken: $projectToken) { publicationId environmentKey stage filesDone filesTotal state message }
  }
`);

type Environment = ResultOf<typeof EnvironmentsQuery>['environments'][number];
type ProgressEvent = ResultOf<typeof Progress>['publicationProgress'];
interface GqlError {
  graphQLErrors: { message: string; extensions?: Record<string, unknown> }[];
  message: string;
}

const time = (iso: string | null | undefined) => (iso ? formatDateTime(iso) : '—');
const STAGES = ['STARTED', 'READING', 'WRITING', 'SWITCHING', 'COMPLETE', 'FAILED'] as const;
const STATES = ['RUNNING', 'COMPLETE', 'FAILED'] as const;
/** A word of the service's (a stage, a state) in the console's language, when the console has it. */
const wordOf = <W extends string>(words: readonly W[], word: string, say: (w: W) => string) =>
  (words as readonly string[]).includes(word) ? say(word as W) : word.toLowerCase();
const stageWords = (stage: string) => wordOf(STAGES, stage, (s) => i18n.t(`hosting.stage.${s}`));
const stateWords = (state: string) => wordOf(STATES, state, (s) => i18n.t(`hosting.state.${s}`));

/** A refusal in words: a publish while another runs (409) says so plainly. */
function errorText(error: GqlError): string {
  const first = error.graphQLErrors[0];
  if (first?.extensions?.code === 'CONFLICT' && /publication/.test(first.message))
    return i18n.t('hosting.anotherRunning', { message: wordError(first) });
  return wordFailure(error);
}

export function HostingScreen({ projectToken }: { projectToken: string }) {
  const { t } = useTranslation();
  const client = useClient();
  const [{ data, error }, refetch] = useQuery({ query: EnvironmentsQuery, variables: { projectToken } });
  const [{ data: history }, refetchHistory] = useQuery({ query: PublicationsQuery, variables: { projectToken } });
  const [{ data: gateContext }] = useQuery({ query: GateContextQuery, variables: { projectToken } });
  const gate = {
    checkTitle: (id: string) => checkTitle(id, gateContext?.qualityChecks.checks.find((c) => c.id === id)?.title),
    isOwner: gateContext?.project?.myRole === 'OWNER',
  };
  const [progress, setProgress] = useState<Record<string, ProgressEvent>>({});
  // Bumped after each publication so every environment's status is read again.
  const [generation, setGeneration] = useState(0);
  const [orderError, setOrderError] = useState('');
  const [announcement, setAnnouncement] = useState('');
  const [, setOrder] = useMutation(SetOrder);
  const [dragged, setDragged] = useState<string | undefined>();

  const refresh = () => {
    refetch({ requestPolicy: 'network-only' });
    refetchHistory({ requestPolicy: 'network-only' });
    setGeneration((g) => g + 1);
  };

  useEffect(() => {
    const subscription = client.subscription(Progress, { projectToken }).subscribe((result) => {
      const event = result.data?.publicationProgress;
      if (!event) return;
      setProgress((p) => ({ ...p, [event.environmentKey]: event }));
      if (event.state !== 'RUNNING' || event.stage === 'STARTED') refresh();
    });
    return () => subscription.unsubscribe();
  }, [client, projectToken]);

  const environments = data?.environments ?? [];
  const reorder = async (keys: string[], moved: string) => {
    const result = await setOrder({ projectToken, keys });
    if (result.error) return setOrderError(errorText(result.error));
    setOrderError('');
    const position = keys.indexOf(moved) + 1;
    setAnnouncement(t('hosting.moved', { key: moved, position, source: keys[position - 2] }));
    refresh();
  };
  /** Moves `key` to `index` of the order (never above _latest, which stays first). */
  const moveTo = (key: string, index: number) => {
    const keys = environments.map((e) => e.key).filter((k) => k !== key);
    keys.splice(Math.max(1, Math.min(index, keys.length)), 0, key);
    if (keys.join() !== environments.map((e) => e.key).join()) void reorder(keys, key);
  };
  const onDrop = (event: DragEvent, target: Environment) => {
    event.preventDefault();
    if (dragged && dragged !== target.key)
      moveTo(
        dragged,
        environments.findIndex((e) => e.key === target.key),
      );
    setDragged(undefined);
  };

  return (
    <main className="ops hosting">
      <h1>{t('hosting.title')}</h1>
      {error && (
        <p role="alert" className="error">
          {errorText(error)}
        </p>
      )}
      <section aria-labelledby="environments-heading">
        <h2 id="environments-heading">{t('hosting.environments')}</h2>
        <p className="hint">{t('hosting.environmentsHint')}</p>
        <ol className="environments">
          {environments.map((environment, index) => (
            <li
              key={environment.key}
              className={`environment${dragged === environment.key ? ' dragging' : ''}`}
              aria-label={`${environment.name} (${environment.key})`}
              draggable={!environment.builtIn}
              onDragStart={(e) => {
                e.dataTransfer.setData('text/plain', environment.key);
                e.dataTransfer.effectAllowed = 'move';
                setDragged(environment.key);
              }}
              onDragEnd={() => setDragged(undefined)}
              onDragOver={(e) => {
                if (dragged && index > 0) e.preventDefault();
              }}
              onDrop={(e) => onDrop(e, environment)}
            >
              <EnvironmentCard
                projectToken={projectToken}
                environment={environment}
                generation={generation}
                progress={progress[environment.key]}
                gate={gate}
                onChanged={refresh}
                move={
                  environment.builtIn
                    ? undefined
                    : {
                        up: index > 1 ? () => moveTo(environment.key, index - 1) : undefined,
                        down: index < environments.length - 1 ? () => moveTo(environment.key, index + 1) : undefined,
                      }
                }
              />
            </li>
          ))}
        </ol>
        <p role="status" className="status">
          {announcement}
        </p>
        {orderError && (
          <p role="alert" className="error">
            {orderError}
          </p>
        )}
      </section>
      <ConnectApp projectToken={projectToken} environments={environments} />
      <CreateEnvironmentForm projectToken={projectToken} onCreated={refresh} />
      <section aria-labelledby="history-heading">
        <h2 id="history-heading">{t('hosting.publications')}</h2>
        {history && history.publications.length === 0 && <p>{t('hosting.nothingPublished')}</p>}
        {history && history.publications.length > 0 && (
          <table className="data-table">
            <caption className="visually-hidden">{t('hosting.publicationsCaption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('hosting.started')}</th>
                <th scope="col">{t('hosting.environment')}</th>
                <th scope="col">{t('hosting.from')}</th>
                <th scope="col">{t('hosting.publishedBy')}</th>
                <th scope="col">{t('hosting.stateColumn')}</th>
                <th scope="col">{t('hosting.label')}</th>
              </tr>
            </thead>
            <tbody>
              {history.publications.map((p) => (
                <tr key={p.id}>
                  <td>{time(p.createdAt)}</td>
                  <td>{p.environmentKey}</td>
                  <td>{p.source}</td>
                  <td>{`${p.publishedBy.name ?? (p.publishedBy.kind === 'API_KEY' ? t('hosting.apiKey') : p.publishedBy.kind.toLowerCase())} (${p.changeSource.toLowerCase()})`}</td>
                  <td>
                    <span className={`state state-${p.state.toLowerCase()}`}>{stateWords(p.state)}</span>
                    {p.message && <span className="error"> {p.message}</span>}
                  </td>
                  <td>{p.label ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </main>
  );
}

function EnvironmentCard({
  projectToken,
  environment,
  generation,
  progress,
  gate,
  onChanged,
  move,
}: {
  projectToken: string;
  environment: Environment;
  generation: number;
  progress: ProgressEvent | undefined;
  gate: { checkTitle: (id: string) => string; isOwner: boolean };
  onChanged: () => void;
  move?: { up?: () => void; down?: () => void };
}) {
  const { t } = useTranslation();
  const [{ data: status }, refetchStatus] = useQuery({
    query: StatusQuery,
    variables: { projectToken, key: environment.key },
  });
  const [, publish] = useMutation(Publish);
  const [label, setLabel] = useState('');
  const [publishing, setPublishing] = useState(false);
  const [error, setError] = useState('');
  const [refusal, setRefusal] = useState<GateRefusal | undefined>();
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    if (generation > 0) refetchStatus({ requestPolicy: 'network-only' });
  }, [generation, refetchStatus]);
  // A refusal says what was true then ("another publication is running", the gate's errors): once a publication
  // of this environment has ended, it may no longer be, and goes (a new attempt says it again if it still is).
  const ended = progress && progress.state !== 'RUNNING' ? progress.publicationId : undefined;
  useEffect(() => {
    if (ended === undefined) return;
    setError('');
    if (progress?.state === 'COMPLETE') setRefusal(undefined);
    // Only when a publication ends: the refusal and error are cleared by what it became.
  }, [ended]);

  const doPublish = async (override = false) => {
    setPublishing(true);
    setError('');
    setRefusal(undefined);
    const result = await publish({
      projectToken,
      key: environment.key,
      label: environment.key === '_latest' && label.trim() ? label.trim() : null,
      override: override || null,
    });
    setPublishing(false);
    if (result.error) {
      const gateRefusal = gateRefusalOf(result.error);
      return gateRefusal ? setRefusal(gateRefusal) : setError(errorText(result.error));
    }
    setLabel('');
    onChanged();
  };
  const s = status?.environmentStatus;
  const running = progress?.state === 'RUNNING';
  const files = progress && progress.filesTotal > 0 ? Math.round((progress.filesDone / progress.filesTotal) * 100) : 0;
  return (
    <article className="environment-card" style={{ borderLeftColor: environment.color }}>
      <header className="environment-head">
        {!environment.builtIn && (
          <span className="drag-handle" aria-hidden="true">
            ⠿
          </span>
        )}
        <h3>
          {environment.name} <code>{environment.key}</code>
        </h3>
        <span className="from">{t('hosting.fromSource', { source: environment.source })}</span>
        {move && (
          <span className="move">
            <button
              type="button"
              onClick={move.up}
              disabled={!move.up}
              aria-label={t('hosting.up', { key: environment.key })}
            >
              ↑
            </button>
            <button
              type="button"
              onClick={move.down}
              disabled={!move.down}
              aria-label={t('hosting.down', { key: environment.key })}
            >
              ↓
            </button>
          </span>
        )}
        {!environment.builtIn && (
          <button type="button" onClick={() => setEditing((e) => !e)} aria-expanded={editing}>
            {t('hosting.edit', { key: environment.key })}
          </button>
        )}
      </header>
      {editing && (
        <EditEnvironmentForm
          projectToken={projectToken}
          environment={environment}
          onDone={() => {
            setEditing(false);
            onChanged();
          }}
        />
      )}
      <dl className="environment-status" aria-label={t('hosting.statusOf', { key: environment.key })}>
        <div>
          <dt>{t('hosting.keys')}</dt>
          <dd>{s ? formatNumber(s.numberOfKeys) : '…'}</dd>
        </div>
        <div>
          <dt>{t('hosting.languages')}</dt>
          <dd>{s ? formatNumber(s.numberOfLanguages) : '…'}</dd>
        </div>
        <div>
          <dt>{t('hosting.nonEmpty')}</dt>
          <dd>{s ? formatNumber(s.numberOfNonEmptyTranslations) : '…'}</dd>
        </div>
        <div>
          <dt>{t('hosting.published')}</dt>
          <dd>{s ? (s.createdAt ? time(s.createdAt) : t('common.never')) : '…'}</dd>
        </div>
        {environment.lastPublication?.label && (
          <div>
            <dt>{t('hosting.label')}</dt>
            <dd>{environment.lastPublication.label}</dd>
          </div>
        )}
      </dl>
      {s && s.resources.length > 0 && (
        <details className="resources">
          <summary>{t('hosting.files', { count: s.resources.length })}</summary>
          <ul>
            {s.resources.map((r) => (
              <li key={r.link}>
                <a href={r.url} target="_blank" rel="noreferrer">
                  {r.link.split('/').slice(2).join('/')}
                </a>{' '}
                <span className="size">{t('hosting.size', { size: r.size })}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
      <div className="publish-row">
        {environment.key === '_latest' && (
          <input
            aria-label={t('hosting.nextLabel')}
            placeholder={t('hosting.labelPlaceholder')}
            value={label}
            onChange={(e) => setLabel(e.target.value)}
            maxLength={200}
          />
        )}
        <button type="button" onClick={() => void doPublish()} disabled={publishing}>
          {t('hosting.publish', { key: environment.key })}
        </button>
        {(running || publishing) && (
          <span className="publish-progress">
            {/* Indeterminate until the files are counted: no "0/0". */}
            <progress
              max={100}
              value={running && progress!.filesTotal > 0 ? files : undefined}
              aria-label={t('hosting.publicationOf', { key: environment.key })}
            />
            <span>
              {running && progress!.filesTotal > 0
                ? t('hosting.progress', {
                    stage: stageWords(progress!.stage),
                    done: progress!.filesDone,
                    files: count(progress!.filesTotal, 'file'),
                  })
                : running
                  ? t('hosting.stageRunning', { stage: stageWords(progress!.stage) })
                  : t('hosting.starting')}
            </span>
          </span>
        )}
        {progress?.state === 'COMPLETE' && !publishing && (
          <span role="status">{t('hosting.publishedKey', { key: environment.key })}</span>
        )}
        {progress?.state === 'FAILED' && (
          <span role="alert" className="error">
            {t('hosting.failed', { message: progress.message })}
          </span>
        )}
      </div>
      <QualityGateToggle
        projectToken={projectToken}
        environmentKey={environment.key}
        requireNoErrors={environment.requireNoErrors}
        onChanged={onChanged}
      />
      {refusal && (
        <GateRefusalPanel
          projectToken={projectToken}
          environmentKey={environment.key}
          refusal={refusal}
          checkTitle={gate.checkTitle}
          canOverride={gate.isOwner}
          onOverride={() => void doPublish(true)}
        />
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </article>
  );
}

function CreateEnvironmentForm({ projectToken, onCreated }: { projectToken: string; onCreated: () => void }) {
  const { t } = useTranslation();
  const [key, setKey] = useState('');
  const [name, setName] = useState('');
  const [color, setColor] = useState('#808080');
  const [error, setError] = useState('');
  const [, create] = useMutation(CreateEnvironment);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await create({ projectToken, key: key.trim(), name, color });
    if (result.error) return setError(errorText(result.error));
    setError('');
    setKey('');
    setName('');
    onCreated();
  };
  return (
    <form className="ops-form" onSubmit={submit} aria-labelledby="create-env-heading">
      <h2 id="create-env-heading">{t('hosting.newEnvironment')}</h2>
      <div className="ops-row">
        <label>
          {t('hosting.environmentKey')}
          <input
            value={key}
            onChange={(e) => setKey(e.target.value)}
            required
            maxLength={40}
            pattern="[a-z0-9][a-z0-9_\-]{0,39}"
            title={t('hosting.keyPattern')}
          />
        </label>
        <label>
          {t('hosting.environmentName')}
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} />
        </label>
        <label>
          {t('hosting.color')}
          <input type="color" value={color} onChange={(e) => setColor(e.target.value)} />
        </label>
        <button type="submit">{t('hosting.create')}</button>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
      </div>
    </form>
  );
}

function EditEnvironmentForm({
  projectToken,
  environment,
  onDone,
}: {
  projectToken: string;
  environment: Environment;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(environment.name);
  const [color, setColor] = useState(
    environment.color.length === 4
      ? `#${[...environment.color.slice(1)].map((c) => c + c).join('')}`
      : environment.color,
  );
  const [error, setError] = useState('');
  const [, update] = useMutation(UpdateEnvironment);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await update({ projectToken, key: environment.key, name, color });
    if (result.error) return setError(errorText(result.error));
    onDone();
  };
  return (
    <form className="ops-row edit-environment" onSubmit={submit}>
      <label>
        {t('hosting.nameOf', { key: environment.key })}
        <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} />
      </label>
      <label>
        {t('hosting.colorOf', { key: environment.key })}
        <input type="color" value={color} onChange={(e) => setColor(e.target.value)} />
      </label>
      <button type="submit">{t('common.save')}</button>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </form>
  );
}
