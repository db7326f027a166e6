// One rule for the text a request carries, applied at the edge before any of
// it reaches a resolver or the database: text that cannot be stored as given
// is refused with a 400, wherever it comes. That is a NUL character (U+0000,
// which PostgreSQL text cannot hold), half of a UTF-16 surrogate pair (a JSON
// escape such as \ud800, which would become U+FFFD) and bytes that are not
// UTF-8 (which a decoder would turn into U+FFFD): the rules imports apply to
// files (storableTextProblem in content/translations/fields.ts, strict UTF-8 in
// formats/text.ts). It is checked in:
//   - the URL (path and query parameters, percent-encoded or not) and the
//     headers, Basic credentials decoded: an onRequest hook;
//   - JSON bodies: the bytes before they are decoded (invalid UTF-8 would be
//     replaced by then), every string and property name after: the JSON body parser;
//   - GraphQL: variables and inline string literals, on every path through
//     Yoga's envelope (HTTP, multipart, WebSocket, the REST routes), as a
//     GraphQL error with code BAD_REQUEST.
// REST answers in the envelope (errors.ts); GraphQL bodies are left to the
// GraphQL rule, so that a GraphQL client gets a GraphQL error.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GraphQLError, Kind, type ASTVisitor, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { nameOf, storableTextProblem, type FieldName } from '../content/translations/fields.js';
import { firstInvalidUtf8Offset } from '../formats/text.js';
import { UploadedFile } from '../transfer/uploaded-file.js';

/** Whether a string can be stored as it is (checked natively: String.prototype.isWellFormed). */
const fine = (text: string) =>
  (text as unknown as { isWellFormed(): boolean }).isWellFormed() && !text.includes('\u0000');

/** The problem with one string, or undefined; `field` names it in the message. */
export function textProblem(value: string, field: FieldName): string | undefined {
  // The usual text, checked natively; the message is worked out only for a problem.
  if (fine(value)) return undefined;
  return storableTextProblem(value, field);
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes as text, or the problem: not UTF-8 (the offset of the first bad byte), or text that cannot be stored. */
function decodeBytes(bytes: Uint8Array, field: FieldName): { text: string; problem?: undefined } | { problem: string } {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return {
      problem: `${nameOf(field)} is not valid UTF-8: invalid byte at offset ${firstInvalidUtf8Offset(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))}`,
    };
  }
  return { text };
}

const isPlainObject = (value: object): value is Record<string, unknown> => {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

/**
 * Whether every string and property name of a JSON-like value is fine: the
 * quick pass over a bulk body, which builds no names. The walk keeps its own
 * stack: a body may nest deeper than the call stack goes.
 */
function allFine(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (!fine(value)) return false;
    } else if (typeof value !== 'object' || value === null) {
      continue;
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) stack.push(value[i]);
    } else if (value instanceof UploadedFile) {
      if (!fine(value.name)) return false;
    } else if (isPlainObject(value)) {
      for (const key in value) {
        if (!fine(key)) return false;
        stack.push(value[key]);
      }
    }
  }
  return true;
}

/**
 * The first problem in a JSON-like value, named by its path (`content[0].text`,
 * `$input.key` with prefix `$`): strings and property names of plain objects
 * and arrays, and the names of uploaded files (anything else is not text).
 */
export function valueProblem(root: unknown, prefix = ''): string | undefined {
  if (allFine(root)) return undefined;
  const stack: [unknown, string][] = [[root, '']];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      const problem = textProblem(value, () => path || 'the body');
      if (problem) return problem;
    } else if (value instanceof UploadedFile) {
      const problem = textProblem(value.name, () => `the file name of ${path}`);
      if (problem) return problem;
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], `${path}[${i}]`]);
    } else if (typeof value === 'object' && value !== null && isPlainObject(value)) {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        const at = path ? `${path}.${key}` : `${prefix}${key}`;
        const problem = textProblem(key, () => `the name of ${at}`);
        if (problem) return problem;
        stack.push([value[key], at]);
      }
    }
  }
  return undefined;
}

/** The problem with text received as bytes (a URL's parts, Basic credentials). */
export function bytesProblem(bytes: Buffer, field: FieldName): string | undefined {
  const decoded = decodeBytes(bytes, field);
  return decoded.problem ?? textProblem(decoded.text, field);
}

/** Percent-decodes a part of a URL to its bytes (any other character is taken as is; `+` is a space in a query). */
function urlBytes(part: string): Buffer {
  return Buffer.from(
    part.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  );
}

/** The problem with a request's URL: its path, and each query parameter's name and value, as the bytes they decode to. */
export function urlProblem(url: string): string | undefined {
  // The usual URL: plain ASCII without escapes or control characters.
  if (!/[^\u0020-\u007e]|%/.test(url)) return undefined;
  const question = url.indexOf('?');
  const path = question < 0 ? url : url.slice(0, question);
  const pathProblem = bytesProblem(urlBytes(path), 'The path');
  if (pathProblem || question < 0) return pathProblem;
  for (const pair of url.slice(question + 1).split('&')) {
    const equals = pair.indexOf('=');
    const name = urlBytes(equals < 0 ? pair : pair.slice(0, equals));
    const problem =
      bytesProblem(name, 'A query parameter name') ??
      (equals < 0
        ? undefined
        : bytesProblem(urlBytes(pair.slice(equals + 1)), () => `The query parameter ${name.toString('utf8')}`));
    if (problem) return problem;
  }
  return undefined;
}

