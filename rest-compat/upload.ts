// Reads the file of a multipart REST request (routes declared `multipart`),
// the contract's form field `file`, within MAX_UPLOAD_BYTES. The file is
// streamed to a temp file and handed on as a Blob backed by that file, so the
// upload is not held in memory (once, where the importer reads it).
import { createWriteStream, openAsBlob } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { badRequest, payloadTooLarge } from '../src/errors.js';

export interface UploadedFile {
  fileName: string;
  mimeType: string;
  /** The bytes, backed by a temp file until `remove()`. */
  blob: Blob;
  remove(): Promise<void>;
}

const FIELD = 'file';

function tooLarge(maxBytes: number) {
  return payloadTooLarge(`The file is larger than ${maxBytes} bytes (MAX_UPLOAD_BYTES)`);
}

export async function readUpload(request: FastifyRequest, maxBytes: number, uploadDir = tmpdir()): Promise<UploadedFile> {
  if (!request.isMultipart()) throw badRequest(`Send the file as multipart/form-data in a form field named '${FIELD}'`);
  const declared = Number(request.headers['content-length']);
  // A body far beyond the limit is refused before it is read (multipart framing costs little).
  if (Number.isFinite(declared) && declared > maxBytes + 64 * 1024) throw tooLarge(maxBytes);
  try {
    const part = await request.file({ limits: { fileSize: maxBytes, files: 1, fields: 20, parts: 25 } });
    if (!part) throw badRequest(`The request has no file: send it in a form field named '${FIELD}'`);
    if (part.fieldname !== FIELD) {
      part.file.resume();
      throw badRequest(`The file must be sent in a form field named '${FIELD}', not '${part.fieldname}'`);
    }
    await mkdir(uploadDir, { recursive: true });
    const dir = await mkdtemp(join(uploadDir, 'upload-'));
    const remove = () => rm(dir, { recursive: true, force: true });
    try {
      const path = join(dir, 'file');
      await pipeline(part.file, createWriteStream(path));
      if (part.file.truncated) throw tooLarge(maxBytes);
      return { fileName: part.filename, mimeType: part.mimetype, blob: await openAsBlob(path, { type: part.mimetype }), remove };
    } catch (error) {
      await remove();
      throw error;
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(maxBytes);
    if (code?.startsWith('FST_')) throw badRequest(`The multipart body could not be read: ${(error as Error).message}`);
    // The temp file could not be written (disk full, permissions): the service's problem, not the request's.
    if ((error as { syscall?: string }).syscall !== undefined) throw error;
    if (error instanceof Error && !('extensions' in error)) throw badRequest(`The multipart body could not be read: ${error.message}`);
    throw error;
  }
}
