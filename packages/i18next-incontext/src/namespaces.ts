import type { i18n } from 'i18next';

/** i18next's default namespace (the first of defaultNS), 'translation' unless configured. */
export function defaultNamespace(i18next: i18n): string {
  const ns = i18next.options.defaultNS;
  return (Array.isArray(ns) ? ns[0] : ns) || 'translation';
}
