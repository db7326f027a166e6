// The editor is the service's module, not the package's: the core imports it
// at run time from <url>/in-context/editor.js (src/http/in-context-script.ts),
// and only when it has a token. No bundler sees that import (its URL is a
// variable, and the comments tell Vite and webpack to leave it alone), so an
// application's build, production or not, carries no editor code.
import type { i18n } from 'i18next';
import type { InContextEditorApi, InContextOptions } from './api.js';
import type { KeyRegistry } from './markers.js';

export const EDITOR_PATH = '/in-context/editor.js';

/** What the core hands the editor: only reading markers, so the service's editor works with older cores. */
export type MarkerReader = Pick<KeyRegistry, 'read'>;

/**
 * The contract between the package's core and the service's editor. The
 * editor comes from whichever service version runs: keep this signature
 * compatible (add optional fields only).
 */
export interface EditorModule {
  startEditor(
    i18next: i18n,
    options: InContextOptions & { token: string },
    registry: MarkerReader,
  ): Promise<InContextEditorApi>;
}

/** The editor's URL at a service (the same base as the GraphQL endpoint's). */
export function editorUrl(serviceUrl: string): string {
  return `${serviceUrl.replace(/\/+$/, '')}${EDITOR_PATH}`;
}

export function loadEditor(serviceUrl: string): Promise<EditorModule> {
  const url = editorUrl(serviceUrl);
  return import(/* @vite-ignore */ /* webpackIgnore: true */ url) as Promise<EditorModule>;
}
