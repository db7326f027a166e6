// Builds the web console (web/ → web/dist) when its sources, the GraphQL schema
// or the installed packages changed since the last build; `npm start` and
// `npm test` run it through scripts/generate.mjs. First the gql.tada
// introspection types (web/src/graphql-env.d.ts) from schema.graphql, then Vite.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = resolve(import.meta.dirname, '..');
const web = join(root, 'web');
const stampFile = join(web, 'dist', '.build-stamp');

function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path)) {
    if (entry === 'dist' || entry === 'node_modules' || entry === 'graphql-env.d.ts') continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

// web/ also bundles the checks and the format suggestion shared with the service (src/console/checks.ts, src/formats/suggest.ts).
const shared = ['console/checks.ts', 'formats/suggest.ts', 'formats/language-code.ts'].map((file) => join(root, 'src', file));
const inputs = [web, ...shared, join(root, 'schema.graphql'), join(root, 'package-lock.json')];
const stamp = String(Math.max(...inputs.filter(existsSync).map(newest)));
const envTypes = join(web, 'src', 'graphql-env.d.ts');
if (existsSync(stampFile) && existsSync(envTypes) && readFileSync(stampFile, 'utf8') === stamp && !process.argv.includes('--force')) {
  process.exit(0);
}

const started = Date.now();
const tada = spawnSync(process.execPath, [join(root, 'node_modules', 'gql.tada', 'bin', 'cli.js'), 'generate-output', '-c', join(web, 'tsconfig.json')], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
if (tada.status !== 0) process.exit(tada.status ?? 1);
const { build } = await import('vite');
await build({ configFile: join(web, 'vite.config.ts'), logLevel: 'warn' });
writeFileSync(stampFile, stamp);
console.log(`web console built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
