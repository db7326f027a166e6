// A project's Git sync screen (docs/git-sync.md): connect a repository (HTTPS
// with a token, or SSH with a deploy key the service generates and shows),
// then pull now (with a preview first), push now, and the last syncs. The
// service checks every setting; the screen shows its refusals.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql, type ResultOf, type VariablesOf } from './graphql';
import { FileFormatsQuery } from './formats';
import { CopyButton, messageOf } from './feedback';
import { Confirm } from './Confirm';
import { count } from './wording';

const GitSyncQuery = graphql(`
  query GitSync($projectToken: String!) {
    gitConnection(projectToken: $projectToken) { id remoteUrl authKind hasToken deployPublicKey branch pathPattern format pullScope pushBranch forgeKind forgeApiUrl forgeRepository pushSchedule lastPulledCommit webhookUrl }
    gitSyncRuns(projectToken: $projectToken, size: 20) { id kind trigger state commit message pullRequestUrl startedAt finishedAt }
  }
`);

const ConnectGit = graphql(`
  mutation ConnectGit($projectToken: String!, $input: GitConnectionInput!) {
    connectGitRepository(projectToken: $projectToken, input: $input) { webhookSecret connection { id deployPublicKey webhookUrl } }
  }
`);

const PullGit = graphql(`
  mutation PullGit($projectToken: String!, $preview: Boolean) {
    pullFromGit(projectToken: $projectToken, preview: $preview) {
      commit
      run { id state message }
      files {
        path language namespace error
        result { keysCreated translationsInserted translationsUpdated translationsRefused }
        preview { keysToCreate { count } keysToDelete { count } translationsToInsert translationsToUpdate translationsToRefuse }
      }
    }
  }
`);

const PushGit = graphql(`
  mutation PushGit($projectToken: String!) {
    pushToGit(projectToken: $projectToken) { branch commit pushed files pullRequest { number url opened } run { id state message } }
  }
`);

const UpdateGit = graphql(`
  mutation UpdateGit($projectToken: String!, $input: GitConnectionInput!) {
    updateGitConnection(projectToken: $projectToken, input: $input) { id branch pathPattern pullScope pushSchedule deployPublicKey hasToken }
  }
`);

const RotateSecret = graphql(
  `mutation RotateGitSecret($projectToken: String!) { rotateGitWebhookSecret(projectToken: $projectToken) }`,
);
const Disconnect = graphql(
  `mutation DisconnectGit($projectToken: String!) { disconnectGitRepository(projectToken: $projectToken) }`,
);

type Input = VariablesOf<typeof ConnectGit>['input'];
type AuthKind = NonNullable<Input['authKind']>;
type ForgeKind = NonNullable<Input['forgeKind']>;
type PullScope = NonNullable<Input['pullScope']>;
type Pulled = ResultOf<typeof PullGit>['pullFromGit'];
type Pushed = ResultOf<typeof PushGit>['pushToGit'];

const AUTH: [AuthKind, string][] = [
  ['TOKEN', 'Access token (HTTPS)'],
  ['SSH', 'Deploy key (SSH)'],
  ['NONE', 'None (public repository, pull only)'],
];
const FORGES: [ForgeKind | '', string][] = [
  ['', 'Detect from the URL'],
  ['GITHUB', 'GitHub'],
  ['GITLAB', 'GitLab'],
  ['NONE', 'None (push the branch only)'],
];

const short = (sha: string | null | undefined) => (sha ? sha.slice(0, 10) : '');

