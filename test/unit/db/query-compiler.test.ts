// The query compiler is compiled from the file the generated client would
// import (src/db/query-compiler.ts), so that its base64 text is not kept.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compilerFromFile } from '../../../src/db/query-compiler.js';

type Override = {
  __internal: {
    configOverride: (config: object) => {
      compilerWasm: { getQueryCompilerWasmModule: () => Promise<WebAssembly.Module> };
    };
  };
};
const { configOverride } = (compilerFromFile as Override).__internal;

describe('query compiler from file', () => {
  it('finds the module the generated loader imports, in the shape this reads', () => {
    const generated = readFileSync(new URL('../../../src/generated/prisma/internal/class.ts', import.meta.url), 'utf8');
    expect(generated).toMatch(
      /getQueryCompilerWasmModule: async \(\) => \{\s*const \{ wasm \} = await import\("@prisma\/client\/runtime\/[\w.]+\.wasm-base64\.mjs"\)/,
    );
  });

  it('compiles the WebAssembly from the file without calling the generated loader', async () => {
    // Never run: only its text is read for the module's name, as in the generated loader.
    const generatedLoader = async (): Promise<WebAssembly.Module> => {
      throw new Error(
        'the generated loader ran: @prisma/client/runtime/query_compiler_fast_bg.postgresql.wasm-base64.mjs',
      );
    };
    const { compilerWasm } = configOverride({
      compilerWasm: { getQueryCompilerWasmModule: generatedLoader, importName: 'x' },
    });
    const module = await compilerWasm.getQueryCompilerWasmModule();
    expect(WebAssembly.Module.exports(module).map((e) => e.name)).toContain('__wbindgen_start');
  });

  it('falls back to the generated loader when it does not name a file', async () => {
    const fallback = await WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
    const { compilerWasm } = configOverride({ compilerWasm: { getQueryCompilerWasmModule: async () => fallback } });
    expect(await compilerWasm.getQueryCompilerWasmModule()).toBe(fallback);
  });
});
