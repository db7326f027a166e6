// The service's messages in the console's language. Beside its English
// sentences the service sends them as data (src/message-text.ts): a refusal's
// extensions.messageText, a finding's and a job's messageText. Each id is a
// text of web/src/locales/*.json under `server` (the English file has the
// service's own texts: test/unit/message-texts.test.ts). An id this console
// does not know (a newer service), or a message without data (a provider's
// own error), is shown in the service's English words; a refusal without data
// is introduced by its code ("Nicht gefunden: …").
import { i18n } from './i18n';

/** A message as data, as the service sends it. */
export interface MessageTextLike {
  id: string;
  params: unknown;
}

type Area = 'checks' | 'jobs' | 'errors';

const isMessageText = (value: unknown): value is MessageTextLike =>
  typeof value === 'object' && value !== null && typeof (value as MessageTextLike).id === 'string';

/** The message in the console's language; null when an id (its own or a value's) is not known here. */
function word(area: Area, text: MessageTextLike): string | null {
  const key = `server.${area}.${text.id}`;
  const given = (typeof text.params === 'object' && text.params !== null ? text.params : {}) as Record<string, unknown>;
  const params: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(given)) {
    if (isMessageText(value)) {
      const nested = word(area, value);
      if (nested === null) return null;
      params[name] = nested;
    } else params[name] = value;
  }
  // The key is only known at run time: i18next's typed keys cannot check it (exists() does).
  const options = { ...params, count: typeof params.count === 'number' ? params.count : undefined };
  if (!i18n.exists(key as 'server.errors.key', options)) return null;
  return i18n.t(key as 'server.errors.key', options);
}

/** A message of the service in the console's language, else in its English `sentence`. */
export function wordMessage(area: Area, text: unknown, sentence: string): string {
  return isMessageText(text) ? (word(area, text) ?? sentence) : sentence;
}

/** A job's message (its parts joined by "; "), else the English `sentence`. */
export function wordJobMessage(parts: readonly unknown[] | null | undefined, sentence: string): string {
  if (!parts?.length) return sentence;
  const words = parts.map((part) => (isMessageText(part) ? word('jobs', part) : null));
  return words.every((w): w is string => w !== null) ? words.join('; ') : sentence;
}

/** A quality check's name in the console's language, else the service's `title` (else its id). */
export function checkTitle(id: string, title?: string | null): string {
  const key = `server.checks.${id}.title`;
  return i18n.exists(key as 'server.errors.key') ? i18n.t(key as 'server.errors.key') : (title ?? id);
}

interface ErrorLike {
  message: string;
  extensions?: Record<string, unknown>;
}

/** A refusal of the service in the console's language: by its message as data, else by its code. */
export function wordError(error: ErrorLike): string {
  const worded = isMessageText(error.extensions?.messageText) ? word('errors', error.extensions.messageText) : null;
  if (worded !== null) return worded;
  const code = error.extensions?.code;
  const key = `server.errors.code.${String(code)}`;
  return typeof code === 'string' && i18n.exists(key as 'server.errors.code.NOT_FOUND')
    ? i18n.t(key as 'server.errors.code.NOT_FOUND', { message: error.message })
    : error.message;
}

/** A failed operation (urql's CombinedError): the service's first refusal, else what went wrong on the way. */
export function wordFailure(failure: {
  graphQLErrors: readonly ErrorLike[];
  message: string;
  networkError?: Error;
}): string {
  const first = failure.graphQLErrors[0];
  if (first) return wordError(first);
  if (failure.networkError) return i18n.t('server.errors.network', { message: failure.networkError.message });
  return failure.message;
}
