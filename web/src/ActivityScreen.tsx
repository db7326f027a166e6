// A project's activity log: newest first, a page at a time ("Load more"),
// filtered by actor, kind and time; each entry is a sentence (activity-words.ts); an entry opens its counts and the cells it
// wrote (before and after, the changed words marked); a change that wrote cells can be reverted where the
// viewer may (revertChange needs IMPORT), and so can one of its cells
// (revertTranslation: TRANSLATE in the cell's language). New entries arrive
// live through the projectActivity subscription.
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatNumber, i18n } from './i18n';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from 'urql';
import { readFragment } from 'gql.tada';
import { client } from './client';
import { graphql, type ResultOf, type VariablesOf } from './graphql';
import { messageOf } from './feedback';
import { count } from './wording';
import { Confirm } from './Confirm';
import { TextDiff } from './TextDiff';
import { detailsInWords, sentenceOf } from './activity-words';

const EntryFields = graphql(`
  fragment ActivityEntryFields on ActivityEntry {
    id kind trigger source at cellsChanged edits details revertOf
    actor { kind id name email }
  }
`);
const ActivityMeta = graphql(`
  query ActivityMeta($projectToken: String!) {
    project(projectToken: $projectToken) { name myPermissions myLanguages }
    members(projectToken: $projectToken) { accountId email name }
  }
`);
const ActivityQuery = graphql(
  `
  query Activity($projectToken: String!, $filter: ActivityFilter, $page: Int!, $size: Int!) {
    activity(projectToken: $projectToken, filter: $filter, page: $page, size: $size) { total entries { ...ActivityEntryFields } }
  }
`,
  [EntryFields],
);
const ActivityCells = graphql(`
  query ActivityCells($projectToken: String!, $id: ID!, $page: Int!) {
    activityEntry(projectToken: $projectToken, id: $id) {
      cells(page: $page, size: 100) { id key namespace language customerKey oldText newText oldReviewStatus newReviewStatus }
    }
  }
`);
const LiveActivity = graphql(
  `
  subscription LiveActivity($projectToken: String!) { projectActivity(projectToken: $projectToken) { ...ActivityEntryFields } }
`,
  [EntryFields],
);
const RevertTranslation = graphql(`
  mutation RevertTranslation($projectToken: String!, $cellChangeId: ID!) {
    revertTranslation(projectToken: $projectToken, cellChangeId: $cellChangeId) { reverted }
  }
`);
const RevertChange = graphql(`
  mutation RevertChange($projectToken: String!, $activityId: ID!) {
    revertChange(projectToken: $projectToken, activityId: $activityId) {
      reverted changedSince refusedLocked refusedCharactersLimit gone deletedKeys deletedLanguages deletedCustomers keptCount kept { kind key namespace reason }
    }
  }
`);

type Entry = ResultOf<typeof EntryFields>;
type Filter = NonNullable<VariablesOf<typeof ActivityQuery>['filter']>;
type Cell = NonNullable<ResultOf<typeof ActivityCells>['activityEntry']>['cells'][number];

const PAGE_SIZE = 50;

const KINDS = [
  'TRANSLATIONS',
  'IMPORT',
  'KEYS',
  'LANGUAGES',
  'CUSTOMERS',
  'AUTO_TRANSLATION',
  'JOB_STARTED',
  'JOB_FINISHED',
  'REVERT',
  'PURGE',
  'EXPORT',
  'PUBLICATION',
  'SETTINGS',
  'AUTOMATION',
] as const satisfies readonly Entry['kind'][];
const kindLabel = (kind: Entry['kind']) => i18n.t(`activity.kind.${kind}`);
const sourceLabel = (source: Entry['source']) => i18n.t(`activity.source.${source}`);

function actorOf(actor: Entry['actor']): string {
  switch (actor.kind) {
    case 'ACCOUNT':
      return actor.name ?? actor.email ?? i18n.t('activity.actor.account', { id: actor.id });
    case 'API_KEY':
      return i18n.t('activity.actor.apiKey');
    case 'JOB':
      return i18n.t('activity.actor.job', { id: actor.id });
    case 'AUTOMATION':
      return actor.name
        ? i18n.t('activity.actor.automation', { name: actor.name })
        : i18n.t('activity.actor.automationRule', { id: actor.id });
    default:
      return i18n.t('activity.actor.system');
  }
}

