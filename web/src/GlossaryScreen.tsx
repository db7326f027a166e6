// Glossary (docs/glossary.md): the glossaries whose terms count in the project
// (its own, made on first use, and the shared ones linked to it), a page of
// one glossary's terms with search and flag filters, adding, editing and
// deleting a term (a dialog), a term's history with revert, TBX and CSV files
// in and out, and shared glossaries. What may be changed is the service's
// answer: GLOSSARY in the project for its own glossary, ownership for a
// shared one; without it the screen only reads.
import { useEffect, useState } from 'react';
import { useClient, useMutation, useQuery } from 'urql';
import {
  GlossaryMetaQuery,
  GlossaryTermsQuery,
  DeleteTerm,
  RevertGlossaryChange,
  TermHistoryQuery,
  termName,
  type GlossaryTerm,
} from './glossary-documents';
import { GlossaryTermDialog } from './GlossaryTermDialog';
import { GlossaryTermHistory } from './GlossaryTermHistory';
import { GlossaryFiles } from './GlossaryFiles';
import { SharedGlossaries } from './SharedGlossaries';
import { Confirm } from './Confirm';
import { messageOf } from './feedback';
import { count } from './wording';

const PAGE = 50;
/** Typing in the search box reads the list again once this long after the last key. */
const SEARCH_SETTLE_MS = 250;

type Flag = 'forbidden' | 'doNotTranslate' | 'caseSensitive';
const FILTER_FLAGS: { flag: Flag; label: string }[] = [
  { flag: 'forbidden', label: 'Forbidden' },
  { flag: 'doNotTranslate', label: 'Do not translate' },
  { flag: 'caseSensitive', label: 'Case sensitive' },
];

