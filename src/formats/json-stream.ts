// A streaming JSON reader for uploaded files, so an import holds the chunk it
// writes, not the file: text decoded as it comes (decodeStream, text-stream.ts)
// is read as events (a scalar with the path of the container holding it,
// containers opening and closing). Nothing of the document is kept but the open containers.
//
// Same rules as json-safe.ts: nesting deeper than 64 levels is refused when it
// is met (no recursion, so 100,000 levels cost nothing), and a syntax error is
// a FormatError "Malformed JSON: …" with its line and column. Property names
// are plain strings handed to the caller ("__proto__" is a name like any other),
// in document order: unlike JSON.parse, index-like names ("0", "1") are not
// moved first and a repeated name is reported twice (callers decide).
// No streaming JSON library is used: @streamparser/json and stream-json do not
// decode UTF-8 strictly, bound the depth as they go or report a line and
// column, and @streamparser/json took longer only to tokenize a large file
// than this reader takes to read it with every value's path (docs/benchmarks.md,
// "Figures behind constants in the code").
import { FormatError } from './model.js';

export const MAX_JSON_DEPTH = 64;

export interface JsonFrame {
  readonly kind: 'object' | 'array';
  /** 1 for the root container. */
  readonly depth: number;
  /** The dotted key of this container, as nested-keys.ts flatten() builds it ('' for the root). */
  readonly path: string;
  /** The name (or index) this container has in its parent; null for the root. */
  readonly name: string | number | null;
  /** Members (or items) met so far. */
  count: number;
  /** The current member's name (objects). */
  member: string;
}

export interface JsonVisitor {
  /** A container opened (already on the stack). */
  open?(frame: JsonFrame, parent: JsonFrame | null): void;
  /** A container is about to close. */
  close?(frame: JsonFrame, parent: JsonFrame | null): void;
  /** A scalar; `parent` null for a scalar at the top level. */
  scalar(value: string | number | boolean | null, parent: JsonFrame | null, name: string | number | null): void;
}

/**
 * The dotted key of a child of `frame`, as nested-keys.ts flatten() builds
 * it (`a.b`, `t[0]`), counted from the members of the containers at
 * `keyDepth` (1: the root's members are key names; 2: one level below, as
 * under each language of a language-first file).
 */
export function childPath(frame: JsonFrame, name: string | number, keyDepth = 1): string {
  if (frame.depth < keyDepth) return '';
  if (frame.kind === 'array') return `${frame.path}[${name}]`;
  return frame.depth === keyDepth ? (name as string) : `${frame.path}.${name as string}`;
}