/** "1 cell", "3 cells". */

type RevertOutcome = ResultOf<typeof RevertChange>['revertChange'];

/** Entries without cells that created something, which their revert deletes. */
const CREATING = new Set(['CREATE_KEY', 'CREATE_LANGUAGE', 'CREATE_CUSTOMER']);

/** What a revert did: "Reverted 3 cells; 1 cell changed since (kept)." */
function describeRevert(r: RevertOutcome): string {
  const refused = r.refusedLocked + r.refusedCharactersLimit;
  const t = i18n.t;
  return (
    [
      t('activity.revert.reverted', { cells: count(r.reverted, 'cell') }),
      r.changedSince && t('activity.revert.changedSince', { cells: count(r.changedSince, 'cell') }),
      refused && t('activity.revert.refused', { cells: count(refused, 'cell') }),
      r.gone && t('activity.revert.gone', { cells: count(r.gone, 'cell') }),
      r.deletedKeys && t('activity.revert.deletedKeys', { keys: count(r.deletedKeys, 'key') }),
      r.deletedLanguages.length && t('activity.revert.deletedLanguages', { languages: r.deletedLanguages.join(', ') }),
      r.deletedCustomers.length && t('activity.revert.deletedCustomers', { customers: r.deletedCustomers.join(', ') }),
      r.keptCount &&
        t('activity.revert.kept', {
          count: r.keptCount,
          items: `${r.kept.map((k) => `${k.namespace ? `${k.namespace}/` : ''}${k.key} (${t(`activity.kept.${k.reason}`)})`).join(', ')}${r.keptCount > r.kept.length ? ' …' : ''}`,
        }),
    ]
      .filter(Boolean)
      .join('; ') + '.'
  );
}

const timeOf = (iso: string) => formatDateTime(iso);

/** The form's fields as the API's filter ("" is no condition; times are the browser's local time). */
interface Fields {
  actor: string;
  kind: string;
  from: string;
  to: string;
}
const NO_FIELDS: Fields = { actor: '', kind: '', from: '', to: '' };

function filterOf(f: Fields): Filter {
  const [actorKind, actorId] = f.actor.split(':');
  return {
    actorKind: (actorKind || null) as Filter['actorKind'],
    actorId: actorId || null,
    kinds: f.kind ? [f.kind as Entry['kind']] : null,
    from: f.from ? new Date(f.from).toISOString() : null,
    to: f.to ? new Date(f.to).toISOString() : null,
  };
}

/** Whether a live entry belongs in the filtered list (the same conditions as the service's). */
function matches(entry: Entry, filter: Filter): boolean {
  if (filter.actorKind && entry.actor.kind !== filter.actorKind) return false;
  if (filter.actorId && entry.actor.id !== filter.actorId) return false;
  if (filter.kinds?.length && !filter.kinds.includes(entry.kind)) return false;
  if (filter.from && entry.at < filter.from) return false;
  if (filter.to && entry.at >= filter.to) return false;
  return true;
}

