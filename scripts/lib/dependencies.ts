// The dependency rules of the code base, in one place (docs/architecture.md):
// the layers, top to bottom, and what each may import. A module may import its
// own layer and any layer below it, never one above, and no chain of imports
// may come back to where it started. test/unit/dependencies.test.ts runs this
// over every TypeScript file of src/, rest-compat/, bench/ and scripts/.
//
// Imports are read with the TypeScript compiler (ts.preProcessFile): static
// imports, `import type`, re-exports and dynamic `import()` all count, since a
// type-only or lazy import is still a dependency of the design.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

export const ROOT = resolve(new URL('../..', import.meta.url).pathname);

export interface Layer {
  name: string;
  description: string;
  /** Does the file (a path relative to the root, with forward slashes) belong to this layer? */
  holds(file: string): boolean;
}

const under =
  (...folders: string[]) =>
  (file: string) =>
    folders.some((folder) => file.startsWith(`${folder}/`));
const oneOf =
  (...files: string[]) =>
  (file: string) =>
    files.includes(file);

/** The layers of the service, top first. Every file under src/ and rest-compat/ is in exactly one. */
export const LAYERS: Layer[] = [
  {
    name: 'server',
    description:
      'the composition root: builds the Fastify server and mounts everything (src/app.ts), the entry points (src/main.ts, src/cli.ts, src/production.ts)',
    holds: oneOf('src/app.ts', 'src/main.ts', 'src/cli.ts', 'src/production.ts'),
  },
  {
    name: 'rest-compat',
    description: 'the REST contract: each route is a compiled GraphQL document plus two mappings',
    holds: under('rest-compat'),
  },
  {
    name: 'http',
    description:
      'HTTP transport: the GraphQL execution path (Yoga envelope over HTTP, multipart and WebSocket), the response envelope, error handlers, CDN and downloads, metrics, the API reference page, the admin API',
    holds: under('src/http'),
  },
  {
    name: 'schema',
    description: 'the GraphQL schema (Pothos) and the request context',
    holds: (file) => under('src/schema')(file) || oneOf('src/builder.ts', 'src/context.ts')(file),
  },
  {
    name: 'domain',
    description:
      'the rules of the service, plain functions: src/<domain>/ and the shared src/*.ts (errors, config, log, metrics)',
    holds: (file) =>
      file.startsWith('src/') &&
      !under('src/db', 'src/generated')(file) &&
      file !== 'src/db.ts' &&
      file !== 'src/paths.ts',
  },
  {
    name: 'db',
    description:
      'the database: client, migrations, the generated Prisma client; and src/paths.ts, the project directory the migrations are read from (it imports nothing of the service)',
    holds: (file) => under('src/db', 'src/generated')(file) || file === 'src/db.ts' || file === 'src/paths.ts',
  },
];

export function layerOf(file: string): Layer | undefined {
  return LAYERS.find((layer) => layer.holds(file));
}

/** Packages and folders a part of the code base must never import, beyond the layer order. */
export const FORBIDDEN: { from: (file: string) => boolean; to: (target: string) => boolean; rule: string }[] = [
  {
    from: under('rest-compat'),
    to: (target) =>
      target.startsWith('@prisma/') ||
      target === 'pg' ||
      under('src/db', 'src/generated')(target) ||
      target === 'src/db.ts',
    rule: 'rest-compat never touches the database (no Prisma, no src/db): it executes GraphQL operations',
  },
  {
    from: under('src', 'bench', 'scripts', 'rest-compat'),
    to: under('test'),
    rule: 'only tests import test/: the service, the benchmark and scripts never do',
  },
  {
    from: under('src', 'rest-compat'),
    to: under('bench', 'scripts'),
    rule: 'the service never imports the benchmark or dev scripts',
  },
];

export interface Import {
  from: string;
  /** A file relative to the root, or a package name. */
  to: string;
}