/** A value the team copies into the forge (the webhook secret, the public deploy key): read-only, with a copy button. */
function CopyField({ label, value, help }: { label: string; value: string; help?: string }) {
  const id = `copy-${label.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <div className="copy-link">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        readOnly
        value={value}
        onFocus={(e) => e.target.select()}
        size={70}
        aria-describedby={help ? `${id}-help` : undefined}
      />
      <CopyButton
        value={value}
        label={`Copy ${label.toLowerCase()}`}
        field={() => document.getElementById(id) as HTMLInputElement | null}
      />
      {help && (
        <span id={`${id}-help`} className="help">
          {help}
        </span>
      )}
    </div>
  );
}

function ConnectForm({ projectToken, onConnected }: { projectToken: string; onConnected: (secret: string) => void }) {
  const [{ data: formatsData }] = useQuery({ query: FileFormatsQuery });
  const formats = formatsData?.fileFormats ?? [];
  const [remoteUrl, setRemoteUrl] = useState('');
  const [authKind, setAuthKind] = useState<AuthKind>('TOKEN');
  const [token, setToken] = useState('');
  const [branch, setBranch] = useState('main');
  const [pathPattern, setPathPattern] = useState('locales/{lang}/{ns}.json');
  const [format, setFormat] = useState('SINGLE_LANGUAGE_JSON');
  const [pullScope, setPullScope] = useState<PullScope>('SOURCE');
  const [forgeKind, setForgeKind] = useState<ForgeKind | ''>('');
  const [forgeApiUrl, setForgeApiUrl] = useState('');
  const [pushBranch, setPushBranch] = useState('');
  const [pushSchedule, setPushSchedule] = useState('');
  const [error, setError] = useState('');
  const [{ fetching }, connect] = useMutation(ConnectGit);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input: Input = {
      remoteUrl,
      authKind,
      branch,
      pathPattern,
      format: format as Input['format'],
      pullScope,
      ...(authKind === 'TOKEN' && { token }),
      ...(forgeKind && { forgeKind }),
      ...(forgeApiUrl && { forgeApiUrl }),
      ...(pushBranch && { pushBranch }),
      ...(pushSchedule && { pushSchedule }),
    };
    const result = await connect({ projectToken, input });
    if (result.error) return setError(messageOf(result.error));
    setError('');
    onConnected(result.data!.connectGitRepository.webhookSecret);
  };

  return (
    <form onSubmit={submit} className="git-connect" aria-labelledby="git-connect-title">
      <h2 id="git-connect-title">Connect a repository</h2>
      <div className="option-fields">
        <label>
          Repository URL
          <input
            value={remoteUrl}
            onChange={(e) => setRemoteUrl(e.target.value)}
            required
            placeholder="https://github.com/team/app.git"
            aria-describedby="git-url-help"
            size={50}
          />
          <span id="git-url-help" className="help">
            https://… for a token, git@host:team/app.git or ssh://… for a deploy key. No credentials in the URL.
          </span>
        </label>
        <label>
          Authentication
          <select value={authKind} onChange={(e) => setAuthKind(e.target.value as AuthKind)}>
            {AUTH.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        {authKind === 'TOKEN' && (
          <label>
            Access token
            <input
              type="password"
              autoComplete="off"
              value={token}
              onChange={(e) => setToken(e.target.value)}
              required
              aria-describedby="git-token-help"
            />
            <span id="git-token-help" className="help">
              Stored sealed, never shown again. It needs read and write access to the repository, and to pull requests.
            </span>
          </label>
        )}
        {authKind === 'SSH' && (
          <p className="help">
            The service generates a deploy key when you connect, and shows its public half to add to the repository.
          </p>
        )}
        <label>
          Branch
          <input value={branch} onChange={(e) => setBranch(e.target.value)} required />
        </label>
        <label>
          File path pattern
          <input
            value={pathPattern}
            onChange={(e) => setPathPattern(e.target.value)}
            required
            aria-describedby="git-pattern-help"
            size={40}
          />
          <span id="git-pattern-help" className="help">
            {'{lang}'}, {'{ns}'} and {'{customer}'} as in the command-line client's paths.
          </span>
        </label>
        <label>
          Format
          <select value={format} onChange={(e) => setFormat(e.target.value)}>
            {formats.map((f) => (
              <option key={f.id} value={f.format}>
                {f.name} ({f.id})
              </option>
            ))}
          </select>
        </label>
        <label>
          Files pulled
          <select value={pullScope} onChange={(e) => setPullScope(e.target.value as PullScope)}>
            <option value="SOURCE">Source language only</option>
            <option value="ALL">Every language</option>
          </select>
        </label>
        <label>
          Pull requests on
          <select value={forgeKind} onChange={(e) => setForgeKind(e.target.value as ForgeKind | '')}>
            {FORGES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Forge API URL
          <input value={forgeApiUrl} onChange={(e) => setForgeApiUrl(e.target.value)} aria-describedby="git-api-help" />
          <span id="git-api-help" className="help">
            Empty: api.github.com, or https://your-gitlab/api/v4.
          </span>
        </label>
        <label>
          Branch of the service
          <input value={pushBranch} onChange={(e) => setPushBranch(e.target.value)} placeholder="l10n/<project>" />
        </label>
        <label>
          Push schedule
          <input
            value={pushSchedule}
            onChange={(e) => setPushSchedule(e.target.value)}
            placeholder="0 6 * * 1-5"
            aria-describedby="git-schedule-help"
          />
          <span id="git-schedule-help" className="help">
            A cron expression; empty: on demand only.
          </span>
        </label>
      </div>
      <div className="actions">
        <button type="submit" className="primary" disabled={fetching}>
          {fetching ? 'Connecting…' : 'Connect repository'}
        </button>
      </div>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </form>
  );
}

type Connection = NonNullable<ResultOf<typeof GitSyncQuery>['gitConnection']>;

/** The settings a team changes after connecting: branch, files, schedule, a new token or deploy key. */
function SettingsForm({
  projectToken,
  connection,
  onSaved,
  onStarted,
}: {
  projectToken: string;
  connection: Connection;
  onSaved: (message: string) => void;
  onStarted: () => void;
}) {
  const [branch, setBranch] = useState(connection.branch);
  const [pathPattern, setPathPattern] = useState(connection.pathPattern);
  const [pullScope, setPullScope] = useState<PullScope>(connection.pullScope);
  const [pushSchedule, setPushSchedule] = useState(connection.pushSchedule ?? '');
  const [token, setToken] = useState('');
  const [error, setError] = useState('');
  const [{ fetching }, update] = useMutation(UpdateGit);
  const save = async (input: Input, message: string) => {
    onStarted();
    const result = await update({ projectToken, input });
    if (result.error) return setError(messageOf(result.error));
    setError('');
    setToken('');
    onSaved(message);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save({ branch, pathPattern, pullScope, pushSchedule, ...(token && { token }) }, 'Settings saved');
  };
  return (
    <details className="git-settings">
      <summary>Change settings</summary>
      <form onSubmit={submit} className="git-connect" aria-label="Git sync settings">
        <div className="option-fields">
          <label>
            Branch
            <input value={branch} onChange={(e) => setBranch(e.target.value)} required />
          </label>
          <label>
            File path pattern
            <input value={pathPattern} onChange={(e) => setPathPattern(e.target.value)} required />
          </label>
          <label>
            Files pulled
            <select value={pullScope} onChange={(e) => setPullScope(e.target.value as PullScope)}>
              <option value="SOURCE">Source language only</option>
              <option value="ALL">Every language</option>
            </select>
          </label>
          <label>
            Push schedule
            <input value={pushSchedule} onChange={(e) => setPushSchedule(e.target.value)} placeholder="0 6 * * 1-5" />
          </label>
          {connection.authKind !== 'NONE' && (
            <label>
              New access token
              <input type="password" autoComplete="off" value={token} onChange={(e) => setToken(e.target.value)} />
            </label>
          )}
        </div>
        <div className="actions">
          <button type="submit" className="primary" disabled={fetching}>
            Save settings
          </button>
          {connection.authKind === 'SSH' && (
            <button
              type="button"
              disabled={fetching}
              onClick={() =>
                void save({ regenerateDeployKey: true }, 'New deploy key: add its public half to the repository')
              }
            >
              New deploy key
            </button>
          )}
        </div>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
      </form>
    </details>
  );
}

function PullReport({ pulled }: { pulled: Pulled }) {
  return (
    <table className="data-table git-files">
      <caption>Files of {short(pulled.commit)}</caption>
      <thead>
        <tr>
          <th scope="col">File</th>
          <th scope="col">Language</th>
          <th scope="col">Namespace</th>
          <th scope="col">Outcome</th>
        </tr>
      </thead>
      <tbody>
        {pulled.files.map((f) => (
          <tr key={f.path}>
            <td>
              <code>{f.path}</code>
            </td>
            <td>{f.language ?? 'all'}</td>
            <td>{f.namespace ?? ''}</td>
            <td>
              {f.error ? (
                <span className="error">{f.error}</span>
              ) : f.preview ? (
                `${count(f.preview.keysToCreate.count, 'key')} to create, ${count(f.preview.translationsToInsert, 'text')} to add, ${f.preview.translationsToUpdate} to change${f.preview.keysToDelete.count ? `, ${count(f.preview.keysToDelete.count, 'key')} to delete` : ''}${f.preview.translationsToRefuse ? `, ${f.preview.translationsToRefuse} refused` : ''}`
              ) : f.result ? (
                `${count(f.result.keysCreated, 'key')} created, ${count(f.result.translationsInserted, 'text')} added, ${f.result.translationsUpdated} changed${f.result.translationsRefused ? `, ${f.result.translationsRefused} refused` : ''}`
              ) : (
                ''
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function GitSyncScreen({ projectToken }: { projectToken: string }) {
  const [{ data, error: loadError }, reload] = useQuery({
    query: GitSyncQuery,
    variables: { projectToken },
    requestPolicy: 'cache-and-network',
  });
  const [secret, setSecret] = useState('');
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');
  const [pulled, setPulled] = useState<Pulled | null>(null);
  const [pushed, setPushed] = useState<Pushed | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [{ fetching: pulling }, pullNow] = useMutation(PullGit);
  const [{ fetching: pushing }, pushNow] = useMutation(PushGit);
  const [, rotate] = useMutation(RotateSecret);
  const [, disconnect] = useMutation(Disconnect);
  const connection = data?.gitConnection;
  const refresh = () => reload({ requestPolicy: 'network-only' });

  const pull = async (preview: boolean) => {
    setStatus(preview ? 'Previewing…' : 'Pulling…');
    setPushed(null);
    const result = await pullNow({ projectToken, preview });
    refresh();
    if (result.error) {
      setStatus('');
      setPulled(null);
      return setError(messageOf(result.error));
    }
    setError('');
    setPulled(result.data!.pullFromGit);
    setStatus(result.data!.pullFromGit.run.message);
  };
  const push = async () => {
    setStatus('Pushing…');
    setPulled(null);
    const result = await pushNow({ projectToken });
    refresh();
    if (result.error) {
      setStatus('');
      setPushed(null);
      return setError(messageOf(result.error));
    }
    setError('');
    setPushed(result.data!.pushToGit);
    setStatus(result.data!.pushToGit.run.message);
  };

  return (
    <main className="transfer git-sync">
      <h1>Git sync</h1>
      {loadError && (
        <p role="alert" className="error">
          {messageOf(loadError)}
        </p>
      )}
      {data && !connection && (
        <ConnectForm
          projectToken={projectToken}
          onConnected={(s) => {
            setSecret(s);
            refresh();
          }}
        />
      )}
      {connection && (
        <>
          <section aria-labelledby="git-connection-title">
            <h2 id="git-connection-title">Repository</h2>
            <dl className="git-summary">
              <dt>URL</dt>
              <dd>
                <code>{connection.remoteUrl}</code>
              </dd>
              <dt>Branch</dt>
              <dd>
                <code>{connection.branch}</code>
              </dd>
              <dt>Files</dt>
              <dd>
                <code>{connection.pathPattern}</code> ({connection.format},{' '}
                {connection.pullScope === 'SOURCE' ? 'source language pulled' : 'every language pulled'})
              </dd>
              <dt>Service branch</dt>
              <dd>
                <code>{connection.pushBranch}</code>
                {connection.forgeKind !== 'NONE'
                  ? ` → pull requests on ${connection.forgeKind === 'GITHUB' ? 'GitHub' : 'GitLab'} (${connection.forgeRepository})`
                  : ''}
              </dd>
              {connection.pushSchedule && (
                <>
                  <dt>Schedule</dt>
                  <dd>
                    <code>{connection.pushSchedule}</code>
                  </dd>
                </>
              )}
              <dt>Last pulled</dt>
              <dd>{connection.lastPulledCommit ? <code>{short(connection.lastPulledCommit)}</code> : 'never'}</dd>
            </dl>
            {connection.deployPublicKey && (
              <CopyField
                label="Public deploy key"
                value={connection.deployPublicKey}
                help="Add it to the repository's deploy keys, with write access for pushes."
              />
            )}
            <CopyField
              label="Webhook URL"
              value={connection.webhookUrl}
              help="The forge's push webhook (content type application/json): GitHub signs with the secret, GitLab sends it as its token."
            />
            {secret && (
              <CopyField label="Webhook secret" value={secret} help="Shown once: give it to the forge's webhook now." />
            )}
            <div className="actions">
              <button type="button" onClick={() => pull(true)} disabled={pulling || pushing}>
                Preview pull
              </button>
              <button type="button" className="primary" onClick={() => pull(false)} disabled={pulling || pushing}>
                Pull now
              </button>
              <button type="button" className="primary" onClick={push} disabled={pulling || pushing}>
                Push now
              </button>
              <button
                type="button"
                onClick={async () => {
                  const r = await rotate({ projectToken });
                  if (r.error) setError(messageOf(r.error));
                  else setSecret(r.data!.rotateGitWebhookSecret);
                }}
              >
                New webhook secret
              </button>
              <button type="button" className="danger" onClick={() => setConfirming(true)}>
                Disconnect
              </button>
            </div>
          </section>
          <SettingsForm
            key={connection.id}
            projectToken={projectToken}
            connection={connection}
            onSaved={(message) => {
              setStatus(message);
              refresh();
            }}
            onStarted={() => setStatus('')}
          />
          <p role="status" className="status">
            {status}
          </p>
          {error && (
            <p role="alert" className="error">
              {error}
            </p>
          )}
          {pulled && pulled.files.length > 0 && <PullReport pulled={pulled} />}
          {pushed?.pullRequest && (
            <p>
              {pushed.pullRequest.opened ? 'Opened' : 'Updated'}{' '}
              <a href={pushed.pullRequest.url} target="_blank" rel="noreferrer">
                pull request #{pushed.pullRequest.number}
              </a>{' '}
              from <code>{pushed.branch}</code>.
            </p>
          )}
          <section aria-labelledby="git-runs-title">
            <h2 id="git-runs-title">Last syncs</h2>
            {data.gitSyncRuns.length === 0 ? (
              <p>No sync yet.</p>
            ) : (
              <table className="data-table git-runs">
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">What</th>
                    <th scope="col">Started by</th>
                    <th scope="col">State</th>
                    <th scope="col">Commit</th>
                    <th scope="col">Message</th>
                  </tr>
                </thead>
                <tbody>
                  {data.gitSyncRuns.map((r) => (
                    <tr key={r.id}>
                      <td>{new Date(r.startedAt).toLocaleString('en')}</td>
                      <td>{r.kind === 'PREVIEW' ? 'Preview' : r.kind === 'PULL' ? 'Pull' : 'Push'}</td>
                      <td>{r.trigger.toLowerCase()}</td>
                      <td>{r.state.toLowerCase()}</td>
                      <td>
                        <code>{short(r.commit)}</code>
                      </td>
                      <td>
                        {r.message}
                        {r.pullRequestUrl && (
                          <>
                            {' '}
                            (
                            <a href={r.pullRequestUrl} target="_blank" rel="noreferrer">
                              pull request
                            </a>
                            )
                          </>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
          {confirming && (
            <Confirm
              title="Disconnect the repository?"
              confirmLabel="Disconnect"
              onCancel={() => setConfirming(false)}
              onConfirm={async () => {
                setConfirming(false);
                const r = await disconnect({ projectToken });
                if (r.error) return setError(messageOf(r.error));
                setSecret('');
                setStatus('Disconnected');
                refresh();
              }}
            >
              The service forgets the repository, its token or deploy key and its sync log. Nothing changes in the
              repository.
            </Confirm>
          )}
        </>
      )}
    </main>
  );
}
