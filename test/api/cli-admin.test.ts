// The command line while the service runs on the embedded database: the
// service holds DATA_DIR, so the CLI administers it through the admin API
// (ADMIN_TOKEN) instead of refusing; the admin API refuses anyone else.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServiceProcess, type ServiceProcess } from '../support/process.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const ADMIN_TOKEN = 'lms_admin_cli_test_token_0123456789';

let dataDir: string;
let service: ServiceProcess;
let env: Record<string, string>;

function cli(
  args: string[],
  extra: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env, ...extra },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe.runIf(process.env.TEST_DB_KIND === 'pglite')(
  'the CLI against a running embedded service',
  { timeout: 120_000 },
  () => {
    beforeAll(async () => {
      // An empty DATA_DIR: the service's first start on the embedded default (initdb, migrations, the
      // administrator) runs here for real, as `npm start` on a new machine runs it.
      dataDir = await mkdtemp(join(tmpdir(), 'cli-admin-'));
      env = {
        DATA_DIR: dataDir,
        ADMIN_EMAIL: 'ops@example.com',
        ADMIN_PASSWORD: 'ops-password',
        ADMIN_TOKEN,
        JOB_WORKERS: '0',
      };
      service = await startServiceProcess(env);
      env.PORT = new URL(service.url).port;
    });
    afterAll(async () => {
      await service?.kill('SIGTERM');
      await rm(dataDir, { recursive: true, force: true });
    });

    it('creates a plan, an account and a token through the service', async () => {
      const plan = await cli([
        'plans',
        'set',
        '--id',
        'team',
        '--name',
        'Team',
        '--publishing',
        'yes',
        '--max-projects',
        '2',
      ]);
      expect(plan, plan.stderr).toMatchObject({ code: 0, stdout: 'plan team saved\n' });

      const account = await cli([
        'accounts',
        'create',
        '--email',
        'Dev@Example.com',
        '--password',
        'dev-password',
        '--plan',
        'team',
      ]);
      expect(account.code, account.stderr).toBe(0);
      expect(account.stdout).toMatch(/^created account dev@example.com \(id \d+\)\n$/);

      const token = await cli(['tokens', 'create', '--email', 'dev@example.com', '--name', 'laptop']);
      expect(token.code, token.stderr).toBe(0);
      const value = token.stdout.trim();
      expect(value).toMatch(/^lms_pat_/);
      // The new token works on the running service.
      const projects = await fetch(`${service.url}/api/v2/projects`, { headers: { authorization: value } });
      expect(projects.status).toBe(200);

      const list = await cli(['plans', 'list']);
      expect(list.code).toBe(0);
      expect(list.stdout).toMatch(/^team\s+Team\s+yes\s+unlimited\s+2$/m);

      const moved = await cli(['accounts', 'set-plan', '--email', 'dev@example.com', '--plan', 'free']);
      expect(moved).toMatchObject({ code: 0, stdout: 'plan of dev@example.com is now free\n' });
    });

    it("reports the service's refusal in one line with exit 1", async () => {
      const again = await cli(['accounts', 'create', '--email', 'dev@example.com', '--password', 'dev-password']);
      expect(again.code).toBe(1);
      expect(again.stderr).toBe(
        `cli: the service at http://127.0.0.1:${env.PORT} refused: An account with e-mail dev@example.com already exists\n`,
      );
      const unknown = await cli(['accounts', 'set-plan', '--email', 'nobody@example.com', '--plan', 'free']);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toMatch(/refused: No account with e-mail nobody@example.com\n$/);
    });

    it('needs the admin token: without it the CLI says how to get one, with a wrong one the service refuses', async () => {
      const without = await cli(['plans', 'list'], { ADMIN_TOKEN: '', ADMIN_EMAIL: '', ADMIN_PASSWORD: '' });
      expect(without.code).toBe(2);
      expect(without.stderr).toMatch(
        /^cli: the service \(process \d+\) holds DATA_DIR .*: set ADMIN_TOKEN \(or --token\)/,
      );
      expect(without.stderr.trimEnd().split('\n')).toHaveLength(1);

      const wrong = await cli(['plans', 'list', '--token', 'not-the-admin-token-000000']);
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toMatch(/refused: Send Authorization: Bearer <ADMIN_TOKEN>/);
    });

    it('refuses admin API calls without the admin token, including a personal token', async () => {
      const none = await fetch(`${service.url}/admin/v1/plans`);
      expect(none.status).toBe(403);
      expect(await none.json()).toEqual({ msg: 'Send Authorization: Bearer <ADMIN_TOKEN>', status: 403 });
      const token = (await cli(['tokens', 'create', '--email', 'dev@example.com'])).stdout.trim();
      expect((await fetch(`${service.url}/admin/v1/plans`, { headers: { authorization: token } })).status).toBe(403);
      const ok = await fetch(`${service.url}/admin/v1/plans`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(ok.status).toBe(200);
      expect((await ok.json()).data.map((p: { id: string }) => p.id)).toContain('team');
      const bad = await fetch(`${service.url}/admin/v1/plans/BAD%20ID`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'x', allowsPublishing: true }),
      });
      expect(bad.status).toBe(400);
    });
  },
);
