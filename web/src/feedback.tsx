// Small pieces the console's screens share: the message of a failed
// operation, and copying a value shown once (a link, a key, a token).
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { wordFailure } from './server-text';

/** The service's refusal (the first GraphQL error) in the console's language, else what went wrong on the way. */
export function messageOf(error: {
  graphQLErrors: readonly { message: string; extensions?: Record<string, unknown> }[];
  message: string;
  networkError?: Error;
}): string {
  return wordFailure(error);
}

/** Puts text on the clipboard; without the clipboard API (a page not served over HTTPS), the old way through a selection. */
async function copyText(value: string, field?: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(value);
    return true;
  } catch {
    if (!field) return false;
    field.select();
    return document.execCommand('copy');
  }
}

/** Copies a value to the clipboard, telling whether it worked. */
export function CopyButton({
  value,
  label,
  field,
}: {
  value: string;
  label?: string;
  field?: () => HTMLInputElement | null;
}) {
  const { t } = useTranslation();
  const [done, setDone] = useState('');
  const copy = async () => setDone((await copyText(value, field?.())) ? t('common.copied') : t('common.copyFailed'));
  return (
    <>
      <button type="button" onClick={copy}>
        {label ?? t('common.copy')}
      </button>
      <span role="status" className="copy-status">
        {done}
      </span>
    </>
  );
}

/** A link to pass on (shown once by the service): read-only, selectable, with a copy button. */
export function CopyLink({ label, link }: { label: string; link: string }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  return (
    <div className="copy-link">
      <label>
        {label}
        <input ref={input} readOnly value={link} onFocus={(e) => e.target.select()} size={60} />
      </label>
      <CopyButton value={link} label={t('common.copyLink')} field={() => input.current} />
    </div>
  );
}
