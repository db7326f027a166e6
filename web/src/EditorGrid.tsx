// The editor's grid: the column headers and the virtualized rows (only the
// rows in view are in the page). Its own component, so that a scroll renders
// the grid alone, not the editor around it (filters, key panel); the editor
// keeps the state (active cell, the edit) and moves the focus through
// GridHandle.focusCell.
import { i18n } from './i18n';
import {
  memo,
  useCallback,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type Ref,
} from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Row } from './documents';
import type { Rows } from './rows';
import { checkFindings } from '../../src/console/checks';
import { wordMessage } from './server-text';
import { CellHelp } from './CellHelp';
import { count } from './wording';

/** A compact row: one line of text (25 keys and more in view at 1440×900); "Wrap texts" lets rows grow to their texts. */
export const ROW_HEIGHT = 26;
/** The header row's height: it sticks to the top of the scrolled box, so scrolling to a row leaves room for it. */
const HEADER_HEIGHT = 44;
/** The narrowest the key column and a language column get (the columns' template says the same). */
const KEY_COLUMN_MIN = 220;
const LANGUAGE_COLUMN_MIN = 200;

export interface Editing {
  row: number;
  language: string;
  draft: string;
  /** The cell as read when editing started (its version is sent with the save). */
  base: { text: string; lastModifiedAt: string | null };
  /** The cell as someone else wrote it meanwhile (live update or a refused save). */
  theirs?: { text: string; lastModifiedAt: string | null; reviewStatus?: string };
  dialog?: boolean;
}

/** The outcome of the last save, shown on its cell until the next action starts. */
export interface CellStatus {
  row: number;
  language: string;
  kind: 'saving' | 'saved' | 'failed';
}

const statusWords = (kind: CellStatus['kind']) => i18n.t(`grid.status.${kind}`);

export type Address = { row: number; col: number };

export interface GridHandle {
  /** Scrolls the cell into view and focuses it once it is rendered. */
  focusCell(address: Address): void;
}

interface EditorGridProps {
  ref: Ref<GridHandle>;
  /** For the memory and glossary help of the cell being edited. */
  projectToken: string;
  rows: Rows;
  total: number;
  languages: string[];
  /** Column header text of each language. */
  languageNames: Map<string, string>;
  /** Translated keys of each language, for the progress in its column header. */
  translated: Record<string, number>;
  /** Keys of the project (the progress's whole). */
  keyCount: number;
  /** Texts wrap and rows grow to them; otherwise one line a row. */
  wrap: boolean;
  cellStatus: CellStatus | null;
  defaultLanguage: string;
  customer: string;
  active: Address;
  editing: Editing | null;
  actions: CellActions;
  onActivate(address: Address): void;
  onSelect(address: { key: string; namespace: string }): void;
  onKeyDown(event: KeyboardEvent<HTMLDivElement>): void;
}

