// Uploaded text files read as a stream, for the formats that parse them in
// chunks (FileFormat.parseStream): bytes decoded as they come, by the rules
// text.ts applies to a whole file, and text cut into lines. What is held is
// the piece being read and an unfinished line or character, never the file.
import { FormatError, type OpenFile } from './model.js';
import { firstInvalidUtf8Offset } from './text.js';

/** Pieces of bytes in memory: the size of a file stream's. */
const PIECE = 64 * 1024;

/** Bytes held in memory as an OpenFile: a whole-file parse goes through the same reader as a stream, in the same pieces. */
export function inMemory(input: Buffer): OpenFile {
  return async function* () {
    for (let i = 0; i < input.length; i += PIECE) yield input.subarray(i, i + PIECE);
  };
}

/**
 * Decodes a byte stream as a whole-file decodeText would (BOM: UTF-8, UTF-16
 * LE/BE; otherwise strict UTF-8), piece by piece: a character split between
 * two pieces is completed with the next one.
 */
export async function* decodeStream(input: AsyncIterable<Buffer | Uint8Array>): AsyncGenerator<string> {
  let decode: Decoder | undefined;
  // The first bytes, until there are enough to see a BOM.
  let head = Buffer.alloc(0);
  for await (const piece of input) {
    const bytes = Buffer.isBuffer(piece) ? piece : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    let text: string;
    if (decode) text = decode(bytes, false);
    else {
      head = Buffer.concat([head, bytes]);
      if (head.length < 3) continue;
      const chosen = decoderFor(head);
      decode = chosen.decode;
      text = decode(chosen.rest, false);
    }
    if (text) yield text;
  }
  let text: string;
  if (decode) text = decode(Buffer.alloc(0), true);
  else {
    const chosen = decoderFor(head);
    text = chosen.decode(chosen.rest, true);
  }
  if (text) yield text;
}

type Decoder = (bytes: Buffer, last: boolean) => string;

function decoderFor(head: Buffer): { decode: Decoder; rest: Buffer } {
  if (head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf)
    return { decode: utf8Decoder(), rest: head.subarray(3) };
  for (const [b0, b1, encoding] of [
    [0xff, 0xfe, 'utf-16le'],
    [0xfe, 0xff, 'utf-16be'],
  ] as const) {
    if (head.length >= 2 && head[0] === b0 && head[1] === b1)
      return { decode: utf16Decoder(encoding), rest: head.subarray(2) };
  }
  return { decode: utf8Decoder(), rest: head };
}

function utf16Decoder(encoding: 'utf-16le' | 'utf-16be'): Decoder {
  const decoder = new TextDecoder(encoding, { fatal: true });
  let total = 0;
  return (bytes, last) => {
    total += bytes.length;
    if (last && total % 2 !== 0) throw new FormatError(`Invalid ${encoding.toUpperCase()} file: odd number of bytes`);
    try {
      return decoder.decode(bytes, { stream: !last });
    } catch {
      throw new FormatError(`Invalid ${encoding.toUpperCase()} text`);
    }
  };
}

/** Strict UTF-8, the error naming the byte offset (and line) of the first invalid byte, as text.ts does. */
function utf8Decoder(): Decoder {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let carry = Buffer.alloc(0);
  let offset = 0;
  let lines = 0;
  return (bytes, last) => {
    const all = carry.length ? Buffer.concat([carry, bytes]) : bytes;
    const cut = last ? all.length : completeLength(all);
    const whole = all.subarray(0, cut);
    carry = Buffer.from(all.subarray(cut));
    try {
      const text = decoder.decode(whole);
      for (let n = whole.indexOf(10); n >= 0; n = whole.indexOf(10, n + 1)) lines++;
      offset += whole.length;
      return text;
    } catch {
      const bad = firstInvalidUtf8Offset(whole);
      let line = lines + 1;
      for (let n = whole.indexOf(10); n >= 0 && n < bad; n = whole.indexOf(10, n + 1)) line++;
      throw new FormatError(`The file is not valid UTF-8: invalid byte at offset ${offset + bad}`, {
        line,
        offset: offset + bad,
      });
    }
  };
}

