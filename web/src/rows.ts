// The editor's rows, loaded a window (page) at a time as the grid scrolls:
// only the pages in view are asked for, a filter change starts over, and a
// response to an older filter is dropped.
import { useCallback, useEffect, useRef, useState } from 'react';
import { client } from './client';
import { EditorRowsQuery, type Cell, type Row } from './documents';
import type { VariablesOf } from './graphql';

export const PAGE_SIZE = 100;

export type RowsVariables = Omit<VariablesOf<typeof EditorRowsQuery>, 'offset' | 'limit'>;

export interface Rows {
  total: number | null;
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
  const state = useRef({ generation: 0, total: null as number | null, error: '', pages: new Map<number, Row[]>(), loading: new Set<number>(), stale: false });
  const rerender = useCallback(() => setTick((t) => t + 1), []);
  const key = JSON.stringify(variables);

  const load = useCallback(
    async (page: number, generation: number) => {
      if (!variables) return;
      const s = state.current;
      s.loading.add(page);
      const result = await client.query(EditorRowsQuery, { ...variables, offset: page * PAGE_SIZE, limit: PAGE_SIZE }).toPromise();
      if (s.generation !== generation) return;
      s.loading.delete(page);
      if (result.error) s.error = result.error.graphQLErrors[0]?.message ?? result.error.message;
      else if (result.data) {
        if (s.stale) {
          s.stale = false;
          s.pages = new Map();
        }
        s.error = '';
        s.total = result.data.editorRows.totalCount;
        s.pages.set(page, result.data.editorRows.keys);
      }
      rerender();
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [key, rerender],
  );

  const reset = useCallback(() => {
    const s = state.current;
    s.generation++;
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
    error: s.error,
    row: (index) => s.pages.get(Math.floor(index / PAGE_SIZE))?.[index % PAGE_SIZE],
    ensure(start, end) {
      if (s.stale) return;
      for (let page = Math.floor(start / PAGE_SIZE); page <= Math.floor(end / PAGE_SIZE); page++) {
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
