// GraphQL multipart requests (the GraphQL multipart request spec: `operations`,
// `map`, then the files), read with graphql-upload-minimal's processRequest
// from the raw request stream. Each file is streamed to a temp file under
// DATA_DIR/tmp (saveUpload, the temp-file writer REST uploads use too) and
// reaches the `Upload` scalar as that UploadedFile, so an upload is never held
// in memory before the importer reads it; the temp files are removed when the
// request ends. The operation then runs through Yoga's envelope (execute.ts:
// the same plugins, context and error masking as every other GraphQL request)
// and the answer is GraphQL JSON.
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GraphQLError, type ExecutionResult } from 'graphql';
import { processRequest, Upload } from 'graphql-upload-minimal';
import { saveUpload, type UploadedFile } from '../transfer/uploaded-file.js';
import { openOperation, requestHeaders, type AnyYoga } from './execute.js';
import { inContextCorsHeaders, isInContextRequest } from './in-context-cors.js';
import { keepLeadingBytes, leadingFieldsProblem } from './multipart-fields.js';

export interface MultipartOptions {
  maxUploadBytes: number;
  /** Where files are streamed while the request runs. */
  uploadDir: string;
  /** Files per request (MAX_MULTIPART_FILES): the schema takes one per import. */
  maxFiles?: number;
  /** Size of the `operations` and `map` fields (MAX_BODY_BYTES). */
  maxFieldBytes?: number;
}

const DEFAULT_MAX_FILES = 10;
/** graphql-upload-minimal's own default for maxFieldSize. */
const DEFAULT_MAX_FIELD_BYTES = 1_000_000;

interface Operation {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

class RequestProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const codeOf = (status: number) => (status === 413 ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST');

interface Answer {
  status: number;
  body: unknown;
  /** Headers a refusal names in extensions.http (Retry-After of a 503). */
  headers?: Record<string, string>;
}

const errors = (status: number, list: { message: string; extensions?: Record<string, unknown> }[]): Answer => ({
  status,
  body: { errors: list },
});

/** Replaces every Upload of the variables with an UploadedFile (a temp file), remembering each in `saved`. */
async function storeUploads(value: unknown, dir: string, saved: UploadedFile[]): Promise<unknown> {
  if (value instanceof Upload) {
    const upload = await value.promise;
    const file = await saveUpload(upload.createReadStream() as Readable, dir, upload.filename, upload.mimetype);
    saved.push(file);
    return file;
  }
  if (Array.isArray(value)) return Promise.all(value.map((item) => storeUploads(item, dir, saved)));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value)) out[name] = await storeUploads(item, dir, saved);
    return out;
  }
  return value;
}

async function readOperation(
  request: FastifyRequest,
  reply: FastifyReply,
  options: MultipartOptions,
  saved: UploadedFile[],
): Promise<Operation> {
  let operations: unknown;
  const maxFiles = options.maxFiles ?? DEFAULT_MAX_FILES;
  // operations and map, each at most maxFieldBytes, come first (multipart-fields.ts).
  const leading = keepLeadingBytes(request.raw, 2 * (options.maxFieldBytes ?? DEFAULT_MAX_FIELD_BYTES) + 64 * 1024);
  try {
    operations = await processRequest(request.raw, reply.raw, {
      maxFileSize: options.maxUploadBytes,
      maxFiles: maxFiles,
      maxFieldSize: options.maxFieldBytes,
    });
  } catch (error) {
    leading.take();
    const status = (error as { status?: number }).status ?? 400;
    const message = (error as Error).message;
    // graphql-upload-minimal's 413s: too many files, a field too large, a file too large.
    if (status === 413 && /max file uploads exceeded/.test(message))
      throw new RequestProblem(413, `Too many files: at most ${maxFiles} per request (MAX_MULTIPART_FILES)`);
    if (status === 413 && /field value exceeds/.test(message))
      throw new RequestProblem(413, `A multipart field is larger than ${options.maxFieldBytes} bytes (MAX_BODY_BYTES)`);
    throw new RequestProblem(
      status,
      status === 413 ? `The upload is larger than ${options.maxUploadBytes} bytes (MAX_UPLOAD_BYTES)` : message,
    );
  }
  const kept = leading.take();
  // Decoded leniently, a byte that is not UTF-8 became U+FFFD: only then are the bytes looked at.
  if (JSON.stringify(operations).includes('\uFFFD')) {
    const problem = leadingFieldsProblem(kept, request.headers['content-type'] ?? '');
    if (problem) throw new RequestProblem(400, problem);
  }
  if (Array.isArray(operations))
    throw new RequestProblem(400, 'Batched operations are not supported: send one operation per request');
  const operation = operations as Operation;
  try {
    return { ...operation, variables: await storeUploads(operation.variables ?? {}, options.uploadDir, saved) };
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status === 413)
      throw new RequestProblem(413, `The upload is larger than ${options.maxUploadBytes} bytes (MAX_UPLOAD_BYTES)`);
    throw new RequestProblem(400, `The upload could not be read: ${(error as Error).message}`);
  }
}

