// `prisma generate` without network access: the CLI only checks that a schema
// engine binary exists before generating (it does not use it), so point it at
// an existing file instead of letting it try to download one.
import { spawnSync } from 'node:child_process';
import { delimiter, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const env = { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || fileURLToPath(import.meta.url), PRISMA_HIDE_UPDATE_MESSAGE: '1' };
// The pothos generator is a bin of @pothos/plugin-prisma.
env.PATH = `${resolve('node_modules/.bin')}${delimiter}${env.PATH ?? ''}`;
const result = spawnSync(process.execPath, ['node_modules/prisma/build/index.js', 'generate'], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
