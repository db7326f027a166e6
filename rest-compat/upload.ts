// Reads the file of a multipart REST request (routes declared `multipart`),
// the contract's form field `file`, within MAX_UPLOAD_BYTES. The file is
// streamed to a temp file (src/transfer/uploaded-file.ts) and handed to the
// importFile mutation as it is; rest-compat/index.ts removes it when the
// request ends.
import { tmpdir } from 'node:os';
import type { FastifyRequest } from 'fastify';
import { badRequest, payloadTooLarge } from '../src/errors.js';
import { saveUpload, type UploadedFile } from '../src/transfer/uploaded-file.js';

export type { UploadedFile };

const FIELD = 'file';

function tooLarge(maxBytes: number) {
  return payloadTooLarge(`The file is larger than ${maxBytes} bytes (MAX_UPLOAD_BYTES)`);
}

/** The multipart limits (other than the file's size) Fastify's parser names by code. */
const COUNT_LIMITS: Record<string, (maxFields: number) => string> = {
  FST_FIELDS_LIMIT: (n) => `Too many form fields: at most ${n} (MAX_MULTIPART_FIELDS)`,
  FST_PARTS_LIMIT: (n) => `Too many form parts: at most ${n} fields and one file (MAX_MULTIPART_FIELDS)`,
  FST_FILES_LIMIT: () => `Too many files: send one, in the form field '${FIELD}'`,
};

export async function readUpload(
  request: FastifyRequest,
  maxBytes: number,
  uploadDir = tmpdir(),
  maxFields = 20,
): Promise<UploadedFile> {
  if (!request.isMultipart()) throw badRequest(`Send the file as multipart/form-data in a form field named '${FIELD}'`);
  const declared = Number(request.headers['content-length']);
  // A body far beyond the limit is refused before it is read (multipart framing costs little).
  if (Number.isFinite(declared) && declared > maxBytes + 64 * 1024) throw tooLarge(maxBytes);
  try {
    const part = await request.file({
      limits: { fileSize: maxBytes, files: 1, fields: maxFields, parts: maxFields + 1 },
    });
    if (!part) throw badRequest(`The request has no file: send it in a form field named '${FIELD}'`);
    if (part.fieldname !== FIELD) {
      part.file.resume();
      throw badRequest(`The file must be sent in a form field named '${FIELD}', not '${part.fieldname}'`);
    }
    const file = await saveUpload(part.file, uploadDir, part.filename, part.mimetype);
    if (part.file.truncated) {
      await file.remove();
      throw tooLarge(maxBytes);
    }
    return file;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(maxBytes);
    if (code && COUNT_LIMITS[code]) throw payloadTooLarge(COUNT_LIMITS[code](maxFields));
    if (code?.startsWith('FST_')) throw badRequest(`The multipart body could not be read: ${(error as Error).message}`);
    // The temp file could not be written (disk full, permissions): the service's problem, not the request's.
    if ((error as { syscall?: string }).syscall !== undefined) throw error;
    if (error instanceof Error && !('extensions' in error))
      throw badRequest(`The multipart body could not be read: ${error.message}`);
    throw error;
  }
}
