// npm run bench: the core's speed and memory, native and wasm side by side,
// then the playground's bundle sizes and load times in Chromium. A whole run
// (no BENCH_ONLY) writes what it printed into docs/performance.md, between
// its bench:begin and bench:end markers: the figures the docs quote.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { scenarioReport } from './measure-scenarios.mjs';
import { ensureBrowser, root, setup } from './setup.mjs';

setup({ native: true });
/* everything printed, kept for the docs */
const printed = [];
const print = console.log;
console.log = (...a) => {
  printed.push(a.join(' '));
  print(...a);
};
const { register } = await import('tsx/esm/api');
register();
const started = new Date();
await (await import(pathToFileURL(join(root, 'wasm-core/bench/bench.ts')).href)).done;
if (process.env.BENCH_ONLY) {
  print(`\n(BENCH_ONLY=${process.env.BENCH_ONLY}: one part; docs/performance.md is written by a whole run)`);
  process.exit(0);
}
ensureBrowser();
const { measureWeb } = await import('./measure-web.mjs');
const w = await measureWeb();
const kb = (n) => `${(n / 1024).toFixed(0)} KiB`;
console.log('\nthe playground (production build, headless Chromium, localhost, median of 7 cold loads)');
for (const s of w.sizes)
  console.log(
    `  ${s.file.replace(/-[\w-]{8}\./, '.').padEnd(22)} ${kb(s.bytes).padStart(9)}  gzip ${kb(s.gzip).padStart(8)}`,
  );
console.log(
  `  first load, the gallery              gzip ${kb(w.firstLoad.gallery)} in ${w.firstLoad.galleryFiles.length} files (index.html's scripts); the worker follows when the browser is idle, the editor, the tours' reader and the texts when first used`,
);
console.log(
  `  first load, a scenario's link        gzip ${kb(w.firstLoad.scenario)} in ${w.firstLoad.scenarioFiles.length} files (with the worker and the scenario texts)`,
);
console.log(
  `  first load <= 200 KiB gzip (issue 31)   ${w.firstLoad.gallery <= 200 * 1024 ? 'met' : 'MISSED'}  (the gallery: ${kb(w.firstLoad.gallery)})`,
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
console.log('');
for (const l of scenarioReport(w.scenarios)) console.log(l);

/* the docs' copy of this run */
const doc = join(root, 'docs/performance.md');
const text = readFileSync(doc, 'utf8');
const begin = /<!-- bench:begin[^>]*-->/.exec(text);
const end = text.indexOf('<!-- bench:end -->');
if (!begin || end < begin.index) {
  console.error('docs/performance.md has no <!-- bench:begin --> ... <!-- bench:end --> block: not written');
  process.exit(1);
}
let commit = '?';
try {
  commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
} catch {
  /* not a git checkout */
}
const kernel = readFileSync('/proc/sys/kernel/osrelease', 'utf8').trim();
const block = [
  '<!-- bench:begin (written by npm run bench; do not edit) -->',
  `The last whole run of \`npm run bench\`: ${started.toISOString().slice(0, 10)}, commit ${commit}, Linux ${kernel}.`,
  '',
  '```text',
  ...printed.map((l) => l.replace(/\s+$/, '')),
  '```',
  '',
].join('\n');
writeFileSync(doc, text.slice(0, begin.index) + block + text.slice(end));
print('\nwritten: docs/performance.md (its bench block)');
