// Command-line administration: `npm run cli -- <command> [options]`, with
// `--help` for the list and `<command> --help` for one command. Usage errors
// (unknown command or option, missing or bad value) print one line and exit 2;
// a refused operation prints its message and exits 1. Never a stack trace.
//
// The operations (src/admin/operations.ts) run on the database directly when
// the CLI may open it (PostgreSQL, or an embedded DATA_DIR no service holds);
// while a service holds the embedded DATA_DIR, or with --url, they go through
// that service's admin API (src/http/admin.ts), authenticated by ADMIN_TOKEN.
import { pathToFileURL } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, loadConfig, type Config } from './config.js';
import { dataDirHolder } from './db/lock.js';
import type { PlanInput } from './admin/operations.js';

/** What the commands need, on the database or through the admin API. */
interface Admin {
  createAccount(input: { email: string; password: string; plan?: string }): Promise<{ id: number; email: string }>;
  setPlan(input: { email: string; plan: string }): Promise<unknown>;
  createToken(input: { email: string; name?: string }): Promise<{ token: string }>;
  listPlans(): Promise<(PlanInput & { autoTranslation: boolean })[]>;
  savePlan(input: PlanInput): Promise<unknown>;
  close(): Promise<void>;
}

interface Option {
  name: string;
  placeholder: string;
  help: string;
  required?: boolean;
}

type Values = Record<string, string | undefined>;

interface Command {
  name: string;
  summary: string;
  options: Option[];
  /** Checks the values before anything is opened (UsageError). */
  check?(values: Values): void;
  run(values: Values, admin: Admin): Promise<void>;
}

class UsageError extends Error {
  /** The command whose usage to point to. */
  command?: string;
}

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

