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
if (result.status !== 0) process.exit(result.status ?? 1);
// PGlite's text decoding keeps a leading U+FEFF (scripts/patch-pglite.mjs).
const pglite = spawnSync(process.execPath, ['scripts/patch-pglite.mjs'], { stdio: 'inherit' });
if (pglite.status !== 0) process.exit(pglite.status ?? 1);
// The web console (web/ → web/dist), skipped when up to date.
const web = spawnSync(process.execPath, ['scripts/build-web.mjs'], { stdio: 'inherit' });
process.exit(web.status ?? 1);
