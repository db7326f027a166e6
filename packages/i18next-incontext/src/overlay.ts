// The overlay: plain DOM in a shadow root (the app's styles do not reach it,
// its own do not leak out). A modal dialog labelled by its heading; every
// field has its label; Escape or Cancel closes it and gives the focus back.
export interface OverlayLanguage {
  key: string;
  name: string;
  text: string;
  writable: boolean;
  isDefault: boolean;
}

export interface OverlayData {
  key: string;
  namespace: string;
  description: string;
  languages: OverlayLanguage[];
  screenshots: { name: string; url: Promise<string> }[];
  /** Other keys shown by the same element. */
  otherKeys: { key: string; namespace: string }[];
}

export interface OverlayHandlers {
  /** The findings of the quality checks for a language's text. */
  check(language: string, text: string): { severity: string; message: string }[];
  save(changed: { language: string; text: string }[]): Promise<void>;
  openKey(key: string, namespace: string): void;
}

const STYLE = `
:host { all: initial; }
.backdrop { position: fixed; inset: 0; background: rgba(20, 24, 33, .45); z-index: 2147483646; display: flex; align-items: flex-start; justify-content: center; overflow: auto; font: 14px/1.4 system-ui, sans-serif; color: #1b1f27; }
[role=dialog] { background: #fff; margin: 5vh 16px; padding: 20px 24px; border-radius: 8px; width: min(640px, 100%); box-shadow: 0 12px 40px rgba(0,0,0,.3); }
h2 { font-size: 18px; margin: 0 0 4px; word-break: break-all; }
.ns { color: #5b6270; margin: 0 0 12px; }
.description { background: #f4f6fa; padding: 8px 10px; border-radius: 4px; margin: 0 0 14px; white-space: pre-wrap; }
.field { margin: 0 0 12px; }
label { display: block; font-weight: 600; margin-bottom: 4px; }
textarea { box-sizing: border-box; width: 100%; min-height: 56px; font: inherit; padding: 6px 8px; border: 1px solid #9aa3b2; border-radius: 4px; resize: vertical; }
textarea[readonly] { background: #f4f6fa; color: #5b6270; }
textarea:focus, button:focus-visible { outline: 2px solid #2456d3; outline-offset: 1px; }
.note { color: #5b6270; font-size: 12px; }
ul.checks { margin: 4px 0 0; padding-left: 18px; color: #8a4b00; font-size: 13px; }
ul.checks li.error { color: #b00020; }
.shots { display: flex; flex-wrap: wrap; gap: 8px; margin: 4px 0 12px; }
.shots img { max-width: 180px; max-height: 120px; border: 1px solid #d0d5de; border-radius: 4px; }
.buttons { display: flex; gap: 8px; justify-content: flex-end; margin-top: 8px; }
button { font: inherit; padding: 6px 14px; border-radius: 4px; border: 1px solid #9aa3b2; background: #fff; cursor: pointer; }
button.primary { background: #2456d3; border-color: #2456d3; color: #fff; }
button[disabled] { opacity: .6; cursor: default; }
.others button { margin: 0 6px 6px 0; padding: 2px 8px; font-size: 12px; }
[role=status] { min-height: 1.4em; margin: 8px 0 0; }
[role=status].error { color: #b00020; }
`;

let counter = 0;

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> & Record<string, unknown> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (name.startsWith('aria-') || name === 'role' || name === 'for') node.setAttribute(name, String(value));
    else (node as unknown as Record<string, unknown>)[name] = value;
  }
  node.append(...children);
  return node;
}

export class Overlay {
  readonly host: HTMLElement;
  private readonly root: ShadowRoot;
  private returnFocus: Element | null = null;
  private fields = new Map<string, { textarea: HTMLTextAreaElement; initial: string }>();
  private current?: OverlayData;

  constructor(private readonly handlers: OverlayHandlers) {
    this.host = document.createElement('lms-incontext-overlay');
    this.root = this.host.attachShadow({ mode: 'open' });
    this.root.append(el('style', { textContent: STYLE }));
  }

  get openKey(): { key: string; namespace: string } | undefined {
    return this.current && { key: this.current.key, namespace: this.current.namespace };
  }

