// One catalogue of error codes for the whole service. Domain code throws
// AppError; GraphQL exposes `extensions.code`; REST maps the code to its HTTP
// status with HTTP_STATUS below. Nothing else decides a status.
import { GraphQLError } from 'graphql';
import { ERROR_MESSAGES, type ErrorMessageId } from './error-messages.js';
import { wordInEnglish, type MessageParam, type MessageText } from './message-text.js';

export const HTTP_STATUS = {
  BAD_REQUEST: 400,
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  INTERNAL: 500,
  /** The database could not be reached or its connection was lost where a retry was not safe (src/db/connection-loss.ts). */
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof HTTP_STATUS;

/**
 * A refusal's message: an English sentence, or a message as data (said(id, params)) worded in English
 * from src/error-messages.ts and sent as well in GraphQL's `extensions.messageText`, for clients that
 * word it in their own language.
 */
export type ErrorMessage = string | MessageText;

/** A refusal's message as data: the id of its text in src/error-messages.ts and the values put into it. */
export const said = (id: ErrorMessageId, params: Record<string, MessageParam> = {}): MessageText => ({ id, params });

/** A message as data in English (src/error-messages.ts). */
export const errorInEnglish = (text: MessageText): string => wordInEnglish(ERROR_MESSAGES, text);

export class AppError extends GraphQLError {
  constructor(
    public readonly code: ErrorCode,
    message: ErrorMessage,
    extra: Record<string, unknown> = {},
  ) {
    super(typeof message === 'string' ? message : wordInEnglish(ERROR_MESSAGES, message), {
      extensions: { code, ...(typeof message === 'string' ? {} : { messageText: message }), ...extra },
    });
    this.name = 'AppError';
  }
}

export const badRequest = (message: ErrorMessage, extra?: Record<string, unknown>) =>
  new AppError('BAD_REQUEST', message, extra);
export const notFound = (message: ErrorMessage) => new AppError('NOT_FOUND', message);
export const conflict = (message: ErrorMessage) => new AppError('CONFLICT', message);
export const forbidden = (message: ErrorMessage = 'Invalid or missing credentials') =>
  new AppError('FORBIDDEN', message);
export const paymentRequired = (message: ErrorMessage) => new AppError('PAYMENT_REQUIRED', message);
export const tooManyRequests = (message: ErrorMessage, retryAfterSeconds: number) =>
  new AppError('TOO_MANY_REQUESTS', message, { retryAfter: retryAfterSeconds });
export const serviceUnavailable = (message: ErrorMessage, retryAfterSeconds: number) =>
  new AppError('SERVICE_UNAVAILABLE', message, { retryAfter: retryAfterSeconds });
export const payloadTooLarge = (message: ErrorMessage) => new AppError('PAYLOAD_TOO_LARGE', message);

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && code in HTTP_STATUS;
}

/** True when a Prisma error is a unique-constraint violation (P2002). */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === 'P2002';
}