export function EditorGrid({
  ref,
  projectToken,
  rows,
  total,
  languages,
  languageNames,
  translated,
  keyCount,
  wrap,
  cellStatus,
  defaultLanguage,
  customer,
  active,
  editing,
  actions,
  onActivate,
  onSelect,
  onKeyDown,
}: EditorGridProps) {
  const scroller = useRef<HTMLDivElement>(null);
  // The header is the first child of the scrolled box (sticky): it follows a horizontal scroll without script.
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    scrollMargin: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
    // Rows of a scroll render in React's next task instead of synchronously inside the scroll event:
    // the event stays short; overscan covers the frame in between.
    useFlushSync: false,
  });
  // Wrapped rows are measured as they render; compact ones are all ROW_HEIGHT.
  useLayoutEffect(() => virtualizer.measure(), [wrap, virtualizer]);
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  useEffect(() => {
    if (total > 0) rows.ensure(first, last);
  });

  // A cell to focus once it is rendered (it may first need to be scrolled into the window).
  const pendingFocus = useRef<Address | null>(null);
  const [, setFocusTick] = useState(0);
  const focusCell = useCallback(
    (address: Address) => {
      pendingFocus.current = address;
      virtualizer.scrollToIndex(address.row, { align: 'auto' });
      setFocusTick((t) => t + 1);
    },
    [virtualizer],
  );
  useImperativeHandle(ref, () => ({ focusCell }), [focusCell]);
  // A layout effect: the focus is back on the cell in the same task as the render that ends an edit,
  // so a key pressed right after the save or Esc goes to the grid, not to the page.
  useLayoutEffect(() => {
    const address = pendingFocus.current;
    if (!address) return;
    const element = document.querySelector<HTMLElement>(`[data-cell="${address.row}:${address.col}"]`);
    if (element) {
      pendingFocus.current = null;
      element.focus();
    }
  });

  const template = `minmax(${KEY_COLUMN_MIN}px, 1.2fr) repeat(${languages.length}, minmax(${LANGUAGE_COLUMN_MIN}px, 1fr))`;
  // Rows are as wide as their columns need (narrow screens scroll sideways), so each row can contain its own painting.
  const minWidth = KEY_COLUMN_MIN + LANGUAGE_COLUMN_MIN * languages.length;
  return (
    <div
      className={`grid${wrap ? ' wrap' : ''}`}
      role="grid"
      aria-label={i18n.t('grid.label')}
      aria-rowcount={total + 1}
      aria-colcount={languages.length + 1}
      onKeyDown={onKeyDown}
    >
      <div className="grid-scroll" ref={scroller} data-testid="grid-scroll" style={{ scrollPaddingTop: HEADER_HEIGHT }}>
        <div
          className="grid-header"
          role="row"
          aria-rowindex={1}
          style={{ gridTemplateColumns: template, height: HEADER_HEIGHT, minWidth }}
        >
          <div role="columnheader" className="key-head">
            {i18n.t('grid.key')}
          </div>
          {languages.map((l) => {
            const name = `${languageNames.get(l) ?? l} (${l})`;
            const percent = keyCount ? Math.floor(((translated[l] ?? 0) / keyCount) * 100) : 0;
            return (
              <div role="columnheader" key={l} className="language-head">
                <span className="language-name">{name}</span>
                <span className="language-progress">
                  <progress max={100} value={percent} aria-label={i18n.t('grid.translated', { name })} />
                  <span>{i18n.t('dashboard.percent', { value: percent })}</span>
                </span>
              </div>
            );
          })}
        </div>
        <div
          style={{ height: virtualizer.getTotalSize() - HEADER_HEIGHT, minWidth, position: 'relative' }}
          role="rowgroup"
        >
          {items.map((item) => (
            <GridRow
              key={item.key}
              projectToken={projectToken}
              index={item.index}
              start={item.start - HEADER_HEIGHT}
              measure={wrap ? virtualizer.measureElement : undefined}
              status={cellStatus && cellStatus.row === item.index ? cellStatus : null}
              row={rows.row(item.index)}
              languages={languages}
              template={template}
              defaultLanguage={defaultLanguage}
              customer={customer}
              activeCol={active.row === item.index ? active.col : -1}
              editing={editing && editing.row === item.index ? editing : null}
              actions={actions}
              onActivate={onActivate}
              onSelect={onSelect}
            />
          ))}
        </div>
      </div>
    </div>
  );
}

export interface CellActions {
  focus(row: number, col: number): void;
  start(row: number, language: string): void;
  draft(text: string): void;
  save(edit: Editing): void;
  cancel(row: number, col: number): void;
  toggleReview(row: number, language: string): void;
}

interface GridRowProps {
  projectToken: string;
  index: number;
  start: number;
  /** Measures the row's height (wrapped texts). */
  measure: ((element: HTMLElement | null) => void) | undefined;
  status: CellStatus | null;
  row: Row | undefined;
  languages: string[];
  template: string;
  defaultLanguage: string;
  customer: string;
  /** The active column when the active cell is in this row, else -1. */
  activeCol: number;
  editing: Editing | null;
  actions: CellActions;
  onActivate(address: Address): void;
  onSelect(address: { key: string; namespace: string }): void;
}

