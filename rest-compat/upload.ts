// Reads the file of a multipart REST request (routes declared `multipart`),
// the contract's form field `file`, within MAX_UPLOAD_BYTES.
import type { FastifyRequest } from 'fastify';
import { badRequest, payloadTooLarge } from '../src/errors.js';

export interface UploadedFile {
  fileName: string;
  mimeType: string;
  data: Buffer;
}

const FIELD = 'file';

function tooLarge(maxBytes: number) {
  return payloadTooLarge(`The file is larger than ${maxBytes} bytes (MAX_UPLOAD_BYTES)`);
}

export async function readUpload(request: FastifyRequest, maxBytes: number): Promise<UploadedFile> {
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
    return { fileName: part.filename, mimeType: part.mimetype, data: await part.toBuffer() };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(maxBytes);
    if (code?.startsWith('FST_')) throw badRequest(`The multipart body could not be read: ${(error as Error).message}`);
    if (error instanceof Error && !('extensions' in error)) throw badRequest(`The multipart body could not be read: ${error.message}`);
    throw error;
  }
}
