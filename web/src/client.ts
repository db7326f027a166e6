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

function socket(): WsClient {
  ws ??= createWsClient({
    url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`,
    connectionParams: () => ({ 'x-csrf-token': csrfToken() }),
    lazy: true,
    retryAttempts: Infinity,
  });
  return ws;
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
