// Git itself: Debian's `git` binary (2.39), run with execFile (no shell) in a
// temp folder of its own. Why the binary and not a library: it speaks every
// transport and server quirk the forges have, shallow clones and pushes
// included, with its own tests; the JavaScript implementations (isomorphic-git)
// lack SSH and shallow pushes. What keeps it safe here:
// - nothing of the machine's configuration: HOME is the temp folder,
//   GIT_CONFIG_NOSYSTEM, no terminal prompt;
// - settings through GIT_CONFIG_COUNT/KEY/VALUE in the environment, never on
//   the command line (a process's arguments are readable by every user of
//   the machine): the token travels as an HTTP header
//   (http.extraHeader), never in the URL, the arguments or a log line;
// - only the remote's own transport allowed (protocol.allow), redirects not
//   followed, the host pinned to the address the SSRF guard checked
//   (http.curloptResolve; ssh's HostName with the name kept for the host key);
// - SSH with the deploy key in a 0600 file, BatchMode, known hosts learned on
//   first use and required to match afterwards (StrictHostKeyChecking=accept-new
//   with the connection's own known_hosts file).
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkedAddress, isSsh, type Remote } from './remote.js';

export type AuthKind = 'TOKEN' | 'SSH' | 'NONE';

export interface GitAuth {
  kind: AuthKind;
  token?: string;
  tokenUser?: string;
  /** OpenSSH private key (SSH). */
  privateKey?: string;
  /** known_hosts lines learned before (SSH). */
  knownHosts?: string;
}

export interface GitSessionOptions {
  remote: Remote;
  auth: GitAuth;
  allowPrivate: boolean;
  timeoutMs: number;
  /** Folder under which the session's temp folder is made (DATA_DIR/tmp). */
  tempRoot: string;
  /** The commit author. */
  author: { name: string; email: string };
}

export class GitError extends Error {}

/** A secret's spellings that could show in git's output: the token, and the header that carries it. */
function secretsOf(auth: GitAuth): string[] {
  if (!auth.token) return [];
  return [auth.token, basic(auth), encodeURIComponent(auth.token)].filter((s) => s.length >= 4);
}

const basic = (auth: GitAuth) => Buffer.from(`${auth.tokenUser || 'git'}:${auth.token}`).toString('base64');

export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join('[redacted]');
  return out;
}

/** One temp folder, the environment that carries the settings and credentials, and the commands run in it. */
export class GitSession {
  private constructor(
    readonly dir: string,
    readonly workTree: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly secrets: string[],
    private readonly timeoutMs: number,
    private readonly knownHostsFile: string | undefined,
  ) {}

  static async open(options: GitSessionOptions): Promise<GitSession> {
    const { remote, auth } = options;
    await mkdir(options.tempRoot, { recursive: true });
    const dir = await mkdtemp(join(options.tempRoot, 'git-'));
    try {
      const address = await checkedAddress(remote.host, options.allowPrivate);
      const config: [string, string][] = [
        ['protocol.allow', 'never'],
        [`protocol.${remote.protocol}.allow`, 'always'],
        ['http.followRedirects', 'false'],
        ['core.hooksPath', '/dev/null'],
        ['core.askPass', ''],
        ['credential.helper', ''],
        ['init.defaultBranch', 'main'],
        ['advice.detachedHead', 'false'],
        ['user.name', options.author.name],
        ['user.email', options.author.email],
      ];
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: dir,
        LANG: 'C',
        LC_ALL: 'C',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_TERMINAL_PROMPT: '0',
        GIT_ASKPASS: '',
        SSH_ASKPASS: '',
        GIT_AUTHOR_NAME: options.author.name,
        GIT_AUTHOR_EMAIL: options.author.email,
        GIT_COMMITTER_NAME: options.author.name,
        GIT_COMMITTER_EMAIL: options.author.email,
      };
      let knownHostsFile: string | undefined;
      if (isSsh(remote)) {
        if (auth.kind !== 'SSH' || !auth.privateKey)
          throw new GitError('An ssh remote needs the deploy key (authKind SSH)');
        const keyFile = join(dir, 'deploy_key');
        knownHostsFile = join(dir, 'known_hosts');
        await writeFile(keyFile, auth.privateKey.endsWith('\n') ? auth.privateKey : `${auth.privateKey}\n`, {
          mode: 0o600,
        });
        await writeFile(knownHostsFile, auth.knownHosts ?? '', { mode: 0o600 });
        // git runs GIT_SSH_COMMAND through a shell: every part is the service's own (temp paths of [A-Za-z0-9/._-],
        // a host name checked by parseRemote, an address from the resolver).
        const safe = (s: string) => {
          if (!/^[A-Za-z0-9/._:-]+$/.test(s)) throw new GitError(`unexpected characters in ${s}`);
          return s;
        };
        env.GIT_SSH_COMMAND = [
          'ssh',
          '-F',
          '/dev/null',
          '-i',
          safe(keyFile),
          '-o',
          'IdentitiesOnly=yes',
          '-o',
          'BatchMode=yes',
          '-o',
          'StrictHostKeyChecking=accept-new',
          '-o',
          `UserKnownHostsFile=${safe(knownHostsFile)}`,
          '-o',
          `HostKeyAlias=${safe(remote.host)}`,
          '-o',
          `HostName=${safe(address)}`,
          '-o',
          'ConnectTimeout=30',
        ].join(' ');
      } else {
        config.push([
          'http.curloptResolve',
          `${remote.host}:${remote.port}:${address.includes(':') ? `[${address}]` : address}`,
        ]);
        if (auth.kind === 'TOKEN' && auth.token)
          config.push(['http.extraHeader', `Authorization: Basic ${basic(auth)}`]);
      }
      env.GIT_CONFIG_COUNT = String(config.length);
      config.forEach(([key, value], i) => {
        env[`GIT_CONFIG_KEY_${i}`] = key;
        env[`GIT_CONFIG_VALUE_${i}`] = value;
      });
      return new GitSession(dir, join(dir, 'work'), env, secretsOf(auth), options.timeoutMs, knownHostsFile);
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
  }

