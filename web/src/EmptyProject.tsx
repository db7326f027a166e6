// What the editor shows for a project without keys: the three ways to fill it
// (import a file, create a key, send a file from a script or CI).
import { Trans, useTranslation } from 'react-i18next';
import { CopyButton } from './feedback';

export function EmptyProject({ projectToken, defaultLanguage }: { projectToken: string; defaultLanguage: string }) {
  const { t } = useTranslation();
  const language = defaultLanguage || 'en';
  const command = [
    `curl -X POST '${location.origin}/api/v2/import?uploadFormat=single-language-json&languageKey=${language}' \\`,
    `  -H "X-Service-Token: $PROJECT_API_KEY" \\`,
    `  -F file=@${language}.json`,
  ].join('\n');
  return (
    <section className="empty-state" aria-labelledby="empty-project-title">
      <h2 id="empty-project-title">{t('emptyProject.title')}</h2>
      <p>{t('emptyProject.intro')}</p>
      <ul>
        <li>
          <Trans
            i18nKey="emptyProject.import"
            components={{ a: <a href={`#/projects/${encodeURIComponent(projectToken)}/import`} /> }}
          />
        </li>
        <li>
          <button
            type="button"
            className="link"
            onClick={() => document.querySelector<HTMLInputElement>('form.new-key input')?.focus()}
          >
            {t('emptyProject.createKey')}
          </button>{' '}
          {t('emptyProject.createKeyRest')}
        </li>
        <li>
          <Trans
            i18nKey="emptyProject.script"
            components={{ a: <a href={`#/projects/${encodeURIComponent(projectToken)}/settings`} /> }}
          />
          <pre aria-label={t('emptyProject.command')} tabIndex={0}>
            <code>{command}</code>
          </pre>
          <CopyButton value={command} label={t('emptyProject.copyCommand')} />
        </li>
      </ul>
    </section>
  );
}
