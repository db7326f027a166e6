// Live cell updates for open editors: the translations of a project written
// since the subscription started, whatever wrote them (REST, GraphQL, import,
// a job, another browser). Every text write goes through the write gate, which
// stamps lastModifiedAt; one poller per project reads the rows stamped since
// its last look over the (projectId, lastModifiedAt) index and hands them to
// that project's subscribers.
// A write's stamp is its transaction's time, possibly before an earlier look
// if it commits late: each look goes back LOOKBACK_MS and drops the versions
// already handed out.
// (To be replaced by the change-history subscription when it lands on main.)
import { prisma } from '../db.js';

export interface CellUpdate {
  key: string;
  namespace: string;
  language: string;
  text: string;
  reviewStatus: string;
  lastModifiedAt: Date;
}

const POLL_MS = 300;
const LOOKBACK_MS = 5_000;

type Listener = (updates: CellUpdate[]) => void;

interface Poller {
  listeners: Set<Listener>;
  timer?: NodeJS.Timeout;
  since: Date;
  /** Only writes after the first subscriber came are news. */
  started: Date;
  /** Versions handed out within the lookback window: `keyId:languageId:time`. */
  seen: Map<string, number>;
  running: boolean;
}

const pollers = new Map<number, Poller>();

async function look(projectId: number, poller: Poller): Promise<void> {
  if (poller.running) return;
  poller.running = true;
  try {
    const now = Date.now();
    const from = new Date(Math.min(poller.since.getTime(), now) - LOOKBACK_MS);
    const rows = await prisma().$queryRawUnsafe<(CellUpdate & { keyId: number; languageId: number })[]>(
      `SELECT t."keyId", t."languageId", k.key, k.namespace, l.key AS language, t.text, t."reviewStatus"::text AS "reviewStatus", t."lastModifiedAt"
         FROM "Translation" t JOIN "TranslationKey" k ON k.id = t."keyId" JOIN "Language" l ON l.id = t."languageId"
        WHERE t."projectId" = $1 AND t."lastModifiedAt" >= $2 AND t."lastModifiedAt" >= $3
        ORDER BY t."lastModifiedAt" LIMIT 1000`,
      projectId, from, poller.started,
    );
    for (const [version, at] of poller.seen) if (at < from.getTime()) poller.seen.delete(version);
    const fresh = rows.filter((r) => {
      const version = `${r.keyId}:${r.languageId}:${r.lastModifiedAt.getTime()}`;
      if (poller.seen.has(version)) return false;
      poller.seen.set(version, r.lastModifiedAt.getTime());
      return true;
    });
    poller.since = new Date(now);
    if (fresh.length) {
      const updates = fresh.map(({ keyId: _k, languageId: _l, ...update }) => update);
      for (const listener of poller.listeners) listener(updates);
    }
  } catch {
    // A failed look (database restarting) is retried on the next tick.
  } finally {
    poller.running = false;
  }
}

/** Calls listener with batches of updated cells until the returned function is called. */
export function watchProjectCells(projectId: number, listener: Listener): () => void {
  let poller = pollers.get(projectId);
  if (!poller) {
    const started = new Date();
    poller = { listeners: new Set(), since: started, started, seen: new Map(), running: false };
    const p = poller;
    p.timer = setInterval(() => void look(projectId, p), POLL_MS);
    p.timer.unref();
    pollers.set(projectId, p);
  }
  poller.listeners.add(listener);
  const own = poller;
  return () => {
    own.listeners.delete(listener);
    if (own.listeners.size === 0) {
      clearInterval(own.timer);
      pollers.delete(projectId);
    }
  };
}
