// A Git remote's address: which forms are accepted, and where the service may
// connect. Only https, http and ssh (with the scp-like `user@host:path` form):
// git's other transports (file://, ext::, git://) would let a project reach
// the service's own disk or run commands. The host is resolved and checked by
// the SSRF guard of the webhooks (src/webhooks/safe-target.ts) before every
// sync, and git is then pinned to the checked address (http.curloptResolve,
// ssh's HostName), so a second DNS answer cannot send it elsewhere.
import { badRequest } from '../errors.js';
import { resolveTarget, UnsafeTargetError } from '../webhooks/safe-target.js';

export interface Remote {
  /** The URL as stored (scp-like forms kept as written). */
  url: string;
  protocol: 'https' | 'http' | 'ssh';
  host: string;
  port: number;
  /** The repository's path on the host, without a leading slash or a trailing `.git`. */
  path: string;
}

const SCP_LIKE = /^([A-Za-z0-9._-]+)@([A-Za-z0-9.-]+|\[[0-9a-fA-F:.]+\]):(?!\/\/)([^\s]+)$/;

/** Parses and checks a remote URL; a 400 says what is wrong. */
export function parseRemote(value: string): Remote {
  const text = value.trim();
  if (!text) throw badRequest('remoteUrl is required');
  if (text.length > 2000) throw badRequest('remoteUrl must have at most 2000 characters');
  if (text.startsWith('-')) throw badRequest('remoteUrl must not start with "-"');
  const scp = SCP_LIKE.exec(text);
  if (scp) {
    const host = scp[2]!.replace(/^\[|\]$/g, '');
    return { url: text, protocol: 'ssh', host, port: 22, path: repositoryPath(scp[3]!) };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw badRequest(`remoteUrl must be an https://, http:// or ssh:// URL or user@host:path, got '${text}'`);
  }
  const protocol = url.protocol.slice(0, -1);
  if (protocol !== 'https' && protocol !== 'http' && protocol !== 'ssh') {
    throw badRequest(`remoteUrl must use https, http or ssh, got '${url.protocol}'`);
  }
  if (protocol !== 'ssh' && (url.username || url.password)) {
    throw badRequest('remoteUrl must not contain credentials: give the token separately (it is stored sealed)');
  }
  if (url.password) throw badRequest('remoteUrl must not contain a password');
  if (url.search || url.hash) throw badRequest('remoteUrl must not have a query or a fragment');
  const path = repositoryPath(decodeURIComponent(url.pathname));
  if (!path) throw badRequest('remoteUrl must name a repository (a path after the host)');
  const port = url.port ? Number(url.port) : protocol === 'https' ? 443 : protocol === 'http' ? 80 : 22;
  return { url: text, protocol, host: url.hostname.replace(/^\[|\]$/g, ''), port, path };
}

function repositoryPath(path: string): string {
  return path
    .replace(/^\/+/, '')
    .replace(/\/+$/, '')
    .replace(/\.git$/, '');
}

/** Whether the remote is reached with the deploy key (ssh) or over HTTP. */
export const isSsh = (remote: Remote): boolean => remote.protocol === 'ssh';

export class RemoteRefusedError extends Error {}

/**
 * The address git connects to: the remote's host resolved and checked
 * (loopback, private, link-local and reserved addresses refused unless
 * GIT_ALLOW_PRIVATE_HOSTS).
 */
export async function checkedAddress(host: string, allowPrivate: boolean): Promise<string> {
  try {
    const target = await resolveTarget(new URL(`https://${host.includes(':') ? `[${host}]` : host}/`), allowPrivate);
    return target.address;
  } catch (error) {
    if (error instanceof UnsafeTargetError) {
      throw new RemoteRefusedError(error.message.replace('WEBHOOK_ALLOW_PRIVATE', 'GIT_ALLOW_PRIVATE_HOSTS'));
    }
    throw error;
  }
}
