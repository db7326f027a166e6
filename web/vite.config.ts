// Builds the web console into web/dist (scripts/build-web.mjs runs it); the
// service serves it at `/` (src/http/console.ts).
import { basename } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { STARTED_LOCALE_KEY } from './src/locale-storage.js';

/**
 * The language chunk fetched together with the console's script rather than after it ran (each language
 * is a chunk of its own, web/src/i18n.ts): a small script of its own (the Content-Security-Policy allows
 * no inline script), loaded async, adds a modulepreload link for the language the console last started
 * in. A first visit has none and fetches its language once the script chose it.
 */
function preloadLanguage(): Plugin {
  let script = '';
  return {
    name: 'preload-language',
    apply: 'build',
    enforce: 'pre',
    generateBundle(_, bundle) {
      const chunks: Record<string, string> = {};
      for (const chunk of Object.values(bundle))
        if (chunk.type === 'chunk' && chunk.facadeModuleId && /\/locales\/[\w-]+\.json$/.test(chunk.facadeModuleId))
          chunks[basename(chunk.facadeModuleId, '.json')] = `/${chunk.fileName}`;
      if (!Object.keys(chunks).length) this.error('no language chunk found');
      const source = `(function () {
  try {
    var file = ${JSON.stringify(chunks)}[localStorage.getItem(${JSON.stringify(STARTED_LOCALE_KEY)})];
    if (!file) return;
    var link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = file;
    document.head.appendChild(link);
  } catch (e) {}
})();
`;
      script = `/${this.getFileName(this.emitFile({ type: 'asset', name: 'preload-language.js', source }))}`;
    },
    transformIndexHtml: {
      order: 'post',
      handler: () => {
        if (!script) throw new Error('preload-language: index.html was written before the bundle');
        return [{ tag: 'script', attrs: { src: script, async: true }, injectTo: 'head' }];
      },
    },
  };
}

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react(), preloadLanguage()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 1024,
  },
  server: { proxy: { '/graphql': { target: 'http://localhost:8080', ws: true } } },
});
