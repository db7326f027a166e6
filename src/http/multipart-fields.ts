// The text fields of a GraphQL multipart request (`operations`, `map`) as the
// bytes they were sent as. busboy (inside graphql-upload-minimal) decodes a
// field leniently, so bytes that are not UTF-8 would reach the operation as
// U+FFFD and be stored; the edge rule (input-text.ts) refuses them instead.
// The spec puts both fields before any file and each is at most MAX_BODY_BYTES,
// so the leading bytes of the body hold them: they are kept while the parser
// reads, and split on the boundary only when a decoded field holds U+FFFD.
import type { Readable } from 'node:stream';
import { bytesProblem } from './input-text.js';

/** Keeps the first `limit` bytes a stream delivers, without taking part in its flow; `take` stops and returns them. */
export function keepLeadingBytes(stream: Readable, limit: number): { take(): Buffer } {
  const chunks: Buffer[] = [];
  let size = 0;
  const onData = (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= limit) stream.off('data', onData);
  };
  stream.on('data', onData);
  return {
    take() {
      stream.off('data', onData);
      return Buffer.concat(chunks);
    },
  };
}

const boundaryOf = (contentType: string): string | undefined => {
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
};

/**
 * The problem with the text fields at the start of a multipart body: the
 * first field whose bytes are not UTF-8, named. Fields are read up to the first
 * file part (or the end of what was kept).
 */
export function leadingFieldsProblem(body: Buffer, contentType: string): string | undefined {
  const boundary = boundaryOf(contentType);
  if (!boundary) return undefined;
  const delimiter = Buffer.from(`--${boundary}`);
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const start = at + delimiter.length;
    const next = body.indexOf(delimiter, start);
    if (next === -1) return undefined;
    const part = body.subarray(start, next);
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd === -1) return undefined;
    const headers = part.subarray(0, headerEnd).toString('latin1');
    if (/filename\*?=/i.test(headers)) return undefined;
    const name = /name="([^"]*)"/i.exec(headers)?.[1] ?? 'a field';
    // The part's content ends with the CRLF that precedes the next delimiter.
    const problem = bytesProblem(part.subarray(headerEnd + 4, part.length - 2), `The multipart field '${name}'`);
    if (problem) return problem;
    at = next;
  }
  return undefined;
}
