// How an app reads the published translations: the CDN's base URL, the
// project token, and a ready i18next (i18next-http-backend) configuration
// whose loadPath points at the chosen environment, each copyable.
import { useTranslation } from 'react-i18next';
import { useRef, useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from './graphql';
import { CopyButton } from './feedback';

const ConnectQuery = graphql(`
  query HostingConnect($projectToken: String!) {
    project(projectToken: $projectToken) { namespaces { name } languages { key isDefault } }
  }
`);

interface EnvironmentUrl {
  key: string;
  name: string;
  url: string;
}

/** A value to copy: a read-only field (selectable, named by its label), with its copy button. */
function Copyable({ label, copyLabel, value }: { label: string; copyLabel: string; value: string }) {
  const field = useRef<HTMLInputElement>(null);
  return (
    <div className="copyable">
      <label>
        {label}
        <input
          ref={field}
          readOnly
          value={value}
          size={Math.min(80, value.length + 2)}
          onFocus={(e) => e.target.select()}
        />
      </label>
      <CopyButton value={value} label={copyLabel} field={() => field.current} />
    </div>
  );
}

export function ConnectApp({ projectToken, environments }: { projectToken: string; environments: EnvironmentUrl[] }) {
  const { t } = useTranslation();
  const [{ data }] = useQuery({ query: ConnectQuery, variables: { projectToken } });
  const preferred = environments.find((e) => e.key === '_production') ?? environments[0];
  const [chosen, setChosen] = useState<string>();
  const environment = environments.find((e) => e.key === chosen) ?? preferred;
  if (!environment) return null;
  // The environment's url is {cdn}/{projectToken}/{environment}.
  const suffix = `/${encodeURIComponent(projectToken)}/${encodeURIComponent(environment.key)}`;
  const cdn = environment.url.endsWith(suffix) ? environment.url.slice(0, -suffix.length) : environment.url;
  const namespaced = (data?.project?.namespaces.length ?? 0) > 0;
  const fallback = data?.project?.languages.find((l) => l.isDefault)?.key ?? 'en';
  const loadPath = `${environment.url}/{{lng}}${namespaced ? '/{{ns}}' : ''}`;
  const snippet = [
    `import i18next from 'i18next';`,
    `import HttpBackend from 'i18next-http-backend';`,
    ``,
    `await i18next.use(HttpBackend).init({`,
    `  fallbackLng: '${fallback}',`,
    ...(namespaced ? [`  ns: [${data!.project!.namespaces.map((n) => `'${n.name}'`).join(', ')}],`] : []),
    `  backend: { loadPath: '${loadPath}' },`,
    `});`,
  ].join('\n');
  return (
    <section aria-labelledby="connect-heading" className="connect-app">
      <h2 id="connect-heading">{t('connect.title')}</h2>
      <p className="hint">{t('connect.hint')}</p>
      <label>
        {t('connect.environment')}
        <select value={environment.key} onChange={(e) => setChosen(e.target.value)}>
          {environments.map((e) => (
            <option key={e.key} value={e.key}>
              {e.name} ({e.key})
            </option>
          ))}
        </select>
      </label>
      <Copyable label={t('connect.cdn')} copyLabel={t('connect.copyCdn')} value={cdn} />
      <Copyable label={t('connect.token')} copyLabel={t('connect.copyToken')} value={projectToken} />
      <Copyable label={t('connect.files')} copyLabel={t('connect.copyFiles')} value={environment.url} />
      <div className="snippet">
        <label>
          {t('connect.config')}
          <textarea readOnly value={snippet} rows={snippet.split('\n').length} cols={72} spellCheck={false} />
        </label>
        <CopyButton value={snippet} label={t('connect.copyConfig')} />
      </div>
    </section>
  );
}
