// A real OpenSSH server on loopback for the Git sync tests (Debian's
// openssh-server, /usr/sbin/sshd): its own host key and configuration in a
// temporary folder, public-key authentication only, for the user running the
// tests, with the keys a test authorizes. Git runs over it as over any SSH
// forge (`ssh://<user>@127.0.0.1:<port>/<path of a bare repository>`).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

export const SSHD = '/usr/sbin/sshd';
export const sshdPresent = existsSync(SSHD);

export interface SshServer {
  port: number;
  user: string;
  /** Lets a public key (an authorized_keys line) in. */
  authorize(publicKey: string): void;
  /** The server's host key line, as known_hosts wants it (`[127.0.0.1]:port ssh-ed25519 …`). */
  hostKey: string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export async function startSshServer(): Promise<SshServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sshd-'));
  const hostKey = join(dir, 'host_ed25519');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey]);
  const authorized = join(dir, 'authorized_keys');
  writeFileSync(authorized, '', { mode: 0o600 });
  // As root, sshd wants its privilege-separation folder.
  if (process.getuid?.() === 0) mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const port = await freePort();
  const config = join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKey}`,
      `AuthorizedKeysFile ${authorized}`,
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      'UsePAM no',
      'StrictModes no',
      `PidFile ${join(dir, 'sshd.pid')}`,
      'PermitRootLogin prohibit-password',
      'LogLevel ERROR',
    ].join('\n') + '\n',
  );
  const child: ChildProcess = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  // Ready when it accepts connections.
  const started = Date.now();
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) break;
    if (child.exitCode !== null || Date.now() - started > 10_000) throw new Error(`sshd did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const [type, key] = execFileSync('cat', [`${hostKey}.pub`], { encoding: 'utf8' })
    .trim()
    .split(' ');
  return {
    port,
    user: userInfo().username,
    hostKey: `[127.0.0.1]:${port} ${type} ${key}`,
    authorize(publicKey: string) {
      appendFileSync(authorized, `${publicKey.trim()}\n`);
    },
    async close() {
      if (child.exitCode === null) {
        await new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        });
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
