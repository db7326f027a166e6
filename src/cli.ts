// Command-line administration: `npm run cli -- <command> [--option value ...]`
//   accounts create --email E --password P [--plan ID]
//   accounts set-plan --email E --plan ID
//   tokens create --email E [--name N]        prints the new personal token once
//   plans list
//   plans set --id ID --name N --publishing yes|no [--max-customers N] [--max-projects N]
import { parseArgs } from 'node:util';
import { loadConfig } from './config.js';
import { prepareDatabase, databaseOptions } from './app.js';
import { openDatabase } from './db/client.js';
import { lockDataDir } from './db/lock.js';
import { prisma } from './db.js';
import { createAccount, createPersonalToken, setAccountPlan } from './accounts/accounts.js';
import { upsertPlan } from './plans/plans.js';

const USAGE = `Usage: npm run cli -- <command>
  accounts create --email E --password P [--plan ID]
  accounts set-plan --email E --plan ID
  tokens create --email E [--name N]
  plans list
  plans set --id ID --name N --publishing yes|no [--max-customers N] [--max-projects N]`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    email: { type: 'string' }, password: { type: 'string' }, plan: { type: 'string' }, name: { type: 'string' },
    id: { type: 'string' }, publishing: { type: 'string' }, 'max-customers': { type: 'string' }, 'max-projects': { type: 'string' },
  },
});

function need(name: keyof typeof values): string {
  const value = values[name];
  if (!value) throw new Error(`--${name} is required\n${USAGE}`);
  return value;
}

function optionalInt(name: 'max-customers' | 'max-projects'): number | null {
  const value = values[name];
  if (value === undefined || value === 'unlimited') return null;
  if (!/^\d+$/.test(value)) throw new Error(`--${name} must be a number or 'unlimited'`);
  return Number(value);
}

async function main(): Promise<void> {
  const config = loadConfig();
  const command = positionals.join(' ');
  if (!['accounts create', 'accounts set-plan', 'tokens create', 'plans list', 'plans set'].includes(command)) {
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  const unlock = config.databaseUrl ? () => {} : lockDataDir(config.dataDir);
  const db = await prepareDatabase(config, await openDatabase(databaseOptions(config)));
  try {
    switch (command) {
      case 'accounts create': {
        const account = await createAccount({ email: need('email'), password: need('password'), planId: values.plan }, config.defaultPlan);
        console.log(`created account ${account.email} (id ${account.id})`);
        break;
      }
      case 'accounts set-plan':
        await setAccountPlan(need('email'), need('plan'));
        console.log(`plan of ${values.email} is now ${values.plan}`);
        break;
      case 'tokens create': {
        const account = await prisma().account.findUnique({ where: { email: need('email').toLowerCase() } });
        if (!account) throw new Error(`No account with e-mail ${values.email}`);
        const token = await createPersonalToken(account.id, values.name ?? 'cli');
        console.log(token);
        console.error('This token is shown once; store it now (only its hash is kept).');
        break;
      }
      case 'plans list':
        console.table(await prisma().plan.findMany({ orderBy: { id: 'asc' } }));
        break;
      case 'plans set': {
        const publishing = need('publishing');
        if (!['yes', 'no'].includes(publishing)) throw new Error('--publishing must be yes or no');
        await upsertPlan({ id: need('id'), name: need('name'), allowsPublishing: publishing === 'yes', maxCustomers: optionalInt('max-customers'), maxProjects: optionalInt('max-projects'), autoTranslation: true });
        console.log(`plan ${values.id} saved`);
        break;
      }
    }
  } finally {
    await db.close();
    unlock();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
