// In-context editing (docs/in-context.md): the origins from which a running
// application may use the project's in-context tokens, and the tokens
// themselves (made here, shown once, revoked here). Owners and administrators.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from './graphql';
import { CopyButton, messageOf } from './feedback';

const InContextQuery = graphql(`query InContextSettings($projectToken: String!) {
  inContextOrigins(projectToken: $projectToken)
  inContextTokens(projectToken: $projectToken) { id name prefix languages capture createdBy createdAt expiresAt revokedAt lastUsedAt active }
  project(projectToken: $projectToken) { languages { key name } }
}`);
const SetOrigins = graphql(
  `mutation SetInContextOrigins($projectToken: String!, $origins: [String!]!) { setInContextOrigins(projectToken: $projectToken, origins: $origins) }`,
);
const CreateToken = graphql(`mutation CreateInContextToken($projectToken: String!, $input: NewInContextTokenInput) {
  createInContextToken(projectToken: $projectToken, input: $input) { token inContextToken { id } }
}`);
const RevokeToken = graphql(
  `mutation RevokeInContextToken($projectToken: String!, $id: Int!) { revokeInContextToken(projectToken: $projectToken, id: $id) { id } }`,
);

const LIFETIMES = [
  ['1', '1 hour'],
  ['8', '8 hours'],
  ['24', '1 day'],
  ['168', '1 week'],
  ['744', '31 days'],
] as const;

export function InContextSection({ projectToken }: { projectToken: string }) {
  const [{ data, error }, refetch] = useQuery({ query: InContextQuery, variables: { projectToken } });
  const [, setOrigins] = useMutation(SetOrigins);
  const [, create] = useMutation(CreateToken);
  const [, revoke] = useMutation(RevokeToken);
  const [origins, setOriginsText] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [languages, setLanguages] = useState<string[]>([]);
  const [capture, setCapture] = useState(false);
  const [lifetime, setLifetime] = useState('24');
  const [made, setMade] = useState('');
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState('');
  const refresh = () => refetch({ requestPolicy: 'network-only' });
  const shown = origins ?? (data?.inContextOrigins ?? []).join('\n');

  const saveOrigins = async (event: FormEvent) => {
    event.preventDefault();
    const list = shown.split(/[\s,]+/).filter(Boolean);
    const result = await setOrigins({ projectToken, origins: list });
    if (result.error) return setFailure(messageOf(result.error));
    setFailure('');
    setOriginsText(null);
    setStatus(list.length ? `Allowed origins saved (${list.length})` : 'No origin is allowed now');
    refresh();
  };
  const makeToken = async (event: FormEvent) => {
    event.preventDefault();
    const result = await create({ projectToken, input: { name, languages, capture, lifetimeHours: Number(lifetime) } });
    if (result.error) return setFailure(messageOf(result.error));
    if (!result.data) return;
    setFailure('');
    setMade(result.data.createInContextToken.token);
    setStatus('In-context token made: copy it now, it is not shown again');
    setName('');
    refresh();
  };
  const revokeToken = async (id: number, label: string) => {
    const result = await revoke({ projectToken, id });
    if (result.error) return setFailure(messageOf(result.error));
    setStatus(`Revoked ${label}`);
    refresh();
  };

  return (
    <section aria-labelledby="settings-in-context">
      <h2 id="settings-in-context">In-context editing</h2>
      <p className="hint">
        Translators edit texts in the running application (Alt+click a text) with the i18next plugin. A token reads the
        project and writes texts of its languages only, from the origins below, until it expires or is revoked.
      </p>
      {error && (
        <p role="alert" className="error">
          {messageOf(error)}
        </p>
      )}
      {data && (
        <>
          <form onSubmit={saveOrigins} aria-label="Origins of in-context editing" className="in-context-form">
            <label>
              Allowed origins (one per line, e.g. https://staging.example.com)
              <textarea value={shown} rows={3} onChange={(e) => setOriginsText(e.target.value)} />
            </label>
            <button type="submit">Save origins</button>
          </form>
          <form onSubmit={makeToken} aria-label="Make an in-context token" className="in-context-form">
            <label>
              Token name
              <input value={name} maxLength={100} onChange={(e) => setName(e.target.value)} placeholder="staging app" />
            </label>
            <fieldset>
              <legend>Languages it may write (none checked: every language)</legend>
              {data.project.languages.map((l) => (
                <label key={l.key} className="check">
                  <input
                    type="checkbox"
                    checked={languages.includes(l.key)}
                    onChange={(e) =>
                      setLanguages((now) => (e.target.checked ? [...now, l.key] : now.filter((k) => k !== l.key)))
                    }
                  />
                  {l.name || l.key} ({l.key})
                </label>
              ))}
            </fieldset>
            <label className="check">
              <input type="checkbox" checked={capture} onChange={(e) => setCapture(e.target.checked)} /> May capture
              screenshots
            </label>
            <label>
              Expires after
              <select value={lifetime} onChange={(e) => setLifetime(e.target.value)}>
                {LIFETIMES.map(([hours, label]) => (
                  <option key={hours} value={hours}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit">Make token</button>
          </form>
          {made && (
            <p>
              <code className="secret" aria-label="New in-context token">
                {made}
              </code>{' '}
              <CopyButton value={made} label="Copy in-context token" />
            </p>
          )}
          {data.inContextTokens.length > 0 && (
            <table aria-label="In-context tokens" className="data-table">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Token</th>
                  <th>Languages</th>
                  <th>Capture</th>
                  <th>Expires</th>
                  <th>Last used</th>
                  <th>
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.inContextTokens.map((t) => {
                  const label = t.name || `${t.prefix}…`;
                  return (
                    <tr key={t.id}>
                      <td>{t.name || '—'}</td>
                      <td>
                        <code>{t.prefix}…</code>
                      </td>
                      <td>{t.languages.length ? t.languages.join(', ') : 'all'}</td>
                      <td>{t.capture ? 'yes' : 'no'}</td>
                      <td>
                        {t.revokedAt
                          ? 'revoked'
                          : t.active
                            ? new Date(t.expiresAt as string).toLocaleString()
                            : 'expired'}
                      </td>
                      <td>{t.lastUsedAt ? new Date(t.lastUsedAt as string).toLocaleString() : 'never'}</td>
                      <td>
                        {t.active && (
                          <button type="button" onClick={() => revokeToken(t.id, label)} aria-label={`Revoke ${label}`}>
                            Revoke
                          </button>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
        </>
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
