/**
 * `import.meta.glob('…/*.yaml', { query: '?gallery' })`: each scenario file as
 * its card's facts, and `{ query: '?tourcard' }`: each tour's, read here, at
 * build time (and by the dev server and vitest), instead of in the browser on
 * every load; the texts themselves come later (src/texts.ts).
 */
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';
import { galleryMeta, tourCard } from './src/gallery-meta.js';

export function galleryPlugin(): Plugin {
  return {
    name: 'mmplay-gallery',
    enforce: 'pre',
    load(id) {
      const [file, query] = id.split('?');
      if (query !== 'gallery' && query !== 'tourcard') return null;
      const source = readFileSync(file, 'utf8');
      this.addWatchFile(file);
      return `export default ${JSON.stringify(query === 'gallery' ? galleryMeta(source) : tourCard(source))};`;
    },
  };
}
