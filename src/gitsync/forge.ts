// Pull requests (GitHub REST API) and merge requests (GitLab API): open one
// from the service's branch to the target branch, or update the one already
// open. Every call goes to the address the SSRF guard checked (as webhook
// deliveries do, src/webhooks/send.ts), follows no redirect and has a time
// limit; the token is sent as a header and never appears in an error.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { redact } from './git.js';
import { checkedAddress } from './remote.js';

export type ForgeKind = 'GITHUB' | 'GITLAB' | 'NONE';
export const FORGE_KINDS: readonly ForgeKind[] = ['GITHUB', 'GITLAB', 'NONE'];

export class ForgeError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

export interface ForgeTarget {
  kind: Exclude<ForgeKind, 'NONE'>;
  apiUrl: string;
  /** owner/repo, or GitLab's project path. */
  repository: string;
  token: string;
  allowPrivate: boolean;
  timeoutMs: number;
}

export interface ChangeRequest {
  /** The service's branch. */
  head: string;
  /** The target branch. */
  base: string;
  title: string;
  body: string;
}

export interface ChangeRequestResult {
  number: number;
  url: string;
  /** true: opened now; false: the open one was updated. */
  opened: boolean;
}

/** The API base a forge has by default for a remote on `host`. */
export function defaultApiUrl(kind: ForgeKind, host: string): string | undefined {
  if (kind === 'GITHUB') return host === 'github.com' ? 'https://api.github.com' : `https://${host}/api/v3`;
  if (kind === 'GITLAB') return `https://${host}/api/v4`;
  return undefined;
}

interface Answer {
  status: number;
  body: unknown;
  text: string;
}

async function call(
  target: ForgeTarget,
  method: string,
  path: string,
  headers: Record<string, string>,
  payload?: unknown,
): Promise<Answer> {
  const url = new URL(target.apiUrl.replace(/\/+$/, '') + path);
  const address = await checkedAddress(url.hostname.replace(/^\[|\]$/g, ''), target.allowPrivate);
  const family = address.includes(':') ? 6 : 4;
  const pinned: LookupFunction = (_host, opts, callback) => {
    if ((opts as { all?: boolean }).all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const body = payload === undefined ? undefined : JSON.stringify(payload);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Answer>((resolve, reject) => {
    const request = client.request(
      url,
      {
        method,
        lookup: pinned,
        timeout: target.timeoutMs,
        headers: {
          'user-agent': 'localization-service-git-sync/1',
          accept: 'application/json',
          ...(body !== undefined && {
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(body)),
          }),
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            parsed = undefined;
          }
          resolve({ status: response.statusCode ?? 0, body: parsed, text });
        });
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${target.timeoutMs} ms`)));
    request.on('error', (error) =>
      reject(
        new ForgeError(redact(`${method} ${url.origin}${url.pathname} failed: ${error.message}`, [target.token]), null),
      ),
    );
    request.end(body);
  });
}

function failed(target: ForgeTarget, what: string, answer: Answer): ForgeError {
  const message = (answer.body as { message?: unknown } | undefined)?.message;
  const detail = typeof message === 'string' ? message : JSON.stringify(message ?? answer.text.slice(0, 200));
  return new ForgeError(
    redact(`${what}: the forge answered ${answer.status} ${detail}`, [target.token]),
    answer.status,
  );
}

async function github(target: ForgeTarget, request: ChangeRequest): Promise<ChangeRequestResult> {
  const headers = {
    authorization: `Bearer ${target.token}`,
    accept: 'application/vnd.github+json',
    'x-github-api-version': '2022-11-28',
  };
  const [owner, ...rest] = target.repository.split('/');
  const repo = `/repos/${encodeURIComponent(owner!)}/${encodeURIComponent(rest.join('/'))}`;
  const query = new URLSearchParams({ state: 'open', head: `${owner}:${request.head}`, base: request.base });
  const listed = await call(target, 'GET', `${repo}/pulls?${query}`, headers);
  if (listed.status !== 200 || !Array.isArray(listed.body))
    throw failed(target, 'listing the open pull requests', listed);
  const open = listed.body[0] as { number: number; html_url: string } | undefined;
  if (open) {
    const updated = await call(target, 'PATCH', `${repo}/pulls/${open.number}`, headers, {
      title: request.title,
      body: request.body,
    });
    if (updated.status !== 200) throw failed(target, `updating pull request #${open.number}`, updated);
    return {
      number: open.number,
      url: (updated.body as { html_url?: string }).html_url ?? open.html_url,
      opened: false,
    };
  }
  const created = await call(target, 'POST', `${repo}/pulls`, headers, {
    title: request.title,
    head: request.head,
    base: request.base,
    body: request.body,
    maintainer_can_modify: false,
  });
  if (created.status !== 201) throw failed(target, 'opening the pull request', created);
  const pr = created.body as { number: number; html_url: string };
  return { number: pr.number, url: pr.html_url, opened: true };
}

async function gitlab(target: ForgeTarget, request: ChangeRequest): Promise<ChangeRequestResult> {
  const headers = { 'private-token': target.token };
  const project = `/projects/${encodeURIComponent(target.repository)}`;
  const query = new URLSearchParams({ state: 'opened', source_branch: request.head, target_branch: request.base });
  const listed = await call(target, 'GET', `${project}/merge_requests?${query}`, headers);
  if (listed.status !== 200 || !Array.isArray(listed.body))
    throw failed(target, 'listing the open merge requests', listed);
  const open = listed.body[0] as { iid: number; web_url: string } | undefined;
  if (open) {
    const updated = await call(target, 'PUT', `${project}/merge_requests/${open.iid}`, headers, {
      title: request.title,
      description: request.body,
    });
    if (updated.status !== 200) throw failed(target, `updating merge request !${open.iid}`, updated);
    return { number: open.iid, url: (updated.body as { web_url?: string }).web_url ?? open.web_url, opened: false };
  }
  const created = await call(target, 'POST', `${project}/merge_requests`, headers, {
    source_branch: request.head,
    target_branch: request.base,
    title: request.title,
    description: request.body,
    remove_source_branch: true,
  });
  if (created.status !== 201) throw failed(target, 'opening the merge request', created);
  const mr = created.body as { iid: number; web_url: string };
  return { number: mr.iid, url: mr.web_url, opened: true };
}

/** Opens the pull (merge) request from `head` to `base`, or updates the open one. */
export function openOrUpdateChangeRequest(target: ForgeTarget, request: ChangeRequest): Promise<ChangeRequestResult> {
  return target.kind === 'GITHUB' ? github(target, request) : gitlab(target, request);
}
