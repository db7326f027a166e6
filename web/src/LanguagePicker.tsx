// A language chosen from a searchable list of CLDR locales by name (in English
// or in the language itself) rather than typed as a code: a combobox with a
// listbox (arrows move, Enter chooses, Escape closes), per the ARIA
// combobox pattern.
import { Trans, useTranslation } from 'react-i18next';
import { useId, useMemo, useState } from 'react';
import { customLocale, searchLocales, type LocaleChoice } from './locales';

export function LanguagePicker({
  taken,
  onChoose,
}: {
  /** Codes the project has already: not offered. */
  taken: string[];
  onChoose(choice: LocaleChoice): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const results = useMemo(() => {
    if (!open) return [];
    const found = searchLocales(query, 60).filter((l) => !taken.includes(l.code));
    // Last, the typed text as a code of its own, unless the list has it already.
    const custom = customLocale(query);
    const known = custom && found.some((l) => l.code.toLowerCase() === custom.code.toLowerCase());
    return custom && !known && !taken.includes(custom.code) ? [...found, { ...custom, custom: true }] : found;
  }, [open, query, taken]);
  const choose = (choice: LocaleChoice) => {
    onChoose({ code: choice.code, name: choice.name, native: choice.native });
    setQuery('');
    setOpen(false);
  };
  return (
    <div className="language-picker">
      <label htmlFor={`${id}-input`}>{t('languagePicker.label')}</label>
      <input
        id={`${id}-input`}
        role="combobox"
        aria-expanded={open && results.length > 0}
        aria-controls={`${id}-list`}
        aria-autocomplete="list"
        aria-activedescendant={open && results[active] ? `${id}-${results[active]!.code}` : undefined}
        placeholder={t('languagePicker.placeholder')}
        autoComplete="off"
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setOpen(true);
            setActive((a) => Math.min(a + 1, results.length - 1));
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((a) => Math.max(a - 1, 0));
          } else if (e.key === 'Enter' && open && results[active]) {
            e.preventDefault();
            choose(results[active]!);
          } else if (e.key === 'Escape') setOpen(false);
        }}
      />
      {open && results.length > 0 && (
        <ul id={`${id}-list`} role="listbox" aria-label={t('languagePicker.list')} className="language-options">
          {results.map((l, i) => (
            <li
              key={l.code}
              id={`${id}-${l.code}`}
              role="option"
              aria-selected={i === active}
              // Before the input's blur closes the list.
              onMouseDown={(e) => {
                e.preventDefault();
                choose(l);
              }}
            >
              {'custom' in l ? (
                <span>
                  <Trans i18nKey="languagePicker.useCode" values={{ code: l.code }} components={{ code: <code /> }} />
                  {l.name && ` (${l.name})`}
                </span>
              ) : (
                <>
                  <span>{l.name}</span>
                  {l.native && l.native !== l.name && <span className="native"> · {l.native}</span>}
                  <code> {l.code}</code>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
