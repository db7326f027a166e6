// `prisma generate` without network access: the CLI only checks that a schema
// engine binary exists before generating (it does not use it), so point it at
// an existing file instead of letting it try to download one.
// Each step runs only when its inputs changed, and under the checkout's build
// lock (scripts/lib/build-lock.mjs): two `npm start` or `npm test` of one
// checkout at once generate one after the other instead of overwriting the
// files the other is reading.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withBuildLock } from './lib/build-lock.mjs';
import { hashInputs } from './lib/switched-build.mjs';

const root = resolve(import.meta.dirname, '..');

// The supported Node lines (package.json's engines; docs/architecture.md, "Runtime").
// npm's scripts find node_modules/.bin/node (Node 24, installed on Linux x64) first.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 15)) {
  console.error(
    `Node.js ${process.version} is not supported: use Node 22 (22.15 or later) or 24. On Linux x64, \`npm install\` installs Node 24 into node_modules, which \`npm start\` and \`npm test\` use.`,
  );
  process.exit(1);
}

function run(script, args = [], env = process.env) {
  const result = spawnSync(process.execPath, [script, ...args], { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

await withBuildLock(root, async () => {
  // The generated client and Pothos types, when the schema or the installed Prisma changed.
  const generated = join(root, 'src', 'generated');
  const stampFile = join(generated, '.generate-stamp');
  const stamp = hashInputs(
    root,
    ['prisma/schema.prisma', 'prisma.config.ts', 'package-lock.json'].map((file) => join(root, file)),
  );
  const current =
    existsSync(join(generated, 'prisma', 'client.ts')) &&
    existsSync(join(generated, 'pothos-types.ts')) &&
    existsSync(stampFile) &&
    readFileSync(stampFile, 'utf8') === stamp;
  if (!current || process.argv.includes('--force')) {
    const env = {
      ...process.env,
      PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || fileURLToPath(import.meta.url),
      PRISMA_HIDE_UPDATE_MESSAGE: '1',
    };
    // The pothos generator is a bin of @pothos/plugin-prisma.
    env.PATH = `${join(root, 'node_modules', '.bin')}${delimiter}${env.PATH ?? ''}`;
    run('node_modules/prisma/build/index.js', ['generate'], env);
    writeFileSync(stampFile, stamp);
  }
  // PGlite's text decoding keeps a leading U+FEFF (scripts/patch-pglite.mjs).
  run('scripts/patch-pglite.mjs');
  // The web console (web/ → web/dist), skipped when up to date.
  run('scripts/build-web.mjs', process.argv.includes('--force') ? ['--force'] : []);
});
