// The signed-in account's settings (#/account): display name, password,
// personal tokens (shown once when made), and console sessions.
import { useState, type FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { chooseLocale, currentLocale, formatDateTime, i18n, LOCALES, type Locale } from './i18n';
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

const when = (value: string | null | undefined, none = i18n.t('common.none')) => (value ? formatDateTime(value) : none);

export function AccountSettings() {
  const { t } = useTranslation();
  usePageTitle(t('account.title'));
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
        {t('common.loading')}
      </main>
    );
  return (
    <main className="settings">
      <h1>{t('account.title')}</h1>
      <p>{t('account.signedInAs', { email: data.viewer.email })}</p>
      <ConsoleLanguage />
      <DisplayName name={data.viewer.name} />
      <Password refresh={refresh} />
      <Tokens tokens={data.personalTokens} refresh={refresh} />
      <Sessions sessions={data.sessions} refresh={refresh} />
    </main>
  );
}

/** The console's language, remembered in this browser; applied at once. */
function ConsoleLanguage() {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="account-language">
      <h2 id="account-language">{t('account.language.title')}</h2>
      <label>
        {t('account.language.label')}
        <select value={currentLocale()} onChange={(e) => void chooseLocale(e.target.value as Locale)}>
          {LOCALES.map((l) => (
            <option key={l.code} value={l.code} lang={l.code}>
              {l.name}
            </option>
          ))}
        </select>
      </label>
      <p className="hint">{t('account.language.hint')}</p>
    </section>
  );
}

function DisplayName({ name: initial }: { name: string }) {
  const { t } = useTranslation();
  const [name, setName] = useState(initial);
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');
  const [, save] = useMutation(SetDisplayName);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await save({ name });
    setError(result.error ? messageOf(result.error) : '');
    setStatus(result.error ? '' : t('common.saved'));
  };
  return (
    <section aria-labelledby="account-name">
      <h2 id="account-name">{t('account.name.title')}</h2>
      <form className="inline-form" onSubmit={submit}>
        <label>
          {t('account.name.label')}
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={200} />
        </label>
        <button type="submit">{t('account.name.save')}</button>
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
  const { t } = useTranslation();
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
    setStatus(ended ? t('account.password.changedEnded', { count: ended }) : t('account.password.changed'));
    refresh();
  };
  return (
    <section aria-labelledby="account-password">
      <h2 id="account-password">{t('account.password.title')}</h2>
      <form className="inline-form" onSubmit={submit}>
        <label>
          {t('account.password.current')}
          <input
            type="password"
            autoComplete="current-password"
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
            required
          />
        </label>
        <label>
          {t('account.password.new')}
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
          {t('account.password.change')}
        </button>
      </form>
      <p role="status">{status}</p>
      {error && (
        <p role="alert" className="error">
          {error === 'currentPassword is wrong' ? t('account.password.wrong') : error}
        </p>
      )}
    </section>
  );
}

function Tokens({ tokens, refresh }: { tokens: AccountData['personalTokens']; refresh: () => void }) {
  const { t } = useTranslation();
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
      <h2 id="account-tokens">{t('account.tokens.title')}</h2>
      <p>
        <Trans i18nKey="account.tokens.intro" components={{ code: <code /> }} />
      </p>
      <form className="inline-form" onSubmit={submit}>
        <label>
          {t('account.tokens.name')}
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            maxLength={100}
            placeholder={t('account.tokens.namePlaceholder')}
          />
        </label>
        <label>
          {t('account.tokens.expires')}
          <input type="date" value={expires} onChange={(e) => setExpires(e.target.value)} />
        </label>
        <button type="submit">{t('account.tokens.create')}</button>
      </form>
      {fresh && (
        <div className="new-secret" role="status">
          <p>{t('account.tokens.fresh', { name: fresh.name })}</p>
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
              <th scope="col">{t('common.name')}</th>
              <th scope="col">{t('account.tokens.startsWith')}</th>
              <th scope="col">{t('common.created')}</th>
              <th scope="col">{t('common.lastUsed')}</th>
              <th scope="col">{t('common.expires')}</th>
              <th scope="col">{t('common.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => (
              <tr key={token.id}>
                <td>{token.name}</td>
                <td>
                  <code>{token.prefix}…</code>
                </td>
                <td>{when(token.createdAt)}</td>
                <td>{when(token.lastUsedAt, t('common.never'))}</td>
                <td>
                  {token.expired ? (
                    <span className="badge expired">{t('account.tokens.expired')}</span>
                  ) : (
                    when(token.expiresAt, t('common.never'))
                  )}
                </td>
                <td>
                  <button
                    type="button"
                    className="danger"
                    aria-label={t('account.tokens.revokeNamed', { name: token.name })}
                    onClick={() => setDoomed(token)}
                  >
                    {t('account.tokens.revoke')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {doomed && (
        <Confirm
          title={t('account.tokens.confirmTitle', { name: doomed.name })}
          confirmLabel={t('account.tokens.confirm')}
          onCancel={() => setDoomed(undefined)}
          onConfirm={() => void confirmRevoke(doomed.id)}
        >
          <p>{t('account.tokens.confirmText')}</p>
        </Confirm>
      )}
    </section>
  );
}

function Sessions({ sessions, refresh }: { sessions: AccountData['sessions']; refresh: () => void }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');
  const [, signOutOne] = useMutation(SignOutSession);
  const [, signOutOthers] = useMutation(SignOutOtherSessions);
  const others = sessions.filter((s) => !s.current).length;
  const endOthers = async () => {
    const result = await signOutOthers({});
    if (result.error) return setError(messageOf(result.error));
    setError('');
    setStatus(t('account.sessions.signedOut', { count: result.data!.signOutOtherSessions }));
    refresh();
  };
  const endOne = async (id: number) => {
    const result = await signOutOne({ id });
    setError(result.error ? messageOf(result.error) : '');
    refresh();
  };
  return (
    <section aria-labelledby="account-sessions">
      <h2 id="account-sessions">{t('account.sessions.title')}</h2>
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">{t('account.sessions.browser')}</th>
            <th scope="col">{t('account.sessions.signedIn')}</th>
            <th scope="col">{t('common.lastUsed')}</th>
            <th scope="col">{t('common.expires')}</th>
            <th scope="col">{t('common.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => (
            <tr key={s.id}>
              <td>
                {s.userAgent || t('account.sessions.unknown')}
                {s.current && (
                  <>
                    {' '}
                    <span className="badge">{t('account.sessions.current')}</span>
                  </>
                )}
              </td>
              <td>{when(s.createdAt)}</td>
              <td>{when(s.lastUsedAt)}</td>
              <td>{when(s.expiresAt)}</td>
              <td>
                {!s.current && (
                  <button type="button" onClick={() => void endOne(s.id)}>
                    {t('account.sessions.signOut')}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" disabled={others === 0} onClick={() => void endOthers()}>
        {t('account.sessions.signOutOthers')}
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
