// The page an invitation or role link opens (#/invitations/<token>), signed in
// or not: what the link offers (project, role), then either a new account
// (name, password) or the sign-in of an existing one, then acceptInvitation;
// it lands in the project.
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

const ROLE_TEXT: Record<string, string> = {
  ADMIN: 'an administrator (manages the project and its members)',
  TRANSLATOR: 'a translator',
  VIEWER: 'a viewer (reads and exports)',
  OWNER: 'the owner',
};

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
  if (invited) return <p>E-mail: {invited}</p>;
  return (
    <label>
      Email
      <input type="email" autoComplete="username" required value={value} onChange={(e) => onChange(e.target.value)} />
    </label>
  );
}

export function InvitationPage({ token, viewerEmail, onSignedIn, onSignOut }: Props) {
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
        Loading…
      </main>
    );
  const offer = data?.invitation;
  if (!offer) {
    return (
      <main className="signin invitation">
        <h1>Invitation</h1>
        <p role="alert" className="error">
          {error ? messageOf(error) : 'This invitation link is not valid.'}
        </p>
        <p>
          <a href="#/">Open the console</a>
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
      <h1>Join {offer.projectName}</h1>
      <p>
        You are invited to the project <strong>{offer.projectName}</strong> as {ROLE_TEXT[offer.role] ?? offer.role}
        {offer.email && <> (invitation for {offer.email})</>}.
        {offer.expiresAt && (
          <>
            {' '}
            The link expires on{' '}
            {new Date(offer.expiresAt).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' })}.
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
          <p>Signed in as {viewerEmail}.</p>
          {offer.email && offer.email !== viewerEmail && (
            <p className="error">
              This invitation is for {offer.email}: sign out and sign in as that account to accept it.
            </p>
          )}
          <button type="button" onClick={() => acceptSignedIn()} disabled={busy}>
            Accept the invitation
          </button>
          <button type="button" onClick={onSignOut}>
            Sign out
          </button>
        </div>
      ) : chosen === 'create' ? (
        <form onSubmit={create}>
          <h2>Create your account</h2>
          <EmailField invited={offer.email ?? null} value={email} onChange={setEmail} />
          <label>
            Name
            <input autoComplete="name" maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <label>
            Password (at least 8 characters)
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
            Create account and join
          </button>
          {!offer.email && (
            <button type="button" className="link" onClick={() => setMode('signin')}>
              I already have an account
            </button>
          )}
        </form>
      ) : (
        <form onSubmit={signInAndAccept}>
          <h2>Sign in to accept</h2>
          <EmailField invited={offer.email ?? null} value={email} onChange={setEmail} />
          <label>
            Password
            <input
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </label>
          <button type="submit" disabled={busy}>
            Sign in and join
          </button>
          {!offer.accountExists && (
            <button type="button" className="link" onClick={() => setMode('create')}>
              Create a new account instead
            </button>
          )}
        </form>
      )}
    </main>
  );
}
