import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { bootPlugin } from './boot-plugin.js';
import { galleryPlugin } from './gallery-plugin.js';

// The playground: web/ is the root; the core's TypeScript, the wasm build and
// the scenarios are imported from the repository (fs.allow '..'). base './'
// makes the static build work from any directory, and offline.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [galleryPlugin(), bootPlugin(), react()],
  server: { host: '127.0.0.1', port: 5173, strictPort: false, fs: { allow: ['..'] } },
  preview: { host: '127.0.0.1', port: 4173 },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: true, chunkSizeWarningLimit: 1200 },
  worker: { format: 'es' },
});
