// npm run bench: the core's speed and memory, native and wasm side by side,
// then the playground's bundle sizes and load times in Chromium.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureBrowser, root, setup } from './setup.mjs';

setup({ native: true });
const { register } = await import('tsx/esm/api');
register();
await import(pathToFileURL(join(root, 'wasm-core/bench/bench.ts')).href);
ensureBrowser();
const { measureWeb } = await import('./measure-web.mjs');
const w = await measureWeb();
const kb = (n) => `${(n / 1024).toFixed(0)} KiB`;
console.log('\nthe playground (production build, headless Chromium, localhost, median of 7 cold loads)');
for (const s of w.sizes)
  console.log(
    `  ${s.file.replace(/-[\w-]{8}\./, '.').padEnd(22)} ${kb(s.bytes).padStart(9)}  gzip ${kb(s.gzip).padStart(8)}`,
  );
const js = w.sizes.filter((s) => s.file.endsWith('.js') && !s.file.startsWith('Editor'));
console.log(
  `  first load (JS without the editor)  gzip ${kb(js.reduce((a, s) => a + s.gzip, 0))}; the editor loads on demand`,
);
console.log(`  time to an interactive gallery        ${w.galleryMs.toFixed(0)} ms`);
console.log(`  gallery click to the scenario ready   ${w.readyMs.toFixed(0)} ms (16 MiB file: record 5,154 events)`);
console.log(`  End key to the last frame on screen   ${w.seekMs.toFixed(0)} ms`);
console.log(
  `\ncold page load of the seed's 16 GiB scenario to its final state (fault-around on; fill 4 Mi pages, read them)`,
);
console.log(
  `  navigation to 262,144 faults on screen  median ${w.bigMs.median.toFixed(0)} ms (${w.bigMs.min.toFixed(0)}–${w.bigMs.max.toFixed(0)}) of ${w.bigMs.runs} fresh pages`,
);
