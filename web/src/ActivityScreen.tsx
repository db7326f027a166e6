// A project's activity log: newest first, a page at a time ("Load more"),
// filtered by actor, kind and time; each entry is a sentence (activity-words.ts); an entry opens its counts and the cells it
// wrote (before and after, the changed words marked); a change that wrote cells can be reverted where the
// viewer may (revertChange needs IMPORT), and so can one of its cells
// (revertTranslation: TRANSLATE in the cell's language). New entries arrive
// live through the projectActivity subscription.
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
  ['TRANSLATIONS', 'Translations written'],
  ['IMPORT', 'Import'],
  ['KEYS', 'Keys'],
  ['LANGUAGES', 'Languages'],
  ['CUSTOMERS', 'Customers'],
  ['AUTO_TRANSLATION', 'Auto-translation'],
  ['JOB_STARTED', 'Job started'],
  ['JOB_FINISHED', 'Job finished'],
  ['REVERT', 'Revert'],
  ['PURGE', 'Purge'],
  ['EXPORT', 'Export'],
  ['PUBLICATION', 'Publication'],
  ['SETTINGS', 'Settings'],
  ['AUTOMATION', 'Automation'],
] as const satisfies readonly (readonly [Entry['kind'], string])[];
const KIND_LABEL = Object.fromEntries(KINDS) as Record<Entry['kind'], string>;

const SOURCE_LABEL: Record<Entry['source'], string> = {
  API: 'REST API',
  GRAPHQL: 'GraphQL',
  WEB: 'console',
  CLI: 'CLI',
  SYSTEM: 'system',
  AUTOMATION: 'automation',
  GIT: 'Git sync',
};

function actorOf(actor: Entry['actor']): string {
  switch (actor.kind) {
    case 'ACCOUNT':
      return actor.name ?? actor.email ?? `account ${actor.id}`;
    case 'API_KEY':
      return 'API key';
    case 'JOB':
      return `job ${actor.id}`;
    case 'AUTOMATION':
      return actor.name ? `automation ${actor.name}` : `automation rule ${actor.id}`;
    default:
      return 'system';
  }
}

/** "1 cell", "3 cells". */

type RevertOutcome = ResultOf<typeof RevertChange>['revertChange'];

/** Entries without cells that created something, which their revert deletes. */
const CREATING = new Set(['CREATE_KEY', 'CREATE_LANGUAGE', 'CREATE_CUSTOMER']);

const KEPT_REASONS: Record<RevertOutcome['kept'][number]['reason'], string> = {
  WRITTEN_SINCE: 'written since',
  EDITED_SINCE: 'edited since',
  LOCKED: 'locked',
  DEFAULT_LANGUAGE: 'default language',
  LAST_LANGUAGE: 'last language',
};

/** What a revert did: "Reverted 3 cells; 1 cell changed since (kept)." */
function describeRevert(r: RevertOutcome): string {
  const refused = r.refusedLocked + r.refusedCharactersLimit;
  return (
    [
      `Reverted ${count(r.reverted, 'cell')}`,
      r.changedSince && `${count(r.changedSince, 'cell')} changed since (kept)`,
      refused && `${count(refused, 'cell')} refused (locked key or over the characters limit)`,
      r.gone && `${count(r.gone, 'cell')} gone (key, language or customer deleted)`,
      r.deletedKeys && `deleted ${count(r.deletedKeys, 'key')} it created`,
      r.deletedLanguages.length && `deleted the languages ${r.deletedLanguages.join(', ')}`,
      r.deletedCustomers.length && `deleted the customers ${r.deletedCustomers.join(', ')}`,
      r.keptCount &&
        `kept ${r.keptCount} it created: ${r.kept.map((k) => `${k.namespace ? `${k.namespace}/` : ''}${k.key} (${KEPT_REASONS[k.reason]})`).join(', ')}${r.keptCount > r.kept.length ? ' …' : ''}`,
    ]
      .filter(Boolean)
      .join('; ') + '.'
  );
}