/** The login and password of a Basic Authorization header, as bytes. */
export function basicCredentialBytes(authorization: string): Buffer | undefined {
  const match = /^\s*Basic\s+(\S*)\s*$/i.exec(authorization);
  return match ? Buffer.from(match[1]!, 'base64') : undefined;
}

/** The problem with a request's headers: NUL in any value, or in the decoded Basic credentials. */
export function headersProblem(headers: FastifyRequest['headers']): string | undefined {
  for (const name in headers) {
    const value = headers[name];
    // Checked natively first; the field's name is built only for a problem (this runs on every request).
    if (typeof value === 'string') {
      if (!fine(value)) return textProblem(value, `The ${name} header`);
    } else if (value) {
      for (const one of value) if (!fine(one)) return textProblem(one, `The ${name} header`);
    }
  }
  const basic = typeof headers.authorization === 'string' ? basicCredentialBytes(headers.authorization) : undefined;
  return basic && bytesProblem(basic, 'The Basic credentials');
}

/**
 * The problem with graphql-ws connectionParams, which stand in for headers on
 * a WebSocket (requestHeaders in execute.ts): the headers' rule, names lower-cased
 * as Node gives headers; values that are not strings are not used as headers.
 */
export function connectionParamsProblem(
  params: Readonly<Record<string, unknown>> | undefined | null,
): string | undefined {
  if (!params) return undefined;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    const nameProblem = textProblem(name, 'A connectionParams name');
    if (nameProblem) return nameProblem;
    if (typeof value === 'string') headers[name.toLowerCase()] = value;
  }
  return headersProblem(headers);
}

/** A JSON escape that may stand for text that cannot be stored: \u0000 or half of a surrogate pair (pairs match too: the walk decides). */
const STORABLE_ESCAPE = /\\u(?:0000|[dD][89a-fA-F][0-9a-fA-F]{2})/;

const badRequest = (statusCode: number, message: string) => Object.assign(new Error(message), { statusCode });

/**
 * The rule on Fastify: URL and headers on every request, and every JSON body
 * but GraphQL's (the GraphQL plugin below checks what a document carries).
 */
export function registerInputText(app: FastifyInstance, graphqlEndpoint: string): void {
  app.addHook('onRequest', async (request) => {
    const problem = urlProblem(request.raw.url ?? '') ?? headersProblem(request.headers);
    if (problem) throw badRequest(400, problem);
  });
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const decoded = decodeBytes(body as Buffer, 'The body');
    if (decoded.problem !== undefined) return done(badRequest(400, decoded.problem), undefined);
    // Fastify's default parser answers through its callback; it returns nothing to wait for.
    void parseJson(request, decoded.text, (error: Error | null, value?: unknown) => {
      if (error) return done(error, undefined);
      // JSON text decoded from UTF-8 holds NUL or half a surrogate pair only as an escape: without one, nothing to walk.
      const problem =
        request.routeOptions.url === graphqlEndpoint || !STORABLE_ESCAPE.test(decoded.text)
          ? undefined
          : valueProblem(value);
      if (problem) return done(badRequest(400, problem), undefined);
      done(null, value);
    });
  });
}

/** A refusal to GraphQL clients: code BAD_REQUEST, and a 400 whatever the Accept header (as limits-graphql.ts). */
export function graphqlRefusal(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_REQUEST', http: { status: 400, spec: false } } });
}

/** Inline string literals of a document, checked as it is validated (the result is cached with the document). */
function literalTextRule(context: ValidationContext): ASTVisitor {
  return {
    [Kind.STRING](node) {
      const problem = textProblem(node.value, 'A string in the query');
      if (problem) context.reportError(graphqlRefusal(problem));
    },
  };
}

/** The rule in Yoga's envelope: literals when a document is validated, variables before it runs. */
/** graphql's message for an escape it cannot decode, when the escape is half of a surrogate pair (\uD800 or \u{D800}). */
const LONE_SURROGATE_ESCAPE = /Invalid Unicode escape sequence: "\\u\{?0*([dD][89a-fA-F][0-9a-fA-F]{2})/;

export function textInputPlugin(): Plugin {
  const variablesRefusal = (variables: unknown) => {
    const problem = valueProblem(variables ?? {}, '$');
    return problem ? graphqlRefusal(problem) : undefined;
  };
  return {
    // graphql's parser refuses an escape of half a surrogate pair itself, as a syntax error (a 200 for
    // application/json clients): here it is the text rule's refusal, a 400 like every other path.
    onParse() {
      return ({ result, replaceParseResult }) => {
        const escape = result instanceof Error ? LONE_SURROGATE_ESCAPE.exec(result.message) : null;
        if (escape)
          replaceParseResult(
            graphqlRefusal(
              `A string in the query contains half of a UTF-16 surrogate pair (U+${escape[1]!.toUpperCase()}), which is not a character`,
            ),
          );
      };
    },
    onResultProcess({ result }) {
      for (const error of (result as { errors?: readonly GraphQLError[] }).errors ?? []) {
        const http = error.extensions as { code?: string; http?: { spec?: boolean } } | undefined;
        if (http?.code === 'BAD_REQUEST' && http.http) http.http.spec = false;
      }
    },
    onValidate({ addValidationRule }) {
      addValidationRule(literalTextRule);
    },
    onExecute({ args, setResultAndStopExecution }) {
      const refusal = variablesRefusal(args.variableValues);
      if (refusal) setResultAndStopExecution({ errors: [refusal] });
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const refusal = variablesRefusal(args.variableValues);
      if (refusal) setResultAndStopExecution({ errors: [refusal] });
    },
  };
}
