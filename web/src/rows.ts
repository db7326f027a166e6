// The editor's rows, loaded a window (page) at a time as the grid scrolls:
// only the pages in view are asked for, a filter change starts over and
// cancels the requests of the older filter (their responses are dropped).
// A filtered total may be a lower bound (the service counts a thousand keys
// past the window): it grows as windows further on arrive.
import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { client } from './client';
import { EditorRowsQuery, type Cell, type Row } from './documents';
import type { VariablesOf } from './graphql';
import { wordFailure } from './server-text';

export const PAGE_SIZE = 100;
/** Pages read ahead of the rows in view, in the direction of the scroll. */
const READ_AHEAD = 2;

export type RowsVariables = Omit<VariablesOf<typeof EditorRowsQuery>, 'offset' | 'limit'>;

export interface Rows {
  total: number | null;
  /** False when total is a lower bound (more keys match than were counted). */
  exact: boolean;
  error: string;
  row(index: number): Row | undefined;
  /** Loads the pages covering rows start..end (inclusive). */
  ensure(start: number, end: number): void;
  /** Replaces a cell of a loaded row; false when the row is not loaded. */
  setCell(key: string, namespace: string, cell: Partial<Cell> & { language: string }): boolean;
  findRow(key: string, namespace: string): Row | undefined;
  reload(): void;
}

export function useRows(variables: RowsVariables | undefined): Rows {
  const [, setTick] = useState(0);
  // stale: the pages shown belong to the previous filter; they stay on screen (and keep the focused
  // cell in the page) until the new filter's first window arrives.
  const state = useRef({
    generation: 0,
    total: null as number | null,
    exact: true,
    error: '',
    pages: new Map<number, Row[]>(),
    loading: new Set<number>(),
    stale: false,
    /** Cancels the requests in flight (a newer filter makes them useless). */
    inFlight: new Set<() => void>(),
    /** The first row in view at the last ensure (the scroll's direction). */
    lastStart: 0,
  });
  const rerender = useCallback(() => setTick((t) => t + 1), []);
  const key = JSON.stringify(variables);

  const load = useCallback(
    (page: number, generation: number) => {
      if (!variables) return;
      const s = state.current;
      s.loading.add(page);
      let done = false;
      let subscription: { unsubscribe(): void } | undefined;
      const cancel = () => {
        done = true;
        subscription?.unsubscribe();
        s.inFlight.delete(cancel);
      };
      s.inFlight.add(cancel);
      // Subscribed rather than awaited, so that a newer filter can tear the request down (urql aborts the fetch).
      subscription = client
        .query(EditorRowsQuery, { ...variables, offset: page * PAGE_SIZE, limit: PAGE_SIZE })
        .subscribe((result) => {
          if (done) return;
          cancel();
          if (s.generation !== generation) return;
          s.loading.delete(page);
          if (result.error) s.error = wordFailure(result.error);
          else if (result.data) {
            if (s.stale) {
              s.stale = false;
              s.pages = new Map();
              s.total = null;
            }
            s.error = '';
            const { totalCount, totalIsExact } = result.data.editorRows;
            // An exact count is the total; a lower bound only raises a lower bound.
            if (s.total === null || totalIsExact) {
              s.total = totalCount;
              s.exact = totalIsExact;
            } else if (!s.exact && totalCount > s.total) s.total = totalCount;
            s.pages.set(page, result.data.editorRows.keys);
          }
          // A window of new rows is a render in the background, in slices that yield to input, not one long
          // task (each cell runs its checks). Edits of a loaded row (setCell) stay urgent.
          startTransition(rerender);
        });
      // A cached answer arrives synchronously, before there was a subscription to end.
      if (done) subscription.unsubscribe();
    },
    [key, rerender],
  );

  const reset = useCallback(() => {
    const s = state.current;
    s.generation++;
    for (const cancel of [...s.inFlight]) cancel();
    s.stale = s.pages.size > 0;
    s.loading = new Set();
    void load(0, s.generation);
  }, [load]);

  useEffect(() => {
    state.current.total = null;
    reset();
  }, [reset]);

  const s = state.current;
  return {
    total: s.total,
    exact: s.exact,
    error: s.error,
    row: (index) => s.pages.get(Math.floor(index / PAGE_SIZE))?.[index % PAGE_SIZE],
    ensure(start, end) {
      if (s.stale) return;
      // Read ahead in the direction of the scroll, so that rows arrive before they are in view: rows
      // mounted a few at a time as they scroll in, not a window's worth at once when its page lands.
      const down = start >= s.lastStart;
      s.lastStart = start;
      const from = Math.max(0, start - (down ? 1 : READ_AHEAD) * PAGE_SIZE);
      const to = s.total === null ? end : Math.min(s.total - 1, end + (down ? READ_AHEAD : 1) * PAGE_SIZE);
      for (let page = Math.floor(from / PAGE_SIZE); page <= Math.floor(to / PAGE_SIZE); page++) {
        if (!s.pages.has(page) && !s.loading.has(page)) void load(page, s.generation);
      }
    },
    setCell(key, namespace, cell) {
      for (const [page, rows] of s.pages) {
        const i = rows.findIndex((r) => r.key === key && r.namespace === namespace);
        if (i < 0) continue;
        const row = rows[i]!;
        const translations = row.translations.map((c) => (c.language === cell.language ? { ...c, ...cell } : c));
        const copy = rows.slice();
        copy[i] = { ...row, translations };
        s.pages.set(page, copy);
        rerender();
        return true;
      }
      return false;
    },
    findRow(key, namespace) {
      for (const rows of s.pages.values()) {
        const found = rows.find((r) => r.key === key && r.namespace === namespace);
        if (found) return found;
      }
      return undefined;
    },
    reload: reset,
  };
}
