// Streams the members of one JSON object or array, one at a time, in the
// layout JSON.stringify(value, null, 2) gives (or Xcode's variant of it), so
// a writer can emit a document's big container page by page and still write
// the same text as stringifying the whole document.
//
//   const strings = new JsonMembers('object', '  ');
//   strings.open() + strings.member('a', 1) + strings.member('b', [2]) + strings.close()
//   // {\n    "a": 1,\n    "b": [\n      2\n    ]\n  }
//
// A streamed container inside another: outer.name('keys') + inner.open(),
// then inner.item(...) per page, then inner.close(), with inner created at
// outer.inner as its indent.
//
// Only "is this the first member" is kept between calls.

export interface JsonLayout {
  /** Between a member's name and its value: ': ' as JSON.stringify, ' : ' as Xcode. */
  colon: string;
  /** The inside of an empty container: '' as JSON.stringify (`{}`); Xcode writes a blank line. */
  emptyInside(indent: string): string;
  /** A member's value written on a line indented by `indent`. */
  value(value: unknown, indent: string): string;
}

/** JSON.stringify(value, null, 2) for a value written at `indent` (its continuation lines indented so). */
export function stringifyAt(value: unknown, indent: string): string {
  // Strings never contain a raw newline in JSON, so only layout newlines are indented.
  return JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`);
}

export const STRINGIFY_LAYOUT: JsonLayout = { colon: ': ', emptyInside: () => '', value: stringifyAt };

export class JsonMembers {
  private count = 0;
  /** The indentation of the members. */
  readonly inner: string;

  /** `indent`: the indentation of the line the container opens on (its closing bracket's). */
  constructor(
    private readonly kind: 'object' | 'array',
    private readonly indent = '',
    private readonly layout: JsonLayout = STRINGIFY_LAYOUT,
  ) {
    this.inner = `${indent}  `;
  }

  open(): string {
    return this.kind === 'object' ? '{' : '[';
  }

  /** `"name": value` of an object. */
  member(name: string, value: unknown): string {
    return this.next(`${JSON.stringify(name)}${this.layout.colon}${this.layout.value(value, this.inner)}`);
  }

  /** Starts a member whose value the caller writes next, e.g. a nested JsonMembers. */
  name(name: string): string {
    return this.next(`${JSON.stringify(name)}${this.layout.colon}`);
  }

  /** One item of an array. */
  item(value: unknown): string {
    return this.next(this.layout.value(value, this.inner));
  }

  private next(text: string): string {
    return `${this.count++ ? ',' : ''}\n${this.inner}${text}`;
  }

  close(): string {
    const bracket = this.kind === 'object' ? '}' : ']';
    return this.count ? `\n${this.indent}${bracket}` : `${this.layout.emptyInside(this.indent)}${bracket}`;
  }
}
