// The JSON entry point for uploaded files: strict decoding (text.ts), a depth
// cap checked before JSON.parse sees the text, and syntax errors reported as
// FormatError with line and column (V8's messages do not always carry a
// position, so on failure a small validator finds it).
import { FormatError } from './model.js';
import { decodeText } from './text.js';
import { lineColumn } from './text.js';

export interface JsonLimits {
  /** Maximum nesting of objects and arrays. */
  maxDepth?: number;
}

export function parseJson(input: Buffer | string, limits: JsonLimits = {}): unknown {
  const maxDepth = limits.maxDepth ?? 64;
  const text = typeof input === 'string' ? input : decodeText(input);
  checkDepth(text, maxDepth);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    const { offset, message } = findSyntaxError(text);
    throw new FormatError(`Malformed JSON: ${message}`, { ...lineColumn(text, offset), offset });
  }
}

/** A plain JSON object (not null, not an array). */
export function isJsonObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export { lineColumn };

function checkDepth(text: string, maxDepth: number): void {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) i++;
        else if (d === 34) break;
      }
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > maxDepth)
        throw new FormatError(`JSON nesting is deeper than ${maxDepth} levels`, { ...lineColumn(text, i), offset: i });
    } else if (c === 125 || c === 93) {
      depth--;
    }
  }
}

/** Offset and description of the first syntax error (depth is already bounded). */
function findSyntaxError(text: string): { offset: number; message: string } {
  let i = 0;
  const fail = (message: string): never => {
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- a position, not an error: caught below in this function and returned.
    throw { offset: i, message };
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const what = () => (i >= text.length ? 'unexpected end of input' : `unexpected character ${JSON.stringify(text[i])}`);
  const string = () => {
    const start = i;
    i++;
    for (;;) {
      if (i >= text.length) {
        i = start;
        fail('string is not closed');
      }
      const c = text[i]!;
      if (c === '"') {
        i++;
        return;
      }
      if (c < ' ') fail('control character in string');
      if (c === '\\') {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('invalid \\u escape');
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else fail('invalid escape');
      } else i++;
    }
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(`expected a property name, ${what()}`);
        string();
        ws();
        if (text[i] !== ':') fail(`expected ":", ${what()}`);
        i++;
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail(`expected "," or "}", ${what()}`);
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail(`expected "," or "]", ${what()}`);
      }
    } else if (c === '"') string();
    else {
      const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 400));
      if (!m) fail(what());
      i += m![0].length;
    }
  };
  try {
    value();
    ws();
    if (i < text.length) fail(`${what()} after the JSON value`);
    return { offset: 0, message: 'invalid JSON' };
  } catch (e) {
    if (e && typeof e === 'object' && 'offset' in e) return e as { offset: number; message: string };
    return { offset: 0, message: 'invalid JSON' };
  }
}
