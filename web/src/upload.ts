// A GraphQL operation with one file (importFile, previewImport), sent as a
// GraphQL multipart request (operations, map, the file) over XMLHttpRequest:
// unlike fetch, it reports how much of the body has gone out, which is the
// Import screen's progress bar. Same endpoint, cookie and CSRF header as the
// console's urql client (client.ts).
import { i18n } from './i18n';
import { stringifyDocument } from 'urql';
import type { ResultOf, TadaDocumentNode } from 'gql.tada';
import { csrfToken } from './client';
import { wordError } from './server-text';

export interface UploadProgress {
  /** Bytes of the request body sent so far, and in all. */
  sent: number;
  total: number;
  /** True once the body is sent: the service is reading and importing the file. */
  uploaded: boolean;
}

/** `answered`: the service refused the operation (its error), as opposed to a request that went wrong on the way. */
export type UploadAnswer<T> = { data: T; error?: undefined } | { data?: undefined; error: string; answered: boolean };

/** The message of a failed answer: the service's first error, or what went wrong on the way. */
function errorOf(status: number, body: unknown): string | undefined {
  const errors = (body as { errors?: { message?: string; extensions?: Record<string, unknown> }[] } | null)?.errors;
  if (errors?.length)
    return errors
      .map((e) => (e.message ? wordError({ ...e, message: e.message }) : i18n.t('upload.unknownError')))
      .join('\n');
  if (status !== 200) return i18n.t('upload.answered', { status });
  return undefined;
}

/**
 * Runs `document` with `file` as its `$file` variable. Resolves with the data
 * or the service's error message (never rejects); `signal` aborts the upload.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a constraint every document meets; its result and variables are D's own.
export function uploadOperation<D extends TadaDocumentNode<any, any>>(
  document: D,
  variables: Record<string, unknown>,
  file: File,
  onProgress: (progress: UploadProgress) => void,
  signal?: AbortSignal,
): Promise<UploadAnswer<ResultOf<D>>> {
  const form = new FormData();
  form.append(
    'operations',
    JSON.stringify({ query: stringifyDocument(document), variables: { ...variables, file: null } }),
  );
  form.append('map', JSON.stringify({ 0: ['variables.file'] }));
  form.append('0', file, file.name);
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/graphql');
    xhr.withCredentials = true;
    xhr.setRequestHeader('x-csrf-token', csrfToken());
    xhr.responseType = 'json';
    xhr.upload.onprogress = (event) =>
      onProgress({ sent: event.loaded, total: event.lengthComputable ? event.total : file.size, uploaded: false });
    xhr.upload.onload = () => onProgress({ sent: file.size, total: file.size, uploaded: true });
    xhr.onload = () => {
      const error = errorOf(xhr.status, xhr.response);
      const data = (xhr.response as { data?: ResultOf<D> } | null)?.data;
      resolve(
        error || !data ? { error: error ?? i18n.t('upload.noAnswer'), answered: xhr.response != null } : { data },
      );
    };
    xhr.onerror = () => resolve({ error: i18n.t('upload.unreachable'), answered: false });
    xhr.onabort = () => resolve({ error: i18n.t('upload.cancelled'), answered: false });
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(form);
  });
}
