/**
 * `import.meta.glob('…/*.yaml', { query: '?gallery' })`: each scenario file as
 * `{ source, meta }`, its card's facts read here, at build time (and by the
 * dev server and vitest), instead of in the browser on every load.
 */
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';
import { galleryMeta } from './src/gallery-meta.js';

export function galleryPlugin(): Plugin {
  return {
    name: 'mmplay-gallery',
    enforce: 'pre',
    load(id) {
      const [file, query] = id.split('?');
      if (query !== 'gallery') return null;
      const source = readFileSync(file, 'utf8');
      this.addWatchFile(file);
      return `export default ${JSON.stringify({ source, meta: galleryMeta(source) })};`;
    },
  };
}