const timeOf = (iso: string) => new Date(iso).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'medium' });

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
      setTotal((t) => (t === null ? t : t + 1));
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
        <h1>Activity{meta ? ` of ${meta.project.name}` : ''}</h1>
        <p className="count" aria-live="polite">
          {total === null ? 'Loading…' : count(total, 'entry', 'entries')}
        </p>
      </div>
      <form className="filters" aria-label="Filter the activity" onSubmit={(e) => e.preventDefault()}>
        <label>
          Actor
          <select value={fields.actor} onChange={(e) => set({ actor: e.target.value })}>
            <option value="">Anyone</option>
            {meta?.members.map((m) => (
              <option key={m.accountId} value={`ACCOUNT:${m.accountId}`}>
                {m.name ? `${m.name} (${m.email})` : m.email}
              </option>
            ))}
            <option value="API_KEY">The API key</option>
            <option value="JOB">Auto-translation jobs</option>
            <option value="SYSTEM">The system</option>
          </select>
        </label>
        <label>
          Kind
          <select value={fields.kind} onChange={(e) => set({ kind: e.target.value })}>
            <option value="">Any</option>
            {KINDS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          From
          <input type="datetime-local" value={fields.from} onChange={(e) => set({ from: e.target.value })} />
        </label>
        <label>
          Until
          <input type="datetime-local" value={fields.to} onChange={(e) => set({ to: e.target.value })} />
        </label>
        <button type="button" onClick={() => setFields(NO_FIELDS)}>
          Clear filters
        </button>
      </form>
      {failure && (
        <p role="alert" className="error">
          {failure}
        </p>
      )}
      <ol className="entries" aria-label="Activity entries">
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
        <section className="empty-state" aria-label="No activity">
          <p>No activity matches{JSON.stringify(fields) === JSON.stringify(NO_FIELDS) ? ' yet' : ' these filters'}.</p>
        </section>
      )}
      {total !== null && entries.length < total && (
        <button type="button" className="more" disabled={loading} onClick={() => load(page + 1)}>
          Load more
        </button>
      )}
    </main>
  );
}

/** Who and through what: "alice@example.com in the console", "the API key through the REST API". */
function byOf(e: Entry): string {
  return `${actorOf(e.actor)} via ${SOURCE_LABEL[e.source]}`;
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
          {KIND_LABEL[entry.kind]} · {byOf(entry)} · <time dateTime={entry.at}>{timeOf(entry.at)}</time>
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
    const name = `${cell.key} in ${cell.language}`;
    setAsking(null);
    setFailure('');
    setOutcome('');
    const result = await client.mutation(RevertTranslation, { projectToken, cellChangeId: cell.id }).toPromise();
    if (result.error) return setFailure(messageOf(result.error));
    setOutcome(
      `${name}: ${result.data!.revertTranslation.reverted ? 'set back to its earlier text' : 'already holds its earlier text'}.`,
    );
  };
  const details = detailsInWords(entry.details);
  return (
    <div className="entry-details" id={id}>
      <dl>
        <div>
          <dt>Entry</dt>
          <dd>
            #{entry.id}
            {entry.revertOf && ` (reverts #${entry.revertOf})`}
          </dd>
        </div>
        {entry.actor.email && (
          <div>
            <dt>Account</dt>
            <dd>{entry.actor.email}</dd>
          </div>
        )}
        {entry.cellsChanged > 0 && (
          <div>
            <dt>Texts written</dt>
            <dd>{entry.cellsChanged.toLocaleString('en')}</dd>
          </div>
        )}
        {entry.edits > 0 && (
          <div>
            <dt>Other edits</dt>
            <dd>{entry.edits.toLocaleString('en')}</dd>
          </div>
        )}
        {entry.trigger && (
          <div>
            <dt>Webhook trigger</dt>
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
          Revert this change
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
          <caption>Cells of entry #{entry.id}</caption>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Language</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
              <th scope="col">
                <span className="visually-hidden">Revert</span>
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
                <td>{c.language ?? '(deleted)'}</td>
                <td className="old-text">
                  {c.oldText === null ? (
                    <em>never written</em>
                  ) : (
                    <TextDiff before={c.oldText} after={c.newText} side="before" />
                  )}
                  {c.oldReviewStatus === 'REVIEWED' && ' (reviewed)'}
                </td>
                <td className="new-text">
                  <TextDiff before={c.oldText ?? ''} after={c.newText} side="after" />
                  {c.newReviewStatus === 'REVIEWED' && ' (reviewed)'}
                </td>
                <td>
                  {mayRevert.cell(c.language) && (
                    <button type="button" aria-label={`Revert ${c.key} in ${c.language}`} onClick={() => setAsking(c)}>
                      Revert
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
          title="Revert this change?"
          confirmLabel="Revert"
          onConfirm={() => void revert()}
          onCancel={() => setAsking(null)}
        >
          <p>{sentenceOf(entry)}.</p>
          <p>
            Its {count(entry.cellsChanged, 'text')} get back their earlier versions where they still hold what it wrote;
            texts changed since keep the newer version. Keys, languages and customers it created are deleted unless
            written or edited since.
          </p>
        </Confirm>
      )}
      {asking && asking !== 'change' && (
        <Confirm
          title={`Revert ${asking.key} in ${asking.language}?`}
          confirmLabel="Revert"
          onConfirm={() => void revertCell(asking)}
          onCancel={() => setAsking(null)}
        >
          {/* Unlike a whole change's revert, one cell is set back whatever it holds now (the history keeps that text). */}
          <p>
            It gets back {asking.oldText ? `“${asking.oldText}”` : 'an empty text'}, its text before this entry. What it
            holds now is replaced, and stays in the history.
          </p>
        </Confirm>
      )}
      {cells.length > 0 && cells.length < entry.cellsChanged && (
        <button type="button" onClick={() => loadCells(Math.ceil(cells.length / 100))}>
          More cells
        </button>
      )}
    </div>
  );
}