function limit(values: Values, name: string): number | null {
  const value = values[name];
  if (value === undefined || value === 'unlimited') return null;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number or 'unlimited', got '${value}'`);
  return Number(value);
}

const COMMANDS: Command[] = [
  {
    name: 'accounts create',
    summary: 'Create an account',
    options: [
      { name: 'email', placeholder: 'E', help: 'its e-mail address (the login)', required: true },
      { name: 'password', placeholder: 'P', help: 'at least 8 characters', required: true },
      { name: 'plan', placeholder: 'ID', help: 'its plan (default: DEFAULT_PLAN)' },
    ],
    async run(values, admin) {
      const account = await admin.createAccount({
        email: values.email!,
        password: values.password!,
        plan: values.plan,
      });
      out(`created account ${account.email} (id ${account.id})`);
    },
  },
  {
    name: 'accounts set-plan',
    summary: "Change an account's plan",
    options: [
      { name: 'email', placeholder: 'E', help: 'the account', required: true },
      { name: 'plan', placeholder: 'ID', help: 'the new plan', required: true },
    ],
    async run(values, admin) {
      await admin.setPlan({ email: values.email!, plan: values.plan! });
      out(`plan of ${values.email} is now ${values.plan}`);
    },
  },
  {
    name: 'tokens create',
    summary: 'Create a personal token for an account; it is printed once',
    options: [
      { name: 'email', placeholder: 'E', help: 'the account', required: true },
      { name: 'name', placeholder: 'N', help: 'a name to recognise it by (default: cli)' },
    ],
    async run(values, admin) {
      const { token } = await admin.createToken({ email: values.email!, name: values.name });
      out(token);
      err('This token is shown once; store it now (only its hash is kept).');
    },
  },
  {
    name: 'plans list',
    summary: 'List the plans and their limits',
    options: [],
    async run(_values, admin) {
      const rows = (await admin.listPlans()).map((p) =>
        [
          p.id,
          p.name,
          p.allowsPublishing ? 'yes' : 'no',
          p.maxCustomers ?? 'unlimited',
          p.maxProjects ?? 'unlimited',
        ].map(String),
      );
      const table = [['id', 'name', 'publishing', 'max-customers', 'max-projects'], ...rows];
      const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
      for (const row of table)
        out(
          row
            .map((cell, i) => cell.padEnd(widths[i]!))
            .join('  ')
            .trimEnd(),
        );
    },
  },
  {
    name: 'plans set',
    summary: 'Create or change a plan',
    options: [
      { name: 'id', placeholder: 'ID', help: 'the plan id', required: true },
      { name: 'name', placeholder: 'N', help: 'its display name', required: true },
      { name: 'publishing', placeholder: 'yes|no', help: 'whether it allows hosting publications', required: true },
      { name: 'max-customers', placeholder: 'N', help: "customers per project, or 'unlimited' (default)" },
      { name: 'max-projects', placeholder: 'N', help: "projects per account, or 'unlimited' (default)" },
    ],
    check(values) {
      if (values.publishing !== 'yes' && values.publishing !== 'no')
        throw new UsageError(`--publishing must be yes or no, got '${values.publishing}'`);
      limit(values, 'max-customers');
      limit(values, 'max-projects');
    },
    async run(values, admin) {
      await admin.savePlan({
        id: values.id!,
        name: values.name!,
        allowsPublishing: values.publishing === 'yes',
        maxCustomers: limit(values, 'max-customers'),
        maxProjects: limit(values, 'max-projects'),
      });
      out(`plan ${values.id} saved`);
    },
  },
];

const GLOBAL_OPTIONS: Option[] = [
  {
    name: 'url',
    placeholder: 'URL',
    help: 'administer the service running at URL through its admin API (default: the one holding DATA_DIR, if any)',
  },
  { name: 'token', placeholder: 'T', help: 'the admin token for the admin API (default: ADMIN_TOKEN)' },
];

const optionLine = (o: Option) =>
  `  --${o.name} ${o.placeholder}`.padEnd(26) + (o.required ? '(required) ' : '') + o.help;

const USAGE = [
  'Usage: npm run cli -- <command> [options]',
  '',
  'Commands:',
  ...COMMANDS.map((c) => `  ${c.name.padEnd(20)}${c.summary}`),
  '',
  'Options of every command:',
  ...GLOBAL_OPTIONS.map(optionLine),
  `  --help`.padEnd(26) + 'show the usage of a command',
  '',
  "Run 'npm run cli -- <command> --help' for a command's options.",
  'The commands work on the database directly, or through the running service',
  'when it holds the embedded DATA_DIR (or with --url), authenticated by ADMIN_TOKEN.',
].join('\n');

function commandUsage(command: Command): string {
  const synopsis = command.options
    .map((o) => (o.required ? `--${o.name} ${o.placeholder}` : `[--${o.name} ${o.placeholder}]`))
    .join(' ');
  return [
    `Usage: npm run cli -- ${command.name}${synopsis ? ` ${synopsis}` : ''}`,
    '',
    command.summary,
    '',
    'Options:',
    ...[...command.options, ...GLOBAL_OPTIONS].map(optionLine),
    `  --help`.padEnd(26) + 'show this usage',
  ].join('\n');
}

/** parseArgs' errors, as one short line. */
function parseError(error: unknown): UsageError {
  const e = error as { code?: string; message: string };
  const option = e.message.match(/'(-[^' ]+)/)?.[1];
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return new UsageError(`unknown option ${option ?? ''}`.trim());
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE')
    return new UsageError(`option ${option ?? ''} needs a value`.replace('  ', ' '));
  if (e.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
    return new UsageError(`unexpected argument ${e.message.match(/'([^']+)'/)?.[1] ?? ''}`.trim());
  return new UsageError(e.message.split('\n')[0]!);
}

interface Parsed {
  command?: Command;
  values: Values;
  help: boolean;
}

export function parseCommandLine(argv: string[]): Parsed {
  const words: string[] = [];
  for (const arg of argv) {
    if (arg.startsWith('-') || words.length === 2) break;
    words.push(arg);
  }
  const rest = argv.slice(words.length);
  const help = rest.includes('--help') || rest.includes('-h');
  if (words.length === 0 || (words.length === 1 && help)) {
    if (help || argv.length === 0) return { values: {}, help: true };
    throw new UsageError(`unknown option ${argv[0]}`);
  }
  const name = words.join(' ');
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new UsageError(`unknown command '${name}'; commands: ${COMMANDS.map((c) => c.name).join(', ')}`);
  if (help) return { command, values: {}, help: true };
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const o of [...command.options, ...GLOBAL_OPTIONS]) options[o.name] = { type: 'string' };
  try {
    let values: Values;
    try {
      values = parseArgs({ args: rest, options, strict: true, allowPositionals: false }).values as Values;
    } catch (error) {
      throw parseError(error);
    }
    const missing = command.options.find((o) => o.required && !values[o.name]);
    if (missing) throw new UsageError(`--${missing.name} is required`);
    command.check?.(values);
    return { command, values, help: false };
  } catch (error) {
    if (error instanceof UsageError) error.command = command.name;
    throw error;
  }
}

