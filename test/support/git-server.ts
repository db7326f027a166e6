// A real Git server on loopback for the Git sync tests: git's own
// `git http-backend` (Debian's git package) run as CGI behind node:http, with
// HTTP Basic authentication by token; repositories made and changed with real
// `git` commands. Also GitHub's pull-request API and GitLab's merge-request
// API as HTTP servers on loopback that check each request's shape (paths,
// headers, bodies) and keep pull requests of branches that really exist.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const HTTP_BACKEND = '/usr/lib/git-core/git-http-backend';

const DEVELOPER = {
  GIT_AUTHOR_NAME: 'Dev Eloper',
  GIT_AUTHOR_EMAIL: 'dev@example.com',
  GIT_COMMITTER_NAME: 'Dev Eloper',
  GIT_COMMITTER_EMAIL: 'dev@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
  HOME: tmpdir(),
};

/** Runs git as a developer (output trimmed). */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    env: { ...process.env, ...DEVELOPER },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

export interface GitServer {
  url: string;
  root: string;
  requests: RecordedRequest[];
  /** Creates a bare repository `name` (e.g. team/app.git) with a first commit of these files on main. */
  createRepository(name: string, files: Record<string, string>): string;
  /** A developer's commit of these files on `branch` of the repository, pushed directly; returns the new head. */
  commit(name: string, files: Record<string, string>, message: string, branch?: string): string;
  /** Merges `from` into `into` as a developer would (the pull request merged). */
  merge(name: string, from: string, into?: string): string;
  /** A file of a branch. */
  show(name: string, branch: string, path: string): string;
  /** `git log` of a branch as `<sha> <author> <subject>` lines. */
  log(name: string, branch: string): string[];
  head(name: string, branch: string): string | undefined;
  /** Called when a push (receive-pack) arrives, before git handles it. */
  beforeReceivePack?: () => void | Promise<void>;
  close(): Promise<void>;
}

/** One CGI exchange with git http-backend. */
function cgi(root: string, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    GIT_PROJECT_ROOT: root,
    GIT_HTTP_EXPORT_ALL: '1',
    PATH_INFO: decodeURIComponent(url.pathname),
    QUERY_STRING: url.search.slice(1),
    REQUEST_METHOD: req.method ?? 'GET',
    CONTENT_TYPE: req.headers['content-type'] ?? '',
    REMOTE_USER: 'service',
    REMOTE_ADDR: '127.0.0.1',
    GIT_CONFIG_NOSYSTEM: '1',
    HOME: root,
    ...(req.headers['content-length'] && { CONTENT_LENGTH: req.headers['content-length'] }),
    ...(req.headers['content-encoding'] && { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] }),
    ...(req.headers['git-protocol'] && { GIT_PROTOCOL: String(req.headers['git-protocol']) }),
  };
  const child = spawn(HTTP_BACKEND, [], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  req.pipe(child.stdin);
  let head = Buffer.alloc(0);
  let started = false;
  child.stdout.on('data', (chunk: Buffer) => {
    if (started) return void res.write(chunk);
    head = Buffer.concat([head, chunk]);
    const crlf = head.indexOf('\r\n\r\n');
    const lf = head.indexOf('\n\n');
    const end =
      crlf >= 0 && (lf < 0 || crlf < lf) ? { at: crlf, length: 4 } : lf >= 0 ? { at: lf, length: 2 } : undefined;
    if (!end) return;
    let status = 200;
    const headers: Record<string, string> = {};
    for (const line of head.subarray(0, end.at).toString('latin1').split(/\r?\n/)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
      else headers[name] = value;
    }
    res.writeHead(status, headers);
    started = true;
    res.write(head.subarray(end.at + end.length));
  });
  child.stdout.on('end', () => res.end());
  child.on('error', () => res.destroy());
}

