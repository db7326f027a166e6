// The file layout of a repository, written as the official client writes its
// paths: `locales/{lang}/{ns}.json`, with `{lang}`, `{ns}` and `{customer}`
// (spec/real-clients.md). A pattern reads paths (pull: which files, and the
// language, namespace and customer of each) and writes them (push: where each
// exported file goes). The default namespace is `_default` in a path, as in
// the client's downloads (src/transfer/file-names.ts).
import { DEFAULT_NAMESPACE_FILE_NAME } from '../transfer/file-names.js';

export const PLACEHOLDERS = ['lang', 'ns', 'customer'] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

export interface PathParts {
  /** undefined when the pattern has no {lang} (a file of several languages). */
  lang?: string;
  /** The namespace ('' the default); undefined without {ns}. */
  ns?: string;
  customer?: string;
}

export function placeholdersOf(pattern: string): Set<Placeholder> {
  return new Set([...pattern.matchAll(/\{(lang|ns|customer)\}/g)].map((m) => m[1] as Placeholder));
}

/** What is wrong with a pattern, or undefined. */
export function patternProblem(pattern: string): string | undefined {
  if (!pattern.trim()) return 'pathPattern is required';
  if (pattern.length > 500) return 'pathPattern must have at most 500 characters';
  if (pattern.startsWith('/') || /^[A-Za-z]:/.test(pattern))
    return 'pathPattern must be relative to the repository root';
  if (pattern.includes('\\')) return 'pathPattern uses / between folders';
  const parts = pattern.replace(/^\.\//, '').split('/');
  if (parts.some((p) => p === '..' || p === '.' || p === ''))
    return 'pathPattern must not contain empty, . or .. segments';
  if (parts[0] === '.git') return 'pathPattern must not point into .git';
  const unknown = [...pattern.matchAll(/\{([^}]*)\}/g)]
    .map((m) => m[1])
    .filter((name) => !(PLACEHOLDERS as readonly string[]).includes(name!));
  if (unknown.length) return `pathPattern knows {lang}, {ns} and {customer}, not {${unknown[0]}}`;
  const counts = PLACEHOLDERS.map((p) => pattern.split(`{${p}}`).length - 1);
  if (counts.some((c) => c > 1)) return 'pathPattern may use each placeholder once';
  if (/\}\{/.test(pattern)) return 'pathPattern needs a separator between two placeholders';
  return undefined;
}

const normalize = (pattern: string) => pattern.replace(/^\.\//, '');

/** A path → its parts, or undefined when the path does not match the pattern. */
export function matcher(pattern: string): (path: string) => PathParts | undefined {
  const names: Placeholder[] = [];
  const source = normalize(pattern)
    .split(/(\{(?:lang|ns|customer)\})/)
    .map((piece) => {
      const name = /^\{(lang|ns|customer)\}$/.exec(piece)?.[1] as Placeholder | undefined;
      if (name) {
        names.push(name);
        return '([^/]+)';
      }
      return piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  const regex = new RegExp(`^${source}$`);
  return (path) => {
    const found = regex.exec(path);
    if (!found) return undefined;
    const parts: PathParts = {};
    names.forEach((name, i) => {
      const value = found[i + 1]!;
      if (name === 'ns') parts.ns = value === DEFAULT_NAMESPACE_FILE_NAME ? '' : value;
      else parts[name] = value;
    });
    return parts;
  };
}

/** The path of a file with these parts. */
export function fillPattern(pattern: string, parts: PathParts): string {
  return normalize(pattern)
    .replace('{lang}', parts.lang ?? '')
    .replace('{ns}', parts.ns === undefined || parts.ns === '' ? DEFAULT_NAMESPACE_FILE_NAME : parts.ns)
    .replace('{customer}', parts.customer ?? '');
}

/** A value that may stand for a placeholder in a path: one segment, nothing that climbs out. */
export function safeSegment(value: string): boolean {
  return value !== '' && value !== '.' && value !== '..' && !/[/\\\0]/.test(value);
}
