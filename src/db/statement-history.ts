// Prisma's debug module keeps the arguments of its last 100 debug calls for
// its error reports, whether DEBUG is set or not, in each copy of the module
// loaded: the one bundled in @prisma/client's runtime (which logs query
// plans), @prisma/debug, which the driver adapters use to log every query with
// its parameters, and the copy a driver adapter brings along when it pins
// another version (pglite-prisma-adapter pins @prisma/driver-adapter-utils
// 7.2.0, so the embedded database's queries go to a history of their own).
// For a bulk write those are its columns of up to a chunk's texts each
// (CELL_CHUNK, transfer/write-bundle.ts), so a large import's last statements
// stayed reachable after they had run, and V8 let the heap grow to a multiple
// of that (docs/benchmarks.md, "Figures behind constants in the code").
// Pushing HISTORY entries without payload into each lets them go, cheaply.
// Should a Prisma release keep more entries or none, this releases less or
// nothing, and changes nothing else.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Debug as ClientDebug } from '@prisma/client/runtime/client';
import { Debug as AdapterDebug } from '@prisma/driver-adapter-utils';

/** Prisma's history length (MAX_ARGS_HISTORY of @prisma/debug). */
const HISTORY = 100;

type DebugFactory = typeof AdapterDebug;
type Filler = ReturnType<DebugFactory>;

const FILLER_NAMESPACE = 'lms:release-statements';
const fillers: Filler[] = [ClientDebug(FILLER_NAMESPACE), AdapterDebug(FILLER_NAMESPACE)];
const factories = new Set<unknown>([AdapterDebug]);

/** Lets the parameters of the statements sent so far be collected (bulk paths call it after each chunk). */
export function releaseStatementHistory(): void {
  for (const filler of fillers) for (let i = 0; i < HISTORY; i++) filler('');
}

/**
 * The ES module file a package's `import` resolves to, as `fromFile` imports
 * it: the same file is the same module instance. createRequire resolves the
 * package's `require` entry; the `import` entry is read from its package.json.
 */
function esmEntry(packageName: string, fromFile: string): string {
  const required = createRequire(fromFile).resolve(packageName);
  for (let dir = dirname(required); dir !== dirname(dir); dir = dirname(dir)) {
    let manifest: {
      name?: string;
      exports?: Record<string, { import?: string | { default?: string } }>;
      module?: string;
    };
    try {
      manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as typeof manifest;
    } catch {
      continue;
    }
    if (manifest.name !== packageName) continue;
    const entry = manifest.exports?.['.']?.import;
    const file = typeof entry === 'string' ? entry : (entry?.default ?? manifest.module);
    if (!file) break;
    return join(dir, file);
  }
  throw new Error(`no ES module entry for ${packageName}`);
}

/**
 * Releases, from now on, the history of the @prisma/driver-adapter-utils a
 * driver adapter package imports, when it is another copy than ours (the
 * database client calls it when it opens that driver). Where it cannot be
 * found (another layout of node_modules, another release that bundles it),
 * it warns: memory, not correctness.
 */
export async function releaseHistoryOf(adapterPackage: string): Promise<void> {
  try {
    const adapter = createRequire(import.meta.url).resolve(adapterPackage);
    const utils = (await import(pathToFileURL(esmEntry('@prisma/driver-adapter-utils', adapter)).href)) as {
      Debug: DebugFactory;
    };
    if (factories.has(utils.Debug)) return;
    factories.add(utils.Debug);
    fillers.push(utils.Debug(FILLER_NAMESPACE));
  } catch (error) {
    process.emitWarning(
      `the statement history of ${adapterPackage} cannot be released (${(error as Error).message}): a bulk write's parameters may stay in memory`,
    );
  }
}
