// Glossary (docs/glossary.md): the glossaries whose terms count in the project
// (its own, made on first use, and the shared ones linked to it), a page of
// one glossary's terms with search and flag filters, adding, editing and
// deleting a term (a dialog), a term's history with revert, TBX and CSV files
// in and out, and shared glossaries. What may be changed is the service's
// answer: GLOSSARY in the project for its own glossary, ownership for a
// shared one; without it the screen only reads.
import { useTranslation } from 'react-i18next';
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
const FILTER_FLAGS: Flag[] = ['forbidden', 'doNotTranslate', 'caseSensitive'];

export function GlossaryScreen({ projectToken }: { projectToken: string }) {
  const { t } = useTranslation();
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
    done(t('glossary.deleted', { term: termName(term) }), canRevert ? term : undefined);
  };
  const undoDelete = async (term: GlossaryTerm) => {
    setUndoable(undefined);
    // The deletion is the term's latest change: reverting it gives the term back with its translations.
    const found = await client.query(TermHistoryQuery, { projectToken, termId: term.id }).toPromise();
    const deletion = found.data?.glossaryTermHistory.find((e) => e.after === null);
    if (found.error || !deletion)
      return setFailure(found.error ? messageOf(found.error) : t('glossary.deletionNotFound'));
    const result = await revert({ projectToken, activityId: deletion.change.id });
    if (result.error) return setFailure(messageOf(result.error));
    done(
      result.data!.revertChange.reverted
        ? t('glossary.restored', { term: termName(term) })
        : t('glossary.notRestored', { term: termName(term) }),
    );
  };

  const glossaryName = own ? t('glossary.projectGlossary') : (current?.name ?? '');
  return (
    <main className="ops glossary">
      <h1>{t('glossary.title')}</h1>
      <p className="hint">{t('glossary.hint')}</p>
      {metaError && (
        <p role="alert" className="error">
          {messageOf(metaError)}
        </p>
      )}
      <section aria-labelledby="terms-heading">
        <div className="glossary-head">
          <h2 id="terms-heading">
            {own
              ? t('glossary.termsOfProject')
              : glossaryName
                ? t('glossary.termsOf', { name: glossaryName })
                : t('glossary.terms')}
          </h2>
          {shared.length > 0 && (
            <label>
              {t('glossary.glossary')}
              <select
                value={String(selected)}
                onChange={(e) => setSelected(e.target.value === 'own' ? 'own' : Number(e.target.value))}
              >
                <option value="own">{t('glossary.projectGlossary')}</option>
                {shared.map((g) => (
                  <option key={g.id} value={g.id}>
                    {t('glossary.sharedOption', { name: g.name, terms: count(g.terms, 'term') })}
                  </option>
                ))}
              </select>
            </label>
          )}
          {canEdit && (
            <button type="button" className="primary" onClick={() => setEditing('new')}>
              {t('glossary.newTerm')}
            </button>
          )}
        </div>
        {meta && !canEdit && (
          <p className="hint read-only">{own ? t('glossary.readOnlyOwn') : t('glossary.readOnlyShared')}</p>
        )}
        <form
          className="ops-row glossary-filters"
          aria-label={t('glossary.filter')}
          onSubmit={(e) => {
            e.preventDefault();
            setSearch(typed.trim());
          }}
        >
          <label>
            {t('glossary.search')}
            <input
              type="search"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              placeholder={t('glossary.searchPlaceholder')}
              maxLength={200}
            />
          </label>
          <fieldset>
            <legend>{t('glossary.onlyTerms')}</legend>
            {FILTER_FLAGS.map((flag) => (
              <label key={flag} className="check">
                <input
                  type="checkbox"
                  checked={flags.includes(flag)}
                  onChange={(e) =>
                    setFlags((all) => (e.target.checked ? [...all, flag] : all.filter((f) => f !== flag)))
                  }
                />
                {t(`glossary.flag.${flag}`)}
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
                ? t('glossary.noMatch')
                : t('glossary.noneYet')
              : page.total > PAGE
                ? t('glossary.shown', {
                    total: count(page.total, 'term'),
                    from: offset + 1,
                    to: Math.min(offset + PAGE, page.total),
                  })
                : count(page.total, 'term')}
            {fetching && ' …'}
          </p>
        )}
        {page && page.terms.length > 0 && (
          <table className="data-table glossary-table">
            <caption className="visually-hidden">{t('glossary.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('glossary.term')}</th>
                <th scope="col">{t('glossary.translations')}</th>
                <th scope="col">{t('glossary.flags')}</th>
                <th scope="col">{t('glossary.description')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('glossary.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.terms.map((term) => (
                <tr key={term.id}>
                  <th scope="row">
                    <span className="term" lang={sourceLanguage}>
                      {term.term}
                    </span>
                    {term.partOfSpeech && <span className="pos"> {term.partOfSpeech}</span>}
                  </th>
                  <td>
                    <Translations term={term} targets={targets} />
                  </td>
                  <td>
                    <Flags term={term} />
                  </td>
                  <td className="term-description">{term.description}</td>
                  <td className="term-actions">
                    {canEdit && (
                      <button
                        type="button"
                        onClick={() => setEditing(term)}
                        aria-label={t('glossary.editLabel', { term: termName(term) })}
                      >
                        {t('glossary.edit')}
                      </button>
                    )}
                    {own && (
                      <button
                        type="button"
                        onClick={() => setHistory(term)}
                        aria-label={t('glossary.historyLabel', { term: termName(term) })}
                      >
                        {t('glossary.history')}
                      </button>
                    )}
                    {canEdit && (
                      <button
                        type="button"
                        className="danger"
                        onClick={() => setDeleting(term)}
                        aria-label={t('glossary.deleteLabel', { term: termName(term) })}
                      >
                        {t('glossary.delete')}
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
              {t('glossary.previous')}
            </button>
            <button type="button" disabled={offset + PAGE >= page.total} onClick={() => setOffset(offset + PAGE)}>
              {t('glossary.next')}
            </button>
          </div>
        )}
        <div className="ops-row">
          <p role="status" className="status">
            {status}
          </p>
          {undoable && (
            <button type="button" onClick={() => void undoDelete(undoable)}>
              {t('glossary.undo')}
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
          title={t('glossary.confirmDelete', { term: termName(deleting) })}
          confirmLabel={t('glossary.confirmDeleteLabel')}
          onConfirm={() => void doDelete(deleting)}
          onCancel={() => setDeleting(undefined)}
        >
          <p>
            {t('glossary.confirmDeleteText')}
            {canRevert ? ` ${t('glossary.confirmDeleteUndo')}` : ''}
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
  const { t } = useTranslation();
  const shown = targets
    .map((l) => ({ language: l.key, text: term.translations.find((x) => x.language === l.key)?.text }))
    .filter((x) => x.text);
  const others = term.translations.filter((x) => !targets.some((l) => l.key === x.language));
  if (term.doNotTranslate) return <span className="hint">{t('glossary.keptAsWritten')}</span>;
  return (
    <>
      {shown.length > 0 && (
        <ul className="plain term-translations">
          {shown.map((x) => (
            <li key={x.language}>
              <span className="lang">{x.language}</span> <span lang={x.language}>{x.text}</span>
            </li>
          ))}
        </ul>
      )}
      {shown.length === 0 && others.length === 0 && <span className="hint">{t('glossary.none')}</span>}
      {others.length > 0 && (
        <span className="hint other-languages" title={others.map((x) => `${x.language}: ${x.text}`).join('\n')}>
          {shown.length ? '+ ' : ''}
          {count(others.length, 'otherLanguage')} ({others.map((x) => x.language).join(', ')})
        </span>
      )}
    </>
  );
}

function Flags({ term }: { term: GlossaryTerm }) {
  const { t } = useTranslation();
  const flags = [
    term.forbidden && (
      <span key="f" className="badge flag-forbidden">
        {t('glossary.flag.forbidden')}
      </span>
    ),
    term.doNotTranslate && (
      <span key="n" className="badge">
        {t('glossary.flag.doNotTranslate')}
      </span>
    ),
    term.caseSensitive && (
      <span key="c" className="badge">
        {t('glossary.flag.caseSensitive')}
      </span>
    ),
    term.abbreviation && (
      <span key="a" className="badge">
        {t('glossary.flag.abbreviation')}
      </span>
    ),
  ].filter(Boolean);
  return flags.length ? <span className="term-flags">{flags}</span> : null;
}
