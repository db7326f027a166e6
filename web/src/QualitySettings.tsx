// The Quality screen's settings: each check off or at a severity for the
// project (setQualityChecks), grouped by the service's categories, and the
// placeholder style its texts are written in (the dialects the service lists). A change
// applies at once; the service checks the texts again in the background.
import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import { useMutation } from 'urql';
import {
  SEVERITIES,
  SetQualityChecks,
  severityLabel,
  type PlaceholderDialect,
  type QualityCheck,
} from './quality-documents';
import { messageOf } from './feedback';
import { checkTitle } from './server-text';

export function QualitySettings({
  projectToken,
  checks,
  dialect,
  dialects,
  onSaved,
}: {
  projectToken: string;
  checks: readonly QualityCheck[];
  dialect: string;
  dialects: readonly PlaceholderDialect[];
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const [status, setStatus] = useState('');
  // Shown at once; the service's answer confirms it.
  const [style, setStyle] = useState(dialect);
  const [failure, setFailure] = useState('');
  const [, save] = useMutation(SetQualityChecks);
  const categories = [...new Set(checks.map((c) => c.category))];
  const change = async (check: QualityCheck, value: string) => {
    const result = await save({ projectToken, checks: [{ check: check.id, severity: value }] });
    if (result.error) return setFailure(messageOf(result.error));
    setFailure('');
    setStatus(
      t('qualitySettings.changed', {
        check: checkTitle(check.id, check.title),
        severity: value === 'off' ? t('qualitySettings.off') : severityLabel(value).toLowerCase(),
      }),
    );
    onSaved();
  };
  const changeDialect = async (value: string) => {
    const previous = style;
    setStyle(value);
    const result = await save({ projectToken, placeholderDialect: value });
    if (result.error) {
      setStyle(previous);
      return setFailure(messageOf(result.error));
    }
    setFailure('');
    setStatus(t('qualitySettings.dialectChanged', { name: dialects.find((d) => d.id === value)?.name ?? value }));
    onSaved();
  };
  return (
    <section aria-labelledby="quality-settings-heading">
      <h2 id="quality-settings-heading">{t('qualitySettings.title')}</h2>
      <p className="hint">{t('qualitySettings.hint')}</p>
      <label className="dialect-setting">
        {t('qualitySettings.dialect')}
        <select value={style} onChange={(e) => void changeDialect(e.target.value)}>
          {dialects.map((d) => (
            <option key={d.id} value={d.id}>
              {d.name}
            </option>
          ))}
        </select>
      </label>
      <div className="check-settings">
        {categories.map((category) => (
          <fieldset key={category}>
            <legend>{category}</legend>
            {checks
              .filter((c) => c.category === category)
              .map((c) => {
                const fallback = c.enabledByDefault ? c.defaultSeverity : 'off';
                return (
                  <label key={c.id} className="check-setting">
                    <span>{checkTitle(c.id, c.title)}</span>
                    <select
                      aria-label={t('qualitySettings.severityOf', { check: checkTitle(c.id, c.title) })}
                      value={c.severity ?? 'off'}
                      onChange={(e) => void change(c, e.target.value)}
                    >
                      {[{ value: 'off', label: t('qualitySettings.offOption') }, ...SEVERITIES].map((s) => (
                        <option key={s.value} value={s.value}>
                          {s.label}
                          {s.value === fallback ? ` ${t('qualitySettings.default')}` : ''}
                        </option>
                      ))}
                    </select>
                  </label>
                );
              })}
          </fieldset>
        ))}
      </div>
      <p role="status" className="status">
        {status}
      </p>
      {failure && (
        <p role="alert" className="error">
          {failure}
        </p>
      )}
    </section>
  );
}
