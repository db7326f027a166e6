// Writes a publication's files into its version folder: each distinct content
// once (named by hash), with gzip and brotli variants when they are smaller
// (compression.ts), a few files at a time. Progress is reported per resource.
// The gzip variant of a file made of others (a language file of its namespace
// files, `_index` of the language files) reuses their deflated bytes
// (gzip-parts.ts): each byte is deflated once per publication.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress } from 'node:zlib';
import { storage } from '../storage/index.js';
import { linkOf, objectKey, type Encoding, type PublishedResource } from './layout.js';
import { contentLeaves, type BuiltFile } from './editor-files.js';
import { brotliOptions } from './compression.js';
import { deflatePart, gzipOfParts, type DeflatedPart } from './gzip-parts.js';

const brotliAsync = promisify(brotliCompress);

const JSON_TYPE = 'application/json; charset=utf-8';
/** Below this size compression saves less than the header overhead. */
const COMPRESS_MIN_BYTES = 1024;
const CONCURRENCY = 4;

export interface Target {
  projectToken: string;
  environmentKey: string;
  version: string;
}

/** Called after each resource is stored; may throw to abort the publication. */
export type OnResource = (done: number) => Promise<void> | void;

export function contentHash(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 32);
}

/** Each piece of content deflated, once whichever file asks first; gone with the piece. */
type DeflatedPieces = WeakMap<Buffer, Promise<DeflatedPart>>;

function deflated(pieces: DeflatedPieces, piece: Buffer): Promise<DeflatedPart> {
  let part = pieces.get(piece);
  if (!part) pieces.set(piece, (part = deflatePart(piece)));
  return part;
}

async function storeContent(
  target: Target,
  hash: string,
  bytes: Buffer,
  leaves: Buffer[],
  pieces: DeflatedPieces,
): Promise<{ gzip?: number; br?: number }> {
  const sizes: { gzip?: number; br?: number } = {};
  const put = (encoding: Encoding, body: Buffer) =>
    storage().put(objectKey(target.projectToken, target.environmentKey, target.version, hash, encoding), body, {
      contentType: JSON_TYPE,
      contentEncoding: encoding === 'identity' ? undefined : encoding,
    });
  await put('identity', bytes);
  if (bytes.length >= COMPRESS_MIN_BYTES) {
    const [gz, br] = await Promise.all([
      Promise.all(leaves.map((leaf) => deflated(pieces, leaf))).then(gzipOfParts),
      brotliAsync(bytes, brotliOptions(bytes.length)),
    ]);
    if (gz.length < bytes.length) {
      await put('gzip', gz);
      sizes.gzip = gz.length;
    }
    if (br.length < bytes.length) {
      await put('br', br);
      sizes.br = br.length;
    }
  }
  return sizes;
}

/** Runs `worker` over the items of an async source with at most `limit` in flight; stops at the first error. */
async function pool<T>(
  source: AsyncIterable<T>,
  limit: number,
  worker: (item: T, index: number) => Promise<void>,
): Promise<void> {
  const iterator = source[Symbol.asyncIterator]();
  let pulled = 0;
  let failed: unknown;
  let hasFailed = false;
  // The source is an async generator: pulls must not overlap, and each gets its index in order.
  let pulling = Promise.resolve();
  const next = (): Promise<{ result: IteratorResult<T>; index: number }> => {
    const index = pulled++;
    const result = pulling.then(() => iterator.next()).then((r) => ({ result: r, index }));
    pulling = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  };
  const lane = async () => {
    while (!hasFailed) {
      const { result, index } = await next();
      if (result.done) return;
      await worker(result.value, index);
    }
  };
  await Promise.all(
    Array.from({ length: limit }, () =>
      lane().catch((error: unknown) => {
        if (!hasFailed) {
          hasFailed = true;
          failed = error;
        }
      }),
    ),
  );
  if (hasFailed) {
    await iterator.return?.(undefined);
    throw failed;
  }
}

export async function writeFiles(
  target: Target,
  files: AsyncIterable<BuiltFile>,
  onResource: OnResource,
): Promise<PublishedResource[]> {
  const resources: PublishedResource[] = [];
  const stored = new Map<string, Promise<{ gzip?: number; br?: number }>>();
  const pieces: DeflatedPieces = new WeakMap();
  let done = 0;
  await pool(files, CONCURRENCY, async (file, index) => {
    const leaves = contentLeaves(file.content);
    const bytes = leaves.length === 1 ? leaves[0]! : Buffer.concat(leaves);
    const hash = contentHash(bytes);
    let writing = stored.get(hash);
    if (!writing) stored.set(hash, (writing = storeContent(target, hash, bytes, leaves, pieces)));
    const sizes = await writing;
    resources[index] = {
      link: linkOf(target.projectToken, target.environmentKey, file),
      size: bytes.length,
      ...(file.language !== undefined ? { language: file.language } : {}),
      ...(file.namespace !== undefined ? { namespace: file.namespace } : {}),
      ...(file.customer !== undefined ? { customer: file.customer } : {}),
      path: file.path,
      hash,
      ...sizes,
    };
    await onResource(++done);
  });
  return resources;
}

/** Copies a published version's objects into another environment's new version (server-side copies). */
export async function copyFiles(
  source: Target,
  target: Target,
  resources: PublishedResource[],
  onResource: OnResource,
): Promise<PublishedResource[]> {
  const copied = new Map<string, Promise<void>>();
  const copyContent = async (r: PublishedResource) => {
    const encodings: Encoding[] = [
      'identity',
      ...(r.gzip !== undefined ? ['gzip' as const] : []),
      ...(r.br !== undefined ? ['br' as const] : []),
    ];
    await Promise.all(
      encodings.map((e) =>
        storage().copy(
          objectKey(source.projectToken, source.environmentKey, source.version, r.hash, e),
          objectKey(target.projectToken, target.environmentKey, target.version, r.hash, e),
        ),
      ),
    );
  };
  const out: PublishedResource[] = [];
  let done = 0;
  async function* items() {
    yield* resources;
  }
  await pool(items(), CONCURRENCY, async (r, index) => {
    let copying = copied.get(r.hash);
    if (!copying) copied.set(r.hash, (copying = copyContent(r)));
    await copying;
    out[index] = { ...r, link: linkOf(target.projectToken, target.environmentKey, r) };
    await onResource(++done);
  });
  return out;
}
