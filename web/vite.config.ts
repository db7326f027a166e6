// Builds the web console into web/dist (scripts/build-web.mjs runs it); the
// service serves it at `/` (src/http/console.ts).
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 1024,
  },
  server: { proxy: { '/graphql': { target: 'http://localhost:8080', ws: true } } },
});
