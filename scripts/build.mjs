// Bundles the service (src/main.ts and what it imports, the generated Prisma
// client included) into dist/ as JavaScript, which `npm start` runs with plain
// node. Running the TypeScript sources through tsx instead costs the idle
// service about 130 MiB more: the loader's own compiler and the source maps it
// turns on, which make Node keep the map of every module loaded, libraries
// included (docs/architecture.md, "Memory"). Packages stay outside the bundle,
// loaded from node_modules as usual; the modules a feature loads on first use
// (dynamic imports) become chunks of their own, so they still load only then.
// Run after scripts/generate.mjs (npm's prestart does both).
//
// Built only when the sources changed, into a fresh folder that dist/ is then
// switched to (scripts/lib/switched-build.mjs): a service already running from
// the previous build keeps its chunks, and two `npm start` of one checkout at
// once build one after the other (scripts/lib/build-lock.mjs).
// `--root DIR` builds another checkout's src/main.ts (the tests' small fixture).
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { withBuildLock } from './lib/build-lock.mjs';
import { hashInputs, switchedBuild } from './lib/switched-build.mjs';
import { buildInContext } from './build-incontext.mjs';

const rootArgument = process.argv.indexOf('--root');
const root = rootArgument > 0 ? resolve(process.argv[rootArgument + 1]) : resolve(import.meta.dirname, '..');

await withBuildLock(root, async () => {
  // Every file the bundle reads lies in these (checked after each build, below): a change elsewhere would leave
  // dist/ as it was, and the service would run the old code.
  const hashed = ['src', 'rest-compat', 'package.json', 'package-lock.json', 'tsconfig.json'];
  const inputs = hashed.map((input) => join(root, input));
  // This script's options are an input too.
  const hash = hashInputs(root, [...inputs, import.meta.filename]);
  const { folder, built } = await switchedBuild({
    link: join(root, 'dist'),
    hash,
    build: async (outdir) => {
      const result = await build({
        // The findings updater's worker threads run their own entry (src/findings/pool.ts): dist/findings/check-worker.js.
        entryPoints: [join(root, 'src', 'main.ts'), join(root, 'src', 'findings', 'check-worker.ts')],
        outdir,
        bundle: true,
        splitting: true,
        format: 'esm',
        platform: 'node',
        target: 'node22',
        packages: 'external',
        // Stack traces name the bundle's lines; the code is not minified, so they read as the sources do.
        sourcemap: false,
        logLevel: 'warning',
        absWorkingDir: root,
        metafile: true,
      });
      const outside = Object.keys(result.metafile.inputs).filter(
        (file) => !file.startsWith('node_modules/') && !hashed.some((h) => file === h || file.startsWith(`${h}/`)),
      );
      if (outside.length)
        throw new Error(
          `The bundle reads ${outside.slice(0, 3).join(', ')}, outside what its hash covers (${hashed.join(', ')}): add it to scripts/build.mjs's inputs`,
        );
      return result;
    },
  });
  if (!built) console.log(`dist/ is up to date (${folder.slice(root.length + 1)})`);
});
// The in-context plugin and editor the service serves at /in-context/ (this checkout's).
if (rootArgument < 0) await buildInContext();
