// The FormatWriter of a text file made of a header, one entry per key and a
// footer (PO, .strings, .properties, CSV, JSON documents, XML files ...). The
// header goes out with the first chunk, from write() or, when no key came,
// from end(). linesWriter is the same for files written as lines;
// NamespaceRuns opens and closes a group per namespace (Qt, XLIFF).
import type { BundleKey, FormatWriter } from './model.js';

export interface FileParts {
  /** Text before the first entry ('' when the file has none). */
  header?(): string;
  /** The text of one page of keys; may keep small state such as "first entry written". */
  entries(keys: readonly BundleKey[]): string;
  /** Text after the last entry. */
  footer?(): string;
}

export function entryWriter(parts: FileParts): FormatWriter {
  let started = false;
  const start = (): string => {
    if (started) return '';
    started = true;
    return parts.header?.() ?? '';
  };
  return {
    write: (keys) => start() + parts.entries(keys),
    end: () => start() + (parts.footer?.() ?? ''),
  };
}

const lines = (out: readonly string[]) => (out.length ? `${out.join('\n')}\n` : '');

/** What a line-based writer adds per page and at the end; lines are written newline-terminated. */
export interface LinesBody {
  write(keys: readonly BundleKey[], out: string[]): void;
  end(out: string[]): void;
}

/**
 * The runs of one namespace in keys that come grouped by namespace (keyOrder
 * 'namespace'): `open` before a run's first key, `close` after its last. Holds
 * only the current namespace.
 */
export class NamespaceRuns {
  private current: string | undefined;

  constructor(
    private readonly open: (namespace: string, out: string[]) => void,
    private readonly close: (namespace: string, out: string[]) => void,
  ) {}

  /** Call before writing each key. */
  enter(namespace: string, out: string[]): void {
    if (namespace === this.current) return;
    if (this.current !== undefined) this.close(this.current, out);
    this.open(namespace, out);
    this.current = namespace;
  }

  /** Closes the last run; false when there was none (no key at all). */
  finish(out: string[]): boolean {
    if (this.current === undefined) return false;
    this.close(this.current, out);
    this.current = undefined;
    return true;
  }
}

/** An entryWriter of lines: `header`, then what `body` adds for each page and at the end. */
export function linesWriter(header: readonly string[], body: LinesBody): FormatWriter {
  const collect = (fill: (out: string[]) => void): string => {
    const out: string[] = [];
    fill(out);
    return lines(out);
  };
  return entryWriter({
    header: () => lines(header),
    entries: (keys) => collect((out) => body.write(keys, out)),
    footer: () => collect((out) => body.end(out)),
  });
}
