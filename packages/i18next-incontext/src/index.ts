// i18next in-context editing (docs/in-context.md in the service's repository).
//
//   import { inContext } from '@localization-service/i18next-incontext';
//   i18next.use(inContext({ url: 'https://l10n.example.com', token: import.meta.env.VITE_INCONTEXT_TOKEN }));
//
// Without a token this module does nothing: no post-processor is registered,
// strings are untouched, and the editor is never fetched. The editor is not
// part of this package at all: with a token it is imported at run time from
// the service (<url>/in-context/editor.js, editor-loader.ts), so no build of
// the application, production or not, carries it.
import type { i18n } from 'i18next';
import type { InContextFactory, InContextModule, InContextOptions } from './api.js';
import { loadEditor } from './editor-loader.js';
import { KeyRegistry } from './markers.js';
import { defaultNamespace } from './namespaces.js';

export type { InContextEditorApi, InContextFactory, InContextModule, InContextOptions } from './api.js';

const POST_PROCESSOR = 'lmsInContext';

/** The i18next namespace and key of a `t()` call's key. */
function keyOf(
  i18next: i18n,
  rawKey: string | string[],
  options: { ns?: string | readonly string[] },
): { key: string; ns: string } {
  const key = Array.isArray(rawKey) ? rawKey[0]! : rawKey;
  const nsSeparator = i18next.options.nsSeparator;
  if (typeof nsSeparator === 'string' && nsSeparator && key.includes(nsSeparator)) {
    const at = key.indexOf(nsSeparator);
    return { ns: key.slice(0, at), key: key.slice(at + nsSeparator.length) };
  }
  const given: unknown = options.ns;
  const ns: unknown = Array.isArray(given) ? (given as unknown[])[0] : given;
  return { key, ns: typeof ns === 'string' ? ns : defaultNamespace(i18next) };
}

export const inContext: InContextFactory = (options: InContextOptions): InContextModule => {
  const registry = new KeyRegistry();
  const module: InContextModule = {
    type: '3rdParty',
    keysIn: (text) => registry.read(text).keys,
    init(i18next: i18n) {
      const token = options.token?.trim();
      if (!token) return;
      const namespaceOf = options.namespace ?? ((ns: string) => (ns === defaultNamespace(i18next) ? '' : ns));
      i18next.use({
        type: 'postProcessor',
        name: POST_PROCESSOR,
        process(value: unknown, rawKey: string | string[], callOptions: { ns?: string | readonly string[] }) {
          if (typeof value !== 'string') return value;
          const { key, ns } = keyOf(i18next, rawKey, callOptions);
          return registry.mark(value, { key, namespace: namespaceOf(ns) });
        },
      });
      const current: unknown = i18next.options.postProcess;
      const names = (Array.isArray(current) ? (current as unknown[]) : [current]).filter(
        (name): name is string => typeof name === 'string',
      );
      if (!names.includes(POST_PROCESSOR)) i18next.options.postProcess = [...names, POST_PROCESSOR];
      // The editor works on a page: not during server-side rendering.
      if (typeof document === 'undefined') return;
      module.editor = loadEditor(options.url).then(({ startEditor }) =>
        startEditor(i18next, { ...options, token }, registry),
      );
    },
  };
  return module;
};

export default inContext;