export async function startGitServer(options: { user: string; token: string }): Promise<GitServer> {
  const root = mkdtempSync(join(tmpdir(), 'git-server-'));
  const work = mkdtempSync(join(tmpdir(), 'git-work-'));
  const requests: RecordedRequest[] = [];
  const expected = `Basic ${Buffer.from(`${options.user}:${options.token}`).toString('base64')}`;
  const self: Partial<GitServer> = {};
  const server: Server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    if (req.headers.authorization !== expected) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="git"', 'content-type': 'text/plain' });
      return void res.end('authentication required');
    }
    const receivePack = req.method === 'POST' && (req.url ?? '').endsWith('/git-receive-pack');
    void Promise.resolve(receivePack ? self.beforeReceivePack?.() : undefined).then(() => cgi(root, req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let clones = 0;
  const clone = (name: string, branch: string) => {
    const dir = join(work, `c${++clones}`);
    git(work, 'clone', '-q', '--branch', branch, join(root, name), dir);
    return dir;
  };
  const writeFiles = (dir: string, files: Record<string, string>) => {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
  };
  return Object.assign(self, {
    url,
    root,
    requests,
    createRepository(name: string, files: Record<string, string>) {
      const bare = join(root, name);
      mkdirSync(bare, { recursive: true });
      git(bare, 'init', '-q', '--bare', '-b', 'main');
      const dir = join(work, `seed${++clones}`);
      mkdirSync(dir);
      git(dir, 'init', '-q', '-b', 'main');
      writeFiles(dir, files);
      git(dir, 'add', '.');
      git(dir, 'commit', '-q', '-m', 'First commit');
      git(dir, 'push', '-q', bare, 'main');
      return `${url}/${name}`;
    },
    commit(name: string, files: Record<string, string>, message: string, branch = 'main') {
      const dir = clone(name, branch);
      writeFiles(dir, files);
      git(dir, 'add', '.');
      git(dir, 'commit', '-q', '-m', message);
      git(dir, 'push', '-q', 'origin', branch);
      return git(dir, 'rev-parse', 'HEAD');
    },
    merge(name: string, from: string, into = 'main') {
      const dir = clone(name, into);
      git(dir, 'merge', '-q', '--no-edit', `origin/${from}`);
      git(dir, 'push', '-q', 'origin', into);
      return git(dir, 'rev-parse', 'HEAD');
    },
    show: (name: string, branch: string, path: string) => git(join(root, name), 'show', `${branch}:${path}`),
    log: (name: string, branch: string) => git(join(root, name), 'log', '--format=%H %an %s', branch).split('\n'),
    head(name: string, branch: string) {
      try {
        return git(join(root, name), 'rev-parse', '--verify', '-q', `refs/heads/${branch}`);
      } catch {
        return undefined;
      }
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(root, { recursive: true, force: true });
      rmSync(work, { recursive: true, force: true });
    },
  }) as GitServer;
}

interface ApiRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: any;
}

export interface ForgeServer {
  url: string;
  requests: ApiRequest[];
  /** Requests the server refused for their shape (expected to stay empty). */
  refused: string[];
  pulls: { number: number; head: string; base: string; title: string; body: string; state: string }[];
  close(): Promise<void>;
}

