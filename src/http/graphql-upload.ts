// GraphQL multipart requests (the GraphQL multipart request spec: `operations`,
// `map`, then the files), read with graphql-upload-minimal's processRequest
// from the raw request stream. Each file is streamed to a temp file under
// DATA_DIR/tmp and reaches the `Upload` scalar as a Blob backed by that file,
// so an upload is never held in memory before the importer reads it; the temp
// files are removed when the request ends. The operation then runs through
// Yoga's envelope (the same plugins, context and error masking as every other
// GraphQL request) and the answer is GraphQL JSON.
import { createWriteStream, openAsBlob } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ExecutionResult, GraphQLError } from 'graphql';
import type { YogaServerInstance } from 'graphql-yoga';
import type { ServerContext } from './graphql.js';
import { processRequest, Upload } from 'graphql-upload-minimal';

export interface MultipartOptions {
  maxUploadBytes: number;
  /** Where files are streamed while the request runs. */
  uploadDir: string;
}

/** At most this many files per request: the schema takes one per import. */
const MAX_FILES = 10;

interface Operation { query?: unknown; variables?: unknown; operationName?: unknown }

class RequestProblem extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

const codeOf = (status: number) => (status === 413 ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST');

interface Answer { status: number; body: unknown }

const errors = (status: number, list: { message: string; extensions?: Record<string, unknown> }[]): Answer => ({ status, body: { errors: list } });

/** Replaces every Upload of the variables with a file-backed File, streaming each upload into `dir`. */
async function storeUploads(value: unknown, dir: string, counter: { n: number }): Promise<unknown> {
  if (value instanceof Upload) {
    const upload = await value.promise;
    const path = join(dir, `file-${counter.n++}`);
    await pipeline(upload.createReadStream() as Readable, createWriteStream(path));
    return new File([await openAsBlob(path)], upload.filename || 'upload', { type: upload.mimetype });
  }
  if (Array.isArray(value)) return Promise.all(value.map((item) => storeUploads(item, dir, counter)));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value)) out[name] = await storeUploads(item, dir, counter);
    return out;
  }
  return value;
}

function headersOf(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  return headers;
}

async function readOperation(request: FastifyRequest, reply: FastifyReply, options: MultipartOptions, dir: string): Promise<Operation> {
  let operations: unknown;
  try {
    operations = await processRequest(request.raw, reply.raw, { maxFileSize: options.maxUploadBytes, maxFiles: MAX_FILES });
  } catch (error) {
    const status = (error as { status?: number }).status ?? 400;
    throw new RequestProblem(status, status === 413 ? `The upload is larger than ${options.maxUploadBytes} bytes (MAX_UPLOAD_BYTES)` : (error as Error).message);
  }
  if (Array.isArray(operations)) throw new RequestProblem(400, 'Batched operations are not supported: send one operation per request');
  const operation = operations as Operation;
  try {
    return { ...operation, variables: await storeUploads(operation.variables ?? {}, dir, { n: 0 }) };
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status === 413) throw new RequestProblem(413, `The upload is larger than ${options.maxUploadBytes} bytes (MAX_UPLOAD_BYTES)`);
    throw new RequestProblem(400, `The upload could not be read: ${(error as Error).message}`);
  }
}

/** Runs the request's operation; the temp files are removed before the answer is sent. */
export async function handleMultipart(request: FastifyRequest, reply: FastifyReply, yoga: YogaServerInstance<ServerContext, object>, options: MultipartOptions): Promise<FastifyReply> {
  await mkdir(options.uploadDir, { recursive: true });
  const dir = await mkdtemp(join(options.uploadDir, 'upload-'));
  let answer: Answer;
  try {
    answer = await run(request, reply, yoga, options, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return reply.status(answer.status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(answer.body));
}

async function run(request: FastifyRequest, reply: FastifyReply, yoga: YogaServerInstance<ServerContext, object>, options: MultipartOptions, dir: string): Promise<Answer> {
  let operation: Operation;
  try {
    operation = await readOperation(request, reply, options, dir);
  } catch (error) {
    if (!(error instanceof RequestProblem)) throw error;
    return errors(error.status, [{ message: error.message, extensions: { code: codeOf(error.status) } }]);
  }
  if (typeof operation.query !== 'string') return errors(400, [{ message: 'The operations field must hold a query' }]);
  const enveloped = yoga.getEnveloped({ req: request, reply, request: { headers: headersOf(request), method: request.method, url: request.url } });
  let document;
  try {
    document = enveloped.parse(operation.query);
  } catch (error) {
    return errors(400, [{ message: (error as GraphQLError).message }]);
  }
  const invalid = enveloped.validate(enveloped.schema, document);
  if (invalid.length) return errors(400, invalid.map((e: GraphQLError) => ({ message: e.message })));
  const result = (await enveloped.execute({
    schema: enveloped.schema,
    document,
    variableValues: operation.variables as Record<string, unknown>,
    operationName: typeof operation.operationName === 'string' ? operation.operationName : undefined,
    contextValue: await enveloped.contextFactory(),
  })) as ExecutionResult;
  return { status: 200, body: result };
}
