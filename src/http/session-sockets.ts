// The WebSockets of web console sessions. A socket that ran an operation signed
// in by a session is closed (4401) when that session ends, so its live
// subscriptions stop delivering:
//   - sign-out, on any instance: the 'session-ended' event (through Redis with
//     several instances; src/auth/sessions.ts publishes it);
//   - expiry, or the row deleted any other way: each instance looks at the
//     sessions of its sockets every SWEEP_MS.
// New operations on any socket are refused already: each one resolves its
// credentials anew (graphql.ts's onSubscribe), and an ended session is none.
import type { WebSocket } from 'ws';
import { prisma } from '../db.js';
import { events } from '../events/pubsub.js';

const SWEEP_MS = 2_000;
/** graphql-ws's Unauthorized: its clients do not reconnect on it. */
const CLOSE_CODE = 4401;
const CLOSE_REASON = 'The session has ended; sign in again';

export interface SessionSockets {
  /** Closes `socket` when the session ends. */
  track(sessionId: number, socket: WebSocket): void;
  stop(): Promise<void>;
}

export function watchSessionSockets(): SessionSockets {
  const bySession = new Map<number, Set<WebSocket>>();

  const close = (sessionId: number) => {
    const sockets = bySession.get(sessionId);
    bySession.delete(sessionId);
    for (const socket of sockets ?? []) socket.close(CLOSE_CODE, CLOSE_REASON);
  };

  const ended = events().subscribe('session-ended')[Symbol.asyncIterator]();
  const listening = (async () => {
    for (;;) {
      const next = await ended.next();
      if (next.done) return;
      close(next.value.sessionId);
    }
  })();

  let sweeping = false;
  const sweep = async () => {
    if (sweeping || bySession.size === 0) return;
    sweeping = true;
    try {
      const ids = [...bySession.keys()];
      const live = await prisma().session.findMany({
        where: { id: { in: ids }, expiresAt: { gt: new Date() } },
        select: { id: true },
      });
      const alive = new Set(live.map((s) => s.id));
      for (const id of ids) if (!alive.has(id)) close(id);
    } catch {
      // The database is unreachable: looked at again on the next sweep.
    } finally {
      sweeping = false;
    }
  };
  const timer = setInterval(() => void sweep(), SWEEP_MS);
  timer.unref();

  return {
    track(sessionId, socket) {
      let sockets = bySession.get(sessionId);
      if (!sockets) bySession.set(sessionId, (sockets = new Set()));
      if (sockets.has(socket)) return;
      sockets.add(socket);
      socket.once('close', () => {
        const current = bySession.get(sessionId);
        current?.delete(socket);
        if (current?.size === 0) bySession.delete(sessionId);
      });
    },
    async stop() {
      clearInterval(timer);
      await ended.return?.();
      await listening;
    },
  };
}