  /** Runs git with these arguments (in the work tree once cloned); output as text; failures as GitError with the token removed. */
  run(args: string[], options: { cwd?: string; input?: string } = {}): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = execFile(
        'git',
        args,
        {
          cwd: options.cwd ?? this.dir,
          env: this.env,
          timeout: this.timeoutMs,
          killSignal: 'SIGKILL',
          maxBuffer: 256 * 1024 * 1024,
          encoding: 'utf8',
        },
        (error, stdout, stderr) => {
          if (error) {
            const timedOut = (error as { killed?: boolean }).killed;
            const detail = (stderr || error.message).trim().split('\n').slice(-5).join(' | ');
            reject(
              new GitError(
                redact(
                  `git ${args[0]} failed${timedOut ? ` (no end within ${this.timeoutMs} ms)` : ''}: ${detail}`,
                  this.secrets,
                ),
              ),
            );
          } else {
            resolve(stdout);
          }
        },
      );
      if (options.input !== undefined) child.stdin?.end(options.input);
    });
  }

  /** In the work tree. */
  git(...args: string[]): Promise<string> {
    return this.run(args, { cwd: this.workTree });
  }

  /** Shallow clone of one branch into the work tree; false when the branch does not exist. */
  async cloneBranch(url: string, branch: string): Promise<string> {
    await this.run([
      'clone',
      '--quiet',
      '--depth',
      '1',
      '--single-branch',
      '--no-tags',
      '--branch',
      branch,
      '--',
      url,
      this.workTree,
    ]);
    return (await this.git('rev-parse', 'HEAD')).trim();
  }

  /** The commit a remote branch points to, or undefined. */
  async remoteHead(branch: string): Promise<string | undefined> {
    const out = await this.git('ls-remote', '--heads', 'origin', `refs/heads/${branch}`);
    return out
      .split('\n')
      .find((line) => line.endsWith(`\trefs/heads/${branch}`))
      ?.split('\t')[0];
  }

  /** The known_hosts lines after the session (an ssh remote's host key learned on first use). */
  async knownHosts(): Promise<string | undefined> {
    if (!this.knownHostsFile) return undefined;
    return readFile(this.knownHostsFile, 'utf8').catch(() => undefined);
  }

  redact(text: string): string {
    return redact(text, this.secrets);
  }

  async close(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** `git check-ref-format --branch`: whether a branch name is valid. */
export function checkBranchName(name: string, field: string): string | undefined {
  const value = name.trim();
  if (!value) return `${field} is required`;
  if (value.length > 200) return `${field} must have at most 200 characters`;
  // git's rules (git-check-ref-format), without running git.
  if (
    value.startsWith('-') ||
    value.startsWith('/') ||
    value.endsWith('/') ||
    value.endsWith('.') ||
    value.endsWith('.lock') ||
    value.includes('..') ||
    value.includes('//') ||
    value.includes('@{') ||
    value === '@' ||
    /[\x00-\x20\x7f~^:?*[\\]/.test(value) ||
    value.split('/').some((part) => part.startsWith('.'))
  ) {
    return `${field} '${value}' is not a valid branch name`;
  }
  return undefined;
}
