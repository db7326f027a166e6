// Bundles the service (src/main.ts and what it imports, the generated Prisma
// client included) into dist/ as JavaScript, which `npm start` runs with plain
// node. Running the TypeScript sources through tsx instead costs the idle
// service about 130 MiB more: the loader's own compiler and the source maps it
// turns on, which make Node keep the map of every module loaded, libraries
// included (docs/architecture.md, "Memory"). Packages stay outside the bundle,
// loaded from node_modules as usual; the modules a feature loads on first use
// (dynamic imports) become chunks of their own, so they still load only then.
// Run after scripts/generate.mjs (npm's prestart does both).
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const outdir = join(root, 'dist');
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: [join(root, 'src', 'main.ts')],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  // Stack traces name the bundle's lines; the code is not minified, so they read as the sources do.
  sourcemap: false,
  logLevel: 'warning',
});