/** Length of `bytes` without a UTF-8 sequence left unfinished at its end. */
function completeLength(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const b = bytes[bytes.length - back]!;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

/**
 * How decodeText(…, { fallback: 'latin1' }) reads a file, decided by a first
 * pass over its bytes (a UTF-8 decoder's state is all it keeps): a file with a
 * UTF-16 BOM or valid UTF-8 is read by decodeStream, any other as ISO-8859-1
 * after a UTF-8 BOM. Returns the reader of each later pass.
 */
export async function latin1Fallback(open: OpenFile): Promise<() => AsyncGenerator<string>> {
  const encoding = await unicodeOrLatin1(open);
  // A UTF-16 file is decoded whole first, so its errors come before any other, as decodeText gives them.
  if (encoding === 'utf-16') await readToEnd(decodeStream(open()));
  return encoding === 'latin1' ? () => latin1(open()) : () => decodeStream(open());
}

const isUtf16Bom = (head: Buffer) => (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);
const isUtf8Bom = (head: Buffer) => head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;

async function unicodeOrLatin1(open: OpenFile): Promise<'utf-8' | 'utf-16' | 'latin1'> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const valid = (bytes: Buffer, last: boolean) => {
    try {
      decoder.decode(bytes, { stream: !last });
      return true;
    } catch {
      return false;
    }
  };
  // The first two bytes, for a UTF-16 BOM (which is not UTF-8).
  let head: Buffer | undefined = Buffer.alloc(0);
  for await (const piece of open()) {
    let bytes = piece;
    if (head) {
      head = Buffer.concat([head, piece]);
      if (head.length < 2) continue;
      if (isUtf16Bom(head)) return 'utf-16';
      bytes = head;
      head = undefined;
    }
    if (!valid(bytes, false)) return 'latin1';
  }
  return valid(head ?? Buffer.alloc(0), true) ? 'utf-8' : 'latin1';
}

async function* latin1(input: AsyncIterable<Buffer>): AsyncGenerator<string> {
  // The first three bytes, for a UTF-8 BOM, which decodeText drops before falling back.
  let head: Buffer | undefined = Buffer.alloc(0);
  for await (const piece of input) {
    let bytes = piece;
    if (head) {
      head = Buffer.concat([head, piece]);
      if (head.length < 3) continue;
      bytes = isUtf8Bom(head) ? head.subarray(3) : head;
      head = undefined;
    }
    if (bytes.length) yield bytes.toString('latin1');
  }
  if (head?.length) yield head.toString('latin1');
}

/**
 * The lines of a text as it streams in, a batch per piece, as
 * text.split(lineEnd) cuts the whole text (lineEnd: /\r\n|\r|\n/g, or /\n/g
 * for PO): the last line (after the last line end, '' when the text ends with
 * one) comes too. A line over several pieces is joined once, when it ends.
 */
export async function* lineBatches(
  texts: AsyncIterable<string>,
  lineEnd: RegExp = /\r\n|\r|\n/g,
): AsyncGenerator<string[]> {
  let open: string[] = [];
  // The previous piece ended with \r: a \n starting this one is the same line end.
  let afterCr = false;
  for await (const text of texts) {
    if (!text) continue;
    let start = afterCr && text.charCodeAt(0) === 10 ? 1 : 0;
    afterCr = false;
    const lines: string[] = [];
    lineEnd.lastIndex = start;
    for (let end = lineEnd.exec(text); end; end = lineEnd.exec(text)) {
      open.push(text.slice(start, end.index));
      lines.push(open.length === 1 ? open[0]! : open.join(''));
      open = [];
      start = end.index + end[0].length;
      if (start === text.length && end[0] === '\r') afterCr = true;
    }
    if (start < text.length) open.push(text.slice(start));
    if (lines.length) yield lines;
  }
  yield [open.join('')];
}

/** Reads a text line by line, handing over what it makes of the lines (PropertiesReader, PoReader). */
export interface LineReader {
  add(line: string): void;
  /** The text ended. */
  end(): void;
}

/** What a LineReader, made with the function it hands its items to, makes of a text as it streams in: a batch per piece read. */
export async function* readLines<T>(
  texts: AsyncIterable<string>,
  reader: (item: (item: T) => void) => LineReader,
  lineEnd?: RegExp,
): AsyncGenerator<T[]> {
  let batch: T[] = [];
  const lines = reader((item) => batch.push(item));
  for await (const piece of lineBatches(texts, lineEnd)) {
    for (const line of piece) lines.add(line);
    if (batch.length) {
      yield batch;
      batch = [];
    }
  }
  lines.end();
  if (batch.length) yield batch;
}

/** The first `n` bytes of a stream (all of them when it is shorter). */
export async function firstBytes(input: AsyncIterable<Buffer>, n: number): Promise<Buffer> {
  const pieces: Buffer[] = [];
  let length = 0;
  for await (const piece of input) {
    pieces.push(piece);
    length += piece.length;
    if (length >= n) break;
  }
  return Buffer.concat(pieces).subarray(0, n);
}

/**
 * A copy of a string cut from the text read that does not keep that text
 * alive: V8 keeps the whole string behind a slice, so a key name held across
 * the file (to find or refuse one given twice) would hold all of it. The
 * concatenation is flattened into a string of its own by slice().
 */
export const detached = (s: string): string => ` ${s}`.slice(1);

/** Reads a stream to its end, for its errors only (a first pass). */
export async function readToEnd(items: AsyncIterable<unknown>): Promise<void> {
  for await (const item of items) void item;
}
