// The translation editor: keys × chosen languages in a virtualized grid (only
// the rows in view are in the page, and only their windows are loaded), the
// filters of the v2 query plus tags and deprecated, inline editing through
// updateTranslation (the write gate) with optimistic concurrency on the cell's
// lastModifiedAt, keyboard navigation, checks while typing, live updates.
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useQuery } from 'urql';
import { client, onReconnected } from './client';
import {
  ContentEdits,
  EditorProject,
  TranslationChanges,
  UpdateTranslation,
  type Cell,
  type CellChange,
} from './documents';
import { useRows, type RowsVariables } from './rows';
import { KeyPanel, NewKeyForm } from './KeyPanel';
import { Modal } from './Modal';
import {
  EditorGrid,
  type Address,
  type CellActions,
  type CellStatus,
  type Editing,
  type GridHandle,
} from './EditorGrid';
import { EmptyProject } from './EmptyProject';
import { Onboarding } from './Onboarding';
import { EditorQualityFilters, filtersFromAddress, type QualityFilters } from './EditorQualityFilters';
import { count } from './wording';
import { useTranslation } from 'react-i18next';
import { messageOf } from './feedback';
import { wordError } from './server-text';

const NEVER = '1970-01-01T00:00:00.000Z';

interface Filters extends QualityFilters {
  keyContains: string;
  text: string;
  textStatus: '' | 'EMPTY' | 'NOT_EMPTY';
  reviewStatus: '' | 'REVIEWED' | 'NOT_REVIEWED';
  namespace: string;
  tags: string;
  deprecated: '' | 'true' | 'false';
  customerId: string;
  problems: boolean;
  screenshots: '' | 'true' | 'false';
}

const NO_FILTERS: Filters = {
  key: '',
  findingCheck: '',
  findingSeverity: '',
  keyContains: '',
  text: '',
  textStatus: '',
  reviewStatus: '',
  namespace: '',
  tags: '',
  deprecated: '',
  customerId: '',
  problems: false,
  screenshots: '',
};

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

const errorOf = (error: {
  graphQLErrors: { message: string; extensions?: Record<string, unknown> }[];
  message: string;
}) => error.graphQLErrors[0] ?? { message: error.message, extensions: {} };

