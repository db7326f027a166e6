// The editor, loaded only when the plugin has a token, from the service: it
// is built as a module of its own (scripts/build-incontext.mjs) and served at
// /in-context/editor.js, never part of the package (editor-loader.ts). It finds the keys shown
// in the page (the markers of markers.ts, read by a MutationObserver and
// removed from the DOM), opens the overlay on Alt+click, saves through the
// service's GraphQL (updateTranslation: the write gate), updates i18next's
// store and re-renders, applies others' changes live (translationChanges),
// and captures screenshots with every translated element marked.
import type { i18n } from 'i18next';
import { toCanvas } from 'html-to-image';
// The service's own quality checks (pure functions), bundled into this module.
import { runChecks } from '../../../src/checks/index.js';
import type { InContextEditorApi, InContextOptions } from './api.js';
import { defaultNamespace } from './namespaces.js';
import { hasMarker, type MarkedKey } from './markers.js';
import type { EditorModule, MarkerReader } from './editor-loader.js';
import { ServiceClient, ServiceError } from './client.js';
import { Overlay, type OverlayLanguage } from './overlay.js';

/** Attributes that show translated text. */
const ATTRIBUTES = ['placeholder', 'title', 'aria-label', 'alt', 'value'];

interface Session {
  projectToken: string;
  projectName: string;
  languages: string[];
  capture: boolean;
}
interface ServiceLanguage {
  key: string;
  name: string;
  isDefault: boolean;
}

const SESSION = '{ inContextSession { projectToken projectName languages capture } languages { key name isDefault } }';
const KEY = `query ($key: String!, $namespace: String) { translationKey(key: $key, namespace: $namespace) {
  key namespace description charactersLimit
  translations { language text lastModifiedAt }
  screenshots { screenshot { id name thumbnailPath } }
} }`;
const SAVE = `mutation ($input: UpdateTranslationInput!) { updateTranslation(input: $input) { language text lastModifiedAt } }`;
const CHANGES = 'subscription { translationChanges { key namespace language customerKey newText } }';
const LINK = `mutation ($s: Int!, $key: String!, $namespace: String, $r: ScreenshotRectangleInput!) {
  linkScreenshotKey(screenshotId: $s, key: $key, namespace: $namespace, rectangle: $r) { id } }`;

