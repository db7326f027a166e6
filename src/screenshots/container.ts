// What the bytes of an upload are, read from the bytes alone (the file name
// and the declared type are never trusted): the format by its magic bytes, the
// dimensions from its header, and where the image ends by walking its
// container (PNG chunks, JPEG segments, the RIFF size of WebP). An image that
// stops before its end is truncated; bytes after its end make it a polyglot
// (a zip, an HTML page or a script carried behind a valid image), refused
// rather than stored and served again.
export type ImageFormat = 'png' | 'jpeg' | 'webp';

export const MIME_TYPES: Record<ImageFormat, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

export interface Container {
  format: ImageFormat;
  /** From the header; null when the header gives none before the first frame (a JPEG is read by sharp). */
  width: number | null;
  height: number | null;
}

/** Why bytes are not an acceptable image, as a sentence for the uploader. */
export class NotAnImage extends Error {}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function sniffFormat(bytes: Buffer): ImageFormat | undefined {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP')
    return 'webp';
  return undefined;
}

/** Reads the container; throws NotAnImage for other bytes, a truncated image or bytes after its end. */
export function readContainer(bytes: Buffer): Container {
  const format = sniffFormat(bytes);
  if (!format)
    throw new NotAnImage('The file is not a PNG, JPEG or WebP image (its first bytes are those of none of them)');
  const container = format === 'png' ? readPng(bytes) : format === 'jpeg' ? readJpeg(bytes) : readWebp(bytes);
  // A zip's end-of-central-directory record near the end: a zip reader would open the file too.
  const tail = bytes.subarray(Math.max(0, bytes.length - 65_557));
  if (tail.includes(ZIP_END))
    throw new NotAnImage('The file carries a zip archive besides the image (a polyglot file)');
  return container;
}

const ZIP_END = Buffer.from([0x50, 0x4b, 0x05, 0x06]);

function trailing(bytes: Buffer, end: number, what: string): void {
  if (end >= bytes.length) return;
  const rest = bytes.subarray(end);
  // Zero padding after the image (some encoders write it) carries nothing.
  if (rest.every((b) => b === 0)) return;
  throw new NotAnImage(
    `The file has ${rest.length} bytes of other data after the end of the ${what} image (a polyglot file)`,
  );
}

function truncated(what: string): NotAnImage {
  return new NotAnImage(`The ${what} image is truncated: the file ends before the image does`);
}

function readPng(bytes: Buffer): Container {
  let at = 8;
  let width: number | null = null;
  let height: number | null = null;
  for (let first = true; ; first = false) {
    if (at + 8 > bytes.length) throw truncated('PNG');
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (first) {
      if (type !== 'IHDR' || length !== 13)
        throw new NotAnImage('The PNG file does not start with its header chunk (IHDR)');
      if (at + 16 > bytes.length) throw truncated('PNG');
      width = bytes.readUInt32BE(at + 8);
      height = bytes.readUInt32BE(at + 12);
    }
    const end = at + 12 + length;
    if (length > 0x7fffffff || end > bytes.length) throw truncated('PNG');
    at = end;
    if (type === 'IEND') break;
  }
  trailing(bytes, at, 'PNG');
  return { format: 'png', width, height };
}

/** SOF markers (frame headers): C0-CF but DHT (C4), JPG (C8) and DAC (CC). */
const isFrameHeader = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

function readJpeg(bytes: Buffer): Container {
  let at = 2;
  let width: number | null = null;
  let height: number | null = null;
  for (;;) {
    if (at >= bytes.length) throw truncated('JPEG');
    if (bytes[at] !== 0xff) throw new NotAnImage('The JPEG file is damaged: a segment does not start with a marker');
    // Fill bytes (0xFF) may precede a marker.
    while (at < bytes.length && bytes[at] === 0xff) at++;
    if (at >= bytes.length) throw truncated('JPEG');
    const marker = bytes[at++]!;
    if (marker === 0xd9) break; // EOI
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue; // no length
    if (at + 2 > bytes.length) throw truncated('JPEG');
    const length = bytes.readUInt16BE(at);
    if (length < 2) throw new NotAnImage('The JPEG file is damaged: a segment has an impossible length');
    if (at + length > bytes.length) throw truncated('JPEG');
    if (isFrameHeader(marker) && width === null && length >= 7) {
      height = bytes.readUInt16BE(at + 3);
      width = bytes.readUInt16BE(at + 5);
    }
    at += length;
    if (marker === 0xda) {
      // Entropy-coded data follows the scan header: it ends at the first marker that is
      // neither a stuffed byte (FF00) nor a restart marker (FFD0-FFD7).
      for (;;) {
        const next = bytes.indexOf(0xff, at);
        if (next < 0 || next + 1 >= bytes.length) throw truncated('JPEG');
        const b = bytes[next + 1]!;
        if (b === 0x00 || (b >= 0xd0 && b <= 0xd7) || b === 0xff) {
          at = next + (b === 0xff ? 1 : 2);
          continue;
        }
        at = next;
        break;
      }
    }
  }
  trailing(bytes, at, 'JPEG');
  return { format: 'jpeg', width, height };
}

function readWebp(bytes: Buffer): Container {
  const riffSize = bytes.readUInt32LE(4);
  const end = 8 + riffSize + (riffSize % 2);
  if (end > bytes.length) throw truncated('WebP');
  let width: number | null = null;
  let height: number | null = null;
  const chunk = bytes.toString('latin1', 12, 16);
  if (chunk === 'VP8X' && bytes.length >= 30) {
    width = 1 + bytes.readUIntLE(24, 3);
    height = 1 + bytes.readUIntLE(27, 3);
  } else if (chunk === 'VP8L' && bytes.length >= 25 && bytes[20] === 0x2f) {
    const bits = bytes.readUInt32LE(21);
    width = 1 + (bits & 0x3fff);
    height = 1 + ((bits >> 14) & 0x3fff);
  } else if (chunk === 'VP8 ' && bytes.length >= 30) {
    width = bytes.readUInt16LE(26) & 0x3fff;
    height = bytes.readUInt16LE(28) & 0x3fff;
  }
  trailing(bytes, end, 'WebP');
  return { format: 'webp', width, height };
}
