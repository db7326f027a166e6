// Adding or editing a glossary term: a modal form with the term, its part of
// speech, description, flags and one translation per project language. The
// service checks the term (docs/glossary.md) and its refusal is shown in the
// dialog. Translations of languages the project does not have (a TBX file
// brings many) are kept as they are: the input replaces all translations.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { Modal } from './Modal';
import { CreateTerm, UpdateTerm, termName, type GlossaryTerm } from './glossary-documents';
import { messageOf } from './feedback';

/** The parts of speech TBX files use, offered (the field is free text). */
const PARTS_OF_SPEECH = ['noun', 'verb', 'adjective', 'adverb', 'properNoun', 'other'];

type FlagField = 'forbidden' | 'doNotTranslate' | 'caseSensitive' | 'abbreviation';
const FLAGS: { field: FlagField; label: string; help: string }[] = [
  { field: 'forbidden', label: 'Forbidden', help: 'Must not be used: the check flags it in a translation.' },
  { field: 'doNotTranslate', label: 'Do not translate', help: 'Must appear unchanged in translations.' },
  { field: 'caseSensitive', label: 'Case sensitive', help: 'Matches only as written.' },
  { field: 'abbreviation', label: 'Abbreviation', help: 'Matches only its exact words (no plural rule).' },
];

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
    Object.fromEntries((term?.translations ?? []).map((t) => [t.language, t.text])),
  );
  const [error, setError] = useState('');
  const [{ fetching: creating }, create] = useMutation(CreateTerm);
  const [{ fetching: updating }, update] = useMutation(UpdateTerm);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const others = (term?.translations ?? []).filter((t) => !targets.some((l) => l.key === t.language));

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
    onDone(term ? `Saved ${name}` : `Added ${name}`);
  };

  const title = term ? `Edit ${termName(term)}` : 'New term';
  return (
    <Modal labelledBy={`${id}-title`} onCancel={onCancel}>
      <form onSubmit={submit} className="term-form">
        <h2 id={`${id}-title`}>{title}</h2>
        {sourceLanguage && (
          <p className="hint">The term is written in the glossary&apos;s source language, {sourceLanguage}.</p>
        )}
        <div className="term-fields">
          <label>
            Term
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
            Part of speech
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
          Description
          <textarea value={description} onChange={(e) => setDescription(e.target.value)} rows={2} maxLength={2000} />
        </label>
        <fieldset>
          <legend>Flags</legend>
          {FLAGS.map((f) => (
            <label key={f.field} className="check" title={f.help}>
              <input
                type="checkbox"
                checked={flags[f.field]}
                onChange={(e) => setFlags((all) => ({ ...all, [f.field]: e.target.checked }))}
                aria-describedby={`${id}-${f.field}`}
              />
              {f.label}
              <span id={`${id}-${f.field}`} className="visually-hidden">
                {f.help}
              </span>
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>Translations</legend>
          {targets.length === 0 && <p className="hint">The project has no other language yet.</p>}
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
            <p className="hint">Kept as they are: {others.map((t) => `${t.language} “${t.text}”`).join(', ')}.</p>
          )}
        </fieldset>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <div className="actions">
          <button type="submit" className="primary" disabled={creating || updating}>
            {term ? 'Save term' : 'Add term'}
          </button>
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
