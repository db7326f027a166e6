// A project's Git sync screen (docs/git-sync.md): connect a repository (HTTPS
// with a token, or SSH with a deploy key the service generates and shows),
// then pull now (with a preview first), push now, and the last syncs. The
// service checks every setting; the screen shows its refusals.
import { Trans, useTranslation } from 'react-i18next';
import { formatDateTime, i18n } from './i18n';
import { useId, useState, type FormEvent } from 'react';
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

const AUTH: AuthKind[] = ['TOKEN', 'SSH', 'NONE'];
const FORGES: (ForgeKind | '')[] = ['', 'GITHUB', 'GITLAB', 'NONE'];
const forgeName = (forge: ForgeKind | '') => i18n.t(forge ? `git.forge.${forge}` : 'git.forge.detect');

const short = (sha: string | null | undefined) => (sha ? sha.slice(0, 10) : '');

/** A value the team copies into the forge (the webhook secret, the public deploy key): read-only, with a copy button. */
function CopyField({ label, value, help }: { label: string; value: string; help?: string }) {
  const { t } = useTranslation();
  const id = `copy-${useId().replace(/\W+/g, '')}`;
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
        label={t('git.copy', { label })}
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
  const { t } = useTranslation();
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
      <h2 id="git-connect-title">{t('git.connectTitle')}</h2>
      <div className="option-fields">
        <label>
          {t('git.url')}
          <input
            value={remoteUrl}
            onChange={(e) => setRemoteUrl(e.target.value)}
            required
            placeholder="https://github.com/team/app.git"
            aria-describedby="git-url-help"
            size={50}
          />
          <span id="git-url-help" className="help">
            {t('git.urlHelp')}
          </span>
        </label>
        <label>
          {t('git.authentication')}
          <select value={authKind} onChange={(e) => setAuthKind(e.target.value as AuthKind)}>
            {AUTH.map((value) => (
              <option key={value} value={value}>
                {t(`git.auth.${value}`)}
              </option>
            ))}
          </select>
        </label>
        {authKind === 'TOKEN' && (
          <label>
            {t('git.token')}
            <input
              type="password"
              autoComplete="off"
              value={token}
              onChange={(e) => setToken(e.target.value)}
              required
              aria-describedby="git-token-help"
            />
            <span id="git-token-help" className="help">
              {t('git.tokenHelp')}
            </span>
          </label>
        )}
        {authKind === 'SSH' && <p className="help">{t('git.sshHelp')}</p>}
        <label>
          {t('git.branch')}
          <input value={branch} onChange={(e) => setBranch(e.target.value)} required />
        </label>
        <label>
          {t('git.pattern')}
          <input
            value={pathPattern}
            onChange={(e) => setPathPattern(e.target.value)}
            required
            aria-describedby="git-pattern-help"
            size={40}
          />
          <span id="git-pattern-help" className="help">
            {t('git.patternHelp', { lang: '{lang}', ns: '{ns}', customer: '{customer}' })}
          </span>
        </label>
        <label>
          {t('git.format')}
          <select value={format} onChange={(e) => setFormat(e.target.value)}>
            {formats.map((f) => (
              <option key={f.id} value={f.format}>
                {f.name} ({f.id})
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('git.filesPulled')}
          <select value={pullScope} onChange={(e) => setPullScope(e.target.value as PullScope)}>
            <option value="SOURCE">{t('git.sourceOnly')}</option>
            <option value="ALL">{t('git.everyLanguage')}</option>
          </select>
        </label>
        <label>
          {t('git.prOn')}
          <select value={forgeKind} onChange={(e) => setForgeKind(e.target.value as ForgeKind | '')}>
            {FORGES.map((value) => (
              <option key={value} value={value}>
                {forgeName(value)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('git.forgeApi')}
          <input value={forgeApiUrl} onChange={(e) => setForgeApiUrl(e.target.value)} aria-describedby="git-api-help" />
          <span id="git-api-help" className="help">
            {t('git.forgeApiHelp')}
          </span>
        </label>
        <label>
          {t('git.serviceBranch')}
          <input value={pushBranch} onChange={(e) => setPushBranch(e.target.value)} placeholder="l10n/<project>" />
        </label>
        <label>
          {t('git.schedule')}
          <input
            value={pushSchedule}
            onChange={(e) => setPushSchedule(e.target.value)}
            placeholder="0 6 * * 1-5"
            aria-describedby="git-schedule-help"
          />
          <span id="git-schedule-help" className="help">
            {t('git.scheduleHelp')}
          </span>
        </label>
      </div>
      <div className="actions">
        <button type="submit" className="primary" disabled={fetching}>
          {fetching ? t('git.connecting') : t('git.connect')}
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
  const { t } = useTranslation();
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
    void save({ branch, pathPattern, pullScope, pushSchedule, ...(token && { token }) }, t('git.settingsSaved'));
  };
  return (
    <details className="git-settings">
      <summary>{t('git.changeSettings')}</summary>
      <form onSubmit={submit} className="git-connect" aria-label={t('git.settingsForm')}>
        <div className="option-fields">
          <label>
            {t('git.branch')}
            <input value={branch} onChange={(e) => setBranch(e.target.value)} required />
          </label>
          <label>
            {t('git.pattern')}
            <input value={pathPattern} onChange={(e) => setPathPattern(e.target.value)} required />
          </label>
          <label>
            {t('git.filesPulled')}
            <select value={pullScope} onChange={(e) => setPullScope(e.target.value as PullScope)}>
              <option value="SOURCE">{t('git.sourceOnly')}</option>
              <option value="ALL">{t('git.everyLanguage')}</option>
            </select>
          </label>
          <label>
            {t('git.schedule')}
            <input value={pushSchedule} onChange={(e) => setPushSchedule(e.target.value)} placeholder="0 6 * * 1-5" />
          </label>
          {connection.authKind !== 'NONE' && (
            <label>
              {t('git.newToken')}
              <input type="password" autoComplete="off" value={token} onChange={(e) => setToken(e.target.value)} />
            </label>
          )}
        </div>
        <div className="actions">
          <button type="submit" className="primary" disabled={fetching}>
            {t('git.saveSettings')}
          </button>
          {connection.authKind === 'SSH' && (
            <button
              type="button"
              disabled={fetching}
              onClick={() => void save({ regenerateDeployKey: true }, t('git.newKeyMade'))}
            >
              {t('git.newDeployKey')}
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
  const { t } = useTranslation();
  return (
    <table className="data-table git-files">
      <caption>{t('git.filesOf', { commit: short(pulled.commit) })}</caption>
      <thead>
        <tr>
          <th scope="col">{t('git.file')}</th>
          <th scope="col">{t('git.language')}</th>
          <th scope="col">{t('git.namespace')}</th>
          <th scope="col">{t('git.outcome')}</th>
        </tr>
      </thead>
      <tbody>
        {pulled.files.map((f) => (
          <tr key={f.path}>
            <td>
              <code>{f.path}</code>
            </td>
            <td>{f.language ?? t('git.all')}</td>
            <td>{f.namespace ?? ''}</td>
            <td>
              {f.error ? (
                <span className="error">{f.error}</span>
              ) : f.preview ? (
                `${t('git.previewOutcome', { keys: count(f.preview.keysToCreate.count, 'key'), texts: count(f.preview.translationsToInsert, 'text'), changed: f.preview.translationsToUpdate })}${f.preview.keysToDelete.count ? t('git.toDelete', { keys: count(f.preview.keysToDelete.count, 'key') }) : ''}${f.preview.translationsToRefuse ? t('git.refused', { count: f.preview.translationsToRefuse }) : ''}`
              ) : f.result ? (
                `${t('git.resultOutcome', { keys: count(f.result.keysCreated, 'key'), texts: count(f.result.translationsInserted, 'text'), changed: f.result.translationsUpdated })}${f.result.translationsRefused ? t('git.refused', { count: f.result.translationsRefused }) : ''}`
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
  const { t } = useTranslation();
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
    setStatus(preview ? t('git.previewing') : t('git.pulling'));
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
    setStatus(t('git.pushing'));
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
      <h1>{t('git.title')}</h1>
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
            <h2 id="git-connection-title">{t('git.repository')}</h2>
            <dl className="git-summary">
              <dt>{t('git.urlShort')}</dt>
              <dd>
                <code>{connection.remoteUrl}</code>
              </dd>
              <dt>{t('git.branch')}</dt>
              <dd>
                <code>{connection.branch}</code>
              </dd>
              <dt>{t('git.files')}</dt>
              <dd>
                <code>{connection.pathPattern}</code> ({connection.format},{' '}
                {connection.pullScope === 'SOURCE' ? t('git.sourcePulled') : t('git.everyPulled')})
              </dd>
              <dt>{t('git.serviceBranchShort')}</dt>
              <dd>
                <code>{connection.pushBranch}</code>
                {connection.forgeKind !== 'NONE'
                  ? ` ${t('git.prsOn', { forge: connection.forgeKind === 'GITHUB' ? 'GitHub' : 'GitLab', repository: connection.forgeRepository })}`
                  : ''}
              </dd>
              {connection.pushSchedule && (
                <>
                  <dt>{t('git.scheduleShort')}</dt>
                  <dd>
                    <code>{connection.pushSchedule}</code>
                  </dd>
                </>
              )}
              <dt>{t('git.lastPulled')}</dt>
              <dd>
                {connection.lastPulledCommit ? <code>{short(connection.lastPulledCommit)}</code> : t('git.never')}
              </dd>
            </dl>
            {connection.deployPublicKey && (
              <CopyField label={t('git.deployKey')} value={connection.deployPublicKey} help={t('git.deployKeyHelp')} />
            )}
            <CopyField label={t('git.webhookUrl')} value={connection.webhookUrl} help={t('git.webhookUrlHelp')} />
            {secret && <CopyField label={t('git.webhookSecret')} value={secret} help={t('git.webhookSecretHelp')} />}
            <div className="actions">
              <button type="button" onClick={() => pull(true)} disabled={pulling || pushing}>
                {t('git.previewPull')}
              </button>
              <button type="button" className="primary" onClick={() => pull(false)} disabled={pulling || pushing}>
                {t('git.pullNow')}
              </button>
              <button type="button" className="primary" onClick={push} disabled={pulling || pushing}>
                {t('git.pushNow')}
              </button>
              <button
                type="button"
                onClick={async () => {
                  const r = await rotate({ projectToken });
                  if (r.error) setError(messageOf(r.error));
                  else setSecret(r.data!.rotateGitWebhookSecret);
                }}
              >
                {t('git.newSecret')}
              </button>
              <button type="button" className="danger" onClick={() => setConfirming(true)}>
                {t('git.disconnect')}
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
              <Trans
                i18nKey={pushed.pullRequest.opened ? 'git.prOpened' : 'git.prUpdated'}
                values={{ number: pushed.pullRequest.number, branch: pushed.branch }}
                components={{ a: <a href={pushed.pullRequest.url} target="_blank" rel="noreferrer" />, code: <code /> }}
              />
            </p>
          )}
          <section aria-labelledby="git-runs-title">
            <h2 id="git-runs-title">{t('git.lastSyncs')}</h2>
            {data.gitSyncRuns.length === 0 ? (
              <p>{t('git.noSync')}</p>
            ) : (
              <table className="data-table git-runs">
                <thead>
                  <tr>
                    <th scope="col">{t('git.when')}</th>
                    <th scope="col">{t('git.what')}</th>
                    <th scope="col">{t('git.startedBy')}</th>
                    <th scope="col">{t('git.state')}</th>
                    <th scope="col">{t('git.commit')}</th>
                    <th scope="col">{t('git.message')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.gitSyncRuns.map((r) => (
                    <tr key={r.id}>
                      <td>{formatDateTime(r.startedAt)}</td>
                      <td>{t(`git.kind.${r.kind === 'PREVIEW' ? 'PREVIEW' : r.kind === 'PULL' ? 'PULL' : 'PUSH'}`)}</td>
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
                              {t('git.pullRequest')}
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
              title={t('git.confirmTitle')}
              confirmLabel={t('git.disconnect')}
              onCancel={() => setConfirming(false)}
              onConfirm={async () => {
                setConfirming(false);
                const r = await disconnect({ projectToken });
                if (r.error) return setError(messageOf(r.error));
                setSecret('');
                setStatus(t('git.disconnected'));
                refresh();
              }}
            >
              {t('git.confirmText')}
            </Confirm>
          )}
        </>
      )}
    </main>
  );
}
