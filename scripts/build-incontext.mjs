// Builds the i18next in-context plugin (packages/i18next-incontext) into its
// dist/: an ES module for bundlers (the editor a chunk of its own, loaded only
// when the plugin has a token), an IIFE for a <script> tag (the service serves
// it at /in-context/i18next-incontext.js, src/http/in-context-script.ts), and
// the type declarations. Called by scripts/build.mjs (npm start), by the
// tests' global set-up and by the package's own `npm run build`; skipped when
// its inputs have not changed since the last build.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '..');
export const PACKAGE_DIR = join(ROOT, 'packages', 'i18next-incontext');

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)])).sort();
}

function inputsHash() {
  const hash = createHash('sha256');
  // Its sources, the service's checks it bundles, this script, and the installed libraries it bundles.
  const files = [...filesUnder(join(PACKAGE_DIR, 'src')), ...filesUnder(join(ROOT, 'src', 'checks')), ...filesUnder(join(ROOT, 'src', 'glossary')),
    join(PACKAGE_DIR, 'package.json'), import.meta.filename, join(ROOT, 'package-lock.json')];
  for (const file of files) hash.update(file.slice(ROOT.length)).update(readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

export async function buildInContext({ force = false } = {}) {
  const dist = join(PACKAGE_DIR, 'dist');
  const stamp = join(dist, '.inputs');
  const hash = inputsHash();
  if (!force && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) return { built: false, dist };
  const staging = `${dist}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const common = { bundle: true, platform: 'browser', target: 'es2020', logLevel: 'warning', legalComments: 'none', external: ['i18next'] };
  await build({ ...common, entryPoints: { index: join(PACKAGE_DIR, 'src', 'index.ts') }, outdir: staging, format: 'esm', splitting: true, chunkNames: '[name]-[hash]' });
  await build({ ...common, entryPoints: [join(PACKAGE_DIR, 'src', 'index.ts')], outfile: join(staging, 'i18next-incontext.iife.js'), format: 'iife', globalName: 'I18nextInContext', minify: true });
  // Declarations of the public types; the entry's declaration names the factory by its type.
  const program = ts.createProgram([join(PACKAGE_DIR, 'src', 'api.ts')], {
    declaration: true, emitDeclarationOnly: true, outDir: staging, rootDir: join(PACKAGE_DIR, 'src'),
    module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, target: ts.ScriptTarget.ES2022, strict: true, skipLibCheck: true,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
  });
  const emitted = program.emit();
  const problems = ts.getPreEmitDiagnostics(program).concat(emitted.diagnostics);
  if (problems.length) throw new Error(ts.formatDiagnostics(problems, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' }));
  writeFileSync(join(staging, 'index.d.ts'), [
    "export type { InContextEditorApi, InContextFactory, InContextModule, InContextOptions } from './api.js';",
    "import type { InContextFactory } from './api.js';",
    'export declare const inContext: InContextFactory;',
    'export default inContext;',
    '',
  ].join('\n'));
  writeFileSync(join(staging, '.inputs'), hash);
  // Swapped in whole: a service reading the old IIFE meanwhile reads a complete file.
  rmSync(dist, { recursive: true, force: true });
  try {
    (await import('node:fs')).renameSync(staging, dist);
  } catch (error) {
    // Another build won the race with the same inputs.
    if (!existsSync(join(dist, '.inputs'))) throw error;
    rmSync(staging, { recursive: true, force: true });
  }
  return { built: true, dist };
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const { built, dist } = await buildInContext({ force: process.argv.includes('--force') });
  const size = (f) => `${(statSync(join(dist, f)).size / 1024).toFixed(1)} KiB`;
  console.log(built ? `built ${dist.slice(ROOT.length + 1)}: index.js ${size('index.js')}, i18next-incontext.iife.js ${size('i18next-incontext.iife.js')}` : `${dist.slice(ROOT.length + 1)} is up to date`);
}
