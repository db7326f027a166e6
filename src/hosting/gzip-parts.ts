// A gzip file assembled from parts deflated on their own, as pigz does: each
// part is a raw deflate stream ended by a sync flush (byte-aligned, no final
// block), so parts concatenate into one valid deflate stream; the gzip header,
// an empty final block and the CRC-32 and length of the whole go around them.
// A publication's language file holds its namespace files and `_index` holds
// the language files, so their gzip variants reuse the parts' deflated bytes
// (and CRCs, combined as zlib's crc32_combine does) instead of compressing the
// same bytes again.
import { promisify } from 'node:util';
import { constants, crc32, deflateRaw } from 'node:zlib';
import { GZIP_OPTIONS } from './compression.js';

const deflateRawAsync = promisify(deflateRaw);

/** ID1 ID2 CM=deflate FLG=0 MTIME=0 XFL=0 OS=unix: what zlib writes with no file name and no time. */
const HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0x03]);
/** An empty final block (fixed Huffman, end-of-block only). */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);

export interface DeflatedPart {
  deflated: Buffer;
  crc: number;
  length: number;
}

/** One part's bytes, deflated so that other parts can follow. */
export async function deflatePart(bytes: Buffer): Promise<DeflatedPart> {
  const deflated = await deflateRawAsync(bytes, { ...GZIP_OPTIONS, finishFlush: constants.Z_SYNC_FLUSH });
  return { deflated, crc: crc32(bytes), length: bytes.length };
}

/** The gzip file of the parts' bytes one after the other. */
export function gzipOfParts(parts: readonly DeflatedPart[]): Buffer {
  let crc = 0;
  let length = 0;
  for (const part of parts) {
    crc = crc32Combine(crc, part.crc, part.length);
    length += part.length;
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc, 0);
  // ISIZE is the length modulo 2^32 (RFC 1952).
  trailer.writeUInt32LE(length % 2 ** 32, 4);
  return Buffer.concat([HEADER, ...parts.map((p) => p.deflated), FINAL_BLOCK, trailer]);
}

// CRC-32 of two pieces from theirs (zlib's crc32.c: multiplication modulo the
// reflected polynomial, and x^(2^k) modulo it for the length of the second).
const POLY = 0xedb88320;

function multModP(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if ((a & m) !== 0) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

/** X2N[k] = x^(2^k) modulo the polynomial. */
const X2N: number[] = [0x40000000];
for (let k = 1; k < 32; k++) X2N.push(multModP(X2N[k - 1]!, X2N[k - 1]!));

/** x^(n·2^k) modulo the polynomial. */
function x2nModP(n: number, k: number): number {
  let p = 0x80000000;
  for (; n > 0; n = Math.floor(n / 2), k++) if (n % 2 === 1) p = multModP(X2N[k & 31]!, p);
  return p;
}

export function crc32Combine(crc1: number, crc2: number, length2: number): number {
  return (multModP(x2nModP(length2, 3), crc1) ^ crc2) >>> 0;
}