/** Runs the request's operation; the temp files are removed before the answer is sent. */
export async function handleMultipart(
  request: FastifyRequest,
  reply: FastifyReply,
  yoga: AnyYoga,
  options: MultipartOptions,
): Promise<FastifyReply> {
  const saved: UploadedFile[] = [];
  let answer: Answer;
  try {
    answer = await run(request, reply, yoga, options, saved);
  } finally {
    await Promise.all(saved.map((file) => file.remove()));
  }
  // The in-context editor's capture uploads from the application's origin (in-context-cors.ts).
  const cors = isInContextRequest({ method: request.method, headers: requestHeaders(request.headers) })
    ? await inContextCorsHeaders({ method: request.method, headers: requestHeaders(request.headers) })
    : null;
  if (cors) reply.headers(cors);
  if (answer.headers) reply.headers(answer.headers);
  return reply
    .status(answer.status)
    .header('content-type', 'application/json; charset=utf-8')
    .send(JSON.stringify(answer.body));
}

async function run(
  request: FastifyRequest,
  reply: FastifyReply,
  yoga: AnyYoga,
  options: MultipartOptions,
  saved: UploadedFile[],
): Promise<Answer> {
  let operation: Operation;
  try {
    operation = await readOperation(request, reply, options, saved);
  } catch (error) {
    if (!(error instanceof RequestProblem)) throw error;
    return errors(error.status, [{ message: error.message, extensions: { code: codeOf(error.status) } }]);
  }
  if (typeof operation.query !== 'string') return errors(400, [{ message: 'The operations field must hold a query' }]);
  const open = await openOperation(yoga, requestHeaders(request.headers), {
    req: request,
    reply,
    method: request.method,
    url: request.url,
  });
  // The context could not be built (a lost database): answered as Yoga's handler answers it.
  if (open instanceof GraphQLError) return answerOf({ errors: [open] });
  const document = open.parse(operation.query);
  if (document instanceof Error) return errors(400, [{ message: document.message }]);
  const invalid = open.validate(document);
  if (invalid.length)
    return errors(
      400,
      invalid.map((e) => ({ message: e.message })),
    );
  const result = await open.execute({
    document,
    variables: operation.variables as Record<string, unknown>,
    operationName: typeof operation.operationName === 'string' ? operation.operationName : undefined,
  });
  return answerOf(result);
}

/**
 * The answer to an executed operation, as Yoga's HTTP handler gives it: a
 * refusal without data carries its HTTP status in extensions.http (a 400 for
 * text that cannot be stored), which decides the status and is not sent.
 */
function answerOf(result: ExecutionResult): Answer {
  let status = 200;
  const headers: Record<string, string> = {};
  const errors = result.errors?.map((error) => {
    const { http, ...extensions } = (error.extensions ?? {}) as {
      http?: { status?: number; headers?: Record<string, string> };
    };
    if (result.data == null && http?.status) status = Math.max(status, http.status);
    if (result.data == null && http?.headers) Object.assign(headers, http.headers);
    return http ? { ...error.toJSON(), extensions } : error;
  });
  return { status, headers, body: errors ? { ...result, errors } : result };
}
