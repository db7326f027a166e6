// The Quality screen's settings: each check off or at a severity for the
// project (setQualityChecks), grouped by the service's categories. A change
// applies at once; the service checks the texts again in the background.
import { useState } from 'react';
import { useMutation } from 'urql';
import { SEVERITIES, SetQualityChecks, severityLabel, type QualityCheck } from './quality-documents';
import { messageOf } from './feedback';

export function QualitySettings({ projectToken, checks, onSaved }: { projectToken: string; checks: readonly QualityCheck[]; onSaved: () => void }) {
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState('');
  const [, save] = useMutation(SetQualityChecks);
  const categories = [...new Set(checks.map((c) => c.category))];
  const change = async (check: QualityCheck, value: string) => {
    const result = await save({ projectToken, checks: [{ check: check.id, severity: value }] });
    if (result.error) return setFailure(messageOf(result.error));
    setFailure('');
    setStatus(`${check.title}: ${value === 'off' ? 'off' : severityLabel(value).toLowerCase()}`);
    onSaved();
  };
  return (
    <section aria-labelledby="quality-settings-heading">
      <h2 id="quality-settings-heading">Check settings</h2>
      <p className="hint">Each check is off or reports at a severity. Only errors can block a publication.</p>
      <div className="check-settings">
        {categories.map((category) => (
          <fieldset key={category}>
            <legend>{category}</legend>
            {checks.filter((c) => c.category === category).map((c) => {
              const fallback = c.enabledByDefault ? c.defaultSeverity : 'off';
              return (
                <label key={c.id} className="check-setting">
                  <span>{c.title}</span>
                  <select aria-label={`Severity of ${c.title}`} value={c.severity ?? 'off'} onChange={(e) => void change(c, e.target.value)}>
                    {[{ value: 'off', label: 'Off' }, ...SEVERITIES].map((s) => (
                      <option key={s.value} value={s.value}>{s.label}{s.value === fallback ? ' (default)' : ''}</option>
                    ))}
                  </select>
                </label>
              );
            })}
          </fieldset>
        ))}
      </div>
      <p role="status" className="status">{status}</p>
      {failure && <p role="alert" className="error">{failure}</p>}
    </section>
  );
}
