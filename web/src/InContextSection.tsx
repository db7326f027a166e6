// In-context editing (docs/in-context.md): the origins from which a running
// application may use the project's in-context tokens, and the tokens
// themselves (made here, shown once, revoked here). Owners and administrators.
import { useTranslation } from 'react-i18next';
import { formatDateTime } from './i18n';
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

const LIFETIMES = ['1', '8', '24', '168', '744'] as const;

export function InContextSection({ projectToken }: { projectToken: string }) {
  const { t } = useTranslation();
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
    setStatus(list.length ? t('inContext.originsSaved', { count: list.length }) : t('inContext.noOrigin'));
    refresh();
  };
  const makeToken = async (event: FormEvent) => {
    event.preventDefault();
    const result = await create({ projectToken, input: { name, languages, capture, lifetimeHours: Number(lifetime) } });
    if (result.error) return setFailure(messageOf(result.error));
    if (!result.data) return;
    setFailure('');
    setMade(result.data.createInContextToken.token);
    setStatus(t('inContext.made'));
    setName('');
    refresh();
  };
  const revokeToken = async (id: number, label: string) => {
    const result = await revoke({ projectToken, id });
    if (result.error) return setFailure(messageOf(result.error));
    setStatus(t('inContext.revoked', { label }));
    refresh();
  };

  return (
    <section aria-labelledby="settings-in-context">
      <h2 id="settings-in-context">{t('inContext.title')}</h2>
      <p className="hint">{t('inContext.hint')}</p>
      {error && (
        <p role="alert" className="error">
          {messageOf(error)}
        </p>
      )}
      {data && (
        <>
          <form onSubmit={saveOrigins} aria-label={t('inContext.originsForm')} className="in-context-form">
            <label>
              {t('inContext.origins')}
              <textarea value={shown} rows={3} onChange={(e) => setOriginsText(e.target.value)} />
            </label>
            <button type="submit">{t('inContext.saveOrigins')}</button>
          </form>
          <form onSubmit={makeToken} aria-label={t('inContext.tokenForm')} className="in-context-form">
            <label>
              {t('inContext.tokenName')}
              <input
                value={name}
                maxLength={100}
                onChange={(e) => setName(e.target.value)}
                placeholder={t('inContext.tokenNamePlaceholder')}
              />
            </label>
            <fieldset>
              <legend>{t('inContext.languages')}</legend>
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
              <input type="checkbox" checked={capture} onChange={(e) => setCapture(e.target.checked)} />{' '}
              {t('inContext.capture')}
            </label>
            <label>
              {t('inContext.expiresAfter')}
              <select value={lifetime} onChange={(e) => setLifetime(e.target.value)}>
                {LIFETIMES.map((hours) => (
                  <option key={hours} value={hours}>
                    {t(`inContext.lifetime.${hours}`)}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit">{t('inContext.make')}</button>
          </form>
          {made && (
            <p>
              <code className="secret" aria-label={t('inContext.newToken')}>
                {made}
              </code>{' '}
              <CopyButton value={made} label={t('inContext.copy')} />
            </p>
          )}
          {data.inContextTokens.length > 0 && (
            <table aria-label={t('inContext.tokens')} className="data-table">
              <thead>
                <tr>
                  <th>{t('common.name')}</th>
                  <th>{t('inContext.token')}</th>
                  <th>{t('inContext.languagesColumn')}</th>
                  <th>{t('inContext.captureColumn')}</th>
                  <th>{t('common.expires')}</th>
                  <th>{t('common.lastUsed')}</th>
                  <th>
                    <span className="visually-hidden">{t('common.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.inContextTokens.map((token) => {
                  const label = token.name || `${token.prefix}…`;
                  return (
                    <tr key={token.id}>
                      <td>{token.name || '—'}</td>
                      <td>
                        <code>{token.prefix}…</code>
                      </td>
                      <td>{token.languages.length ? token.languages.join(', ') : t('inContext.all')}</td>
                      <td>{token.capture ? t('common.yes') : t('common.no')}</td>
                      <td>
                        {token.revokedAt
                          ? t('inContext.stateRevoked')
                          : token.active
                            ? formatDateTime(token.expiresAt as string)
                            : t('inContext.stateExpired')}
                      </td>
                      <td>{token.lastUsedAt ? formatDateTime(token.lastUsedAt as string) : t('common.never')}</td>
                      <td>
                        {token.active && (
                          <button
                            type="button"
                            onClick={() => revokeToken(token.id, label)}
                            aria-label={t('inContext.revokeLabel', { label })}
                          >
                            {t('inContext.revoke')}
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
