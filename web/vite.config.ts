import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { galleryPlugin } from './gallery-plugin.js';

// The playground: web/ is the root; the core's TypeScript, the wasm build and
// the scenarios are imported from the repository (fs.allow '..'). base './'
// makes the static build work from any directory, and offline.
/*
 * The page's entry (src/main.tsx) is a few lines: it starts a link's engine worker, then imports the page
 * (src/boot.tsx). index.html fetches that chunk and its CSS beside the entry, as it fetched the one entry
 * chunk before, instead of when the entry has run (a round trip more on a real network). The offline
 * single file has one chunk and nothing to add.
 */
function preloadBoot(): Plugin {
  return {
    name: 'mmplay-preload-boot',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {});
        const boot = chunks.find(
          (c) => c.type === 'chunk' && c.isDynamicEntry && c.facadeModuleId?.endsWith('/src/boot.tsx'),
        );
        if (!boot || boot.type !== 'chunk') return [];
        const href = (f: string) => `./${f}`;
        return [
          /* the chunk and the ones it imports, but the entry's own (it is loading already) */
          ...[
            boot.fileName,
            ...boot.imports.filter((f) => !chunks.some((c) => c.fileName === f && c.type === 'chunk' && c.isEntry)),
          ].map((f) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: href(f) },
            injectTo: 'head' as const,
          })),
          ...[...(boot.viteMetadata?.importedCss ?? [])].map((f) => ({
            tag: 'link',
            attrs: { rel: 'stylesheet', crossorigin: true, href: href(f) },
            injectTo: 'head' as const,
          })),
        ];
      },
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [galleryPlugin(), react(), preloadBoot()],
  server: { host: '127.0.0.1', port: 5173, strictPort: false, fs: { allow: ['..'] } },
  preview: { host: '127.0.0.1', port: 4173 },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: true, chunkSizeWarningLimit: 1200 },
  worker: { format: 'es' },
});