export function ActivityScreen({ projectToken }: { projectToken: string }) {
  const { t } = useTranslation();
  const [{ data: meta, error: metaError }] = useQuery({ query: ActivityMeta, variables: { projectToken } });
  const [fields, setFields] = useState<Fields>(NO_FIELDS);
  const filter = filterOf(fields);
  const filterKey = JSON.stringify(filter);
  const [entries, setEntries] = useState<Entry[]>([]);
  const [total, setTotal] = useState<number | null>(null);
  const [page, setPage] = useState(0);
  const [loading, setLoading] = useState(false);
  const [failure, setFailure] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  // What the viewer may revert: a whole change with IMPORT; one cell with TRANSLATE in the cell's language.
  const mayRevert: MayRevert = useMemo(() => {
    const permissions = meta?.project.myPermissions ?? [];
    const languages = meta?.project.myLanguages ?? [];
    return {
      change: permissions.includes('IMPORT'),
      cell: (language) =>
        language !== null &&
        permissions.includes('TRANSLATE') &&
        (languages.length === 0 || languages.includes(language)),
    };
  }, [meta]);

  /** Loads one page; later pages are appended (entries that arrived live meanwhile shift the pages: kept once). */
  const generation = useRef(0);
  const load = useCallback(
    async (pageNo: number) => {
      const mine = ++generation.current;
      setLoading(true);
      const result = await client
        .query(ActivityQuery, { projectToken, filter: JSON.parse(filterKey) as Filter, page: pageNo, size: PAGE_SIZE })
        .toPromise();
      if (mine !== generation.current) return;
      setLoading(false);
      if (result.error) return setFailure(messageOf(result.error));
      const got = result.data!.activity;
      setFailure('');
      setTotal(got.total);
      setPage(pageNo);
      setEntries((shown) => {
        const base = pageNo === 0 ? [] : shown;
        const seen = new Set(base.map((e) => e.id));
        return [...base, ...readFragment(EntryFields, got.entries).filter((e) => !seen.has(e.id))];
      });
    },
    [projectToken, filterKey],
  );

  useEffect(() => {
    setOpen(null);
    void load(0);
  }, [load]);

  // Live: entries committed from now on, on top when they pass the filter.
  const filterRef = useRef(filter);
  filterRef.current = filter;
  useEffect(() => {
    const subscription = client.subscription(LiveActivity, { projectToken }).subscribe((result) => {
      const entry = result.data && readFragment(EntryFields, result.data.projectActivity);
      if (!entry || !matches(entry, filterRef.current)) return;
      setEntries((shown) => (shown.some((e) => e.id === entry.id) ? shown : [entry, ...shown]));
      setTotal((n) => (n === null ? n : n + 1));
    });
    return () => subscription.unsubscribe();
  }, [projectToken]);

  if (metaError)
    return (
      <main className="activity">
        <p role="alert" className="error">
          {messageOf(metaError)}
        </p>
      </main>
    );
  const set = (patch: Partial<Fields>) => setFields((f) => ({ ...f, ...patch }));
  return (
    <main className="activity">
      <div className="team-head">
        <h1>{meta ? t('activity.titleOf', { name: meta.project.name }) : t('activity.title')}</h1>
        <p className="count" aria-live="polite">
          {total === null ? t('common.loading') : count(total, 'entry')}
        </p>
      </div>
      <form className="filters" aria-label={t('activity.filter')} onSubmit={(e) => e.preventDefault()}>
        <label>
          {t('activity.actorLabel')}
          <select value={fields.actor} onChange={(e) => set({ actor: e.target.value })}>
            <option value="">{t('activity.anyone')}</option>
            {meta?.members.map((m) => (
              <option key={m.accountId} value={`ACCOUNT:${m.accountId}`}>
                {m.name ? `${m.name} (${m.email})` : m.email}
              </option>
            ))}
            <option value="API_KEY">{t('activity.theApiKey')}</option>
            <option value="JOB">{t('activity.jobs')}</option>
            <option value="SYSTEM">{t('activity.theSystem')}</option>
          </select>
        </label>
        <label>
          {t('activity.kindLabel')}
          <select value={fields.kind} onChange={(e) => set({ kind: e.target.value })}>
            <option value="">{t('activity.any')}</option>
            {KINDS.map((value) => (
              <option key={value} value={value}>
                {kindLabel(value)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('activity.from')}
          <input type="datetime-local" value={fields.from} onChange={(e) => set({ from: e.target.value })} />
        </label>
        <label>
          {t('activity.until')}
          <input type="datetime-local" value={fields.to} onChange={(e) => set({ to: e.target.value })} />
        </label>
        <button type="button" onClick={() => setFields(NO_FIELDS)}>
          {t('activity.clear')}
        </button>
      </form>
      {failure && (
        <p role="alert" className="error">
          {failure}
        </p>
      )}
      <ol className="entries" aria-label={t('activity.entries')}>
        {entries.map((e) => (
          <EntryItem
            key={e.id}
            entry={e}
            projectToken={projectToken}
            mayRevert={mayRevert}
            open={open === e.id}
            onToggle={() => setOpen(open === e.id ? null : e.id)}
          />
        ))}
      </ol>
      {total === 0 && (
        <section className="empty-state" aria-label={t('activity.noActivity')}>
          <p>
            {JSON.stringify(fields) === JSON.stringify(NO_FIELDS) ? t('activity.noneYet') : t('activity.noneMatch')}
          </p>
        </section>
      )}
      {total !== null && entries.length < total && (
        <button type="button" className="more" disabled={loading} onClick={() => load(page + 1)}>
          {t('activity.loadMore')}
        </button>
      )}
    </main>
  );
}

/** Who and through what: "alice@example.com in the console", "the API key through the REST API". */
function byOf(e: Entry): string {
  return i18n.t('activity.by', { actor: actorOf(e.actor), source: sourceLabel(e.source) });
}

interface MayRevert {
  change: boolean;
  cell(language: string | null): boolean;
}

function EntryItem({
  entry,
  projectToken,
  mayRevert,
  open,
  onToggle,
}: {
  entry: Entry;
  projectToken: string;
  mayRevert: MayRevert;
  open: boolean;
  onToggle: () => void;
}) {
  const detailsId = `entry-${entry.id}`;
  return (
    <li className="entry">
      <button type="button" className="entry-summary" aria-expanded={open} aria-controls={detailsId} onClick={onToggle}>
        <span className="entry-sentence">{sentenceOf(entry)}</span>
        <span className="entry-by">
          {kindLabel(entry.kind)} · {byOf(entry)} · <time dateTime={entry.at}>{timeOf(entry.at)}</time>
        </span>
      </button>
      {open && <EntryDetails id={detailsId} entry={entry} projectToken={projectToken} mayRevert={mayRevert} />}
    </li>
  );
}

function EntryDetails({
  id,
  entry,
  projectToken,
  mayRevert,
}: {
  id: string;
  entry: Entry;
  projectToken: string;
  mayRevert: MayRevert;
}) {
  const { t } = useTranslation();
  const [cells, setCells] = useState<Cell[]>([]);
  const [failure, setFailure] = useState('');
  const [outcome, setOutcome] = useState('');
  // The revert asked for: the whole change, or one cell.
  const [asking, setAsking] = useState<'change' | Cell | null>(null);
  const outcomeRef = useRef<HTMLParagraphElement>(null);
  // The outcome in view (the entry may be long: its cells).
  useEffect(() => {
    if (outcome) outcomeRef.current?.scrollIntoView({ block: 'nearest' });
  }, [outcome]);
  const loadCells = useCallback(
    async (pageNo: number) => {
      const result = await client.query(ActivityCells, { projectToken, id: entry.id, page: pageNo }).toPromise();
      if (result.error) return setFailure(messageOf(result.error));
      const got = result.data?.activityEntry?.cells ?? [];
      setCells((shown) => (pageNo === 0 ? got : [...shown, ...got]));
    },
    [projectToken, entry.id],
  );
  useEffect(() => {
    if (entry.cellsChanged > 0) void loadCells(0);
  }, [entry.cellsChanged, loadCells]);

  const revert = async () => {
    setAsking(null);
    setFailure('');
    setOutcome('');
    const result = await client.mutation(RevertChange, { projectToken, activityId: entry.id }).toPromise();
    if (result.error) return setFailure(messageOf(result.error));
    setOutcome(describeRevert(result.data!.revertChange));
  };
  const revertCell = async (cell: Cell) => {
    const name = t('activity.cellName', { key: cell.key, language: cell.language });
    setAsking(null);
    setFailure('');
    setOutcome('');
    const result = await client.mutation(RevertTranslation, { projectToken, cellChangeId: cell.id }).toPromise();
    if (result.error) return setFailure(messageOf(result.error));
    setOutcome(
      result.data!.revertTranslation.reverted
        ? t('activity.cellSetBack', { name })
        : t('activity.cellAlready', { name }),
    );
  };
  const details = detailsInWords(entry.details);
  return (
    <div className="entry-details" id={id}>
      <dl>
        <div>
          <dt>{t('activity.entry')}</dt>
          <dd>
            #{entry.id}
            {entry.revertOf && ` ${t('activity.reverts', { id: entry.revertOf })}`}
          </dd>
        </div>
        {entry.actor.email && (
          <div>
            <dt>{t('activity.account')}</dt>
            <dd>{entry.actor.email}</dd>
          </div>
        )}
        {entry.cellsChanged > 0 && (
          <div>
            <dt>{t('activity.textsWritten')}</dt>
            <dd>{formatNumber(entry.cellsChanged)}</dd>
          </div>
        )}
        {entry.edits > 0 && (
          <div>
            <dt>{t('activity.otherEdits')}</dt>
            <dd>{formatNumber(entry.edits)}</dd>
          </div>
        )}
        {entry.trigger && (
          <div>
            <dt>{t('activity.trigger')}</dt>
            <dd>{entry.trigger}</dd>
          </div>
        )}
        {details.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      {mayRevert.change && (entry.cellsChanged > 0 || CREATING.has(String(entry.details?.action))) && (
        <button type="button" className="danger" onClick={() => setAsking('change')}>
          {t('activity.revertChange')}
        </button>
      )}
      <p role="status" ref={outcomeRef} className="toast success">
        {outcome}
      </p>
      {failure && (
        <p role="alert" className="error">
          {failure}
        </p>
      )}
      {cells.length > 0 && (
        <table className="data-table">
          <caption>{t('activity.cellsOf', { id: entry.id })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('activity.key')}</th>
              <th scope="col">{t('activity.language')}</th>
              <th scope="col">{t('activity.before')}</th>
              <th scope="col">{t('activity.after')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('activity.revertButton')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {cells.map((c) => (
              <tr key={c.id}>
                <th scope="row">
                  {c.namespace ? `${c.namespace}:` : ''}
                  {c.key}
                  {c.customerKey && <span className="badge">{c.customerKey}</span>}
                </th>
                <td>{c.language ?? t('activity.deleted')}</td>
                <td className="old-text">
                  {c.oldText === null ? (
                    <em>{t('activity.neverWritten')}</em>
                  ) : (
                    <TextDiff before={c.oldText} after={c.newText} side="before" />
                  )}
                  {c.oldReviewStatus === 'REVIEWED' && ` ${t('activity.reviewed')}`}
                </td>
                <td className="new-text">
                  <TextDiff before={c.oldText ?? ''} after={c.newText} side="after" />
                  {c.newReviewStatus === 'REVIEWED' && ` ${t('activity.reviewed')}`}
                </td>
                <td>
                  {mayRevert.cell(c.language) && (
                    <button
                      type="button"
                      aria-label={t('activity.revertCell', { key: c.key, language: c.language })}
                      onClick={() => setAsking(c)}
                    >
                      {t('activity.revertButton')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {asking === 'change' && (
        <Confirm
          title={t('activity.confirmChange')}
          confirmLabel={t('activity.revertButton')}
          onConfirm={() => void revert()}
          onCancel={() => setAsking(null)}
        >
          <p>{sentenceOf(entry)}.</p>
          <p>{t('activity.confirmChangeText', { count: entry.cellsChanged })}</p>
        </Confirm>
      )}
      {asking && asking !== 'change' && (
        <Confirm
          title={t('activity.confirmCell', { key: asking.key, language: asking.language })}
          confirmLabel={t('activity.revertButton')}
          onConfirm={() => void revertCell(asking)}
          onCancel={() => setAsking(null)}
        >
          {/* Unlike a whole change's revert, one cell is set back whatever it holds now (the history keeps that text). */}
          <p>
            {t('activity.confirmCellText', {
              text: asking.oldText ? t('activity.quoted', { text: asking.oldText }) : t('activity.emptyText'),
            })}
          </p>
        </Confirm>
      )}
      {cells.length > 0 && cells.length < entry.cellsChanged && (
        <button type="button" onClick={() => loadCells(Math.ceil(cells.length / 100))}>
          {t('activity.moreCells')}
        </button>
      )}
    </div>
  );
}