export function GlossaryScreen({ projectToken }: { projectToken: string }) {
  const [{ data: meta, error: metaError }, refetchMeta] = useQuery({
    query: GlossaryMetaQuery,
    variables: { projectToken },
  });
  // 'own': the project's own glossary; else a linked shared glossary's id.
  const [selected, setSelected] = useState<'own' | number>('own');
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [flags, setFlags] = useState<Flag[]>([]);
  const [offset, setOffset] = useState(0);
  const [editing, setEditing] = useState<GlossaryTerm | 'new' | undefined>();
  const [deleting, setDeleting] = useState<GlossaryTerm | undefined>();
  const [history, setHistory] = useState<GlossaryTerm | undefined>();
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState('');
  // The term last deleted, which "Undo" brings back (by reverting its deletion).
  const [undoable, setUndoable] = useState<GlossaryTerm | undefined>();
  const [, remove] = useMutation(DeleteTerm);
  const [, revert] = useMutation(RevertGlossaryChange);
  const client = useClient();

  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.trim()), SEARCH_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  useEffect(() => setOffset(0), [search, flags, selected]);

  const shared = meta?.glossaries.filter((g) => g.shared) ?? [];
  const current = selected === 'own' ? undefined : shared.find((g) => g.id === selected);
  // A shared glossary unlinked meanwhile: back to the project's own.
  useEffect(() => {
    if (meta && selected !== 'own' && !current) setSelected('own');
  }, [meta, selected, current]);
  const glossaryId = selected === 'own' ? null : selected;
  const only = (flag: Flag) => (flags.includes(flag) ? true : null);
  const [{ data, error, fetching }, refetchTerms] = useQuery({
    query: GlossaryTermsQuery,
    variables: {
      projectToken,
      glossaryId,
      search: search || null,
      forbidden: only('forbidden'),
      doNotTranslate: only('doNotTranslate'),
      caseSensitive: only('caseSensitive'),
      first: PAGE,
      offset,
    },
  });

  const permissions = meta?.project?.myPermissions ?? [];
  const own = selected === 'own';
  const canEdit = own ? permissions.includes('GLOSSARY') : !!current?.owned;
  // A change of the project's glossary is reverted like any change of its log (revertChange needs IMPORT).
  const canRevert = own && permissions.includes('GLOSSARY') && permissions.includes('IMPORT');
  const languages = meta?.project?.languages ?? [];
  const page = data?.glossaryTerms;
  const sourceLanguage =
    page?.sourceLanguage ?? current?.sourceLanguage ?? languages.find((l) => l.isDefault)?.key ?? '';
  // The translations the screen shows and edits: the project's languages but the glossary's source language.
  const targets = languages.filter((l) => l.key !== sourceLanguage);

  const refresh = () => {
    refetchTerms({ requestPolicy: 'network-only' });
    refetchMeta({ requestPolicy: 'network-only' });
  };
  /** After a change: its message, and the term "Undo delete" would bring back (only right after its deletion). */
  const done = (message: string, undo?: GlossaryTerm) => {
    setUndoable(undo);
    setFailure('');
    setStatus(message);
    refresh();
  };

  const doDelete = async (term: GlossaryTerm) => {
    setDeleting(undefined);
    const result = await remove({ projectToken, id: term.id });
    if (result.error) return setFailure(messageOf(result.error));
    done(`Deleted ${termName(term)}`, canRevert ? term : undefined);
  };
  const undoDelete = async (term: GlossaryTerm) => {
    setUndoable(undefined);
    // The deletion is the term's latest change: reverting it gives the term back with its translations.
    const found = await client.query(TermHistoryQuery, { projectToken, termId: term.id }).toPromise();
    const deletion = found.data?.glossaryTermHistory.find((e) => e.after === null);
    if (found.error || !deletion)
      return setFailure(found.error ? messageOf(found.error) : 'The deletion was not found in the history');
    const result = await revert({ projectToken, activityId: deletion.change.id });
    if (result.error) return setFailure(messageOf(result.error));
    done(
      result.data!.revertChange.reverted
        ? `Restored ${termName(term)}`
        : `${termName(term)} was not restored: it changed since`,
    );
  };

  const glossaryName = own ? 'Project glossary' : (current?.name ?? '');
  return (
    <main className="ops glossary">
      <h1>Glossary</h1>
      <p className="hint">
        Terms found in a source text are marked in the editor with their required translation, handed to machine
        translation, and checked in translations (a missing required term, a forbidden one).
      </p>
      {metaError && (
        <p role="alert" className="error">
          {messageOf(metaError)}
        </p>
      )}
      <section aria-labelledby="terms-heading">
        <div className="glossary-head">
          <h2 id="terms-heading">
            {glossaryName ? `Terms of ${own ? 'the project glossary' : glossaryName}` : 'Terms'}
          </h2>
          {shared.length > 0 && (
            <label>
              Glossary
              <select
                value={String(selected)}
                onChange={(e) => setSelected(e.target.value === 'own' ? 'own' : Number(e.target.value))}
              >
                <option value="own">Project glossary</option>
                {shared.map((g) => (
                  <option key={g.id} value={g.id}>
                    {g.name} (shared, {count(g.terms, 'term')})
                  </option>
                ))}
              </select>
            </label>
          )}
          {canEdit && (
            <button type="button" className="primary" onClick={() => setEditing('new')}>
              New term
            </button>
          )}
        </div>
        {meta && !canEdit && (
          <p className="hint read-only">
            {own
              ? 'Read only: changing the project glossary needs the Glossary permission (owners and administrators).'
              : 'Read only: only the account that created this shared glossary changes it.'}
          </p>
        )}
        <form
          className="ops-row glossary-filters"
          aria-label="Filter terms"
          onSubmit={(e) => {
            e.preventDefault();
            setSearch(typed.trim());
          }}
        >
          <label>
            Search
            <input
              type="search"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              placeholder="Term, description or translation"
              maxLength={200}
            />
          </label>
          <fieldset>
            <legend>Only terms that are</legend>
            {FILTER_FLAGS.map(({ flag, label }) => (
              <label key={flag} className="check">
                <input
                  type="checkbox"
                  checked={flags.includes(flag)}
                  onChange={(e) =>
                    setFlags((all) => (e.target.checked ? [...all, flag] : all.filter((f) => f !== flag)))
                  }
                />
                {label}
              </label>
            ))}
          </fieldset>
        </form>
        {error && (
          <p role="alert" className="error">
            {messageOf(error)}
          </p>
        )}
        {page && (
          <p className="glossary-total" aria-live="polite">
            {page.total === 0
              ? search || flags.length
                ? 'No terms match.'
                : 'No terms yet.'
              : `${count(page.total, 'term')}${page.total > PAGE ? `, ${offset + 1}–${Math.min(offset + PAGE, page.total)} shown` : ''}`}
            {fetching && ' …'}
          </p>
        )}
        {page && page.terms.length > 0 && (
          <table className="data-table glossary-table">
            <caption className="visually-hidden">Glossary terms</caption>
            <thead>
              <tr>
                <th scope="col">Term</th>
                <th scope="col">Translations</th>
                <th scope="col">Flags</th>
                <th scope="col">Description</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.terms.map((t) => (
                <tr key={t.id}>
                  <th scope="row">
                    <span className="term" lang={sourceLanguage}>
                      {t.term}
                    </span>
                    {t.partOfSpeech && <span className="pos"> {t.partOfSpeech}</span>}
                  </th>
                  <td>
                    <Translations term={t} targets={targets} />
                  </td>
                  <td>
                    <Flags term={t} />
                  </td>
                  <td className="term-description">{t.description}</td>
                  <td className="term-actions">
                    {canEdit && (
                      <button type="button" onClick={() => setEditing(t)} aria-label={`Edit ${termName(t)}`}>
                        Edit
                      </button>
                    )}
                    {own && (
                      <button type="button" onClick={() => setHistory(t)} aria-label={`History of ${termName(t)}`}>
                        History
                      </button>
                    )}
                    {canEdit && (
                      <button
                        type="button"
                        className="danger"
                        onClick={() => setDeleting(t)}
                        aria-label={`Delete ${termName(t)}`}
                      >
                        Delete
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {page && page.total > PAGE && (
          <div className="ops-row">
            <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
              Previous terms
            </button>
            <button type="button" disabled={offset + PAGE >= page.total} onClick={() => setOffset(offset + PAGE)}>
              Next terms
            </button>
          </div>
        )}
        <div className="ops-row">
          <p role="status" className="status">
            {status}
          </p>
          {undoable && (
            <button type="button" onClick={() => void undoDelete(undoable)}>
              Undo delete
            </button>
          )}
        </div>
        {failure && (
          <p role="alert" className="error">
            {failure}
          </p>
        )}
      </section>
      {meta && page && (
        <GlossaryFiles
          projectToken={projectToken}
          glossaryId={glossaryId}
          glossaryName={glossaryName}
          canImport={canEdit}
          canExport={permissions.includes('EXPORT')}
          onImported={() => done('')}
        />
      )}
      {meta && (
        <SharedGlossaries
          projectToken={projectToken}
          shared={meta.sharedGlossaries}
          languages={languages}
          canLink={permissions.includes('GLOSSARY')}
          onChanged={(message) => done(message)}
          onFailed={setFailure}
        />
      )}
      {editing && page && (
        <GlossaryTermDialog
          key={editing === 'new' ? 'new' : editing.id}
          projectToken={projectToken}
          glossaryId={glossaryId}
          term={editing === 'new' ? undefined : editing}
          sourceLanguage={sourceLanguage}
          targets={targets}
          onCancel={() => setEditing(undefined)}
          onDone={(message) => {
            setEditing(undefined);
            done(message);
          }}
        />
      )}
      {deleting && (
        <Confirm
          title={`Delete ${termName(deleting)}?`}
          confirmLabel="Delete term"
          onConfirm={() => void doDelete(deleting)}
          onCancel={() => setDeleting(undefined)}
        >
          <p>
            The term and its translations leave the glossary.
            {canRevert ? ' The deletion can be undone from the term’s history or the activity log.' : ''}
          </p>
        </Confirm>
      )}
      {history && (
        <GlossaryTermHistory
          projectToken={projectToken}
          term={history}
          canRevert={canRevert}
          onClose={() => setHistory(undefined)}
          onReverted={(message) => done(message)}
        />
      )}
    </main>
  );
}

/** The term's translations: the project's languages first, the others the glossary holds counted. */
function Translations({ term, targets }: { term: GlossaryTerm; targets: readonly { key: string; name: string }[] }) {
  const shown = targets
    .map((l) => ({ language: l.key, text: term.translations.find((t) => t.language === l.key)?.text }))
    .filter((t) => t.text);
  const others = term.translations.filter((t) => !targets.some((l) => l.key === t.language));
  if (term.doNotTranslate) return <span className="hint">Kept as written</span>;
  return (
    <>
      {shown.length > 0 && (
        <ul className="plain term-translations">
          {shown.map((t) => (
            <li key={t.language}>
              <span className="lang">{t.language}</span> <span lang={t.language}>{t.text}</span>
            </li>
          ))}
        </ul>
      )}
      {shown.length === 0 && others.length === 0 && <span className="hint">None</span>}
      {others.length > 0 && (
        <span className="hint other-languages" title={others.map((t) => `${t.language}: ${t.text}`).join('\n')}>
          {shown.length ? '+ ' : ''}
          {count(others.length, 'other language')} ({others.map((t) => t.language).join(', ')})
        </span>
      )}
    </>
  );
}

function Flags({ term }: { term: GlossaryTerm }) {
  const flags = [
    term.forbidden && (
      <span key="f" className="badge flag-forbidden">
        Forbidden
      </span>
    ),
    term.doNotTranslate && (
      <span key="n" className="badge">
        Do not translate
      </span>
    ),
    term.caseSensitive && (
      <span key="c" className="badge">
        Case sensitive
      </span>
    ),
    term.abbreviation && (
      <span key="a" className="badge">
        Abbreviation
      </span>
    ),
  ].filter(Boolean);
  return flags.length ? <span className="term-flags">{flags}</span> : null;
}
