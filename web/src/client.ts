// The console's one GraphQL client: queries and mutations over HTTP POST
// /graphql with the session cookie (same origin) and the CSRF token the
// service set in the readable lms_csrf cookie; subscriptions over graphql-ws on
// the same path, the CSRF token in connectionParams.
import { Client, fetchExchange, subscriptionExchange } from 'urql';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';

export function csrfToken(): string {
  const entry = document.cookie.split('; ').find((c) => c.startsWith('lms_csrf='));
  return entry ? decodeURIComponent(entry.slice('lms_csrf='.length)) : '';
}

let ws: WsClient | undefined;

/** The service closes a session's sockets with 4401 when the session ends (sign-out elsewhere, expiry). */
const SESSION_ENDED = 4401;
const reconnected = new Set<() => void>();
const sessionEnded = new Set<() => void>();

/** Calls `listener` when the socket connects again after a drop (subscriptions missed what happened meanwhile). */
export function onReconnected(listener: () => void): () => void {
  reconnected.add(listener);
  return () => void reconnected.delete(listener);
}

/** Calls `listener` when the service ends the socket because the session ended. */
export function onSessionEnded(listener: () => void): () => void {
  sessionEnded.add(listener);
  return () => void sessionEnded.delete(listener);
}

function socket(): WsClient {
  ws ??= openSocket();
  return ws;
}

function openSocket(): WsClient {
  let connectedBefore = false;
  return createWsClient({
    url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`,
    connectionParams: () => ({ 'x-csrf-token': csrfToken() }),
    lazy: true,
    retryAttempts: Infinity,
    on: {
      connected: () => {
        if (connectedBefore) for (const listener of reconnected) listener();
        connectedBefore = true;
      },
      closed: (event) => {
        if ((event as CloseEvent | undefined)?.code === SESSION_ENDED) for (const listener of sessionEnded) listener();
      },
    },
  });
}

/** Closes the socket (after sign-in or sign-out: the next one carries the new cookie). */
export function resetSocket(): void {
  void ws?.dispose();
  ws = undefined;
}

export const client = new Client({
  url: '/graphql',
  // The editor keeps its own window of rows; screens ask the network each time.
  requestPolicy: 'network-only',
  fetchOptions: () => ({ credentials: 'same-origin', headers: { 'x-csrf-token': csrfToken() } }),
  exchanges: [
    fetchExchange,
    subscriptionExchange({
      forwardSubscription: (request) => ({
        subscribe: (sink) => ({ unsubscribe: socket().subscribe({ ...request, query: request.query ?? '' }, sink) }),
      }),
    }),
  ],
});