export async function startEditor(
  i18next: i18n,
  options: InContextOptions & { token: string },
  registry: MarkerReader,
): Promise<InContextEditorApi> {
  const client = new ServiceClient(options.url, options.token);
  const [{ inContextSession: session, languages }] = await Promise.all([
    client.gql<{ inContextSession: Session; languages: ServiceLanguage[] }>(SESSION),
    domReady(),
  ]);
  const i18nNamespace = options.i18nextNamespace ?? ((ns: string) => (ns === '' ? defaultNamespace(i18next) : ns));
  const rerender = options.rerender ?? ((i) => i.changeLanguage(i.language).then(() => undefined));
  const tracked = new Map<Element, MarkedKey[]>();

  // --- finding the keys -------------------------------------------------
  const track = (element: Element | null, keys: MarkedKey[]) => {
    if (!element || !keys.length) return;
    const known = tracked.get(element) ?? [];
    for (const k of keys) if (!known.some((e) => e.key === k.key && e.namespace === k.namespace)) known.push(k);
    tracked.set(element, known);
  };
  const readText = (node: Text) => {
    if (!hasMarker(node.nodeValue)) return;
    const { keys, text } = registry.read(node.nodeValue!);
    node.nodeValue = text;
    track(node.parentElement, keys);
  };
  const readAttribute = (element: Element, name: string) => {
    const value = element.getAttribute(name);
    if (!hasMarker(value)) return;
    const { keys, text } = registry.read(value!);
    element.setAttribute(name, text);
    if (name === 'value' && 'value' in element) (element as HTMLInputElement).value = text;
    track(element, keys);
  };
  const scan = (root: Node) => {
    if (root.nodeType === Node.TEXT_NODE) return readText(root as Text);
    if (root.nodeType !== Node.ELEMENT_NODE && root.nodeType !== Node.DOCUMENT_FRAGMENT_NODE) return;
    if (root === overlay.host || root === toolbar) return;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let node: Node | null = root; node; node = walker.nextNode()) {
      if (node.nodeType === Node.TEXT_NODE) readText(node as Text);
      else for (const name of ATTRIBUTES) readAttribute(node as Element, name);
    }
  };
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'characterData') readText(record.target as Text);
      else if (record.type === 'attributes') readAttribute(record.target as Element, record.attributeName!);
      else record.addedNodes.forEach(scan);
    }
  });

  const elements = () => {
    const found: { element: Element; key: string; namespace: string }[] = [];
    for (const [element, keys] of tracked) {
      if (!element.isConnected) {
        tracked.delete(element);
        continue;
      }
      for (const k of keys) found.push({ element, ...k });
    }
    return found;
  };

  // --- the overlay ------------------------------------------------------
  const writable = (language: string) => session.languages.length === 0 || session.languages.includes(language);
  const lastModified = new Map<string, string | null>();
  let openedDefault = '';
  let openedLimit: number | null = null;
  const defaultLanguage = languages.find((l) => l.isDefault)?.key ?? languages[0]?.key ?? '';

  const overlay: Overlay = new Overlay({
    check: (language, text) => {
      if (language === defaultLanguage) return [];
      return runChecks({
        source: openedDefault,
        target: text,
        sourceLanguage: defaultLanguage,
        targetLanguage: language,
        charactersLimit: openedLimit,
        dialect: 'i18next',
      });
    },
    save: async (changed) => {
      const target = overlay.openKey!;
      for (const { language, text } of changed) {
        const cell = `${language}`;
        try {
          const saved = await client.gql<{ updateTranslation: { text: string; lastModifiedAt: string | null } }>(SAVE, {
            input: {
              key: target.key,
              namespace: target.namespace,
              language,
              text,
              expectedLastModifiedAt: lastModified.get(cell) ?? '1970-01-01T00:00:00Z',
            },
          });
          lastModified.set(cell, saved.updateTranslation.lastModifiedAt);
          applyText(language, target.namespace, target.key, saved.updateTranslation.text);
        } catch (error) {
          if (error instanceof ServiceError && error.code === 'CONFLICT')
            throw new Error(`${language} was changed by someone else meanwhile; close and open again to see it`, {
              cause: error,
            });
          throw error;
        }
      }
      await rerender(i18next);
    },
    openKey: (key, namespace) => void open(key, namespace),
  });

  async function open(key: string, namespace = '', otherKeys: MarkedKey[] = []): Promise<void> {
    const { translationKey } = await client.gql<{
      translationKey: {
        key: string;
        namespace: string;
        description: string;
        charactersLimit: number | null;
        translations: { language: string; text: string; lastModifiedAt: string | null }[];
        screenshots: { screenshot: { id: number; name: string; thumbnailPath: string } }[];
      };
    }>(KEY, { key, namespace });
    lastModified.clear();
    for (const t of translationKey.translations) lastModified.set(t.language, t.lastModifiedAt);
    const texts = new Map(translationKey.translations.map((t) => [t.language, t.text]));
    openedDefault = texts.get(defaultLanguage) ?? '';
    openedLimit = translationKey.charactersLimit;
    const shots = new Map(translationKey.screenshots.map((s) => [s.screenshot.id, s.screenshot]));
    const list: OverlayLanguage[] = languages.map((l) => ({
      key: l.key,
      name: l.name,
      isDefault: l.isDefault,
      text: texts.get(l.key) ?? '',
      writable: writable(l.key),
    }));
    overlay.open({
      key: translationKey.key,
      namespace: translationKey.namespace,
      description: translationKey.description,
      languages: list,
      screenshots: [...shots.values()].map((s) => ({ name: s.name, url: client.imageUrl(s.thumbnailPath) })),
      otherKeys: otherKeys.filter((k) => k.key !== key || k.namespace !== namespace),
    });
  }

  function keysAt(target: EventTarget | null): MarkedKey[] {
    for (let node = target instanceof Node ? target : null; node; node = node.parentNode) {
      const keys = node instanceof Element ? tracked.get(node) : undefined;
      if (keys?.length) return keys;
    }
    return [];
  }

  const onClick = (event: MouseEvent) => {
    if (!event.altKey || event.composedPath().includes(overlay.host)) return;
    const keys = keysAt(event.target);
    if (!keys.length) return;
    // Alt+click on a link would download it, on a button would act: the click is the editor's.
    event.preventDefault();
    event.stopImmediatePropagation();
    void open(keys[0]!.key, keys[0]!.namespace, keys).catch((error: unknown) =>
      notify(`Could not open ${keys[0]!.key}: ${(error as Error).message}`),
    );
  };

  // --- texts into i18next -------------------------------------------------
  function applyText(language: string, namespace: string, key: string, text: string): boolean {
    const ns = i18nNamespace(namespace);
    // Only bundles the app has loaded: a bundle made here would keep its backend from loading the rest.
    if (!i18next.hasResourceBundle(language, ns)) return false;
    i18next.addResource(language, ns, key, text, { silent: true });
    return true;
  }

  let pending: ReturnType<typeof setTimeout> | undefined;
  const stopLive =
    options.live === false
      ? () => {}
      : client.subscribe<{
          translationChanges: {
            key: string;
            namespace: string;
            language: string | null;
            customerKey: string | null;
            newText: string;
          };
        }>(CHANGES, ({ translationChanges: change }) => {
          if (change.customerKey !== null || change.language === null) return;
          const open = overlay.openKey;
          if (open && open.key === change.key && open.namespace === change.namespace)
            overlay.update(change.language, change.newText);
          if (!applyText(change.language, change.namespace, change.key, change.newText)) return;
          clearTimeout(pending);
          pending = setTimeout(() => void rerender(i18next), 30);
        });

  // --- capture --------------------------------------------------------------
  const toolbar = document.createElement('lms-incontext-toolbar');
  const toolbarRoot = toolbar.attachShadow({ mode: 'open' });
  const status = document.createElement('p');
  status.setAttribute('role', 'status');

  function notify(message: string) {
    status.textContent = message;
  }

  async function capture() {
    // The current view: the viewport as the translator sees it (scrolled where it is), not the whole page.
    const node = document.body;
    const ratio = window.devicePixelRatio || 1;
    const box = node.getBoundingClientRect();
    const width = document.documentElement.clientWidth;
    const height = document.documentElement.clientHeight;
    const background = getComputedStyle(node).backgroundColor;
    const canvas = await toCanvas(node, {
      width,
      height,
      pixelRatio: ratio,
      // The body is drawn where the viewport shows it: its own margin off, moved by its box's offset (scrolling included).
      style: { margin: '0', transform: `translate(${box.left}px, ${box.top}px)`, transformOrigin: '0 0' },
      backgroundColor: background === 'rgba(0, 0, 0, 0)' ? '#ffffff' : background,
      filter: (n) => n !== overlay.host && n !== toolbar,
    });
    const image = await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('The page could not be drawn'))), 'image/png'),
    );
    // Marks in the image's pixels: viewport coordinates times the pixel ratio; elements out of view are not marked.
    const marks = elements().flatMap(({ element, key, namespace }) => {
      const r = element.getBoundingClientRect();
      const left = Math.max(0, r.left);
      const top = Math.max(0, r.top);
      const x = Math.round(left * ratio);
      const y = Math.round(top * ratio);
      const w = Math.min(canvas.width - x, Math.round((Math.min(r.right, width) - left) * ratio));
      const h = Math.min(canvas.height - y, Math.round((Math.min(r.bottom, height) - top) * ratio));
      return w > 0 && h > 0 ? [{ key, namespace, x, y, width: w, height: h }] : [];
    });
    const name = `${document.title || location.pathname} ${new Date().toISOString().slice(0, 19).replace('T', ' ')}.png`;
    const screenshotId = await client.uploadScreenshot(image, name);
    for (const m of marks) {
      await client.gql(LINK, {
        s: screenshotId,
        key: m.key,
        namespace: m.namespace,
        r: { x: m.x, y: m.y, width: m.width, height: m.height },
      });
    }
    return { screenshotId, marks };
  }

  if (session.capture) {
    const style = document.createElement('style');
    style.textContent = `:host { all: initial; } div { position: fixed; right: 12px; bottom: 12px; z-index: 2147483645; background: #fff; border: 1px solid #9aa3b2; border-radius: 6px; padding: 6px 8px; font: 13px system-ui, sans-serif; box-shadow: 0 4px 16px rgba(0,0,0,.2); display: flex; gap: 8px; align-items: center; } button { font: inherit; padding: 4px 10px; } p { margin: 0; }`;
    const button = document.createElement('button');
    button.textContent = 'Capture screenshot';
    // The handler reports its own failure (notify): nothing is left to reject.
    const onCapture = async () => {
      button.disabled = true;
      notify('Capturing…');
      try {
        const { marks } = await capture();
        notify(`Screenshot uploaded with ${marks.length} key${marks.length === 1 ? '' : 's'} marked`);
      } catch (error) {
        notify(`Capture failed: ${(error as Error).message}`);
      } finally {
        button.disabled = false;
      }
    };
    button.addEventListener('click', () => void onCapture());
    const bar = document.createElement('div');
    bar.setAttribute('role', 'region');
    bar.setAttribute('aria-label', 'In-context editor');
    bar.append(button, status);
    toolbarRoot.append(style, bar);
    document.body.append(toolbar);
  }

  scan(document.body);
  observer.observe(document.body, {
    subtree: true,
    childList: true,
    characterData: true,
    attributes: true,
    attributeFilter: ATTRIBUTES,
  });
  document.addEventListener('click', onClick, true);

  const api: InContextEditorApi = {
    open: (key, namespace = '') => open(key, namespace),
    capture,
    elements,
    stop() {
      observer.disconnect();
      document.removeEventListener('click', onClick, true);
      stopLive();
      client.close();
      overlay.close(false);
      overlay.host.remove();
      toolbar.remove();
    },
  };
  (window as unknown as { i18nextInContext?: InContextEditorApi }).i18nextInContext = api;
  return api;
}

// The contract the package's core imports this module by.
startEditor satisfies EditorModule['startEditor'];

function domReady(): Promise<void> {
  if (document.readyState !== 'loading') return Promise.resolve();
  return new Promise((resolve) => document.addEventListener('DOMContentLoaded', () => resolve(), { once: true }));
}