/** The operations on the database this process opens. */
async function localAdmin(config: Config): Promise<Admin> {
  const { lockDataDir } = await import('./db/lock.js');
  const { openDatabase } = await import('./db/client.js');
  const { prepareDatabase, databaseOptions } = await import('./app.js');
  const operations = await import('./admin/operations.js');
  const unlock = config.databaseUrl ? () => {} : lockDataDir(config.dataDir);
  try {
    const db = await prepareDatabase(config, await openDatabase(databaseOptions(config)));
    return {
      createAccount: (input) => operations.createAccount(input, config.defaultPlan),
      setPlan: operations.setPlan,
      createToken: operations.createToken,
      listPlans: operations.listPlans,
      savePlan: operations.savePlan,
      async close() {
        await db.close();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

/** The same operations through a running service's admin API. */
function remoteAdmin(url: string, token: string): Admin {
  // The admin API answers { data } or { msg }; each operation's type is the Admin interface's.
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    let res: Response;
    try {
      res = await fetch(`${url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new Error(
        `cannot reach the service at ${url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
        { cause: error },
      );
    }
    const answer = (await res.json().catch(() => ({ msg: `HTTP ${res.status}` }))) as { msg?: string; data?: T };
    if (res.status !== 200) throw new Error(`the service at ${url} refused: ${answer.msg}`);
    return answer.data as T;
  };
  return {
    createAccount: (input) => call('POST', '/admin/v1/accounts', input),
    setPlan: (input) => call('PUT', '/admin/v1/accounts/plan', input),
    createToken: (input) => call('POST', '/admin/v1/tokens', input),
    listPlans: () => call('GET', '/admin/v1/plans'),
    savePlan: ({ id, ...plan }) => call('PUT', `/admin/v1/plans/${encodeURIComponent(id)}`, plan),
    close: async () => {},
  };
}

function chooseAdmin(config: Config, values: Values): Promise<Admin> | Admin {
  const token = values.token ?? process.env.ADMIN_TOKEN;
  let url = values.url?.replace(/\/+$/, '');
  if (!url && !config.databaseUrl) {
    const holder = dataDirHolder(config.dataDir);
    if (holder) {
      url = `http://127.0.0.1:${config.port}`;
      if (!token)
        throw new UsageError(
          `the service (process ${holder}) holds DATA_DIR ${config.dataDir}: set ADMIN_TOKEN (or --token) to administer it through its admin API, or stop it`,
        );
    }
  }
  if (!url) return localAdmin(config);
  if (!token) throw new UsageError('the admin API needs the admin token: set ADMIN_TOKEN or pass --token');
  return remoteAdmin(url, token);
}

async function main(argv: string[]): Promise<number> {
  let parsed: Parsed;
  let config: Config;
  try {
    parsed = parseCommandLine(argv);
    if (parsed.help) {
      // `npm run cli` alone is a usage error; asking for help is not.
      const asked = argv.includes('--help') || argv.includes('-h');
      (asked ? out : err)(parsed.command ? commandUsage(parsed.command) : USAGE);
      return asked ? 0 : 2;
    }
    config = loadConfig();
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError) {
      const command = error instanceof UsageError && error.command ? `${error.command} ` : '';
      err(`cli: ${error.message} (see 'npm run cli -- ${command}--help')`);
      return 2;
    }
    throw error;
  }
  let admin: Admin | undefined;
  try {
    admin = await chooseAdmin(config, parsed.values);
    await parsed.command!.run(parsed.values, admin);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      err(`cli: ${error.message} (see 'npm run cli -- ${parsed.command!.name} --help')`);
      return 2;
    }
    err(`cli: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    return 1;
  } finally {
    await admin?.close();
  }
}

// Run when started as a program (tests import parseCommandLine).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      err(`cli: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
      process.exitCode = 1;
    },
  );
}
