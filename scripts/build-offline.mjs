// The offline playground: web/dist/mmplay-offline.html, one self-contained
// file that works when opened from disk (file://, no server, no network) as
// well as from any static server. Run by npm run build and npm test after the
// production build (which empties web/dist); alone: node scripts/build-offline.mjs
//
// Chromium refuses module scripts, module workers, dynamic imports and
// fetch() on a file:// page (origin null), so this is a second build of the
// same sources, in memory, with everything inline:
//   1. the engine worker as one classic script (iife), the wasm inline as a
//      base64 data: URL (worker.ts fetches it: fetch() reads a data: URL on any
//      origin; nothing goes to the network);
//   2. the page as one classic script (iife, the editor's lazy chunk inlined,
//      one CSS file), with the worker's code as the string constant
//      import.meta.env.MMPLAY_OFFLINE_WORKER, which client.ts starts from a
//      Blob URL (in every other build it is undefined);
//   3. the page's index.html with that script and CSS inline.
// web/dist/index.html and web/dist/assets/ (the served build) are not touched.
import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from './setup.mjs';

export const OFFLINE_FILE = 'web/dist/mmplay-offline.html';

/** one script or style element's text, safe inside the HTML: nothing in it can end the element or enter the parser's escaped states */
function inlineSafe(text, tag) {
  const out = text.replace(new RegExp(`</(${tag})`, 'gi'), '<\\/$1').replace(/<!--/g, '<\\!--');
  if (tag === 'style' && out !== text) throw new Error('the CSS contains </style or <!--: cannot inline it');
  return out;
}

function only(output, pred, what) {
  const items = output.filter(pred);
  if (items.length !== 1)
    throw new Error(`offline build: expected one ${what}, got ${items.map((o) => o.fileName).join(', ') || 'none'}`);
  return items[0];
}

export async function buildOffline({ logLevel = 'warn' } = {}) {
  const { build } = await import('vite');
  const web = join(root, 'web');
  const common = {
    logLevel,
    build: { write: false, sourcemap: false, minify: true, reportCompressedSize: false, copyPublicDir: false },
  };

  /* 1. the worker: a classic script, every asset (the wasm) inline */
  const w = await build({
    ...common,
    configFile: false,
    root: web,
    base: './',
    build: {
      ...common.build,
      target: 'es2022',
      assetsInlineLimit: () => true,
      modulePreload: false,
      rolldownOptions: {
        input: join(web, 'src/engine/worker.ts'),
        output: { format: 'iife', codeSplitting: false },
        /* the worker's lazy tour reader: the same preload helper as the page's editor (below) */
        onwarn(w, warn) {
          const injected = w.id?.includes('vite/preload-helper') || (w.loc?.line === 1 && w.loc?.column === 0);
          if (w.code === 'EMPTY_IMPORT_META' && injected) return;
          warn(w);
        },
      },
    },
  });
  const workerOut = (Array.isArray(w) ? w[0] : w).output;
  const workerJs = only(workerOut, (o) => o.type === 'chunk', 'worker chunk').code;
  if (workerOut.length !== 1)
    throw new Error(
      `offline build: the worker emitted files besides its script: ${workerOut.map((o) => o.fileName).join(', ')}`,
    );
  if (/\bimport\s*\(/.test(workerJs)) throw new Error('offline build: the worker script has a dynamic import');
  if (!workerJs.includes('data:application/wasm;base64,'))
    throw new Error('offline build: the wasm is not inline in the worker');

  /* 2. the page: web/vite.config.ts, one classic script, one CSS file, the worker's code as a constant */
  const p = await build({
    ...common,
    configFile: join(web, 'vite.config.ts'),
    define: { 'import.meta.env.MMPLAY_OFFLINE_WORKER': JSON.stringify(workerJs) },
    build: {
      ...common.build,
      emptyOutDir: false,
      cssCodeSplit: false,
      modulePreload: false,
      assetsInlineLimit: () => true,
      chunkSizeWarningLimit: 1e9,
      rolldownOptions: {
        output: { format: 'iife', codeSplitting: false },
        /* Vite's preload helper and the calls it injects for the lazy editor (at 1:0) read import.meta.url
           for a chunk's dependencies; with one chunk there are none, and {} stands in for import.meta */
        onwarn(w, warn) {
          const injected = w.id?.includes('vite/preload-helper') || (w.loc?.line === 1 && w.loc?.column === 0);
          if (w.code === 'EMPTY_IMPORT_META' && injected) return;
          warn(w);
        },
      },
    },
  });
  const out = (Array.isArray(p) ? p[0] : p).output;
  const js = only(out, (o) => o.type === 'chunk', 'page script');
  const css = out.filter((o) => o.type === 'asset' && o.fileName.endsWith('.css'));
  const html = only(out, (o) => o.type === 'asset' && o.fileName === 'index.html', 'index.html');
  /* the rest is not shipped (the page's own build of the module worker, for client.ts's served branch,
     which the constant drops as dead code): the script must not refer to it */
  for (const o of out)
    if (o !== js && o !== html && !css.includes(o) && js.code.includes(basename(o.fileName)))
      throw new Error(`offline build: the page script refers to ${o.fileName}, which is not inline`);
  if (/\bimport\s*\(/.test(js.code)) throw new Error('offline build: the page script has a dynamic import');

  /* 3. the page's HTML with everything inline: the script goes last in <body> (a classic script runs where it stands) */
  let page = String(html.source);
  const scriptTag = /\s*<script type="module"[^>]*\ssrc="[^"]*"[^>]*><\/script>/;
  const cssTag = /\s*<link rel="stylesheet"[^>]*>/g;
  if (!scriptTag.test(page)) throw new Error('offline build: no module script tag in index.html');
  if ((page.match(cssTag) ?? []).length !== css.length)
    throw new Error('offline build: index.html does not link every CSS file');
  if (/<link[^>]+rel="modulepreload"/.test(page)) throw new Error('offline build: index.html preloads modules');
  page = page.replace(scriptTag, '').replace(cssTag, '');
  const style = css.map((c) => inlineSafe(String(c.source), 'style')).join('\n');
  page = page.replace(/\s*<\/head>/, () => `\n    <style>\n${style}\n</style>\n  </head>`);
  page = page.replace(
    /\s*<\/body>(?![\s\S]*<\/body>)/,
    () => `\n    <script>\n${inlineSafe(js.code, 'script')}\n</script>\n  </body>`,
  );
  const file = join(root, OFFLINE_FILE);
  writeFileSync(file, page);
  return { file, bytes: Buffer.byteLength(page) };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const t = Date.now();
  const { file, bytes } = await buildOffline();
  console.log(
    `built ${file} (${(bytes / 1024).toFixed(0)} KiB, ${((Date.now() - t) / 1000).toFixed(1)} s): open it from disk, no server or network needed`,
  );
}
