// Shared glossaries (docs/glossary.md): the ones the account owns or reads
// through a project, whether this project uses each (a link, which only the
// glossary's owner sets, with GLOSSARY in the project), and creating one.
import { useTranslation } from 'react-i18next';
import { formatNumber } from './i18n';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { CreateSharedGlossary, SetGlossaryLink, type SharedGlossary } from './glossary-documents';
import { messageOf } from './feedback';

interface Props {
  projectToken: string;
  shared: readonly SharedGlossary[];
  languages: readonly { key: string; name: string; isDefault: boolean }[];
  /** GLOSSARY in the project: linking it to a glossary one owns. */
  canLink: boolean;
  onChanged: (message: string) => void;
  onFailed: (message: string) => void;
}

export function SharedGlossaries({ projectToken, shared, languages, canLink, onChanged, onFailed }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const [name, setName] = useState('');
  const [sourceLanguage, setSourceLanguage] = useState(languages.find((l) => l.isDefault)?.key ?? 'en');
  const [link, setLink] = useState(canLink);
  const [error, setError] = useState('');
  const [{ fetching: creating }, create] = useMutation(CreateSharedGlossary);
  const [, setLinked] = useMutation(SetGlossaryLink);
  // A box shows its new state at once (until the list is read again), and its old one when refused.
  const [switched, setSwitched] = useState<Record<number, boolean>>({});
  useEffect(() => setSwitched({}), [shared]);
  const linked = (g: SharedGlossary) => switched[g.id] ?? g.projects.some((p) => p.projectToken === projectToken);

  const toggle = async (g: SharedGlossary, on: boolean) => {
    setSwitched((all) => ({ ...all, [g.id]: on }));
    const result = await setLinked({ glossaryId: g.id, projectToken, linked: on });
    if (result.error) {
      setSwitched(({ [g.id]: _, ...rest }) => rest);
      return onFailed(messageOf(result.error));
    }
    onChanged(on ? t('sharedGlossaries.used', { name: g.name }) : t('sharedGlossaries.notUsed', { name: g.name }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await create({ name: name.trim(), sourceLanguage });
    if (result.error) return setError(messageOf(result.error));
    const created = result.data!.createSharedGlossary;
    setError('');
    setName('');
    if (link) {
      const linkedNow = await setLinked({ glossaryId: created.id, projectToken, linked: true });
      if (linkedNow.error) return setError(messageOf(linkedNow.error));
    }
    onChanged(t(link ? 'sharedGlossaries.createdUsed' : 'sharedGlossaries.created', { name: created.name }));
  };

  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{t('sharedGlossaries.title')}</h2>
      <p className="hint">{t('sharedGlossaries.hint')}</p>
      {shared.length === 0 && <p>{t('sharedGlossaries.none')}</p>}
      {shared.length > 0 && (
        <table className="data-table shared-glossaries">
          <caption className="visually-hidden">{t('sharedGlossaries.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('sharedGlossaries.glossary')}</th>
              <th scope="col">{t('sharedGlossaries.sourceLanguage')}</th>
              <th scope="col">{t('sharedGlossaries.terms')}</th>
              <th scope="col">{t('sharedGlossaries.usedIn')}</th>
              <th scope="col">{t('sharedGlossaries.thisProject')}</th>
            </tr>
          </thead>
          <tbody>
            {shared.map((g) => (
              <tr key={g.id}>
                <th scope="row">
                  {g.name}
                  {!g.owned && <span className="hint"> {t('sharedGlossaries.anothers')}</span>}
                </th>
                <td>{g.sourceLanguage}</td>
                <td>{formatNumber(g.terms)}</td>
                <td>{g.projects.length ? g.projects.map((p) => p.projectName).join(', ') : '—'}</td>
                <td>
                  {g.owned && canLink ? (
                    <label className="check">
                      <input type="checkbox" checked={linked(g)} onChange={(e) => void toggle(g, e.target.checked)} />
                      <span className="visually-hidden">{t('sharedGlossaries.useIn', { name: g.name })}</span>
                      <span aria-hidden="true">{t('sharedGlossaries.usedMark')}</span>
                    </label>
                  ) : linked(g) ? (
                    t('sharedGlossaries.usedMark')
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form className="ops-row shared-glossary-form" aria-label={t('sharedGlossaries.form')} onSubmit={submit}>
        <label>
          {t('sharedGlossaries.name')}
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
        </label>
        <label>
          {t('sharedGlossaries.sourceLanguage')}
          <input
            value={sourceLanguage}
            onChange={(e) => setSourceLanguage(e.target.value)}
            required
            maxLength={35}
            list={`${id}-languages`}
            size={8}
          />
          <datalist id={`${id}-languages`}>
            {languages.map((l) => (
              <option key={l.key} value={l.key}>
                {l.name}
              </option>
            ))}
          </datalist>
        </label>
        {canLink && (
          <label className="check">
            <input type="checkbox" checked={link} onChange={(e) => setLink(e.target.checked)} />{' '}
            {t('sharedGlossaries.useIt')}
          </label>
        )}
        <button type="submit" disabled={creating || !name.trim()}>
          {t('sharedGlossaries.create')}
        </button>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
      </form>
    </section>
  );
}