// A row re-renders only when its own props change: scrolling renders the rows coming into view, not
// every row in the page (the languages array is compared by content: the editor rebuilds it).
const GridRow = memo(
  function GridRow({
    projectToken,
    index,
    start,
    measure,
    status,
    row,
    languages,
    template,
    defaultLanguage,
    customer,
    activeCol,
    editing,
    actions,
    onActivate,
    onSelect,
  }: GridRowProps) {
    return (
      <div
        role="row"
        ref={measure}
        data-index={index}
        aria-rowindex={index + 2}
        className={`grid-row${row?.lock ? ' locked' : ''}${editing ? ' editing' : ''}`}
        style={{
          transform: `translateY(${start}px)`,
          ...(measure ? { minHeight: ROW_HEIGHT } : { height: ROW_HEIGHT }),
          gridTemplateColumns: template,
        }}
      >
        {row ? (
          <>
            <div
              role="rowheader"
              className={`key-cell${activeCol === 0 ? ' active' : ''}`}
              tabIndex={activeCol === 0 ? 0 : -1}
              data-cell={`${index}:0`}
              onFocus={() => onActivate({ row: index, col: 0 })}
              onClick={() => onSelect({ key: row.key, namespace: row.namespace })}
              aria-label={`${row.namespace ? `${row.namespace}:` : ''}${row.key}${row.lock ? i18n.t('grid.keyLocked') : ''}${row.deprecated ? i18n.t('grid.keyDeprecated') : ''}`}
            >
              <span className="key-name">{row.key}</span>
              <span className="key-meta">
                {row.namespace && <span className="badge">{row.namespace}</span>}
                {row.lock && <span className="badge lock">{i18n.t('grid.locked')}</span>}
                {row.deprecated && <span className="badge deprecated">{i18n.t('grid.deprecated')}</span>}
                {row.tags.map((tag) => (
                  <span key={tag} className="badge tag">
                    {tag}
                  </span>
                ))}
              </span>
            </div>
            {languages.map((language, i) => (
              <GridCell
                key={language}
                projectToken={projectToken}
                row={row}
                rowIndex={index}
                col={i + 1}
                language={language}
                defaultLanguage={defaultLanguage}
                customer={customer}
                active={activeCol === i + 1}
                editing={editing && editing.language === language ? editing : null}
                status={status && status.language === language ? status.kind : null}
                actions={actions}
              />
            ))}
          </>
        ) : (
          <div role="gridcell" className="placeholder" aria-busy="true">
            <span className="skeleton" />
            <span className="sr-only">Loading…</span>
          </div>
        )}
      </div>
    );
  },
  (a, b) => {
    for (const key of Object.keys(a) as (keyof GridRowProps)[]) {
      if (key === 'languages' ? a.languages.join('\u0000') !== b.languages.join('\u0000') : a[key] !== b[key])
        return false;
    }
    return true;
  },
);

interface GridCellProps {
  projectToken: string;
  row: Row;
  rowIndex: number;
  col: number;
  language: string;
  defaultLanguage: string;
  customer: string;
  active: boolean;
  editing: Editing | null;
  status: CellStatus['kind'] | null;
  actions: CellActions;
}

