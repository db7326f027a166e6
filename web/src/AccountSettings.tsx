// The signed-in account's settings (#/account): display name, password,
// personal tokens (shown once when made), and console sessions.
import { useState, type FormEvent } from 'react';
import { usePageTitle } from './page-title';
import { useMutation, useQuery } from 'urql';
import { Confirm } from './Confirm';
import { CopyButton, messageOf } from './feedback';
import {
  AccountQuery,
  ChangePassword,
  CreatePersonalToken,
  RevokePersonalToken,
  SetDisplayName,
  SignOutOtherSessions,
  SignOutSession,
  type AccountData,
} from './settings-documents';

const when = (value: string | null | undefined, none = '—') => (value ? new Date(value).toLocaleString() : none);

export function AccountSettings() {
  usePageTitle('Account settings');
  const [{ data, error }, refetch] = useQuery({ query: AccountQuery });
  const refresh = () => refetch({ requestPolicy: 'network-only' });
  if (error)
    return (
      <main className="settings">
        <p role="alert" className="error">
          {messageOf(error)}
        </p>
      </main>
    );
  if (!data?.viewer)
    return (
      <main className="settings" aria-busy="true">
        Loading…
      </main>
    );
  return (
    <main className="settings">
      <h1>Account settings</h1>
      <p>Signed in as {data.viewer.email}.</p>
      <DisplayName name={data.viewer.name} />
      <Password refresh={refresh} />
      <Tokens tokens={data.personalTokens} refresh={refresh} />
      <Sessions sessions={data.sessions} refresh={refresh} />
    </main>
  );
}

function DisplayName({ name: initial }: { name: string }) {
  const [name, setName] = useState(initial);
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');
  const [, save] = useMutation(SetDisplayName);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await save({ name });
    setError(result.error ? messageOf(result.error) : '');
    setStatus(result.error ? '' : 'Saved');
  };
  return (
    <section aria-labelledby="account-name">
      <h2 id="account-name">Display name</h2>
      <form className="inline-form" onSubmit={submit}>
        <label>
          Name shown to your teams
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={200} />
        </label>
        <button type="submit">Save name</button>
        <span role="status">{status}</span>
      </form>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </section>
  );
}

function Password({ refresh }: { refresh: () => void }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');
  const [{ fetching }, change] = useMutation(ChangePassword);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setStatus('');
    const result = await change({ currentPassword: current, newPassword: next });
    if (result.error) return setError(messageOf(result.error));
    setError('');
    setCurrent('');
    setNext('');
    const ended = result.data!.changePassword;
    setStatus(
      `Password changed${ended ? `; ${ended === 1 ? '1 other session was' : `${ended} other sessions were`} signed out` : ''}.`,
    );
    refresh();
  };
  return (
    <section aria-labelledby="account-password">
      <h2 id="account-password">Password</h2>
      <form className="inline-form" onSubmit={submit}>
        <label>
          Current password
          <input
            type="password"
            autoComplete="current-password"
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
            required
          />
        </label>
        <label>
          New password (at least 8 characters)
          <input
            type="password"
            autoComplete="new-password"
            value={next}
            onChange={(e) => setNext(e.target.value)}
            required
            minLength={8}
          />
        </label>
        <button type="submit" disabled={fetching}>
          Change password
        </button>
      </form>
      <p role="status">{status}</p>
      {error && (
        <p role="alert" className="error">
          {error === 'currentPassword is wrong' ? 'The current password is wrong.' : error}
        </p>
      )}
    </section>
  );
}

