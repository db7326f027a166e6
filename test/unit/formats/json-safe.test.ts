import { describe, expect, it } from 'vitest';
import { isJsonObject, parseJson } from '../../../src/formats/json-safe.js';
import { FormatError } from '../../../src/formats/model.js';

const error = (input: string | Buffer, maxDepth?: number): FormatError => {
  try {
    parseJson(typeof input === 'string' ? Buffer.from(input) : input, { maxDepth });
  } catch (e) {
    if (e instanceof FormatError) return e;
    throw e;
  }
  throw new Error('expected a FormatError');
};

describe('parseJson', () => {
  it('parses JSON with a BOM and keeps "__proto__" as an ordinary property', () => {
    const value = parseJson(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"__proto__": {"x": 1}, "a": [1, "}]"]}')]),
    );
    expect(isJsonObject(value)).toBe(true);
    expect(Object.keys(value as object)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('counts nesting outside strings only and refuses deeper structures with their position', () => {
    expect(parseJson(`${'['.repeat(64)}"[[[[{{{{\\"["${']'.repeat(64)}`)).toBeDefined();
    const e = error(`{\n "a": ${'['.repeat(70)}${']'.repeat(70)}}`);
    expect(e.message).toBe('JSON nesting is deeper than 64 levels (line 2, column 70)');
    expect(error('[[[1]]]', 2).message).toMatch(/deeper than 2 levels \(line 1, column 3\)/);
  });

  it('reports syntax errors with line and column', () => {
    expect(error('{"a": 1,\n "b": }').message).toBe('Malformed JSON: unexpected character "}" (line 2, column 7)');
    expect(error('{"a": "unterminated').message).toBe('Malformed JSON: string is not closed (line 1, column 7)');
    expect(error('{"a": "bad \\x escape"}').message).toBe('Malformed JSON: invalid escape (line 1, column 12)');
    expect(error('{"a": "tab\there"}').message).toBe('Malformed JSON: control character in string (line 1, column 11)');
    expect(error('[1, 2] 3').message).toBe(
      'Malformed JSON: unexpected character "3" after the JSON value (line 1, column 8)',
    );
    expect(error('').message).toBe('Malformed JSON: unexpected end of input (line 1, column 1)');
    expect(error('{"a": 01}').message).toMatch(/expected "," or "}", unexpected character "1" \(line 1, column 8\)/);
  });

  it('refuses invalid UTF-8 with its offset', () => {
    expect(error(Buffer.from([0x5b, 0x22, 0xe2, 0x82, 0x22, 0x5d])).message).toMatch(
      /not valid UTF-8: invalid byte at offset 2/,
    );
  });
});
