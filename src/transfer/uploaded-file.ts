// An uploaded file, the one shape it has from the HTTP layer to the importer:
// a temp file on disk with the name and type the client gave and its size,
// read as a stream. Both upload paths (a REST multipart route and a GraphQL
// multipart request) write it with saveUpload, the one temp-file writer, and
// remove it when their request ends. The folders of this process's uploads are
// known until then (uploadsInUse): a process killed mid-import leaves its
// folder behind, which upload-sweep.ts removes.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export class UploadedFile {
  constructor(
    /** The temp file holding the bytes, until remove(). */
    readonly path: string,
    /** The file name the client sent ('' when none). */
    readonly name: string,
    /** The media type the client sent ('' when none). */
    readonly type: string,
    readonly size: number,
    private readonly dir: string,
  ) {}

  stream(): Readable {
    return createReadStream(this.path);
  }

  /** The same file under another name or type (the official client names its file in a query parameter). */
  describedAs(name: string, type: string = this.type): UploadedFile {
    return new UploadedFile(this.path, name, type, this.size, this.dir);
  }

  /** Deletes the temp file (its own folder). */
  async remove(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
    inUse.delete(this.dir);
  }
}

/** Prefix of an upload's folder under the upload directory. */
export const UPLOAD_PREFIX = 'upload-';

/** Folders (absolute paths) of this process's uploads not yet removed. */
const inUse = new Set<string>();

export function uploadsInUse(): ReadonlySet<string> {
  return inUse;
}

/**
 * Streams `source` into a new temp folder under `uploadDir`. Limits are the
 * reader's business (the multipart parsers stop at MAX_UPLOAD_BYTES); a stream
 * that fails leaves nothing behind.
 */
export async function saveUpload(
  source: Readable,
  uploadDir: string,
  name: string,
  type: string,
): Promise<UploadedFile> {
  await mkdir(uploadDir, { recursive: true });
  const dir = await mkdtemp(join(resolve(uploadDir), UPLOAD_PREFIX));
  inUse.add(dir);
  const path = join(dir, 'file');
  try {
    await pipeline(source, createWriteStream(path));
    return new UploadedFile(path, name, type, (await stat(path)).size, dir);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    inUse.delete(dir);
    throw error;
  }
}
