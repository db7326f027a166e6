// Builds the web console (web/ → web/dist) when its sources, the GraphQL schema
// or the installed packages changed since the last build; `npm start` and
// `npm test` run it through scripts/generate.mjs. First the gql.tada
// introspection types (web/src/graphql-env.d.ts) from schema.graphql, then Vite,
// into a fresh folder that web/dist is switched to (scripts/lib/switched-build.mjs):
// a running service keeps serving the build it started with.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { withBuildLock } from './lib/build-lock.mjs';
import { currentBuild, hashInputs, switchedBuild } from './lib/switched-build.mjs';
import { precompress } from './lib/precompress.mjs';

const root = resolve(import.meta.dirname, '..');
const web = join(root, 'web');
const link = join(web, 'dist');

await withBuildLock(root, async () => {
  // web/ also bundles the checks (src/console/checks.ts and the checks it runs), the wording of the
  // service's messages as data and the format suggestion, shared with the service.
  const shared = [
    'console/checks.ts',
    'checks',
    'message-text.ts',
    'formats/suggest.ts',
    'formats/language-code.ts',
  ].map((file) => join(root, 'src', file));
  const inputs = [
    web,
    ...shared,
    join(root, 'schema.graphql'),
    join(root, 'package-lock.json'),
    import.meta.filename,
    join(root, 'scripts', 'lib', 'precompress.mjs'),
  ];
  const hash = hashInputs(
    root,
    inputs,
    (entry) =>
      entry === 'node_modules' || entry === 'graphql-env.d.ts' || entry === 'dist' || entry.startsWith('dist.'),
  );
  const envTypes = join(web, 'src', 'graphql-env.d.ts');
  const force = process.argv.includes('--force');
  if (
    !force &&
    existsSync(envTypes) &&
    currentBuild(link) === join(web, `dist.${hash}`) &&
    existsSync(join(link, 'index.html'))
  )
    return;

  const started = Date.now();
  const tada = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'gql.tada', 'bin', 'cli.js'), 'generate-output', '-c', join(web, 'tsconfig.json')],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (tada.status !== 0) process.exit(tada.status ?? 1);
  const { build } = await import('vite');
  const { built } = await switchedBuild({
    link,
    // --force builds anew into a folder of its own.
    hash: force ? `${hash.slice(0, 8)}${Date.now().toString(16).slice(-8).padStart(8, '0')}` : hash,
    build: async (outDir) => {
      await build({ configFile: join(web, 'vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
      precompress(outDir);
    },
  });
  if (built) console.log(`web console built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
});