export function Editor({ projectToken }: { projectToken: string }) {
  const { t } = useTranslation();
  const [{ data: fetched, error: metaError }, refetchMeta] = useQuery({
    query: EditorProject,
    variables: { projectToken },
  });
  // The editor drawn with its project (filters, header, checklist) is a render in the background, in
  // slices that yield to input, rather than one long task when the answer lands.
  const meta = useDeferredValue(fetched);
  const project = meta?.project;
  // The address may carry filters (a link from the Quality screen); they apply as the editor opens.
  const [address] = useState(filtersFromAddress);
  const [filters, setFilters] = useState<Filters>({ ...NO_FILTERS, ...address.filters });
  const [chosen, setChosen] = useState<string[] | null>(address.languages);
  const [active, setActive] = useState<Address>({ row: 0, col: 1 });
  const [editing, setEditing] = useState<Editing | null>(null);
  const [selected, setSelectedKey] = useState<{ key: string; namespace: string } | null>(null);
  // What the key panel opens with: the outcome of a save that renamed its key (the renamed key gets a new panel).
  const [panelNotice, setPanelNotice] = useState<string>();
  const setSelected = useCallback((address: { key: string; namespace: string } | null, notice?: string) => {
    setPanelNotice(notice);
    setSelectedKey(address);
  }, []);
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState('');
  // The last save's outcome on its cell; the next action (an edit, a move, a review) clears it, and the messages with it.
  const [cellStatus, setCellStatus] = useState<CellStatus | null>(null);
  const [wrap, setWrap] = useState(false);
  const [moreFilters, setMoreFilters] = useState(() =>
    Object.keys(address.filters).some((name) => !['keyContains', 'text', 'textStatus', 'reviewStatus'].includes(name)),
  );
  const nextAction = useCallback(() => {
    setCellStatus(null);
    setStatus('');
    setFailure('');
  }, []);
  const defaultLanguage = project?.languages.find((l) => l.isDefault)?.key ?? project?.languages[0]?.key ?? '';
  const languages = chosen ?? project?.languages.map((l) => l.key) ?? [];
  const languageNames = useMemo(() => new Map((project?.languages ?? []).map((l) => [l.key, l.name])), [project]);
  const typed = useDebounced(filters, 80);

  // Every language (the editor opens so): the rows' query needs nothing from the project's metadata,
  // so both queries go out at once. Chosen languages are fetched with the default one (the checks' source).
  const variables: RowsVariables | undefined = useMemo(() => {
    if (chosen !== null && !project) return undefined;
    const f = typed;
    return {
      projectToken,
      languages: chosen === null ? null : [...new Set([...chosen, defaultLanguage])],
      customerKey: f.customerId || null,
      withBase: !!f.customerId,
      filter: {
        keyContains: f.keyContains || null,
        key: f.key || null,
        findingCheck: f.findingCheck || null,
        findingSeverity: f.findingSeverity || null,
        text: f.text || null,
        textStatus: f.textStatus || null,
        reviewStatus: f.reviewStatus || null,
        namespace: f.namespace === '' ? null : f.namespace === '(default)' ? '' : f.namespace,
        tags: f.tags.trim()
          ? f.tags
              .split(',')
              .map((tag) => tag.trim())
              .filter(Boolean)
          : null,
        deprecated: f.deprecated === '' ? null : f.deprecated === 'true',
        languages: chosen,
        customerKey: f.customerId || null,
        problems: f.problems || null,
        screenshots: f.screenshots === '' ? null : f.screenshots === 'true',
      },
    };
  }, [chosen === null || !!project, typed, chosen?.join(','), defaultLanguage, projectToken]);

  const rows = useRows(variables);
  const total = rows.total ?? 0;
  // Live (the change subscriptions): cells written elsewhere replace the shown ones in the view they
  // belong to (base texts, or the shown customer's); the cell being edited keeps the draft and shows theirs.
  // Content edits (keys created, renamed, locked or deleted, languages, customers) reload the rows, once
  // the edit in progress has ended (a reload may move rows under the edited one's index).
  const editingRef = useRef(editing);
  editingRef.current = editing;
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  const viewRef = useRef<string | null>(null);
  viewRef.current = variables?.customerKey ?? null;
  const reloadWanted = useRef(false);
  const reloadTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const refetchMetaRef = useRef(refetchMeta);
  refetchMetaRef.current = refetchMeta;
  const reloadLive = useCallback(() => {
    if (!reloadWanted.current || editingRef.current) return;
    reloadWanted.current = false;
    rowsRef.current.reload();
    refetchMetaRef.current({ requestPolicy: 'network-only' });
  }, []);
  const reloadSoon = useCallback(() => {
    reloadWanted.current = true;
    clearTimeout(reloadTimer.current);
    reloadTimer.current = setTimeout(reloadLive, 100);
  }, [reloadLive]);
  useEffect(() => {
    if (!editing) reloadLive();
  }, [editing, reloadLive]);
  useEffect(() => {
    const apply = (change: CellChange) => {
      if (!change.language) return;
      const rows = rowsRef.current;
      const view = viewRef.current;
      const row = rows.findRow(change.key, change.namespace);
      const cell = row?.translations.find((c) => c.language === change.language);
      if (!row || !cell) return;
      if (change.customerKey !== null && change.customerKey !== view) return;
      // A base text under the shown customer's own text: the "base:" line, which only a reload refreshes.
      if (change.customerKey === null && view !== null && cell.isOverride) return reloadSoon();
      if (cell.lastModifiedAt && Date.parse(change.at) <= Date.parse(cell.lastModifiedAt)) return;
      const theirs = { text: change.newText, reviewStatus: change.newReviewStatus, lastModifiedAt: change.at };
      const edit = editingRef.current;
      if (edit && rows.row(edit.row) === row && edit.language === change.language && change.customerKey === view) {
        if (theirs.lastModifiedAt !== edit.base.lastModifiedAt && theirs.text !== edit.draft)
          setEditing({ ...edit, theirs });
        return;
      }
      rows.setCell(change.key, change.namespace, {
        language: change.language,
        ...theirs,
        ...(change.customerKey !== null ? { isOverride: true } : {}),
      });
    };
    // Changes come one message each: a burst (a job's batch, an import) is applied together, in one render.
    let pending: CellChange[] = [];
    let flushTimer: ReturnType<typeof setTimeout> | undefined;
    const cells = client.subscription(TranslationChanges, { projectToken }).subscribe((result) => {
      if (!result.data) return;
      pending.push(result.data.translationChanges);
      flushTimer ??= setTimeout(() => {
        flushTimer = undefined;
        const batch = pending;
        pending = [];
        for (const change of batch) apply(change);
      }, 30);
    });
    const edits = client.subscription(ContentEdits, { projectToken }).subscribe((result) => {
      if ((result.data?.projectActivity.edits ?? 0) > 0) reloadSoon();
    });
    // Back after a drop: what changed meanwhile is read again.
    const stopReconnected = onReconnected(reloadSoon);
    return () => {
      cells.unsubscribe();
      edits.unsubscribe();
      stopReconnected();
      clearTimeout(flushTimer);
      clearTimeout(reloadTimer.current);
    };
  }, [projectToken, reloadSoon]);

  const columns = ['', ...languages];
  const grid = useRef<GridHandle>(null);
  const focusCell = useCallback((address: Address) => {
    setActive(address);
    grid.current?.focusCell(address);
  }, []);

  const startEditing = (rowIndex: number, language: string, typed?: string) => {
    const row = rows.row(rowIndex);
    const cell = row?.translations.find((c) => c.language === language);
    if (!row || !cell) return;
    if (editingRef.current?.row === rowIndex && editingRef.current.language === language) return;
    nextAction();
    if (row.lock) {
      setFailure(t('editor.locked', { key: row.key }));
      return;
    }
    const text = filters.customerId && !cell.isOverride ? '' : cell.text;
    setEditing({
      row: rowIndex,
      language,
      // A character typed on the cell replaces its text, as in a spreadsheet.
      draft: typed ?? text,
      base: { text, lastModifiedAt: cell.isOverride || !filters.customerId ? cell.lastModifiedAt : null },
    });
  };

  const save = async (edit: Editing, expected?: string | null) => {
    const row = rows.row(edit.row);
    if (!row) return setEditing(null);
    if (expected === undefined && edit.draft === edit.base.text) return setEditing(null);
    setStatus(t('editor.saving', { key: row.key, language: edit.language }));
    const at = { row: edit.row, language: edit.language };
    setCellStatus({ ...at, kind: 'saving' });
    const result = await client
      .mutation(UpdateTranslation, {
        projectToken,
        input: {
          key: row.key,
          namespace: row.namespace,
          language: edit.language,
          text: edit.draft,
          customerKey: filters.customerId || null,
          expectedLastModifiedAt: (expected === undefined ? edit.base.lastModifiedAt : expected) ?? NEVER,
        },
      })
      .toPromise();
    if (result.error) {
      const error = errorOf(result.error);
      const current = (error.extensions as { current?: Editing['theirs'] } | undefined)?.current;
      if (current) {
        setStatus('');
        setCellStatus(null);
        setEditing({ ...edit, theirs: current, dialog: true });
        return;
      }
      setStatus('');
      setFailure(t('editor.notSaved', { message: wordError(error) }));
      setCellStatus({ ...at, kind: 'failed' });
      setEditing(null);
      return;
    }
    const cell = result.data!.updateTranslation;
    rows.setCell(row.key, row.namespace, cell);
    setStatus(t('editor.saved', { key: row.key, language: edit.language }));
    setCellStatus({ ...at, kind: 'saved' });
    setFailure('');
    setEditing(null);
    // The header's progress counts translated keys: a text filled or emptied moves it.
    if (!edit.base.text !== !edit.draft) refetchMeta({ requestPolicy: 'network-only' });
    focusCell({ row: edit.row, col: columns.indexOf(edit.language) });
  };

  const takeTheirs = (edit: Editing) => {
    const row = rows.row(edit.row);
    if (row && edit.theirs)
      rows.setCell(row.key, row.namespace, {
        language: edit.language,
        text: edit.theirs.text,
        lastModifiedAt: edit.theirs.lastModifiedAt,
        ...(edit.theirs.reviewStatus ? { reviewStatus: edit.theirs.reviewStatus as Cell['reviewStatus'] } : {}),
      });
    setEditing(null);
    setStatus(t('editor.keptTheirs'));
    focusCell({ row: edit.row, col: columns.indexOf(edit.language) });
  };

  const toggleReview = async (rowIndex: number, language: string) => {
    const row = rows.row(rowIndex);
    const cell = row?.translations.find((c) => c.language === language);
    if (!row || !cell) return;
    nextAction();
    const reviewStatus = cell.reviewStatus === 'REVIEWED' ? 'NOT_REVIEWED' : 'REVIEWED';
    const result = await client
      .mutation(UpdateTranslation, {
        projectToken,
        input: {
          key: row.key,
          namespace: row.namespace,
          language,
          reviewStatus,
          customerKey: filters.customerId || null,
        },
      })
      .toPromise();
    if (result.error) return setFailure(t('editor.notSaved', { message: messageOf(result.error) }));
    rows.setCell(row.key, row.namespace, result.data!.updateTranslation);
    setStatus(t(reviewStatus === 'REVIEWED' ? 'editor.reviewed' : 'editor.notReviewed', { key: row.key, language }));
  };

  // One stable object of cell actions, so that memoized cells re-render only when their own props change.
  const moveTo = (address: Address) => {
    if (address.row !== active.row || address.col !== active.col) setCellStatus(null);
    setActive(address);
  };
  const latest = { moveTo, startEditing, setEditing, save, focusCell, toggleReview };
  const latestRef = useRef(latest);
  latestRef.current = latest;
  const actions: CellActions = useMemo(
    () => ({
      focus: (row, col) => latestRef.current.moveTo({ row, col }),
      start: (row, language) => latestRef.current.startEditing(row, language),
      draft: (text) => latestRef.current.setEditing((e) => (e ? { ...e, draft: text } : e)),
      save: (edit) => void latestRef.current.save(edit),
      cancel: (row, col) => {
        latestRef.current.setEditing(null);
        latestRef.current.focusCell({ row, col });
      },
      toggleReview: (row, language) => void latestRef.current.toggleReview(row, language),
    }),
    [],
  );

  const onGridKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (editing || (event.target as HTMLElement).closest('textarea, input, button, dialog')) return;
    const move = (row: number, col: number) => {
      event.preventDefault();
      nextAction();
      focusCell({ row: Math.max(0, Math.min(total - 1, row)), col: Math.max(0, Math.min(columns.length - 1, col)) });
    };
    const { row, col } = active;
    switch (event.key) {
      case 'ArrowDown':
        return move(row + 1, col);
      case 'ArrowUp':
        return move(row - 1, col);
      case 'ArrowLeft':
        return move(row, col - 1);
      case 'ArrowRight':
        return move(row, col + 1);
      case 'PageDown':
        return move(row + 10, col);
      case 'PageUp':
        return move(row - 10, col);
      case 'Home':
        return move(event.ctrlKey ? 0 : row, 0);
      case 'End':
        return move(event.ctrlKey ? total - 1 : row, columns.length - 1);
      case 'Enter':
      case 'F2': {
        event.preventDefault();
        const r = rows.row(row);
        if (col === 0) {
          if (r) setSelected({ key: r.key, namespace: r.namespace });
        } else startEditing(row, columns[col]!);
        return;
      }
      case ' ':
        if (col > 0) {
          event.preventDefault();
          void toggleReview(row, columns[col]!);
        }
        return;
    }
    // A printable character on a text cell starts editing with it (Space stays the review toggle).
    if (col > 0 && [...event.key].length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      startEditing(row, columns[col]!, event.key);
    }
  };

  if (metaError)
    return (
      <main>
        <p role="alert" className="error">
          {messageOf(metaError)}
        </p>
      </main>
    );
  if (!project) return <main aria-busy="true">{t('common.loading')}</main>;
  const set = (patch: Partial<Filters>) => {
    nextAction();
    setFilters((f) => ({ ...f, ...patch }));
  };
  const filtered = Object.entries(filters).some(([name, value]) => value !== NO_FILTERS[name as keyof Filters]);
  const empty = rows.total === 0 && !filtered && project.keys === 0;
  const secondary = moreFilters ? undefined : true;

  return (
    <main className="editor">
      <div className="editor-head">
        <h1>{project.name}</h1>
        <p className="count" aria-live="polite">
          {rows.total === null
            ? t('editor.loadingKeys')
            : rows.exact
              ? count(total, 'key')
              : t('editor.atLeast', { count: count(total, 'key') })}
        </p>
        <label className="check">
          <input type="checkbox" checked={wrap} onChange={(e) => setWrap(e.target.checked)} /> {t('editor.wrap')}
        </label>
        <NewKeyForm
          projectToken={projectToken}
          onCreated={() => {
            rows.reload();
            refetchMeta({ requestPolicy: 'network-only' });
          }}
        />
      </div>
      <Onboarding projectToken={projectToken} state={project.onboarding} />
      <form className="filters" aria-label={t('editor.filters')} onSubmit={(e) => e.preventDefault()}>
        <label>
          {t('editor.keyContains')}{' '}
          <input type="search" value={filters.keyContains} onChange={(e) => set({ keyContains: e.target.value })} />
        </label>
        <label>
          {t('editor.textContains')}{' '}
          <input type="search" value={filters.text} onChange={(e) => set({ text: e.target.value })} />
        </label>
        <label>
          {t('editor.textStatus')}
          <select
            value={filters.textStatus}
            onChange={(e) => set({ textStatus: e.target.value as Filters['textStatus'] })}
          >
            <option value="">{t('editor.any')}</option>
            <option value="EMPTY">{t('editor.empty')}</option>
            <option value="NOT_EMPTY">{t('editor.notEmpty')}</option>
          </select>
        </label>
        <label>
          {t('editor.reviewStatus')}
          <select
            value={filters.reviewStatus}
            onChange={(e) => set({ reviewStatus: e.target.value as Filters['reviewStatus'] })}
          >
            <option value="">{t('editor.any')}</option>
            <option value="REVIEWED">{t('editor.reviewedOption')}</option>
            <option value="NOT_REVIEWED">{t('editor.notReviewedOption')}</option>
          </select>
        </label>
        <label hidden={secondary}>
          {t('editor.namespace')}
          <select value={filters.namespace} onChange={(e) => set({ namespace: e.target.value })}>
            <option value="">{t('editor.all')}</option>
            <option value="(default)">{t('editor.defaultNamespace')}</option>
            {project.namespaces.map((n) => (
              <option key={n.name} value={n.name}>
                {n.name}
              </option>
            ))}
          </select>
        </label>
        <label hidden={secondary}>
          {t('editor.tags')}{' '}
          <input
            value={filters.tags}
            placeholder={t('editor.tagsPlaceholder')}
            onChange={(e) => set({ tags: e.target.value })}
          />
        </label>
        <label hidden={secondary}>
          {t('editor.deprecated')}
          <select
            value={filters.deprecated}
            onChange={(e) => set({ deprecated: e.target.value as Filters['deprecated'] })}
          >
            <option value="">{t('editor.any')}</option>
            <option value="true">{t('editor.deprecatedOption')}</option>
            <option value="false">{t('editor.notDeprecated')}</option>
          </select>
        </label>
        <label hidden={secondary}>
          {t('editor.customer')}
          <select value={filters.customerId} onChange={(e) => set({ customerId: e.target.value })}>
            <option value="">{t('editor.baseTexts')}</option>
            {project.customers.map((c) => (
              <option key={c.key} value={c.key}>
                {c.key}
              </option>
            ))}
          </select>
        </label>
        <label hidden={secondary}>
          {t('editor.screenshots')}
          <select
            value={filters.screenshots}
            onChange={(e) => set({ screenshots: e.target.value as Filters['screenshots'] })}
          >
            <option value="">{t('editor.any')}</option>
            <option value="true">{t('editor.withScreenshot')}</option>
            <option value="false">{t('editor.withoutScreenshot')}</option>
          </select>
        </label>
        {moreFilters && <EditorQualityFilters projectToken={projectToken} value={filters} onChange={set} />}
        <label hidden={secondary} className="check">
          <input type="checkbox" checked={filters.problems} onChange={(e) => set({ problems: e.target.checked })} />{' '}
          {t('editor.problems')}
        </label>
        <fieldset className="languages">
          <legend>{t('editor.languages')}</legend>
          {project.languages.map((l) => (
            <label key={l.key} className="check">
              <input
                type="checkbox"
                checked={languages.includes(l.key)}
                onChange={(e) =>
                  setChosen(
                    e.target.checked
                      ? project.languages.map((x) => x.key).filter((k) => k === l.key || languages.includes(k))
                      : languages.filter((k) => k !== l.key),
                  )
                }
              />
              {l.key}
            </label>
          ))}
        </fieldset>
        <button type="button" aria-expanded={moreFilters} onClick={() => setMoreFilters((m) => !m)}>
          {moreFilters ? t('editor.fewerFilters') : t('editor.moreFilters')}
        </button>
        <button
          type="button"
          onClick={() => {
            nextAction();
            setFilters(NO_FILTERS);
          }}
        >
          {t('editor.clearFilters')}
        </button>
      </form>
      {/* For screen readers; the eye finds the outcome on the cell. */}
      <p className="sr-only" role="status">
        {status}
      </p>
      {/* A toast over the page, not a line above the grid: its coming and going must not move the rows under the pointer. */}
      {(failure || rows.error) && (
        <p className="toast failure pinned" role="alert">
          {failure || rows.error}
        </p>
      )}
      {empty ? (
        <EmptyProject projectToken={projectToken} defaultLanguage={defaultLanguage} />
      ) : (
        <div className="editor-body">
          <EditorGrid
            ref={grid}
            projectToken={projectToken}
            rows={rows}
            total={total}
            languages={languages}
            languageNames={languageNames}
            translated={project.translatedKeysByLanguage as Record<string, number>}
            keyCount={project.keys}
            wrap={wrap}
            cellStatus={cellStatus}
            defaultLanguage={defaultLanguage}
            customer={filters.customerId}
            active={active}
            editing={editing}
            actions={actions}
            onActivate={setActive}
            onSelect={(address) => setSelected(address)}
            onKeyDown={onGridKeyDown}
          />
          {selected && (
            <KeyPanel
              key={`${selected.namespace}\u0000${selected.key}`}
              projectToken={projectToken}
              address={selected}
              defaultLanguage={defaultLanguage}
              row={rows.findRow(selected.key, selected.namespace)}
              notice={panelNotice}
              onClose={() => setSelected(null)}
              onChanged={(address, notice) => {
                setSelected(address, notice);
                rows.reload();
                refetchMeta({ requestPolicy: 'network-only' });
              }}
            />
          )}
        </div>
      )}
      {editing?.dialog && editing.theirs && (
        <ConflictDialog
          mine={editing.draft}
          theirs={editing.theirs.text}
          onKeepMine={() => void save({ ...editing, dialog: false }, editing.theirs!.lastModifiedAt)}
          onTakeTheirs={() => takeTheirs(editing)}
        />
      )}
    </main>
  );
}

function ConflictDialog({
  mine,
  theirs,
  onKeepMine,
  onTakeTheirs,
}: {
  mine: string;
  theirs: string;
  onKeepMine(): void;
  onTakeTheirs(): void;
}) {
  const { t } = useTranslation();
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => first.current?.focus(), []);
  return (
    // No Escape: both texts stay until the user keeps one of them.
    <Modal labelledBy="conflict-title">
      <h2 id="conflict-title">{t('editor.conflict.title')}</h2>
      <div className="versions">
        <section aria-label={t('editor.conflict.yours')}>
          <h3>{t('editor.conflict.yours')}</h3>
          <p className="version mine">{mine}</p>
        </section>
        <section aria-label={t('editor.conflict.theirs')}>
          <h3>{t('editor.conflict.theirs')}</h3>
          <p className="version theirs">{theirs}</p>
        </section>
      </div>
      <div className="actions">
        <button type="button" ref={first} onClick={onKeepMine}>
          {t('editor.conflict.keepMine')}
        </button>
        <button type="button" onClick={onTakeTheirs}>
          {t('editor.conflict.takeTheirs')}
        </button>
      </div>
    </Modal>
  );
}
