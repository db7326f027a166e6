// An application's production build carries no in-context editor: the
// example application (test/support/in-context-app) built with Vite as a
// real application is, its emitted files free of editor code, and the
// package's dist/ without an editor chunk. The editor is the service's own
// module (/in-context/editor.js), imported at run time only with a token.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../support/in-context-app.js';
// @ts-expect-error: a JavaScript build script without declarations.
import { buildInContext, EDITOR_FILE, PACKAGE_DIR } from '../../scripts/build-incontext.mjs';

// Strings only the editor holds: its overlay's and toolbar's element names and
// the mutation that marks keys on a screenshot (minification keeps strings).
const EDITOR_MARKERS = ['lms-incontext-overlay', 'lms-incontext-toolbar', 'linkScreenshotKey'];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/** The files under dir that hold editor code, relative to dir. */
function withEditorCode(dir: string): string[] {
  return filesUnder(dir)
    .filter((file) => {
      const text = readFileSync(file, 'utf8');
      return EDITOR_MARKERS.some((marker) => text.includes(marker));
    })
    .map((file) => relative(dir, file));
}

let work: string;

beforeAll(async () => {
  await buildInContext();
  work = mkdtempSync(join(tmpdir(), 'in-context-prod-'));
}, 120_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the editor is not in the package', () => {
  it('is the service’s module, holding the markers this test looks for', () => {
    const editor = readFileSync(EDITOR_FILE, 'utf8');
    for (const marker of EDITOR_MARKERS) expect(editor).toContain(marker);
    expect(editor).toMatch(/export\s*\{[^}]*\bstartEditor\b/);
  });

  it('has no editor chunk in the package’s dist/', () => {
    const dist = join(PACKAGE_DIR, 'dist');
    expect(readdirSync(dist).filter((name) => /editor/i.test(name))).toEqual([]);
    expect(withEditorCode(dist)).toEqual([]);
    // The core imports the editor from the service by a URL bundlers leave alone.
    const entry = readFileSync(join(dist, 'index.js'), 'utf8');
    expect(entry).toContain('/in-context/editor.js');
    expect(entry).toMatch(/import\(\s*\/\*\s*@vite-ignore\s*\*\//);
    expect(entry).toMatch(/webpackIgnore:\s*true/);
  });
});

describe('an application’s production build', () => {
  it('emits no editor code, with or without a token', async () => {
    for (const token of [undefined, 'ict_build-time-token']) {
      const out = join(work, token ? 'with-token' : 'production');
      await buildApp(out, { serviceUrl: 'https://l10n.example.com', token });
      const emitted = filesUnder(out).map((file) => relative(out, file));
      expect(emitted.some((file) => file.endsWith('.js'))).toBe(true);
      expect(emitted.filter((file) => /editor/i.test(file))).toEqual([]);
      expect(withEditorCode(out)).toEqual([]);
      // The plugin's core is in the application, with the editor's URL resolved at run time.
      const js = emitted
        .filter((file) => file.endsWith('.js'))
        .map((file) => readFileSync(join(out, file), 'utf8'))
        .join('\n');
      expect(js).toContain('/in-context/editor.js');
    }
  }, 120_000);
});
