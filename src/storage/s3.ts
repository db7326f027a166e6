// S3-compatible object storage (AWS S3, MinIO, Ceph, R2, ...) through the AWS
// SDK. Only the calls below are used: PutObject (from memory or a file stream), GetObject, CopyObject,
// ListObjectsV2 and DeleteObjects.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { assertFolderPrefix, type PutOptions, type Storage, type StoredObject } from './types.js';

export interface S3Options {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Prepended to every key, so the service can share a bucket ('' or ending with '/'). */
  prefix: string;
}

export class S3Storage implements Storage {
  readonly kind = 's3' as const;
  private readonly client: S3Client;

  constructor(private readonly options: S3Options) {
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials:
        options.accessKeyId && options.secretAccessKey
          ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
          : undefined,
      // Checksums only where S3 requires them: several S3-compatible servers
      // reject the newer default (flexible checksums on every upload).
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private key(key: string): string {
    return this.options.prefix + key;
  }

  async put(key: string, bytes: Buffer, options: PutOptions): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.options.bucket,
        Key: this.key(key),
        Body: bytes,
        ContentType: options.contentType,
        ContentEncoding: options.contentEncoding,
      }),
    );
  }

  async putFile(key: string, path: string, options: PutOptions): Promise<void> {
    // A file stream needs its length up front: S3 refuses unsized streaming bodies.
    const { size } = await stat(path);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.options.bucket,
        Key: this.key(key),
        Body: createReadStream(path),
        ContentLength: size,
        ContentType: options.contentType,
        ContentEncoding: options.contentEncoding,
      }),
    );
  }

  async get(key: string): Promise<StoredObject | undefined> {
    try {
      const result = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: this.key(key) }));
      return { body: result.Body as Readable, size: result.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async copy(fromKey: string, toKey: string): Promise<void> {
    await this.client.send(
      new CopyObjectCommand({
        Bucket: this.options.bucket,
        Key: this.key(toKey),
        CopySource: `${this.options.bucket}/${this.key(fromKey).split('/').map(encodeURIComponent).join('/')}`,
      }),
    );
  }

  async listFolders(prefix: string): Promise<string[]> {
    assertFolderPrefix(prefix);
    const full = this.key(prefix);
    const folders: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.options.bucket,
          Prefix: full,
          Delimiter: '/',
          ContinuationToken: token,
        }),
      );
      for (const p of page.CommonPrefixes ?? []) if (p.Prefix) folders.push(p.Prefix.slice(full.length, -1));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return folders;
  }

  async deletePrefix(prefix: string): Promise<void> {
    assertFolderPrefix(prefix);
    let token: string | undefined;
    do {
      // Listing continues from the token, so deleting the page just read is safe.
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: this.key(prefix), ContinuationToken: token }),
      );
      const keys = (page.Contents ?? []).map((o) => o.Key!).filter(Boolean);
      if (keys.length > 0) {
        const result = await this.client.send(
          new DeleteObjectsCommand({
            Bucket: this.options.bucket,
            Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
          }),
        );
        if (result.Errors?.length)
          throw new Error(
            `S3 delete failed for ${result.Errors.length} objects: ${result.Errors[0]!.Key}: ${result.Errors[0]!.Message}`,
          );
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}
