// Prisma's query compiler is WebAssembly that the generated client imports as
// a module exporting it as base64 text. An imported module stays loaded for
// good: its source and the string it exports stay in an idle service's heap
// (docs/benchmarks.md, "Figures behind constants in the code"), kept only to
// have been decoded once. This reads the
// same file as text instead, decodes it and lets the text go; everything
// else about loading the compiler is Prisma's own. It goes through Prisma's
// `__internal.configOverride` hook and finds the file's name in the generated
// loader: if either changes shape, the generated loader runs as before.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

interface CompilerWasm {
  getQueryCompilerWasmModule: () => Promise<WebAssembly.Module>;
}

/** The base64 module the generated loader imports, read as a file and compiled; null when its shape is not the one known here. */
function compileFromFile(loader: () => unknown): WebAssembly.Module | null {
  // The loader's text names the module (as written, or as a bundler or test runner rewrote its import()).
  const file = /([\w.-]+\.wasm-base64\.m?js)["']/.exec(loader.toString())?.[1];
  if (!file) return null;
  let text: string;
  try {
    text = readFileSync(require.resolve(`@prisma/client/runtime/${file}`), 'utf8');
  } catch {
    return null;
  }
  const base64 = /^const wasm = "([A-Za-z0-9+/=]+)";/.exec(text)?.[1];
  return base64 ? new WebAssembly.Module(Buffer.from(base64, 'base64')) : null;
}

/**
 * PrismaClient options that load the query compiler without keeping its base64 text
 * (typed as no options: the generated types hide Prisma's internal ones).
 */
export const compilerFromFile: object = {
  __internal: {
    configOverride: <C extends { compilerWasm?: CompilerWasm }>(config: C): C => {
      const generated = config.compilerWasm;
      if (!generated) return config;
      return {
        ...config,
        compilerWasm: {
          ...generated,
          getQueryCompilerWasmModule: async () =>
            compileFromFile(generated.getQueryCompilerWasmModule) ?? generated.getQueryCompilerWasmModule(),
        },
      };
    },
  },
};