  open(data: OverlayData): void {
    this.close(false);
    this.current = data;
    this.returnFocus = document.activeElement;
    const id = `lms-ic-${++counter}`;
    const status = el('p', { role: 'status' });
    const form = el('form');
    this.fields.clear();
    for (const language of data.languages) {
      const fieldId = `${id}-${language.key}`;
      const textarea = el('textarea', { id: fieldId, value: language.text, readOnly: !language.writable });
      const checks = el('ul', { className: 'checks', 'aria-label': `Checks of ${language.name}` });
      const showChecks = () => {
        checks.replaceChildren(
          ...this.handlers
            .check(language.key, textarea.value)
            .map((f) => el('li', { className: f.severity }, f.message)),
        );
      };
      textarea.addEventListener('input', showChecks);
      showChecks();
      this.fields.set(language.key, { textarea, initial: language.text });
      form.append(
        el(
          'div',
          { className: 'field' },
          el('label', { for: fieldId }, `${language.name} (${language.key})${language.isDefault ? ' · default' : ''}`),
          textarea,
          ...(language.writable
            ? []
            : [el('span', { className: 'note' }, 'Read only: this token may not write this language.')]),
          checks,
        ),
      );
    }
    const shots = el('div', { className: 'shots' });
    for (const shot of data.screenshots) {
      const img = el('img', { alt: `Screenshot: ${shot.name}` });
      shot.url.then(
        (url) => {
          img.src = url;
        },
        () => {
          img.alt = `Screenshot ${shot.name} could not be loaded`;
        },
      );
      shots.append(img);
    }
    const save = el('button', { type: 'submit', className: 'primary' }, 'Save');
    const cancel = el('button', { type: 'button' }, 'Cancel');
    cancel.addEventListener('click', () => this.close());
    form.append(
      el('h3', { className: 'note' }, data.screenshots.length ? 'Screenshots' : 'No screenshot shows this key yet'),
      shots,
      el('div', { className: 'buttons' }, cancel, save),
      status,
    );
    // The handler shows its own failure (status): nothing is left to reject.
    const onSubmit = async (event: SubmitEvent) => {
      event.preventDefault();
      const changed = [...this.fields]
        .filter(([, f]) => !f.textarea.readOnly && f.textarea.value !== f.initial)
        .map(([language, f]) => ({ language, text: f.textarea.value }));
      if (!changed.length) return this.close();
      save.disabled = true;
      status.className = '';
      status.textContent = 'Saving…';
      try {
        await this.handlers.save(changed);
        this.close();
      } catch (error) {
        status.className = 'error';
        status.textContent = `Not saved: ${(error as Error).message}`;
        save.disabled = false;
      }
    };
    form.addEventListener('submit', (event) => void onSubmit(event));
    const others = data.otherKeys.length
      ? el(
          'div',
          { className: 'others' },
          el('span', { className: 'note' }, 'Also here: '),
          ...data.otherKeys.map((k) => {
            const button = el('button', { type: 'button' }, k.namespace ? `${k.namespace}:${k.key}` : k.key);
            button.addEventListener('click', () => this.handlers.openKey(k.key, k.namespace));
            return button;
          }),
        )
      : '';
    const dialog = el(
      'div',
      {
        role: 'dialog',
        'aria-modal': 'true',
        'aria-labelledby': `${id}-title`,
        'aria-describedby': `${id}-description`,
      },
      el('h2', { id: `${id}-title` }, `Translate “${data.key}”`),
      el('p', { className: 'ns' }, data.namespace ? `Namespace ${data.namespace}` : 'Default namespace'),
      el('p', { id: `${id}-description`, className: 'description' }, data.description || 'No description.'),
      others,
      form,
    );
    const backdrop = el('div', { className: 'backdrop' }, dialog);
    backdrop.addEventListener('mousedown', (event) => {
      if (event.target === backdrop) this.close();
    });
    backdrop.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        this.close();
      }
      if (event.key === 'Tab') this.trapFocus(event, dialog);
    });
    this.root.append(backdrop);
    if (!this.host.isConnected) document.body.append(this.host);
    const first = [...this.fields.values()].find((f) => !f.textarea.readOnly)?.textarea ?? cancel;
    first.focus();
  }

  /** A text changed in the service while the overlay shows it: shown unless the translator is editing it. */
  update(language: string, text: string): void {
    const field = this.fields.get(language);
    if (!field || field.textarea.value !== field.initial) return;
    field.textarea.value = text;
    field.initial = text;
    field.textarea.dispatchEvent(new Event('input'));
  }

  close(restoreFocus = true): void {
    this.root.querySelector('.backdrop')?.remove();
    this.current = undefined;
    this.fields.clear();
    if (restoreFocus && this.returnFocus instanceof HTMLElement) this.returnFocus.focus();
  }

  private trapFocus(event: KeyboardEvent, dialog: HTMLElement): void {
    const focusable = [...dialog.querySelectorAll<HTMLElement>('button, textarea')].filter(
      (e) => !(e as HTMLButtonElement).disabled,
    );
    if (!focusable.length) return;
    const active = this.root.activeElement;
    if (event.shiftKey && active === focusable[0]) {
      event.preventDefault();
      focusable[focusable.length - 1]!.focus();
    } else if (!event.shiftKey && active === focusable[focusable.length - 1]) {
      event.preventDefault();
      focusable[0]!.focus();
    }
  }
}
