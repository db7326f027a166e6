// Where published files live, and the paths apps fetch them by.
//
// A resource is addressed by its path below `{projectToken}/{environmentKey}/`
// (`_index`, `en`, `en/common`, `_index_acme`, ...). Its bytes are stored once
// per publication version, named by content hash, under
// `{projectToken}/{environmentKey}/.versions/{version}/`. The environment
// serves the version its current publication (a database row) points to, so a
// publication becomes visible all at once when that pointer switches.

export type Encoding = 'identity' | 'gzip' | 'br';

export interface PublishedResource {
  /** The contract's link: `{projectToken}/{environmentKey}/{path}`, each segment URL-encoded. */
  link: string;
  /** Bytes of the JSON file. */
  size: number;
  language?: string;
  namespace?: string;
  customer?: string;
  /** Decoded path below the environment (the CDN looks requests up by it). */
  path: string;
  /** Content hash: names the stored object and is the HTTP ETag. */
  hash: string;
  /** Sizes of the precompressed variants, present only when smaller than the JSON. */
  gzip?: number;
  br?: number;
}

export const INDEX = '_index';
export const LANGUAGES = '_languages';
export const CUSTOMERS = '_customers';

export const paths = {
  index: () => INDEX,
  languages: () => LANGUAGES,
  customers: () => CUSTOMERS,
  language: (language: string) => language,
  namespace: (language: string, namespace: string) => `${language}/${namespace}`,
  customerIndex: (customer: string) => `${INDEX}_${customer}`,
  customerLanguage: (language: string, customer: string) => `${language}_${customer}`,
};

/** The contract's link of a resource: each path segment URL-encoded (a namespace's own "/" included). */
export function linkOf(
  projectToken: string,
  environmentKey: string,
  resource: { path: string; language?: string; namespace?: string; customer?: string },
): string {
  const segments =
    resource.namespace !== undefined && resource.language !== undefined
      ? [resource.language, resource.namespace]
      : [resource.path];
  return [projectToken, environmentKey, ...segments].map(encodeURIComponent).join('/');
}

export function versionsPrefix(projectToken: string, environmentKey: string): string {
  return `${projectToken}/${environmentKey}/.versions/`;
}

export function versionPrefix(projectToken: string, environmentKey: string, version: string): string {
  return `${versionsPrefix(projectToken, environmentKey)}${version}/`;
}

const SUFFIX: Record<Encoding, string> = { identity: '.json', gzip: '.json.gz', br: '.json.br' };

export function objectKey(
  projectToken: string,
  environmentKey: string,
  version: string,
  hash: string,
  encoding: Encoding = 'identity',
): string {
  return `${versionPrefix(projectToken, environmentKey, version)}${hash}${SUFFIX[encoding]}`;
}
