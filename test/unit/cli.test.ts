// The command line's help and usage errors: --help and <command> --help print
// usage and exit 0; unknown commands and options, missing values and bad
// values print one line and exit 2, never a stack trace.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../src/cli.js';

const ROOT = new URL('../..', import.meta.url).pathname;

function cli(...args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    // A data directory no service holds and that is never opened: these runs stop at the usage check.
    env: { ...process.env, DATA_DIR: '/nonexistent/cli-test', ADMIN_TOKEN: '' },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('cli usage', () => {
  it('prints the list of commands for --help and exits 0', () => {
    const { code, stdout, stderr } = cli('--help');
    expect(code).toBe(0);
    expect(stderr).toBe('');
    for (const command of ['accounts create', 'accounts set-plan', 'tokens create', 'plans list', 'plans set'])
      expect(stdout).toContain(command);
  });

  it("prints a command's options for <command> --help and exits 0", () => {
    const { code, stdout } = cli('plans', 'set', '--help');
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: npm run cli -- plans set --id ID --name N --publishing yes|no');
    expect(stdout).toContain('--max-customers N');
  });

  it('answers an unknown option with one line and exit 2, no stack trace', () => {
    const { code, stdout, stderr } = cli(
      'accounts',
      'create',
      '--email',
      'a@example.com',
      '--password',
      'secret-pw',
      '--colour',
      'red',
    );
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toEqual([
      "cli: unknown option --colour (see 'npm run cli -- accounts create --help')",
    ]);
  });

  it('answers a missing argument with one line and exit 2', () => {
    const { code, stderr } = cli('tokens', 'create');
    expect(code).toBe(2);
    expect(stderr.trimEnd().split('\n')).toEqual([
      "cli: --email is required (see 'npm run cli -- tokens create --help')",
    ]);
  });

  it('names every usage mistake', () => {
    const mistake = (...argv: string[]) => {
      try {
        parseCommandLine(argv);
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(mistake('accounts', 'frobnicate')).toMatch(
      /^unknown command 'accounts frobnicate'; commands: accounts create/,
    );
    expect(mistake('--verbose')).toBe('unknown option --verbose');
    expect(mistake('accounts', 'create', '--email')).toBe('option --email needs a value');
    expect(mistake('plans', 'list', 'extra')).toBe('unexpected argument extra');
    expect(mistake('plans', 'set', '--id', 'x', '--name', 'X', '--publishing', 'maybe')).toBe(
      "--publishing must be yes or no, got 'maybe'",
    );
    expect(mistake('plans', 'set', '--id', 'x', '--name', 'X', '--publishing', 'yes', '--max-projects', 'lots')).toBe(
      "--max-projects must be a whole number or 'unlimited', got 'lots'",
    );
    expect(
      mistake('plans', 'set', '--id', 'x', '--name', 'X', '--publishing', 'yes', '--max-projects', 'unlimited'),
    ).toBe('accepted');
    expect(parseCommandLine([]).help).toBe(true);
  });
});
