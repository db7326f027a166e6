// Decoding of uploaded text files: BOM detection (UTF-8, UTF-16 LE/BE), strict
// UTF-8 (an invalid byte sequence is an error with its offset, not mojibake),
// and an explicit single-byte fallback for formats whose platform defines one
// (Java .properties are ISO-8859-1).
import { FormatError } from './model.js';

export interface DecodeOptions {
  /** Used when the input has no BOM and is not valid UTF-8. Without it, invalid UTF-8 is an error. */
  fallback?: 'latin1';
  /** Accept UTF-16 without a BOM when the byte pattern shows it (Apple .strings). */
  sniffUtf16?: boolean;
}

export function decodeText(input: Buffer, options: DecodeOptions = {}): string {
  if (input.length >= 3 && input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf)
    return strictUtf8(input.subarray(3), options);
  if (input.length >= 2 && input[0] === 0xff && input[1] === 0xfe) return utf16(input.subarray(2), 'utf-16le');
  if (input.length >= 2 && input[0] === 0xfe && input[1] === 0xff) return utf16(input.subarray(2), 'utf-16be');
  if (options.sniffUtf16 && input.length >= 4) {
    if (input[0] !== 0 && input[1] === 0 && input[2] !== 0 && input[3] === 0) return utf16(input, 'utf-16le');
    if (input[0] === 0 && input[1] !== 0 && input[2] === 0 && input[3] !== 0) return utf16(input, 'utf-16be');
  }
  return strictUtf8(input, options);
}

function utf16(input: Buffer, encoding: 'utf-16le' | 'utf-16be'): string {
  if (input.length % 2 !== 0) throw new FormatError(`Invalid ${encoding.toUpperCase()} file: odd number of bytes`);
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(input);
  } catch {
    throw new FormatError(`Invalid ${encoding.toUpperCase()} text`);
  }
}

function strictUtf8(input: Buffer, options: DecodeOptions): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(input);
  } catch {
    if (options.fallback === 'latin1') return input.toString('latin1');
    const offset = firstInvalidUtf8Offset(input);
    const line = input.subarray(0, offset).toString('latin1').split('\n').length;
    throw new FormatError(`The file is not valid UTF-8: invalid byte at offset ${offset}`, { line, offset });
  }
}

/** Offset of the first byte that does not start (or end) a valid UTF-8 character. */
export function firstInvalidUtf8Offset(buf: Buffer): number {
  let i = 0;
  while (i < buf.length) {
    const b = buf[i]!;
    const len = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    if (len === 0 || i + len > buf.length) return i;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(buf.subarray(i, i + len));
    } catch {
      return i;
    }
    i += len;
  }
  return i;
}

/** 1-based line and column of a character offset in a text, for error messages. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
