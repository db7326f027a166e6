// Adding or editing a glossary term: a modal form with the term, its part of
// speech, description, flags and one translation per project language. The
// service checks the term (docs/glossary.md) and its refusal is shown in the
// dialog. Translations of languages the project does not have (a TBX file
// brings many) are kept as they are: the input replaces all translations.
import { useTranslation } from 'react-i18next';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { Modal } from './Modal';
import { CreateTerm, UpdateTerm, termName, type GlossaryTerm } from './glossary-documents';
import { messageOf } from './feedback';

/** The parts of speech TBX files use, offered (the field is free text). */
const PARTS_OF_SPEECH = ['noun', 'verb', 'adjective', 'adverb', 'properNoun', 'other'];

type FlagField = 'forbidden' | 'doNotTranslate' | 'caseSensitive' | 'abbreviation';
const FLAGS: FlagField[] = ['forbidden', 'doNotTranslate', 'caseSensitive', 'abbreviation'];

interface Props {
  projectToken: string;
  /** A shared glossary; null: the project's own. */
  glossaryId: number | null;
  term?: GlossaryTerm;
  sourceLanguage: string;
  targets: readonly { key: string; name: string }[];
  onCancel: () => void;
  onDone: (message: string) => void;
}

export function GlossaryTermDialog({
  projectToken,
  glossaryId,
  term,
  sourceLanguage,
  targets,
  onCancel,
  onDone,
}: Props) {
  const { t } = useTranslation();
  const id = useId();
  const [text, setText] = useState(term?.term ?? '');
  const [partOfSpeech, setPartOfSpeech] = useState(term?.partOfSpeech ?? '');
  const [description, setDescription] = useState(term?.description ?? '');
  const [flags, setFlags] = useState<Record<FlagField, boolean>>({
    forbidden: term?.forbidden ?? false,
    doNotTranslate: term?.doNotTranslate ?? false,
    caseSensitive: term?.caseSensitive ?? false,
    abbreviation: term?.abbreviation ?? false,
  });
  const [translations, setTranslations] = useState<Record<string, string>>(() =>
    Object.fromEntries((term?.translations ?? []).map((x) => [x.language, x.text])),
  );
  const [error, setError] = useState('');
  const [{ fetching: creating }, create] = useMutation(CreateTerm);
  const [{ fetching: updating }, update] = useMutation(UpdateTerm);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const others = (term?.translations ?? []).filter((x) => !targets.some((l) => l.key === x.language));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = {
      term: text,
      partOfSpeech,
      description,
      ...flags,
      // Every language the term has or the form shows; an empty text removes a translation.
      translations: [...targets.map((l) => ({ language: l.key, text: translations[l.key] ?? '' })), ...others],
    };
    const result = term
      ? await update({ projectToken, id: term.id, input })
      : await create({ projectToken: glossaryId === null ? projectToken : null, glossaryId, input });
    if (result.error) return setError(messageOf(result.error));
    const name = termName({ term: text.trim(), partOfSpeech: partOfSpeech.trim() });
    onDone(term ? t('termDialog.saved', { term: name }) : t('termDialog.added', { term: name }));
  };

  const title = term ? t('termDialog.editTitle', { term: termName(term) }) : t('termDialog.newTitle');
  return (
    <Modal labelledBy={`${id}-title`} onCancel={onCancel}>
      <form onSubmit={submit} className="term-form">
        <h2 id={`${id}-title`}>{title}</h2>
        {sourceLanguage && <p className="hint">{t('termDialog.sourceHint', { language: sourceLanguage })}</p>}
        <div className="term-fields">
          <label>
            {t('termDialog.term')}
            <input
              ref={first}
              value={text}
              onChange={(e) => setText(e.target.value)}
              required
              maxLength={500}
              lang={sourceLanguage || undefined}
            />
          </label>
          <label>
            {t('termDialog.partOfSpeech')}
            <input
              value={partOfSpeech}
              onChange={(e) => setPartOfSpeech(e.target.value)}
              maxLength={50}
              list={`${id}-pos`}
            />
            <datalist id={`${id}-pos`}>
              {PARTS_OF_SPEECH.map((p) => (
                <option key={p} value={p} />
              ))}
            </datalist>
          </label>
        </div>
        <label>
          {t('termDialog.description')}
          <textarea value={description} onChange={(e) => setDescription(e.target.value)} rows={2} maxLength={2000} />
        </label>
        <fieldset>
          <legend>{t('termDialog.flags')}</legend>
          {FLAGS.map((f) => (
            <label key={f} className="check" title={t(`termDialog.flag.${f}.help`)}>
              <input
                type="checkbox"
                checked={flags[f]}
                onChange={(e) => setFlags((all) => ({ ...all, [f]: e.target.checked }))}
                aria-describedby={`${id}-${f}`}
              />
              {t(`termDialog.flag.${f}.label`)}
              <span id={`${id}-${f}`} className="visually-hidden">
                {t(`termDialog.flag.${f}.help`)}
              </span>
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>{t('termDialog.translations')}</legend>
          {targets.length === 0 && <p className="hint">{t('termDialog.noOtherLanguage')}</p>}
          <div className="term-translation-fields">
            {targets.map((l) => (
              <label key={l.key}>
                {l.name || l.key} ({l.key})
                <input
                  value={translations[l.key] ?? ''}
                  onChange={(e) => setTranslations((all) => ({ ...all, [l.key]: e.target.value }))}
                  maxLength={500}
                  lang={l.key}
                />
              </label>
            ))}
          </div>
          {others.length > 0 && (
            <p className="hint">
              {t('termDialog.keptAsTheyAre', {
                list: others.map((x) => `${x.language} ${t('termHistory.quoted', { value: x.text })}`).join(', '),
              })}
            </p>
          )}
        </fieldset>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <div className="actions">
          <button type="submit" className="primary" disabled={creating || updating}>
            {term ? t('termDialog.save') : t('termDialog.add')}
          </button>
          <button type="button" onClick={onCancel}>
            {t('common.cancel')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
