// One catalogue of error codes for the whole service. Domain code throws
// AppError; GraphQL exposes `extensions.code`; REST maps the code to its HTTP
// status with HTTP_STATUS below. Nothing else decides a status.
import { GraphQLError } from 'graphql';

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

export class AppError extends GraphQLError {
  constructor(
    public readonly code: ErrorCode,
    message: string,
    extra: Record<string, unknown> = {},
  ) {
    super(message, { extensions: { code, ...extra } });
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, extra?: Record<string, unknown>) =>
  new AppError('BAD_REQUEST', message, extra);
export const notFound = (message: string) => new AppError('NOT_FOUND', message);
export const conflict = (message: string) => new AppError('CONFLICT', message);
export const forbidden = (message = 'Invalid or missing credentials') => new AppError('FORBIDDEN', message);
export const paymentRequired = (message: string) => new AppError('PAYMENT_REQUIRED', message);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError('TOO_MANY_REQUESTS', message, { retryAfter: retryAfterSeconds });
export const serviceUnavailable = (message: string, retryAfterSeconds: number) =>
  new AppError('SERVICE_UNAVAILABLE', message, { retryAfter: retryAfterSeconds });
export const payloadTooLarge = (message: string) => new AppError('PAYLOAD_TOO_LARGE', message);

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && code in HTTP_STATUS;
}

/** True when a Prisma error is a unique-constraint violation (P2002). */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === 'P2002';
}
