// What the editor shows for a project without keys: the three ways to fill it
// (import a file, create a key, send a file from a script or CI).
import { CopyButton } from './feedback';

export function EmptyProject({ projectToken, defaultLanguage }: { projectToken: string; defaultLanguage: string }) {
  const language = defaultLanguage || 'en';
  const command = [
    `curl -X POST '${location.origin}/api/v2/import?uploadFormat=single-language-json&languageKey=${language}' \\`,
    `  -H "X-Service-Token: $PROJECT_API_KEY" \\`,
    `  -F file=@${language}.json`,
  ].join('\n');
  return (
    <section className="empty-state" aria-labelledby="empty-project-title">
      <h2 id="empty-project-title">This project has no keys yet</h2>
      <p>Bring in the texts of your app one of three ways:</p>
      <ul>
        <li>
          <a href={`#/projects/${encodeURIComponent(projectToken)}/import`}>Import a file</a>: JSON, YAML, PO, XLIFF,
          Android, iOS strings and more, previewed before anything changes.
        </li>
        <li>
          <button
            type="button"
            className="link"
            onClick={() => document.querySelector<HTMLInputElement>('form.new-key input')?.focus()}
          >
            Create a key
          </button>{' '}
          by hand with the New key field above.
        </li>
        <li>
          From a script or CI, with the project API key from the{' '}
          <a href={`#/projects/${encodeURIComponent(projectToken)}/settings`}>project settings</a>:
          <pre aria-label="Import command" tabIndex={0}>
            <code>{command}</code>
          </pre>
          <CopyButton value={command} label="Copy command" />
        </li>
      </ul>
    </section>
  );
}
