// Object storage of published files: the local disk by default, an
// S3-compatible bucket in production. Keys are '/'-separated paths built by the
// service itself (never from request input), e.g.
// `{projectToken}/{environmentKey}/.versions/{version}/{hash}.json`.
import type { Readable } from 'node:stream';

export interface StoredObject {
  body: Readable;
  size: number;
}

export interface PutOptions {
  contentType: string;
  /** Set for precompressed variants (gzip, br). */
  contentEncoding?: string;
}

export interface Storage {
  readonly kind: 'local' | 's3';
  put(key: string, bytes: Buffer, options: PutOptions): Promise<void>;
  /** Stores a local file without reading it into memory (large export files). */
  putFile(key: string, path: string, options: PutOptions): Promise<void>;
  /** undefined when the object does not exist. */
  get(key: string): Promise<StoredObject | undefined>;
  /** Server-side copy where the backend has one. */
  copy(fromKey: string, toKey: string): Promise<void>;
  /** Names of the direct children "folders" of `prefix` (which ends with '/'). */
  listFolders(prefix: string): Promise<string[]>;
  /** Deletes every object whose key starts with `prefix` (which ends with '/'). */
  deletePrefix(prefix: string): Promise<void>;
  close(): Promise<void>;
}

export function assertFolderPrefix(prefix: string): void {
  if (!prefix.endsWith('/') || prefix === '/')
    throw new Error(`Storage prefix must be a folder ending with '/', got '${prefix}'`);
}
