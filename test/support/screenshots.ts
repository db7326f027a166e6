// Helpers of the screenshot tests: the real screenshots of the corpus (read
// from ../shared/corpus, never copied), hostile files made from them, and
// uploads over REST and GraphQL multipart.
import { existsSync, readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import JSZip from 'jszip';
import { corpusPath } from './corpus.js';
import type { TestService } from './service.js';
import { multipart } from './transfer.js';

export const CORPUS_SCREENSHOTS = [
  { file: 'pontoon_tm_tab.png', mimeType: 'image/png', width: 2054, height: 1118 },
  { file: 'aves_ar_phoneScreenshots_5.png', mimeType: 'image/png', width: 350, height: 817 },
  { file: 'simplytranslate-mobile_en-US_phoneScreenshots_3.webp', mimeType: 'image/webp', width: 1440, height: 2960 },
  { file: 'okapi_ratelandrainbow1.jpg', mimeType: 'image/jpeg', width: 1024, height: 561 },
] as const;

export const screenshotBytes = (file: string): Buffer => readFileSync(corpusPath('screenshots', file));

/** Without ../shared/corpus (a checkout without shared/) the screenshot tests skip; CI fails instead (test/unit/corpus-present.test.ts). */
export const corpusScreenshotsPresent = existsSync(corpusPath('screenshots'));

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A decompression bomb: a complete, valid PNG declaring `side` × `side` pixels
 * of grey, whose pixel data (all zero rows) deflates to a few hundred kilobytes.
 */
export function bombPng(side: number, rows = side): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const raw = Buffer.alloc(rows * (side + 1)); // filter byte + pixels, zero
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A real PNG with a zip archive appended: opens as an image and as a zip. */
export async function pngZipPolyglot(): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('payload.html', '<script>alert(document.cookie)</script>');
  return Buffer.concat([
    screenshotBytes('aves_ar_phoneScreenshots_5.png'),
    await zip.generateAsync({ type: 'nodebuffer' }),
  ]);
}

export function uploadRest(
  service: TestService,
  apiKey: string,
  content: Buffer,
  fileName: string,
  contentType = 'application/octet-stream',
): Promise<LightMyRequestResponse> {
  const body = multipart([{ name: 'file', fileName, content, contentType }]);
  return service.request({
    method: 'POST',
    url: '/api/v2/screenshots',
    headers: { 'x-service-token': apiKey, ...body.headers },
    payload: body.payload,
  });
}

/** uploadScreenshot over GraphQL multipart with any credential headers; the parsed GraphQL answer. */
export async function uploadGraphQL(
  service: TestService,
  headers: Record<string, string>,
  content: Buffer,
  fileName: string,
  projectToken?: string,
): Promise<{ data?: any; errors?: any[] }> {
  const query =
    'mutation ($file: Upload!, $projectToken: String) { uploadScreenshot(file: $file, projectToken: $projectToken) { id name mimeType width height size thumbnailPath imagePath } }';
  const body = multipart([
    { name: 'operations', content: JSON.stringify({ query, variables: { file: null, projectToken } }) },
    { name: 'map', content: JSON.stringify({ 0: ['variables.file'] }) },
    { name: '0', fileName, content, contentType: 'image/png' },
  ]);
  const res = await service.request({
    method: 'POST',
    url: '/graphql',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
  return JSON.parse(res.body);
}
