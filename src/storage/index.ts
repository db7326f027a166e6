// The storage of this process, chosen from the configuration at start-up
// (src/app.ts) and used by the hosting domain and the CDN route.
import type { Config } from '../config.js';
import { LocalStorage } from './local.js';
import type { Storage } from './types.js';

export type { Storage, StoredObject, PutOptions } from './types.js';

let current: Storage | undefined;

export async function createStorage(config: Config): Promise<Storage> {
  if (config.storage.kind === 's3') {
    // Loaded only when configured: the SDK is large and warns on older Node versions.
    const { S3Storage } = await import('./s3.js');
    return new S3Storage(config.storage);
  }
  return new LocalStorage(config.storage.dir);
}

export function setStorage(storage: Storage | undefined): void {
  current = storage;
}

export function storage(): Storage {
  if (!current) throw new Error('The storage is not configured');
  return current;
}

/** Reads a whole object (small files, tests). */
export async function readObject(key: string): Promise<Buffer | undefined> {
  const object = await storage().get(key);
  if (!object) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}
