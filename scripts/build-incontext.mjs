// Builds the i18next in-context plugin (packages/i18next-incontext): into its
// dist/ (what the package publishes) an ES module for bundlers and an IIFE
// for a <script> tag (the service serves it at /in-context/i18next-incontext.js),
// both only the small core, with the type declarations; and into editor-dist/
// (not published) the editor, an ES module of its own that the service serves
// at /in-context/editor.js (src/http/in-context-script.ts) and the core
// imports from there at run time, only with a token. So no application's
// build ever carries the editor. Called by scripts/build.mjs (npm start), by
// the tests' global set-up and by the package's own `npm run build`; skipped
// when its inputs have not changed since the last build.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '..');
export const PACKAGE_DIR = join(ROOT, 'packages', 'i18next-incontext');
/** The editor the service serves; outside dist/, so never in the published package. */
export const EDITOR_DIR = join(PACKAGE_DIR, 'editor-dist');
export const EDITOR_FILE = join(EDITOR_DIR, 'editor.js');

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]))
    .sort();
}

function inputsHash() {
  const hash = createHash('sha256');
  // Its sources, the service's checks it bundles, this script, and the installed libraries it bundles.
  const files = [
    ...filesUnder(join(PACKAGE_DIR, 'src')),
    ...filesUnder(join(ROOT, 'src', 'checks')),
    ...filesUnder(join(ROOT, 'src', 'glossary')),
    join(PACKAGE_DIR, 'package.json'),
    import.meta.filename,
    join(ROOT, 'package-lock.json'),
  ];
  for (const file of files) hash.update(file.slice(ROOT.length)).update(readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

export async function buildInContext({ force = false } = {}) {
  const dist = join(PACKAGE_DIR, 'dist');
  const stamp = join(dist, '.inputs');
  const hash = inputsHash();
  if (!force && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash && existsSync(EDITOR_FILE))
    return { built: false, dist };
  const staging = `${dist}.${process.pid}.tmp`;
  const editorStaging = `${EDITOR_DIR}.${process.pid}.tmp`;
  for (const dir of [staging, editorStaging]) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
  }
  const common = {
    bundle: true,
    platform: 'browser',
    target: 'es2020',
    logLevel: 'warning',
    legalComments: 'none',
    external: ['i18next'],
  };
  const core = join(PACKAGE_DIR, 'src', 'index.ts');
  await build({ ...common, entryPoints: [core], outfile: join(staging, 'index.js'), format: 'esm' });
  await build({
    ...common,
    entryPoints: [core],
    outfile: join(staging, 'i18next-incontext.iife.js'),
    format: 'iife',
    globalName: 'I18nextInContext',
    minify: true,
  });
  // The editor: overlay, editing, capture (html-to-image), live changes (graphql-ws) and the service's checks.
  await build({
    ...common,
    entryPoints: [join(PACKAGE_DIR, 'src', 'editor.ts')],
    outfile: join(editorStaging, 'editor.js'),
    format: 'esm',
    minify: true,
  });
  for (const file of ['index.js', 'i18next-incontext.iife.js']) {
    // The core must never reach the editor's code but through the service's URL.
    if (/lms-incontext-overlay|html-to-image/.test(readFileSync(join(staging, file), 'utf8')))
      throw new Error(`${file} holds editor code: import the editor only through editor-loader.ts`);
  }
  // Declarations of the public types; the entry's declaration names the factory by its type.
  const program = ts.createProgram([join(PACKAGE_DIR, 'src', 'api.ts')], {
    declaration: true,
    emitDeclarationOnly: true,
    outDir: staging,
    rootDir: join(PACKAGE_DIR, 'src'),
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
  });
  const emitted = program.emit();
  const problems = ts.getPreEmitDiagnostics(program).concat(emitted.diagnostics);
  if (problems.length)
    throw new Error(
      ts.formatDiagnostics(problems, {
        getCanonicalFileName: (f) => f,
        getCurrentDirectory: () => ROOT,
        getNewLine: () => '\n',
      }),
    );
  writeFileSync(
    join(staging, 'index.d.ts'),
    [
      "export type { InContextEditorApi, InContextFactory, InContextModule, InContextOptions } from './api.js';",
      "import type { InContextFactory } from './api.js';",
      'export declare const inContext: InContextFactory;',
      'export default inContext;',
      '',
    ].join('\n'),
  );
  writeFileSync(join(staging, '.inputs'), hash);
  // Each swapped in whole: a service reading the old files meanwhile reads complete ones.
  // The editor first: dist/'s stamp, written last, says both are built.
  swapIn(editorStaging, EDITOR_DIR, 'editor.js');
  swapIn(staging, dist, '.inputs');
  return { built: true, dist };
}

function swapIn(staging, target, witness) {
  rmSync(target, { recursive: true, force: true });
  try {
    renameSync(staging, target);
  } catch (error) {
    // Another build won the race with the same inputs.
    if (!existsSync(join(target, witness))) throw error;
    rmSync(staging, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const { built, dist } = await buildInContext({ force: process.argv.includes('--force') });
  const size = (f) => `${(statSync(f).size / 1024).toFixed(1)} KiB`;
  console.log(
    built
      ? `built ${dist.slice(ROOT.length + 1)}: index.js ${size(join(dist, 'index.js'))}, i18next-incontext.iife.js ${size(join(dist, 'i18next-incontext.iife.js'))}; ${EDITOR_FILE.slice(ROOT.length + 1)} ${size(EDITOR_FILE)}`
      : `${dist.slice(ROOT.length + 1)} is up to date`,
  );
}