async function forgeServer(
  handle: (req: ApiRequest, reply: (status: number, body: unknown) => void, refuse: (why: string) => void) => void,
): Promise<ForgeServer> {
  const requests: ApiRequest[] = [];
  const refused: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const request: ApiRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: text ? JSON.parse(text) : undefined,
      };
      requests.push(request);
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      handle(request, reply, (why) => {
        refused.push(`${request.method} ${request.url}: ${why}`);
        reply(422, { message: why });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    refused,
    pulls: [],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** GitHub's REST API for pull requests of one repository (owner/repo), with a token; heads must exist in the Git server. */
export async function startGitHubApi(options: {
  repository: string;
  token: string;
  branchExists: (branch: string) => boolean;
}): Promise<ForgeServer> {
  const [owner] = options.repository.split('/');
  const base = `/repos/${options.repository}/pulls`;
  const forge: ForgeServer = await forgeServer((req, reply, refuse) => {
    if (req.headers.authorization !== `Bearer ${options.token}`) return reply(401, { message: 'Bad credentials' });
    if (req.headers.accept !== 'application/vnd.github+json')
      return refuse('Accept must be application/vnd.github+json');
    if (req.headers['x-github-api-version'] !== '2022-11-28') return refuse('X-GitHub-Api-Version missing');
    if (!req.headers['user-agent']) return refuse('User-Agent is required by GitHub');
    const url = new URL(req.url, 'http://x');
    if (req.method === 'GET' && url.pathname === base) {
      const head = url.searchParams.get('head') ?? '';
      if (url.searchParams.get('state') !== 'open' || !head.startsWith(`${owner}:`))
        return refuse('list with state=open and head=owner:branch');
      const branch = head.slice(owner!.length + 1);
      return reply(
        200,
        forge.pulls
          .filter(
            (p) =>
              p.state === 'open' &&
              p.head === branch &&
              (!url.searchParams.get('base') || p.base === url.searchParams.get('base')),
          )
          .map((p) => ({
            number: p.number,
            html_url: `https://github.example/${options.repository}/pull/${p.number}`,
            head: { ref: p.head },
            base: { ref: p.base },
          })),
      );
    }
    if (req.method === 'POST' && url.pathname === base) {
      const { title, head, base: target, body } = req.body ?? {};
      if (
        typeof title !== 'string' ||
        !title ||
        typeof head !== 'string' ||
        typeof target !== 'string' ||
        typeof body !== 'string'
      )
        return refuse('title, head, base and body are required');
      if (req.headers['content-type'] !== 'application/json') return refuse('content-type must be application/json');
      if (!options.branchExists(head)) return refuse(`head ${head} does not exist`);
      if (forge.pulls.some((p) => p.state === 'open' && p.head === head))
        return refuse(`A pull request already exists for ${owner}:${head}.`);
      const pull = { number: forge.pulls.length + 1, head, base: target, title, body, state: 'open' };
      forge.pulls.push(pull);
      return reply(201, {
        number: pull.number,
        html_url: `https://github.example/${options.repository}/pull/${pull.number}`,
      });
    }
    const patch = new RegExp(`^${base}/(\\d+)$`).exec(url.pathname);
    if (req.method === 'PATCH' && patch) {
      const pull = forge.pulls.find((p) => p.number === Number(patch[1]));
      if (!pull) return reply(404, { message: 'Not Found' });
      if (req.body?.head !== undefined || req.body?.base !== undefined)
        return refuse('an update changes title and body only');
      Object.assign(pull, { title: req.body.title ?? pull.title, body: req.body.body ?? pull.body });
      return reply(200, {
        number: pull.number,
        html_url: `https://github.example/${options.repository}/pull/${pull.number}`,
      });
    }
    return reply(404, { message: 'Not Found' });
  });
  return forge;
}

/** GitLab's merge-request API for one project (its path, URL-encoded in the API's paths). */
export async function startGitLabApi(options: {
  project: string;
  token: string;
  branchExists: (branch: string) => boolean;
}): Promise<ForgeServer> {
  const base = `/api/v4/projects/${encodeURIComponent(options.project)}/merge_requests`;
  const forge: ForgeServer = await forgeServer((req, reply, refuse) => {
    if (req.headers['private-token'] !== options.token) return reply(401, { message: '401 Unauthorized' });
    const url = new URL(req.url, 'http://x');
    // The raw path keeps the project's path encoded (group%2Fproject), as GitLab requires.
    const path = req.url.split('?')[0]!;
    if (req.method === 'GET' && path === base) {
      if (url.searchParams.get('state') !== 'opened' || !url.searchParams.get('source_branch'))
        return refuse('list with state=opened and source_branch');
      return reply(
        200,
        forge.pulls
          .filter((p) => p.state === 'open' && p.head === url.searchParams.get('source_branch'))
          .map((p) => ({
            iid: p.number,
            web_url: `https://gitlab.example/${options.project}/-/merge_requests/${p.number}`,
          })),
      );
    }
    if (req.method === 'POST' && path === base) {
      const { source_branch: head, target_branch: target, title, description } = req.body ?? {};
      if (typeof head !== 'string' || typeof target !== 'string' || typeof title !== 'string' || !title)
        return refuse('source_branch, target_branch and title are required');
      if (!options.branchExists(head)) return refuse(`source branch ${head} does not exist`);
      const mr = { number: forge.pulls.length + 1, head, base: target, title, body: description ?? '', state: 'open' };
      forge.pulls.push(mr);
      return reply(201, {
        iid: mr.number,
        web_url: `https://gitlab.example/${options.project}/-/merge_requests/${mr.number}`,
      });
    }
    const put = new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/(\\d+)$`).exec(path);
    if (req.method === 'PUT' && put) {
      const mr = forge.pulls.find((p) => p.number === Number(put[1]));
      if (!mr) return reply(404, { message: '404 Not found' });
      Object.assign(mr, { title: req.body?.title ?? mr.title, body: req.body?.description ?? mr.body });
      return reply(200, {
        iid: mr.number,
        web_url: `https://gitlab.example/${options.project}/-/merge_requests/${mr.number}`,
      });
    }
    return reply(404, { message: '404 Not found' });
  });
  return forge;
}
