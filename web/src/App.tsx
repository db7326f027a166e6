// The console's screens, routed by the URL hash (#/ the projects, #/projects/<token>
// a project's screens, the editor first, #/account the account's settings) so that only `/` and the built assets are paths of the service.
import { lazy, Suspense, useCallback, useDeferredValue, useEffect, useState, type ReactNode } from 'react';
import { useQuery } from 'urql';
import { client, onSessionEnded, resetSocket } from './client';
import { graphql } from './graphql';
import { SignIn } from './SignIn';
import { Dashboard } from './Dashboard';
import { ProjectLayout } from './ProjectLayout';

// The account's settings and an invitation's page are chunks of their own, fetched when opened: the
// console's first script is the dashboard's and the editor's.
const InvitationPage = lazy(async () => ({ default: (await import('./InvitationPage')).InvitationPage }));
const AccountSettings = lazy(async () => ({ default: (await import('./AccountSettings')).AccountSettings }));
import { ThemePicker } from './theme';
import { useTranslation } from 'react-i18next';

const ViewerQuery = graphql(`query Viewer { viewer { email sessionExpiresAt } }`);
const SignOut = graphql(`mutation SignOut { signOut }`);

/** A screen of its own chunk: the loading page until it has arrived. */
function Loading({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Suspense
      fallback={
        <main className="loading" aria-busy="true">
          {t('app.loading')}
        </main>
      }
    >
      {children}
    </Suspense>
  );
}

function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const update = () => setHash(location.hash);
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return hash;
}

export function App() {
  const { t } = useTranslation();
  const [{ data: fetched, fetching }, refetch] = useQuery({ query: ViewerQuery });
  // The screen drawn for the viewer is a render in the background, in slices that yield to input.
  const data = useDeferredValue(fetched);
  const hash = useHash();
  const signedIn = useCallback(() => {
    resetSocket();
    refetch({ requestPolicy: 'network-only' });
  }, [refetch]);
  // Signed out elsewhere, or the session expired: the service closed the socket; back to the sign-in.
  useEffect(() => onSessionEnded(() => refetch({ requestPolicy: 'network-only' })), [refetch]);
  const signOut = async () => {
    await client.mutation(SignOut, {}).toPromise();
    resetSocket();
    location.hash = '#/';
    refetch({ requestPolicy: 'network-only' });
  };
  if (!data && (fetching || fetched))
    return (
      <main className="loading" aria-busy="true">
        {t('app.loading')}
      </main>
    );
  // An invitation link works signed out too: it is handled before the sign-in gate.
  const [, invitation] = /^#\/invitations\/([^/]+)/.exec(hash) ?? [];
  if (invitation)
    return (
      <Loading>
        <InvitationPage
          token={decodeURIComponent(invitation)}
          viewerEmail={data?.viewer?.email ?? null}
          onSignedIn={signedIn}
          onSignOut={signOut}
        />
      </Loading>
    );
  if (!data?.viewer) return <SignIn onSignedIn={signedIn} />;
  const [, project, section] = /^#\/projects\/([^/]+)(?:\/([a-z-]+))?/.exec(hash) ?? [];
  return (
    <div className="app">
      <header className="topbar">
        <a href="#/" className="brand">
          {t('app.product')}
        </a>
        <nav aria-label={t('app.accountNav')}>
          <span className="who">{data.viewer.email}</span>
          <ThemePicker />
          <a href="#/account" className="account-link" aria-current={hash.startsWith('#/account') ? 'page' : undefined}>
            {t('app.accountSettings')}
          </a>
          <button type="button" onClick={signOut}>
            {t('app.signOut')}
          </button>
        </nav>
      </header>
      {project ? (
        <ProjectLayout projectToken={decodeURIComponent(project)} section={section} />
      ) : hash.startsWith('#/account') ? (
        <Loading>
          <AccountSettings />
        </Loading>
      ) : (
        <Dashboard />
      )}
    </div>
  );
}
