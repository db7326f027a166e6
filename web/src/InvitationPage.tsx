// The page an invitation or role link opens (#/invitations/<token>), signed in
// or not: what the link offers (project, role), then either a new account
// (name, password) or the sign-in of an existing one, then acceptInvitation;
// it lands in the project.
import { Trans, useTranslation } from 'react-i18next';
import { formatDateTime, i18n } from './i18n';
import { useState, type FormEvent } from 'react';
import { useQuery } from 'urql';
import { client } from './client';
import { graphql } from './graphql';
import { messageOf } from './feedback';

const InvitationQuery = graphql(
  `query Invitation($token: String!) { invitation(token: $token) { projectName role email expiresAt accountExists } }`,
);
const AcceptInvitation = graphql(`
  mutation AcceptInvitation($token: String!, $email: String, $password: String, $name: String) {
    acceptInvitation(token: $token, email: $email, password: $password, name: $name) { projectToken }
  }
`);
const SignInMutation = graphql(
  `mutation InvitationSignIn($email: String!, $password: String!) { signIn(email: $email, password: $password) { email } }`,
);

const ROLES = ['ADMIN', 'TRANSLATOR', 'VIEWER', 'OWNER'] as const;
const roleText = (role: string) =>
  (ROLES as readonly string[]).includes(role) ? i18n.t(`invitation.role.${role as (typeof ROLES)[number]}`) : role;

interface Props {
  token: string;
  /** The signed-in account's e-mail address, if any. */
  viewerEmail: string | null;
  onSignedIn: () => void;
  onSignOut: () => void;
}

/** The invited address (an e-mail invitation), or a field for it (a role link). */
function EmailField({
  invited,
  value,
  onChange,
}: {
  invited: string | null;
  value: string;
  onChange: (v: string) => void;
}) {
  const { t } = useTranslation();
  if (invited) return <p>{t('invitation.email', { email: invited })}</p>;
  return (
    <label>
      {t('invitation.emailLabel')}
      <input type="email" autoComplete="username" required value={value} onChange={(e) => onChange(e.target.value)} />
    </label>
  );
}

export function InvitationPage({ token, viewerEmail, onSignedIn, onSignOut }: Props) {
  const { t } = useTranslation();
  const [{ data, error, fetching }] = useQuery({ query: InvitationQuery, variables: { token } });
  const [mode, setMode] = useState<'create' | 'signin' | null>(null);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);

  if (fetching && !data)
    return (
      <main className="signin invitation" aria-busy="true">
        {t('common.loading')}
      </main>
    );
  const offer = data?.invitation;
  if (!offer) {
    return (
      <main className="signin invitation">
        <h1>{t('invitation.title')}</h1>
        <p role="alert" className="error">
          {error ? messageOf(error) : t('invitation.invalid')}
        </p>
        <p>
          <a href="#/">{t('invitation.openConsole')}</a>
        </p>
      </main>
    );
  }
  const chosen = mode ?? (offer.accountExists ? 'signin' : 'create');
  const address = offer.email ?? email;

  /** Accepts (as the signed-in account, or creating one with the variables): the project's token, or why not. */
  const accept = async (variables: {
    email?: string;
    password?: string;
    name?: string;
  }): Promise<{ projectToken: string } | { refused: string }> => {
    const result = await client.mutation(AcceptInvitation, { token, ...variables }).toPromise();
    return result.error
      ? { refused: messageOf(result.error) }
      : { projectToken: result.data!.acceptInvitation.projectToken };
  };
  const signIn = async (): Promise<string | null> => {
    const result = await client.mutation(SignInMutation, { email: address, password }).toPromise();
    return result.error ? messageOf(result.error) : null;
  };
  const land = (projectToken: string) => {
    location.hash = `#/projects/${encodeURIComponent(projectToken)}`;
    onSignedIn();
  };
  const run = (work: () => Promise<void>) => async (event?: FormEvent) => {
    event?.preventDefault();
    setFailure('');
    setBusy(true);
    try {
      await work();
    } finally {
      setBusy(false);
    }
  };
  // Accepting creates the account (the answer's personal token is for API clients: the console signs in with the password instead).
  const create = run(async () => {
    const accepted = await accept({ email: offer.email ? undefined : email, password, name });
    if ('refused' in accepted) return setFailure(accepted.refused);
    const refused = await signIn();
    if (refused) return setFailure(refused);
    land(accepted.projectToken);
  });
  const signInAndAccept = run(async () => {
    const refused = await signIn();
    if (refused) return setFailure(refused);
    const accepted = await accept({});
    if ('refused' in accepted) {
      // Signed in either way: the page now shows the account, and why it could not join.
      setFailure(accepted.refused);
      return onSignedIn();
    }
    land(accepted.projectToken);
  });
  const acceptSignedIn = run(async () => {
    const accepted = await accept({});
    if ('refused' in accepted) return setFailure(accepted.refused);
    land(accepted.projectToken);
  });

  return (
    <main className="signin invitation">
      <h1>{t('invitation.join', { name: offer.projectName })}</h1>
      <p>
        <Trans
          i18nKey={offer.email ? 'invitation.invitedFor' : 'invitation.invited'}
          values={{ name: offer.projectName, role: roleText(offer.role), email: offer.email }}
          components={{ strong: <strong /> }}
        />
        {offer.expiresAt && (
          <>
            {' '}
            {t('invitation.expires', {
              when: formatDateTime(offer.expiresAt, { dateStyle: 'medium', timeStyle: 'short' }),
            })}
          </>
        )}
      </p>
      {failure && (
        <p role="alert" className="error">
          {failure}
        </p>
      )}
      {viewerEmail ? (
        <div className="invitation-actions">
          <p>{t('invitation.signedInAs', { email: viewerEmail })}</p>
          {offer.email && offer.email !== viewerEmail && (
            <p className="error">{t('invitation.otherAccount', { email: offer.email })}</p>
          )}
          <button type="button" onClick={() => acceptSignedIn()} disabled={busy}>
            {t('invitation.accept')}
          </button>
          <button type="button" onClick={onSignOut}>
            {t('invitation.signOut')}
          </button>
        </div>
      ) : chosen === 'create' ? (
        <form onSubmit={create}>
          <h2>{t('invitation.createTitle')}</h2>
          <EmailField invited={offer.email ?? null} value={email} onChange={setEmail} />
          <label>
            {t('invitation.name')}
            <input autoComplete="name" maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <label>
            {t('invitation.newPassword')}
            <input
              type="password"
              autoComplete="new-password"
              required
              minLength={8}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </label>
          <button type="submit" disabled={busy}>
            {t('invitation.createAndJoin')}
          </button>
          {!offer.email && (
            <button type="button" className="link" onClick={() => setMode('signin')}>
              {t('invitation.haveAccount')}
            </button>
          )}
        </form>
      ) : (
        <form onSubmit={signInAndAccept}>
          <h2>{t('invitation.signInTitle')}</h2>
          <EmailField invited={offer.email ?? null} value={email} onChange={setEmail} />
          <label>
            {t('invitation.password')}
            <input
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </label>
          <button type="submit" disabled={busy}>
            {t('invitation.signInAndJoin')}
          </button>
          {!offer.accountExists && (
            <button type="button" className="link" onClick={() => setMode('create')}>
              {t('invitation.createInstead')}
            </button>
          )}
        </form>
      )}
    </main>
  );
}
