// The Quality screen's overview: open findings per severity, and a table of
// checks (with their severity) by language with totals. Every figure links
// to the list filtered by it.
import { Trans, useTranslation } from 'react-i18next';
import { formatNumber, i18n } from './i18n';
import type { QualityCheck, QualityCount } from './quality-documents';
import { SEVERITIES, severityLabel } from './quality-documents';
import { screenLink } from './hash-params';
import { checkTitle } from './server-text';

interface Props {
  projectToken: string;
  checks: readonly QualityCheck[];
  languages: readonly { key: string; name: string }[];
  counts: readonly QualityCount[];
  /** Written texts still being checked (the figures will change). */
  pending: number;
}

export function QualityOverview({ projectToken, checks, languages, counts, pending }: Props) {
  const { t } = useTranslation();
  const link = (params: Record<string, string>) => screenLink(projectToken, 'quality', params);
  const title = (id: string) => checkTitle(id, checks.find((c) => c.id === id)?.title);
  const open = (match: (c: QualityCount) => boolean) => counts.filter(match).reduce((n, c) => n + c.count, 0);
  const dismissed = counts.reduce((n, c) => n + c.dismissed, 0);
  // One row per check and severity (a severity changed since leaves both until the texts are checked again).
  const rows = [
    ...new Map(counts.map((c) => [`${c.severity}\u0000${c.check}`, { check: c.check, severity: c.severity }])).values(),
  ].sort(
    (a, b) =>
      SEVERITIES.findIndex((s) => s.value === a.severity) - SEVERITIES.findIndex((s) => s.value === b.severity) ||
      title(a.check).localeCompare(title(b.check)),
  );
  const shown = languages.filter((l) => counts.some((c) => c.languageCode === l.key));
  const total = open(() => true);
  return (
    <section aria-labelledby="quality-overview-heading">
      <h2 id="quality-overview-heading">{t('quality.overview')}</h2>
      <p role="status" className="status">
        {pending > 0 ? t('quality.pending', { count: pending }) : ''}
      </p>
      <ul className="severity-totals" aria-label={t('quality.perSeverity')}>
        {SEVERITIES.map((s) => {
          const n = open((c) => c.severity === s.value);
          return (
            <li key={s.value} className={`severity-total severity-${s.value}`}>
              <a href={link({ severity: s.value })}>
                <Trans
                  i18nKey={`quality.totals.${s.value}`}
                  count={n}
                  components={{ figure: <span className="figure" /> }}
                />
              </a>
            </li>
          );
        })}
        {dismissed > 0 && (
          <li className="severity-total">
            <a href={link({ dismissed: '1' })}>
              <Trans
                i18nKey="quality.dismissed"
                count={dismissed}
                components={{ figure: <span className="figure" /> }}
              />
            </a>
          </li>
        )}
      </ul>
      {rows.length === 0 ? (
        <p>{t('quality.noFindings')}</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table quality-counts">
            <caption className="visually-hidden">{t('quality.tableCaption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('quality.check')}</th>
                <th scope="col">{t('quality.severity')}</th>
                {shown.map((l) => (
                  <th key={l.key} scope="col" className="figure-cell">
                    <abbr title={l.name}>{l.key}</abbr>
                  </th>
                ))}
                <th scope="col" className="figure-cell">
                  {t('quality.total')}
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ check, severity }) => {
                const inRow = (c: QualityCount) => c.check === check && c.severity === severity;
                return (
                  <tr key={`${severity}-${check}`}>
                    <th scope="row">{title(check)}</th>
                    <td>
                      <span className={`severity severity-${severity}`}>{severityLabel(severity)}</span>
                    </td>
                    {shown.map((l) => (
                      <td key={l.key} className="figure-cell">
                        <Figure
                          n={open((c) => inRow(c) && c.languageCode === l.key)}
                          href={link({ check, language: l.key })}
                          label={t('quality.checkIn', { check: title(check), language: l.key })}
                        />
                      </td>
                    ))}
                    <td className="figure-cell">
                      <Figure
                        n={open(inRow)}
                        href={link({ check })}
                        label={t('quality.checkAll', { check: title(check) })}
                      />
                    </td>
                  </tr>
                );
              })}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={2}>
                  {t('quality.total')}
                </th>
                {shown.map((l) => (
                  <td key={l.key} className="figure-cell">
                    <Figure
                      n={open((c) => c.languageCode === l.key)}
                      href={link({ language: l.key })}
                      label={t('quality.allIn', { language: l.key })}
                    />
                  </td>
                ))}
                <td className="figure-cell">
                  <Figure n={total} href={link({})} label={t('quality.allOpen')} />
                </td>
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </section>
  );
}

/** A count linking to its findings; a zero links nowhere. */
function Figure({ n, href, label }: { n: number; href: string; label: string }) {
  if (n === 0) return <span className="zero">{formatNumber(0)}</span>;
  return (
    <a href={href} aria-label={i18n.t('quality.figure', { label, count: n })}>
      {formatNumber(n)}
    </a>
  );
}
