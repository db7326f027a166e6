// Failure reports of the official command-line client (POST /cli/v1/stacktrace,
// the reportClientError mutation): the client sends its configuration, the
// error message and the stack trace whenever a command fails. They are
// checked for size and logged at debug level; nothing is stored.
import { badRequest } from '../errors.js';

export interface ClientReport {
  configuration?: string | null;
  message?: string | null;
  stacktrace?: string | null;
}

/** Characters each field of a report may have. */
export const CLIENT_REPORT_LIMITS = { configuration: 20_000, message: 10_000, stacktrace: 100_000 } as const;

export interface DebugLogger {
  debug(object: object, message: string): void;
}

export function reportClientError(report: ClientReport, log: DebugLogger | undefined, projectId: number): boolean {
  for (const [field, max] of Object.entries(CLIENT_REPORT_LIMITS) as [keyof ClientReport, number][]) {
    const value = report[field];
    if (value != null && value.length > max) throw badRequest(`${field} must have at most ${max} characters`);
  }
  log?.debug(
    {
      projectId,
      clientReport: {
        configuration: report.configuration ?? '',
        message: report.message ?? '',
        stacktrace: report.stacktrace ?? '',
      },
    },
    'command-line client reported a failure',
  );
  return true;
}
