// The i18next in-context plugin (packages/i18next-incontext) with a real
// i18next: without a token it changes nothing (no post-processor, strings
// untouched, no editor loaded); with one, each string carries its key in
// invisible markers that read back to the key and namespace. The built ES
// module loads the editor only from the service, through a dynamic import.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { inContext } from '../../packages/i18next-incontext/src/index.js';
// @ts-expect-error: a JavaScript build script without declarations.
import { buildInContext, PACKAGE_DIR } from '../../scripts/build-incontext.mjs';

const resources = {
  en: { translation: { title: 'Statistics', greeting: 'Hello {{name}}' }, common: { save: 'Save' } },
};
const INVISIBLE = /[\u200b\u200c\u2060\u2061\u2063]/;

async function instance(token: string | undefined) {
  const plugin = inContext({ url: 'http://127.0.0.1:1', token });
  const i18n = i18next.createInstance();
  await i18n.use(plugin).init({ lng: 'en', ns: ['translation', 'common'], defaultNS: 'translation', resources });
  return { i18n, plugin };
}

describe('without a token', () => {
  it.each([undefined, '', '   '])('adds nothing to the strings and loads no editor (token %j)', async (token) => {
    const { i18n, plugin } = await instance(token);
    expect(i18n.t('title')).toBe('Statistics');
    expect(i18n.t('greeting', { name: 'Ada' })).toBe('Hello Ada');
    expect(i18n.t('common:save')).toBe('Save');
    expect(INVISIBLE.test(i18n.t('title') + i18n.t('common:save'))).toBe(false);
    expect(i18n.options.postProcess).toBeFalsy();
    expect(plugin.editor).toBeUndefined();
  });
});

describe('with a token', () => {
  it('marks each string with its key and namespace, invisibly', async () => {
    const { i18n, plugin } = await instance('ict_test');
    const title = i18n.t('title');
    expect(title).not.toBe('Statistics');
    expect(title.replace(new RegExp(INVISIBLE.source, 'g'), '')).toBe('Statistics');
    expect(plugin.keysIn(title)).toEqual([{ key: 'title', namespace: '' }]);
    expect(plugin.keysIn(i18n.t('common:save'))).toEqual([{ key: 'save', namespace: 'common' }]);
    expect(plugin.keysIn(i18n.t('save', { ns: 'common' }))).toEqual([{ key: 'save', namespace: 'common' }]);
    const sentence = `${i18n.t('greeting', { name: 'Ada' })} — ${i18n.t('title')}`;
    expect(plugin.keysIn(sentence)).toEqual([
      { key: 'greeting', namespace: '' },
      { key: 'title', namespace: '' },
    ]);
    // In Node (no document) the editor is not started.
    expect(plugin.editor).toBeUndefined();
  });
});

describe('the built package', () => {
  beforeAll(async () => {
    await buildInContext();
  });

  it('is an ES module that imports the editor from the service, an IIFE and declarations', () => {
    const dist = join(PACKAGE_DIR, 'dist');
    const entry = readFileSync(join(dist, 'index.js'), 'utf8');
    // No static import at all but i18next's types (erased); the editor only by a variable URL at run time.
    expect(entry).not.toMatch(/^import\s/m);
    expect(entry).not.toMatch(/import\(\s*["'`]/);
    expect(entry).toContain('/in-context/editor.js');
    expect(entry).not.toContain('html-to-image');
    expect(entry.length).toBeLessThan(5_000);
    expect(readdirSync(dist).sort()).toEqual([
      '.inputs',
      'api.d.ts',
      'i18next-incontext.iife.js',
      'index.d.ts',
      'index.js',
    ]);
    const pkg = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8'));
    expect(pkg.peerDependencies.i18next).toBeTruthy();
    expect(pkg.exports['.']).toEqual({ types: './dist/index.d.ts', import: './dist/index.js' });
    expect(readFileSync(join(dist, 'i18next-incontext.iife.js'), 'utf8').slice(0, 60)).toMatch(
      /^("use strict";)?var I18nextInContext=/,
    );
  });
});
