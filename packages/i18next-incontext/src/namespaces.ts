import type { i18n } from 'i18next';

/** i18next's default namespace (the first of defaultNS), 'translation' unless configured. */
export function defaultNamespace(i18next: i18n): string {
  const ns: unknown = i18next.options.defaultNS;
  const first: unknown = Array.isArray(ns) ? (ns as unknown[])[0] : ns;
  return typeof first === 'string' && first ? first : 'translation';
}