const SOURCE_DIRS = ['src', 'rest-compat', 'bench', 'scripts'];

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    // Generated code (the Prisma client) is read only as a target of imports.
    if (rel(path) === 'src/generated') continue;
    if (statSync(path).isDirectory()) out.push(...listFiles(path));
    else if (/\.(m?ts|tsx)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

const rel = (path: string) => relative(ROOT, path).split(sep).join('/');

function resolveRelative(fromFile: string, specifier: string): string | undefined {
  const base = resolve(dirname(fromFile), specifier);
  const candidates = [
    base,
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.mjs$/, '.mts'),
    base.replace(/\.jsx$/, '.tsx'),
    `${base}.ts`,
    join(base, 'index.ts'),
  ];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

/** The package a bare specifier names (`@scope/name` or `name`). */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Every import of the TypeScript files under the given folders. */
export function collectImports(dirs: string[] = SOURCE_DIRS): { files: string[]; imports: Import[] } {
  const files = dirs.flatMap((d) => listFiles(join(ROOT, d)));
  const imports: Import[] = [];
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName: specifier } of info.importedFiles) {
      if (specifier.startsWith('.')) {
        const target = resolveRelative(file, specifier);
        if (!target) throw new Error(`${rel(file)}: cannot resolve import '${specifier}'`);
        imports.push({ from: rel(file), to: rel(target) });
      } else if (!specifier.startsWith('node:')) {
        imports.push({ from: rel(file), to: packageOf(specifier) });
      }
    }
  }
  return { files: files.map(rel), imports };
}

export interface Violation {
  from: string;
  to: string;
  rule: string;
}

/** Imports that go up the layers or break a FORBIDDEN rule. */
export function layerViolations(imports: Import[]): Violation[] {
  const violations: Violation[] = [];
  for (const { from, to } of imports) {
    for (const rule of FORBIDDEN) if (rule.from(from) && rule.to(to)) violations.push({ from, to, rule: rule.rule });
    const a = layerOf(from);
    const b = layerOf(to);
    if (a && b && LAYERS.indexOf(b) < LAYERS.indexOf(a)) {
      violations.push({ from, to, rule: `upward import: ${a.name} may not import ${b.name}` });
    }
  }
  return violations;
}

/** Groups of files that import each other in a circle (strongly connected components of more than one file, or a file importing itself). */
export function importCycles(imports: Import[]): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const { from, to } of imports) {
    if (!to.includes('/') || !/\.(m?ts|tsx)$/.test(to)) continue;
    if (!edges.has(from)) edges.set(from, new Set());
    edges.get(from)!.add(to);
  }
  // Tarjan's algorithm, iterative.
  let index = 0;
  const indices = new Map<string, number>();
  const lowlink = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const nodes = new Set([...edges.keys(), ...[...edges.values()].flatMap((s) => [...s])]);
  for (const start of nodes) {
    if (indices.has(start)) continue;
    const work: { node: string; next: Iterator<string> }[] = [];
    const visit = (node: string) => {
      indices.set(node, index);
      lowlink.set(node, index);
      index++;
      stack.push(node);
      onStack.add(node);
      work.push({ node, next: (edges.get(node) ?? new Set<string>()).values() });
    };
    visit(start);
    while (work.length) {
      const top = work[work.length - 1]!;
      const step = top.next.next();
      if (!step.done) {
        const child = step.value;
        if (!indices.has(child)) visit(child);
        else if (onStack.has(child)) lowlink.set(top.node, Math.min(lowlink.get(top.node)!, indices.get(child)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1]!.node;
        lowlink.set(parent, Math.min(lowlink.get(parent)!, lowlink.get(top.node)!));
      }
      if (lowlink.get(top.node) === indices.get(top.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== top.node);
        if (component.length > 1 || edges.get(top.node)?.has(top.node)) cycles.push(component.sort());
      }
    }
  }
  return cycles;
}

/** The domain folder of a file under src/ (`src/content`), or undefined for files at its root. */
export function folderOf(file: string): string | undefined {
  return /^(src\/[^/]+)\//.exec(file)?.[1];
}

/**
 * Cycles between folders of src/: the folders that import each other through
 * some chain, each cycle as its folders in order. A cycle of files is one too;
 * this also finds one that crosses folders through different files.
 */
export function folderCycles(imports: Import[]): string[][] {
  const between: Import[] = [];
  for (const { from, to } of imports) {
    const a = folderOf(from);
    const b = folderOf(to);
    // Folders stand in as files so that importCycles reads them.
    if (a && b && a !== b) between.push({ from: `${a}/.ts`, to: `${b}/.ts` });
  }
  return importCycles(between).map((cycle) => cycle.map((f) => f.slice(0, -'/.ts'.length)));
}
