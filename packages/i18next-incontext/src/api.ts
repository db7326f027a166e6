// The package's public types (dist/index.d.ts is emitted from this file).
import type { i18n, ThirdPartyModule } from 'i18next';

export interface InContextOptions {
  /** The in-context token made in the service's console (project settings). Absent or empty: the plugin does nothing. */
  token?: string | null;
  /** The service's URL, e.g. https://l10n.example.com (GraphQL at /graphql, WebSocket on the same path). */
  url: string;
  /**
   * The service namespace of an i18next namespace. Default: i18next's default
   * namespace is the service's empty namespace, any other keeps its name.
   */
  namespace?: (i18nextNamespace: string) => string;
  /** The i18next namespace of a service namespace (the inverse of `namespace`). */
  i18nextNamespace?: (serviceNamespace: string) => string;
  /**
   * Called after texts changed (a save, or a change by someone else), once
   * i18next's store holds the new text. Default: `i18n.changeLanguage(i18n.language)`,
   * which emits `languageChanged` (what react-i18next re-renders on).
   */
  rerender?: (i18n: i18n) => void | Promise<void>;
  /** Listen to others' changes through the service's change subscription. Default true. */
  live?: boolean;
}

/** The i18next module `inContext(options)` returns: give it to `i18next.use()`. */
export interface InContextModule extends ThirdPartyModule {
  /** The editor, once enabled (absent without a token, before init, or outside a browser). */
  editor?: Promise<InContextEditorApi>;
  /** The keys whose markers a text holds (none without a token: there are no markers). */
  keysIn(text: string): { key: string; namespace: string }[];
}

export type InContextFactory = (options: InContextOptions) => InContextModule;

/** What the editor exposes once enabled (`window.i18nextInContext` and the plugin's `editor` promise). */
export interface InContextEditorApi {
  /** Opens the overlay for a key (as Alt+click does). */
  open(key: string, namespace?: string): Promise<void>;
  /** Screenshots the page with every translated element marked, uploads it and links the keys found; resolves to the screenshot's id. */
  capture(): Promise<{
    screenshotId: number;
    marks: { key: string; namespace: string; x: number; y: number; width: number; height: number }[];
  }>;
  /** The keys currently shown in the page, with their elements. */
  elements(): { element: Element; key: string; namespace: string }[];
  /** Stops observing, closes the overlay and the live subscription. */
  stop(): void;
}