const enum State {
  Value,
  ValueOrEnd,
  NameOrEnd,
  Name,
  Colon,
  CommaOrEnd,
  Done,
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS: [string, boolean | null][] = [
  ['true', true],
  ['false', false],
  ['null', null],
];
const NEED_MORE = Symbol('need more text');

/**
 * Push parser: write() text as it is decoded, run() until it needs more text
 * (false) or `pause()` asks for a stop after a scalar (true), end() at the end.
 */
export class JsonReader {
  private buf = '';
  private pos = 0;
  /** Offset of buf[0] in the text, lines before it, and the offset where the current line starts. */
  private base = 0;
  private line = 1;
  private lineStart = 0;
  /** Text offset up to which lines are counted. */
  private counted = 0;
  private state = State.Value;
  private readonly stack: JsonFrame[] = [];
  private ended = false;
  /** Where an unfinished string's scan resumes (a long text is scanned once, whatever the chunks). */
  private stringScan = -1;
  private stringEscaped = false;

  constructor(
    private readonly visitor: JsonVisitor,
    private readonly options: { keyDepth?: number; maxDepth?: number } = {},
  ) {}

  write(text: string): void {
    // Keep only the unread tail: what the reader holds is one unfinished token and the new text.
    if (this.pos > 0) {
      this.countLines(this.pos);
      this.buf = this.buf.slice(this.pos);
      if (this.stringScan >= 0) this.stringScan -= this.pos;
      this.base += this.pos;
      this.pos = 0;
    }
    this.buf += text;
  }

  end(): void {
    this.ended = true;
    this.run(() => false);
    if (this.state !== State.Done)
      this.fail(this.buf.length, this.stringScan >= 0 ? 'string is not closed' : 'unexpected end of input');
  }

  /** Reads what it can; true when `pause()` asked to stop after a scalar. */
  run(pause: () => boolean): boolean {
    const b = this.buf;
    for (;;) {
      let i = this.pos;
      for (let c = b.charCodeAt(i); c === 32 || c === 10 || c === 13 || c === 9; c = b.charCodeAt(++i));
      this.pos = i;
      if (i >= b.length) return false;
      const c = b.charCodeAt(i);
      const state = this.state;
      if (state === State.Done) this.fail(i, `${this.what(i)} after the JSON value`);
      if (state === State.Name || state === State.NameOrEnd) {
        if (c === 125 /* } */ && state === State.NameOrEnd) {
          this.closeContainer(i);
          continue;
        }
        if (c !== 34 /* " */) this.fail(i, `expected a property name, ${this.what(i)}`);
        const name = this.string(i);
        if (name === undefined) return false;
        this.top().member = name;
        this.state = State.Colon;
      } else if (state === State.Colon) {
        if (c !== 58 /* : */) this.fail(i, `expected ":", ${this.what(i)}`);
        this.pos = i + 1;
        this.state = State.Value;
      } else if (state === State.CommaOrEnd) {
        const isObject = this.top().kind === 'object';
        if (c === 44 /* , */) {
          this.pos = i + 1;
          this.state = isObject ? State.Name : State.Value;
        } else if (c === (isObject ? 125 : 93)) {
          this.closeContainer(i);
        } else {
          this.fail(i, `expected "," or "${isObject ? '}' : ']'}", ${this.what(i)}`);
        }
      } else if (c === 93 /* ] */ && state === State.ValueOrEnd) {
        this.closeContainer(i);
      } else if (c === 123 /* { */ || c === 91 /* [ */) {
        this.openContainer(i, c === 123 ? 'object' : 'array');
      } else {
        const value = this.scalarAt(i, c);
        if (value === NEED_MORE) return false;
        this.scalar(value);
        if (pause()) return true;
      }
    }
  }

  /** The scalar starting at `i` (pos moves past it), or NEED_MORE when it may go on in text not written yet. */
  private scalarAt(i: number, c: number): string | number | boolean | null | typeof NEED_MORE {
    const b = this.buf;
    if (c === 34) return this.string(i) ?? NEED_MORE;
    if (c === 45 || (c >= 48 && c <= 57)) {
      let j = i;
      for (
        let d = c;
        (d >= 48 && d <= 57) || d === 45 || d === 43 || d === 46 || d === 101 || d === 69;
        d = b.charCodeAt(++j)
      );
      if (j >= b.length && !this.ended) return NEED_MORE;
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(b);
      if (!m) this.fail(i, this.what(i));
      this.pos = i + m![0].length;
      return Number(m![0]);
    }
    const literal = LITERALS.find(([word]) => word.charCodeAt(0) === c);
    if (!literal) this.fail(i, this.what(i));
    const [word, value] = literal!;
    if (b.length - i < word.length && !this.ended && word.startsWith(b.slice(i))) return NEED_MORE;
    if (!b.startsWith(word, i)) this.fail(i, this.what(i));
    this.pos = i + word.length;
    return value;
  }

  private top(): JsonFrame {
    return this.stack[this.stack.length - 1]!;
  }

  private scalar(value: string | number | boolean | null): void {
    const parent = this.stack.length ? this.top() : null;
    const name = parent ? (parent.kind === 'object' ? parent.member : parent.count) : null;
    this.visitor.scalar(value, parent, name);
    this.afterValue();
  }

  private afterValue(): void {
    const parent = this.stack.length ? this.top() : null;
    if (parent) parent.count++;
    this.state = parent ? State.CommaOrEnd : State.Done;
  }

  private openContainer(i: number, kind: 'object' | 'array'): void {
    const maxDepth = this.options.maxDepth ?? MAX_JSON_DEPTH;
    if (this.stack.length >= maxDepth) this.throwAt(i, `JSON nesting is deeper than ${maxDepth} levels`);
    const parent = this.stack.length ? this.top() : null;
    const name = parent ? (parent.kind === 'object' ? parent.member : parent.count) : null;
    const frame: JsonFrame = {
      kind,
      depth: this.stack.length + 1,
      path: parent ? childPath(parent, name!, this.options.keyDepth) : '',
      name,
      count: 0,
      member: '',
    };
    this.stack.push(frame);
    this.pos = i + 1;
    this.state = kind === 'object' ? State.NameOrEnd : State.ValueOrEnd;
    this.visitor.open?.(frame, parent);
  }

  private closeContainer(i: number): void {
    const frame = this.stack.pop()!;
    this.pos = i + 1;
    this.visitor.close?.(frame, this.stack.length ? this.top() : null);
    this.afterValue();
  }

  /** The string starting at `start` (its opening quote), or undefined when its end is not in the text yet. */
  private string(start: number): string | undefined {
    const b = this.buf;
    let i = this.stringScan >= 0 ? this.stringScan : start + 1;
    let escaped = this.stringScan >= 0 && this.stringEscaped;
    for (;;) {
      if (i >= b.length || (b.charCodeAt(i) === 92 && i + 1 >= b.length)) {
        if (this.ended) this.fail(start, 'string is not closed');
        // Resume here when more text comes (at a final backslash, so its escape is read whole).
        this.stringScan = i;
        this.stringEscaped = escaped;
        return undefined;
      }
      const c = b.charCodeAt(i);
      if (c === 34) break;
      if (c === 92) {
        escaped = true;
        i += 2;
      } else {
        if (c < 32) this.fail(i, 'control character in string');
        i++;
      }
    }
    this.stringScan = -1;
    this.pos = i + 1;
    if (!escaped) return b.slice(start + 1, i);
    try {
      return JSON.parse(b.slice(start, i + 1)) as string;
    } catch {
      for (let j = start + 1; j < i; j++) {
        if (b.charCodeAt(j) !== 92) continue;
        const e = b[j + 1]!;
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(b.slice(j + 2, j + 6))) this.fail(j, 'invalid \\u escape');
          j += 5;
        } else if ('"\\/bfnrt'.includes(e)) j++;
        else this.fail(j, 'invalid escape');
      }
      this.fail(start, 'invalid string');
    }
  }

  private what(i: number): string {
    return i >= this.buf.length ? 'unexpected end of input' : `unexpected character ${JSON.stringify(this.buf[i])}`;
  }

  private fail(i: number, message: string): never {
    this.throwAt(i, `Malformed JSON: ${message}`);
  }

  private throwAt(i: number, message: string): never {
    this.countLines(i);
    const offset = this.base + i;
    throw new FormatError(message, { line: this.line, column: offset - this.lineStart + 1, offset });
  }

  /** Advances the line count over buf[..end) (not yet counted). */
  private countLines(end: number): void {
    const from = Math.max(0, this.counted - this.base);
    for (let n = this.buf.indexOf('\n', from); n >= 0 && n < end; n = this.buf.indexOf('\n', n + 1)) {
      this.line++;
      this.lineStart = this.base + n + 1;
    }
    this.counted = Math.max(this.counted, this.base + end);
  }
}
