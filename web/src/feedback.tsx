// Small pieces the team screens share: the message of a failed operation, and
// a link shown once with a copy button.
import { useRef, useState } from 'react';
import type { CombinedError } from 'urql';

/** The service's own message (the first GraphQL error), else the transport's. */
export function messageOf(error: CombinedError): string {
  return error.graphQLErrors[0]?.message ?? error.message;
}

/** A link to pass on (shown once by the service): read-only, selectable, with a copy button. */
export function CopyLink({ label, link }: { label: string; link: string }) {
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      // No clipboard API (a page not served over HTTPS): select the text and copy it the old way.
      input.current?.select();
      document.execCommand('copy');
    }
    setCopied(true);
  };
  return (
    <div className="copy-link">
      <label>
        {label}
        <input ref={input} readOnly value={link} onFocus={(e) => e.target.select()} size={60} />
      </label>
      <button type="button" onClick={copy}>Copy link</button>
      <span role="status">{copied ? 'Copied' : ''}</span>
    </div>
  );
}
