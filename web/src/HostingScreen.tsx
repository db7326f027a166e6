// Hosting: the environments in publication order (custom ones reordered by
// drag and drop or the move buttons, through setEnvironmentOrder), each with
// its served status and CDN files and a Publish button with live progress
// (publicationProgress) and its quality-check gate (PublicationGate.tsx);
// creating and editing custom environments; the publication history.
import { useEffect, useState, type DragEvent, type FormEvent } from 'react';
import { useClient, useMutation, useQuery } from 'urql';
import { graphql, type ResultOf } from './graphql';
import { count } from './wording';
import { ConnectApp } from './ConnectApp';
import { GateRefusalPanel, QualityGateToggle, gateRefusalOf, type GateRefusal } from './PublicationGate';

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

const time = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString('en') : '—');

/** A refusal in words: a publish while another runs (409) says so plainly. */
function errorText(error: GqlError): string {
  const first = error.graphQLErrors[0];
  if (first?.extensions?.code === 'CONFLICT' && /publication/.test(first.message))
    return `Another publication is running: ${first.message}`;
  return first?.message ?? error.message;
}

export function HostingScreen({ projectToken }: { projectToken: string }) {
  const client = useClient();
  const [{ data, error }, refetch] = useQuery({ query: EnvironmentsQuery, variables: { projectToken } });
  const [{ data: history }, refetchHistory] = useQuery({ query: PublicationsQuery, variables: { projectToken } });
  const [{ data: gateContext }] = useQuery({ query: GateContextQuery, variables: { projectToken } });
  const gate = {
    checkTitle: (id: string) => gateContext?.qualityChecks.checks.find((c) => c.id === id)?.title ?? id,
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
    setAnnouncement(`Moved ${moved} to position ${position}; it now publishes from ${keys[position - 2]}`);
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
      <h1>Hosting</h1>
      {error && (
        <p role="alert" className="error">
          {errorText(error)}
        </p>
      )}
      <section aria-labelledby="environments-heading">
        <h2 id="environments-heading">Environments in publication order</h2>
        <p className="hint">
          Each publishes from the one above it (_latest from the editor, _production always from _latest). Drag a custom
          environment, or use its move buttons, to change the order.
        </p>
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
        <h2 id="history-heading">Publications</h2>
        {history && history.publications.length === 0 && <p>Nothing published yet.</p>}
        {history && history.publications.length > 0 && (
          <table className="data-table">
            <caption className="visually-hidden">Publications, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Environment</th>
                <th scope="col">From</th>
                <th scope="col">Published by</th>
                <th scope="col">State</th>
                <th scope="col">Label</th>
              </tr>
            </thead>
            <tbody>
              {history.publications.map((p) => (
                <tr key={p.id}>
                  <td>{time(p.createdAt)}</td>
                  <td>{p.environmentKey}</td>
                  <td>{p.source}</td>
                  <td>{`${p.publishedBy.name ?? (p.publishedBy.kind === 'API_KEY' ? 'project API key' : p.publishedBy.kind.toLowerCase())} (${p.changeSource.toLowerCase()})`}</td>
                  <td>
                    <span className={`state state-${p.state.toLowerCase()}`}>{p.state}</span>
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
        <span className="from">from {environment.source}</span>
        {move && (
          <span className="move">
            <button type="button" onClick={move.up} disabled={!move.up} aria-label={`Move ${environment.key} up`}>
              ↑
            </button>
            <button type="button" onClick={move.down} disabled={!move.down} aria-label={`Move ${environment.key} down`}>
              ↓
            </button>
          </span>
        )}
        {!environment.builtIn && (
          <button type="button" onClick={() => setEditing((e) => !e)} aria-expanded={editing}>
            Edit {environment.key}
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
      <dl className="environment-status" aria-label={`Status of ${environment.key}`}>
        <div>
          <dt>Keys</dt>
          <dd>{s?.numberOfKeys ?? '…'}</dd>
        </div>
        <div>
          <dt>Languages</dt>
          <dd>{s?.numberOfLanguages ?? '…'}</dd>
        </div>
        <div>
          <dt>Non-empty translations</dt>
          <dd>{s?.numberOfNonEmptyTranslations ?? '…'}</dd>
        </div>
        <div>
          <dt>Published</dt>
          <dd>{s ? (s.createdAt ? time(s.createdAt) : 'never') : '…'}</dd>
        </div>
        {environment.lastPublication?.label && (
          <div>
            <dt>Label</dt>
            <dd>{environment.lastPublication.label}</dd>
          </div>
        )}
      </dl>
      {s && s.resources.length > 0 && (
        <details className="resources">
          <summary>Files on the CDN ({s.resources.length})</summary>
          <ul>
            {s.resources.map((r) => (
              <li key={r.link}>
                <a href={r.url} target="_blank" rel="noreferrer">
                  {r.link.split('/').slice(2).join('/')}
                </a>{' '}
                <span className="size">{r.size.toLocaleString('en')} B</span>
              </li>
            ))}
          </ul>
        </details>
      )}
      <div className="publish-row">
        {environment.key === '_latest' && (
          <input
            aria-label="Label of the next _latest publication"
            placeholder="Label (optional)"
            value={label}
            onChange={(e) => setLabel(e.target.value)}
            maxLength={200}
          />
        )}
        <button type="button" onClick={() => void doPublish()} disabled={publishing}>
          Publish {environment.key}
        </button>
        {(running || publishing) && (
          <span className="publish-progress">
            {/* Indeterminate until the files are counted: no "0/0". */}
            <progress
              max={100}
              value={running && progress!.filesTotal > 0 ? files : undefined}
              aria-label={`Publication of ${environment.key}`}
            />
            <span>
              {running && progress!.filesTotal > 0
                ? `${progress!.stage.toLowerCase()}: ${progress!.filesDone.toLocaleString('en')} of ${count(progress!.filesTotal, 'file')}`
                : running
                  ? `${progress!.stage.toLowerCase()}…`
                  : 'starting…'}
            </span>
          </span>
        )}
        {progress?.state === 'COMPLETE' && !publishing && <span role="status">Published {environment.key}</span>}
        {progress?.state === 'FAILED' && (
          <span role="alert" className="error">
            Publication failed: {progress.message}
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
      <h2 id="create-env-heading">New environment</h2>
      <div className="ops-row">
        <label>
          Environment key
          <input
            value={key}
            onChange={(e) => setKey(e.target.value)}
            required
            maxLength={40}
            pattern="[a-z0-9][a-z0-9_\-]{0,39}"
            title="a-z, 0-9, - and _, not starting with _"
          />
        </label>
        <label>
          Environment name
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} />
        </label>
        <label>
          Color
          <input type="color" value={color} onChange={(e) => setColor(e.target.value)} />
        </label>
        <button type="submit">Create environment</button>
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
        Name of {environment.key}
        <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} />
      </label>
      <label>
        Color of {environment.key}
        <input type="color" value={color} onChange={(e) => setColor(e.target.value)} />
      </label>
      <button type="submit">Save</button>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </form>
  );
}