function Tokens({ tokens, refresh }: { tokens: AccountData['personalTokens']; refresh: () => void }) {
  const [name, setName] = useState('');
  const [expires, setExpires] = useState('');
  const [fresh, setFresh] = useState<{ name: string; token: string }>();
  const [error, setError] = useState('');
  const [doomed, setDoomed] = useState<AccountData['personalTokens'][number]>();
  const [, create] = useMutation(CreatePersonalToken);
  const [, revoke] = useMutation(RevokePersonalToken);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // A date means the end of that day, local time.
    const expiresAt = expires ? new Date(`${expires}T23:59:59`).toISOString() : null;
    const result = await create({ name, expiresAt });
    if (result.error) return setError(messageOf(result.error));
    setError('');
    setFresh({ name, token: result.data!.createPersonalToken.token });
    setName('');
    setExpires('');
    refresh();
  };
  const confirmRevoke = async (id: number) => {
    setDoomed(undefined);
    const result = await revoke({ id });
    setError(result.error ? messageOf(result.error) : '');
    refresh();
  };
  return (
    <section aria-labelledby="account-tokens">
      <h2 id="account-tokens">Personal tokens</h2>
      <p>
        A personal token is sent as the <code>Authorization</code> header to <code>/api/v2/projects</code> and to
        GraphQL; it acts as your account.
      </p>
      <form className="inline-form" onSubmit={submit}>
        <label>
          Token name
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} placeholder="CI" />
        </label>
        <label>
          Expires (optional)
          <input type="date" value={expires} onChange={(e) => setExpires(e.target.value)} />
        </label>
        <button type="submit">Create token</button>
      </form>
      {fresh && (
        <div className="new-secret" role="status">
          <p>Your new token “{fresh.name}”. Copy it now: it is not shown again.</p>
          <code className="secret" data-testid="new-token">
            {fresh.token}
          </code>{' '}
          <CopyButton value={fresh.token} />
        </div>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {tokens.length > 0 && (
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Starts with</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Expires</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((t) => (
              <tr key={t.id}>
                <td>{t.name}</td>
                <td>
                  <code>{t.prefix}…</code>
                </td>
                <td>{when(t.createdAt)}</td>
                <td>{when(t.lastUsedAt, 'never')}</td>
                <td>{t.expired ? <span className="badge expired">expired</span> : when(t.expiresAt, 'never')}</td>
                <td>
                  <button type="button" className="danger" aria-label={`Revoke ${t.name}`} onClick={() => setDoomed(t)}>
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {doomed && (
        <Confirm
          title={`Revoke token ${doomed.name}?`}
          confirmLabel="Revoke token"
          onCancel={() => setDoomed(undefined)}
          onConfirm={() => void confirmRevoke(doomed.id)}
        >
          <p>Requests with this token are refused from now on.</p>
        </Confirm>
      )}
    </section>
  );
}

function Sessions({ sessions, refresh }: { sessions: AccountData['sessions']; refresh: () => void }) {
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');
  const [, signOutOne] = useMutation(SignOutSession);
  const [, signOutOthers] = useMutation(SignOutOtherSessions);
  const others = sessions.filter((s) => !s.current).length;
  const endOthers = async () => {
    const result = await signOutOthers({});
    if (result.error) return setError(messageOf(result.error));
    setError('');
    setStatus(`${result.data!.signOutOtherSessions} signed out.`);
    refresh();
  };
  const endOne = async (id: number) => {
    const result = await signOutOne({ id });
    setError(result.error ? messageOf(result.error) : '');
    refresh();
  };
  return (
    <section aria-labelledby="account-sessions">
      <h2 id="account-sessions">Sessions</h2>
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">Browser</th>
            <th scope="col">Signed in</th>
            <th scope="col">Last used</th>
            <th scope="col">Expires</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => (
            <tr key={s.id}>
              <td>
                {s.userAgent || 'unknown'}
                {s.current && (
                  <>
                    {' '}
                    <span className="badge">this session</span>
                  </>
                )}
              </td>
              <td>{when(s.createdAt)}</td>
              <td>{when(s.lastUsedAt)}</td>
              <td>{when(s.expiresAt)}</td>
              <td>
                {!s.current && (
                  <button type="button" onClick={() => void endOne(s.id)}>
                    Sign out
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" disabled={others === 0} onClick={() => void endOthers()}>
        Sign out other sessions
      </button>
      <p role="status">{status}</p>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </section>
  );
}