const GridCell = memo(function GridCell({
  projectToken,
  row,
  rowIndex,
  col,
  language,
  defaultLanguage,
  customer,
  active,
  editing,
  status,
  actions,
}: GridCellProps) {
  const onFocus = () => actions.focus(rowIndex, col);
  const onStart = () => actions.start(rowIndex, language);
  const onDraft = actions.draft;
  const onSave = actions.save;
  const onCancel = () => actions.cancel(rowIndex, col);
  const onToggleReview = () => actions.toggleReview(rowIndex, language);
  const cell = row.translations.find((c) => c.language === language);
  const base = row.base?.find((c) => c.language === language);
  const source =
    language === defaultLanguage ? '' : (row.translations.find((c) => c.language === defaultLanguage)?.text ?? '');
  const shown = editing ? editing.draft : (cell?.text ?? '');
  // The consistency checks compare the cell with other keys: the updater stores them, for the base text as saved.
  const storedText = cell && !cell.isOverride ? cell.text : null;
  const problems = useMemo(
    () => [
      ...checkFindings(shown, {
        source,
        charactersLimit: row.charactersLimit ?? null,
        sourceLanguage: defaultLanguage,
        targetLanguage: language,
      }).map((f) => wordMessage('checks', f.text, f.message)),
      ...(shown === storedText
        ? row.consistencyFindings
            .filter((f) => f.languageCode === language && f.severity !== 'info')
            .map((f) => wordMessage('checks', f.messageText, f.message))
        : []),
    ],
    [shown, source, row.charactersLimit, defaultLanguage, language, storedText, row.consistencyFindings],
  );
  // Saved or cancelled: the blur that follows must not save again.
  const finished = useRef(false);
  const wasEditing = useRef(false);
  if (!!editing !== wasEditing.current) {
    wasEditing.current = !!editing;
    if (editing) finished.current = false;
  }
  const label = i18n.t('grid.cellLabel', { key: row.key, language });
  if (editing) {
    return (
      <div role="gridcell" className="cell editing" aria-rowindex={rowIndex + 2} aria-colindex={col + 1}>
        <textarea
          autoFocus
          aria-label={i18n.t('grid.translationOf', { label })}
          value={editing.draft}
          aria-invalid={problems.length > 0}
          aria-describedby={`problems-${rowIndex}-${col}`}
          onChange={(e) => onDraft(e.target.value)}
          // The caret after the text: typing a character on a cell starts the edit with it, and goes on after it.
          onFocus={(e) => e.target.setSelectionRange(e.target.value.length, e.target.value.length)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              finished.current = true;
              onSave(editing);
            } else if (e.key === 'Escape') {
              e.preventDefault();
              finished.current = true;
              onCancel();
            }
          }}
          onBlur={() => {
            if (!finished.current && !editing.dialog) {
              finished.current = true;
              onSave(editing);
            }
          }}
        />
        <div className="cell-pop">
          <div className="cell-foot" id={`problems-${rowIndex}-${col}`}>
            <span
              className={`counter${row.charactersLimit != null && editing.draft.length > row.charactersLimit ? ' over' : ''}`}
            >
              {row.charactersLimit != null
                ? i18n.t('grid.counterLimit', {
                    length: editing.draft.length,
                    limit: count(row.charactersLimit, 'character'),
                  })
                : count(editing.draft.length, 'character')}
            </span>
            {problems.map((p) => (
              <span key={p} className="problem">
                {p}
              </span>
            ))}
            {editing.theirs && (
              <span className="problem" role="alert">
                {i18n.t('grid.changedMeanwhile', { text: editing.theirs.text })}
              </span>
            )}
          </div>
          <CellHelp
            projectToken={projectToken}
            keyName={row.key}
            namespace={row.namespace}
            language={language}
            source={source}
            sourceLanguage={defaultLanguage}
            draft={editing.draft}
            onInsert={onDraft}
          />
        </div>
      </div>
    );
  }
  const text = cell?.text ?? '';
  const inherited = customer && cell && !cell.isOverride;
  return (
    <div
      role="gridcell"
      className={`cell${active ? ' active' : ''}${problems.length ? ' has-problems' : ''}`}
      tabIndex={active ? 0 : -1}
      data-cell={`${rowIndex}:${col}`}
      aria-rowindex={rowIndex + 2}
      aria-colindex={col + 1}
      aria-readonly={row.lock}
      aria-label={`${label}: ${text || i18n.t('grid.empty')}${cell?.reviewStatus === 'REVIEWED' ? i18n.t('grid.cellReviewed') : ''}${problems.length ? `, ${problems.join('; ')}` : ''}${status ? `, ${statusWords(status).toLowerCase()}` : ''}`}
      onFocus={onFocus}
      onClick={onStart}
      onDoubleClick={onStart}
    >
      <span className={`text${text ? '' : ' empty'}${inherited ? ' inherited' : ''}`}>
        {text || i18n.t('grid.empty')}
      </span>
      {customer && cell?.isOverride && base && (
        <span className="base-text">{i18n.t('grid.base', { text: base.text })}</span>
      )}
      {inherited && <span className="base-text">{i18n.t('grid.inherited')}</span>}
      <span className="cell-tools">
        {status && (
          <span className={`cell-status ${status}`} aria-hidden="true">
            {statusWords(status)}
          </span>
        )}
        {problems.length > 0 && (
          <span className="warn" title={problems.join('\n')} aria-hidden="true">
            ⚠
          </span>
        )}
        <button
          type="button"
          tabIndex={-1}
          className={`review${cell?.reviewStatus === 'REVIEWED' ? ' on' : ''}`}
          aria-pressed={cell?.reviewStatus === 'REVIEWED'}
          aria-label={i18n.t('grid.reviewedToggle', { label })}
          onClick={(event) => {
            // The review mark, not an edit of the cell.
            event.stopPropagation();
            onToggleReview();
          }}
        >
          ✓
        </button>
      </span>
    </div>
  );
});
